"""The rules of a match in words, read off their declarations (models/game/rules.py): the lines of
"Rules of this match" and the one-line summaries (a preset's on the new-match form, the printed
sheet's head). No setting is named here: a new declaration is listed and said with the others."""
from __future__ import annotations

from flask_babel import gettext

from models.game.presets import PRESETS
from models.game.rules import LAST, Rules, Setting, Words, placed
from views.site.i18n import number

CLASSIC = PRESETS["classic"]


def in_words(words: Words, value) -> str:
    """The value in its setting's words, in the page's language ("" when they say nothing)."""
    template = words.template(value)
    if not template:
        return ""
    if isinstance(value, bool) or not isinstance(value, int):
        return gettext(template, value=str(value))
    return gettext(template, value=number(value))


def rules_lines(rules: Rules) -> list[tuple[str, str]]:
    """(title, what it is) for each line of "Rules of this match", in its place; a setting that is
    an aside adds its words in brackets to its line's, and one that changes nothing now is left out."""
    lines: dict[str, list] = {}  # by setting: many settings may share the place LAST, each its own line
    heads: dict[float, str] = {}  # the place's line that its asides join
    asides: dict[float, list] = {}
    for name, declared in placed(lambda s: (s.listed.place, s.listed.aside)):
        if not declared.matters(rules):
            continue
        words = in_words(declared.listed_words(), getattr(rules, name))
        if declared.listed.aside:
            if words:
                asides.setdefault(declared.listed.place, []).append(words)
        else:
            lines[name] = [gettext(declared.listed.title or declared.label), words]
            heads.setdefault(declared.listed.place, name)
    for place, said in asides.items():
        if place in heads:
            lines[heads[place]][1] += " (" + "; ".join(said) + ")"
    return [(title, words) for title, words in lines.values()]


def phrase(rules: Rules, name: str, declared: Setting, always: bool) -> str:
    """The setting's phrase in a summary, when it is said: `always`, or when it differs from Classic."""
    value = getattr(rules, name)
    if not declared.matters(rules) or not (always or value != getattr(CLASSIC, name)):
        return ""
    return in_words(declared.said.words, value)


def rules_summary(rules: Rules, printed: bool = False) -> str:
    """The rules in one line by their own settings: those said `always` (gin, undercut and box),
    then whatever else differs from Classic, so a table's own preset never reads like Modern when
    it is not.

    `printed`: the printed sheet's head after the format: first what it always says (the game's
    end, the bonuses), then only what else differs from Classic."""
    summed = [(name, declared) for name, declared in placed(lambda s: s.said.place if s.said else LAST)
              if declared.said is not None]
    if printed:
        head = sorted((d.said.printed, name, d) for name, d in summed if d.said.printed is not None)
        parts = [phrase(rules, name, declared, True) for _, name, declared in head]
        parts += [phrase(rules, name, declared, declared.said.always) for name, declared in summed
                  if declared.said.printed is None]
    else:
        parts = [phrase(rules, name, declared, declared.said.always) for name, declared in summed]
    return ", ".join(part for part in parts if part)

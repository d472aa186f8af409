"""Every rule setting is declared once, as its field of `Rules` (models/game/rules.py): its default, bounds
or choices, label and doc come from that one declaration, and what the engine checks, the form
offers and the catalogues translate are read off it. The closed choices are StrEnums that stay
their plain words in the match file, the database and JSON."""
from __future__ import annotations

import ast
import json
import re
from dataclasses import fields
from pathlib import Path

import pytest

from models.game.entry import read_entry
from models.errors import MatchError
from models.game.hand import DRAW, KNOCK, POINTS, Hand, HandKind
from models.game.presets import PRESETS
from models.game.rules import (BOOL_SETTINGS, CHOICE_SETTINGS, DEALER_RULES, INT_RANGES, OKLAHOMA_ACES, SETTING_NAMES,
                               SETTINGS, DealerRule, OklahomaAce, Pairing, PartnershipBoxes, Rules, Setting, Table,
                               rules_from, setting)

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ("Ana", "Ben")


def test_every_field_of_rules_is_declared_by_setting():
    for field in fields(Rules):
        declared = field.metadata.get("setting")
        assert isinstance(declared, Setting), field.name
        assert declared.label.strip() and declared.doc.strip(), field.name
        if declared.kind is int:
            assert isinstance(field.default, int) and declared.low <= field.default <= declared.high, field.name
        else:
            assert isinstance(field.default, declared.kind), field.name
            assert declared.low is None and declared.high is None, field.name
    assert SETTING_NAMES == tuple(field.name for field in fields(Rules)) == tuple(SETTINGS)


def test_the_tables_of_settings_are_read_off_the_declarations():
    assert INT_RANGES == {name: (s.low, s.high) for name, s in SETTINGS.items() if s.kind is int}
    assert BOOL_SETTINGS == tuple(name for name, s in SETTINGS.items() if s.kind is bool)
    assert CHOICE_SETTINGS == {"dealer_rule": tuple(DealerRule), "oklahoma_ace": tuple(OklahomaAce),
                               "table": tuple(Table), "pairing": tuple(Pairing),
                               "partnership_boxes": tuple(PartnershipBoxes)}
    assert sorted([*INT_RANGES, *BOOL_SETTINGS, *CHOICE_SETTINGS]) == sorted(SETTING_NAMES)
    # The bounds the engine has always kept.
    assert INT_RANGES["knock_limit"] == (0, 10) and INT_RANGES["target"] == (1, 1_000_000)
    assert INT_RANGES["shutout_multiplier"] == (1, 100)
    assert INT_RANGES["gin_boxes"] == INT_RANGES["undercut_boxes"] == (1, 5)
    assert DEALER_RULES == ("winner", "loser", "alternate") and OKLAHOMA_ACES == ("gin", "one")


def rules_source() -> ast.Module:
    return ast.parse((ROOT / "models" / "game" / "rules.py").read_text(encoding="utf-8"))


def test_each_setting_name_is_written_once_in_models_rules():
    """No hand-written table beside the declarations: a setting's name appears only as its field."""
    names = set(SETTING_NAMES)
    written = [node.value for node in ast.walk(rules_source())
               if isinstance(node, ast.Constant) and node.value in names]
    assert written == [], written
    declared = [node.target.id for cls in ast.walk(rules_source()) if isinstance(cls, ast.ClassDef)
                and cls.name == "Rules" for node in cls.body if isinstance(node, ast.AnnAssign)]
    assert declared == list(SETTING_NAMES)


# Where a page draws what a rule does (the race to the target, a settlement's sums, the upcard Oklahoma
# asks for), not a list of the settings: the only places on the web side that name a setting.
GAME_USES = {
    "templates/_hand_form.html": {"oklahoma", "knock_limit"},
    "templates/_race.html": {"target"},
    "templates/_scoreboard.html": {"target"},
    "templates/_settlements.html": {"immediate_boxes", "box_bonus", "shutout_bonus", "shutout_multiplier"},
    "templates/_sheet.html": {"oklahoma", "shutout_multiplier", "immediate_boxes", "box_bonus"},
    "templates/count.html": {"oklahoma"},
    "templates/_deal_boards.html": {"oklahoma"},  # a board's upcard (issue 46)
    "templates/_table_board.html": {"target"},  # the sides' games, drawn to their target
    "views/match/cards.py": {"oklahoma"},
}
SETTING_WORD = r"(?P<name>%s)" % "|".join(sorted(SETTING_NAMES, key=len, reverse=True))
# In a template: a rule read (rules.x), a form's field (form.x, form['x']), a name in quotes (a list of them).
IN_TEMPLATE = re.compile(r"\b(?:rules|form)\.%s\b|['\"]%s['\"]" % (SETTING_WORD, SETTING_WORD.replace("?P<name>", "")))


def named_in_template(text: str) -> set[str]:
    found = set()
    for match in IN_TEMPLATE.finditer(text):
        found |= {word for word in SETTING_NAMES if re.search(r"\b%s\b" % word, match.group(0))}
    return found


def owner(node: ast.AST) -> str:
    """The last name of what an attribute is read from: `rules` of `match.rules.target`."""
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


# A setting whose name is also the house's word for a hosted table (views/tables/, the "table" of a
# session or an address): a string of it is that word, so only a rule read or given names the setting.
HOUSE_WORDS = {"table"}


def named_in_python(text: str) -> set[str]:
    """A setting named in Python: a string of its name, a rule read (`rules.x`, `CLASSIC.x`), a rule given
    (`Rules(x=...)`, `replace(rules, x=...)`) or a class's field (a form's `x = ...`)."""
    names, found = set(SETTING_NAMES), set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Constant) and node.value in names - HOUSE_WORDS:
            found.add(node.value)
        elif isinstance(node, ast.Attribute) and node.attr in names and (
                owner(node.value).lower().endswith("rules") or owner(node.value).isupper()):
            found.add(node.attr)
        elif isinstance(node, ast.Call) and owner(node.func) in ("Rules", "replace", "rules_from"):
            found |= {keyword.arg for keyword in node.keywords if keyword.arg in names}
        elif isinstance(node, ast.ClassDef):
            assigned = [target for line in node.body if isinstance(line, (ast.Assign, ast.AnnAssign))
                        for target in (line.targets if isinstance(line, ast.Assign) else [line.target])]
            found |= {target.id for target in assigned if isinstance(target, ast.Name) and target.id in names}
    return found


def web_files() -> list[Path]:
    """The web side and the files: every view, template and script, the app and its commands, the file formats."""
    return sorted([ROOT / "app.py", ROOT / "cli.py", *ROOT.glob("views/**/*.py"), *ROOT.glob("models/files/*.py"),
                   *ROOT.glob("templates/**/*.html"), *ROOT.glob("static/**/*.js")])


def named_settings(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    return named_in_python(text) if path.suffix == ".py" else named_in_template(text)


def test_the_checks_find_a_setting_written_by_hand():
    """The lists the web side kept by hand before the settings were drawn from their declarations: each
    is found, so one written again (or a setting left out of one) fails the test below."""
    assert named_in_template("{% for name in ['gin_bonus', 'undercut_bonus', 'undercut_boxes'] %}") == {
        "gin_bonus", "undercut_bonus", "undercut_boxes"}
    assert named_in_template("<dt>{{ _('Boxes for an undercut') }}</dt><dd>{{ match.rules.undercut_boxes }}</dd>"
                             ) == {"undercut_boxes"}
    assert named_in_template("{{ form.undercut_boxes.label }} {{ form['gin_boxes']() }}") == {"undercut_boxes",
                                                                                               "gin_boxes"}
    assert named_in_python('class NewMatchForm(Form):\n    undercut_boxes = setting("gin_boxes")\n') == {
        "undercut_boxes", "gin_boxes"}
    assert named_in_python('PHRASES = {"undercut_boxes": N_("undercut boxes %(value)s")}') == {"undercut_boxes"}
    assert named_in_python("said = rules.undercut_boxes != CLASSIC.undercut_boxes") == {"undercut_boxes"}
    assert named_in_python("Rules(undercut_boxes=2)") == {"undercut_boxes"}
    # Words that only look like a setting are not one: a page's target, an event's target, a word in a sentence.
    assert named_in_template('{{ count_pad(target) }} <a data-for="{{ target }}">the target</a>') == set()
    assert named_in_python("def safe_path(target):\n    target = event.target\n    Thread(target=run)") == set()


def test_no_web_module_or_template_names_a_setting_by_hand():
    """The form's fields, the "Adjust rules" grid, "Rules of this match", the summaries, the printed head
    and the match file are drawn from the declarations: no web module, template, script or file format
    names a setting, but where a page draws what a rule does (GAME_USES)."""
    named = {str(path.relative_to(ROOT)): found for path in web_files() if (found := named_settings(path))}
    assert named == GAME_USES
    for listing in ("templates/new_match.html", "templates/_rules.html", "views/match/forms.py",
                    "views/match/rule_words.py", "views/match/matches.py", "models/files/matchfile.py"):
        assert (ROOT / listing).exists() and listing not in named, listing


def test_the_labels_are_marked_for_the_catalogues_and_the_form_shows_them(app):
    """Each label is an N_ literal of models/game/rules.py, so `pybabel extract` finds it, and it is the
    label of the new-match form's field of that name."""
    marked = {node.args[0].value for node in ast.walk(rules_source())
              if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_"
              and node.args and isinstance(node.args[0], ast.Constant)}
    for name, declared in SETTINGS.items():
        assert declared.label in marked, name
        for word in (declared.choices if name in CHOICE_SETTINGS else ()):
            assert word.label in marked, (name, word)

    from views.match.forms import CHOICE_LABELS, NewMatchForm

    with app.test_request_context("/matches/new"):
        form = NewMatchForm(meta={"csrf": False})
        for name, declared in SETTINGS.items():
            assert form[name].label.text == declared.label, name
            if name in INT_RANGES:
                between = [v for v in form[name].validators if hasattr(v, "low")]
                assert [(v.low, v.high) for v in between] == [INT_RANGES[name]], name
            if name in CHOICE_SETTINGS:
                assert [value for value, _ in form[name].choices] == ["", *CHOICE_SETTINGS[name]], name
            if name in BOOL_SETTINGS:  # a tick box, or "as the preset / yes / no"
                asked = [] if declared.ticked else ["", "on", "off"]
                assert [value for value, _ in getattr(form[name], "choices", [])] == asked, name
        assert [str(label) for label in CHOICE_LABELS["oklahoma_ace"].values()] == [word.label for word in OklahomaAce]
    assert [name for name in BOOL_SETTINGS if SETTINGS[name].ticked] == ["oklahoma"]


@pytest.mark.parametrize("kind", [DealerRule, OklahomaAce, HandKind])
def test_the_enums_round_trip_as_their_plain_words(kind):
    for member in kind:
        assert kind(member.value) is member and kind(str(member)) is member
        assert member == member.value and hash(member) == hash(member.value)
        assert str(member) == f"{member}" == member.value and type(str(member)) is str
        assert json.dumps(member) == json.dumps(member.value)
        assert json.loads(json.dumps({"w": member}))["w"] == member.value
    with pytest.raises(ValueError):
        kind("nobody")


def test_the_choices_are_held_as_members_and_written_as_plain_strings():
    rules = rules_from({"dealer_rule": "alternate", "oklahoma_ace": "one"})
    assert rules.dealer_rule is DealerRule.ALTERNATE and rules.oklahoma_ace is OklahomaAce.ONE
    assert Rules().dealer_rule is DealerRule.WINNER and Rules(dealer_rule="loser").dealer_rule is DealerRule.LOSER
    for preset in (*PRESETS.values(), rules):
        written = preset.to_dict()
        assert all(type(value) in (int, bool, str) for value in written.values()), written
        assert rules_from(json.loads(json.dumps(written))) == preset
        assert hash(rules_from(written)) == hash(preset)
    assert json.dumps(rules.to_dict()).count('"alternate"') == 1


def test_a_choice_outside_its_enum_is_refused_naming_the_words():
    with pytest.raises(MatchError) as refused:
        rules_from({"dealer_rule": "Winner"})
    assert refused.value.field == "rules.dealer_rule"
    assert str(refused.value.reason) == "must be one of winner, loser, alternate, not 'Winner'"
    with pytest.raises(MatchError):
        rules_from({"oklahoma_ace": ["gin"]})


def test_hand_kinds_are_members_whether_read_or_stored():
    read = [read_entry(raw, PLAYERS, Rules()) for raw in (
        {"knocker": "Ana", "knocker_deadwood": 3, "opponent_deadwood": 9}, {"draw": True},
        {"winner": "Ben", "points": 12})]
    assert [hand.kind for hand in read] == [HandKind.KNOCK, HandKind.DRAW, HandKind.POINTS]
    assert (KNOCK, DRAW, POINTS) == tuple(HandKind)
    assert Hand("draw").kind is HandKind.DRAW and Hand("draw") == Hand(HandKind.DRAW)
    assert all(type(value) is not HandKind for hand in read for value in hand.to_dict().values())


def test_setting_refuses_a_declaration_it_cannot_check():
    with pytest.raises(TypeError):
        setting(5, label="x", doc="x")  # a whole number needs bounds
    with pytest.raises(TypeError):
        setting(True, low=0, high=1, label="x", doc="x")
    with pytest.raises(TypeError):
        setting("winner", label="x", doc="x")  # a choice is a Choice's member, not a bare word

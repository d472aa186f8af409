"""The settings of RULES.md as one frozen value, with their validation.

Every setting is declared once, as a field of `Rules` made by `setting`: its default, its bounds
(a whole number's low and high, a choice's StrEnum), what it does, and every word a page says of it
(English templates marked with N_, translated where they are shown): its label and place on the
new-match form, its line on "Rules of this match", its phrase in a rules summary and on the printed
sheet. INT_RANGES, BOOL_SETTINGS, CHOICE_SETTINGS, SETTING_NAMES and the web's forms, lists and
phrases are read off those declarations; no other module names a setting to list it.
"""
from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace

from models.errors import N_, MatchError

# Bounds that keep every setting meaningful; the upper ones only stop absurd input.
LARGEST = 1_000_000
LAST = math.inf  # the place of a setting that names none: after the others, in the order declared


class Choice(enum.StrEnum):
    """One word of a closed choice: the member is its match-file word (so it compares, hashes and
    is written as that string) and carries its label on the new-match form."""

    label: str

    def __new__(cls, word: str, label: str):
        member = str.__new__(cls, word)
        member._value_ = word
        member.label = label
        return member


class DealerRule(Choice):
    """Who deals after a won hand (a draw is dealt again by the same dealer)."""

    WINNER = "winner", N_("winner")
    LOSER = "loser", N_("loser")
    ALTERNATE = "alternate", N_("alternate")


class OklahomaAce(Choice):
    """What an ace upcard allows in Oklahoma: gin only, or a knock with 1 or less."""

    GIN = "gin", N_("gin only")
    ONE = "one", N_("a knock with 1 or less")


class Table(Choice):
    """Who plays (RULES.md, "Tables of three and four"): two players, or two sides of a table of three or
    four. `target` is the kind's own default target, taken when the table does not set one."""

    target: int

    def __new__(cls, word: str, label: str, target: int):
        member = str.__new__(cls, word)
        member._value_ = word
        member.label, member.target = label, target
        return member

    TWO = "two", N_("two players"), 100
    PARTNERS = "partners", N_("partners, two against two"), 125
    CHOUETTE = "chouette", N_("chouette, one against the table"), 100


class Pairing(Choice):
    """Partners: who meets whom on the two boards of a deal."""

    ALTERNATE = "alternate", N_("opponents change every deal")
    FIXED = "fixed", N_("the same opponents on the same boards")


class PartnershipBoxes(Choice):
    """Partners: the boxes the side that wins a deal earns."""

    DEAL = "deal", N_("one box for the deal")
    BOARD = "board", N_("the boxes of every board it won")


@dataclass(frozen=True)
class Words:
    """What a page says of a setting's value: `each` value's words (words "" say nothing), else
    `otherwise`, a template of %(value)s (None: nothing); English, translated where shown."""

    each: tuple[tuple[object, str], ...] = ()
    otherwise: str | None = None

    def template(self, value: object) -> str | None:
        """The words for `value` (None or "": the page says nothing of it)."""
        return next((words for known, words in self.each
                     if known == value and isinstance(known, bool) == isinstance(value, bool)), self.otherwise)


def words(each: dict | None = None, otherwise: str | None = None) -> Words:
    return Words(tuple((each or {}).items()), otherwise)


@dataclass(frozen=True)
class Listed:
    """A setting on the match page's "Rules of this match" (templates/_rules.html): the line at
    `place`, titled `title` (None: its label), its value in `words` (None: a whole number as
    itself, yes or no, a choice's label). A setting with an `aside` number adds its words to the
    line of the same place instead, in brackets after that line's value, in that number's order."""

    place: float = LAST
    title: str | None = None
    words: Words | None = None
    aside: int = 0


@dataclass(frozen=True)
class Said:
    """A setting in a rules summary (a preset's line on the new-match form, the printed sheet's head),
    at `place`, in `words`: when its value differs from Classic's, or `always`.
    `printed`: its place among what the printed head always says first, after the format."""

    place: float
    words: Words
    always: bool = False
    printed: int | None = None


@dataclass(frozen=True)
class Setting:
    """What a rule setting is besides its default: its kind (int, bool or the Choice of its words),
    a whole number's bounds, the doc of what it does, and how the pages show it: the form's label
    and place (`asked`; a yes/no `ticked` is one tick box below the others, that turns it on),
    its line on "Rules of this match" (`listed`), its phrase in a summary (`said`; None: not said)
    and `applies`: what else must be on for it to change anything (else it is neither listed nor said)."""

    kind: type
    label: str
    doc: str
    low: int | None = None
    high: int | None = None
    asked: float = LAST
    ticked: bool = False
    listed: Listed = Listed()
    said: Said | None = None
    applies: Callable[[Rules], bool] | None = None
    tables_only: bool = False

    @property
    def choices(self) -> tuple[Choice, ...]:
        return tuple(self.kind)

    def listed_words(self) -> Words:
        """Its value's words on "Rules of this match": as declared, else by its kind."""
        if self.listed.words is not None:
            return self.listed.words
        if self.kind is bool:
            return words({True: N_("yes"), False: N_("no")})
        if self.kind is int:
            return words(otherwise="%(value)s")
        return words({word.value: word.label for word in self.choices})

    def matters(self, rules: Rules) -> bool:
        return self.applies is None or bool(self.applies(rules))


def setting(default: int | bool | Choice, *, label: str, doc: str, low: int | None = None,
            high: int | None = None, **shown):
    """A field of `Rules` with its whole declaration in its metadata (key "setting"); `shown` are
    Setting's words and places (asked, ticked, listed, said, applies)."""
    kind = type(default)
    if kind is int:
        if low is None or high is None or not low <= default <= high:
            raise TypeError(f"a whole-number setting needs bounds around its default {default}")
    elif low is not None or high is not None:
        raise TypeError("only a whole-number setting has bounds")
    elif kind is not bool and not issubclass(kind, Choice):
        raise TypeError(f"a setting is a whole number, yes/no or a Choice, not {kind.__name__}")
    if shown.get("ticked") and kind is not bool:
        raise TypeError("only a yes/no setting is a tick box")
    return dataclasses.field(default=default, metadata={"setting": Setting(kind, label, doc, low, high, **shown)})


def oklahoma_on(rules: Rules) -> bool:
    return rules.oklahoma


def spade_doubling_on(rules: Rules) -> bool:
    return rules.oklahoma and rules.spade_double


def of_three_or_four(rules: Rules) -> bool:
    return rules.table != Table.TWO


def partners_on(rules: Rules) -> bool:
    return rules.table == Table.PARTNERS


@dataclass(frozen=True)
class Rules:
    # `asked`: the new-match form's order; `listed`: the order of "Rules of this match"; `said`: a summary's.
    gin_bonus: int = setting(
        25, low=0, high=LARGEST, label=N_("Gin bonus"),
        doc="Added to the defender's deadwood when the knocker goes gin; some tables play 20.",
        asked=1, listed=Listed(3), said=Said(1, words(otherwise=N_("gin %(value)s")), always=True, printed=2))
    undercut_bonus: int = setting(
        10, low=0, high=LARGEST, label=N_("Undercut bonus"),
        doc="Added to the difference when the defender undercuts; modern sources say 25.",
        asked=2, listed=Listed(5),
        said=Said(2, words(otherwise=N_("undercut %(value)s")), always=True, printed=3))
    big_gin_bonus: int = setting(
        31, low=0, high=LARGEST, label=N_("Big gin bonus"),
        doc="Gin's bonus for a hand entered as big gin (all 11 cards melded).",
        asked=3, listed=Listed(4), said=Said(6, words(otherwise=N_("big gin %(value)s"))))
    knock_limit: int = setting(
        10, low=0, high=10, label=N_("Knock limit"),
        doc="The most deadwood a knocker may keep (Oklahoma: the deal's upcard sets it instead).",
        asked=4, listed=Listed(2), said=Said(4, words(otherwise=N_("knock at %(value)s"))))
    target: int = setting(
        100, low=1, high=LARGEST, label=N_("Game ends at"),
        doc="The score that closes a game the moment a player's total reaches it; some play 125 or 150.",
        asked=5, listed=Listed(1), said=Said(5, words(otherwise=N_("to %(value)s")), printed=1))
    game_bonus: int = setting(
        100, low=0, high=LARGEST, label=N_("Game bonus"),
        doc="Added to the game winner's total at the settlement.",
        asked=6, listed=Listed(6), said=Said(7, words(otherwise=N_("game %(value)s")), printed=5))
    box_bonus: int = setting(
        25, low=0, high=LARGEST, label=N_("Box bonus (per hand won)"),
        doc="Per box, for every hand won in the game; classic books say 20.",
        asked=7, listed=Listed(7, N_("Box bonus")),
        said=Said(3, words(otherwise=N_("box %(value)s")), always=True, printed=4))
    shutout_multiplier: int = setting(
        2, low=1, high=100, label=N_("Shutout multiplier"),
        doc="Multiplies the net of a game the loser scored nothing in; 1 turns shutouts off.",
        asked=8, listed=Listed(12, N_("Shutout"), words(otherwise=N_("× %(value)s"))),
        said=Said(8, words(otherwise=N_("shutout × %(value)s"))))
    dealer_rule: DealerRule = setting(
        DealerRule.WINNER, label=N_("After a win, who deals"),
        doc="Who deals after a won hand: the winner, the loser, or the players alternate.",
        asked=12, listed=Listed(13, N_("Next dealer"), words({
            DealerRule.WINNER: N_("the winner of the hand; after a draw the same dealer"),
            DealerRule.LOSER: N_("the loser of the hand; after a draw the same dealer"),
            DealerRule.ALTERNATE: N_("the players take turns; after a draw the same dealer")})),
        said=Said(12, words({DealerRule.WINNER: N_("the winner deals"), DealerRule.LOSER: N_("the loser deals"),
                             DealerRule.ALTERNATE: N_("the deal alternates")})))
    oklahoma: bool = setting(
        False, label=N_("Oklahoma (the upcard sets the knock limit)"),
        doc="The first upcard of each deal sets its knock limit (an ace: see oklahoma_ace).",
        ticked=True, listed=Listed(2, words=words({True: N_("Oklahoma: the upcard sets it")}), aside=1),
        said=Said(13, words({True: N_("Oklahoma")})))
    spade_double: bool = setting(
        True, label=N_("Spade upcard doubles"),
        doc="With Oklahoma: a hand whose upcard is a spade scores double.",
        asked=16, listed=Listed(2, words=words({True: N_("spade upcard doubles")}), aside=3),
        said=Said(14, words({True: N_("spade doubles"), False: N_("no spade doubling")}), always=True),
        applies=oklahoma_on)
    # The variants of RULES.md ("Variants"): the defaults play exactly as before.
    undercut_on_tie: bool = setting(
        True, label=N_("Equal counts are an undercut"),
        doc="False: equal counts are a knock won by the knocker for 0 points (still a win).",
        asked=14, listed=Listed(11, N_("Equal counts"), words({True: N_("an undercut"),
                                                                False: N_("the knocker wins, for 0")})),
        said=Said(15, words({False: N_("a tie goes to the knocker")})))
    immediate_boxes: bool = setting(
        False, label=N_("Boxes count at once, towards the target"),
        doc="Each box is added to the game's score as the hand is written, and the settlement adds none.",
        asked=15, listed=Listed(7, words=words({True: N_("added to the score at once, towards the target"),
                                               False: N_("added at the settlement")}), aside=1),
        said=Said(16, words({True: N_("boxes count at once")})))
    shutout_bonus: int = setting(
        0, low=0, high=LARGEST, label=N_("Shutout bonus"),
        doc="Added to the winner's total of a shutout game, before the multiplier.",
        asked=9, listed=Listed(12, words=words({0: ""}, N_("after a shutout bonus of %(value)s")), aside=1),
        said=Said(9, words(otherwise=N_("shutout bonus %(value)s"))))
    gin_boxes: int = setting(
        1, low=1, high=5, label=N_("Boxes for a gin"),
        doc="The boxes a gin or big gin earns in each game it is written into.",
        asked=10, listed=Listed(8), said=Said(10, words(otherwise=N_("gin boxes %(value)s"))))
    undercut_boxes: int = setting(
        1, low=1, high=5, label=N_("Boxes for an undercut"),
        doc="The boxes an undercut earns in each game it is written into.",
        asked=11, listed=Listed(9), said=Said(11, words(otherwise=N_("undercut boxes %(value)s"))))
    oklahoma_ace: OklahomaAce = setting(
        OklahomaAce.GIN, label=N_("An ace upcard allows"),
        doc="With Oklahoma: an ace upcard means gin only, or lets a player knock with 1 or less.",
        asked=18, listed=Listed(2, words=words({OklahomaAce.GIN: N_("ace = gin only"),
                                               OklahomaAce.ONE: N_("ace = 1 or less")}), aside=2),
        said=Said(18, words({OklahomaAce.ONE: N_("ace knocks at 1")})), applies=oklahoma_on)
    spade_double_boxes: bool = setting(
        False, label=N_("A doubled hand earns twice its boxes"),
        doc="With Oklahoma's spade_double: a doubled hand also earns twice its boxes.",
        asked=17, listed=Listed(10), said=Said(17, words({True: N_("doubled boxes")})), applies=spade_doubling_on)
    # Tables of three and four (RULES.md): `tables_only` settings are left out of a table of two's
    # to_dict, so its files and rows stay as they were before these tables.
    table: Table = setting(
        Table.TWO, label=N_("Table"), tables_only=True,
        doc="Two players; partners (four, two against two on two boards); chouette (one in the box against the rest).",
        asked=0, listed=Listed(0), said=Said(0, words({Table.PARTNERS: N_("partners"),
                                                      Table.CHOUETTE: N_("chouette")})),
        applies=of_three_or_four)
    pairing: Pairing = setting(
        Pairing.ALTERNATE, label=N_("Opponents on the boards"), tables_only=True,
        doc="Partners: alternate changes the opponents with every deal; fixed keeps them.",
        asked=19, listed=Listed(14), said=Said(19, words({Pairing.FIXED: N_("fixed opponents")})),
        applies=partners_on)
    partnership_boxes: PartnershipBoxes = setting(
        PartnershipBoxes.DEAL, label=N_("Boxes of a won deal"), tables_only=True,
        doc="Partners: deal gives the deal's winners one box; board, the boxes of every board they won.",
        asked=20, listed=Listed(15), said=Said(20, words({PartnershipBoxes.BOARD: N_("boxes by board")})),
        applies=partners_on)

    def __post_init__(self) -> None:
        """A choice given as its word ("loser", as a file or the form has it) is held as its member."""
        for name, kind in CHOICE_KINDS.items():
            object.__setattr__(self, name, kind(getattr(self, name)))

    def to_dict(self) -> dict:
        """Every setting by name, a choice as its plain word (the match file's and the database's); a table
        of two leaves out the settings of tables of three and four."""
        two = self.table == Table.TWO
        return {name: value.value if isinstance(value, Choice) else value for name, value in asdict(self).items()
                if not (two and SETTINGS[name].tables_only)}


# Read off the declarations above, in their order.
SETTINGS: dict[str, Setting] = {f.name: f.metadata["setting"] for f in fields(Rules)}
SETTING_NAMES = tuple(SETTINGS)
# (smallest, largest) for every whole-number setting.
INT_RANGES = {name: (s.low, s.high) for name, s in SETTINGS.items() if s.kind is int}
BOOL_SETTINGS = tuple(name for name, s in SETTINGS.items() if s.kind is bool)
# Settings that take one word of a fixed list.
CHOICE_KINDS = {name: s.kind for name, s in SETTINGS.items() if issubclass(s.kind, Choice)}
CHOICE_SETTINGS = {name: s.choices for name, s in SETTINGS.items() if name in CHOICE_KINDS}
DEALER_RULES = tuple(DealerRule)


def placed(place: Callable[[Setting], object]) -> list[tuple[str, Setting]]:
    """(name, declaration) of every setting in the places `place` reads off its declaration (the form's,
    the list's, a summary's), those in one place (LAST) in the order declared."""
    return [(name, declared) for _, _, name, declared in sorted(
        ((place(declared), n, name, declared) for n, (name, declared) in enumerate(SETTINGS.items())),
        key=lambda each: each[:2])]
OKLAHOMA_ACES = tuple(OklahomaAce)
TABLES = tuple(Table)
# The setting that says the table: also the match file's own key for it (MATCHFILE.md), read off its declaration.
TABLE_SETTING = next(name for name, declared in SETTINGS.items() if declared.kind is Table)


def table_rules(table: Table | str, settings: object = None) -> Rules:
    """The rules of a new match at `table`: its kind's defaults (partners play to 125) under `settings`."""
    kind = Table(table)
    return rules_from(settings, Rules(table=kind, target=kind.target))

def at_table(base: Rules, table: Table | str) -> Rules:
    """A preset's rules at `table`: a table of three or four plays to its kind's target (partners 125)."""
    kind = Table(table)
    return base if kind == Table.TWO else replace(base, table=kind, target=kind.target)


def is_integer(value: object) -> bool:
    """A JSON integer: bool is an int subclass in Python but not a number here."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_setting(name: str, value: object) -> None:
    field = f"rules.{name}"
    declared = SETTINGS.get(name)
    if declared is None:
        raise MatchError(field, N_("unknown setting"))
    if declared.kind is int:
        if not is_integer(value):
            raise MatchError(field, N_("must be a whole number"))
        if not declared.low <= value <= declared.high:
            raise MatchError(field, N_("must be between {low} and {high}, not {value}"),
                             low=declared.low, high=declared.high, value=value)
    elif declared.kind is bool:
        if not isinstance(value, bool):
            raise MatchError(field, N_("must be true or false"))
    elif value not in declared.choices:
        raise MatchError(field, N_("must be one of {choices}, not {value!r}"),
                         choices=", ".join(declared.choices), value=value)


def rules_from(settings: object, base: Rules = Rules()) -> Rules:
    """Validate a partial mapping of settings and lay it over `base`."""
    if settings is None:
        return base
    if not isinstance(settings, dict):
        raise MatchError("rules", N_("must be an object of settings"))
    for name, value in settings.items():
        check_setting(name, value)
    return replace(base, **settings)

"""The settings of RULES.md as one frozen value, with the presets and validation.

Every setting is declared once, as a field of `Rules` made by `setting`: its default, its bounds
(a whole number's low and high, a choice's StrEnum), its label on the new-match form (an English
template marked with N_, translated where it is shown) and what it does. INT_RANGES,
BOOL_SETTINGS, CHOICE_SETTINGS and SETTING_NAMES are read off those declarations.
"""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import asdict, dataclass, fields, replace

from models.errors import N_, MatchError

# Bounds that keep every setting meaningful; the upper ones only stop absurd input.
LARGEST = 1_000_000


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


@dataclass(frozen=True)
class Setting:
    """What a rule setting is besides its default: its kind (int, bool or the Choice of its words),
    a whole number's bounds, the form's label and the doc of what it does."""

    kind: type
    label: str
    doc: str
    low: int | None = None
    high: int | None = None

    @property
    def choices(self) -> tuple[Choice, ...]:
        return tuple(self.kind)


def setting(default: int | bool | Choice, *, label: str, doc: str, low: int | None = None,
            high: int | None = None):
    """A field of `Rules` with its whole declaration in its metadata (key "setting")."""
    kind = type(default)
    if kind is int:
        if low is None or high is None or not low <= default <= high:
            raise TypeError(f"a whole-number setting needs bounds around its default {default}")
    elif low is not None or high is not None:
        raise TypeError("only a whole-number setting has bounds")
    elif kind is not bool and not issubclass(kind, Choice):
        raise TypeError(f"a setting is a whole number, yes/no or a Choice, not {kind.__name__}")
    return dataclasses.field(default=default, metadata={"setting": Setting(kind, label, doc, low, high)})


@dataclass(frozen=True)
class Rules:
    gin_bonus: int = setting(
        25, low=0, high=LARGEST, label=N_("Gin bonus"),
        doc="Added to the defender's deadwood when the knocker goes gin; some tables play 20.")
    undercut_bonus: int = setting(
        10, low=0, high=LARGEST, label=N_("Undercut bonus"),
        doc="Added to the difference when the defender undercuts; modern sources say 25.")
    big_gin_bonus: int = setting(
        31, low=0, high=LARGEST, label=N_("Big gin bonus"),
        doc="Gin's bonus for a hand entered as big gin (all 11 cards melded).")
    knock_limit: int = setting(
        10, low=0, high=10, label=N_("Knock limit"),
        doc="The most deadwood a knocker may keep (Oklahoma: the deal's upcard sets it instead).")
    target: int = setting(
        100, low=1, high=LARGEST, label=N_("Game ends at"),
        doc="The score that closes a game the moment a player's total reaches it; some play 125 or 150.")
    game_bonus: int = setting(
        100, low=0, high=LARGEST, label=N_("Game bonus"),
        doc="Added to the game winner's total at the settlement.")
    box_bonus: int = setting(
        25, low=0, high=LARGEST, label=N_("Box bonus (per hand won)"),
        doc="Per box, for every hand won in the game; classic books say 20.")
    shutout_multiplier: int = setting(
        2, low=1, high=100, label=N_("Shutout multiplier"),
        doc="Multiplies the net of a game the loser scored nothing in; 1 turns shutouts off.")
    dealer_rule: DealerRule = setting(
        DealerRule.WINNER, label=N_("After a win, who deals"),
        doc="Who deals after a won hand: the winner, the loser, or the players alternate.")
    oklahoma: bool = setting(
        False, label=N_("Oklahoma (the upcard sets the knock limit)"),
        doc="The first upcard of each deal sets its knock limit (an ace: see oklahoma_ace).")
    spade_double: bool = setting(
        True, label=N_("Spade upcard doubles"),
        doc="With Oklahoma: a hand whose upcard is a spade scores double.")
    # The variants of RULES.md ("Variants"): the defaults play exactly as before.
    undercut_on_tie: bool = setting(
        True, label=N_("Equal counts are an undercut"),
        doc="False: equal counts are a knock won by the knocker for 0 points (still a win).")
    immediate_boxes: bool = setting(
        False, label=N_("Boxes count at once, towards the target"),
        doc="Each box is added to the game's score as the hand is written, and the settlement adds none.")
    shutout_bonus: int = setting(
        0, low=0, high=LARGEST, label=N_("Shutout bonus"),
        doc="Added to the winner's total of a shutout game, before the multiplier.")
    gin_boxes: int = setting(
        1, low=1, high=5, label=N_("Boxes for a gin"),
        doc="The boxes a gin or big gin earns in each game it is written into.")
    undercut_boxes: int = setting(
        1, low=1, high=5, label=N_("Boxes for an undercut"),
        doc="The boxes an undercut earns in each game it is written into.")
    oklahoma_ace: OklahomaAce = setting(
        OklahomaAce.GIN, label=N_("An ace upcard allows"),
        doc="With Oklahoma: an ace upcard means gin only, or lets a player knock with 1 or less.")
    spade_double_boxes: bool = setting(
        False, label=N_("A doubled hand earns twice its boxes"),
        doc="With Oklahoma's spade_double: a doubled hand also earns twice its boxes.")

    def __post_init__(self) -> None:
        """A choice given as its word ("loser", as a file or the form has it) is held as its member."""
        for name, kind in CHOICE_KINDS.items():
            object.__setattr__(self, name, kind(getattr(self, name)))

    def to_dict(self) -> dict:
        """Every setting by name, a choice as its plain word (the match file's and the database's)."""
        return {name: value.value if isinstance(value, Choice) else value for name, value in asdict(self).items()}


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
OKLAHOMA_ACES = tuple(OklahomaAce)

PRESETS = {
    "classic": Rules(),
    "modern": Rules(gin_bonus=25, undercut_bonus=25, box_bonus=25),
    "bicycle": Rules(gin_bonus=20, undercut_bonus=10, box_bonus=20, shutout_bonus=100, shutout_multiplier=1),
    "palace": Rules(undercut_bonus=20, box_bonus=10, immediate_boxes=True, game_bonus=0, shutout_multiplier=1),
}


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

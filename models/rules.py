"""The settings of RULES.md as one frozen value, with the presets and validation."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from .errors import N_, MatchError

DEALER_RULES = ("winner", "loser", "alternate")
OKLAHOMA_ACES = ("gin", "one")  # what an ace upcard allows: gin only, or a knock with 1 or less
# Bounds that keep every setting meaningful; the upper ones only stop absurd input.
LARGEST = 1_000_000


@dataclass(frozen=True)
class Rules:
    gin_bonus: int = 25
    undercut_bonus: int = 10
    big_gin_bonus: int = 31
    knock_limit: int = 10
    target: int = 100
    game_bonus: int = 100
    box_bonus: int = 25
    shutout_multiplier: int = 2
    dealer_rule: str = "winner"
    oklahoma: bool = False
    spade_double: bool = True
    # The variants of RULES.md ("Variants"): the defaults play exactly as before.
    undercut_on_tie: bool = True
    immediate_boxes: bool = False
    shutout_bonus: int = 0
    gin_boxes: int = 1
    undercut_boxes: int = 1
    oklahoma_ace: str = "gin"
    spade_double_boxes: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


PRESETS = {
    "classic": Rules(),
    "modern": Rules(gin_bonus=25, undercut_bonus=25, box_bonus=25),
    "bicycle": Rules(gin_bonus=20, undercut_bonus=10, box_bonus=20, shutout_bonus=100, shutout_multiplier=1),
    "palace": Rules(undercut_bonus=20, box_bonus=10, immediate_boxes=True, game_bonus=0, shutout_multiplier=1),
}

# (smallest, largest) for every whole-number setting.
INT_RANGES = {
    "gin_bonus": (0, LARGEST),
    "undercut_bonus": (0, LARGEST),
    "big_gin_bonus": (0, LARGEST),
    "knock_limit": (0, 10),
    "target": (1, LARGEST),
    "game_bonus": (0, LARGEST),
    "box_bonus": (0, LARGEST),
    "shutout_multiplier": (1, 100),
    "shutout_bonus": (0, LARGEST),
    "gin_boxes": (1, 5),
    "undercut_boxes": (1, 5),
}
BOOL_SETTINGS = ("oklahoma", "spade_double", "undercut_on_tie", "immediate_boxes", "spade_double_boxes")
# Settings that take one word of a fixed list.
CHOICE_SETTINGS = {"dealer_rule": DEALER_RULES, "oklahoma_ace": OKLAHOMA_ACES}
SETTING_NAMES = tuple(f.name for f in fields(Rules))


def is_integer(value: object) -> bool:
    """A JSON integer: bool is an int subclass in Python but not a number here."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_setting(name: str, value: object) -> None:
    field = f"rules.{name}"
    if name not in SETTING_NAMES:
        raise MatchError(field, N_("unknown setting"))
    if name in INT_RANGES:
        low, high = INT_RANGES[name]
        if not is_integer(value):
            raise MatchError(field, N_("must be a whole number"))
        if not low <= value <= high:
            raise MatchError(field, N_("must be between {low} and {high}, not {value}"), low=low, high=high, value=value)
    elif name in BOOL_SETTINGS:
        if not isinstance(value, bool):
            raise MatchError(field, N_("must be true or false"))
    elif value not in CHOICE_SETTINGS[name]:
        raise MatchError(field, N_("must be one of {choices}, not {value!r}"),
                         choices=", ".join(CHOICE_SETTINGS[name]), value=value)


def rules_from(settings: object, base: Rules = Rules()) -> Rules:
    """Validate a partial mapping of settings and lay it over `base`."""
    if settings is None:
        return base
    if not isinstance(settings, dict):
        raise MatchError("rules", N_("must be an object of settings"))
    for name, value in settings.items():
        check_setting(name, value)
    return replace(base, **settings)

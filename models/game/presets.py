"""The built-in presets of the new-match form: each a name, what it is and its rules, declared once here."""
from __future__ import annotations

from dataclasses import dataclass

from models.errors import N_
from models.game.rules import Rules


@dataclass(frozen=True)
class Preset:
    """A built-in preset: its name and what it is (English templates, N_-marked: the form translates them) and
    its rules. Declared here once; the form's choices, their words and PRESETS are read from it."""
    name: str
    about: str
    rules: Rules


BUILT_IN = {
    "classic": Preset(N_("Classic"), N_("the usual Hollywood scoring"), Rules()),
    "modern": Preset(N_("Modern"), N_("every bonus 25"), Rules(gin_bonus=25, undercut_bonus=25, box_bonus=25)),
    "bicycle": Preset(N_("Bicycle"), N_("as the rules printed by Bicycle cards score it"),
                      Rules(gin_bonus=20, undercut_bonus=10, box_bonus=20, shutout_bonus=100, shutout_multiplier=1)),
    "palace": Preset(N_("Palace"), N_("boxes count at once, no game bonus"),
                     Rules(undercut_bonus=20, box_bonus=10, immediate_boxes=True, game_bonus=0, shutout_multiplier=1)),
}
PRESETS = {key: preset.rules for key, preset in BUILT_IN.items()}

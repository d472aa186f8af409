"""What a table of three or four's pages draw from one fold: its page at the table, the spectator's link, the
big screen and the live regions a following phone swaps in (templates/_table_live.html). Every figure is
the engine's (models/game/tables/); this only names them for the templates."""
from __future__ import annotations

from flask_babel import lazy_gettext

from models.game.tables.money import player_net
from models.storage.match_rows import StoredMatch
from views.site.forms import VersionForm
from .scoreboard import game_box
from .sheet import RESULT_NAMES, race_picture

# A deal's results besides a board's (models/game/tables/deal.py: DEAL, LEVEL), in the page's words.
DEAL_RESULTS = {**RESULT_NAMES, "deal": lazy_gettext("won on the boards"), "level": lazy_gettext("level")}


def table_context(stored: StoredMatch, readonly: bool = False, controls: bool | None = None) -> dict:
    """The sides' games, the deals, each player's money and the next deal's number; `readonly`: no form,
    no undo (the spectator's link, the big screen). `controls` (by default: not `readonly`): the version the
    undo, the row tools and the finished match's rematch are posted with (templates/_table_board.html), so
    the player's page and a phone following it draw them alike; the player's own big screen has none."""
    sheet = stored.sheet()
    context = {"stored": stored, "match": stored.match, "sheet": sheet, "sides": sheet.sides, "readonly": readonly,
               "money": player_net(sheet.sides, sheet.net), "game_box": game_box, "result_names": DEAL_RESULTS,
               "race_figure": lambda number: race_picture(sheet, number)}
    if (not readonly) if controls is None else controls:
        context["version_form"] = VersionForm(formdata=None, version=stored.version)
    return context

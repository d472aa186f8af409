"""A game's box on the scoreboard, written in Python: the boxes of the games a saved hand went
into are drawn anew after every hand, and the template's loops, filters and strings made the
scoreboard a fifth of the page a saved hand leads to. The board around them is templates/_scoreboard.html."""
from __future__ import annotations

from markupsafe import Markup, escape

from views.site.i18n import number, page_text, signed


def game_box(game, players: tuple[str, str], target: int) -> Markup:
    """Full names always (they wrap, the score moves under them); a closed game reads as won:
    the winner's line is marked and the status is a badge, nothing is struck out."""
    # The strings are outside the f-strings: pybabel extract does not look inside one.
    boxes_title = page_text("boxes")
    title = page_text("Game %(number)s", number=game.number)
    lines = "".join(
        f'    <p class="line{" won" if game.winner == name else ""}"><span class="who"><bdi>{escape(name)}</bdi></span> '
        f'<span class="score"><span class="pts">{game.scores[name]}</span> '
        f'<span class="boxes" title="{boxes_title}">{game.boxes[name]}▫</span></span></p>\n'
        for name in players)
    if game.open:
        to_target = page_text("to %(target)s", target=number(target))
        status = f'<p class="status">{to_target}</p>'
    else:
        won = page_text("%(winner)s wins", winner=Markup('<span class="winner">%s</span>') % game.winner)
        status = f'<p class="status badge">{won} · {escape(signed(game.settlement.net))}</p>'
    # In the order it is seen (an open game's "to 100" beside its title, a won game's badge under the scores), so a
    # phone that paints the page before the parser reached the status does not see the scores pushed down after.
    before, after = (f'    {status}\n', '') if game.open else ('', f'    {status}\n')
    return Markup(
        f'\n  <div class="game{"" if game.open else " closed"}">\n'
        f'    <p class="game-title">{title}</p>\n'
        f'{before}{lines}{after}  </div>\n  ')

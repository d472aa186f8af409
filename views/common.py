"""What several views share: finding a match, and telling the player what happened."""
from __future__ import annotations

from flask import abort

from db import get_db
from models import storage
from models.ledger import Line, Sheet


def match_or_404(match_id: int) -> storage.StoredMatch:
    try:
        return storage.get_match(get_db(), match_id)
    except storage.NoSuchMatch:
        abort(404, description="There is no such match.")


def match_by_token_or_404(token: str) -> storage.StoredMatch:
    try:
        return storage.get_match_by_token(get_db(), token)
    except storage.NoSuchMatch:
        abort(404, description="This read-only link is not known here.")


def games_phrase(games: tuple[int, ...] | list[int]) -> str:
    if not games:
        return "no game"
    numbers = [str(n) for n in games]
    if len(numbers) == 1:
        return f"game {numbers[0]}"
    return "games " + ", ".join(numbers[:-1]) + " and " + numbers[-1]


RESULT_WORDS = {
    "knock": "",
    "gin": "Gin! ",
    "big_gin": "Big gin! ",
    "undercut": "Undercut! ",
    "points": "",
}


def line_summary(line: Line) -> str:
    """'Undercut! Ben scores 35 → game 1', as the preview and the flash say it."""
    if line.outcome.winner is None:
        return f"Hand {line.number}: a draw; {line.dealer} deals again."
    text = (f"Hand {line.number}: {RESULT_WORDS[line.outcome.result]}{line.outcome.winner} scores "
            f"{line.outcome.points} → {games_phrase(line.games)}.")
    if line.closed:
        text += f" {line.outcome.winner} wins {games_phrase(line.closed)}."
    return text


def closing_changes(before: Sheet, after: Sheet) -> list[str]:
    """What an edit or delete did to the games, so the table is told."""
    messages = []
    for old, new in zip(before.games, after.games):
        if old.winner and not new.winner:
            messages.append(f"Game {new.number} is open again.")
        elif new.winner and old.winner != new.winner:
            messages.append(f"Game {new.number} is now closed: {new.winner} wins it.")
    if before.finished and not after.finished:
        messages.append("The match is no longer over.")
    return messages

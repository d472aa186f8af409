"""What a change to the hands moves on the sheet: the two folds compared, in words.

Deleting a hand renumbers the hands after it, and each of them may now go into
other games or be dealt by the other player; games may reopen or close. The
table is told before it deletes (the confirmation page) and after an edit (the
flash), from the same comparison. English templates (Message); the web layer
translates them.
"""
from __future__ import annotations

from models.errors import N_, Message, Plural, Series
from .ledger import Line, Sheet, score_sheet
from .match import Match


def games_words(games: tuple[int, ...]) -> Message:
    if not games:
        return Message(N_("no game"))
    return Plural("game {games}", "games {games}", len(games), games=Series(games))


def without_hand(match: Match, number: int) -> Sheet:
    """The match folded as if hand `number` had never been entered (MatchOver if it then ends early)."""
    hands = list(match.hands)
    del hands[number - 1]
    return score_sheet(match.with_hands(hands))


def game_turn(old, new) -> Message | None:
    """A game that reopens, closes or goes to the other player, said as it will stand and as it stood."""
    if old.winner and not new.winner:
        return Message(N_("Game {number} is open again (before: won by {was})."), number=new.number, was=old.winner)
    if new.winner and not old.winner:
        return Message(N_("Game {number} is now closed: {winner} wins it (before: still open)."), number=new.number,
                       winner=new.winner)
    if new.winner != old.winner:
        return Message(N_("Game {number} is now won by {winner} (before: by {was})."), number=new.number,
                       winner=new.winner, was=old.winner)
    return None


def match_turn(before: Sheet, after: Sheet) -> Message | None:
    """The match's result, when it changes: as it will stand and as it stood."""
    if before.finished and not after.finished:
        return Message(N_("The match is no longer over (before: won by {was})."), was=before.winner)
    if after.finished and not before.finished:
        return Message(N_("The match is now over: {winner} wins it (before: still being played)."),
                       winner=after.winner)
    if before.finished and before.winner != after.winner:
        return Message(N_("{winner} now wins the match (before: {was})."), winner=after.winner, was=before.winner)
    return None


def game_changes(before: Sheet, after: Sheet) -> list[Message]:
    """Games that reopen or close (or change winner), and the match's result."""
    turns = [game_turn(old, new) for old, new in zip(before.games, after.games)] + [match_turn(before, after)]
    return [turn for turn in turns if turn is not None]


def moved_line(old: Line, new: Line) -> list[Message]:
    """A later hand, renumbered: the games it goes into and its dealer, when they are not what they were."""
    messages = []
    if old.games != new.games and old.outcome.winner is not None:
        messages.append(Message(N_("Hand {old}, now hand {new}: {games} (before: {was})."), old=old.number,
                                new=new.number, games=games_words(new.games), was=games_words(old.games)))
    if old.dealer != new.dealer:
        messages.append(Message(N_("Hand {old}, now hand {new}: {dealer} dealt (before: {was})."), old=old.number,
                                new=new.number, dealer=new.dealer, was=old.dealer))
    return messages


def deletion_changes(before: Sheet, after: Sheet, number: int) -> list[Message]:
    """Everything that moves when hand `number` goes: each later hand, the next dealer, the games."""
    messages = []
    for old, new in zip(before.lines[number:], after.lines[number - 1:]):
        messages.extend(moved_line(old, new))
    if before.next_dealer != after.next_dealer and not after.finished:
        messages.append(Message(N_("{dealer} deals next (before: {was})."), dealer=after.next_dealer,
                                was=before.next_dealer))
    return messages + game_changes(before, after)


def closing_moves(before: Sheet, after: Sheet, number: int) -> list[Message]:
    """A game still won by the same player that now closes with another hand than the one it did
    (its closing hand, moved one down when it is `number` or later, is not the one that closes it now).
    `was` is the old number, as "Hand 6, now hand 7" says it."""
    messages = []
    for old, new in zip(before.games, after.games):
        if old.winner and old.winner == new.winner:
            if new.closed_by != old.closed_by + (old.closed_by >= number):
                messages.append(Message(N_("Game {number} now closes with hand {hand} (before: hand {was})."),
                                        number=new.number, hand=new.closed_by, was=old.closed_by))
    return messages


def insertion_changes(before: Sheet, after: Sheet, number: int) -> list[Message]:
    """What moves when a hand goes in as hand `number`: each later hand (renumbered), then the games."""
    messages = []
    for old, new in zip(before.lines[number - 1:], after.lines[number:]):
        messages.extend(moved_line(old, new))
    return messages + closing_moves(before, after, number) + game_changes(before, after)


def closed_changes(before: Sheet, after: Sheet, number: int) -> list[Message]:
    """What a hand put back as hand `number` changes of what was already settled: a game closed before
    that now closes with another hand, reopens, goes to the other player or settles for another net,
    and the match's result. Empty when it only adds to open games (or closes one)."""
    messages = closing_moves(before, after, number)
    for old, new in zip(before.games, after.games):
        if not old.winner:
            continue
        if new.winner != old.winner:
            messages.append(game_turn(old, new))
        elif old.settlement and new.settlement and old.settlement.net != new.settlement.net:
            messages.append(Message(N_("Game {number} now settles for {net} (before: {was})."),
                                    number=new.number, net=new.settlement.net, was=old.settlement.net))
    if before.finished and match_turn(before, after):
        messages.append(match_turn(before, after))
    return messages


def figure_changes(before: Sheet, after: Sheet) -> list[Message]:
    """Every figure under the sheet that moves: each game's points and boxes by player, a settled game's
    net, the match's net by player. What the sheet shows is only ever these, folded from the hands."""
    messages = []
    for old, new in zip(before.games, after.games):
        for name in before.players:
            for template, was, now in ((N_("Game {number}, points – {player}: {now} (before: {was})."),
                                        old.scores[name], new.scores[name]),
                                       (N_("Game {number}, boxes – {player}: {now} (before: {was})."),
                                        old.boxes[name], new.boxes[name])):
                if was != now:
                    messages.append(Message(template, number=new.number, player=name, now=now, was=was))
        if old.settlement and new.settlement and old.settlement.net != new.settlement.net:
            messages.append(Message(N_("Game {number}, net: {now} (before: {was})."), number=new.number,
                                    now=new.settlement.net, was=old.settlement.net))
    for name in before.players:
        if before.net[name] != after.net[name]:
            messages.append(Message(N_("Match net – {player}: {now} (before: {was})."), player=name,
                                    now=after.net[name], was=before.net[name]))
    return messages

"""Property tests of tables of three and four (RULES.md, "Tables of three and four") over generated files.

Every match is folded as `flask --app app replay` folds it: `score_sheet(read_document(parse_json(text)))`
(models/files/matchfile.py). The seats, the pairing of the boards and chouette's captain are written here
again from RULES.md, not taken from models/game/tables/, so a test can catch the engine disagreeing with them:
- partners `[A, B, C, D]`: sides A & C and B & D; board 1 is A-B and board 2 C-D on odd deals and under
  `fixed`, A-D and C-B on even deals under `alternate`;
- chouette `[X, T1, T2(, T3)]`: X plays every hand against the captain; T1 captains first, a captain who
  loses a hand hands over to the next team player in seat order (round again), one who wins or draws plays on.
"""
from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.files.matchfile import parse_json, read_document, replay
from models.game.entry import read_entry
from models.game.hand import score
from models.game.ledger import Sheet, score_sheet, sheet_after
from models.game.names import identity
from tests.test_engine_properties import HAND_CODES, Digits, decode_hand, names, rule_settings

MAX_DEALS = 40
TABLE_SETTINGS = settings(
    max_examples=int(os.environ.get("TABLE_EXAMPLES", "120")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
JOIN = " & "  # RULES.md: a side is named by its players joined with " & "

seatings = st.lists(names, min_size=4, max_size=4, unique_by=identity)
chouette_seatings = st.lists(names, min_size=3, max_size=4, unique_by=identity)
partners_settings = st.fixed_dictionaries({}, optional={"pairing": st.sampled_from(["alternate", "fixed"]),
                                                        "partnership_boxes": st.sampled_from(["deal", "board"])})
lengths = st.sampled_from([MAX_DEALS, 21, 8, 3, 1, 0])  # the first (Hypothesis's simplest) runs to the end


def fold(doc: dict) -> Sheet:
    """The sheet `replay` computes for `doc`; its output must be that sheet's."""
    text = json.dumps(doc)
    sheet = score_sheet(read_document(parse_json(text)))
    assert replay(text) == sheet.to_dict()
    return sheet


def finished_at(doc: dict) -> dict:
    """`doc` cut after the deal that finishes the match (a deal after it is refused), folded one deal at a time
    as the saved-deal path does, which must agree with the fold at once."""
    match = read_document(parse_json(json.dumps(doc)))
    sheet = score_sheet(match.with_hands(()))
    for count, entry in enumerate(match.hands, start=1):
        sheet = sheet_after(sheet, entry)
        if sheet.finished:
            doc = {**doc, "hands": doc["hands"][:count]}
            break
    assert sheet == score_sheet(match.with_hands(match.hands[:len(doc["hands"])]))
    return doc


def board_pairs(players: list[str], pairing: str, number: int) -> tuple[tuple[str, str], tuple[str, str]]:
    """RULES.md: who meets whom on deal `number`'s two boards, the first side's player first."""
    a, b, c, d = players
    if pairing == "alternate" and number % 2 == 0:
        return (a, d), (c, b)
    return (a, b), (c, d)


def side_of(players: list[str], name: str) -> str:
    """Partners: A & C or B & D."""
    a, b, c, d = players
    return JOIN.join((a, c)) if name in (a, c) else JOIN.join((b, d))


def won_by(raw: dict, pair: tuple[str, str], undercut_on_tie: bool) -> str | None:
    """Who wins a two-player hand in match-file form (RULES.md: an undercut is the defender's)."""
    if "draw" in raw:
        return None
    if "winner" in raw:
        return raw["winner"]
    kd, od = raw["knocker_deadwood"], raw["opponent_deadwood"]
    undercut = kd > 0 and (kd > od or (kd == od and undercut_on_tie))
    knocker = raw["knocker"]
    return (pair[1] if knocker == pair[0] else pair[0]) if undercut else knocker


def renamed(raw: dict, names_: dict[str, str]) -> dict:
    """A hand with its knocker or winner named as `names_` says."""
    return {key: names_.get(value, value) if key in ("knocker", "winner") else value for key, value in raw.items()}


# ---------------------------------------------------------------------------
# (a) Partners whose board 2 is always drawn score as the table of two of board 1
# ---------------------------------------------------------------------------


@st.composite
def one_board_matches(draw):
    """A partners file whose board 2 is drawn on every deal (now and then a deal typed for one side), and the
    table of two the rules make of it: the sides as its players, board 1's hands as its hands."""
    players = draw(seatings)
    settings_ = {**draw(rule_settings), **draw(partners_settings)}
    doc = {"table": "partners", "players": players, "rules": settings_, "first_dealer": draw(st.sampled_from(players))}
    pairing, rules = settings_.get("pairing", "alternate"), rules_of(doc)
    codes = draw(st.lists(HAND_CODES, min_size=draw(lengths), max_size=MAX_DEALS))
    side = {name: side_of(players, name) for name in players}
    doc["hands"], two_hands = [], []
    for number, code in enumerate(codes, start=1):
        if Digits(code).pick(12) == 0:  # a whole deal typed as points for one side: 1 box
            deal = {"winner": players[code % 4], "points": 1 + code % 150}
            doc["hands"].append(deal)
            two_hands.append(renamed(deal, side))
            continue
        pair = board_pairs(players, pairing, number)[0]
        board1 = decode_hand(code // 12, pair, rules, small=True)
        board2 = {"draw": True, **({"upcard": board1["upcard"]} if "upcard" in board1 else {})}
        doc["hands"].append({"boards": [board1, board2]})
        # RULES.md: boards whose net is 0, not both drawn, make a level deal, which writes nothing: a board 1
        # won for 0 points (a tied knock without undercut_on_tie, a gin of 0 with gin_bonus 0) is a draw here.
        two_hands.append({"draw": True} if zero_win(board1, pair, rules) else renamed(board1, side))
    return doc, two_hands


def zero_win(raw: dict, pair: tuple[str, str], rules) -> bool:
    """A two-player hand won for no points, as a table of two scores it."""
    won = score(read_entry(raw, pair, rules), pair, rules)
    return won.winner is not None and won.points == 0


def rules_of(doc: dict):
    return read_document({**doc, "hands": []}).rules


def table_of_two(doc: dict, two_hands: list[dict]) -> dict:
    """The table of two of board 1: the sides are its players and deal as the sides deal. Its boxes are the
    partners' (RULES.md): under `deal` a won deal earns 1 box, so its gin and undercut earn 1."""
    rules = rules_of(doc)
    settings_ = {key: value for key, value in rules.to_dict().items()
                 if key not in ("table", "pairing", "partnership_boxes")}
    if rules.partnership_boxes.value == "deal":
        settings_.update(gin_boxes=1, undercut_boxes=1, spade_double_boxes=False)
    players = doc["players"]
    sides = [JOIN.join(players[0::2]), JOIN.join(players[1::2])]
    return {"players": sides, "first_dealer": side_of(players, doc["first_dealer"]), "rules": settings_,
            "format": doc.get("format", "hollywood"), "hands": two_hands[:len(doc["hands"])]}


@TABLE_SETTINGS
@given(one_board_matches())
def test_partners_with_board_two_drawn_score_as_the_table_of_two_of_board_one(generated):
    doc, two_hands = generated
    doc = finished_at(doc)
    two = table_of_two(doc, two_hands)
    partners, alone = fold(doc), fold(two)
    players, pairing = doc["players"], doc["rules"].get("pairing", "alternate")
    out, expected = partners.to_dict(), alone.to_dict()
    for key in ("games", "next_dealer", "finished", "winner", "net"):
        assert out[key] == expected[key], key
    assert out["player_net"] == {name: expected["net"][side_of(players, name)] for name in players}
    for line, hand, raw in zip(partners.lines, alone.lines, doc["hands"]):
        assert (line.dealer, line.outcome.winner, line.outcome.points, line.outcome.boxes) == \
               (hand.dealer, hand.outcome.winner, hand.outcome.points, hand.outcome.boxes), line.number
        assert (line.games, dict(line.totals), line.closed) == (hand.games, dict(hand.totals), hand.closed)
        if "winner" in raw:  # typed deal: no boards
            assert line.boards is None and line.outcome.result == "points"
            continue
        first, second = line.boards
        assert (first.players, second.players) == board_pairs(players, pairing, line.number)
        # On each board the dealing side's player on it deals.
        for board in line.boards:
            assert side_of(players, board.dealer) == line.dealer and board.dealer in board.players
        assert second.outcome.result == "draw"
        if first.outcome.winner is not None and first.outcome.points == 0:
            assert line.outcome.result == "level" and hand.outcome.result == "draw"
            continue
        assert first.outcome.result == hand.outcome.result
        assert line.outcome.result == ("deal" if hand.outcome.winner else "draw")


# ---------------------------------------------------------------------------
# (b) Seating the sides the other way round mirrors every figure
# ---------------------------------------------------------------------------


@st.composite
def partners_matches(draw):
    """A partners file of boards of every kind on both boards, and deals typed for one side."""
    players = draw(seatings)
    settings_ = {**draw(rule_settings), **draw(partners_settings)}
    doc = {"table": "partners", "players": players, "rules": settings_, "first_dealer": draw(st.sampled_from(players))}
    if draw(st.booleans()):
        doc["format"] = "single"
    rules, pairing = rules_of(doc), settings_.get("pairing", "alternate")
    small = draw(st.booleans())
    doc["hands"] = []
    for number, (one, two) in enumerate(draw(st.lists(st.tuples(HAND_CODES, HAND_CODES),
                                                      min_size=draw(lengths), max_size=MAX_DEALS)), start=1):
        if one % 15 == 0:
            doc["hands"].append({"winner": players[two % 4], "points": 1 + two % 150})
            continue
        pairs = board_pairs(players, pairing, number)
        doc["hands"].append({"boards": [decode_hand(one, pairs[0], rules, small),
                                        decode_hand(two, pairs[1], rules, small)]})
    return finished_at(doc)


def seated_the_other_way(doc: dict) -> dict:
    """`[A, B, C, D]` seated `[B, A, D, C]`: side B & D first. The same opponents meet; each deal's boards
    are listed in the order the new seats pair them."""
    a, b, c, d = doc["players"]
    players = [b, a, d, c]
    pairing = doc["rules"].get("pairing", "alternate")
    hands = []
    for number, deal in enumerate(doc["hands"], start=1):
        if "boards" not in deal:
            hands.append(deal)
            continue
        old = board_pairs(doc["players"], pairing, number)
        order = [next(k for k, pair in enumerate(old) if set(pair) == set(new))
                 for new in board_pairs(players, pairing, number)]
        hands.append({"boards": [deal["boards"][k] for k in order]})
    return {**doc, "players": players, "hands": hands}


@TABLE_SETTINGS
@given(partners_matches())
def test_seating_the_sides_the_other_way_round_mirrors_every_figure(doc):
    mirrored = seated_the_other_way(doc)
    sheet, other = fold(doc), fold(mirrored)
    out, back = sheet.to_dict(), other.to_dict()
    assert back["sides"] == out["sides"][::-1]
    for key in ("games", "next_dealer", "finished", "winner", "net", "player_net"):
        assert back[key] == out[key], key
    assert list(back["net"]) == list(out["net"])[::-1]  # the sides listed the other way round
    for line, mirror in zip(sheet.lines, other.lines):
        assert mirror.outcome == line.outcome and mirror.dealer == line.dealer
        assert (mirror.games, dict(mirror.totals), mirror.closed) == (line.games, dict(line.totals), line.closed)
        if line.boards is None:
            assert mirror.boards is None
            continue
        boards = {frozenset(board.players): board for board in line.boards}
        for board in mirror.boards:
            was = boards[frozenset(board.players)]
            assert board.players == was.players[::-1]
            assert (board.dealer, board.outcome) == (was.dealer, was.outcome)


# ---------------------------------------------------------------------------
# (c) Chouette's captain
# ---------------------------------------------------------------------------


@st.composite
def chouette_matches(draw):
    """A chouette file, each hand between the box and the captain RULES.md names; with the captains of the
    deals as that rule has them, and the captain of the deal after the last."""
    players = draw(chouette_seatings)
    doc = {"table": "chouette", "players": players, "rules": draw(rule_settings)}
    if draw(st.booleans()):
        doc["first_dealer"] = draw(st.sampled_from(players))
    if draw(st.booleans()):
        doc["format"] = "single"
    rules = rules_of(doc)
    box, team = players[0], players[1:]
    captain, captains = team[0], []
    doc["hands"] = []
    for code in draw(st.lists(HAND_CODES, min_size=draw(lengths), max_size=MAX_DEALS)):
        pair = (box, captain) if code % 2 else (captain, box)  # either may knock or win
        raw = decode_hand(code // 2, pair, rules, small=draw(st.booleans()))
        doc["hands"].append(raw)
        captains.append(captain)
        if won_by(raw, pair, rules.undercut_on_tie) == box:
            captain = team[(team.index(captain) + 1) % len(team)]
    captains.append(captain)  # captains[n]: who captains after n deals
    return finished_at(doc), captains


@TABLE_SETTINGS
@given(chouette_matches())
def test_chouettes_captain_hands_over_on_a_lost_hand_and_plays_on_otherwise(generated):
    doc, captains = generated
    sheet = fold(doc)
    players = doc["players"]
    box, team = players[0], players[1:]
    sides = (box, JOIN.join(team))
    for line, captain in zip(sheet.lines, captains):
        (board,) = line.boards
        assert board.players == (box, captain), line.number
        assert board.dealer == (box if line.dealer == sides[0] else captain)
        winner = board.outcome.winner
        assert line.outcome.winner == (None if winner is None else sides[0] if winner == box else sides[1])
    assert sheet.captain == captains[len(sheet.lines)]
    # The box settles in full with every team player.
    money = sheet.to_dict()["player_net"]
    assert money == {box: sheet.net[sides[0]] * len(team), **{name: sheet.net[sides[1]] for name in team}}
    assert sum(money.values()) == 0

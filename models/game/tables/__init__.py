"""Tables of three and four (RULES.md, "Tables of three and four"): two sides meeting in two-player hands.

What the rest of the app calls (no storage, no Flask here):
- Entries: partners' deal is `deal.Deal(boards=(Hand, Hand))` in board order, or a plain `hand.Hand` of kind
  points typed for one side (its winner names a player; his side scores it); chouette's deal is a plain
  `Hand` between the box and the captain. `Match(players=seats, rules=rules, hands=entries)` with
  `rules.table` saying the table; `rules.table_rules(table, settings)` gives a new match's rules (partners
  play to 125 unless `target` is set).
- The fold: `ledger.score_sheet(match)` and `ledger.sheet_after(sheet, entry)` fold a match of any table;
  a table's Sheet has `sides` (seats.Sides: `names`, `players`, `side_of`), `players` = the sides' names
  (games, dealer, winner and net are the sides'), `captain` (chouette: who captains the next deal), and
  each Line has `boards` (deal.Board: players, dealer, entry, outcome; None for a typed deal).
  `seats.board_pairs(sides, rules, number)` says who plays whom on deal `number`'s boards before it is
  entered; `money.player_net(sides, sheet.net)` is each player's money.
- The match file: `entries.read_deal(raw, players, rules, number)` reads one deal from its match-file keys
  (refusals name `boards.N.field`); `Deal.to_dict()` / `Hand.to_dict()` write it back;
  models/files/matchfile.py reads and writes whole files of every table.
"""

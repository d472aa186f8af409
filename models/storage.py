"""The storage's public names in one import (`from models import storage`), each defined in its room:

- models/connection.py: the connection, the schema brought up to date, snapshots, the backup and restore, the epoch;
- models/work.py: the unit of work, the one way a match is written;
- models/matches.py: matches as kept, the lists, the writes about a whole match;
- models/hand_rows.py, models/hand_writes.py: hands as rows in their places, every change to them;
- models/players.py: a table's players; models/tables.py: tables and their presets;
- models/finished.py: the `finished` index.
"""
from __future__ import annotations

from .connection import BUSY_TIMEOUT_MS, backup, connect, epoch_of, immediate, migrate, new_epoch, now, open_ledger, restore, snapshot  # noqa: F401
from .errors import (DatabaseGone, HandAlreadySaved, MatchError, MatchNotOver, MatchOver, NoSuchMatch,  # noqa: F401
                     NoSuchTable, NotALedger, PlayerProblem, SchemaTooNew, StaleMatch)
from .finished import ENGINE_FILES, ENGINE_MODULES, engine_fingerprint, finished_at, refresh_finished  # noqa: F401
from .hand_rows import HAND_COLUMNS, hand_from_row, hand_row, insert_hand, submission_key  # noqa: F401
from .hand_writes import (DEVICE_MOST, OVER, RestoreChanges, Saved, add_hand, delete_hand,  # noqa: F401
                          insert_hand_before, record_event, replace_hand, restore_hand)
from .matches import (EVERY_TABLE, MATCH_QUERY, Rematch, StoredMatch, abandon_match, abandoned_matches,  # noqa: F401
                      count_abandoned, create_match, create_rematch, delete_match, deleted_matches, get_match,
                      get_match_by_token, last_hand_times, list_matches, live_hand_rows, match_row, match_version,
                      matches_of, matches_where, name_match, recent_matches, reopen_match, restore_match, stored_match)
from .players import (delete_player, lookalike, merge_players, player_by_id, player_id, player_named, player_names,  # noqa: F401
                      players_summary, rename_player, same_player)
from .tables import (Table, create_table, home_table, save_preset, saved_presets, set_table_passphrase,  # noqa: F401
                     table_by_key, table_of_view_token, tables_by_keys)
from .work import unit_of_work  # noqa: F401


def version_now(conn, match_id: int) -> int:
    return conn.execute("SELECT version FROM match WHERE id = ?", (match_id,)).fetchone()[0]

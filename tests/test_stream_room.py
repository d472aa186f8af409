"""A held stream's room (views/live/stream.py): a cut database ends each stream with one line in the log."""
import logging
import sqlite3

import psycopg
import pytest

from models.errors import DatabaseUnreachable
from test_streams import shown_tag
from webutil import new_match


@pytest.mark.parametrize("fault", [
    psycopg.OperationalError("server closed the connection unexpectedly\n\tThis probably means..."),
    sqlite3.OperationalError("disk I/O error"),
    DatabaseUnreachable("postgresql://gin@db/gin", "connection refused"),
])
def test_a_cut_database_ends_each_held_stream_with_one_line_and_no_traceback(app, client, monkeypatch, caplog, fault):
    from views.live import stream as streams

    hub = app.extensions[streams.HUB]
    match_id = new_match(client)
    tag = shown_tag(client, f"/matches/{match_id}")
    held = client.get(f"/matches/{match_id}/stream?shown={tag}", buffered=False)
    chunks = iter(held.response)
    try:
        assert "retry:" in next(chunks).decode() and "event: hello" in next(chunks).decode()

        def cut(*args, **kwargs):
            raise fault

        monkeypatch.setattr(hub, "read", cut)
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            app.extensions[streams.NOTIFIER].wake((match_id,))  # the room's next look meets the cut
            assert [chunk for chunk in map(bytes.decode, chunks) if chunk != ": \n\n"] == []  # it ended
        lines = [record for record in caplog.records if record.name == streams.log.name]
        assert len(lines) == 1 and lines[0].exc_info is None
        assert f"the stream of match {match_id} closed: {type(fault).__name__}" in lines[0].getMessage()
        assert "\n" not in lines[0].getMessage()
        assert streams.streams_held(app) == 1  # given back when the server closes the answer, below
    finally:
        held.close()
    assert streams.streams_held(app) == 0

"""A gevent worker stopped as gunicorn stops it (SIGTERM) gives its database back first (gunicorn.conf.py,
`worker_exit`): no traceback in the log, on either engine, after a stream was held."""
from stream_server import EventReader, GeventServer
from test_streams import shown_tag
from webutil import new_match


def test_a_stopped_worker_leaves_no_traceback_in_the_log(client, database, tmp_path):
    match_id = new_match(client)
    path = f"/matches/{match_id}/stream?shown={shown_tag(client, f'/matches/{match_id}')}"
    with GeventServer(database, log_dir=tmp_path) as server:
        reader = EventReader(server.base, path)
        assert reader.next_event()["event"] == "hello"
        phone = server.client()
        assert phone.get(f"/matches/{match_id}").status == 200  # the pool lent a connection and has it back
        reader.close()  # the worker ends in its graceful time (a stream held past it is killed, with no log)
    log = server.log()
    assert "Traceback" not in log and "greenlet is being finalized" not in log, log

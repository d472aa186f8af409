"""The hub of held streams (views/live/hub.py): many streams of one match, one read and one drawing per change."""
import threading
import time

from test_streams import ROW, save, shown_tag
from webutil import new_match

STREAMS, SAVES = 50, 4


def test_many_streams_of_one_match_get_each_save_once_in_order_from_one_read(app, client, monkeypatch):
    from views.live import hub as hubs, stream as streams

    monkeypatch.setattr(streams, "HEARTBEAT_S", 0.05)
    drawings = []
    draw = hubs.Way.draw
    monkeypatch.setattr(hubs.Way, "draw", lambda way, *args: drawings.append(args[-1]) or draw(way, *args))
    app.config["STREAMS_PER_ADDRESS"] = app.config["STREAM_THREADS"] = STREAMS
    hub = app.extensions[streams.HUB]
    match_id = new_match(client)
    tag = shown_tag(client, f"/matches/{match_id}")
    held = [client.get(f"/matches/{match_id}/stream?shown={tag}", buffered=False) for _ in range(STREAMS)]
    got = [[] for _ in held]
    counts = [threading.Semaphore(0) for _ in held]

    def read(i):
        for chunk in held[i].response:
            text = chunk.decode()
            if text.startswith("id: "):
                got[i].append((text.split("\n", 1)[0], ROW.findall(text)))
                counts[i].release()
            if len(got[i]) == SAVES:
                return

    readers = [threading.Thread(target=read, args=(i,), daemon=True) for i in range(STREAMS)]
    try:
        for reader in readers:
            reader.start()
        deadline = time.monotonic() + 60
        while hub.reads < 2 and time.monotonic() < deadline:  # the room's first look, and the watcher's start
            time.sleep(0.05)
        for number in range(1, SAVES + 1):
            before = hub.reads
            save(client, match_id, number)
            for count in counts:
                assert count.acquire(timeout=60)
            assert hub.reads - before == 1  # one read of the change for all the streams
            assert drawings == [True] * number  # and one drawing, of the step: every page was one behind
            (room,) = hub.rooms.values()
            assert room.latest.version == number + 1 and not room.latest.waiting
            assert room.latest.drawn == {}  # every stream looked: the room at rest keeps nothing drawn
        for reader in readers:
            reader.join(60)
        for events in got:
            assert [rows for _, rows in events] == [[str(n)] for n in range(1, SAVES + 1)]  # each step once
            assert len({tag for tag, _ in events}) == SAVES
        assert len(hub.rooms) == 1
    finally:
        for response in held:
            response.close()
    assert len(hub.rooms) == 0 and streams.streams_held(app) == 0

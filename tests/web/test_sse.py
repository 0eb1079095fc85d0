"""The live stream: framing of the first event, pushes on change, keepalives, and the real session."""

from __future__ import annotations

import json
import threading

from web.sse import format_event


def iter_events(response):
    """The SSE blocks (separated by a blank line) of a streaming response, as they arrive."""
    buffer = ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            yield block


def read_events(response, count):
    """The first `count` blocks; the stream stays open for more."""
    events = iter_events(response)
    return [next(events) for _ in range(count)]


def data_of(block: str) -> dict:
    lines = dict(line.split(": ", 1) for line in block.splitlines())
    return json.loads(lines["data"])


def test_the_stream_starts_with_a_retry_hint_and_the_current_snapshot(client, fake_table):
    response = client.get("/api/events", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert "no-cache" in response.headers["Cache-Control"]
    retry, first = read_events(response, 2)
    assert retry == "retry: 2000"
    assert first.splitlines()[0] == "id: 1"
    assert data_of(first) == fake_table.snapshot()


def test_a_change_is_pushed_whole_and_idle_time_sends_keepalives(client, fake_table):
    response = client.get("/api/events", buffered=False)
    publisher = threading.Timer(0.12, lambda: fake_table.publish(game_id="g7"))
    publisher.start()
    blocks = read_events(response, 6)
    publisher.join()
    assert ": keepalive" in blocks
    pushed = [data_of(block) for block in blocks if block.startswith("id: 2")]
    assert pushed == [fake_table.snapshot()]
    assert pushed[0]["game_id"] == "g7"


def test_events_are_single_line_json_even_with_newlines_in_text():
    event = format_event({"version": 3, "game": {"log": ["line one\nline two"]}})
    assert event.startswith("id: 3\ndata: {")
    assert event.endswith("\n\n") and event.count("\n") == 3


def test_the_real_session_pushes_a_new_game_to_a_second_viewer(real_client, session):
    response = real_client.get("/api/events", buffered=False)
    starter = threading.Timer(0.05, lambda: session.submit({"type": "new_game", "players": ["Ann"]}))
    blocks = read_events(response, 2)
    assert data_of(blocks[1])["game"] is None
    starter.start()
    pushed = next(block for block in iter_events(response) if block.startswith("id:"))
    starter.join()
    assert data_of(pushed)["game"]["players"][0]["name"] == "Ann"

"""Server-Sent Events: every state change goes to every open scorecard as the whole snapshot.

Whole snapshots (not diffs) make a missed event harmless: the next one carries everything, and a page that
reconnects simply re-fetches `/api/state`. Each event's `id` is the snapshot version. A comment line every
`keepalive_seconds` keeps proxies and tablets from dropping an idle stream and lets the server notice a
client that went away (the write fails), which frees the waitress thread the stream holds.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from flask import Response

from web.port import TablePort

RETRY_MILLISECONDS = 2000
KEEPALIVE = ": keepalive\n\n"


def format_event(snapshot: Mapping[str, Any]) -> str:
    """One SSE event: the snapshot as single-line JSON, its version as the event id."""
    data = json.dumps(snapshot, separators=(",", ":"))
    return f"id: {snapshot.get('version', 0)}\ndata: {data}\n\n"


def snapshot_events(table: TablePort, keepalive_seconds: float) -> Iterator[str]:
    """The stream body: a retry hint, the current snapshot, then each newer snapshot or a keepalive."""
    yield f"retry: {RETRY_MILLISECONDS}\n\n"
    snapshot = table.snapshot()
    version = snapshot["version"]
    yield format_event(snapshot)
    while True:
        newer = table.wait_for_change(version, keepalive_seconds)
        if newer is None:
            yield KEEPALIVE
            continue
        version = newer["version"]
        yield format_event(newer)


def event_stream_response(table: TablePort, keepalive_seconds: float) -> Response:
    return Response(
        snapshot_events(table, keepalive_seconds),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache, no-store", "X-Accel-Buffering": "no"},
    )

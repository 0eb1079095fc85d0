"""The admin page's live camera view as an MJPEG stream (multipart/x-mixed-replace).

The session encodes each annotated frame once; every viewer gets those same bytes. Each stream sends at most
one frame per `min_interval` seconds (about 10 fps) and always the newest frame, skipping the ones it was too
slow for. When no frame comes for a while the last one is sent again, so a viewer that left is noticed (the
write fails) and its thread is freed. Empty frames (nothing encoded yet) are never sent: browsers treat
an empty part as a broken image.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from flask import Response

from web.port import TablePort

BOUNDARY = "frame"


def frame_part(jpeg: bytes) -> bytes:
    head = f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n"
    return head.encode("ascii") + jpeg + b"\r\n"


def mjpeg_parts(
    table: TablePort,
    min_interval: float = 0.1,
    idle_timeout: float = 5.0,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[bytes]:
    number = -1
    last_part: bytes | None = None
    while True:
        frame = table.wait_for_frame(number, idle_timeout)
        if frame is None:
            if last_part is not None:
                yield last_part
            continue
        number, jpeg = frame
        if not jpeg:  # "no picture yet" (a camera that has not encoded a frame for a viewer so far)
            continue
        last_part = frame_part(jpeg)
        sent_at = clock()
        yield last_part
        remaining = min_interval - (clock() - sent_at)
        if remaining > 0:
            sleep(remaining)


def mjpeg_response(table: TablePort, min_interval: float) -> Response:
    return Response(
        mjpeg_parts(table, min_interval=min_interval),
        mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
        headers={"Cache-Control": "no-cache, no-store", "X-Accel-Buffering": "no"},
    )

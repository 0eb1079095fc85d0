"""A value that many threads read and one thread replaces, with a version number to wait on.

The session publishes each new state snapshot here, and the camera loop each annotated JPEG. Readers (SSE
streams, the MJPEG view, the LEDs) never poll: they wait on a condition until the version moves past the one
they have seen. Versions only grow, so a reader that missed several changes simply gets the newest one.
"""

from __future__ import annotations

import threading
import time
from typing import Generic, TypeVar

T = TypeVar("T")


class Hub(Generic[T]):
    def __init__(self, initial: T) -> None:
        self._condition = threading.Condition()
        self._version = 0
        self._value = initial

    def publish(self, value: T) -> int:
        """Replace the value, bump the version and wake every waiting reader; returns the new version."""
        with self._condition:
            self._version += 1
            self._value = value
            self._condition.notify_all()
            return self._version

    def latest(self) -> tuple[int, T]:
        with self._condition:
            return self._version, self._value

    def wait_for_change(self, after_version: int, timeout: float) -> tuple[int, T] | None:
        """The (version, value) once the version exceeds `after_version`, or None after `timeout` seconds."""
        deadline = time.monotonic() + max(0.0, timeout)
        with self._condition:
            while self._version <= after_version:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._condition.wait(remaining)
            return self._version, self._value

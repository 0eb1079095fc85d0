"""Single keys from the terminal `pipkeeper run` was started in: R rolls the simulated tray.

The terminal is switched to cbreak mode (keys arrive without Enter, Ctrl-C still works) and restored on
`close()`, so a stopped pipkeeper never leaves the shell without echo. Keys are read straight from the file
descriptor, one byte at a time: a buffered text stream would swallow a quick second key until the next one.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import termios
import threading
import tty
from collections.abc import Callable
from typing import IO


def in_foreground(stream: IO | None = None) -> bool:
    """True when `stream` (stdin) is a terminal this process owns: not started with `&` in the background.

    A background process that changes the terminal's mode is stopped by the shell (SIGTTOU), so a table
    started as `pipkeeper run &` must not listen for keys.
    """
    stream = stream or sys.stdin
    try:
        fd = stream.fileno()
        return os.isatty(fd) and os.tcgetpgrp(fd) == os.getpgrp()
    except (OSError, ValueError, AttributeError):
        return False


class KeyReader:
    def __init__(self, on_key: Callable[[str], None], stream: IO | None = None) -> None:
        self._fd = (stream or sys.stdin).fileno()
        self._on_key = on_key
        self._stop = threading.Event()
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd)
        self._thread = threading.Thread(target=self._run, name="keyboard", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._fd], [], [], 0.2)
            if not ready:
                continue
            try:
                key = os.read(self._fd, 1)
            except OSError:
                return
            if not key:
                return  # the terminal is gone
            self._on_key(key.decode("latin-1"))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1)
        with contextlib.suppress(termios.error):  # the terminal may have gone away first
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)

"""Single keys from the terminal `pipkeeper run` was started in: R rolls the simulated tray.

The terminal is switched to cbreak mode (keys arrive without Enter, Ctrl-C still works) and restored on
`close()`, so a stopped pipkeeper never leaves the shell without echo.
"""

from __future__ import annotations

import select
import sys
import termios
import threading
import tty
from collections.abc import Callable


class KeyReader:
    def __init__(self, on_key: Callable[[str], None], stream=None) -> None:
        self._stream = stream or sys.stdin
        self._on_key = on_key
        self._stop = threading.Event()
        self._saved = termios.tcgetattr(self._stream.fileno())
        tty.setcbreak(self._stream.fileno())
        self._thread = threading.Thread(target=self._run, name="keyboard", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        fd = self._stream.fileno()
        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                key = self._stream.read(1)
                if not key:
                    return
                self._on_key(key)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1)
        termios.tcsetattr(self._stream.fileno(), termios.TCSADRAIN, self._saved)

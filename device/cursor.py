"""The box cursor of the PREV / NEXT / SELECT buttons, and the "press again to scratch" guard.

The cursor walks the boxes the rules allow for the current dice, in card order, wrapping around. After each
new roll it jumps to the best-scoring box, so most turns need a single SELECT. Writing 0 in a box (a scratch)
is easy to do by accident with a button, so SELECT on such a box only arms it: a second SELECT on the same box
within the confirm window writes it. The clock is injected so tests can let the window expire.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Preview = Mapping[str, Mapping[str, Any]]  # box -> {"points": int, "allowed": bool}, as Game.preview() gives


@dataclass(frozen=True)
class Selection:
    """What one SELECT did: `box` to write now, or `armed` when it only armed a scratch of that box."""

    box: str | None = None
    armed: str | None = None


class BoxCursor:
    def __init__(self, confirm_seconds: float = 3.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._confirm_seconds = confirm_seconds
        self._clock = clock
        self.box: str | None = None
        self._scratch: tuple[str, float] | None = None  # box and the moment it was armed

    @property
    def pending_scratch(self) -> str | None:
        """The armed box while the confirm window is open."""
        if self._scratch is None:
            return None
        box, armed_at = self._scratch
        return box if self._clock() - armed_at < self._confirm_seconds else None

    def scratch_deadline(self) -> float | None:
        """When the armed scratch expires (clock time), so the owner can wake up and show it gone."""
        return None if self._scratch is None else self._scratch[1] + self._confirm_seconds

    def expire(self) -> bool:
        """Forget an armed scratch whose window has closed; True if one was forgotten."""
        if self._scratch is not None and self.pending_scratch is None:
            self._scratch = None
            return True
        return False

    def follow(self, preview: Preview, new_roll: bool) -> None:
        """Keep the cursor on an allowed box: the best after a new roll, else where it was if allowed."""
        choices = _allowed(preview)
        if new_roll or self.box not in choices:
            self.box = max(choices, key=lambda box: preview[box]["points"], default=None)
            self._scratch = None

    def move(self, preview: Preview, step: int) -> bool:
        """PREV (-1) or NEXT (+1) through the allowed boxes; False when there is nothing to move through."""
        choices = _allowed(preview)
        if not choices:
            return False
        index = choices.index(self.box) if self.box in choices else (-1 if step > 0 else 0)
        self.box = choices[(index + step) % len(choices)]
        self._scratch = None
        return True

    def select(self, preview: Preview) -> Selection:
        """SELECT: the box to write, or arm a scratch (0 points) that a second SELECT in time confirms."""
        box = self.box
        if box is None or box not in _allowed(preview):
            return Selection()
        if preview[box]["points"] != 0 or self.pending_scratch == box:
            self._scratch = None
            return Selection(box=box)
        self._scratch = (box, self._clock())
        return Selection(armed=box)

    def cancel_scratch(self) -> bool:
        """A short UNDO: disarm a pending scratch; True if there was one."""
        pending = self.pending_scratch is not None
        self._scratch = None
        return pending


def _allowed(preview: Preview) -> list[str]:
    return [box for box, info in preview.items() if info.get("allowed")]

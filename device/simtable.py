"""The simulated table's tray, as one camera that survives a change of dice count.

The camera loop opens one source and keeps it. A simulated tray draws a fixed number of dice, but a Maxi
game needs six where Yatzy needs five; this source swaps the tray underneath when a game with another count
starts, so the camera loop (and the real reader and watcher behind it) never notice.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable

import numpy as np

from vision.simtray import SimulatedTray
from vision.sources import FrameSource

# A simulated throw lasts long enough for the roll watcher to call it a throw, not a nudge.
MOTION_SECONDS = 0.8
# Dice as large in the frame as a camera mounted at the advised height shows them.
SIM_DIE_SIZE = 0.11


class SimTable(FrameSource):
    def __init__(
        self,
        width: int,
        height: int,
        fps: float,
        dice_count: int = 5,
        seed: int | None = None,
        die_size: float = SIM_DIE_SIZE,
    ) -> None:
        super().__init__()
        self.name = f"simulated tray {width}x{height}"
        self._size = (width, height)
        self._moving_frames = max(2, round(MOTION_SECONDS * fps))
        self._seed = seed
        self._die_size = die_size
        self._lock = threading.Lock()
        self._tray = self._new_tray(dice_count)

    def _new_tray(self, dice_count: int) -> SimulatedTray:
        width, height = self._size
        tray = SimulatedTray(
            width,
            height,
            dice_count,
            seed=self._seed,
            die_size=self._die_size,
            moving_frames=self._moving_frames,
        )
        tray.open()
        return tray

    @property
    def tray(self) -> SimulatedTray:
        return self._tray

    def ensure_dice(self, dice_count: int) -> bool:
        """Use a tray of `dice_count` dice; True when the tray was replaced (its dice are a new layout)."""
        with self._lock:
            if self._tray.dice_count == dice_count:
                return False
            self._tray = self._new_tray(dice_count)
            return True

    def roll(self, held: Iterable[int] = ()) -> list[int]:
        """Throw the dice not held (positions left to right); the frames show the throw, then the dice."""
        with self._lock:
            return self._tray.roll(held)

    def nearest(self, points: Iterable[tuple[float, float]]) -> list[int]:
        """Positions (left to right) of the dice nearest to `points`: what a hand holding those keeps."""
        dice = self._tray.dice
        return sorted(
            {min(range(len(dice)), key=lambda i: math.dist(dice[i].center, point)) for point in points}
        )

    def _open(self) -> None:
        """The tray is always there."""

    def _grab(self) -> np.ndarray:
        with self._lock:
            return self._tray.read()

"""Reading a camera's frames as they come: each frame at one working size, in turn, and the sizes agreed
over the frames that show the same thing.

`DiceReader.read` reads a frame at each of its working sizes and lets the readings agree
(`vision.consensus`): where a pip lands on the pixel grid decides some readings. A camera watching dice
at rest delivers the same dice frame after frame, so the appliance need not read every frame at every
size. `StreamReader` reads each frame at the next size in turn and lets the readings of the latest frames
that look alike (`alike`) agree: once the dice have lain still for as many frames as there are sizes,
each frame's reading is what all the sizes agree on, as in `DiceReader.read` (each size seeing its own
frame's sensor noise besides). A frame costs one reading instead of two or three. Frames of dice
in motion are read at one size alone, which tells the roll watcher all it needs: that they move.

Frames look alike when their lightness, averaged over cells an eighth of a die wide (`LOOK_CELLS_PER_DIE`, a
pip's size or less), differs nowhere by `STILL_SHARE` of the frame's brightness range or more, less the change
of most cells (a room's light or a camera's exposure changes every cell alike). Measured with the calibrated
reader on the simulated tray at 640x480 (dice 68 px) and 1280x720 (99 px), four rolls each: still frames
differ by 0.006 of it at most; a die turned to any other face by 0.39 at least; a die moved by one pixel by
0.07 to 0.16, by two 0.14 to 0.29. Photos of matteop65 and nell-byler (every 20th) with two draws of sensor
noise of 4 levels differ by 0.043 at most. A die that moved too little to mark is the same die with the same
face: the readings agree on it wherever it is within half a side (`vision.consensus.SAME_DIE_SHARE`).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.consensus import agree, agree_outer_first
from vision.reader import DiceReader, Prepared
from vision.reading import Reading

LOOK_CELLS_PER_DIE = 8  # frames are compared in cells an eighth of a die wide (`alike`)
STILL_SHARE = 0.15  # a cell's lightness moving this share of the brightness range is motion


class StreamReader:
    """Reads a stream of frames from one camera, one working size per frame, in turn.

    `read` has `DiceReader.read`'s contract for each frame; a frame the reader refuses (a `problem`)
    forgets the frames before it.
    """

    def __init__(self, reader: DiceReader) -> None:
        self.reader = reader
        self._turn = 0
        self._last: tuple[Prepared, np.ndarray] | None = None  # the latest frame read, and its `look`
        self._recent: dict[int, Reading] = {}  # working size -> its reading of the latest alike frames

    def read(self, frame: Any) -> Reading:
        prepared = self.reader.prepare(frame)
        if isinstance(prepared, Reading):
            self._last, self._recent = None, {}
            return prepared
        which = self._turn % self.reader.working_sizes
        self._turn += 1
        seen = look(prepared)
        if self._last is None or not alike(*self._last, prepared, seen):
            self._recent = {}
        self._last = prepared, seen
        self._recent[which] = self.reader.read_at_size(prepared, which)
        readings = [self._recent[size] for size in sorted(self._recent)]
        if len(readings) == 1:
            return readings[0]
        if len(readings) == 3:  # every size read these still frames: agreed as `DiceReader.read` agrees them
            smallest, middle, largest = readings
            return agree_outer_first(smallest, largest, lambda: middle)
        return agree(readings)


def look(prepared: Prepared, cell: int | None = None) -> np.ndarray:
    """The lightness of a prepared frame's tray averaged over square cells `cell` pixels wide, by default
    a `LOOK_CELLS_PER_DIE`th of its die (whole pixels: OpenCV averages whole cells many times faster), the
    edge cells that are not whole left out."""
    cell = cell or _cell(prepared)
    height, width = (max(1, side // cell) for side in prepared.gray.shape)
    whole = prepared.gray[: height * cell, : width * cell]
    return cv2.resize(whole, (width, height), interpolation=cv2.INTER_AREA)


def alike(before: Prepared, before_look: np.ndarray, after: Prepared, after_look: np.ndarray) -> bool:
    """Whether two prepared frames (with their `look`s) show the same thing: the same tray shape, and
    their lightness in cells of `after`'s size nowhere `STILL_SHARE` of its brightness range apart, less
    the change of most cells: a room's light or a camera's exposure changes every cell alike, and no die."""
    if before.gray.shape != after.gray.shape:
        return False
    if before_look.shape != after_look.shape:  # another die size was estimated: look again in after's cells
        before_look = look(before, _cell(after))
    change = after_look.astype(np.int16) - before_look
    return float(np.abs(change - np.median(change)).max()) < STILL_SHARE * after.spread


def _cell(prepared: Prepared) -> int:
    """The side of `look`'s cells for a prepared frame, in whole pixels."""
    return max(1, round(prepared.die_px / LOOK_CELLS_PER_DIE))

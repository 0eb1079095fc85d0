"""Reading a camera's frames as they come: each frame at one working size, in turn, and the sizes agreed
over the frames that show the same thing.

`DiceReader.read` reads a frame at each of its working sizes and lets the readings agree
(`vision.consensus`): where a pip lands on the pixel grid decides some readings. A camera watching dice
at rest delivers the same dice frame after frame, so the appliance need not read every frame at every
size. `StreamReader` reads each frame at the next size in turn and lets the readings of the frames that look
like the first of their run (`alike`) agree: once the dice have lain still for as many frames as there are
sizes, each frame's reading is what all the sizes agree on, as in `DiceReader.read` (each size seeing its own
frame's sensor noise besides). A frame costs one reading instead of two or three. Frames of dice
in motion are read at one size alone, which tells the roll watcher all it needs: that they move. Nor are
the dice bodies looked for again while the dice lie still: the run's frames share its first frame's
(`DiceReader.prepare_lit`).

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
        # The first frame of the latest run of frames alike (`alike`), and its `look`: each later frame of
        # the run is compared with it, so dice that creep a little each frame end the run once they have
        # moved, and the run's frames share its dice bodies.
        self._first: tuple[Prepared, np.ndarray] | None = None
        self._recent: dict[int, Reading] = {}  # working size -> its reading of the run's latest frames

    def read(self, frame: Any) -> Reading:
        lit = self.reader.light(frame)
        if isinstance(lit, Reading):
            return self._forget(lit)
        still = self._first is not None and alike(*self._first, lit.gray)
        prepared = self.reader.prepare_lit(lit, self._first[0] if still else None)
        if isinstance(prepared, Reading):
            return self._forget(prepared)
        if not still:
            self._first, self._recent = (prepared, look(prepared.gray, cell_side(prepared))), {}
        which = self._turn % self.reader.working_sizes
        self._turn += 1
        self._recent[which] = self.reader.read_at_size(prepared, which)
        readings = [self._recent[size] for size in sorted(self._recent)]
        if len(readings) == 1:
            return readings[0]
        if len(readings) == 3:  # every size read these still frames: agreed as `DiceReader.read` agrees them
            smallest, middle, largest = readings
            return agree_outer_first(smallest, largest, lambda: middle)
        return agree(readings)

    def _forget(self, refused: Reading) -> Reading:
        """A frame the reader refused (`refused`): the frames before it are no run of still dice with the
        next."""
        self._first, self._recent = None, {}
        return refused


def look(gray: np.ndarray, cell: int) -> np.ndarray:
    """The lightness `gray` of a frame's tray averaged over square cells `cell` pixels wide (whole pixels:
    OpenCV averages whole cells many times faster), the edge cells that are not whole left out."""
    height, width = (max(1, side // cell) for side in gray.shape)
    whole = gray[: height * cell, : width * cell]
    return cv2.resize(whole, (width, height), interpolation=cv2.INTER_AREA)


def alike(first: Prepared, first_look: np.ndarray, gray: np.ndarray) -> bool:
    """Whether a frame whose tray's lightness is `gray` shows what the prepared frame `first` (with its
    `look`) shows: the same tray shape, and their lightness in `first`'s cells nowhere `STILL_SHARE` of its
    brightness range apart, less the change of most cells: a room's light or a camera's exposure changes
    every cell alike, and no die."""
    if first.gray.shape != gray.shape:
        return False
    change = look(gray, cell_side(first)).astype(np.int16) - first_look
    return float(np.abs(change - np.median(change)).max()) < STILL_SHARE * first.spread


def cell_side(prepared: Prepared) -> int:
    """The side of `look`'s cells for a prepared frame: a `LOOK_CELLS_PER_DIE`th of its die, in whole
    pixels."""
    return max(1, round(prepared.die_px / LOOK_CELLS_PER_DIE))

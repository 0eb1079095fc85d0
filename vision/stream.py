"""Reading a camera's frames as they come: each frame at one working size, in turn, and the sizes agreed
over the frames that show the same thing.

`DiceReader.read` reads a frame at each of its working sizes and lets the readings agree
(`vision.consensus`): where a pip lands on the pixel grid decides some readings. A camera watching dice
at rest delivers the same dice frame after frame, so the appliance need not read every frame at every
size. `StreamReader` reads each frame at the next size in turn and lets the readings of the frames that look
like the first of their run (`alike`) agree: once the dice have lain still for as many frames as there are
sizes, each frame's reading is what all the sizes agree on, as in `DiceReader.read` (each size reading the
mean of the frames up to its own, below). A frame costs one reading instead of two or three. Frames of dice
in motion are read at one size alone, which tells the roll watcher all it needs: that they move. Nor are
the dice bodies looked for in every frame while the dice lie still: the run's frames share those of its
first frame, and later of the means below (`DiceReader.prepare_lit`).

Frames look alike when their lightness, averaged over cells an eighth of a die wide (`LOOK_CELLS_PER_DIE`, a
pip's size or less), differs nowhere by `STILL_SHARE` of the frame's brightness range or more, less the change
of most cells (a room's light or a camera's exposure changes every cell alike). Measured with the calibrated
reader on the simulated tray at 640x480 (dice 68 px) and 1280x720 (99 px), four rolls each: still frames
differ by 0.006 of it at most; a die turned to any other face by 0.39 at least; a die moved by one pixel by
0.07 to 0.16, by two 0.14 to 0.29. Photos of matteop65 and nell-byler (every 20th) with two draws of sensor
noise of 4 levels differ by 0.043 at most. A die that moved too little to mark is the same die with the same
face: the readings agree on it wherever it is within half a side (`vision.consensus.SAME_DIE_SHARE`).

Frames of dice at rest differ by their sensor noise alone, so each still frame is read as the mean of its
run's frames so far: the noise falls by the root of the frames averaged, and with it the pip threshold's
floor (the reader's `PIP_GRAIN` times the frame's grain) and the chance blobs noise makes. The dice bodies
are looked for again in the mean of `BODIES_AGAIN_AT` frames and shared from there on: found in one noisy
frame, they are found worse. The mean of `AVERAGED_FRAMES` frames is the run's last (the dice are what they
were, and a slow change of the room's light changes no die): the frames after it are read as it, each size
in turn, and once every size has read it the stream gives what they agreed on without reading again, so dice
that lie still while the players think cost a frame's `light` and `alike` alone. Measured on photos read as
a still camera's stream, each frame with its own draw of sensor noise: hands read exactly after the 9th
frame, and (in brackets) read wrong without the game asking (`vision.dataset`: the reader asks, or reads
another number of dice than the game plays with). nell-byler every 2nd photo reads 81 of its 100 as the
photos are, matteop65 every 2nd 193 of 198:

| sensor noise | nell-byler: each frame as it comes / averaged | matteop65: as it comes / averaged |
|---|---|---|
| 4 levels (a well lit room) | 76 (0) / 77 (0) | 192 (1) / 193 (1) |
| 8 levels (a dim one) | 35 (0) / 75 (1) | 194 (0) / 191 (1) |

Noise of 8 levels drowns the faint pips of nell-byler's coloured dice, and the mean brings them back. White
dice with black pips stand out through it, and there the independent draws of each frame read agree better
than the sizes' readings of one mean: matteop65 loses dice_26 (a glyph on a laptop's key read as a 1),
four_50 (a die a hand was moving, its smeared pips read as a 2) and four_16 (a false 3 in the clutter,
which the photo itself reads too, a die more than lie there: the mean brings back the photo's reading).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.consensus import agree, agree_outer_first
from vision.reader import DiceReader, Lit, Prepared
from vision.reading import Reading

LOOK_CELLS_PER_DIE = 8  # frames are compared in cells an eighth of a die wide (`alike`)
STILL_SHARE = 0.15  # a cell's lightness moving this share of the brightness range is motion
AVERAGED_FRAMES = 8  # a run of still frames is read as their mean, of this many frames at most
BODIES_AGAIN_AT = (4, AVERAGED_FRAMES)  # the dice bodies are looked for again in the mean of this many frames


class StreamReader:
    """Reads a stream of frames from one camera, one working size per frame, in turn.

    `read` has `DiceReader.read`'s contract for each frame; a frame the reader refuses (a `problem`)
    forgets the frames before it.
    """

    def __init__(self, reader: DiceReader) -> None:
        self.reader = reader
        self._turn = 0
        self._run: _Run | None = None  # the latest run of frames alike its first (`alike`)

    def read(self, frame: Any) -> Reading:
        lit = self.reader.light(frame)
        if isinstance(lit, Reading):
            return self._forget(lit)
        run = self._run
        if run is not None and run.holds(lit):
            run.frames += 1
            if run.frames >= AVERAGED_FRAMES + self.reader.working_sizes:
                return run.agreed  # every size has read the run's mean: reading it again reads the same
            prepared = run.frozen or self._prepare_still(run, lit)
        else:
            prepared = self.reader.prepare_lit(lit)
            if not isinstance(prepared, Reading):
                run = self._run = _Run(prepared, look(prepared.gray, cell_side(prepared)), prepared)
        if isinstance(prepared, Reading):
            return self._forget(prepared)
        which = self._turn % self.reader.working_sizes
        self._turn += 1
        run.recent[which] = self.reader.read_at_size(prepared, which)
        run.agreed = _agreed([run.recent[size] for size in sorted(run.recent)])
        return run.agreed

    def _prepare_still(self, run: _Run, lit: Lit) -> Prepared | Reading:
        """The run's `frames`th frame, `lit`, prepared as the mean of the run's frames so far, with the
        bodies of the run's first frame, or (`BODIES_AGAIN_AT`) its own. The mean of `AVERAGED_FRAMES` is
        the run's last: the frames after it are read as it."""
        lit = run.averaged(lit)
        again = run.frames in BODIES_AGAIN_AT
        prepared = self.reader.prepare_lit(lit, None if again else run.shared)
        if isinstance(prepared, Reading):
            return prepared
        if again:
            run.shared = prepared
        if run.frames == AVERAGED_FRAMES:
            run.frozen, run.mean = prepared, None
        return prepared

    def _forget(self, refused: Reading) -> Reading:
        """A frame the reader refused (`refused`): the frames before it are no run of still dice with the
        next."""
        self._run = None
        return refused


@dataclass
class _Run:
    """A run of frames alike its first: what its frames are compared with, share and average."""

    # Each later frame is compared with the first (`alike`), so dice that creep a little each frame end the
    # run once they have moved.
    first: Prepared
    look: np.ndarray  # `first`'s `look`
    shared: Prepared  # the frame whose dice bodies the run's frames share: the first, then a mean
    frames: int = 1
    # float32: the sum of the run's lit frames over their count (`averaged`), from its second frame on (a
    # frame of dice in motion starts a run of its own, and most such runs end there) until its
    # `AVERAGED_FRAMES`th, which is prepared once as `frozen` and read from then on.
    mean: np.ndarray | None = None
    frozen: Prepared | None = None
    recent: dict[int, Reading] = field(default_factory=dict)  # working size -> its latest reading
    agreed: Reading = field(default_factory=Reading)  # what the sizes' latest readings agree on

    def holds(self, lit: Lit) -> bool:
        """Whether the lit frame `lit` belongs to the run: as large as its first frame, and alike it."""
        return lit.image.shape == self.first.image.shape and alike(self.first, self.look, lit.gray)

    def averaged(self, lit: Lit) -> Lit:
        """The mean of the run's frames, `lit` the latest."""
        if self.mean is None:
            self.mean = self.first.image.astype(np.float32)
        cv2.accumulateWeighted(lit.image, self.mean, 1.0 / self.frames)
        image = cv2.convertScaleAbs(self.mean)
        (x0, y0), (height, width) = lit.offset, lit.tray.shape[:2]
        tray = image[y0 : y0 + height, x0 : x0 + width]
        return Lit(image, lit.offset, tray, cv2.cvtColor(tray, cv2.COLOR_BGR2GRAY))


def _agreed(readings: list[Reading]) -> Reading:
    """What the latest readings of a run's sizes (in size order) agree on."""
    if len(readings) == 1:
        return readings[0]
    if len(readings) == 3:  # every size read these still frames: agreed as `DiceReader.read` agrees them
        smallest, middle, largest = readings
        return agree_outer_first(smallest, largest, lambda: middle)
    return agree(readings)


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

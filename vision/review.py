"""Pictures of the dice the reader got wrong in a labelled photo, for a maintainer to look at by eye.

A list of misreads (`vision.misreads`) says where to look. Only looking tells whether the reader is wrong
there or the label is. In nell-byler, the pictures of its 92 misread dice showed seven to be the truth's
errors: three boxes with the wrong value, and four dice with no box. The reader had read each of them right.

Each picture shows the photo around one misread die, `TILE_DICE` dice wide, enlarged to `TILE_PX`. On it,
the dice read are drawn as the admin page draws them (`vision.annotate`), and the truth's boxes in magenta,
each with its value at its lower left corner. Past the photo's edge the picture is black, so a die cut by the
edge shows as cut.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from statistics import median

import cv2
import numpy as np

from vision.annotate import annotate
from vision.dataset import ImageResult
from vision.misreads import Misread
from vision.reading import Reading

# A picture is this many die sides wide: the die and the dice beside it, whose boxes may be the ones in
# the wrong place.
TILE_DICE = 3.0
TILE_PX = 480  # ... and is resized to this many pixels wide: a die of a phone photo is some 40 px
TRUTH = (255, 0, 255)  # magenta: a colour `vision.annotate` does not draw in


def misread_tile(frame: np.ndarray, result: ImageResult, misread: Misread) -> np.ndarray:
    """A `TILE_PX` square BGR picture of `misread` in `frame` (the photo `result` read). The frame must be
    as read: the truth's boxes are in its pixels. It is enlarged before anything is drawn on it, so the
    lines and labels are drawn at the picture's own scale."""
    sides = [max(x1 - x0, y1 - y0) for x0, y0, x1, y1 in (die.box for die in result.sample.dice)]
    half = max(1, int(round(TILE_DICE * median(sides) / 2)))
    x, y = (int(round(value)) for value in misread.center)
    padded = cv2.copyMakeBorder(frame, half, half, half, half, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    tile = cv2.resize(
        padded[y : y + 2 * half, x : x + 2 * half], (TILE_PX, TILE_PX), interpolation=cv2.INTER_CUBIC
    )
    zoom = TILE_PX / (2 * half)

    def on_tile(point: tuple[float, float]) -> tuple[float, float]:
        return ((point[0] - x + half) * zoom, (point[1] - y + half) * zoom)

    dice = tuple(replace(die, center=on_tile(die.center), size=die.size * zoom) for die in result.found)
    image = annotate(tile, Reading(dice=dice, frame_size=(TILE_PX, TILE_PX)))
    for die in result.sample.dice:
        x0, y0 = np.intp(np.round(on_tile(die.box[:2])))
        x1, y1 = np.intp(np.round(on_tile(die.box[2:])))
        cv2.rectangle(image, (x0, y0), (x1, y1), TRUTH, 2)
        cv2.putText(
            image, str(die.value), (x0 + 4, y1 - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.7, TRUTH, 2, cv2.LINE_AA
        )
    return image


def tile_name(number: int, image: Path, misread: Misread) -> str:
    """The picture's file name: its number in the list, the photo, and what is wrong there."""
    return f"{number:03d}-{image.stem}-{misread.kind}-true{misread.truth}-read{misread.read}.png"

"""A three or a six whose pips JPEG ran together into red bars, on a die body its pips read too few on.

A camera's JPEG keeps colour at half the resolution of lightness. On a small die whose pips differ from its
face in hue alone (red pips on a smoky black die: about as dark as the face in gray, a few pixels wide), pips
whose gaps are narrower than one colour sample run together in a* (green to red). A three's pips lie a
quarter of a side apart across and down, along the diagonal, and run into one bar through the die's centre
(nell-byler 112438, 112926, 095405: one such bar each, on dice nothing else read; no other die body there
holds one). A six's two rows of three pips run into two bars side by side, one each side of the centre
(nell-byler 112710; 112517, whose pips read only its four corners). A two's pips lie twice as far apart
and stay two spots, as a four's do along its rows; a five's run into a cross, a one's into a round spot.

A glint is no such bar: it is lighter than the face, and these pips are not (`_no_lighter`). Nor is a
streak of a red die's own face: these pips' faces have no hue of their own (`MAX_FACE_HUE`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np

# A bar's length and width are measured as four standard deviations of its pixels along and across it
# (`UNIFORM_SPREAD` times a uniform bar's), in die sides. A three's pips, 0.15 to 0.2 of a side wide and their
# centres 0.2 to 0.28 of a side across and down from the die's, span 0.7 to 1.0 of a side along the diagonal:
# at most 1.15 measured. The bars' faint ends fall below the bar's threshold (`BAR_LEVEL`): the three bars in
# nell-byler measured 0.60 to 0.64. A smeared pip or a five's cross is no longer than it is wide.
BAR_LENGTH = (0.5, 1.2)
UNIFORM_SPREAD = 1.15  # four standard deviations of a uniform bar, as a share of its length or width
# A bar is one pip wide: 0.23 of a side measured at most, and nell-byler's bars measured 0.12 to 0.23. The
# dark face between a two's light pips is redder than they are and measures 0.29 to 0.39 (nell-byler 095453,
# a purple die; 095609, a red one).
BAR_WIDTH = 0.27
BAR_ELONGATION = 2.0
BAR_OFF_CENTRE = 0.2  # its centre lies within this share of a side of the body's centre, as a three's does
BAR_LEVEL = 0.5  # a pixel is bar where it stands out by this share of the face's most outstanding one
MIN_HUE_SPREAD = 12  # a* levels: a face flatter than this holds no coloured pips (`reader.MIN_SPREAD`)
# Pips that differ from their face in hue alone lie on a face of no hue of its own, a smoky or black die: its
# median a* lies within this many levels of grey's (nell-byler's smoky dice: 1 or 2). A red die's face holds
# redder streaks of its own, beside its pips (nell-byler 111411 enlarged: a red two read as a three; 42).
MAX_FACE_HUE = 10
NEUTRAL_HUE = 128  # a* of grey in 8-bit Lab
# A six's row of three pips spans the side less the corners' margins, a fifth shorter than a three's diagonal:
# the rows of nell-byler's ten sixes that show them measured 0.44 to 0.59. The rows lie half a row's length
# apart or so (0.43 to 0.55 measured; on a die whose pips fill its face, 0.65), parallel, across from each
# other.
ROW_LENGTH = (0.4, 1.0)
ROWS_APART = (0.35, 0.8)  # the rows' centres apart, as a share of their mean length
ROWS_ASKEW = 15.0  # degrees: most the rows' directions, and their join's from square to them, may differ
SMEAR_CONFIDENCE = 0.3  # a face read from bars is less sure than one read from its pips
WORK_SIDE = 65  # pixels: the widest crop read as it is (nell-byler's smeared dice: 32 to 42)


class Smear(NamedTuple):
    """A face read from the bars its pips ran into: its value, its angle (degrees, 0 to 90, as `Face.angle`)
    and the bars' width (pixels, about a pip's)."""

    value: int
    angle: float
    width: float


class _Bar(NamedTuple):
    """One redder-than-face blob as an ellipse: centre (off the crop's centre), length and width, in die
    sides, and direction (degrees)."""

    centre: np.ndarray
    angle: float
    length: float
    width: float


def smeared_face(face: np.ndarray) -> Smear | None:
    """The three (one bar along the diagonal) or the six (two rows side by side) the pips of the square BGR
    crop `face` (one die side wide, centred on a die body) ran into, or None when the face shows neither.

    A crop over `WORK_SIDE` pixels wide is read shrunk to it: the bars are a small die's, and the top-hat's
    cost grows with the square of the side (a 300 pixel body: 86 ms). Pips apart at a die's own size stay
    apart shrunk to this one, as bars stay bars."""
    side = face.shape[0]
    if side > WORK_SIDE:
        face = cv2.resize(face, (WORK_SIDE, WORK_SIDE), interpolation=cv2.INTER_AREA)
    bars = _bars(face)
    if bars is None:
        return None
    centre = np.mean([bar.centre for bar in bars], axis=0)
    if float(np.hypot(*centre)) > BAR_OFF_CENTRE:
        return None
    if len(bars) == 1:
        (bar,) = bars
        if not _bar_shaped(bar, BAR_LENGTH):
            return None
        # The pips lie along the die's diagonal.
        return Smear(3, (bar.angle - 45.0) % 90.0, bar.width * side / UNIFORM_SPREAD)
    first, second = bars
    if not (_bar_shaped(first, ROW_LENGTH) and _bar_shaped(second, ROW_LENGTH)):
        return None
    join = second.centre - first.centre
    across = math.degrees(math.atan2(join[1], join[0]))
    apart = float(np.hypot(*join)) / ((first.length + second.length) / 2)
    if not (
        ROWS_APART[0] <= apart <= ROWS_APART[1]
        and _askew(first.angle, second.angle) <= ROWS_ASKEW
        and _askew(across, first.angle + 90.0) <= ROWS_ASKEW
    ):
        return None
    return Smear(6, first.angle % 90.0, (first.width + second.width) / 2 * side / UNIFORM_SPREAD)


def _bars(face: np.ndarray) -> list[_Bar] | None:
    """The one or two blobs redder than the face of the crop `face` and no lighter than it, or None when it
    holds none, more than two, or any blob too small to have a direction, or the face has a hue of its own."""
    side = face.shape[0]
    lab = cv2.cvtColor(face, cv2.COLOR_BGR2Lab)
    hue = lab[:, :, 1]
    if int(hue.max()) - int(hue.min()) < MIN_HUE_SPREAD or abs(np.median(hue) - NEUTRAL_HUE) > MAX_FACE_HUE:
        return None
    # Half a die wide: more than a bar's width, so the top-hat keeps the bar whole, and less than the face.
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, side // 2 | 1),) * 2)
    redder = cv2.morphologyEx(hue, cv2.MORPH_TOPHAT, kernel)
    mask = (redder > BAR_LEVEL * int(redder.max())).astype(np.uint8)
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    if count not in (2, 3):  # the background and one or two blobs: any other blob is a pip or a swirl
        return None
    bars = []
    for label in range(1, count):
        ys, xs = np.nonzero(labels == label)
        if len(xs) < 3 or not _no_lighter(lab[:, :, 0], xs, ys):  # a speck of a pixel or two has no direction
            return None
        spread = np.cov(np.stack((xs, ys)).astype(np.float64)) + np.eye(2) / 12
        variances, axes = np.linalg.eigh(spread)
        width, length = 4 * np.sqrt(variances) / side
        centre = (np.array([xs.mean(), ys.mean()]) - (side - 1) / 2) / side
        bars.append(_Bar(centre, float(np.degrees(np.arctan2(axes[1, 1], axes[0, 1]))), length, width))
    return bars


def _bar_shaped(bar: _Bar, lengths: tuple[float, float]) -> bool:
    """Whether `bar` is within `lengths` long (die sides), a pip wide (`BAR_WIDTH`) and a bar, not a spot:
    `BAR_ELONGATION` times as long as wide."""
    return (
        lengths[0] <= bar.length <= lengths[1]
        and bar.width <= BAR_WIDTH
        and bar.length >= BAR_ELONGATION * bar.width
    )


def _askew(angle: float, other: float) -> float:
    """How far apart two directions (degrees) are, as lines: 0 to 90."""
    return abs((angle - other + 90.0) % 180.0 - 90.0)


def _no_lighter(lightness: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> bool:
    """Whether the bar's pixels are on average no lighter than the face's median: a glint across a green or
    blue die is redder than the face in a* too, but it is the lightest thing on it."""
    return float(lightness[ys, xs].mean()) <= float(np.median(lightness))

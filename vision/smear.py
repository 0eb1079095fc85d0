"""A three whose pips JPEG ran together into one red bar, on a die body nothing else reads.

A camera's JPEG keeps colour at half the resolution of lightness. On a small die whose pips differ from its
face in hue alone (red pips on a smoky black die: about as dark as the face in gray, a few pixels wide), the
three pips of a three lie a quarter of a side apart across and down, along the diagonal, their gaps narrower
than one colour sample, and in a* (green to red) they run together into one bar through the die's centre. A
two's pips lie twice as far apart and stay two spots; a five's run into a cross, a four's and a six's into
two bars or four spots, a one's into a round spot. So a face whose only redder-than-face blob is one bar
through the body's centre, about a pip wide and a three's diagonal long, shows a three (nell-byler 112438,
112926, 095405: one such bar each, on dice nothing else read; no other die body there holds one).

A glint is no such bar: it is lighter than the face, and these pips are not (`_no_lighter`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np

# The bar's length and width are measured as four standard deviations of its pixels along and across it
# (1.15 times a uniform bar's), in die sides. A three's pips, 0.15 to 0.2 of a side wide and their centres
# 0.2 to 0.28 of a side across and down from the die's, span 0.7 to 1.0 of a side along the diagonal: at
# most 1.15 measured. The bars' faint ends fall below the bar's threshold (`BAR_LEVEL`): the three bars in
# nell-byler measured 0.60 to 0.64. A smeared pip or a five's cross is no longer than it is wide.
BAR_LENGTH = (0.5, 1.2)
BAR_WIDTH = 0.4
BAR_ELONGATION = 2.0
BAR_OFF_CENTRE = 0.2  # its centre lies within this share of a side of the body's centre, as a three's does
BAR_LEVEL = 0.5  # a pixel is bar where it stands out by this share of the face's most outstanding one
MIN_HUE_SPREAD = 12  # a* levels: a face flatter than this holds no coloured pips (`reader.MIN_SPREAD`)
SMEAR_CONFIDENCE = 0.3  # a three read from one bar is less sure than one read from three pips


class Bar(NamedTuple):
    """The bar a three's pips ran into: its direction (degrees) and width (pixels, about a pip's)."""

    angle: float
    width: float


def smeared_three(face: np.ndarray) -> Bar | None:
    """The one bar a three's pips ran into on the square BGR crop `face` (one die side wide, centred on a
    die body), or None when the face shows no such bar."""
    side = face.shape[0]
    lab = cv2.cvtColor(face, cv2.COLOR_BGR2Lab)
    hue = lab[:, :, 1]
    if int(hue.max()) - int(hue.min()) < MIN_HUE_SPREAD:
        return None
    # Half a die wide: more than a bar's width, so the top-hat keeps the bar whole, and less than the face.
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, side // 2 | 1),) * 2)
    redder = cv2.morphologyEx(hue, cv2.MORPH_TOPHAT, kernel)
    mask = (redder > BAR_LEVEL * int(redder.max())).astype(np.uint8)
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    if count != 2:  # one blob and the background: any other blob is a pip or a swirl of its own
        return None
    ys, xs = np.nonzero(labels == 1)
    if len(xs) < 3 or not _no_lighter(lab[:, :, 0], xs, ys):  # a speck of a pixel or two has no direction
        return None
    centre = (side - 1) / 2
    if math.hypot(xs.mean() - centre, ys.mean() - centre) > BAR_OFF_CENTRE * side:
        return None
    spread = np.cov(np.stack((xs, ys)).astype(np.float64)) + np.eye(2) / 12
    variances, axes = np.linalg.eigh(spread)
    width, length = 4 * np.sqrt(variances) / side
    long_enough = BAR_LENGTH[0] <= length <= BAR_LENGTH[1] and length >= BAR_ELONGATION * width
    if not long_enough or width > BAR_WIDTH:
        return None
    # The bar's measured width is 1.15 times a uniform bar's, as its length is.
    return Bar(float(np.degrees(np.arctan2(axes[1, 1], axes[0, 1]))), width * side / 1.15)


def _no_lighter(lightness: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> bool:
    """Whether the bar's pixels are on average no lighter than the face's median: a glint across a green or
    blue die is redder than the face in a* too, but it is the lightest thing on it."""
    return float(lightness[ys, xs].mean()) <= float(np.median(lightness))

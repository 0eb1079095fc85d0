"""How far a pip must stand from its face: thresholds are shares of a frame's brightness range, and never
within a few times its pixel jitter, so no gray level belongs to one camera or one room's light."""

from __future__ import annotations

from statistics import median

import cv2
import numpy as np

from vision.body import Bodies
from vision.frames import levels_at

MIN_SPREAD = 12  # brightness range (gray levels) below which an image or channel holds nothing to read
# A few dice on a plain tray cover too little of the frame to reach its 1st and 99th percentiles, which
# are then the tray's own jitter: the frame reads as blank, or its thresholds let the tray's grain pass for
# pips. When the dice bodies cover less than SPARSE_SHARE of the frame, the range is at least the one
# within 1 / sqrt(SPARSE_SHARE) (about 7) sides of each body, where dice cover that share as in a frame
# full of them (a few dice in a 1280x720 frame, or one in a 640x480 one). Real photos with all dice but one
# painted out read as before or better (nell-byler 321 -> 323 of 390 lone dice, matteop65 544 of 710 alike).
# It is also at least the median range on the dice bodies themselves (`_range_on_dice`), bodies over
# HEAP_SIDES times the typical side left out (a heap, a cable, a laptop's corner).
SPARSE_SHARE = 0.02
HEAP_SIDES = 2.0


def brightness_range(image: np.ndarray, bodies: Bodies | None = None) -> float:
    """The 1st to 99th percentile of a sample of `image`'s levels; with `bodies`, dice bodies that cover less
    than `SPARSE_SHARE` of it, at least that of the levels near them (a few dice on a plain tray) and on them
    (`_range_on_dice`). Only at least: where the frame's own range is larger (a tray's black walls, glare), a
    threshold from the range near the dice alone lets their reflections in a glossy wall pass for pips."""
    step = max(1, int(np.sqrt(image.size / 20000)))
    sample = image[::step, ::step]
    low, high = levels_at(sample, (0.01, 0.99))
    if bodies is not None and float(np.sum(bodies.sizes**2)) < SPARSE_SHARE * image.size:
        near = np.zeros(sample.shape, np.uint8)
        for (x, y), side in zip(bodies.centers / step, bodies.sizes / step, strict=True):
            half = side / np.sqrt(SPARSE_SHARE) / 2
            cv2.rectangle(near, (int(x - half), int(y - half)), (int(x + half), int(y + half)), 1, -1)
        near_low, near_high = levels_at(sample[near > 0], (0.01, 0.99))
        return float(max(high - low, near_high - near_low, _range_on_dice(image, bodies)))
    return float(high - low)


def _range_on_dice(image: np.ndarray, bodies: Bodies) -> float:
    """The median over dice `bodies` (those up to `HEAP_SIDES` of their typical side) of the 1st to 99th
    percentile of `image`'s levels on each.

    A few dice cover even their surroundings so thinly that their pips are under the 1st percentile there:
    a tray's wood grain or felt, not the dice, then sets the threshold, and a grain's darker streaks pass for
    twos (matteop65 from 3x as far: 5 false dice on one photo). On a die, its pips are a tenth of it. The
    median, as dice of several sets differ: a white die beside a black one spans the whole range, and faint
    coloured pips on a third would be lost to a threshold from it (nell-byler 112434).
    """
    ranges = []
    for (x, y), side in zip(bodies.centers, bodies.sizes, strict=True):
        if side > HEAP_SIDES * bodies.size:
            continue
        half = side / 2
        crop = image[max(0, int(y - half)) : int(y + half) + 1, max(0, int(x - half)) : int(x + half) + 1]
        low, high = levels_at(crop, (0.01, 0.99))
        ranges.append(high - low)
    return float(median(ranges)) if ranges else 0.0


def grain(gray: np.ndarray) -> float:
    """Typical pixel-to-pixel jitter: sensor noise or static, which no die face has at the pixel scale."""
    step = max(1, int(np.sqrt(gray.size / 40000)))
    sample = gray[::step, ::step]
    (jitter,) = levels_at(cv2.absdiff(sample[:, 1:], sample[:, :-1]), (0.5,))
    return float(jitter)

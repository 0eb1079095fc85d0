"""Does a lone pip sit on a die the colour of the surface? Evidence from the die's outline.

A white die showing 1 on a white tray has no body that stands out in colour (`vision.body`): its face and
the tray differ by a few gray levels. Its edge still shows, as the thin shadow or bevel round its face, all
the way round a square with the pip at its centre. A speck on the tray has no such square, and the lines of
a textured surface (wood grain, a tray's wall) run past it on one or two sides, not on all four. So the
evidence is the best square centred on the pip along three quarters of which or more the brightness changes
steeply, in units of how steeply the surface around it changes by itself: no threshold belongs to one camera
or tray.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.body import gradient
from vision.frames import resize

# The sides tried: a 1's pip is at most 0.4 of its die's side, and a die of another set in the frame is
# between MIN_SIDE_SHARE and MAX_SIDE_SHARE of the frame's die size. (Nearer the pip, the halo that JPEG
# and the lens leave round a speck would pass for a small square: nell-byler's tray marks at half size.)
MIN_SIDE_PIPS = 2.5
MIN_SIDE_SHARE = 0.5
MAX_SIDE_SHARE = 1.3
SIDES = 14  # spaced evenly in proportion
ANGLES = np.deg2rad(np.arange(0.0, 90.0, 6.0))  # a square repeats itself every quarter turn
POINTS_PER_EDGE = 9
# A square's steepness is the gradient this share of its outline reaches or exceeds (its 25th
# percentile): a speck beside a wall or a grain line has a steep stretch, not a steep outline.
OUTLINE_PERCENTILE = 25
# 8-bit gray levels are whole numbers: on a flat surface, a median gradient below one level is their
# rounding, not a texture to measure against.
LEVEL = 1.0


def outline_contrast(
    image: np.ndarray, center: tuple[float, float], pip: float, die_px: float, work_die_px: float
) -> float:
    """How steep the best square outline centred on `center` is in the BGR `image`, in units of the
    surface's own gradient (the median over a patch twice as wide as the largest square tried, of which a
    die covers a quarter at most); `pip` is the pip's diameter and `die_px` the frame's die size, which
    bound the sides tried. 0 when no side fits between the bounds.

    Dice wider than `work_die_px` (the size the reader reads pips at) are measured shrunk to it: an edge
    spread over more pixels (a frame enlarged, a still with more pixels on the dice) is less steep per pixel,
    while the surface's gradient stays at `LEVEL` or more. nell-byler 100054's white one on its pale tray
    measured 10.4 as taken, 5.2 enlarged 2.5x and 3.4 enlarged 4x at its own size."""
    smallest = max(MIN_SIDE_PIPS * pip, MIN_SIDE_SHARE * die_px)
    largest = MAX_SIDE_SHARE * die_px
    if smallest >= largest:
        return 0.0
    reach = int(np.ceil(largest))
    x, y = int(round(center[0])), int(round(center[1]))
    x0, y0 = max(0, x - reach), max(0, y - reach)
    patch = image[y0 : y + reach + 1, x0 : x + reach + 1]
    if min(patch.shape[:2]) < 3:
        return 0.0
    gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    shrink = min(1.0, work_die_px / die_px)
    if shrink < 1.0:
        gray = resize(gray, shrink)
    # Pixel centres: copy pixel c covers the patch's (c + 0.5) / shrink - 0.5.
    middle = (np.array([center[0] - x0, center[1] - y0]) + 0.5) * shrink - 0.5
    steep = gradient(gray)
    texture = max(float(np.median(steep)), LEVEL)
    # An edge a pixel off the square tried (sampled to whole pixels, turned in steps) still counts.
    steep = cv2.dilate(steep, np.ones((3, 3), np.uint8))
    # Points along every square tried: (angles, sides, points, xy), in the shrunk patch's pixels.
    sides = np.geomspace(smallest, largest, SIDES) * shrink
    points = middle + sides[None, :, None, None] * UNIT_SQUARES[:, None, :, :]
    xs, ys = np.rint(points[..., 0]).astype(int), np.rint(points[..., 1]).astype(int)
    height, width = steep.shape
    inside = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    # A square running off the patch (a die cut by the frame's edge) has no outline there.
    values = np.where(inside, steep[ys.clip(0, height - 1), xs.clip(0, width - 1)], 0.0)
    return float(np.percentile(values, OUTLINE_PERCENTILE, axis=-1).max()) / texture


def _unit_squares() -> np.ndarray:
    """The outlines of a square of side 1 centred on the origin, turned by each of `ANGLES`:
    (angles, 4 * POINTS_PER_EDGE, xy). Computed once, as `UNIT_SQUARES`."""
    along = (np.arange(POINTS_PER_EDGE) + 0.5) / POINTS_PER_EDGE - 0.5
    top = np.stack([along, np.full_like(along, -0.5)], axis=1)
    outline = np.concatenate([top @ _turn(quarter * np.pi / 2) for quarter in range(4)])
    return np.stack([outline @ _turn(angle) for angle in ANGLES])


def _turn(angle: float) -> np.ndarray:
    """The matrix that turns row vectors by `angle` radians."""
    return np.array([[np.cos(angle), np.sin(angle)], [-np.sin(angle), np.cos(angle)]])


UNIT_SQUARES = _unit_squares()

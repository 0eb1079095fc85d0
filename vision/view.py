"""Which way the camera lies, told by the dice it sees: side faces lie towards it from their top faces.

A camera that looks down at a slant squashes every top face's pips along the way it looks across the table,
and sees each die's side face on its own side of the top face. A camera held upright has that way down the
frame. A Pi camera over a tray is mounted any way round, though: turned on its mount, it squashes the pips
along another axis, and its side faces lie beside or above their top faces. The pips' squash tells the axis;
the side faces in shade (a room is lit from above) tell which way along it the camera lies, and where none
are, perspective does: the faces nearer the camera are seen from higher above, so their pips are rounder.
`vision.faces` and `vision.sides` both judge side faces by it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from vision.pips import SLANT_ROUNDNESS

if TYPE_CHECKING:
    from vision.faces import Face

DOWN = np.array([0.0, 1.0])  # down the frame (image x, y): towards a camera held upright
# A side face lies towards the camera from its top face, at least this share as far along the way the camera
# looks as across it: a die turned 45 degrees to the camera shows two side faces, down and to either side
# (their centres 0.35 of a side across, and 0.5 to 0.6 down when seen from 45 to 70 degrees above the table);
# one turned 20 degrees and seen from 60, one 0.47 across and 0.4 down. Only a face seen nearly edge-on lies
# flatter, and its pips are too squashed to read. Within 45 degrees of straight down, the front face of a
# turned white die stood as a die of its own in matteop65 photos taken darker (levels times 0.55: six_24,
# three_4, valid_25), where its body stands out from the table.
BELOW_SLOPE = 0.5
# Pips this much rounder than others are clearly rounder, beyond pixel noise: half `vision.faces`'
# `ROUNDNESS_STEP` (a top face's pips against a side face's). `vision.faces` judges side faces' flatter pips
# by it, and perspective tells the way to the camera only where the faces' roundness changes by at least this
# much across their spread along the axis.
CLEARLY_ROUNDER = 0.075
# ... and only where the faces are squashed along one axis: the weighed mean of their squash axes (doubled
# angles) at least this share of their weight. A camera's slant squashes every top face alike (matteop65
# turned 90 and 180: 0.77 to 0.98); dice tilted against each other in a heap seen from above each squash
# their own way (nell-byler 095849: 0.07 to 0.60), and there the faces nearer one end are no nearer the
# camera.
AGREED_SQUASH = 0.75


def squash_direction(angles: np.ndarray, weights: np.ndarray) -> float:
    """The mean of axes at `angles` (degrees; an axis at 10 is the one at 190), weighed by `weights`, in
    degrees from 0 to 180: NaN when they cancel out or weigh nothing."""
    sin, cos = _doubled_sum(angles, weights)
    if np.hypot(sin, cos) <= 1e-9:
        return float("nan")
    return float(np.degrees(0.5 * np.arctan2(sin, cos)) % 180.0)


def squash_agreement(angles: np.ndarray, weights: np.ndarray) -> float:
    """How well axes at `angles` (degrees), weighed by `weights`, agree: 1 when all lie alike, 0 when they
    cancel out or weigh nothing (the length of their doubled angles' weighed mean)."""
    total = float(np.sum(weights))
    return float(np.hypot(*_doubled_sum(angles, weights))) / total if total > 1e-9 else 0.0


def _doubled_sum(angles: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """The weighed sum of axes at `angles` (degrees) as vectors at twice their angle, where an axis and its
    opposite are one: (sine part, cosine part)."""
    doubled = np.radians(2.0 * np.asarray(angles, float))
    weights = np.asarray(weights, float)
    return float((weights * np.sin(doubled)).sum()), float((weights * np.cos(doubled)).sum())


def view_axis(faces: Sequence[Face]) -> np.ndarray | None:
    """The unit vector along which a camera at a slant squashes the read `faces`' pips (`Face.squash_angle`,
    the flatter faces counting more), pointing down the frame where it can; `DOWN` where no face tells the
    direction. None where the pips are round (median roundness `SLANT_ROUNDNESS` or more): a camera looking
    straight down squashes nothing, and its side faces are told by their shade alone."""
    if not faces or np.median([face.roundness for face in faces]) >= SLANT_ROUNDNESS:
        return None
    angle = squash_direction(*_squash_axes(faces))  # NaN when none is known
    if np.isnan(angle):
        return DOWN
    return np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])  # 0..180 degrees: y >= 0


def _squash_axes(faces: Sequence[Face]) -> tuple[np.ndarray, np.ndarray]:
    """The axes `faces` are squashed along (`Face.squash_angle`, degrees), where known, and their weights:
    the flatter a face, the more it tells."""
    angles = np.array([face.squash_angle for face in faces])
    known = ~np.isnan(angles)
    return angles[known], 1.0 - np.array([face.roundness for face in faces])[known]


def along_and_across(way: np.ndarray, dx: np.ndarray, dy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How far each offset (`dx`, `dy`) runs along the unit vector `way` (signed) and across it (unsigned)."""
    return dx * way[0] + dy * way[1], np.abs(dy * way[0] - dx * way[1])


def towards_camera(
    axis: np.ndarray, dx: np.ndarray, dy: np.ndarray, shaded_pairs: np.ndarray, perspective: np.ndarray
) -> np.ndarray:
    """The way from a top face to its side faces along `axis`: `axis` or its opposite, or zeros where
    nothing tells. `dx`, `dy` [i, j]: how far face j lies from face i; `shaded_pairs` [i, j]: face j is in
    shade beside face i, as a side face is beside its top face; `perspective`: the way perspective tells
    (`perspective_way`), or zeros.

    Side faces in shade lie on the camera's side of their top faces, so they tell it whichever way the camera
    is turned (matteop65 turned 90 and 180: its fives beside and above their threes). Only pairs on the axis
    (`BELOW_SLOPE`) count, and each shaded face votes by the nearest face it is darker than, its own top face:
    a side face lies as close to the next die's top face on the other side as to its own (matteop65 three_43
    turned 90). Where none are, perspective tells: a window may light a side face as well as its top face
    (matteop65 four_15 turned 90 and 180: its two's side face only 1.09 times darker, under `SHADE_RATIO`,
    and read as a die). Where that tells nothing either, a camera held upright is assumed when the axis runs
    nearer down the frame than across it; across, a side face lit like its top face cannot be told from a die
    beside it.
    """
    along, across = along_and_across(axis, dx, dy)
    pairs = shaded_pairs & (np.abs(along) > BELOW_SLOPE * across)
    shaded = np.flatnonzero(pairs.any(axis=0))
    nearest = np.argmin(np.where(pairs, np.hypot(dx, dy), np.inf)[:, shaded], axis=0)
    votes = float(np.sign(along[nearest, shaded]).sum())
    if votes:
        return axis * np.sign(votes)
    if perspective.any():
        return perspective
    return axis if abs(axis[1]) >= abs(axis[0]) else np.zeros(2)


def perspective_way(
    axis: np.ndarray, faces: Sequence[Face], centers: np.ndarray, die_px: float
) -> np.ndarray:
    """The way along `axis` the read `faces` (at `centers`, dice `die_px` wide) grow rounder, which is
    towards the camera: a camera looking down at a slant sees the near table from higher above than the far,
    so the top faces there less squashed. `axis` or its opposite, by the line fitted to the faces' roundness
    along the axis; zeros where that tells nothing: faces spread less than a die along the axis, their
    roundness changing less than `CLEARLY_ROUNDER` across them, or squashed along axes that disagree
    (`AGREED_SQUASH`)."""
    along = centers @ axis / die_px
    if along.size < 2 or np.ptp(along) < 1.0:
        return np.zeros(2)
    if squash_agreement(*_squash_axes(faces)) < AGREED_SQUASH:
        return np.zeros(2)
    roundness = np.array([face.roundness for face in faces])
    change = float(np.polyfit(along, roundness, 1)[0]) * np.ptp(along)
    return axis * np.sign(change) if abs(change) >= CLEARLY_ROUNDER else np.zeros(2)

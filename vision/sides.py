"""Side faces told by their shading or by the camera's slant: of two faces of one die, the top one is above.

A camera that looks down at an angle sees, below each die's top face, the side face turned towards it, and
reads its pips as a die of their own. `vision.faces` drops the side faces whose pips are clearly flatter or
smaller; seen at 45 to 60 degrees they are neither. But a room is lit from above: a side face gets less light
than the top face of the same die, so it is darker while its colour (the die's) is the same. Two dice lying
side by side are lit alike, and dice of another colour are not compared at all.

Light from a window can reach a side face as well as the top. The slant of the view still tells: a camera
looking straight down sees the top faces face-on, their pips round, and no side faces at all; one that
looks down at a slant sees every top face's pips squashed (to about 0.6 to 0.75 of their width at 45 to 50
degrees), and then a face of the same colour below a top face (straight down, or down and to one side
for a die turned to the camera), closer than two dice can lie, is its side face however it is lit.

"Below" is towards the camera. A camera held upright has it down the frame; one turned on its mount (a Pi
camera over a tray is mounted any way round) squashes the pips along another axis, and its side faces in
shade lie beside or above their top faces. The pips' squash tells the axis, and the shaded faces which way
along it the camera lies.
"""

from __future__ import annotations

import numpy as np

from vision.body import ring_colours
from vision.faces import SHADE_RATIO, Face, distances, squash_direction
from vision.pips import SLANT_ROUNDNESS

# The face's colour is sampled on a ring this share of the die side around its centre: outside a centre pip
# (0.09 of the side across its middle) and inside every other pip (0.18 and more from the centre).
RING_SHARE = 0.14
# A side face's centre lies within this share of a die side of its top face's; two dice lying side by side
# are a whole side apart, less what perspective takes off their depth.
SIDE_GAP = 0.9
# ... and lower, at least this share as far down as across: a die turned 45 degrees to the camera shows two
# side faces, down and to either side (their centres 0.35 of a side across, and 0.5 to 0.6 down when seen from
# 45 to 70 degrees above the table); one turned 20 degrees and seen from 60, one 0.47 across and 0.4 down.
# Only a face seen nearly edge-on lies flatter, and its pips are too squashed to read. Within 45 degrees of
# straight down, the front face of a turned white die stood as a die of its own in matteop65 photos taken
# darker (levels times 0.55: six_24, three_4, valid_25), where its body stands out from the table.
BELOW_SLOPE = 0.5
# The top face is at least `SHADE_RATIO` lighter (CIELAB L) than its side face, and its colour (a*, b*) is
# at most this far from the side face's: the same die. A face in shade takes on the colour of the light the
# table reflects (a white die's front face over wood: 10.05 from its top), while a die of another set below
# a die differed by 12.3 and more in the photo sets.
ALIKE_CHROMA = 11.0
# ... or the read faces' pips are less round than `SLANT_ROUNDNESS` (median minor / major axis): the camera
# looks at a slant.
DOWN = np.array([0.0, 1.0])  # down the frame (image x, y): towards a camera held upright


def drop_shaded_sides(faces: list[Face], image: np.ndarray, die_px: float, scale: float) -> list[Face]:
    """`faces` (work coordinates, `scale` work pixels per pixel of the BGR `image`) without the read faces
    that are side faces: below another read face of the same polarity and colour (`BELOW_SLOPE`), closer than
    `SIDE_GAP` die sides (`die_px`, image pixels) to it, and darker by `SHADE_RATIO` or more or seen at a
    slant.

    "Below" is towards the camera, along the axis the pips are squashed along (`_view_axis`,
    `_towards_camera`): down the frame for a camera held upright, and for one that looks straight down
    (round pips tell no axis). Faces are judged from the camera's far side on, and a side face is no top
    face: a die lying in front of another may be as close below the other's front face as a side face is,
    and darker (the other die shades it), but it is a whole side from the other's top face (matteop65
    three_43).
    """
    read = [face for face in faces if face.value is not None]
    if len(read) < 2:
        return faces
    centers = np.array([face.center for face in read]) / scale
    dark = np.array([face.dark for face in read])
    slanted = np.median([face.roundness for face in read]) < SLANT_ROUNDNESS
    axis = _view_axis(read) if slanted else DOWN
    dx = centers[None, :, 0] - centers[:, None, 0]
    dy = centers[None, :, 1] - centers[:, None, 1]  # row i is the top face, column j the side face
    along = dx * axis[0] + dy * axis[1]
    across = np.abs(dy * axis[0] - dx * axis[1])
    gap = np.hypot(dx, dy)
    on_axis = (np.abs(along) > BELOW_SLOPE * across) & (gap < SIDE_GAP * die_px)
    on_axis &= dark[:, None] == dark[None, :]
    if not on_axis.any():  # dice lying apart, as in a tray seen from above: nothing to sample
        return faces
    lab = ring_colours(image, centers, RING_SHARE * die_px)
    alike = on_axis & (distances(lab[:, 1:], lab[:, 1:]) < ALIKE_CHROMA)
    shaded = lab[:, None, 0] > SHADE_RATIO * lab[None, :, 0]  # [i, j]: face j in shade beside face i
    sign = _towards_camera(axis, along, gap, alike & shaded) if slanted else 1.0
    if sign == 0.0:
        return faces
    side_of = alike & (sign * along > 0) & (shaded | slanted)  # [i, j]: face j is face i's side face
    side = np.zeros(len(read), bool)
    for index in np.argsort(sign * (centers @ axis), kind="stable"):
        side[index] = bool((side_of[:, index] & ~side).any())
    sides = {id(face) for face, is_side in zip(read, side, strict=True) if is_side}
    return [face for face in faces if id(face) not in sides]


def _view_axis(read: list[Face]) -> np.ndarray:
    """The unit vector along which a camera at a slant squashes the faces' pips (`Face.squash_angle`, the
    flatter faces counting more), pointing down the frame where it can; `DOWN` where no face tells."""
    angles = np.array([face.squash_angle for face in read])
    known = ~np.isnan(angles)
    weights = 1.0 - np.array([face.roundness for face in read])
    angle = squash_direction(angles[known], weights[known])  # NaN when none is known
    if np.isnan(angle):
        return DOWN
    return np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])  # 0..180 degrees: y >= 0


def _towards_camera(axis: np.ndarray, along: np.ndarray, gap: np.ndarray, shaded_pairs: np.ndarray) -> float:
    """Which way along `axis` the camera lies: 1.0 (the way it points), -1.0, or 0.0 where nothing tells.

    Side faces in shade (`shaded_pairs` [i, j]: face j darker than face i, on the axis; `along` [i, j]: how
    far j lies from i along it; `gap` [i, j]: how far in all) lie on the camera's side of their top faces, so
    they tell it whichever way the camera is turned (matteop65 turned 90 and 180: its fives beside and above
    their threes). Each votes by the nearest face it is darker than, its own top face: a side face lies as
    close to the next die's top face on the other side as to its own (matteop65 three_43 turned 90). Where
    none are, a camera held upright is assumed when the axis runs nearer down the frame than across it;
    across, a side face lit like its top face cannot be told from a die beside it.
    """
    shaded = np.flatnonzero(shaded_pairs.any(axis=0))
    nearest = np.argmin(np.where(shaded_pairs, gap, np.inf)[:, shaded], axis=0)
    votes = float(np.sign(along[nearest, shaded]).sum())
    if votes:
        return float(np.sign(votes))
    return 1.0 if abs(axis[1]) >= abs(axis[0]) else 0.0

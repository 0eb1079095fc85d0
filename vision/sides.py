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
"""

from __future__ import annotations

import numpy as np

from vision.body import ring_colours
from vision.faces import SHADE_RATIO, Face, distances
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


def drop_shaded_sides(faces: list[Face], image: np.ndarray, die_px: float, scale: float) -> list[Face]:
    """`faces` (work coordinates, `scale` work pixels per pixel of the BGR `image`) without the read faces
    that are side faces: below another read face of the same polarity and colour (`BELOW_SLOPE`), closer than
    `SIDE_GAP` die sides (`die_px`, image pixels) to it, and darker by `SHADE_RATIO` or more or seen at a
    slant.

    "Below" is down the frame: a camera held upright that looks down at the table sees the side faces nearest
    it under the top faces. Faces are judged from the top of the frame down, and a side face is no top face:
    a die lying in front of another may be as close below the other's front face as a side face is, and
    darker (the other die shades it), but it is a whole side from the other's top face (matteop65 three_43).
    """
    read = [face for face in faces if face.value is not None]
    if len(read) < 2:
        return faces
    centers = np.array([face.center for face in read]) / scale
    dark = np.array([face.dark for face in read])
    dx = centers[None, :, 0] - centers[:, None, 0]
    dy = centers[None, :, 1] - centers[:, None, 1]  # row i is the top face, column j the side face below it
    below = (dy > BELOW_SLOPE * np.abs(dx)) & (np.hypot(dx, dy) < SIDE_GAP * die_px)
    below &= dark[:, None] == dark[None, :]
    if not below.any():  # dice lying apart, as in a tray seen from above: nothing to sample
        return faces
    lab = ring_colours(image, centers, RING_SHARE * die_px)
    chroma = distances(lab[:, 1:], lab[:, 1:])
    slanted = np.median([face.roundness for face in read]) < SLANT_ROUNDNESS
    told = (lab[:, None, 0] > SHADE_RATIO * lab[None, :, 0]) | slanted
    side_of = below & (chroma < ALIKE_CHROMA) & told  # [i, j]: face j is face i's side face
    side = np.zeros(len(read), bool)
    for index in np.argsort(centers[:, 1], kind="stable"):
        side[index] = bool((side_of[:, index] & ~side).any())
    sides = {id(face) for face, is_side in zip(read, side, strict=True) if is_side}
    return [face for face in faces if id(face) not in sides]

"""Side faces told by their shading or by the camera's slant: of two faces of one die, the top one is above.

A camera that looks down at an angle sees, below each die's top face, the side face turned towards it, and
reads its pips as a die of their own. `vision.faces` drops the side faces whose pips are clearly flatter or
smaller; seen at 45 to 60 degrees they are neither. But a room is lit from above: a side face gets less light
than the top face of the same die, so it is darker while its colour (the die's) is the same, or for a white
die tinted towards the table's, whose light it takes on in shade. Two dice lying side by side are lit alike,
and dice of another colour are not compared at all.

Light from a window can reach a side face as well as the top. The slant of the view still tells: a camera
looking straight down sees the top faces face-on, their pips round, and no side faces at all; one that
looks down at a slant sees every top face's pips squashed (to about 0.6 to 0.75 of their width at 45 to 50
degrees), and then a face of the same colour below a top face (straight down, or down and to one side
for a die turned to the camera), closer than two dice can lie, is its side face however it is lit.

Where the top faces' pips are round, a side face is seen nearly edge-on, so a face whose layout of four
pips or more is as square as a top face's is another die's top face, though in shade below a die of its
colour: two dice of one set touching, the lower one shaded by the upper. A webcam's blur makes a side
face's small pips as round as a top face's, but not the layout they span.

"Below" is towards the camera (`vision.view`): down the frame for a camera held upright, along the axis
its pips are squashed along for one turned on its mount, the way the side faces in shade lie or, where a
window lights them as well as their top faces, the way the top faces grow rounder (perspective).
"""

from __future__ import annotations

import numpy as np

from vision.body import estimate_surface, ring_colours
from vision.faces import SHADE_RATIO, Face, clearly_smaller, distances
from vision.pips import SLANT_ROUNDNESS
from vision.view import BELOW_SLOPE, DOWN, along_and_across, perspective_way, towards_camera, view_axis

# The face's colour is sampled on a ring this share of the die side around its centre: outside a centre pip
# (0.09 of the side across its middle) and inside every other pip (0.18 and more from the centre).
RING_SHARE = 0.14
# A side face's centre lies within this share of a die side of its top face's, below it (`BELOW_SLOPE`); two
# dice lying side by side are a whole side apart, less what perspective takes off their depth.
SIDE_GAP = 0.9
# The top face is at least `SHADE_RATIO` lighter (CIELAB L) than its side face, or the camera looks at a slant
# (`vision.view.view_axis`), and its colour (a*, b*) is at most this far from the side face's: the same die. A
# face in shade takes on the colour of the light the table reflects (a white die's front face over wood: 10.05
# from its top), while a die of another set below a die differed by 12.3 and more in the photo sets. A white,
# gray or black die (its top face this near neutral) has no colour of its own to keep in shade: its side face
# may take on the table's, all the way (matteop65 four_16 from 3x as far, as a Pi still: 14.1 from its top,
# 8.1 from the wood). A coloured die's side face keeps its colour: a face between a red die's colour and a
# white board's below it is a black die (nell-byler 112510).
ALIKE_CHROMA = 11.0
# CIELAB's a* and b* of no colour, in OpenCV's 8-bit scale
NEUTRAL = 128.0


def drop_shaded_sides(faces: list[Face], image: np.ndarray, die_px: float, scale: float) -> list[Face]:
    """`faces` (work coordinates, `scale` work pixels per pixel of the BGR `image`) without the read faces
    that are side faces: below another read face of the same polarity and colour (`BELOW_SLOPE`), closer than
    `SIDE_GAP` die sides (`die_px`, image pixels) to it, and darker by `SHADE_RATIO` or more or seen at a
    slant. Where the pips are round (no slant), a face of four pips or more whose layout keeps at least
    `SLANT_ROUNDNESS` of its width across the other way (`Face.layout_squash`) is seen face-on, a top face
    (nell-byler 112205 enlarged 2.5 times: a green five touching the green four above it, in its shade).

    "Below" is towards the camera, along the axis the pips are squashed along (`vision.view`): down the frame
    for a camera held upright, and for one that looks straight down (round pips tell no axis). Faces are
    judged from the camera's far side on, and a side face is no top face: a die lying in front of another may
    be as close below the other's front face as a side face is, and darker (the other die shades it), but it
    is a whole side from the other's top face (matteop65 three_43). Nor is a face whose pips are clearly
    larger than the top face's its side face (`_clearly_larger_pips`).
    """
    read = [face for face in faces if face.value is not None]
    if len(read) < 2:
        return faces
    centers = np.array([face.center for face in read]) / scale
    dark = np.array([face.dark for face in read])
    axis = view_axis(read)
    slanted = axis is not None
    axis = DOWN if axis is None else axis
    dx = centers[None, :, 0] - centers[:, None, 0]
    dy = centers[None, :, 1] - centers[:, None, 1]  # row i is the top face, column j the side face
    along, across = along_and_across(axis, dx, dy)
    gap = np.hypot(dx, dy)
    on_axis = (np.abs(along) > BELOW_SLOPE * across) & (gap < SIDE_GAP * die_px)
    on_axis &= dark[:, None] == dark[None, :]
    on_axis &= ~_clearly_larger_pips(read)
    if not on_axis.any():  # dice lying apart, as in a tray seen from above: nothing to sample
        return faces
    lab = ring_colours(image, centers, RING_SHARE * die_px)
    alike = on_axis & _alike_in_colour(lab[:, 1:], on_axis, image, centers, die_px)
    shaded = lab[:, None, 0] > SHADE_RATIO * lab[None, :, 0]  # [i, j]: face j in shade beside face i
    if slanted:
        way = towards_camera(axis, dx, dy, alike & shaded, perspective_way(axis, read, centers, die_px))
    else:
        way = DOWN
    if not way.any():
        return faces
    towards, _ = along_and_across(way, dx, dy)
    side_of = alike & (towards > 0) & (shaded | slanted)  # [i, j]: face j is face i's side face
    if not slanted:
        side_of &= ~_seen_face_on(read)[None, :]
    side = np.zeros(len(read), bool)
    for index in np.argsort(centers @ way, kind="stable"):
        side[index] = bool((side_of[:, index] & ~side).any())
    sides = {id(face) for face, is_side in zip(read, side, strict=True) if is_side}
    return [face for face in faces if id(face) not in sides]


def _clearly_larger_pips(faces: list[Face]) -> np.ndarray:
    """[i, j]: face j's pips are clearly larger than face i's (`vision.faces.clearly_smaller`; a face of no
    measured pips tells nothing). A side face's pips are its die's, printed alike and foreshortened, never
    clearly larger: a face that shows them so is another die's (nell-byler 111304 turned 180: a black die's
    1, its pip 6.8 px wide, just below a smoky die's 1 whose red pip measured 3.2, darker and as neutral, was
    dropped as its side face)."""
    pip = np.array([face.pip for face in faces])
    return (pip[:, None] > 0) & clearly_smaller(pip[:, None], pip[None, :])


def _seen_face_on(faces: list[Face]) -> np.ndarray:
    """Each face's layout of four pips or more squashed no more than a camera looking straight down squashes
    a top face's pips (`SLANT_ROUNDNESS`): from nearly straight above, a side face is seen edge-on."""
    return np.array([face.layout_squash >= SLANT_ROUNDNESS for face in faces])


def _alike_in_colour(
    chroma: np.ndarray, pairs: np.ndarray, image: np.ndarray, centers: np.ndarray, die_px: float
) -> np.ndarray:
    """[i, j]: face j's colour (a*, b*: rows of `chroma`) may be face i's die's, within `ALIKE_CHROMA` of
    face i's or, when face i is neutral (a white, gray or black die), of a colour on the way from it to the
    table's at face j.

    The table's colour is measured (`estimate_surface`) only when one of `pairs` needs it: most side faces are
    alike enough to their top faces without it.
    """
    alike = distances(chroma, chroma) < ALIKE_CHROMA
    neutral = np.hypot(*(chroma - NEUTRAL).T) < ALIKE_CHROMA
    open_pairs = pairs & ~alike & neutral[:, None]
    if not open_pairs.any():
        return alike
    surface = estimate_surface(image, die_px)
    ys, xs = surface.places(centers)
    table = surface.surface_small[ys, xs, 1:].astype(np.float32)
    to_table = table[None, :, :] - chroma[:, None, :]  # [i, j]: from face i's colour to the table's at face j
    offset = chroma[None, :, :] - chroma[:, None, :]
    length = np.maximum((to_table * to_table).sum(axis=2), 1e-6)
    share = np.clip((offset * to_table).sum(axis=2) / length, 0.0, 1.0)  # how far towards the table
    tinted = np.linalg.norm(offset - share[:, :, None] * to_table, axis=2) < ALIKE_CHROMA
    return alike | (open_pairs & tinted)

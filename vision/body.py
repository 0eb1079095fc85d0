"""Does a lone pip sit on a die? Evidence from the die's body rather than from its pips.

A die showing 1 has a single pip, and a single dark or light dot is also what a speck on the tray, a screw
head or a letter on a keyboard looks like. What sets a die apart is its body: a face whose colour stands out
from the surface the dice lie on. The surface is estimated per place with a median over a window several dice
wide (dice cover a small share of it, so the median is the surface even next to a die), on a copy shrunk so
that a die is a few pixels across. A lone pip is kept when the ring of face around it differs from that
surface by clearly more than the surface differs from itself (wood grain, felt, sensor noise): all of it in
perceptual Lab units measured on this frame, so no threshold belongs to one camera or one tray.

A face read faintly is held to the surface's variation near it, too: what grain makes of a wooden table
beside a plain tray, which a frame-wide measure (the tray's, nearly flat) takes for bodies.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.faces import Face, distances
from vision.frames import resize

DIE_PX_SMALL = 4.0  # die side in the shrunken copy: enough to see a body, small enough to be cheap
WINDOW_DICE = 7  # median window, in dice: wide enough that the dice in it are the minority
RING_SAMPLES = 16
_ANGLES = np.linspace(0.0, 2.0 * np.pi, RING_SAMPLES, endpoint=False)
LIGHTNESS_WEIGHT = 0.5  # shading changes lightness more than colour; a body differs in either
BODY_SHORT_SIDE = 160  # the body-size estimate works on a copy this small: dice of a tray are a few pixels
BODY_TEXTURES = 3.0  # a body differs from the surface by this many times the surface's own variation
BODY_FLOOR = 12.0  # ... and by at least this much (Lab units), so a flat synthetic surface is not all body
# A clean card under even light is flatter than a die body ever stands out from it: its texture is taken
# as at least this (Lab units, about what JPEG and sensor noise leave), so a faint stain there is no body.
TEXTURE_FLOOR = 3.0
# The surface's variation near a place is the median over a window this many dice wide: narrow enough that a
# plain tray's flatness does not stand for the wooden table round it (matteop65 from 3x as far: faint twos
# on the table's grain 1.05 to 2.6 times the body bar against the frame's variation, under it against their
# neighbourhood's), wide enough to hold mostly surface. Only faint reads are held to it (`body_contrast`).
NEARBY_DICE = 4
NEARBY_STEPS = 4  # the 8-bit median filter works in quarter Lab units, so up to 63.75: far above any grain
# A die has an edge: across its border the colour steps by at least this share of how far its body differs
# from the surface estimate. Shading that fades in (a vignetted corner, a soft shadow) has no such step.
EDGE_SHARE = 0.3
# ... or, within its blob, its colour climbs from the surface's by at least this share of its contrast per
# pixel of the shrunken copy (where a die is a few pixels wide) along a tenth of the blob and its border:
# nell-byler's dice measured 0.55 or more (5th percentile), a soft shadow half a die wide 0.33 to 0.4, wider
# shading 0.2. (White dice on pale wood climb less, and are told by the step at their border.)
EDGE_GRADIENT = 0.45
STEEP_PERCENTILE = 90
# Dice that touch make one blob. When at least MIN_ALIKE blobs are single dice (compact), their median area
# is a die's, and a blob of more than one and a half times that, up to a heap of twelve, is split into as
# many dice as its area holds (rounded). A lone blob is no measure: a die seen at a slant, its side face and
# its shadow make one blob of twice its top face. (The dice against a tray's wall are looked for with fewer:
# a die's area taken too large there finds fewer notches, never more; `_notches`.)
MIN_ALIKE = 3
SPLIT_AREAS = (1.5, 12.0)
# ... unless the blob is one die seen with its side faces and shadow: up to this many dice's area, with its
# least-area rectangle no longer than this times its width and this much of its convex hull filled. A
# cube's outline is convex and near square from above, while two touching dice make a blob two dice long or
# a waisted one. Of the shared photos' blobs split so far, 74 of the 92 that hold one die are kept whole, and
# 2 of the 213 that hold more (by the truth boxes' centres in their box) pass for one.
ONE_DIE_AREA = 2.5
ONE_DIE_ASPECT = 1.3
ONE_DIE_SOLIDITY = 0.9
# Where the die size is known (`find_bodies`' `die_px`: the pips told it), a blob longer than the side of
# `ONE_DIE_AREA` dice is no single die either. A sixth of the copy alone is many dice in a frame whose dice
# are a small share of it, as a Pi camera high over a tray sees them: there a cable's label or a ferrite bead
# passed for a die, set a die's typical area and was split into die-sized bodies, on which faint false dice
# were read (matteop65 from 3x as far: five_47, four_10, six_33, and valid_70's side face; 372 -> 376 hands,
# as with a bound of 1.3 dice, while 2 dice lost two_49; every other variant of both sets reads each photo
# as before). Pips measure a die at or above its face, so the bound is loose for a die seen whole.
DIE_EXTENT = float(np.sqrt(ONE_DIE_AREA))
HEAP_FILL = 0.3  # a heap of dice fills this much of its box or more; a tray's rim, a thin ring, does not
# A die against a tray's wall notches the floor by this share of its area or more, and this share of its
# side deep or more (partly in the wall's shade, it may be cut short).
NOTCH_AREA = 0.5
NOTCH_DEPTH = 0.5
# The top of a tray's wall is the part of its blob nearer the outside than this share of its distance from
# the floor: the outer third of the wall's width. Nothing read there is a die (`Bodies.on_rim`).
RIM_SHARE = 0.5
KMEANS_SEED = 1  # any fixed seed: what matters is that a frame is split the same way every time
# A die-sized blob the frame's edge cuts touches it all along the cut, as long as the blob's side there or
# longer. One that touches it along less than this share of its shorter side is a whole die a pixel or two
# of the small copy from the edge, whose shadow or blur grazes it (nell-byler 112342: a blue die 8 px from
# the right edge of a 640 px photo, its red pips faint in gray, was read on no body and lost). Larger blobs
# must not touch the edge at all: there the median surface takes in a large blob's own colour, so the part
# the edge cuts fades out of it (a laptop's keyboard running off the frame touched it by a few pixels).
GRAZE_SHARE = 0.5
_SQUARE = np.ones((3, 3), np.uint8)  # a pixel and its eight neighbours
# Bodies alike in size (`witnessed`) needed to read the frame again at their size when the pips tell
# another (`vision.reader`), or to confirm the pips' size (`vision.die_size`): one blob may be a pip of the
# die itself, a speck or a hole in a grille, and at its size a speaker grille reads as rows of dice
# (matteop65 two_7 and three_2 at 1.5 times their resolution, a photo taken with a sharper camera). A white
# die's pips are bodies too (the die itself is as pale as the board): when dice were read at the pips' size,
# the reading at the bodies' size replaces them only with dice read on that many bodies (two_7 at 2 and 2.5
# times).
SIZE_WITNESSES = 2
BODY_CENTRE_SHARE = 0.4  # a face read on a die body lies within this share of the body's side of its centre
# A face read with less confidence than this (pips of little contrast, or a layout that barely fits) must
# stand out from the surface as a body, or show a square outline, as a lone pip must: a tray's grain (wood,
# felt) has darker streaks a die's pips apart, which read as twos at a confidence of 0.07 to 0.27 where the
# dice are a small share of the frame and its thresholds low (matteop65 from 3x as far: 29 false dice, 3
# fewer so, and 2 more hands right), while a die with faint pips is a body of its own: nell-byler reads
# alike (as taken, none of the 99 faint faces of three pips or more its three working sizes read is
# refused; each of its dice read under 0.25, right or wrong, lies within 0.4 of a body's side of the body's
# centre). Where no die read lies on a body, the bodies are clutter, and a face read faintly on one is
# refused too (`vision.body_read`).
FAINT_CONFIDENCE = 0.5


@dataclass(frozen=True)
class Surface:
    """The estimated surface colour around every place, and how much the surface varies by itself."""

    surface_small: np.ndarray  # median-filtered copy: the surface colour at each place
    factor: float  # small pixels per image pixel
    texture: float  # typical Lab distance of the frame from its surface estimate
    nearby_texture: np.ndarray  # the same, in a window `NEARBY_DICE` wide round each place

    def places(self, centers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rows and columns of the small copies that hold each image point (rows of x, y of `centers`)."""
        rows, columns = self.surface_small.shape[:2]
        ys = np.clip((centers[:, 1] * self.factor).astype(np.intp), 0, rows - 1)
        xs = np.clip((centers[:, 0] * self.factor).astype(np.intp), 0, columns - 1)
        return ys, xs


def estimate_surface(image: np.ndarray, die_px: float) -> Surface:
    """Model the surface the dice lie on, from a BGR image in which a die is `die_px` wide."""
    factor = min(1.0, DIE_PX_SMALL / max(die_px, 1.0))
    small = resize(image, factor)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
    surface = cv2.medianBlur(lab, _median_window(WINDOW_DICE, small.shape))
    distance = colour_distance(lab.reshape(-1, 3), surface.reshape(-1, 3)).reshape(lab.shape[:2])
    steps = np.clip(np.rint(distance * NEARBY_STEPS), 0, 255).astype(np.uint8)
    nearby = cv2.medianBlur(steps, _median_window(NEARBY_DICE, small.shape))
    nearby_texture = nearby.astype(np.float32) / NEARBY_STEPS
    return Surface(surface, factor, float(np.median(distance)), nearby_texture)


def _median_window(dice: float, shape: tuple[int, ...]) -> int:
    """An odd median-filter side `dice` dice wide on the shrunken copy of `shape`, no wider than the copy
    (and at least 3, the smallest side `cv2.medianBlur` takes for 8-bit images)."""
    return max(min(int(dice * DIE_PX_SMALL) | 1, (min(shape[:2]) - 1) | 1), 3)


def body_contrast(
    surface: Surface,
    image: np.ndarray,
    center: tuple[float, float],
    radius: float,
    against_nearby: bool = False,
) -> float:
    """How far the face ring at `radius` around `center` stands out from the surface, in units of its texture.

    The ring's median colour is compared with the surface colour at the centre, so a pip whose own colour is
    far from the surface (a speck) does not count: only the face around it does.

    `against_nearby` measures in the larger of the frame's texture and that near the centre: for faint reads,
    which grain yields. Dice read clearly keep the frame's: dice in a heap raise the texture near each other
    (nell-byler 112951: a 1 among dice, 30 against the frame's 5) and a white die on pale wood stands out by
    little (matteop65 dice_26 from afar: a 1 just above the bar against the frame, under it against nearby).
    """
    point = np.array([center], float)
    face = ring_colours(image, point, radius)[0]
    (sy,), (sx,) = surface.places(point)
    distance = float(colour_distance(face[None, :], surface.surface_small[sy, sx][None, :])[0])
    texture = surface.texture
    if against_nearby:
        texture = max(texture, float(surface.nearby_texture[sy, sx]))
    return distance / max(texture, TEXTURE_FLOOR)


def ring_colours(image: np.ndarray, centers: np.ndarray, radius: float) -> np.ndarray:
    """The median CIELAB colour (L, a*, b*) of a ring of `radius` around each centre (rows of x, y) of the
    BGR `image`: the colour of a die's face, clear of the pip or pips the ring goes around."""
    height, width = image.shape[:2]
    xs = np.clip(np.rint(centers[:, :1] + radius * np.cos(_ANGLES)), 0, width - 1).astype(np.intp)
    ys = np.clip(np.rint(centers[:, 1:] + radius * np.sin(_ANGLES)), 0, height - 1).astype(np.intp)
    return np.median(cv2.cvtColor(image[ys, xs], cv2.COLOR_BGR2Lab).astype(np.float32), axis=1)


def colour_distance(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """How far apart the CIELAB colours in the rows of `first` and `second` are, the squared lightness
    difference weighed at `LIGHTNESS_WEIGHT`: shading changes lightness more than colour."""
    delta = first.astype(np.float32) - second.astype(np.float32)
    return np.sqrt(LIGHTNESS_WEIGHT * delta[:, 0] ** 2 + delta[:, 1] ** 2 + delta[:, 2] ** 2)


@dataclass(frozen=True)
class Bodies:
    """Dice-sized blobs that stand out from the surface (heaps of touching dice split into one per die):
    their centres and sides, in image pixels."""

    centers: np.ndarray  # (count, 2) x, y
    size: float  # the typical side: the median of the blobs that are single dice
    sizes: np.ndarray  # (count,) the side of each, from its area
    # The top of a tray's walls (`_rim`) as a mask of the copy bodies are found on, `rim_scale` of its
    # pixels per image pixel; None without a tray
    rim: np.ndarray | None = None
    rim_scale: float = 1.0

    @property
    def count(self) -> int:
        return len(self.centers)

    def on_rim(self, point: tuple[float, float]) -> bool:
        """Whether `point` (image pixels) lies on the top of a tray's wall, where no die rests: a glossy
        rim mirrors the dice beside it, pips and all (nell-byler's black tray: six false dice), while a die
        lies on the floor, against the wall or on its inner side, nearer the floor (`_rim`)."""
        if self.rim is None:
            return False
        x, y = int(point[0] * self.rim_scale), int(point[1] * self.rim_scale)
        height, width = self.rim.shape
        return 0 <= x < width and 0 <= y < height and bool(self.rim[y, x])


def find_bodies(
    image: np.ndarray, short_side: float = BODY_SHORT_SIDE, die_px: float | None = None
) -> Bodies | None:
    """The dice-like bodies in `image`, or None when nothing stands out from the surface.

    A second opinion for the reader: its pip-based estimate can take whole dark dice on a pale board for the
    pips of one huge die, and a count of bodies tells when gray found fewer dice than there are (coloured
    pips). The surface window is a third of the shorter side, so this sees dice up to about a sixth of it:
    the size of dice in a tray, not of a close-up. Dice heaped together are split apart (`MIN_ALIKE`), and
    the dice lying against a tray's wall are told by the notches they cut into its floor (`_notches`), as
    the top of the wall is (`Bodies.rim`). The blobs are found on a copy `short_side` pixels short, where the
    dice of a tray are a few pixels wide; dice a small share of a large frame need a finer one, and there
    `die_px` (a die's side in `image` pixels, when known) keeps blobs many dice long from passing for one
    (`DIE_EXTENT`).
    """
    factor = short_side / min(image.shape[:2])
    small = resize(image, factor)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
    # The surface is smooth: its median is taken on a half-size copy (four times cheaper) and scaled up.
    half = resize(lab, 0.5)
    surface = cv2.resize(cv2.medianBlur(half, int(short_side / 6) | 1), lab.shape[1::-1])
    distance = colour_distance(lab.reshape(-1, 3), surface.reshape(-1, 3)).reshape(lab.shape[:2])
    texture = float(np.median(distance[::2, ::2]))  # a quarter of the pixels tell the median as well
    mask = (distance > max(BODY_TEXTURES * texture, BODY_FLOOR)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _SQUARE)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    fields = (cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT, cv2.CC_STAT_AREA)
    width, height, area = (stats[1:, index] for index in fields)
    longer, shorter = np.maximum(width, height), np.minimum(width, height)
    # A blob cut by the border (the corner of a tray rim, a die half out of view) has no readable die, but a
    # die-sized one may only graze it (`GRAZE_SHARE`).
    contact = _touching_border(labels, count)
    inside = contact == 0
    compact = (
        (contact <= GRAZE_SHARE * shorter)
        & (area >= 9)
        & (area >= 0.5 * width * height)
        & (longer <= 2 * shorter)
        & (longer <= _longest_die(short_side, factor, die_px))
    )
    if count <= 1 or not compact.any():
        return None
    for index in np.flatnonzero(compact):
        compact[index] = _has_edge(lab, surface, distance, labels, int(index) + 1, stats[index + 1])
    if not compact.any():
        return None
    single = compact.copy()
    centers, areas = np.zeros((0, 2)), np.zeros(0)
    rim = np.zeros(mask.shape, bool)
    typical = float(np.median(area[compact]))
    large = area >= SPLIT_AREAS[0] * typical
    heaps = inside & large & (area <= SPLIT_AREAS[1] * typical) & (area >= HEAP_FILL * width * height)
    heaps &= compact.sum() >= MIN_ALIKE
    for index in np.flatnonzero(heaps):
        if compact[index] or _has_edge(lab, surface, distance, labels, int(index) + 1, stats[index + 1]):
            single[index] = False
            heaped, heap_areas = _dice_in(labels == index + 1, float(area[index]), typical)
            centers, areas = np.vstack([centers, heaped]), np.concatenate([areas, heap_areas])
    # A tray whose dice mostly lie against its walls leaves few of them free: one is measure enough there.
    for index in np.flatnonzero(large & ~heaps):
        notched, notch_areas, top = _notches(labels == index + 1, typical)
        centers, areas = np.vstack([centers, notched]), np.concatenate([areas, notch_areas])
        rim |= top
    sides = np.sqrt(area[single]) / factor
    # Half a copy pixel up and left of where the resize put each blob: kept, see docs/design.md (known limit).
    centers = np.vstack([centroids[1:][single], centers]) / factor
    sizes = np.concatenate([sides, np.sqrt(areas) / factor])
    return Bodies(centers, float(np.median(sides)), sizes, rim if rim.any() else None, factor)


def _longest_die(short_side: float, factor: float, die_px: float | None) -> float:
    """The longest a blob may be and still be one die, in pixels of the copy `short_side` pixels short
    (`factor` of the image's): a sixth of the copy (dice of a tray, not a close-up), and with `die_px`
    known, the side of `ONE_DIE_AREA` dice (`DIE_EXTENT`)."""
    if die_px is None:
        return short_side / 6
    return min(short_side / 6, DIE_EXTENT * die_px * factor)


def _touching_border(labels: np.ndarray, count: int) -> np.ndarray:
    """How many pixels of the image's outermost rows and columns each blob of `labels` (1 to `count` - 1,
    0 the background) covers."""
    edge = np.concatenate((labels[0], labels[-1], labels[1:-1, 0], labels[1:-1, -1]))
    return np.bincount(edge, minlength=count)[1:]


def _notches(wall: np.ndarray, typical: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The dice lying against `wall` (a mask: a blob too large or too hollow for a heap of dice), as
    (centres, areas) in mask pixels, `typical` being a die's area there, and the top of the wall (`_rim`,
    a mask; none of it when the wall holds no floor).

    A tray's rim and walls stand out from its floor like the dice do, so the dice against them join their
    blob and none is told apart by its outline. But a tray's floor is convex, also in perspective: within
    the wall, the floor is the largest hole, and the dice cut notches into its outline. What of the wall
    lies within the hole's convex hull and is half a die deep or more is dice (a slightly bent or blurred
    edge, or the shadow or vignette along a wall, leaves shallower slivers): each notch of half a die's
    area or more holds as many dice as its area, split as a heap is.
    """
    mask = wall.astype(np.uint8)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    holes = [contour for contour, links in zip(contours, hierarchy[0], strict=True) if links[3] >= 0]
    outlines = [contour for contour, links in zip(contours, hierarchy[0], strict=True) if links[3] < 0]
    centers, areas = np.zeros((0, 2)), np.zeros(0)
    largest = max(holes, key=cv2.contourArea) if holes else None
    # A floor the dice roll on holds many of them; a smaller hole is a gap in the wall's own pattern.
    if largest is None or cv2.contourArea(largest) < SPLIT_AREAS[1] * typical:
        return centers, areas, np.zeros(wall.shape, bool)
    floor = np.zeros_like(mask)
    cv2.fillPoly(floor, [cv2.convexHull(largest)], 1)
    notches = cv2.morphologyEx(floor & mask, cv2.MORPH_OPEN, _SQUARE)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(notches, connectivity=8)
    # What an opening by that depth leaves: a die's core, not the shallow bulge of a shadow or a vignette.
    # The square is the largest odd one (centred on its pixel) within that depth: rounded up, it asked up to
    # 0.7 of a die deep, and a die half in the wall's shade was lost (nell-byler 113004).
    depth = max(3, 2 * int((NOTCH_DEPTH * np.sqrt(typical) - 1) / 2) + 1)
    deep = np.unique(labels[cv2.morphologyEx(notches, cv2.MORPH_OPEN, np.ones((depth, depth), np.uint8)) > 0])
    for index in deep[deep > 0]:
        _, _, width, height, area = (int(value) for value in stats[index])
        if not (
            NOTCH_AREA * typical <= area <= SPLIT_AREAS[1] * typical and area >= HEAP_FILL * width * height
        ):
            continue
        notched, notch_areas = _dice_in(labels == index, float(area), typical)
        centers, areas = np.vstack([centers, notched]), np.concatenate([areas, notch_areas])
    return centers, areas, _rim(wall, outlines, largest)


def _rim(wall: np.ndarray, outlines: list[np.ndarray], floor: np.ndarray) -> np.ndarray:
    """The top of a tray's wall (a mask), the wall being the blob `wall`, `outlines` its outer contours and
    `floor` the outline of its largest hole: the wall's pixels nearer the outside than `RIM_SHARE` of their
    distance from the floor.

    Seen from above, a tray's wall runs from the floor up its inner side to its top; the dice lie on the
    floor, against the wall or leaning on its inner side, while a reflection in a glossy wall appears on its
    top, beyond them. In a corner, where two inner sides meet, a die lies about halfway from the floor to
    the outside: the outer half would take it (nell-byler: two dice lost), the outer third does not.
    Distances are measured to the floor's outline itself, not its hull: dice along the wall notch the
    floor, and their wall is the part behind them.
    """
    filled = np.zeros(wall.shape, np.uint8)
    cv2.fillPoly(filled, outlines, 1)
    # The frame's edge counts as outside: a tray cut by it has its top there.
    bordered = cv2.copyMakeBorder(filled, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    to_outside = cv2.distanceTransform(bordered, cv2.DIST_L2, 3)[1:-1, 1:-1]
    off_floor = np.ones_like(filled)
    cv2.fillPoly(off_floor, [floor], 0)
    to_floor = cv2.distanceTransform(off_floor, cv2.DIST_L2, 3)
    return wall & (to_outside < RIM_SHARE * to_floor)


def _dice_in(blob: np.ndarray, area: float, typical: float) -> tuple[np.ndarray, np.ndarray]:
    """(centres, areas) of the dice in `blob` (a mask of `area` pixels, `typical` a die's area): one when it
    is shaped as one die (`_one_die`), else as many as its area holds, split as touching dice are (`_split`).

    Split in two, a die is read twice on halves of its body, where each sees part of its face: a two as two
    ones, a pip beside the half as a false die.
    """
    dice = 1 if _one_die(blob, area, typical) else max(1, int(round(area / typical)))
    if dice == 1:
        ys, xs = np.nonzero(blob)
        return np.array([[xs.mean(), ys.mean()]]), np.array([area])
    return _split(blob, dice), np.full(dice, area / dice)


def _one_die(blob: np.ndarray, area: float, typical: float) -> bool:
    """Whether `blob` (a mask of `area` pixels, `typical` a die's area) is one die, its side faces and
    shadow with it: no more than `ONE_DIE_AREA` dice's area, near square (`ONE_DIE_ASPECT`) and convex
    (`ONE_DIE_SOLIDITY`).

    The hull's polygon runs through its border pixels' centres, so it leaves out half a pixel along its
    outline: that is added back before the blob's pixels are compared with it.
    """
    if area > ONE_DIE_AREA * typical:
        return False
    contours, _ = cv2.findContours(blob.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(outline)
    _, (width, height), _ = cv2.minAreaRect(outline)
    filled = area / (cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True))
    return max(width, height) <= ONE_DIE_ASPECT * min(width, height) and filled >= ONE_DIE_SOLIDITY


def _split(blob: np.ndarray, count: int) -> np.ndarray:
    """The centres of `count` dice that touch one another in the mask `blob`: k-means of its pixel positions
    (dice of one set are one size, so each takes an equal share of the blob)."""
    ys, xs = np.nonzero(blob)
    points = np.stack([xs, ys], axis=1).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
    # k-means++ draws its first centres from OpenCV's global random generator, which whatever ran before
    # has moved: seeded here, a frame's heaps split the same way (and in the same order) every time.
    cv2.setRNGSeed(KMEANS_SEED)
    _, _, centers = cv2.kmeans(points, count, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    return centers.astype(np.float64)


def _has_edge(
    lab: np.ndarray,
    surface: np.ndarray,
    distance: np.ndarray,
    labels: np.ndarray,
    label: int,
    box: np.ndarray,
) -> bool:
    """Does blob `label` change sharply at its border, as a die does, rather than fade into the surface?

    The pixels just inside the blob's border are compared with those just outside: across a die's edge they
    differ by most of the die's contrast, across shading (a vignetted corner, a soft shadow) by a little.
    A die's own shadow or the glow of a translucent die may join its blob and fade out, so the blob's border
    lies in the fade; the die's edge is then within the blob, where its distance from the surface
    (`distance`) climbs steeply (`EDGE_GRADIENT`), while shading climbs gently all the way.
    """
    left, top, width, height = (int(value) for value in box[:4])
    x0, y0 = max(0, left - 1), max(0, top - 1)
    x1, y1 = min(lab.shape[1], left + width + 1), min(lab.shape[0], top + height + 1)
    blob = cv2.compare(labels[y0:y1, x0:x1], float(label), cv2.CMP_EQ)
    inner = cv2.subtract(blob, cv2.erode(blob, _SQUARE))
    outer = cv2.subtract(cv2.dilate(blob, _SQUARE), blob)
    patch = lab[y0:y1, x0:x1]
    # Mean colours just inside the border, just outside it, of the blob, and of the surface under it: the
    # border's step and the blob's contrast are the distances of the first two and of the last two.
    under = cv2.mean(surface[y0:y1, x0:x1], blob)[:3]
    means = np.array([*(cv2.mean(patch, band)[:3] for band in (inner, outer, blob)), under], np.float32)
    step, contrast = (float(length) for length in colour_distance(means[0::2], means[1::2]))
    if step >= EDGE_SHARE * contrast:
        return True
    rise = distance[y0:y1, x0:x1]
    slope = gradient(rise)
    steep = float(np.percentile(slope[cv2.dilate(blob, _SQUARE) > 0], STEEP_PERCENTILE))
    return steep >= EDGE_GRADIENT * float(cv2.mean(rise, blob)[0])


def gradient(image: np.ndarray) -> np.ndarray:
    """How steeply the float32 single-channel `image` changes at each pixel, in its units per pixel: the
    length of its Sobel gradient, whose kernels weigh a step of one unit across a pixel as 8."""
    return np.hypot(cv2.Sobel(image, cv2.CV_32F, 1, 0), cv2.Sobel(image, cv2.CV_32F, 0, 1)) / 8.0


def alike_in_size(sizes: np.ndarray, others: np.ndarray | float) -> np.ndarray:
    """Whether each of `sizes` is within half again of its counterpart in `others`, either way: the pips
    of one hand's dice (`vision.die_size`), or the bodies of one set's dice."""
    ratio = sizes / others
    return (ratio < 1.5) & (ratio > 1 / 1.5)


def witnessed(bodies: Bodies | None) -> bool:
    """Whether `SIZE_WITNESSES` dice bodies or more are alike in size to their typical one: enough for their
    size to count. A die and a heap of dice that could not be split, 2.7 times as wide (matteop65 five_47 from
    3x as far), have a typical size between them that measures neither."""
    return bodies is not None and int(alike_in_size(bodies.sizes, bodies.size).sum()) >= SIZE_WITNESSES


def sizes_agree(bodies: Bodies | None, die_px: float, within: float) -> bool:
    """Whether `SIZE_WITNESSES` dice bodies or more measure dice within `within` times `die_px` either way."""
    return witnessed(bodies) and 1 / within < bodies.size / die_px < within


def on_bodies(
    points: np.ndarray, bodies: Bodies, smallest: float = 0.0, largest: float | np.ndarray = np.inf
) -> np.ndarray:
    """Whether each of `points` (n x 2, image pixels) lies within `BODY_CENTRE_SHARE` of a side of the
    centre of one of `bodies` at least `smallest` and at most `largest` (or each point's, n x 1) image
    pixels wide."""
    gaps = distances(points, bodies.centers)
    sized = (bodies.sizes >= smallest) & (bodies.sizes <= largest)
    return ((gaps <= BODY_CENTRE_SHARE * bodies.sizes) & sized).any(axis=1)


def on_body(face: Face, bodies: Bodies | None, scale: float, smallest: float = 0.0) -> bool:
    """Whether `face` (work coordinates, `scale` work pixels per image pixel) lies on one of `bodies` at
    least `smallest` image pixels wide."""
    if bodies is None:
        return False
    return bool(on_bodies(np.array([face.center]) / scale, bodies, smallest)[0])


def dice_on_bodies(faces: list[Face], bodies: Bodies, scale: float) -> int:
    """Faces read with a value that lie on one of `bodies` (`on_body`)."""
    return sum(face.value is not None and on_body(face, bodies, scale) for face in faces)

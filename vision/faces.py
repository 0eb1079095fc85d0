"""Group pip candidates into die faces and check each group against the six canonical pip layouts.

Two pips belong to one face when they are close for their size, alike in size, roundness, polarity and face
colour (a core beside a whole pip may be flatter: its outline is where the cut fell), and the straight line
between them crosses only face (no seam where two dice touch; blobs of the pips' own polarity on the way, such
as the flecks of a marbled die, are face too, but not the longer blob the black-hat makes of the gap between
two dice lying close). A group that does not look like a face (too many pips, a bent row, a spread that does
not fit its pip size) is split at the longest edge of its minimum spanning tree and each part is judged again:
that separates touching dice and drops stray pips from side faces. Two pips one of which is smaller and
flatter than the other are no two: a 1 and the nearest pip of its side face. Likewise a six whose end row is
flatter than its other pips is a four seen at a slant with its side face's two pips just below.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from statistics import median

import numpy as np

from vision.pips import SLANT_ROUNDNESS, Pips
from vision.view import (
    CLEARLY_ROUNDER,
    DOWN,
    along_and_across,
    perspective_way,
    squash_direction,
    towards_camera,
    view_axis,
)

# Pip centres of each face on a unit square (corner pips at 0 and 1, the centre at 0.5): the layout every
# maker uses, so the sorted pairwise distances are a rotation- and scale-free fingerprint of each value.
_LAYOUTS = {
    2: [(0, 0), (1, 1)],
    3: [(0, 0), (0.5, 0.5), (1, 1)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0, 1), (1, 1), (0.5, 0.5)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
}
DIAGONAL_SHARE = 0.5 * np.sqrt(2.0)  # corner-to-corner pip distance as a share of the die side
_SAMPLES_ALONG = np.linspace(0.2, 0.8, 7)
# The gap between two dice lying close may be a few pixels wide, between those samples: it is looked for
# about every pixel and a half (in a link as long as its die is wide).
_SEAM_SAMPLES_ALONG = np.linspace(0.2, 0.8, 25)
SIDE_PIP_SHARE = 0.7  # a face beside another whose pips are this much smaller is its side face, seen aslant
# A die's side face turned to the camera lies straight below its top face, towards the camera
# (`vision.view`): within about 27 degrees of that way (its distance along it at least twice its distance
# across).
BELOW_STEEPNESS = 2.0
# A room is lit from above, so a die's side face is in shade: its face at least this much darker than the top
# face around their pips (`vision.sides` compares CIELAB lightness by the same ratio).
SHADE_RATIO = 1.1
# Pips of one face stand out from it about equally; a side face seen at a slant, or the next die of another
# colour, differs more than this ratio of contrasts.
CONTRAST_RATIO = 2.0
# The face around two pips of one face is about one shade: within this share of their contrast (a glossy
# face's highlight or a marbled die's streak shifts it a little; the next die of another colour, a lot).
# `params["face_shade"]`, where given, allows another share (`reader.BODY_FACE_SHADE`: a die body's gray).
FACE_SHADE_SHARE = 0.35
# Cores of one blob closer than this many pip diameters are one pip a glint cut in two; pips of one face are
# at least about 1.3 diameters apart, and on small dice their blobs touch (a five's pips cut as one blob).
CORE_SEPARATION = 1.2
ROUNDNESS_STEP = 0.15  # pips of one face are foreshortened alike; a side face's pips are flatter than this
# ... but the roundness of a pip a few pixels wide is mostly pixel noise: a pixel or two of error across its
# axes (and JPEG's blur on coloured pips), so the tolerance grows as 1.5 / diameter for small pips.
# `params["roundness_noise_px"]`, where given, replaces it (`vision.body_read`: colour at half resolution).
ROUNDNESS_NOISE_PX = 1.5
# A core's outline is where the second cut fell (`vision.pips`), not the pip's edge: cut out of a pip joined
# to a dark die's pale bevel or a glint, it measures flatter than the whole pips of its face (nell-byler
# 095910: a black die's red two, a whole pip at 0.91 and a core at 0.72, read as a 1). Beside a whole pip,
# which still shows how the face is foreshortened, a core links across this many times the tolerance. Two
# cores keep the tolerance: neither shows the face's shape, and a glyph's strokes cut apart are cores alike.
CORE_ROUNDNESS_SLACK = 2.0
# How small or large a face's pip layout may be against the expected die size. Makers set corner pips from
# a fifth to a third of the side in from the edges, so a two's diagonal spans 0.5 to 0.85 of a standard
# layout; below 0.45, two pips are neighbours on one face (the column of a six), not a face of their own.
MIN_LAYOUT_SHARE = 0.45
MAX_LAYOUT_SHARE = 1.8
# Every pip layout is point-symmetric about its centre, however the camera foreshortens it: a four with a
# pip of a side face beside it can pass the distance fingerprint of a five, but not this.
SYMMETRY_TOLERANCE = 0.15  # largest miss of a pip's mirror image, as a share of the layout's span
OVERLAP = 0.75  # faces closer than this share of the die side are pieces of one die
# Faces of different readings (gray, colour channels) closer than this share of the die side are one die:
# the same pips read in two channels give one centre, and a face read low (a six's column) lies within
# 0.3 of a side of the whole face's centre, while a smaller set's die beside another lies half the frame's
# die size away.
VOTE_OVERLAP = 0.5
# A die's top face lies within 0.4 of a side of its body's centre, and its side face (a slanted camera sees
# one) on the other side of that centre; the next die's face is about a side away.
FOCUS_SHARE = 0.6
# A four seen at a slant is squashed as much as its pips are (both are the same perspective); two rows of a
# six (the third cut off by the frame's edge, or missed) are squashed to half with round pips. The share
# their squashes may differ by: about twice what pixel noise does to the roundness of small pips.
SQUASH_SLACK = 0.25
# A lone pip has no layout to back it, so it must be a clean disc: real pips fill 0.94 or more of their moment
# ellipse, while glyphs and specks that pass the looser test for pips of a layout rarely reach 0.9.
LONE_PIP_FILL = 0.9
# A lone core read as a 1 (on a die body, `lone_cores`) is less sure than a whole pip: in the channels' vote
# on a die, a one another channel read whole wins over it.
CORE_ONE_CONFIDENCE = 0.5
# A face's confidence is how well its pips fit their layout times their contrast (in shares of 40 gray
# levels). Below this, a face one colour channel alone reads with more pips does not outvote a layout that
# gray and another reading read alike (`_winner`); however sure, it does not outvote one that gray and this
# many other readings read alike.
LONE_READING_CONFIDENCE = 0.5
OUTVOTING_BACKERS = 2


def distances(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Every distance from a point of `first` (rows) to a point of `second` (columns); points are (x, y)."""
    return np.hypot(*(first[:, None, :] - second[None, :, :]).transpose(2, 0, 1))


# Index pairs (i < j) of the pip pairs of a face of each count, made once: numpy's triu_indices takes as long
# as the rest of a fingerprint.
_PAIRS = {count: np.triu_indices(count, 1) for count in range(2, 7)}


def _fingerprint(points: np.ndarray) -> np.ndarray:
    gaps = distances(points, points)
    upper = gaps[_PAIRS[len(points)]]
    return np.sort(upper) / upper.max()


_FINGERPRINTS = {value: _fingerprint(np.array(points, float)) for value, points in _LAYOUTS.items()}


@dataclass(frozen=True)
class Face:
    """A group of pips judged to be one die's top face (value set) or a group that could not be read."""

    members: tuple[int, ...]
    value: int | None
    center: tuple[float, float]
    size: float
    angle: float
    confidence: float
    dark: bool = True  # polarity of its pips: dark pips on a lighter face
    pip: float = 0.0  # median diameter of its pips
    roundness: float = 1.0  # median minor / major axis of its pips: below 1 when the camera looks at a slant
    # Every pip of the linked group the face was read from: more than `members` when the group was split
    # (`vision.complete` looks there for a face read low because one of its pips was missed).
    group: tuple[int, ...] = ()
    # The direction (degrees, 0 to 180) its pips are squashed along, the flatter ones counting more: a camera
    # at a slant foreshortens them along the way it looks across the table (`vision.view`). NaN: not known.
    squash_angle: float = float("nan")
    # How far its layout of four pips or more is squashed, as a share of that layout's own squash seen from
    # straight above (NaN for fewer: a line of pips has no width to squash). Pips a few pixels wide measure
    # round or flat by a pixel, a layout by its span. Derived from the pips, so faces compare without it (a
    # NaN is unequal even to itself).
    layout_squash: float = field(default=float("nan"), compare=False)

    @property
    def is_layout(self) -> bool:
        """Read with three pips or more: a layout that spans its die, which no speck, glint or pair of
        stray blobs imitates (ones and twos may be any of those)."""
        return self.value is not None and self.value >= 3


def group_faces(
    pips: Pips,
    gray: np.ndarray,
    die_px: float,
    params: dict[str, float],
    focus: tuple[float, float] | None = None,
    lone_cores: bool = False,
) -> list[Face]:
    """Every top face found among `pips`, readable or not (value None); `die_px` is the expected die side.

    With a `focus` (the centre of one die's body, read in a crop of its own), only faces within
    `FOCUS_SHARE` of a die of it are that die's: a neighbour's face in the crop, a die side away, must not
    pass the die's own face off as a side face or a piece of itself.

    A core (`Pips.core`) alone is no 1 in a frame: a glint's or a letter's stroke cut out of a larger blob
    looks like one. With `lone_cores`, it is: asked on a die body the channel read nothing else on, where the
    body is evidence of a die, and a dark die's light pip is often cut out of the bevel's or a glint's
    highlight. Such a 1 is less sure than a whole pip's (`CORE_ONE_CONFIDENCE`).
    """
    if len(pips) == 0:
        return []
    groups = _connected(len(pips), _links(pips, gray, die_px, params))
    faces: list[Face] = []
    for group in groups:
        faces.extend(
            replace(face, group=tuple(group))
            for face in _judge(np.array(group), pips, die_px, params, lone_cores)
        )
    if focus is not None:
        faces = [face for face in faces if _gap(face.center, focus) <= FOCUS_SHARE * die_px]
    return _merge_overlaps(_drop_side_faces(faces, pips, die_px, focus is None), pips, die_px, params)


def measured_die(faces: list[Face], expected: float) -> float:
    """The die side the read faces of three pips or more measure, where it differs from the `expected` one
    by more than a tenth; else `expected`. Pip size only roughly predicts die size (makers differ), while a
    layout of three or more pips spans its die."""
    measured = [face.size for face in faces if face.is_layout]
    if measured and abs(median(measured) / expected - 1.0) > 0.1:
        return float(median(measured))
    return expected


def _merge_overlaps(faces: list[Face], pips: Pips, die_px: float, params: dict[str, float]) -> list[Face]:
    """Two dice cannot overlap: faces closer than `OVERLAP` die sides are one die read in pieces.

    The columns of a six each look like a three, and a face with a stray pip beside it can be cut into a
    face and a one. The pieces' pips are judged together, a piece with each face it overlaps in turn (the
    higher value first): the spanning tree can cut each pip of a two off on its own beside the six of its
    side face, and the nearer one overlaps both that six and the other pip (matteop65 two_35 3x as far).
    If it forms a face with none, the pieces with more pips (the stronger evidence) stay and it goes.
    """
    readable = sorted((face for face in faces if face.value is not None), key=lambda face: -face.value)
    kept: list[Face] = []
    for face in readable:
        clashes = [other for other in kept if _gap(face.center, other.center) < OVERLAP * die_px]
        if not clashes:
            kept.append(face)
            continue
        for clash in clashes:
            union = _as_face(np.array(sorted(set(face.members) | set(clash.members))), pips, die_px, params)
            if union is not None:
                kept[kept.index(clash)] = union
                break
    return kept + [face for face in faces if face.value is None]


def _gap(first: tuple[float, float], second: tuple[float, float]) -> float:
    return float(np.hypot(first[0] - second[0], first[1] - second[1]))


def _drop_side_faces(faces: list[Face], pips: Pips, die_px: float, whole_frame: bool) -> list[Face]:
    """Of two faces closer than one die side, keep the one whose pips are clearly rounder or larger.

    A camera that looks down at an angle sees the top face least foreshortened, so side faces of the same die
    show flatter, smaller pips; two separate dice touching each other have alike pips and both stay.

    Seen from lower than 45 degrees (the far dice of a webcam looking across a table), the side face turned to
    the camera is seen more face-on than the top face, and its pips are the rounder, though squashed
    themselves (`SLANT_ROUNDNESS`). It is in shade (`SHADE_RATIO`: rooms are lit from above), which tells it
    whichever way the camera is turned. Lit alike, it is the one straight below the top face, towards the
    camera: a side face beyond its top face is seen only from nearly straight above, where the top face's pips
    are round. In a whole frame, the pips' squash and the side faces in shade, or perspective on the top
    faces, tell which way the camera lies (`vision.view`: a camera turned on its mount); in a die body's
    crop (`whole_frame` False), whose few faces tell no way, it is down the frame. So of a flatter face and a
    face of squashed pips darker than it, or lit alike and straight below it, that face is the side face,
    unless the flatter one is the side face of yet another face. It needs two pips or more: one pip's
    roundness is one blob's (the pip of a side face read alone). A layout of four pips or more clearly more
    squashed than the other face's (`Face.layout_squash`) counts as squashed pips do: pips a few pixels wide
    measure round or flat by a pixel, a layout by its span (matteop65 four_48 as a Pi still: the five of a
    side face in shade below its four had pips rounder than the four's, but its layout 0.52 as high as wide,
    the four's 0.84). A top face seen at a slant is squashed too (five_13 turned upside down: 0.78), so a
    layout is only weighed against another.
    """
    if len(faces) < 2:
        return faces
    centers = np.array([face.center for face in faces])
    # The mean of its pips' roundness, not the median a Face keeps: one flat pip (a glint's, a foreshortened
    # corner's) counts here. With the median, fewer side faces go (matteop65 380 -> 373 hands).
    roundness = np.array([pips.roundness[list(face.members)].mean() for face in faces])
    distance = distances(centers, centers)
    size = np.array([median(pips.diameter[list(face.members)]) for face in faces])
    flatter, smaller = _side_cues(roundness, size)
    side_of = (distance < 1.1 * die_px) & (flatter | smaller)  # [i, j]: face i is face j's side face
    value = np.array([face.value or 0 for face in faces])
    level = np.array([median(pips.face[list(face.members)]) for face in faces])
    shaded = level[:, None] > SHADE_RATIO * level[None, :]  # [i, j]: face j in shade beside face i
    lit_alike = ~shaded & ~shaded.T
    right = centers[None, :, 0] - centers[:, None, 0]
    down = centers[None, :, 1] - centers[:, None, 1]
    axis = view_axis([face for face in faces if face.value is not None]) if whole_frame else None
    if axis is None:
        way = DOWN
    else:
        # Perspective is judged on top faces alone: side faces lie towards the camera, flatter than their own.
        tops = [at for at, face in enumerate(faces) if face.value is not None and not side_of[at].any()]
        nearer = perspective_way(axis, [faces[at] for at in tops], centers[tops], die_px)
        way = towards_camera(axis, right, down, shaded & (distance < 1.1 * die_px), nearer)
    # [i, j]: how far face j lies below face i, towards the camera, and across that way
    dy, dx = along_and_across(way, right, down)
    layout = np.array([face.layout_squash for face in faces])  # NaN (never flatter) under four pips
    seen_low = (
        (shaded | (lit_alike & (dy > BELOW_STEEPNESS * dx)))
        & (value[:, None] > 0)
        & (value[None, :] >= 2)
        & ((roundness[None, :] < SLANT_ROUNDNESS) | _flatter(layout).T)  # .T: [i, j] j's layout flatter
    )
    side_elsewhere = (side_of & ~seen_low).any(axis=1)
    turned = side_of & seen_low & ~side_elsewhere[:, None]
    beaten = ((side_of & ~seen_low) | turned.T).any(axis=1)
    return [face for face, side in zip(faces, beaten, strict=True) if not side]


def layout_squash(points: np.ndarray) -> float:
    """How far the layout of these four pips or more (`Face.layout_squash`) is squashed, as a share of the
    layout's own squash; NaN for fewer."""
    if not 4 <= len(points) <= 6:
        return float("nan")
    return _squash(points) / _LAYOUT_SQUASH[len(points)]


def _links(pips: Pips, gray: np.ndarray, die_px: float, params: dict[str, float]) -> np.ndarray:
    """Pairs (i, j) of pips that may sit on the same face."""
    dx = pips.x[:, None] - pips.x[None, :]
    dy = pips.y[:, None] - pips.y[None, :]
    distance = np.hypot(dx, dy)
    size_ratio = np.maximum(pips.diameter[:, None], pips.diameter[None, :]) / np.minimum(
        pips.diameter[:, None], pips.diameter[None, :]
    )
    contrast = np.maximum(pips.contrast[:, None], pips.contrast[None, :])
    smaller = np.minimum(pips.diameter[:, None], pips.diameter[None, :])
    larger = np.maximum(pips.diameter[:, None], pips.diameter[None, :])
    core_beside_whole = pips.core[:, None] != pips.core[None, :]
    roundness_tolerance = np.where(core_beside_whole, CORE_ROUNDNESS_SLACK, 1.0) * np.maximum(
        ROUNDNESS_STEP, params.get("roundness_noise_px", ROUNDNESS_NOISE_PX) / np.maximum(smaller, 1.0)
    )
    shade = params.get("face_shade", FACE_SHADE_SHARE)
    candidate = (
        (distance <= params["link_distance"] * die_px)
        & (pips.dark[:, None] == pips.dark[None, :])
        & (size_ratio <= params["size_ratio"])
        & (np.abs(pips.face[:, None] - pips.face[None, :]) <= shade * contrast)
        & (np.abs(pips.roundness[:, None] - pips.roundness[None, :]) <= roundness_tolerance)
        # Two cores of one blob close together are one pip and its glint; further apart, touching pips.
        & ((pips.parent[:, None] != pips.parent[None, :]) | (distance >= CORE_SEPARATION * larger))
        & (contrast <= CONTRAST_RATIO * np.minimum(pips.contrast[:, None], pips.contrast[None, :]))
    )
    first, second = np.nonzero(np.triu(candidate, 1))
    if first.size == 0:
        return np.zeros((0, 2), np.intp)
    t = _SAMPLES_ALONG[None, :]
    xs, ys = _along(pips, first, second, t)
    labels = pips.labels[ys, xs]
    # Blobs of the pips' polarity on the way (other pips, the speckles of a marbled die) are not a seam.
    on_blob = _of_their_polarity(pips, first, labels)
    values = gray[ys, xs].astype(np.float64)
    face = (pips.face[first] + pips.face[second])[:, None] / 2
    half = (pips.contrast[first] + pips.contrast[second])[:, None] / 3
    sign = np.where(pips.dark[first], 1.0, -1.0)[:, None]
    length = np.maximum(distance[first, second], 1e-6)[:, None]
    clear_of_pips = (t * length > 0.75 * pips.diameter[first, None]) & (
        (1 - t) * length > 0.75 * pips.diameter[second, None]
    )
    face_like = on_blob | (sign * (values - face) >= -half)
    clear = (face_like | ~clear_of_pips).all(axis=1) & ~_across_seam(pips, first, second)
    return np.stack([first[clear], second[clear]], axis=1)


def _along(pips: Pips, first: np.ndarray, second: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, ...]:
    """The pixels (xs, ys) at shares `t` (a row) of the way from each pip of `first` to its `second`."""
    xs = np.rint(pips.x[first, None] + t * (pips.x[second, None] - pips.x[first, None])).astype(np.intp)
    ys = np.rint(pips.y[first, None] + t * (pips.y[second, None] - pips.y[first, None])).astype(np.intp)
    return xs, ys


def _of_their_polarity(pips: Pips, first: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Which `labels` (a row per pip of `first`) are blobs of that pip's polarity: > 0 dark, < 0 light."""
    return np.where(pips.dark[first, None], labels > 0, labels < 0)


def _across_seam(pips: Pips, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Whether the way from each pip of `first` to its `second` crosses the gap between two dice lying close:
    the black-hat fills it as it fills a pip, but it is longer than any fleck of a face (`Pips.seams`, of
    the pips' polarity). A long blob pips were cut out of is face, though (a marbled face the black-hat
    merged with its pips)."""
    xs, ys = _along(pips, first, second, _SEAM_SAMPLES_ALONG[None, :])
    labels = pips.labels[ys, xs]
    # Most of the way is face (no blob): only the samples on a blob of the pips' polarity are looked up.
    on_blob = _of_their_polarity(pips, first, labels)
    blobs = labels[on_blob][:, None]  # few, against few seams: cheaper compared outright than by np.isin
    seam = np.zeros(labels.shape, bool)
    seam[on_blob] = (blobs == pips.seams).any(axis=1) & ~(blobs == pips.parent).any(axis=1)
    return seam.any(axis=1)


def _connected(count: int, links: np.ndarray) -> list[list[int]]:
    parent = list(range(count))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in links.tolist():
        parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for i in range(count):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _judge(
    members: np.ndarray, pips: Pips, die_px: float, params: dict[str, float], lone_cores: bool = False
) -> list[Face]:
    """Read a group as one face, or split it at its longest tree edge and judge the parts."""
    if _squashed_like_its_smears(members, pips, die_px, params):
        unsmeared = members[pips.roundness[members] >= params["pip_roundness"]]
        return _judge(unsmeared, pips, die_px, params, lone_cores) if unsmeared.size else []
    face = _as_face(members, pips, die_px, params, lone_cores)
    if face is not None:
        return [face]
    if members.size == 1:
        return []
    left, right = _split(members, pips)
    parts = _judge(left, pips, die_px, params, lone_cores) + _judge(right, pips, die_px, params, lone_cores)
    if any(part.value is not None for part in parts):
        return parts
    return [_unreadable(members, pips, die_px)]


def _squashed_like_its_smears(
    members: np.ndarray, pips: Pips, die_px: float, params: dict[str, float]
) -> bool:
    """Whether a layout of four pips or more, some of them smears (flatter than `pip_roundness`: see
    `vision.pips.SMEAR_ROUNDNESS`), is squashed as much as its pips, within `SQUASH_SLACK`: a side face seen
    low, not a moving die, whose blur stretches its pips but not the places they lie at (matteop65 dice_20:
    a five below a one, its pips 0.50 to 0.55 round and its layout 0.53). Such a group is judged without its
    smears."""
    roundness = pips.roundness[members]
    if not 4 <= members.size <= 6 or not (roundness < params["pip_roundness"]).any():
        return False
    points = np.stack([pips.x[members], pips.y[members]], axis=1)
    if _layout_misfit(points, die_px, params) is None:
        return False
    return _squash(points) / _LAYOUT_SQUASH[members.size] < float(median(roundness)) + SQUASH_SLACK


def _as_face(
    members: np.ndarray, pips: Pips, die_px: float, params: dict[str, float], lone_cores: bool = False
) -> Face | None:
    count = members.size
    if count > 6:
        return None
    if count == 1:
        lone = members[0]
        if (
            pips.spread[lone] > params["face_spread"]
            or pips.fill[lone] < LONE_PIP_FILL
            or (pips.core[lone] and not lone_cores)
            or pips.roundness[lone] < params["pip_roundness"]  # a smear (`vision.pips.SMEAR_ROUNDNESS`)
        ):
            return None
        center = (float(pips.x[lone]), float(pips.y[lone]))
        confidence = 1.0 - 0.5 * float(pips.spread[lone]) / params["face_spread"]
        if pips.core[lone]:
            confidence *= CORE_ONE_CONFIDENCE
        dark, pip, roundness = bool(pips.dark[lone]), float(pips.diameter[lone]), float(pips.roundness[lone])
        one, squash = tuple(members.tolist()), _squash_angle(pips, members)
        return Face(one, 1, center, die_px, 0.0, confidence, dark, pip, roundness, squash_angle=squash)
    if count == 2 and _side_pip_beside(members, pips):
        return None
    points = np.stack([pips.x[members], pips.y[members]], axis=1)
    error = _layout_misfit(points, die_px, params)
    if error is None:
        return None
    if count == 6:
        row = side_end_row(points, pips.roundness[members], pips.diameter[members])
        if row is not None:
            return _as_face(np.delete(members, row), pips, die_px, params)
    if count == 4 and _squash(points) < float(median(pips.roundness[members])) - SQUASH_SLACK:
        return None
    contrast = float(pips.contrast[members].min())
    lengths = distances(points, points)
    i, j = np.unravel_index(np.argmax(lengths), lengths.shape)
    die_from_layout = float(lengths[i, j]) / DIAGONAL_SHARE
    dx, dy = points[j] - points[i]
    angle = float((np.degrees(np.arctan2(dy, dx)) - 45.0) % 90.0)
    center = points.mean(axis=0)
    confidence = (1.0 - 0.5 * error / params["layout_tolerance"]) * min(1.0, contrast / (40.0 + 1e-9))
    return Face(
        tuple(members.tolist()),
        count,
        (float(center[0]), float(center[1])),
        die_from_layout,
        angle,
        float(np.clip(confidence, 0.0, 1.0)),
        bool(pips.dark[members[0]]),
        float(median(pips.diameter[members])),
        float(median(pips.roundness[members])),
        squash_angle=_squash_angle(pips, members),
        layout_squash=layout_squash(points),
    )


def _squash_angle(pips: Pips, members: np.ndarray) -> float:
    """The direction (degrees, 0 to 180) these pips are squashed along: across their long axes, each weighed
    by how flat it is (`Face.squash_angle`). Directions are axes, so they are averaged doubled."""
    return squash_direction(pips.angle[members] + 90.0, 1.0 - pips.roundness[members])


def side_end_row(
    points: np.ndarray, roundness: np.ndarray, diameter: np.ndarray | None = None
) -> np.ndarray | None:
    """The end row of a six's layout whose two pips are clearly flatter than the other four (`_flatter`, as
    `_side_cues` tells a side face from its top face) or, given their `diameter`, smaller (the row's median
    under `SIDE_PIP_SHARE` of the rest's), as indices into `points`, or None. A place no pip was found at
    (`vision.complete` looks there) has roundness NaN: the row's found pips must be flatter than the other
    found ones, and only they are returned.

    A four seen at a slant with the two pips of its side face just below is a grid of two by three, as a six
    is; but a six's pips lie on one face and are printed and foreshortened alike, while the side face's are
    flatter or smaller: nell-byler 112911 and 113012, fours read as sixes with their side faces' two pips,
    0.55 to 0.68 as wide as the four's and as round. Medians, as one small pip is pixel noise.
    """
    centre = points.mean(axis=0)
    # (numpy's set routines cost tens of microseconds on a handful of indices: sorts and masks do here.)
    nearest = np.argsort(np.hypot(*(points - centre).T))
    middles, corners = nearest[:2], np.sort(nearest[2:])
    column = np.argmin(distances(points[corners], points[middles]), axis=1)
    first, second = corners[column == 0], corners[column == 1]
    if first.size != 2 or second.size != 2:
        return None
    straight = distances(points[first], points[second]).trace()
    crossed = distances(points[first], points[second[::-1]]).trace()
    partners = second if straight <= crossed else second[::-1]
    flatter = _flatter(roundness)
    found = ~np.isnan(roundness)
    for pair in (np.array([first[0], partners[0]]), np.array([first[1], partners[1]])):
        row = np.sort(pair[found[pair]])
        rest = found.copy()
        rest[row] = False
        if row.size and flatter[np.ix_(row, np.flatnonzero(rest))].all():
            return row
        if (
            diameter is not None
            and row.size == 2
            and clearly_smaller(float(np.median(diameter[row])), float(np.median(diameter[rest])))
        ):
            return row
    return None


def clearly_smaller(size: float | np.ndarray, other: float | np.ndarray) -> bool | np.ndarray:
    """Whether pips `size` wide are clearly smaller than pips `other` wide (under `SIDE_PIP_SHARE` of
    them), as a side face's pips are than its top face's: numbers, or arrays elementwise."""
    return size < SIDE_PIP_SHARE * other


def _side_cues(roundness: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """([i, j]: i's pips clearly flatter than j's, [i, j]: clearly smaller), for faces or single pips of this
    roundness and size: how a side face seen aslant differs from its top face."""
    smaller = clearly_smaller(size[:, None], size[None, :])
    return _flatter(roundness), smaller


def _flatter(roundness: np.ndarray) -> np.ndarray:
    """[i, j]: i's pips clearly flatter than j's (by `CLEARLY_ROUNDER`, half a `ROUNDNESS_STEP`: more than
    pixel noise)."""
    return roundness[:, None] < roundness[None, :] - CLEARLY_ROUNDER


def _side_pip_beside(members: np.ndarray, pips: Pips) -> bool:
    """Whether one of two pips is both smaller and flatter than the other (`_side_cues`, as
    `_drop_side_faces` tells a side face from its top face): a 1 and the nearest pip of the side face below
    it lie a two's diagonal apart (matteop65 valid_67, nell's ones read as twos), while a two's pips are
    foreshortened and sized alike but for pixel noise, which makes one of them smaller or flatter, seldom
    both."""
    flatter, smaller = _side_cues(pips.roundness[members], pips.diameter[members])
    return bool((flatter & smaller).any())


def fits_layout(points: np.ndarray, die_px: float, params: dict[str, float]) -> bool:
    """Do these pip centres (2 to 6) form the layout of their count, on a die about `die_px` wide?

    Their distances must fit the canonical ones, their span the die's size, and they must be point-symmetric.
    """
    return _layout_misfit(points, die_px, params) is not None


def _layout_misfit(points: np.ndarray, die_px: float, params: dict[str, float]) -> float | None:
    """How far the pips' distance fingerprint is from their count's layout, or None when they fit no layout
    (see `fits_layout`); the misfit sets a face's confidence."""
    count = len(points)
    error = float(np.abs(_fingerprint(points) - _FINGERPRINTS[count]).mean())
    span = distances(points, points).max()
    agreement = span / DIAGONAL_SHARE / die_px
    if error > params["layout_tolerance"] or not MIN_LAYOUT_SHARE <= agreement <= MAX_LAYOUT_SHARE:
        return None
    if count >= 3 and _asymmetry(points) > SYMMETRY_TOLERANCE:
        return None
    return error


def _squash(points: np.ndarray) -> float:
    """How far the pips' layout is squashed: its narrowest spread over its widest (1 for a square)."""
    spread = np.linalg.eigvalsh(np.cov(points.T))
    return float(np.sqrt(max(spread[0], 0.0) / spread[1]))


# Each layout of four pips or more squashed as seen from straight above (1.0 but for a six's rectangle, 0.82).
_LAYOUT_SQUASH = {value: _squash(np.array(points, float)) for value, points in _LAYOUTS.items() if value >= 4}


def _asymmetry(points: np.ndarray) -> float:
    """How far the pips are from point symmetry about their centroid, as a share of their span."""
    center = points.mean(axis=0)
    mirrored = 2 * center - points
    gaps = distances(mirrored, points)
    span = distances(points, points).max()
    return float(gaps.min(axis=1).max() / span)


def _split(members: np.ndarray, pips: Pips) -> tuple[np.ndarray, np.ndarray]:
    """Cut the longest edge of the group's Euclidean minimum spanning tree (Prim's algorithm)."""
    points = np.stack([pips.x[members], pips.y[members]], axis=1)
    lengths = distances(points, points)
    count = members.size
    in_tree = np.zeros(count, bool)
    in_tree[0] = True
    best = lengths[0].copy()
    parent = np.zeros(count, np.intp)
    edges = []
    for _ in range(count - 1):
        candidates = np.where(in_tree, np.inf, best)
        nxt = int(np.argmin(candidates))
        edges.append((float(best[nxt]), int(parent[nxt]), nxt))
        in_tree[nxt] = True
        closer = lengths[nxt] < best
        best = np.where(closer, lengths[nxt], best)
        parent = np.where(closer, nxt, parent)
    cut = max(edges)
    adjacency: dict[int, list[int]] = {i: [] for i in range(count)}
    for _, a, b in edges:
        if (a, b) != (cut[1], cut[2]):
            adjacency[a].append(b)
            adjacency[b].append(a)
    side = {cut[1]}
    stack = [cut[1]]
    while stack:
        for neighbour in adjacency[stack.pop()]:
            if neighbour not in side:
                side.add(neighbour)
                stack.append(neighbour)
    left = np.array(sorted(side))
    right = np.array(sorted(set(range(count)) - side))
    return members[left], members[right]


def _unreadable(members: np.ndarray, pips: Pips, die_px: float) -> Face:
    points = np.stack([pips.x[members], pips.y[members]], axis=1)
    center = points.mean(axis=0)
    center_xy = (float(center[0]), float(center[1]))
    return Face(tuple(members.tolist()), None, center_xy, die_px, 0.0, 0.0, bool(pips.dark[members[0]]))


def vote(readings: list[list[Face]], die_px: float) -> list[Face]:
    """One face per die from several readings of the same frame (the gray image first, then colour channels).

    Red pips on a blue die are plain in the red channel and faint in gray, so each channel may see a die
    the others miss or misread. A face joins the nearest die an earlier reading found within `VOTE_OVERLAP`
    die sides (faces of one reading are distinct dice: it merged its own overlaps), and the reading with the
    most pips wins (the more confident on a tie): a channel loses pips that are faint in it far more often
    than it makes up a whole pip layout, so a two in one channel and a five in another is a five whose faint
    pips one channel missed. A two is no layout, though, and a faint face one channel alone reads does not
    outvote a layout two readings agree on (`_winner`). Unreadable regions come from the first reading alone,
    and only where no channel read a die.
    """
    gray = {id(face) for face in readings[0]}  # the first reading is gray's
    dice: list[list[Face]] = []
    for faces in readings:
        seen = len(dice)  # a reading's own faces are distinct dice: it already merged what overlaps
        for face in faces:
            if face.value is None:
                continue
            gaps = [_gap(face.center, die[0].center) for die in dice[:seen]]
            nearest = int(np.argmin(gaps)) if gaps else -1
            if nearest < 0 or gaps[nearest] >= VOTE_OVERLAP * die_px:
                dice.append([face])
            else:
                dice[nearest].append(face)
    chosen = [_winner(die, id(die[0]) in gray) for die in dice]
    unread = [face for face in readings[0] if face.value is None]
    return chosen + [
        face for face in unread if all(_gap(face.center, die.center) >= OVERLAP * die_px for die in chosen)
    ]


def _winner(die: list[Face], first_in_gray: bool) -> Face:
    """The face of `die` (its faces in reading order) with most pips, the more confident on a tie.

    But a two that one colour channel alone read does not outvote a one that gray (`first_in_gray`) and
    another channel read. In the channel of a die's own colour its light pips are faint (white pips on a
    red die, in red), and a side face's pip or a glint seen as faint beside the one makes a two (nell-byler
    112256: gray, green and blue read a one, red a two). A two gray reads still wins, and so does one that
    only gray contradicts: that may be a pip too faint in gray, as red pips on a blue die are. And the ones
    must be one pip: two ones a pip or more apart are the two pips of the two, each faint in one channel.

    Nor does a two outvote a one that two readings put at its middle, where a two's face is blank, when its
    pips are clearly smaller than the one's (`_flanked_by`): a smoky die's white swirl rings its red 1, and
    in lightness two specks of the ring either side of the pip make a two (nell-byler 112536 turned 90:
    pips of 3.2 px against the 1's 6.3 and 7.4 in a* and b*).

    Nor does a face one colour channel alone reads outvote a layout that gray and another reading read
    alike when it is less sure than `LONE_READING_CONFIDENCE`, or one that gray and two others read alike
    however sure it is (`_outvoted_alone`).
    """
    best = max(die, key=lambda face: (face.value, face.confidence))
    if _outvoted_alone(best, die, first_in_gray):
        return die[0]
    ones = [face for face in die if face.value == 1 and _gap(face.center, die[0].center) <= die[0].pip]
    twos = sum(face.value == 2 for face in die)
    if best.value == 2 and twos == 1 and first_in_gray and die[0].value == 1 and len(ones) >= 2:
        return max(ones, key=lambda face: face.confidence)
    if best.value == 2:
        flanked = [face for face in die if face.value == 1 and _flanked_by(best, face)]
        if len(flanked) >= 2:
            return max(flanked, key=lambda face: face.confidence)
    return best


def _flanked_by(two: Face, one: Face) -> bool:
    """Whether `two` is the specks either side of `one`'s pip: `one` lies at its middle, where a two's
    face is blank, and its pips are clearly smaller than the one's."""
    return _gap(two.center, one.center) <= one.pip / 2 and clearly_smaller(two.pip, one.pip)


def _outvoted_alone(best: Face, die: list[Face], first_in_gray: bool) -> bool:
    """Whether `best`, the face of `die` with most pips, is one colour channel's reading alone against a
    layout that gray (`first_in_gray`: `die[0]`) and another reading read alike, and faint, or against one
    that `OUTVOTING_BACKERS` other readings back too.

    A marbled die's swirls stand out in one opponent colour as blobs, and with its pips they pass for a six
    that fits its layout poorly (nell-byler 112404 and 113012 turned 90: gray and red read a four with
    confidence 0.99, b* a six with 0.24). Both readings of the four would have had to lose the same two
    pips. A sure reading still wins (red pips on a blue die are plain in red and a*), and so does one
    against a one or a two: a faint pip of those, gray and another channel may both lose.

    But not against three readings: a translucent red die's lit middle is a light blob in red alone, the
    core of a five's centre pip beside a four's white pips there (nell-byler 111548: gray, a* and b* read
    the four, red a five with confidence 0.92), and a gold die's two flatter side-face pips join its four
    as a six in b* alone, where a pip's roundness is blurred (111246: gray and two more read the four).
    Red pips on a blue die that gray misses are seen in more than one colour.
    """
    gray = die[0]
    if not first_in_gray or not gray.is_layout or best.value <= gray.value:
        return False
    backers = sum(face.value == gray.value for face in die[1:])
    alone = sum(face.value == best.value for face in die) == 1
    faint = best.confidence < LONE_READING_CONFIDENCE
    return alone and backers >= 1 and (faint or backers >= OUTVOTING_BACKERS)

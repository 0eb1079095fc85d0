"""Complete faces whose pips were only partly found: a two may be half of a four, a four most of a six.

Pip detection is strict, so a faint or glinting pip is sometimes lost and the face reads low (a five as the
two on one diagonal, a six as a four or as one column of three). The pips that were found fix where the others
would be: the rest of the 3x3 grid of pip places follows from the found corners. Each missing place is looked
at in the image itself: it shows a pip when its centre is as far from the face's level, towards the pips'
level, as `EVIDENCE_SHARE` of the found pips are, while the ring around it is face (a pip, not the edge of a
dark region), or while it is as far from the face as the found pips and stands out from its ring: the pips of
a small die may run together (JPEG keeps colour at half resolution, and a smoky die's red five is a cross
whose arms cross most of its centre's ring), while the edge of a dark region is as deep round much of its ring
as at its centre. A face grows only to a layout whose every missing place shows a pip, so blank face (where a
two has no other pips) keeps it a two. A face split from a larger linked group (a six missing a pip reads as
one column) is also judged together with the group's leftover pips, and a group completed to a four is looked
at for a six like any four. A column of three is a six when its other column shows a column's length aside, or
nearer, where a pip found level with one of its pips tells the other column's place (makers differ: some
space a six's columns closer than its rows). Four point-symmetric pips that are no four may be a six that
lost two opposite corners (a small die's corner pips merge with its side face's). No six is made whose end
row's pips, found or found at the places looked at, are clearly flatter or smaller than the rest
(`vision.faces.side_end_row`): a four seen at a slant links to a pip of its side face below it, and that
face's other pip sits where the six's last would. A six's middle pips lie between two corners, where blur
along the columns darkens a four's face too, so they must also have been found as pips (stretched ones are not
linked); so must a three's middle pip, between the two pips of a two (a glint on a translucent die stretches
it, and a smear or the glint itself darkens a two's centre), or at least as a blob stretched along the same
line as the two's (`_smeared_alike`): a die moving as the photo is taken smears each pip into a bar, the
middle one too stretched to pass for a pip. A two may also be a three's middle and end pip, its other end
joined to a glint or a dark die's pale bevel: a pip found beyond either of its pips, as far as they lie apart,
makes it that three, twice its size (`_three_beyond`). A place on a pip of another face read shows that die's
pip, not this face's: dice lying close together lend none.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from statistics import median

import cv2
import numpy as np

from vision.faces import (
    DIAGONAL_SHARE,
    Face,
    distances,
    fits_layout,
    group_faces,
    layout_squash,
    measured_die,
    side_end_row,
)
from vision.pips import BLUR_ANGLE, SLANT_ROUNDNESS, Pips

EVIDENCE_SHARE = 0.6  # a missing place must stand out by this share of the found pips' contrast
SPOT_SHARE = 0.2  # the centre is looked at within this share of a pip diameter
RING_SHARE = 0.9  # the ring around a place, in pip diameters: face, unless the place is on a dark region
RING_FACE_SHARE = 0.3  # the ring is face when no deeper than this share of the found pips' contrast
RING_SAMPLES = 12
MIRROR_SHARE = 0.5  # a pip's mirror image lands on a found pip when within this share of a pip diameter
# A face with a pip found by looking is less sure than one whose pips all stood out.
COMPLETED_CONFIDENCE = 0.5
RAISABLE = (2, 3, 4)  # the values a face read low shows: a five or six may have been read as one of them
_ANGLES = np.linspace(0.0, 2.0 * np.pi, RING_SAMPLES, endpoint=False)
_COS, _SIN = np.cos(_ANGLES), np.sin(_ANGLES)  # made once: every look at a place walks this ring


def complete_faces(faces: list[Face], pips: Pips, image: np.ndarray, params: dict[str, float]) -> list[Face]:
    """`faces` with each low reading raised to the larger layout its image shows, if any, and each group
    that is a layout but for one pip read when its image shows that pip."""
    read = {member for face in faces if face.value is not None for member in face.members}
    return [
        _complete_group(face, pips, image, params, read)
        if face.value is None
        else _complete_split(face, pips, image, params, read)
        for face in faces
    ]


def _complete_split(
    face: Face, pips: Pips, image: np.ndarray, params: dict[str, float], read: set[int]
) -> Face:
    """A read face raised by `_complete`, or else by the pips its linked group lost when it was split.

    A six with one pip missed is no layout, so its group splits and one column reads as a three, while
    the other column's two pips are left over. Those pips, with the face's, are a layout but for one pip
    (`_complete_group`); the face grows when the image shows that pip. `read` holds the pips of every
    face read, which are no one's leftovers.
    """
    grown = _complete(face, pips, image, read)
    if grown.value != face.value:
        return grown
    left = tuple(member for member in face.group if member not in read)
    if not left:
        return face
    union = replace(face, members=face.members + left, value=None)
    grown = _complete_group(union, pips, image, params, read)
    return grown if grown.value is not None and grown.value > face.value else face


def _complete_group(
    face: Face, pips: Pips, image: np.ndarray, params: dict[str, float], read: set[int]
) -> Face:
    """An unreadable group that is a layout but for one pip (a five with a corner joined to a glint), or a
    six but for two opposite corners (`_six_corners`).

    Every layout is point-symmetric, so the missing pip is the mirror of the one pip that has no partner,
    about the layout's centre: one of the pips (a five) or the middle between two (a four, a six). Four
    pips that all have partners are no four (the group would have read), but may be a small die's six whose
    two corners merged with its side face's pips and were cut away.
    """
    members = np.array(face.members)
    if not 3 <= members.size <= 5:
        return face
    points = np.stack([pips.x[members], pips.y[members]], axis=1)
    centres = [*points, *((points[a] + points[b]) / 2 for a in range(len(points)) for b in range(a))]
    look = _looker(image, pips, members, read)
    for centre in centres:
        mirrors = 2 * centre - points
        gaps = distances(mirrors, points).min(axis=1)
        unpaired = gaps > MIRROR_SHARE * look.diameter
        if unpaired.sum() == 0 and len(points) == 4:
            missing = _six_corners(points, centre)
        elif unpaired.sum() == 1:
            missing = mirrors[unpaired]
        else:
            continue
        full = np.vstack([points, missing])
        if len(full) == 6 and _side_face_in(full, face.members, pips, look.diameter):
            continue
        if fits_layout(full, face.size, params) and all(look.pip(place) for place in missing):
            completed = replace(_laid_out(face, full), confidence=COMPLETED_CONFIDENCE, pip=look.diameter)
            # A four so completed may still be a six whose middle pips blurred into its corners'.
            return _raise(completed, full, look, pips)
    return face


def _side_face_in(full: np.ndarray, members: tuple[int, ...], pips: Pips, diameter: float) -> bool:
    """Whether the six `full` would make (the pips `members` first, then the places looked at) has an end
    row of clearly flatter or smaller pips than the rest (`side_end_row`), counting the pips found at the
    places (`_found_at`, pips `diameter` wide): a column of a four and its side face's pip below is a
    straight three, and its other column and the side face's other pip lie beside it (nell-byler 111228, a
    blue four cut by a pixel)."""
    found = np.array([*members, *(_found_at(place, pips, diameter) for place in full[len(members) :])])
    seen = found >= 0
    roundness = np.where(seen, pips.roundness[found], np.nan)
    diameter = np.where(seen, pips.diameter[found], np.nan)
    return side_end_row(full, roundness, diameter) is not None


def _laid_out(face: Face, full: np.ndarray) -> Face:
    """`face` read as the layout of the pips at `full`: as many as its value, centred among them, its side
    measured by their span."""
    middle = full.mean(axis=0)
    return replace(
        face,
        value=len(full),
        center=(float(middle[0]), float(middle[1])),
        size=float(distances(full, full).max() / DIAGONAL_SHARE),
        layout_squash=layout_squash(full),
    )


def _six_corners(points: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """The two corners a six lacks when its four found pips (`points`, point-symmetric about `centre`) are
    two opposite corners and the middle pair: each lies a column's step beyond the middle pip nearest a
    found corner, and the other is its mirror."""
    reach = np.hypot(*(points - centre).T)
    corner = points[int(np.argmax(reach))]
    middles = points[np.argsort(reach)[:2]]
    middle = middles[int(np.argmin(np.hypot(*(middles - corner).T)))]
    missing = 2 * middle - corner
    return np.stack([missing, 2 * centre - missing])


def _complete(face: Face, pips: Pips, image: np.ndarray, read: set[int]) -> Face:
    if face.value not in RAISABLE:
        return face
    members = np.array(face.members)
    points = np.stack([pips.x[members], pips.y[members]], axis=1)
    return _raise(face, points, _looker(image, pips, members, read), pips)


def _raise(face: Face, points: np.ndarray, look: _Looker, pips: Pips) -> Face:
    """`face` (its pips at `points`) raised from a two, three or four to the larger layout `look` sees.

    A six's middle pips lie between two corner pips, where blur along the columns darkens the face of a
    four too, and a three's middle pip lies between a two's: there the look must be backed by a pip found
    (`pips`), even one too stretched to be linked; a three's, by a blob of its own too (`_smeared_alike`).
    """
    if face.value not in RAISABLE:
        return face
    center = points.mean(axis=0)
    # The two pips farthest apart are opposite corners (of a two, a three, a four).
    gaps = distances(points, points)
    i, j = np.unravel_index(np.argmax(gaps), gaps.shape)
    half_diagonal = (points[i] - points[j]) / 2
    turned = np.array([-half_diagonal[1], half_diagonal[0]])
    corners = [center + half_diagonal, center + turned, center - half_diagonal, center - turned]
    if face.value in (2, 3) and look.pip(corners[1]) and look.pip(corners[3]):
        return replace(face, value=5 if face.value == 3 or look.pip(center) else 4)
    if (
        face.value == 2
        and look.pip(center)
        and (_found(center, pips, look.diameter) or _smeared_alike(center, pips, face.members))
    ):
        return replace(face, value=3)
    if face.value == 2:
        three = _three_beyond(face, points, look, pips)
        if three is not None:
            return three
    if face.value == 3:
        # A straight three may be one column of a six: the other column lies a column's length aside, or
        # nearer, where a pip found beside the column shows it (`_columns_beside`).
        for shift in (2 * turned, -2 * turned, *_columns_beside(points, half_diagonal, pips, look.diameter)):
            full = np.vstack([points, points + shift])
            if all(look.pip(point) for point in full[3:]) and not _side_face_in(
                full, face.members, pips, look.diameter
            ):
                return _laid_out(face, full)
    if face.value == 4:
        if look.pip(center):
            return replace(face, value=5)
        for first in (0, 1):
            # The middles of two opposite sides: a six's extra pair, along either axis of the square.
            side = (corners[first] + corners[first + 1]) / 2
            if all(
                look.pip(place) and _found(place, pips, look.diameter) for place in (side, 2 * center - side)
            ):
                return replace(face, value=6)
    return face


def _columns_beside(
    points: np.ndarray, half_length: np.ndarray, pips: Pips, diameter: float
) -> list[np.ndarray]:
    """Where a six's other column lies from the straight three `points` (half its length along
    `half_length`, its pips `diameter` wide), by the pip candidates found level with one of them, between
    half and the whole of the column's length aside: the step from the column to each. Some makers space a
    six's columns closer than its rows, and a column's length aside, the look falls beside the other
    column's pips (nell-byler 112332: a gold six's columns 12 px apart, each 15 px long, read as a three)."""
    length = 2.0 * float(np.hypot(*half_length))
    along = 2.0 * half_length / length
    found = np.stack([pips.x, pips.y], axis=1)
    steps = []
    for point in points:
        offsets = found - point
        level = offsets @ along
        aside = offsets - np.outer(level, along)
        reach = np.hypot(*aside.T)
        beside = (np.abs(level) <= MIRROR_SHARE * diameter) & (reach >= 0.5 * length) & (reach <= length)
        steps += list(aside[beside])
    return steps


def _three_beyond(face: Face, points: np.ndarray, look: _Looker, pips: Pips) -> Face | None:
    """The three whose middle and one end pip are the two `points`, when its other end, as far beyond
    either pip as they are apart, shows a pip found there too; else None.

    A three's end pip merged with a glint or a dark die's pale bevel is no pip candidate that links, and
    the other two are a diagonal pair half a three's span apart: a two of a die half the size. Its middle
    pip is then one of the two's, and the die twice the two's size.
    """
    for middle, end in ((points[0], points[1]), (points[1], points[0])):
        beyond = 2 * middle - end
        if look.pip(beyond) and _found(beyond, pips, look.diameter):
            return replace(face, value=3, center=(float(middle[0]), float(middle[1])), size=2 * face.size)
    return None


def _looker(image: np.ndarray, pips: Pips, members: np.ndarray, read: set[int]) -> _Looker:
    """A `_Looker` for the face of these pips (`members`); `read` holds the pips of every face read."""
    others = np.array(sorted(read - set(members.tolist())), np.intp)
    return _Looker(
        image,
        float(median(pips.diameter[members])),
        float(median(pips.face[members])),
        float(median(pips.contrast[members])),
        bool(pips.dark[members[0]]),
        np.stack([pips.x[others], pips.y[others]], axis=1),
    )


@dataclass(frozen=True)
class _Looker:
    """Looks at one place of a face for a pip like the face's found ones."""

    image: np.ndarray
    diameter: float  # of the found pips
    level: float  # gray level of the face around them
    contrast: float  # how far they stand out from it
    dark: bool
    # The pips of the other faces read, (x, y) each: a place on one of them is that die's pip. (Dice lying
    # close together: a three's diagonal, taken for a column of a six, has its other column on the next dice.)
    others: np.ndarray

    def pip(self, place: np.ndarray) -> bool:
        height, width = self.image.shape[:2]
        ring = RING_SHARE * self.diameter
        if not (ring <= place[0] < width - 1 - ring and ring <= place[1] < height - 1 - ring):
            return False
        if (np.hypot(*(self.others - place).T) <= MIRROR_SHARE * self.diameter).any():
            return False
        radius = max(1, int(round(SPOT_SHARE * self.diameter)))
        x, y = int(round(place[0])), int(round(place[1]))
        spot = self.image[y - radius : y + radius + 1, x - radius : x + radius + 1].astype(np.float64)
        xs = np.rint(place[0] + ring * _COS).astype(np.intp)
        ys = np.rint(place[1] + ring * _SIN).astype(np.intp)
        around = float(median(self.image[ys, xs].tolist()))
        sign = 1.0 if self.dark else -1.0
        centre_depth = sign * (self.level - float(spot.mean()))
        ring_depth = sign * (self.level - around)
        if centre_depth < EVIDENCE_SHARE * self.contrast:
            return False
        if ring_depth <= RING_FACE_SHARE * self.contrast:
            return True
        # Pips that JPEG or blur runs together cross the ring (a small smoky die's five is a red cross).
        # A spot as deep as the found pips, standing out from its ring by the least margin the look above
        # allows (a spot `EVIDENCE_SHARE` deep in a ring `RING_FACE_SHARE` deep), is a blob of its own:
        # the edge of a dark region is as deep round much of the ring as at the spot.
        stands_out = centre_depth - ring_depth >= (EVIDENCE_SHARE - RING_FACE_SHARE) * self.contrast
        return centre_depth >= self.contrast and stands_out


def _found(place: np.ndarray, pips: Pips, diameter: float) -> bool:
    """Whether a pip candidate (`diameter` wide, as the face's) was found at `place`."""
    return _found_at(place, pips, diameter) >= 0


def _found_at(place: np.ndarray, pips: Pips, diameter: float) -> int:
    """The index of the pip candidate found at `place` (within `MIRROR_SHARE` of a pip `diameter`), the
    nearest; -1 where none was."""
    gaps = np.hypot(pips.x - place[0], pips.y - place[1])
    if not gaps.size:
        return -1
    nearest = int(np.argmin(gaps))
    return nearest if gaps[nearest] <= MIRROR_SHARE * diameter else -1


def _smeared_alike(place: np.ndarray, pips: Pips, members: tuple[int, ...]) -> bool:
    """Whether a pip smeared like the two pips `members` lies at `place` (inside the image).

    A die moving as the photo is taken smears each of its pips into a bar along the same path. The end
    pips' bars are cut again nearer their peaks (`vision.pips` cores) and found, while the middle one may
    be too stretched to be a pip candidate; it is still cut as a blob of its own (`Pips.labels`) of their
    polarity. It and the blobs the two pips were cut from are then stretched (less round than
    `SLANT_ROUNDNESS`, below which a blob's long axis means something) along one line (within
    `BLUR_ANGLE`). A blank face between two pips is cut nowhere, and a marbled face's swirl there lies any
    way (a green die's blue swirl between its yellow pips lay 45 degrees across their blobs).
    """
    x, y = int(round(place[0])), int(round(place[1]))
    label = int(pips.labels[y, x])
    own = [(int(pips.label[m]), int(pips.parent[m])) for m in members]
    if label == 0 or (label > 0) != bool(pips.dark[members[0]]) or any(label in pair for pair in own):
        return False
    reach = int(np.ceil(2.0 * max(float(np.hypot(pips.x[m] - x, pips.y[m] - y)) for m in members)))
    top, left = max(0, y - reach), max(0, x - reach)
    window = pips.labels[top : y + reach + 1, left : x + reach + 1]
    shapes = [_shape(window == label)] + [_shape(np.isin(window, pair)) for pair in own]
    if any(shape is None or shape[0] >= SLANT_ROUNDNESS for shape in shapes):
        return False
    angles = np.array([shape[1] for shape in shapes])
    turn = np.abs((angles[:, None] - angles[None, :] + 90.0) % 180.0 - 90.0)
    return bool(turn.max() <= BLUR_ANGLE)


def _shape(mask: np.ndarray) -> tuple[float, float] | None:
    """Minor over major axis and the major axis' direction (degrees, 0..180) of the pixels of `mask`, by
    their second moments; None for fewer than three pixels (three distinct pixels always have a spread)."""
    moments = cv2.moments(mask.astype(np.uint8), binaryImage=True)
    if moments["m00"] < 3:
        return None
    spread, skew = (moments["mu20"] - moments["mu02"]) / 2, moments["mu11"]
    half_trace, root = (moments["mu20"] + moments["mu02"]) / 2, float(np.hypot(spread, skew))
    direction = float(np.degrees(0.5 * np.arctan2(skew, spread)) % 180.0)
    return float(np.sqrt(max(half_trace - root, 0.0) / (half_trace + root))), direction


def read_faces(
    pips: Pips,
    work: np.ndarray,
    die_px: float,
    params: dict[str, float],
    focus: tuple[float, float] | None,
    lone_cores: bool = False,
) -> list[Face]:
    """The faces `pips` (found in `work`, dice `die_px` wide) make: grouped (`group_faces`, `lone_cores` as
    there), grouped again at the size those faces measure (`measured_die`), and completed
    (`complete_faces`)."""
    faces = group_faces(pips, work, die_px, params, focus, lone_cores)
    measured = measured_die(faces, die_px)
    if measured != die_px:
        faces = group_faces(pips, work, measured, params, focus, lone_cores)
    return complete_faces(faces, pips, work, params)

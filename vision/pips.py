"""Find pip candidates: small round blobs, darker or lighter than the face that surrounds them.

A black-hat (closing minus image) keeps dark features narrower than its kernel and a top-hat keeps light ones,
so with a kernel about half a die wide both kinds of pip stand out while whole dice, shadows and the tray do
not. A blob is cut at half its own peak response, so its measured size does not depend on its contrast and
faint shading next to a strong pip does not merge into it. A blob that is not pip-shaped at that cut (a pip
joined by a glossy highlight, big pips of a five touching) is cut again nearer its peak, where the cores part;
such cores count in a layout but never alone as a 1. When asked (on a die body's crop), the maximally stable
regions of blobs that are no pips at either cut are taken as well (`_add_stable`), as cores: a marbled face,
or pips blurred into a bar. Each blob is then measured in one vectorised pass (area, centre, second moments,
mean response) and checked against a ring of pixels around it, which must look like a die face: homogeneous
and clearly on the other side of the pip's brightness (for a core, what is left of the blob it was cut from
may be that face: a dark marbled die's face and pips cut as one blob). When asked, a bar a moving die smeared
a pip into is kept too, where another lies beside it along the same line (`_smeared`). The kernel also keeps
the narrow gap between two dice lying close: the blobs longer than most of a die's side are listed as seams
(`Pips.seams`), which no two pips of one face lie across (`vision.faces`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import NamedTuple

import cv2
import numpy as np

RING_SAMPLES = 16
# Grana's block-based labelling: about twice as fast as the default on the sparse masks of pips.
CCL = cv2.CCL_GRANA
# A core is most of a pip: at least this many times the smallest pip diameter (bits of text strokes are less).
CORE_MIN_SIZE = 1.5
CORE_PARENT_PIPS = 8  # blobs up to this many of the largest pips are cut again; larger ones are no pips
# The black-hat fills the narrow gap between two dice lying close as it fills a pip: a blob longer than this
# many of the largest pips (most of a die's side) is such a seam (`Pips.seams`). A fleck of a marbled face,
# or a glossy die's streak of sheen between two of its pips, is shorter (at two, nell-byler lost hands).
SEAM_PIPS = 3.0
_ANGLES = np.linspace(0.0, 2.0 * np.pi, RING_SAMPLES, endpoint=False)
NEAR_RING, FAR_RING = 1.45, 2.3  # radii of the face rings around a pip, in units of its half major axis
# A pip is kept only where half its near ring or more is face (the rest may fall on neighbouring pips).
NEAR_RING_SHARE = 0.5
# How even the face is, the wider ring tells where this share of its samples or more is face. Judged without
# the blobs beside the pip (`glare`), a lower share will do: a glossy die's reflection of the window is one
# blob with its light pip, arcing round it through more than half of the ring, and the rest is still face.
FAR_RING_SHARE = 0.6
GLARE_RING_SHARE = 0.4
_COS, _SIN = np.cos(_ANGLES), np.sin(_ANGLES)
# Maximally stable regions (`_add_stable`): MSER's gray-level step as a share of the pip threshold, the most
# a region may grow over that step (as a share of its area), and how near (in pip diameters) a region may lie
# to a pip found already before it is that pip again.
STABLE_DELTA_SHARE = 0.15
STABLE_VARIATION = 0.5
STABLE_APART = 0.6
# Pips of a top face seen from straight above measure 0.86 to 0.97 (minor / major axis) in nine photos of
# ten; at 45 degrees 0.7. Below this, the camera looks at the face at a slant, or a blob's long axis is a
# smear's path.
SLANT_ROUNDNESS = 0.8
# A die moving as the photo is taken smears each of its pips into a bar along the same path: as wide as a
# pip, longer, and too flat for the pip roundness. A side face seen at a slant also has flat pips lying one
# way, but they are narrower than the frame's pips, not as wide (foreshortening takes from their width,
# blur adds to their length), and two pips of one face cut as one blob pinch at their waist, where a smear
# is a solid bar. When asked (`smear_pip`), a blob that is such a bar, beside another bar of its polarity
# and size along the same line, is a pip: at least SMEAR_ROUNDNESS round, SMEAR_FILL of its moment ellipse
# filled, SMEAR_WIDTH of the frame's pip wide across its long axis, with a like bar within SMEAR_REACH pip
# diameters (a face's pips lie within 0.88 of its side, about six pips) whose long axis lies within
# BLUR_ANGLE of its own, and at most SMEAR_SIZES times larger or smaller. matteop65 two_47: both pips of the
# die a hand moved read 0.49 to 0.56 round, 0.97 to 0.99 filled, and 0.87 to 0.95 of the frame's pip wide.
SMEAR_ROUNDNESS = 0.35
SMEAR_FILL = 0.95
SMEAR_WIDTH = 0.75
SMEAR_REACH = 6.0
SMEAR_SIZES = 1.5
BLUR_ANGLE = 20.0  # motion blur smears a die's pips into bars that lie within this many degrees of each other


@dataclass(frozen=True)
class Pips:
    """Pip candidates as parallel arrays (work-scale pixels), plus the label image they were cut from."""

    x: np.ndarray
    y: np.ndarray
    diameter: np.ndarray  # of the circle with the blob's area
    roundness: np.ndarray  # minor / major axis, 1 = circle
    dark: np.ndarray  # True for a dark pip on a lighter face
    contrast: np.ndarray  # face level minus pip level, made positive for both polarities
    face: np.ndarray  # gray level of the face ring around the pip
    label: np.ndarray  # label of the blob in `labels`
    spread: np.ndarray  # how uneven the wider ring around the pip is, in units of its contrast
    fill: np.ndarray  # pixel count over the area of the ellipse of its second moments: 1 for a solid disc
    parent: np.ndarray  # label of the first-cut blob it came from: its own label, unless it is a core of one
    angle: np.ndarray  # direction of its long axis, degrees 0..180 (a squashed pip's is across the squash)
    labels: np.ndarray  # int32 image: every thresholded blob has a label, > 0 for dark ones, < 0 for light
    # Labels of the blobs longer than `SEAM_PIPS` of the largest pips: seams (none for pips made by hand)
    seams: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))

    def __len__(self) -> int:
        return int(self.x.size)

    @property
    def core(self) -> np.ndarray:
        """True for pips cut out of a larger blob: evidence within a layout, too weak to stand alone."""
        return self.parent != self.label

    def subset(self, keep: np.ndarray) -> Pips:
        columns = (column.name for column in fields(self) if column.name not in _WHOLE_CUT)
        kept = {name: getattr(self, name)[keep] for name in columns}
        return Pips(**kept, labels=self.labels, seams=self.seams)


_WHOLE_CUT = ("labels", "seams")  # the fields of `Pips` that describe the whole cut, not one pip each


class _Blobs(NamedTuple):
    """Measured blobs of one cut, as parallel arrays (the columns `Pips` is built from)."""

    x: np.ndarray
    y: np.ndarray
    diameter: np.ndarray
    roundness: np.ndarray
    dark: np.ndarray
    label: np.ndarray
    level: np.ndarray  # mean gray of the blob's own pixels
    fill: np.ndarray
    parent: np.ndarray
    angle: np.ndarray  # direction of the long axis, degrees 0..180


_KINDS = (float, float, float, float, bool, np.int32, float, float, np.int32, float)  # of `_Blobs`' columns
_NO_BLOBS = _Blobs(*(np.zeros(0, kind) for kind in _KINDS))


def odd_kernel(side: float) -> int:
    """`find_pips`' black-hat side for about `side` pixels: odd, so that the kernel has a centre pixel (the
    whole part of `side`, or one more when that is even), and at least 3."""
    return max(3, int(side) // 2 * 2 + 1)


def find_pips(
    gray: np.ndarray,
    kernel: int,
    diameter_range: tuple[float, float],
    threshold: float,
    polarity: str,
    min_roundness: float,
    min_fill: float = 0.0,
    cores: bool = True,
    glare: bool = False,
    stable: bool = False,
    smear_pip: float | None = None,
) -> Pips:
    """Every blob of pip size, shape and contrast in `gray` (uint8), of the polarities allowed.

    `min_fill` is the least share of its moment ellipse a blob must cover: a pip is a solid disc (about 1),
    while a letter or an arrow on a key is strokes around holes and covers much less. `cores=False` skips
    the second cut (enough to measure pip sizes, and half the work). `glare=True` lets a lone pip's face
    be judged without the blobs of its polarity beside it too (`_check_rings`): for a die body's lightness.
    `stable=True` adds the pips only maximally stable regions find (`_add_stable`): for a die body's crop.
    `smear_pip`, the diameter of the frame's pips, also keeps the pips a moving die smeared (`_smeared`).
    """
    element = cv2.getStructuringElement(cv2.MORPH_RECT, (kernel, kernel))
    # The peak is the strongest response within a square a third of the kernel wide: a square (unlike a
    # disc) is a separable filter, so this costs the same for the small dice of a tray and big close-ups.
    peak_element = cv2.getStructuringElement(cv2.MORPH_RECT, (kernel // 3 | 1, kernel // 3 | 1))
    labels = np.zeros(gray.shape, np.int32)
    found, seams = [], []  # found: the pip blobs of each cut
    for dark in (True, False):
        if polarity == ("light" if dark else "dark"):
            continue
        operation = cv2.MORPH_BLACKHAT if dark else cv2.MORPH_TOPHAT
        response = cv2.morphologyEx(gray, operation, element)
        # In 8-bit OpenCV operations (a few times faster than numpy's on a whole frame): the peak minus the
        # response, and the pixels that reach half of their local peak.
        below_peak = cv2.subtract(cv2.dilate(response, peak_element), response)
        strong = cv2.compare(response, threshold, cv2.CMP_GT)
        near_half = cv2.compare(response, below_peak, cv2.CMP_GE)
        sign = 1 if dark else -1
        first = _cut(cv2.bitwise_and(strong, near_half), labels, seams, 0, sign, gray, diameter_range, dark)
        if first is None:
            continue
        blobs = first[0]
        shaped = _solid(blobs, min_roundness, min_fill)
        if smear_pip is not None:
            shaped |= _smeared(blobs, smear_pip, min_fill)
        found.append(_Blobs(*(column[shaped] for column in blobs)))
        if cores:
            core = _cores(
                first, shaped, response, below_peak, labels, seams, sign, gray, diameter_range, dark
            )
            found.append(_Blobs(*(column[_solid(core, min_roundness, min_fill)] for column in core)))
    kept = _Blobs(*(np.concatenate(column) for column in zip(*found, strict=True))) if found else _NO_BLOBS
    seam_labels = np.concatenate(seams).astype(np.int32) if seams else np.zeros(0, np.int32)
    pips = _check_rings(_unmeasured(kept, labels, seam_labels), gray, kept.level, threshold, glare)
    if not stable:
        return pips
    return _add_stable(pips, gray, diameter_range, threshold, min_roundness, min_fill, glare)


def _solid(blobs: _Blobs, min_roundness: float, min_fill: float) -> np.ndarray:
    """Which `blobs` are pip-shaped: round enough and solid (a glyph's strokes fill less of their ellipse)."""
    return (blobs.roundness >= min_roundness) & (blobs.fill >= min_fill)


def _smeared(blobs: _Blobs, pip: float, min_fill: float) -> np.ndarray:
    """Which `blobs` are pips a moving die smeared into bars (see `SMEAR_ROUNDNESS`): `pip` is the diameter
    of the frame's pips."""
    width = blobs.diameter * np.sqrt(blobs.roundness)  # the minor axis of an ellipse of the blob's area
    bar = (blobs.roundness >= SMEAR_ROUNDNESS) & (blobs.fill >= SMEAR_FILL) & (width >= SMEAR_WIDTH * pip)
    if not bar.any():
        return bar
    # Bars against stretched blobs only, not every blob against every other: a noisy 8 MP still cuts tens
    # of thousands of blobs, whose square table of distances would not fit in memory.
    bars = np.flatnonzero(bar)
    others = np.flatnonzero((blobs.roundness < SLANT_ROUNDNESS) & (blobs.fill >= min_fill))
    near = np.hypot(blobs.x[bars, None] - blobs.x[None, others], blobs.y[bars, None] - blobs.y[None, others])
    near = (near <= SMEAR_REACH * pip) & (near > 0)
    sizes = blobs.diameter[bars, None] / blobs.diameter[None, others]
    turn = np.abs((blobs.angle[bars, None] - blobs.angle[None, others] + 90.0) % 180.0 - 90.0)
    alike = near & (turn <= BLUR_ANGLE) & (np.maximum(sizes, 1 / sizes) <= SMEAR_SIZES)
    smeared = np.zeros_like(bar)
    smeared[bars] = alike.any(axis=1)
    return smeared


def _unmeasured(blobs: _Blobs, labels: np.ndarray, seams: np.ndarray) -> Pips:
    """Pips of `blobs` whose face rings are still to be measured (`_check_rings`)."""
    zeros = np.zeros_like(blobs.x)
    columns = {name: getattr(blobs, name) for name in _Blobs._fields if name != "level"}
    return Pips(**columns, contrast=zeros, face=zeros, spread=zeros, labels=labels, seams=seams)


def _add_stable(pips, gray, diameter_range, threshold, min_roundness, min_fill, glare) -> Pips:
    """`pips` and the pips among the maximally stable regions (MSER) of `gray` on blobs that are no pips.

    The black-hat measures a pip against the lightest face within half a die: on a marbled die (a gold
    one's light swirls, a smoky one's bright bevel) the darker stretches of face stand out nearly as much
    as its pips, and the pips and the face between them cut as one blob at any share of its peak. A pip
    still has an edge of its own: of the regions that keep their shape over a span of gray levels, the
    pip-shaped ones are pips. Only regions centred on a first-cut blob that is no pip are taken (on plain
    face, a region is a fleck or a glint), with that blob's polarity. Their rings are measured without that
    blob, which would hide the face around them; in the label image it stays a blob of their polarity, so
    the stretch between two of them is no seam (`vision.faces`). The new pips are measured like the others,
    and are cores of that blob: evidence within a layout, too weak to stand alone as a 1.
    """
    labels = pips.labels
    blob_ys, blob_xs = np.nonzero(labels)
    merged = ~np.isin(labels[blob_ys, blob_xs], pips.label)
    if not merged.any():
        return pips
    merged_xs, merged_ys = blob_xs[merged], blob_ys[merged]
    # MSER only around those blobs: it costs by the pixels it sorts, and regions elsewhere are not taken.
    pad = int(np.ceil(diameter_range[1]))
    x0, y0 = max(0, int(merged_xs.min()) - pad), max(0, int(merged_ys.min()) - pad)
    box = gray[y0 : int(merged_ys.max()) + pad + 1, x0 : int(merged_xs.max()) + pad + 1]
    blobs, regions = _stable_regions(box, diameter_range, threshold, min_roundness, min_fill)
    labels = labels.copy()
    first_new = int(np.abs(labels).max()) + 1
    # Per new pip: its index in `blobs`, the blob it was cut from (its parent), its label; and the labels
    # its region covered.
    taken, parents, new_labels, covered = [], [], [], []
    for index, region in enumerate(regions):
        x, y, diameter = blobs.x[index] + x0, blobs.y[index] + y0, blobs.diameter[index]
        on = pips.labels[int(round(y)), int(round(x))]
        if on == 0 or on in pips.label:
            continue  # no blob the black-hat merged: a region on plain face is a fleck or a glint
        same = pips.dark == (on > 0)
        if (
            np.hypot(pips.x[same] - x, pips.y[same] - y)
            < STABLE_APART * np.maximum(pips.diameter[same], diameter)
        ).any():
            continue  # a pip found already
        xs, ys = region[:, 0] + x0, region[:, 1] + y0
        covered.append(labels[ys, xs])
        label = (first_new + len(taken)) * int(np.sign(on))
        labels[ys, xs] = label
        taken.append(index)
        parents.append(on)
        new_labels.append(label)
    if not taken:
        return pips
    under = np.unique(np.concatenate(covered))
    merged_labels = under[(np.abs(under) < first_new) & ~np.isin(under, pips.label)]
    around = np.where(np.isin(labels, merged_labels), 0, labels)
    parent = np.array(parents, np.int32)
    blobs = _Blobs(*(column[taken] for column in blobs))._replace(
        x=blobs.x[taken] + x0,
        y=blobs.y[taken] + y0,
        dark=parent > 0,
        label=np.array(new_labels, np.int32),
        parent=parent,
    )
    added = _check_rings(_unmeasured(blobs, around, pips.seams), gray, blobs.level, threshold, glare)
    columns = (column.name for column in fields(Pips) if column.name not in _WHOLE_CUT)
    return Pips(
        **{name: np.concatenate((getattr(pips, name), getattr(added, name))) for name in columns},
        labels=labels,
        seams=pips.seams,
    )


def _stable_regions(gray, diameter_range, threshold, min_roundness, min_fill):
    """The pip-shaped maximally stable regions of `gray`, dark and light, one per place: (blobs, pixels).

    Regions nest (a pip's core within the pip within its blurred rim); of those at one place the largest
    pip-shaped one is the pip. MSER's step between the gray levels it compares is a share of the pip
    threshold, as the rest of the reader is relative to the frame's own contrast.
    """
    low, high = diameter_range
    detector = cv2.MSER_create(
        delta=max(1, round(threshold * STABLE_DELTA_SHARE)),
        min_area=max(1, int(np.pi / 4 * low * low)),
        max_area=int(np.pi / 4 * high * high) + 1,
        max_variation=STABLE_VARIATION,
    )
    regions, boxes = detector.detectRegions(gray)
    if not regions:
        return _NO_BLOBS, []
    # OpenCV's boxes and sizes are the component statistics `_measure` needs (row 0 is the background's);
    # the boxes already rule out most regions, before their pixels are gathered.
    areas = np.fromiter(map(len, regions), np.int64, len(regions))
    boxed = np.flatnonzero(_plausible(areas, boxes[:, 2], boxes[:, 3], diameter_range))
    if boxed.size == 0:
        return _NO_BLOBS, []
    regions = [regions[index] for index in boxed]
    stats = np.zeros((boxed.size + 1, 5), np.int64)
    stats[1:, :4] = boxes[boxed]
    stats[1:, cv2.CC_STAT_AREA] = areas[boxed]
    points = np.concatenate(regions).reshape(-1, 2)
    ids = np.repeat(np.arange(1, boxed.size + 1), areas[boxed])
    blobs = _measure(points[:, 0], points[:, 1], ids, stats, 1, gray, diameter_range, True)
    shaped = np.flatnonzero((blobs.roundness >= min_roundness) & (blobs.fill >= min_fill))
    order = shaped[np.argsort(-blobs.diameter[shaped], kind="stable")]
    chosen: list[int] = []
    for index in order:
        gaps = np.hypot(blobs.x[chosen] - blobs.x[index], blobs.y[chosen] - blobs.y[index])
        if (gaps > blobs.diameter[chosen] / 2).all():
            chosen.append(int(index))
    picked = _Blobs(*(column[chosen] for column in blobs))
    return picked, [regions[int(label) - 1].reshape(-1, 2) for label in picked.label]


def _cores(first, shaped, response, below_peak, labels, seams, sign, gray, diameter_range, dark) -> _Blobs:
    """The second cut: blobs of a few pips' size that are not pip-shaped, at three quarters of their peak.

    `first` is what `_cut` returned for the first cut and `shaped` which of its blobs are pips already.
    Only the blobs' own pixels are labelled, each blob's box laid beside the others on a small canvas
    (labelling costs by the image's size, and the blobs to cut may lie far apart).
    """
    blobs, count, part, (xs, ys, ids), stats = first
    recut = stats[:, cv2.CC_STAT_AREA] <= CORE_PARENT_PIPS * np.pi / 4 * diameter_range[1] ** 2
    recut[np.abs(blobs.label[shaped])] = False
    chosen = recut[ids]
    xs, ys, ids = xs[chosen], ys[chosen], ids[chosen]
    near_peak = response[ys, xs].astype(np.int16) >= 3 * below_peak[ys, xs].astype(np.int16)
    xs, ys, ids = xs[near_peak], ys[near_peak], ids[near_peak]
    if xs.size == 0:
        return _NO_BLOBS
    parents = np.unique(ids)
    left, top = stats[parents, cv2.CC_STAT_LEFT], stats[parents, cv2.CC_STAT_TOP]
    widths, heights = stats[parents, cv2.CC_STAT_WIDTH], stats[parents, cv2.CC_STAT_HEIGHT]
    offsets = np.concatenate(([0], np.cumsum(widths + 1)[:-1]))  # a blank column between boxes
    slot = np.searchsorted(parents, ids)
    canvas = np.zeros((int(heights.max()), int(offsets[-1] + widths[-1])), np.uint8)
    canvas[ys - top[slot], xs - left[slot] + offsets[slot]] = 255

    def to_frame(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        box = np.searchsorted(offsets, points[:, 0], side="right") - 1
        return points[:, 0] - offsets[box] + left[box], points[:, 1] + top[box]

    core_range = (diameter_range[0] * CORE_MIN_SIZE, diameter_range[1])
    second = _cut(canvas, labels, seams, count, sign, gray, core_range, dark, to_frame)
    if second is None:
        return _NO_BLOBS
    cores = second[0]
    parents = part[np.rint(cores.y).astype(np.intp), np.rint(cores.x).astype(np.intp)] * sign
    return cores._replace(parent=np.where(parents != 0, parents, cores.label))


def _cut(mask, labels, seams, offset, sign, gray, diameter_range, dark, to_frame=None):
    """Label the blobs of `mask` in `labels` (numbered from `offset` + 1, signed by polarity), measure them,
    and add the labels of those longer than `SEAM_PIPS` of the largest pips to the list `seams`.

    `to_frame` maps the mask's pixel positions to the frame's when the mask is not the frame itself. Returns
    (measured columns, blob count, component image of the mask, the blobs' pixels in frame coordinates as
    (xs, ys, ids), every component's statistics), or None when the mask is empty.
    """
    count, part = cv2.connectedComponentsWithAlgorithm(mask, 8, cv2.CV_32S, CCL)
    if count <= 1:
        return None
    # Work on the blobs' own pixels, a small share of the frame, rather than on whole label images.
    points = _lit_pixels(mask)
    ids = part[points[:, 1], points[:, 0]]
    stats = _stats(points, ids, count)
    xs, ys = to_frame(points) if to_frame is not None else (points[:, 0], points[:, 1])
    # Specks smaller than any pip (anti-aliasing crumbs at a pip's rim) must not block links between pips.
    low = diameter_range[0]
    keep = stats[ids, cv2.CC_STAT_AREA] >= np.pi / 4 * low * low
    xs, ys, ids = xs[keep], ys[keep], ids[keep]
    labels[ys, xs] = (ids + offset) * sign
    longer = np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT])
    seams.append((np.flatnonzero(longer > SEAM_PIPS * diameter_range[1]) + 1 + offset) * sign)
    blobs = _measure(xs, ys, ids, stats, sign, gray, diameter_range, dark)
    label = (blobs.label + offset * sign).astype(np.int32)
    return blobs._replace(label=label, parent=label), count, part, (xs, ys, ids), stats


def _lit_pixels(mask: np.ndarray) -> np.ndarray:
    """The (x, y) of `mask`'s nonzero pixels in row order, as `cv2.findNonZero` lists them, at a third of
    its cost: a pip mask is mostly zero, so it is scanned eight pixels to a 64-bit word and only the few
    words that hold a pip's pixel are looked into."""
    flat = mask.reshape(-1)
    whole = flat.size // 8 * 8
    words = np.flatnonzero(flat[:whole].view(np.uint64))
    word, byte = np.nonzero(flat[:whole].reshape(-1, 8)[words])
    index = np.concatenate((words[word] * 8 + byte, np.flatnonzero(flat[whole:]) + whole))
    ys, xs = np.divmod(index, mask.shape[1])
    return np.stack((xs, ys), axis=1)


def _stats(points: np.ndarray, ids: np.ndarray, count: int) -> np.ndarray:
    """OpenCV's component statistics (left, top, width, height, area), from the blobs' pixels alone.

    OpenCV's own pass over the whole image costs three times the labelling; the pixels are a few thousand.
    """
    order = np.argsort(ids, kind="stable")
    xs, ys, ordered = points[order, 0], points[order, 1], ids[order]
    stats = np.zeros((count, 5), np.int64)
    stats[:, cv2.CC_STAT_AREA] = np.bincount(ids, minlength=count)
    present = stats[:, cv2.CC_STAT_AREA] > 0  # the background, label 0, has no pixels here
    first = np.searchsorted(ordered, np.flatnonzero(present))
    left, top = np.minimum.reduceat(xs, first), np.minimum.reduceat(ys, first)
    stats[present, cv2.CC_STAT_LEFT], stats[present, cv2.CC_STAT_TOP] = left, top
    stats[present, cv2.CC_STAT_WIDTH] = np.maximum.reduceat(xs, first) - left + 1
    stats[present, cv2.CC_STAT_HEIGHT] = np.maximum.reduceat(ys, first) - top + 1
    return stats


def _plausible(areas, width, height, diameter_range) -> np.ndarray:
    """Which blobs, by pixel count and bounding box, could hold a pip: its size, and not a thin stroke."""
    low, high = diameter_range
    return (
        (areas >= np.pi / 4 * low * low)
        & (areas <= np.pi / 4 * high * high)
        & (areas >= 0.35 * width * height)
        & (np.maximum(width, height) <= 3.0 * np.minimum(width, height))
    )


def _measure(xs, ys, pixel_ids, stats, sign, gray, diameter_range, dark) -> _Blobs:
    """Centre, size, roundness and mean gray of every blob whose bounding box could hold a pip.

    `xs`, `ys` are the blobs' pixels and `pixel_ids` their blob numbers in `stats`.
    """
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    width = stats[1:, cv2.CC_STAT_WIDTH].astype(np.float64)
    height = stats[1:, cv2.CC_STAT_HEIGHT].astype(np.float64)
    ids = np.flatnonzero(_plausible(areas, width, height, diameter_range)) + 1
    if ids.size == 0:
        return _NO_BLOBS
    lookup = np.zeros(len(areas) + 1, np.int32)
    lookup[ids] = np.arange(1, ids.size + 1)
    slot = lookup[pixel_ids]
    inside = slot > 0
    ys, xs, slot = ys[inside], xs[inside], slot[inside]
    n = ids.size + 1
    count = np.bincount(slot, minlength=n)[1:].astype(np.float64)
    xs_f, ys_f = xs.astype(np.float64), ys.astype(np.float64)
    mx = np.bincount(slot, xs_f, n)[1:] / count
    my = np.bincount(slot, ys_f, n)[1:] / count
    dx, dy = xs_f - mx[slot - 1], ys_f - my[slot - 1]
    cxx = np.bincount(slot, dx * dx, n)[1:] / count + 1.0 / 12
    cyy = np.bincount(slot, dy * dy, n)[1:] / count + 1.0 / 12
    cxy = np.bincount(slot, dx * dy, n)[1:] / count
    half_trace, det_root = (cxx + cyy) / 2, np.sqrt(((cxx - cyy) / 2) ** 2 + cxy * cxy)
    roundness = np.sqrt(np.maximum(half_trace - det_root, 1e-9) / (half_trace + det_root))
    level = np.bincount(slot, gray[ys, xs].astype(np.float64), n)[1:] / count
    diameter = 2.0 * np.sqrt(count / np.pi)
    fill = count / (4.0 * np.pi * np.sqrt(np.maximum(cxx * cyy - cxy * cxy, 1e-9)))
    label = (ids * sign).astype(np.int32)
    angle = np.degrees(0.5 * np.arctan2(2.0 * cxy, cxx - cyy)) % 180.0
    return _Blobs(mx, my, diameter, roundness, np.full(ids.size, dark), label, level, fill, label, angle)


def _check_rings(
    pips: Pips, gray: np.ndarray, pip_level: np.ndarray, threshold: float, glare: bool = False
) -> Pips:
    """Keep pips whose surrounding ring is face: clearly lighter (or darker) and not cluttered.

    Ring pixels that fall on other blobs (a neighbouring pip of a six) are ignored rather than counted
    against the pip. A core whose near ring fails that way is judged again with what is left of the blob it
    was cut from read as face: on a dark marbled die (a gold one's) the first cut joins the pips and the face
    between them into one blob, so the near ring of each pip cut out of it lies mostly on that blob. The
    wider ring's unevenness is kept for deciding whether a lone pip is a die showing 1; in it, blobs of the
    pip's polarity that are no pips (flecks, clutter) count as uneven. With `glare`, the wider ring is also
    judged without them (on what is left of it, `GLARE_RING_SHARE`), and the evener of the two counts: on a
    glossy die the window's reflection is a light streak beside its light pip, which is no sign that the pip
    is a speck.
    """
    if len(pips) == 0:
        return pips
    major = pips.diameter / 2 / np.sqrt(np.maximum(pips.roundness, 0.2))
    face, contrast, keep = _near_face(pips, gray, major, pip_level, threshold, None)
    retry = np.flatnonzero(pips.core & ~keep)
    if retry.size:
        on_parent = pips.parent[retry, None]
        face_again, contrast_again, passes = _near_face(
            pips.subset(retry),
            gray,
            major[retry],
            pip_level[retry],
            threshold,
            lambda found: found == on_parent,
        )
        rescued = retry[passes]
        face[rescued], contrast[rescued], keep[rescued] = face_again[passes], contrast_again[passes], True
    layout_pips = np.concatenate((pips.label, pips.parent))
    # The wider rings: (which blobs of the pip's polarity count as face, least share of face samples).
    wide = [(lambda found: ~np.isin(found, layout_pips), FAR_RING_SHARE)]
    wide += [(None, GLARE_RING_SHARE)] if glare else []
    spread_far = np.full(len(pips), 9.0)
    for also_face, least_share in wide:
        far_face, far_spread, far_enough = _sample_ring(pips, gray, major * FAR_RING, also_face)
        with np.errstate(invalid="ignore", divide="ignore"):
            uneven = np.maximum(far_spread, np.abs(far_face - face)) / contrast
            spread_far = np.fmin(spread_far, np.where(far_enough >= least_share, uneven, 9.0))
    measured = replace(
        pips,
        contrast=np.nan_to_num(contrast),
        face=np.nan_to_num(face),
        spread=np.nan_to_num(spread_far, nan=9.0),
    )
    return measured.subset(keep)


def _near_face(pips, gray, major, pip_level, threshold, also_face) -> tuple[np.ndarray, ...]:
    """Each pip's face level on its near ring, its contrast against it, and whether the ring is face enough:
    half of it or more (`NEAR_RING_SHARE`), the pip clearly on the other side of it, the ring no less even
    than the pip stands out. `also_face` as in `_sample_ring`; `major` is each pip's half major axis."""
    face, spread, share = _sample_ring(pips, gray, major * NEAR_RING, also_face)
    contrast = np.where(pips.dark, face - pip_level, pip_level - face)
    with np.errstate(invalid="ignore"):
        passes = (share >= NEAR_RING_SHARE) & (contrast >= threshold) & (spread <= contrast)
    return face, contrast, passes


def _sample_ring(
    pips: Pips, gray: np.ndarray, radius: np.ndarray, also_face: Callable[[np.ndarray], np.ndarray] | None
) -> tuple[np.ndarray, ...]:
    """Each pip's face on a ring of `radius` (+1 px) around it: (median, 10th to 90th percentile spread,
    share of samples that are face). Samples on blobs of the pip's polarity are not face, unless
    `also_face` (labels -> bool, or None) says they are."""
    height, width = gray.shape
    radius = (radius + 1.0)[:, None]
    xs = np.clip(np.rint(pips.x[:, None] + radius * _COS), 0, width - 1).astype(np.intp)
    ys = np.clip(np.rint(pips.y[:, None] + radius * _SIN), 0, height - 1).astype(np.intp)
    found = pips.labels[ys, xs]
    usable = np.where(pips.dark[:, None], found <= 0, found >= 0)
    if also_face is not None:
        usable |= also_face(found)
    low, middle, high = _row_quantiles(gray[ys, xs].astype(np.float64), usable, (0.1, 0.5, 0.9))
    return middle, high - low, usable.mean(axis=1)


def _row_quantiles(values: np.ndarray, usable: np.ndarray, shares: tuple[float, ...]) -> list[np.ndarray]:
    """Quantiles of each row's usable values (NaN for a row with none), without numpy's slow nan path."""
    ordered = np.sort(np.where(usable, values, np.inf), axis=1)
    count = usable.sum(axis=1)
    rows = np.arange(values.shape[0])
    result = []
    for share in shares:
        index = np.clip(np.rint(share * (count - 1)), 0, values.shape[1] - 1).astype(np.intp)
        result.append(np.where(count > 0, ordered[rows, index], np.nan))
    return result


def pips_for_dice(
    work: np.ndarray,
    die_px: float,
    threshold: float,
    params: dict[str, float],
    polarity: str,
    glare: bool,
    stable: bool,
    smear_pip: float | None = None,
) -> Pips:
    """The pip candidates in one channel (`work`, a die `die_px` wide), by the reader's `params` and pip
    `polarity` ("auto", "dark" or "light").

    `glare`: a lone pip may have a reflection beside it (`find_pips`), as on a die body's lightness.
    `stable`: pips are also looked for as maximally stable regions (`find_pips`), in a die body's crop.
    `smear_pip`: bars a moving die smeared its pips into, as wide as this, are pips too (`find_pips`): in
    the frame, where that is the frame's own pip size (a body's crop measures its die only roughly).
    """
    pip = die_px * params["pip_size"]
    return find_pips(
        work,
        odd_kernel(die_px * 0.5),
        (pip * 0.4, pip * 2.0),
        threshold,
        polarity,
        params["pip_roundness"],
        params["pip_fill"],
        glare=glare,
        stable=stable,
        smear_pip=smear_pip,
    )

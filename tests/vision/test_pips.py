"""Pip candidates: the blob statistics the reader measures pips with."""

import cv2
import numpy as np
import pytest

from vision.frames import resize
from vision.pips import _Blobs, _lit_pixels, _smeared, _stats, find_pips


@pytest.mark.parametrize("density", [0.02, 0.2, 0.6])
def test_blob_statistics_from_their_pixels_match_opencvs(density):
    """`_stats` replaces OpenCV's whole-image statistics pass; it must give the same boxes and areas."""
    rng = np.random.default_rng(int(density * 100))
    mask = ((rng.random((90, 130)) < density) * 255).astype(np.uint8)
    count, part, expected, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_GRANA
    )
    points = cv2.findNonZero(mask).reshape(-1, 2)
    stats = _stats(points, part[points[:, 1], points[:, 0]], count)
    np.testing.assert_array_equal(stats[1:], expected[1:])


@pytest.mark.parametrize("scale", [0.8, 1.0, 1.33])
def test_resizing_reaches_the_size_asked(scale):
    image = np.zeros((300, 400), np.uint8)
    assert resize(image, scale).shape == (round(300 * scale), round(400 * scale))


@pytest.mark.parametrize("scale", [0.23, 0.37, 0.5])
@pytest.mark.parametrize("shape", [(300, 400), (301, 411)])
def test_shrinking_by_an_odd_factor_averages_pixels_rather_than_picking_them(scale, shape):
    """Picking pixels would turn one-pixel stripes into a coarse pattern of 0s and 200s (aliasing)."""
    stripes = np.zeros(shape, np.uint8)
    stripes[:, ::2] = 200
    shrunk = resize(stripes, scale)
    assert shrunk.shape == (round(shape[0] * scale), round(shape[1] * scale))
    assert np.abs(shrunk[2:-2, 2:-2].astype(int) - 100).max() <= 10


@pytest.mark.parametrize("scale", [0.85, 0.88, 0.94, 0.99])
@pytest.mark.parametrize("offset", [0, 0.5])
def test_a_mild_shrink_keeps_a_small_pips_ink_and_depth_as_averaging_would(scale, offset):
    """From `MILD_SHRINK` up, `resize` interpolates rather than area-averages (eight times as fast). A pip
    is several pixels wide: one 3.4 px wide, under half a working die's (0.14 of 57 px is 8), must lose or
    gain no more than a few percent of its ink, and no depth, against the area average."""
    image = np.full((64, 64), 200, np.uint8)
    centre = round((31 + offset) * 16)
    cv2.circle(image, (centre, centre), round(1.7 * 16), 40, -1, cv2.LINE_AA, shift=4)
    shrunk = resize(image, scale).astype(float)
    averaged = cv2.resize(image, shrunk.shape[::-1], interpolation=cv2.INTER_AREA).astype(float)
    assert (200 - shrunk).sum() == pytest.approx((200 - averaged).sum(), rel=0.08)
    assert shrunk.min() <= averaged.min() + 2


@pytest.mark.parametrize("arc_from", [-70, -170])  # to 10 degrees: a fifth, then more than half, of the ring
def test_glare_beside_a_lone_pip_leaves_its_face_even_only_when_asked(arc_from):
    """A light arc beside a light pip, on a dark face: a blob of the pip's polarity on its wider ring. As
    clutter it makes the face uneven; as glare (`glare=True`) the ring is also judged without it, even where
    the arc takes more than half of the ring (a window reflected round a glossy die's pip)."""
    face = np.full((120, 120), 40, np.uint8)
    cv2.circle(face, (60, 60), 7, 230, -1, cv2.LINE_AA)
    cv2.ellipse(face, (60, 60), (19, 19), 0, arc_from, 10, 200, 3, cv2.LINE_AA)
    spreads = []
    for glare in (False, True):
        pips = find_pips(face, 31, (3.4, 16.8), 25.0, "any", 0.55, 0.85, glare=glare)
        (index,) = np.flatnonzero(np.hypot(pips.x - 60, pips.y - 60) < 2)
        spreads.append(float(pips.spread[index]))
    assert spreads[1] < 0.3 < spreads[0]


def _smeared_three(smear: int) -> np.ndarray:
    """A die's three on a light tray, its pips joined by a dark smear (blur between a small die's pips)."""
    image = np.full((122, 122), 200, np.uint8)
    cv2.rectangle(image, (31, 31), (91, 91), 120, -1)
    cv2.line(image, (45, 45), (77, 77), smear, 4, cv2.LINE_AA)
    for centre in ((45, 45), (61, 61), (77, 77)):
        cv2.circle(image, centre, 5, 20, -1, cv2.LINE_AA)
    return cv2.GaussianBlur(image, (0, 0), 1.0)


def test_pips_joined_by_a_dark_smear_are_found_as_stable_regions_when_asked():
    """The smear stands out of the face nearly as much as the pips, so the black-hat cuts the three as one
    bar at any share of its peak; each pip still keeps its own shape over a span of gray levels. Cut out of
    a larger blob, such pips count in a layout but never alone as a 1, like the second cut's cores."""
    image = _smeared_three(smear=35)
    assert len(find_pips(image, 31, (3.4, 16.8), 20.0, "any", 0.55, 0.85)) == 0
    pips = find_pips(image, 31, (3.4, 16.8), 20.0, "any", 0.55, 0.85, stable=True)
    assert sorted(zip(np.rint(pips.x), np.rint(pips.y), strict=True)) == [(45, 45), (61, 61), (77, 77)]
    assert pips.dark.all() and (pips.contrast > 20.0).all() and pips.core.all()


def test_a_stable_region_on_no_blob_the_black_hat_merged_is_not_taken():
    """A small fleck beside a pip, under half the pip's peak, is no blob of the black-hat's; it is a stable
    region all the same, and pip-shaped, so only regions on merged blobs may be pips."""
    image = np.full((122, 122), 200, np.uint8)
    cv2.rectangle(image, (31, 31), (91, 91), 160, -1)
    cv2.circle(image, (61, 61), 6, 20, -1, cv2.LINE_AA)
    cv2.circle(image, (70, 70), 2, 80, -1, cv2.LINE_AA)
    image = cv2.GaussianBlur(image, (0, 0), 1.0)
    for stable in (False, True):
        pips = find_pips(image, 31, (3.4, 16.8), 20.0, "any", 0.55, 0.85, stable=stable)
        assert sorted(zip(np.rint(pips.x), np.rint(pips.y), strict=True)) == [(61, 61)]


def test_pips_cut_out_of_a_dark_marbled_face_are_judged_on_what_is_left_of_it():
    """A small dark die with a light streak of sheen, on a light tray: the black-hat takes the face and its
    six pips as one blob, cut again into the pips. Each pip's near ring then lies mostly on what is left of
    that blob, which is the face around it, so all six are kept; as cores, never alone as a 1."""
    image = np.full((122, 122), 200, np.uint8)
    cv2.rectangle(image, (43, 43), (79, 79), 90, -1)
    cv2.line(image, (43, 65), (65, 43), 170, 4, cv2.LINE_AA)
    centres = [(61 + dx, 61 + dy) for dx in (-9, 9) for dy in (-10, 0, 10)]
    for centre in centres:
        cv2.circle(image, centre, 3, 15, -1, cv2.LINE_AA)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    pips = find_pips(image, 31, (3.4, 16.8), 20.0, "any", 0.55, 0.85)
    assert sorted(zip(np.rint(pips.x), np.rint(pips.y), strict=True)) == sorted(centres)
    assert pips.dark.all() and pips.core.all() and (pips.contrast > 20.0).all()


@pytest.mark.parametrize("shape", [(5, 7), (13, 11), (480, 640), (547, 766)])
def test_lit_pixels_lists_what_opencv_finds_in_the_same_order(shape):
    rng = np.random.default_rng(sum(shape))
    mask = ((rng.random(shape) > 0.97) * 255).astype(np.uint8)
    mask[-1, -1] = 255  # a pixel past the last whole 64-bit word
    assert np.array_equal(_lit_pixels(mask), cv2.findNonZero(mask).reshape(-1, 2))
    assert _lit_pixels(np.zeros(shape, np.uint8)).shape == (0, 2)


def test_the_strip_of_tray_between_two_dice_is_a_seam_and_a_fleck_is_not():
    """The black-hat fills a narrow strip of dark tray between two white dice as it fills a pip: that blob,
    as long as a die, is a seam (`Pips.seams`), while a fleck on a face, as short as a pip, is not."""
    image = np.full((120, 200), 60, np.uint8)
    cv2.rectangle(image, (30, 30), (89, 89), 230, -1)
    cv2.rectangle(image, (96, 30), (155, 89), 230, -1)
    cv2.circle(image, (60, 60), 5, 30, -1, cv2.LINE_AA)
    cv2.line(image, (115, 58), (123, 62), 120, 2)
    pips = find_pips(image, 31, (3.4, 16.8), 25.0, "dark", 0.55, 0.85)
    (pip,) = np.flatnonzero(np.hypot(pips.x - 60, pips.y - 60) < 2)
    assert pips.labels[60, 92] in pips.seams  # the strip between the dice
    assert pips.labels[60, 119] > 0 and pips.labels[60, 119] not in pips.seams  # the fleck
    assert pips.label[pip] not in pips.seams


def _face_with_bars(half_axes: tuple[int, int], turns: tuple[float, ...]) -> np.ndarray:
    """A light face with dark elliptical blobs (`half_axes`: long, short) at a two's places, the long axis of
    each turned by its entry in `turns` (degrees); one turn, one blob at the centre."""
    image = np.full((120, 120), 230, np.uint8)
    places = [(60, 60)] if len(turns) == 1 else [(41, 41), (79, 79)]
    for place, turn in zip(places, turns, strict=True):
        cv2.ellipse(image, place, half_axes, turn, 0, 360, 30, -1, cv2.LINE_AA)
    return cv2.GaussianBlur(image, (0, 0), 1.0)


def _found(image: np.ndarray, smear_pip: float | None) -> int:
    """How many pips `find_pips` finds in `image`, where pips are 10 px wide (a die 70 px wide)."""
    return len(find_pips(image, 35, (4.0, 20.0), 25.0, "dark", 0.55, 0.85, smear_pip=smear_pip))


@pytest.mark.parametrize("turn", [0.0, 30.0, 100.0])
def test_a_moving_die_s_pips_smeared_alike_into_bars_are_pips_when_asked(turn):
    """Bars as wide as a pip and twice as long, along one line (matteop65 two_47: a die a hand moved): too
    flat for the pip roundness, so no pips unless smears are asked for (`smear_pip`)."""
    bars = _face_with_bars((10, 5), (turn, turn + 10.0))
    assert _found(bars, smear_pip=None) == 0
    assert _found(bars, smear_pip=10.0) == 2


def test_a_side_face_s_flat_pips_are_no_smears():
    """A side face seen at a slant: its pips lie one way too, but foreshortening made them narrower than
    the frame's pips where a smear is as wide."""
    assert _found(_face_with_bars((5, 2), (0.0, 0.0)), smear_pip=10.0) == 0


def test_smears_are_told_among_the_specks_of_a_noisy_still_without_a_table_of_every_pair():
    """matteop65 from 3x as far, as a Pi still, with sensor noise: one cut held 71,806 blobs, and a square
    table of the distances between every two of them asked for 38 GiB. Bars are matched against the
    stretched blobs only: two bars along one line among 200,000 round specks are told, in little memory."""
    count = 200_000
    rng = np.random.default_rng(0)
    x, y = rng.uniform(0, 3280, count), rng.uniform(0, 2460, count)
    diameter, roundness, angle = np.full(count, 2.0), np.full(count, 0.9), np.zeros(count)
    x[:2], y[:2] = (1000.0, 1030.0), (1000.0, 1000.0)
    diameter[:2], roundness[:2], angle[:2] = 14.0, 0.5, (10.0, 15.0)
    labels = np.arange(count, dtype=np.int32)
    blobs = _Blobs(
        x,
        y,
        diameter,
        roundness,
        np.ones(count, bool),
        labels,
        np.zeros(count),
        np.ones(count),
        labels,
        angle,
    )
    assert np.flatnonzero(_smeared(blobs, 10.0, 0.85)).tolist() == [0, 1]


@pytest.mark.parametrize("turns", [(30.0,), (30.0, 120.0)])
def test_a_bar_is_no_smear_without_another_along_the_same_line(turns):
    """One moving die smears all its pips one way: a lone bar, or bars across each other, are no pips."""
    assert _found(_face_with_bars((10, 5), turns), smear_pip=10.0) == 0

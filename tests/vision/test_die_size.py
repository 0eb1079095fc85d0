"""The die-size estimate (`vision.die_size`): which copy's pips measure the dice, and what the dice bodies
confirm."""

import cv2
import numpy as np
import pytest

from tests.vision.test_faces import pips_at
from tests.vision.test_reader import SPECKS, dark_die_on_a_dusty_board
from vision.body import Bodies
from vision.die_size import (
    ESTIMATE_SHORT_SIDE,
    FINER_PAIRS,
    KERNEL_DICE,
    DieSizer,
    _dice_taken_whole,
    _Estimate,
    _outweighs,
)
from vision.reader import DEFAULT_PARAMS

SIZER = DieSizer(DEFAULT_PARAMS, "auto")


@pytest.mark.parametrize(
    ("again", "pairs", "die", "replaced"),
    [
        ((1000.0, 1000.0, 40.0, 1.0), 2, 80.0, False),  # the coarser copy's one, seen again as it was
        ((1010.0, 995.0, 34.0, 1.0), 2, 80.0, False),  # a little off and smaller: the finer pixel grid
        ((1000.0, 1000.0, 40.0, 1.0), 4, 80.0, True),  # as many pairs as `FINER_PAIRS` outweigh it
        ((1000.0, 1000.0, 40.0, 1.0), 2, 260.0, True),  # the same dice measured a little smaller
        ((1000.0, 1000.0, 40.0, 0.0), 2, 80.0, True),  # a light blob there is no dark pip seen again
        ((1000.0, 1000.0, 12.0, 1.0), 2, 80.0, True),  # a smaller blob there is one of a die's several pips
        ((1040.0, 1000.0, 40.0, 1.0), 2, 80.0, True),  # beside it, not on it
    ],
)
def test_lone_pips_a_finer_copy_sees_again_weigh_as_pairs_against_it(again, pairs, die, replaced):
    """`_outweighs` with the blobs each copy saw (`_Estimate.blobs`, frame pixels: x, y, diameter, dark):
    a coarser copy's lone dark pip of 40 px, a die of 286 px, and a finer copy that measured dice `die` px
    wide on `pairs` pips with a like-sized neighbour (specks) far from it, and saw `again` besides."""
    one = np.array([[1000.0, 1000.0, 40.0, 1.0]])
    specks = np.array([[300.0, 2000.0, 11.0, 1.0], [330.0, 2000.0, 11.0, 1.0]])
    coarser = _Estimate(286.0, 0, 1, one, one)
    finer = _Estimate(die, pairs, 0, np.vstack([specks, [again]]))
    assert FINER_PAIRS == 4  # the cases above are worked out for it
    assert _outweighs(finer, coarser, None, 0.14) is replaced


@pytest.mark.parametrize(
    ("inner", "offset", "dark", "whole"),
    [
        (5.0, 0.0, False, True),  # a dark pip on a light die
        (5.0, 14.0, False, True),  # anywhere on it: a two's pip lies off its centre
        (5.0, 0.0, True, False),  # a darker spot on a dark blob: no die's pip
        (5.0, 20.0, False, False),  # beside the blob, not on it
        (15.0, 0.0, False, False),  # too large for its pip: a light ring round a dark blob
        (2.0, 0.0, False, False),  # too small for its pip
    ],
)
def test_a_blob_with_a_pip_of_the_other_polarity_on_it_is_a_die_taken_whole(inner, offset, dark, whole):
    """`_dice_taken_whole`: a 36 px blob (light, where `dark` is False) and a dark blob `inner` px wide
    `offset` px from its centre; a die's pip is `pip_size` (0.14) of it, 5 px."""
    pips = pips_at([(60.0, 60.0), (60.0 + offset, 60.0)], [36.0, inner])
    pips.dark[0] = dark
    gaps = np.abs(pips.x[:, None] - pips.x[None, :])
    taken, on_them = _dice_taken_whole(pips, gaps, 0.14)
    assert taken.tolist() == [whole, False]
    assert on_them.tolist() == [False, whole]


@pytest.mark.parametrize(
    "coarser, finer, bodies, replaced",
    [
        ((None, 0, 0), (60.0, 2, 0), None, True),  # the coarser copy saw nothing
        ((300.0, 0, 0), (60.0, 2, 0), None, True),  # its lone pips, unresolved, rest on nothing
        ((300.0, 0, 5), (60.0, 2, 0), None, False),  # a pair of specks beside a hand of five ones
        ((300.0, 0, 5), (60.0, 5, 0), None, True),
        ((300.0, 0, 4), (60.0, 2, 0), 50.0, True),  # bodies agreeing with the finer copy overrule lone pips
        ((300.0, 0, 4), (60.0, 2, 0), 250.0, False),
        ((72.5, 0, 0), (62.8, 0, 4), None, True),  # a finer copy's hand of ones outweighs nothing
        ((100.0, 6, 0), (50.0, 20, 0), None, False),  # against pairs, several times as many are needed
        ((100.0, 6, 0), (50.0, 24, 0), None, True),
        ((50.0, 0, 0), (60.0, 8, 0), None, False),  # a finer copy only ever measures smaller dice
        ((701.0, 3, 0), (115.8, 6, 0), None, True),  # its 98 px pips were the finer copy's dice: three twos
        ((701.0, 3, 0), (160.0, 8, 0), None, False),  # pips under two thirds of the finer copy's dice
        ((300.0, 3, 0), (115.8, 8, 0), None, False),
        ((940.0, 2, 0), (130.6, 3, 0), None, False),  # twice as many, as each die shows two pips but a 1
    ],
)
def test_a_finer_copy_s_die_size_replaces_a_coarser_one_only_on_more_evidence(
    coarser, finer, bodies, replaced
):
    """`_outweighs`: (die, pips with a like-sized neighbour, lone pips of one size the copy resolved)."""
    witnesses = None
    if bodies is not None:
        witnesses = Bodies(
            np.array([[100.0, 100.0], [400.0, 100.0], [250.0, 300.0]]), bodies, np.full(3, bodies)
        )
    estimates = _Estimate(*coarser), _Estimate(*finer)
    pip_size = DEFAULT_PARAMS["pip_size"]
    assert pip_size == 0.14  # the cases above are worked out for it
    assert _outweighs(estimates[1], estimates[0], witnesses, pip_size) is replaced


@pytest.mark.parametrize(
    ("bodies_at", "ones"), [(None, 7), ([(1070, 815), (135, 1480), (1455, 1480)], 0), (SPECKS[:3], 3)]
)
def test_lone_pips_count_as_ones_only_on_die_bodies_where_bodies_are_witnessed(bodies_at, ones):
    """`_estimate_die` on the 1280 px copy: without bodies every lone pip alike in size counts (white dice
    on pale wood stand out as no body); with bodies, only the pips that lie on one."""
    gray = cv2.cvtColor(dark_die_on_a_dusty_board(), cv2.COLOR_BGR2GRAY)
    bodies = None
    if bodies_at is not None:
        bodies = Bodies(np.array(bodies_at, float), 62.0, np.full(len(bodies_at), 62.0))
    estimate = SIZER._estimate_die(gray, 13.0, 1600, 1280, bodies=bodies)
    assert (estimate.pairs, estimate.ones) == (0, ones)


@pytest.mark.parametrize("coarse, confirmed", [(72.5, False), (110.0, True)])
def test_bodies_confirm_the_coarse_copy_s_die_size_only_when_it_resolved_the_pips_it_measured(
    monkeypatch, coarse, confirmed
):
    """matteop65 from 3x as far: the 320 px copy of a 1920x1440 frame measured dice of 72.5 px from pips
    2.3 px wide there, the least blob it sees, for dice of about 50 px; bodies of 50 to 100 px, which take
    in a die's shadow and side face, confirmed it. Pips that small are no measure, so the finer copy is
    asked and its pips tell the dice. Dice of 110 px have pips of 3.4 px in that copy: bodies confirm
    them, and no finer copy is asked. (The copies go on to 1280 px, the finest under the frame's side, and
    the 640 px copy that found the size measures it again with a black-hat a few dice wide.)"""
    asked = []

    def estimate(self, gray, threshold, short_side, copy, kernel=None, bodies=None):
        asked.append(copy)
        return _Estimate(coarse, 6, 0) if copy == 320 else _Estimate(50.0, 40, 0)

    monkeypatch.setattr(DieSizer, "_estimate_die", estimate)
    gray = np.zeros((1440, 1920), np.uint8)
    bodies = Bodies(np.array([[400.0, 400.0], [700.0, 500.0], [900.0, 800.0]]), coarse, np.full(3, coarse))
    die = SIZER.die_px(gray, 20.0, 1440, bodies)
    assert (die, asked) == ((coarse, [320]) if confirmed else (50.0, [320, 640, 1280, 640]))


@pytest.mark.parametrize(("body", "die"), [(15.0, 150.0), (80.0, 956.0)])
def test_bodies_smaller_than_the_least_die_believed_witness_no_die_size(monkeypatch, body, die):
    """matteop65 dice_16 turned 90, from 3x as far, as a Pi still (3280x4373): the 320 px copy took one of
    two ones, about 150 px wide, for the lone pip of a die 956 px wide. The 640 px copy saw both ones' pips,
    lone and alike, but bodies of 15 px, specks of the wood's grain, were witnessed and the pips lay on
    none, so they were no ones and did not outweigh the coarser copy: [1, 1] was read as [2, 2]. Bodies
    under the least die believed (2% of the short side, 66 px) are no dice and witness nothing; bodies of
    a die's size still do."""

    def estimate(self, gray, threshold, short_side, copy, kernel=None, bodies=None):
        if copy == 320:
            return _Estimate(956.0, 0, 1)
        return _Estimate(150.0, 0, 0 if bodies is not None else 2)

    monkeypatch.setattr(DieSizer, "_estimate_die", estimate)
    gray = np.zeros((4373, 3280), np.uint8)
    bodies = Bodies(np.array([[400.0, 400.0], [700.0, 500.0], [900.0, 800.0]]), body, np.full(3, body))
    assert SIZER.die_px(gray, 20.0, 3280, bodies) == die


@pytest.mark.parametrize(("sizes", "confirmed"), [((51.0, 136.0), False), ((100.0, 110.0), True)])
def test_only_bodies_alike_in_size_confirm_the_coarse_copys_die_size(monkeypatch, sizes, confirmed):
    """matteop65 five_47 from 3x as far: five dice of about 50 px in a 1920x1440 frame. The 320 px copy saw
    no pip pairs, only two lone blobs alike, 3.3 px wide there: dice of 106.5 px. Two bodies were found, a
    die of 51 px and a heap of 136 px that could not be split, and their typical size, 93.6, between the
    two, confirmed 106.5: all five dice were read as ones. A die and a heap measure no size together, so
    the finer copies are asked and their pips tell the dice. Two bodies of one size still confirm it."""
    asked = []

    def estimate(self, gray, threshold, short_side, copy, kernel=None, bodies=None):
        asked.append(copy)
        return _Estimate(106.5, 0, 2) if copy == 320 else _Estimate(50.0, 40, 0)

    monkeypatch.setattr(DieSizer, "_estimate_die", estimate)
    gray = np.zeros((1440, 1920), np.uint8)
    bodies = Bodies(np.array([[400.0, 400.0], [900.0, 800.0]]), sum(sizes) / 2, np.array(sizes))
    die = SIZER.die_px(gray, 20.0, 1440, bodies)
    assert (die, asked) == ((106.5, [320]) if confirmed else (50.0, [320, 640, 1280, 640]))


@pytest.mark.parametrize(
    ("frame", "again", "die"),
    [
        ((1440, 1920), (54.4, 17, 0), 54.4),  # dice 3.6% of the frame: a fifth of it is 5.6 dice
        ((1440, 1920), (40.0, 0, 3), 51.3),  # no pips paired up with the narrower black-hat: the first stands
        ((1440, 1920), (None, 0, 0), 51.3),
        ((480, 640), (54.4, 17, 0), 72.5),  # no finer copy was asked: nothing is measured again
    ],
)
def test_a_size_a_finer_copy_found_is_measured_again_with_a_black_hat_a_few_dice_wide(
    monkeypatch, frame, again, die
):
    """matteop65 three_34 from 3x as far (1920x1440): the 640 px copy measured dice of 51.3 px with its
    black-hat a fifth of its short side wide, 5.6 dice; measured again there with one `KERNEL_DICE` dice
    wide, 54.4 (57.3 in the photo as taken), and its side face below a three was dropped as one."""
    asked = []

    def estimate(self, gray, threshold, short_side, copy, kernel=None, bodies=None):
        asked.append((copy, kernel))
        if kernel is not None:
            return _Estimate(*again)
        return _Estimate(72.5, 4, 0) if copy == 320 else _Estimate(51.3, 17, 0)

    monkeypatch.setattr(DieSizer, "_estimate_die", estimate)
    gray = np.zeros(frame, np.uint8)
    measured = SIZER.die_px(gray, 20.0, min(frame), None)
    assert measured == pytest.approx(die)
    if min(frame) > 2 * ESTIMATE_SHORT_SIDE:
        shrink = 640 / min(frame)
        assert asked[-1] == (640, pytest.approx(KERNEL_DICE * 51.3 * shrink))
    else:
        assert all(kernel is None for _, kernel in asked)


def test_a_size_measured_on_lone_pips_is_not_measured_again(monkeypatch):
    """matteop65 dice_27 from 3x as far, as a Pi still (3280x2460): the 640 px copy measured three ones of
    about 105 px at 98 px by their seven lone pips. Measured again with a narrower black-hat, their side
    faces' smaller pips paired up as 76 px dice, and a side face's two was read as a die."""
    asked = []

    def estimate(self, gray, threshold, short_side, copy, kernel=None, bodies=None):
        asked.append((copy, kernel))
        if kernel is not None:
            return _Estimate(75.9, 3, 0)
        return {320: _Estimate(None, 0, 0), 640: _Estimate(98.0, 0, 7)}.get(copy, _Estimate(99.2, 5, 0))

    monkeypatch.setattr(DieSizer, "_estimate_die", estimate)
    die = SIZER.die_px(np.zeros((2460, 3280), np.uint8), 7.0, 2460, None)
    assert (die, asked) == (98.0, [(320, None), (640, None), (1280, None)])

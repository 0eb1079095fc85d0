"""The simulated tray: valid frames, dice where it says they are, holds respected, motion before rest."""

import math

import cv2
import numpy as np
import pytest

from vision.simtray import SimDie, SimulatedTray
from vision.sources import FrameSource


def test_frames_are_bgr_of_the_requested_size():
    with SimulatedTray(320, 240, seed=1) as tray:
        frame = tray.read()
    assert isinstance(tray, FrameSource)
    assert frame.shape == (240, 320, 3) and frame.dtype == np.uint8


def test_same_seed_same_dice():
    assert SimulatedTray(seed=7).dice == SimulatedTray(seed=7).dice


@pytest.mark.parametrize("count", [5, 6])
def test_dice_are_on_the_floor_and_do_not_overlap(count):
    for seed in range(10):
        tray = SimulatedTray(dice_count=count, seed=seed)
        x0, y0, x1, y1 = tray.tray
        centers = [die.center for die in tray.dice]
        assert len(centers) == count
        for x, y in centers:
            assert x0 * tray.width < x < x1 * tray.width and y0 * tray.height < y < y1 * tray.height
        for i, a in enumerate(centers):
            for b in centers[i + 1 :]:
                assert math.dist(a, b) >= tray.die_px * math.sqrt(2)


def test_values_are_left_to_right_and_in_range():
    tray = SimulatedTray(seed=3)
    xs = [die.center[0] for die in tray.dice]
    assert xs == sorted(xs)
    assert all(1 <= v <= 6 for v in tray.values)


def count_dark_blobs(frame, die, die_px):
    """Pips of one die: dark blobs inside its face, found the plain way."""
    upright = cv2.warpAffine(frame, cv2.getRotationMatrix2D(die.center, die.angle, 1.0), frame.shape[1::-1])
    half = int(die_px * 0.42)
    x, y = int(die.center[0]), int(die.center[1])
    patch = cv2.cvtColor(upright[y - half : y + half, x - half : x + half], cv2.COLOR_BGR2GRAY)
    _, dark = cv2.threshold(patch, 100, 255, cv2.THRESH_BINARY_INV)
    count, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    return sum(1 for area in stats[1:, cv2.CC_STAT_AREA] if area >= 4)


@pytest.mark.parametrize(
    "seed, values", [(11, [1, 2, 3, 4, 5]), (12, [6, 5, 4, 3, 2]), (13, [6, 1, 6, 1, 6])]
)
def test_drawn_pips_match_the_values(seed, values):
    with SimulatedTray(seed=seed) as tray:
        tray.set_values(values)
        frame = tray.read()
        assert [count_dark_blobs(frame, die, tray.die_px) for die in tray.dice] == values


def test_roll_keeps_held_dice_and_moves_the_others():
    tray = SimulatedTray(seed=5)
    before = tray.dice
    tray.roll(held=[0, 2])
    after = tray.dice
    for held in (before[0], before[2]):
        assert held in after
    assert sum(die in after for die in before) == 2


def test_roll_shows_motion_before_settling():
    with SimulatedTray(seed=9, moving_frames=3) as tray:
        rest = tray.read()
        tray.roll()
        assert tray.moving
        motion = [tray.read() for _ in range(3)]
        assert not tray.moving
        settled = [tray.read(), tray.read()]
    assert all(np.abs(m.astype(int) - rest).mean() > 1 for m in motion)
    # once at rest, consecutive frames differ only by sensor noise
    assert np.abs(settled[0].astype(int) - settled[1]).mean() < 6


def test_set_values_and_bad_input():
    tray = SimulatedTray(seed=2)
    tray.set_values([6, 6, 6, 6, 6])
    assert tray.values == [6, 6, 6, 6, 6]
    with pytest.raises(ValueError, match="expected 5 values"):
        tray.set_values([1, 2])
    with pytest.raises(ValueError, match="1..6"):
        tray.set_values([1, 2, 3, 4, 7])
    with pytest.raises(ValueError, match="held positions"):
        tray.roll(held=[5])
    with pytest.raises(ValueError, match="1 to 6 dice"):
        SimulatedTray(dice_count=7)
    with pytest.raises(ValueError, match="expected 5 dice"):
        tray.place([SimDie(1, (100.0, 100.0), 0.0)])


def test_placed_dice_lie_where_they_are_put():
    tray = SimulatedTray(seed=2)
    tray.open()
    spots = [(100.0 + 100 * i, 200.0 + 20 * i) for i in range(5)]
    tray.place([SimDie(value, spot, 0.0) for value, spot in zip([3, 1, 4, 1, 5], spots, strict=True)])
    assert tray.values == [3, 1, 4, 1, 5] and not tray.moving
    assert [die.center for die in tray.dice] == spots


def test_dark_dice_with_light_pips():
    with SimulatedTray(seed=4, dice_colour=(60, 30, 30), pip_colour=(240, 240, 240)) as tray:
        tray.set_values([2, 2, 2, 2, 2])  # the centre of a 2 is bare face
        frame = tray.read()
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for die in tray.dice:
        x, y = (int(round(c)) for c in die.center)
        face = gray[y - 2 : y + 3, x - 2 : x + 3].mean()
        assert face < 90
        assert count_dark_blobs(255 - frame, die, tray.die_px) == 2  # inverted, the light pips are dark

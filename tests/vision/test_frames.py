"""Frames brought to what the reader expects: an underexposed frame is brightened (`exposed`), a tinted one
has its whites made gray (`balanced`), a speckled one has its lone pixels replaced by their neighbours'
median, or is refused (`despeckled`)."""

import math

import cv2
import numpy as np
import pytest

from vision.frames import (
    COLOUR_SPREAD,
    MAX_GAIN,
    WHITE_LEVEL,
    balanced,
    despeckled,
    exposed,
    levels_at,
    resize,
)


def scene(white):
    """A table of level 0.6 of `white`, with dice and pips covering 2% of it at `white`."""
    frame = np.full((240, 320, 3), round(0.6 * white), np.uint8)
    frame[100:110, 40:136] = white
    return frame


def test_a_well_exposed_frame_is_left_as_it_is():
    frame = scene(230)
    assert exposed(frame) is frame


def test_a_frame_nearly_well_exposed_is_left_as_it_is():
    frame = scene(int(WHITE_LEVEL) - 5)
    assert exposed(frame) is frame


def test_an_underexposed_frame_is_scaled_up_to_the_white_level():
    """A frame at 0.55 of a good exposure: its levels scaled alike, as a longer exposure scales them."""
    brightened = exposed(scene(120))
    assert abs(int(brightened[105, 50, 0]) - WHITE_LEVEL) <= 1
    assert abs(int(brightened[10, 10, 0]) - 0.6 * WHITE_LEVEL) <= 2


def test_a_dark_frame_is_brightened_by_a_stop_at_most():
    brightened = exposed(scene(40))
    assert int(brightened[105, 50, 0]) == MAX_GAIN * 40


def test_the_white_level_is_the_brightest_half_percent_not_the_brightest_pixel():
    """One glint at full scale does not make a dim frame well exposed."""
    frame = scene(120)
    frame[0, 0] = 255
    assert exposed(frame) is not frame


WOOD = (90, 140, 190)  # BGR


def tinted(frame, blue, red):
    """`frame` as a camera whose white balance was set for other light sees it: blue and red scaled."""
    return np.clip(frame * np.array([blue, 1.0, red]), 0, 255).astype(np.uint8)


def white_dice_on_wood(white=200):
    """A wooden table (`WOOD`) with white dice covering 2% of it."""
    frame = np.full((240, 320, 3), WOOD, np.uint8)
    frame[100:110, 40:136] = white
    return frame


def test_a_frame_whose_whites_are_gray_is_left_as_it_is():
    frame = white_dice_on_wood()
    assert balanced(frame) is frame


def test_a_tint_too_slight_for_the_colour_test_is_left_as_it_is():
    """Whites spread under `COLOUR_SPREAD` levels: the reader would see no colour on a white die there."""
    frame = tinted(white_dice_on_wood(), 1.08, 0.92)
    assert int(frame[105, 50].max()) - int(frame[105, 50].min()) < COLOUR_SPREAD
    assert balanced(frame) is frame


@pytest.mark.parametrize(("blue", "red"), [(1.2, 0.8), (0.75, 1.2)])
def test_a_tinted_frame_has_its_whites_made_gray_and_its_colours_kept_beside_them(blue, red):
    """A cool or a warm tint: the dice are gray again, the table as much browner than them as before."""
    frame = balanced(tinted(white_dice_on_wood(), blue, red))
    die, table = frame[105, 50].astype(float), frame[10, 10].astype(float)
    assert die.max() - die.min() <= 1
    assert np.allclose(table / die, np.array(WOOD) / 200, atol=0.02)


def test_a_brightest_part_more_coloured_than_any_light_keeps_its_colour():
    """A red tray brighter than its dark dice: no light tints a white this red, so the red is the tray's."""
    frame = np.full((240, 320, 3), (40, 50, 220), np.uint8)
    frame[100:110, 40:136] = 30
    assert balanced(frame) is frame


def test_levels_are_read_off_the_histogram():
    """Levels 0 to 99 once each: half of the pixels are at level 49 or below, 99% at 98 or below."""
    image = np.arange(100, dtype=np.uint8).reshape(10, 10)
    assert list(levels_at(image, (0.0, 0.5, 0.99))) == [0, 49, 98]


def test_levels_of_a_strided_sample_and_of_picked_pixels_are_theirs_alone():
    """The reader reads levels off every few pixels of a frame and off the pixels near its dice: the level
    below which a share lies is the smallest one at least that share of those pixels (and no others) reach."""
    image = np.random.default_rng(3).integers(0, 256, (60, 80), dtype=np.uint8)
    shares = (0.01, 0.5, 0.99)
    for pixels in (image[::3, ::2], image[image % 3 == 0]):
        ordered = np.sort(pixels.ravel())
        expected = [int(ordered[math.ceil(share * ordered.size) - 1]) for share in shares]
        assert list(levels_at(pixels, shares)) == expected
    assert list(levels_at(image[:0], shares)) == [0, 0, 0]  # no pixels: no levels, and no error


@pytest.mark.parametrize(
    ("shape", "scale", "expected"), [((480, 1), 0.25, (120, 1)), ((3, 640), 0.1, (1, 64))]
)
def test_a_shrink_to_one_pixel_across_keeps_that_pixel(shape, scale, expected):
    """Halving stops before a side would be empty (OpenCV refuses to resize an empty image)."""
    assert resize(np.full(shape, 200, np.uint8), scale).shape == expected


def speckled(frame, share, seed=3):
    """`frame` with `share` of its pixels set white or black at random: a failing sensor's salt and pepper."""
    rng = np.random.default_rng(seed)
    hit = rng.random(frame.shape[:2]) < share
    out = frame.copy()
    out[hit] = np.where(rng.random(int(hit.sum())) < 0.5, 255, 0)[:, None]
    return out


def test_a_frame_without_lone_pixels_is_left_as_it_is():
    """Sensor noise on a plain tray, sharp edges and a pip are a scene's own, and a few dead pixels are not
    enough to replace any pixel: only a share of pixels far from all their neighbours is."""
    noise = np.random.default_rng(1).normal(0, 12, (240, 320, 3))
    frame = np.clip(scene(230) + noise, 0, 255).astype(np.uint8)
    cv2.circle(frame, (200, 60), 6, (20, 20, 20), -1)
    assert despeckled(frame) is frame
    speckles = speckled(frame, 0.002)
    assert despeckled(speckles) is speckles


@pytest.mark.parametrize("share", [0.01, 0.1])
def test_the_specks_of_salt_and_pepper_are_replaced_by_their_neighbours_median(share):
    clean = scene(230)
    cleaned = despeckled(speckled(clean, share))
    wrong = np.count_nonzero((cleaned != clean).any(axis=2))
    assert wrong < 0.02 * share * clean.shape[0] * clean.shape[1]  # of the specks, only a few that clump


def test_a_frame_still_speckled_once_its_lone_pixels_are_replaced_is_refused():
    assert despeckled(speckled(scene(230), 0.25)) is None

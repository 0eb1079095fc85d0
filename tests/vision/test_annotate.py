"""The admin view draws dice, doubtful dice, unreadable regions, the tray and the frame's problem."""

import numpy as np

from vision.annotate import DOUBTFUL, SURE, TRAY, UNREADABLE, annotate
from vision.profile import CalibrationProfile
from vision.reading import Die, Reading, Region


def _drawn(image, colour):
    """The pixels of `image` in exactly `colour`: what annotate drew in it."""
    return np.all(image == np.array(colour, np.uint8), axis=2)


def _has(image, colour):
    return bool(_drawn(image, colour).any())


def test_draws_every_element_in_its_colour_without_touching_the_input():
    frame = np.full((480, 640, 3), 128, np.uint8)
    reading = Reading(
        dice=(Die(5, (100.0, 100.0), 50.0, 10.0, 0.9), Die(2, (300.0, 200.0), 50.0, 0.0, 0.2)),
        unreadable=(Region((500.0, 300.0), 50.0, "cut by the frame edge"),),
        frame_size=(640, 480),
    )
    profile = CalibrationProfile(tray=(0.1, 0.1, 0.9, 0.9))
    image = annotate(frame, reading, profile)
    assert image.shape == frame.shape and image.dtype == np.uint8
    for colour in (SURE, DOUBTFUL, UNREADABLE, TRAY):
        assert _has(image, colour)
    assert np.all(frame == 128)


def test_a_frame_that_could_not_be_read_still_gives_an_image():
    reading = Reading(frame_size=(0, 0), problem="no frame")
    image = annotate(None, reading)
    assert image.ndim == 3 and image.shape[2] == 3
    assert _has(image, UNREADABLE)


def test_grayscale_frames_are_drawn_in_colour():
    frame = np.full((240, 320), 200, np.uint8)
    reading = Reading(dice=(Die(3, (160.0, 120.0), 40.0, 0.0, 1.0),), frame_size=(320, 240))
    image = annotate(frame, reading)
    assert image.shape == (240, 320, 3) and _has(image, SURE)


def test_a_long_problem_is_wrapped_within_the_frame():
    """The end of a problem says what to do: cut off at the frame's right edge, it would be lost."""
    frame = np.full((240, 320, 3), 128, np.uint8)
    problem = "the tray region (1x480 px) is narrower than a die (240 px): set the tray again"
    short = annotate(frame, Reading(frame_size=(320, 240), problem="no dice found"))
    image = annotate(frame, Reading(frame_size=(320, 240), problem=problem))
    assert not _drawn(image, UNREADABLE)[:, -8:].any()  # nothing drawn in the margin at the right edge
    assert _text_rows(image) > 1.5 * _text_rows(short)  # on more than one line


def _text_rows(image):
    rows = np.flatnonzero(_drawn(image, UNREADABLE).any(axis=1))
    return rows.max() - rows.min() + 1

import cv2
import numpy as np
import pytest

from tests.vision.test_reader import draw_dice
from vision.reader import DiceReader
from vision.smear import smeared_three

SMOKY = (48, 45, 45)  # BGR: a smoky black die
RED_PIP = (25, 25, 80)  # as dark as the face in gray, red in hue
SIDE = 33


def camera(image, quality=75):
    """`image` as a phone saves it: its colour smoothed against noise, then JPEG at half its resolution."""
    ycrcb = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    ycrcb[:, :, 1:] = cv2.GaussianBlur(ycrcb[:, :, 1:], (0, 0), 2.0)
    smoothed = cv2.cvtColor(ycrcb, cv2.COLOR_YCrCb2BGR)
    _, data = cv2.imencode(".jpg", smoothed, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def draw_face(frame, centre, spots, face=SMOKY):
    """Draw a die face `SIDE` wide at `centre` on `frame`, red pips a fifth of a side wide at `spots`
    (shares of the side from its centre)."""
    centre = np.array(centre, float)
    corner = (centre - SIDE / 2).astype(int)
    cv2.rectangle(frame, tuple(corner), tuple(corner + SIDE), face, -1)
    for spot in spots:
        x, y = centre + np.array(spot) * SIDE
        cv2.circle(frame, (int(round(x)), int(round(y))), 3, RED_PIP, -1, cv2.LINE_AA)


def face_with(spots, face=SMOKY):
    """A die face on a pale table, pips at `spots`, saved as a camera does; returns the face's square crop
    as the reader takes it from a die body."""
    frame = np.full((96, 96, 3), (190, 192, 195), np.uint8)
    draw_face(frame, (48, 48), spots, face=face)
    half = SIDE // 2
    return camera(frame)[48 - half : 48 + half + 1, 48 - half : 48 + half + 1]


THREE = [(-0.22, -0.22), (0.0, 0.0), (0.22, 0.22)]


def test_a_three_whose_red_pips_ran_together_is_one_bar_along_the_diagonal():
    bar = smeared_three(face_with(THREE))
    assert bar is not None
    assert abs(abs(bar.angle) - 45) < 10
    assert 3 <= bar.width <= 10  # about a pip's width, not the die's


@pytest.mark.parametrize(
    "spots",
    [
        [(-0.3, -0.3), (0.3, 0.3)],  # a two: its pips lie too far apart to run together
        [(0.0, 0.0)],  # a one: a round spot
        [(-0.25, -0.25), (0.25, -0.25), (0.0, 0.0), (-0.25, 0.25), (0.25, 0.25)],  # a five: a cross
        [(-0.25, y) for y in (-0.25, 0.0, 0.25)] + [(0.25, y) for y in (-0.25, 0.0, 0.25)],  # a six: two bars
    ],
    ids=["two", "one", "five", "six"],
)
def test_other_faces_are_no_bar(spots):
    assert smeared_three(face_with(spots)) is None


def test_a_glint_across_a_green_die_is_no_bar():
    """A white streak across a green die is redder than the face in a*, but lighter than it."""
    green = face_with([], face=(60, 150, 40))
    cv2.line(green, (8, 8), (SIDE - 9, SIDE - 9), (235, 240, 240), 3, cv2.LINE_AA)
    assert smeared_three(camera(green)) is None


def test_a_face_of_one_hue_holds_no_bar():
    assert smeared_three(face_with([], face=(200, 200, 200))) is None


def test_a_smoky_die_whose_three_ran_together_is_read_beside_other_dice():
    """The reader finds the smoky die's body, reads no pips on it in any channel (the bar is no round pip),
    and reads the bar as its three."""
    frame, _ = draw_dice([5, 6, 4], die=44, face=225, pip=30, floor=(185, 190, 195))
    draw_face(frame, (320, 380), THREE)
    reading = DiceReader().read(camera(frame))
    assert sorted(reading.values) == [3, 4, 5, 6]

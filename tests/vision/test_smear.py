import cv2
import numpy as np
import pytest

from tests.vision.test_reader import draw_dice
from vision.faces import Face
from vision.reader import DiceReader
from vision.smear import smeared_face

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


def body_crop(frame):
    """The square crop the reader takes from the die body drawn at the middle of the 96 px `frame`, saved as a
    camera does."""
    half = SIDE // 2
    return camera(frame)[48 - half : 48 + half + 1, 48 - half : 48 + half + 1]


def face_with(spots, face=SMOKY):
    """A die face on a pale table, pips at `spots`, as the reader crops it from a die body."""
    frame = np.full((96, 96, 3), (190, 192, 195), np.uint8)
    draw_face(frame, (48, 48), spots, face=face)
    return body_crop(frame)


THREE = [(-0.22, -0.22), (0.0, 0.0), (0.22, 0.22)]
SIX = [(x, y) for x in (-0.25, 0.25) for y in (-0.25, 0.0, 0.25)]


def test_a_three_whose_red_pips_ran_together_is_one_bar_along_the_diagonal():
    smear = smeared_face(face_with(THREE))
    assert smear is not None and smear.value == 3
    assert min(smear.angle, 90 - smear.angle) < 10  # the bar lies along the diagonal of a square face
    assert 3 <= smear.width <= 10  # about a pip's width, not the die's


def test_a_six_whose_red_pips_ran_together_is_two_rows_side_by_side():
    smear = smeared_face(face_with(SIX))
    assert smear is not None and smear.value == 6
    assert min(smear.angle, 90 - smear.angle) < 10  # the rows lie along the face's sides
    assert 3 <= smear.width <= 10


@pytest.mark.parametrize(("spots", "value"), [(THREE, 3), (SIX, 6)], ids=["three", "six"])
def test_bars_read_alike_on_a_die_photographed_three_times_as_wide(spots, value):
    """A large crop is read shrunk, for speed: the bars of an enlarged photo stay bars."""
    face = face_with(spots)
    large = cv2.resize(face, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    smear = smeared_face(large)
    assert smear is not None and smear.value == value
    assert smear.width == pytest.approx(3 * smeared_face(face).width, rel=0.25)


@pytest.mark.parametrize(
    "spots",
    [
        [(-0.3, -0.3), (0.3, 0.3)],  # a two: its pips lie too far apart to run together
        [(0.0, 0.0)],  # a one: a round spot
        [(-0.25, -0.25), (0.25, -0.25), (0.0, 0.0), (-0.25, 0.25), (0.25, 0.25)],  # a five: a cross
        [(x, y) for x in (-0.25, 0.25) for y in (-0.25, 0.25)],  # a four: its rows' pips stay apart
    ],
    ids=["two", "one", "five", "four"],
)
def test_other_faces_are_no_bar(spots):
    assert smeared_face(face_with(spots)) is None


def test_a_blob_wider_than_a_pip_is_no_bar():
    """A red blob along the diagonal, long enough for a three's bar but a third of a side wide: the dark face
    between a two's light pips, which is redder than they are, is such a blob (nell-byler 095453, a purple die
    read as a two), and no three's pips ran into it."""
    frame = np.full((96, 96, 3), (190, 192, 195), np.uint8)
    draw_face(frame, (48, 48), [])
    cv2.line(frame, (41, 41), (55, 55), RED_PIP, 11, cv2.LINE_AA)
    assert smeared_face(body_crop(frame)) is None


def test_a_glint_across_a_green_die_is_no_bar():
    """A white streak across a green die is redder than the face in a*, but lighter than it."""
    green = face_with([], face=(60, 150, 40))
    cv2.line(green, (8, 8), (SIDE - 9, SIDE - 9), (235, 240, 240), 3, cv2.LINE_AA)
    assert smeared_face(camera(green)) is None


def test_a_redder_streak_on_a_red_die_is_no_bar():
    """A red die's face holds redder streaks of its own beside its pips (nell-byler 111411, a red two with
    yellow pips, enlarged): pips differ from their face in hue alone only on a face of no hue of its own."""
    frame = np.full((96, 96, 3), (190, 192, 195), np.uint8)
    draw_face(frame, (48, 48), [], face=(90, 90, 160))
    cv2.line(frame, (41, 41), (55, 55), (0, 0, 200), 2, cv2.LINE_AA)
    assert smeared_face(body_crop(frame)) is None


def test_a_face_of_one_hue_holds_no_bar():
    assert smeared_face(face_with([], face=(200, 200, 200))) is None


def test_a_smoky_die_whose_three_ran_together_is_read_beside_other_dice():
    """The reader finds the smoky die's body, reads no pips on it in any channel (the bar is no round pip),
    and reads the bar as its three."""
    frame, _ = draw_dice([5, 6, 4], die=44, face=225, pip=30, floor=(185, 190, 195))
    draw_face(frame, (320, 380), THREE)
    reading = DiceReader().read(camera(frame))
    assert sorted(reading.values) == [3, 4, 5, 6]


def test_a_smoky_die_whose_six_ran_together_is_read_beside_other_dice():
    """The two rows are no round pips either: the reader reads the smoky die's body as a six from them."""
    frame, _ = draw_dice([5, 6, 4], die=44, face=225, pip=30, floor=(185, 190, 195))
    draw_face(frame, (320, 380), SIX)
    reading = DiceReader().read(camera(frame))
    assert sorted(reading.values) == [4, 5, 6, 6]


@pytest.mark.parametrize(
    ("spots", "pips_read", "expected"),
    [(SIX, 4, 6), (SIX, None, 6), (THREE, 2, 3), (THREE, 5, 5)],
    ids=["six-over-its-corners", "six-on-a-blank-body", "three-over-two-of-its-pips", "five-stands"],
)
def test_bars_of_more_pips_than_a_body_reads_replace_its_reading(monkeypatch, spots, pips_read, expected):
    """Where a six's middle pips ran into its rows, the pips read are its four corners, whose gaps are the
    widest (nell-byler 112517): the rows tell the six, as a three's bar does where two of its pips were read
    (112426). Bars of fewer pips than were read replace nothing."""
    frame = np.full((96, 96, 3), (190, 192, 195), np.uint8)
    draw_face(frame, (48, 48), spots)
    image = camera(frame)
    read = None if pips_read is None else Face((), pips_read, (48.0, 48.0), SIDE, 0.0, 0.9)
    reader = DiceReader()
    monkeypatch.setattr(reader.body_reader, "_read_body_sized", lambda *args: read)
    face = reader.body_reader.read_body(
        cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), image, np.array([48.0, 48.0]), SIDE
    )
    assert face.value == expected

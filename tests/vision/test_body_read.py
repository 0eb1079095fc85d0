"""Die bodies read again in crops at their own size (`vision.body_read`): dice of a smaller set, coloured or
light pips faint in gray, and faces read low."""

import cv2
import numpy as np
import pytest

import vision.body_read as body_read_module
from tests.vision.test_faces import unequally_round_two
from tests.vision.test_reader import PIP_SPOTS, draw_dice
from vision.body import BODY_CENTRE_SHARE, Bodies, find_bodies
from vision.body_read import OFF_CENTRE_SHARE, BodyReader
from vision.faces import Face, group_faces
from vision.reader import DiceReader


def pip_places(value: int, centre, die: float) -> list[tuple[int, int]]:
    """Where `draw_dice` puts the pips of `value` on an unturned die `die` pixels wide at `centre`, rounded
    to whole pixels for `cv2.circle`."""
    places = np.array(centre, float) + np.array(PIP_SPOTS[value], float) * die * 0.27
    return [(int(round(x)), int(round(y))) for x, y in places]


def test_a_body_whose_nearest_face_another_body_took_over_is_read_as_a_die_of_its_own(monkeypatch):
    """Two touching dice, two bodies (nell-byler 112353: a green four with yellow pips beside a blue one):
    the four reads low in gray, as a two between both bodies, so each body's nearest face is that two. The
    four's body, read again, replaces it with a four; the one's body then has no face of its own (the two it
    was nearest now stands elsewhere, as the four) and is read too, rather than passed over as the two's."""
    bodies = Bodies(np.array([[194.0, 396.0], [214.0, 417.0]]), 33.5, np.full(2, 33.5))
    low_two = Face((0, 1), 2, (198.0, 401.5), 48.0, 0.0, 0.9, dark=False)
    by_body = {
        194: Face(tuple(range(4)), 4, (192.5, 399.0), 33.0, 0.0, 0.9, dark=False),
        214: Face((0,), 1, (213.0, 421.0), 33.0, 0.0, 0.6, dark=False),
    }
    reader = DiceReader(work_die_px=60.0)
    monkeypatch.setattr(
        reader.body_reader, "read_body", lambda gray, tray, center, side: by_body[int(center[0])]
    )
    frame = np.zeros((640, 640, 3), np.uint8)
    replaced, extra = reader.body_reader.read_again([low_two], bodies, frame[:, :, 0], frame, 1.0, 48.0)
    assert replaced == {id(low_two)}
    assert sorted(face.value for face in extra) == [1, 4]


def test_a_body_read_as_a_two_is_read_again_and_keeps_the_reading_with_more_pips():
    """A blue five whose three other pips were faint reads as a two; its body, read again on its own, shows
    all five. A real two read again shows no more pips and stays; a white die is not read again at all
    (gray reads white dice whole), so its wrong two stays too."""
    frame, (five, two, white) = draw_dice([5, 2, 5], face=(200, 60, 40), pip=235, floor=150)
    corner = np.intp(white) - 28
    cv2.rectangle(frame, tuple(corner), tuple(corner + 56), (235, 235, 235), -1)
    for place in pip_places(5, white, 56):
        cv2.circle(frame, place, 5, (25, 25, 25), -1, cv2.LINE_AA)
    bodies = find_bodies(frame)
    low = [Face((), 2, centre, 56.0, 0.0, 0.9, pip=10.0) for centre in (five, two, white)]
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    replaced, again = DiceReader().body_reader.read_again(low, bodies, gray, frame, 1.0, 56.0)
    assert replaced == {id(low[0])}
    assert [face.value for face in again] == [5]
    assert np.hypot(again[0].center[0] - five[0], again[0].center[1] - five[1]) < 5


@pytest.mark.parametrize(("value", "low"), [(6, 3), (5, 4), (6, 4)])
def test_a_coloured_die_read_as_a_three_or_four_is_read_again(value, low):
    """A six read as one of its columns, a five without its centre, a six without its middle pair: faint
    pips lost in gray. Read again on its own body, the die shows them all."""
    frame, (centre,) = draw_dice([value], face=(200, 60, 40), pip=235, floor=150)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    read_low = Face((), low, centre, 56.0, 0.0, 0.9, pip=10.0)
    replaced, again = DiceReader().body_reader.read_again(
        [read_low], find_bodies(frame), gray, frame, 1.0, 56.0
    )
    assert replaced == {id(read_low)}
    assert [face.value for face in again] == [value]


def test_a_die_split_into_two_bodies_is_read_again_as_one_die(monkeypatch):
    """A die whose side faces split from it holds two bodies, each read on part of it: a three on one and
    its middle pip as a one on the other, a third of a die apart (nell-byler 112404). That is one die, the
    three; two small dice side by side, a whole side apart, stay two."""
    reads = {
        (100.0, 100.0): Face((0, 1, 2), 3, (110.0, 100.0), 24.0, 0.0, 0.3),
        (120.0, 100.0): Face((1,), 1, (101.0, 100.0), 32.0, 0.0, 0.8),
        (200.0, 100.0): Face((0,), 1, (200.0, 100.0), 24.0, 0.0, 0.8),
        (224.0, 100.0): Face((0, 1), 2, (224.0, 100.0), 24.0, 0.0, 0.9),
    }
    monkeypatch.setattr(BodyReader, "read_body", lambda self, gray, tray, center, side: reads[tuple(center)])
    bodies = Bodies(np.array(list(reads)), 32.0, np.full(len(reads), 32.0))
    blank = np.zeros((300, 300), np.uint8)
    _, again = DiceReader().body_reader.read_again(
        [], bodies, blank, np.zeros((300, 300, 3), np.uint8), 1.0, 48.0
    )
    assert sorted((face.value, face.center) for face in again) == [
        (1, (200.0, 100.0)),
        (2, (224.0, 100.0)),
        (3, (110.0, 100.0)),
    ]


@pytest.mark.parametrize("bodies_hold_a_die", [False, True])
def test_a_faint_face_on_a_body_is_refused_where_no_die_read_lies_on_a_body(monkeypatch, bodies_hold_a_die):
    """White dice on pale wood stand out as no bodies; what does is clutter (matteop65 from 3x as far: a
    cable's label read as a faint one). So where no die read lies on a body, a face read faintly on a body
    with nothing on it is refused, and a sure one stands (a die by the frame's edge the whole frame missed).
    Where a die read lies on a body, the bodies are dice, and a faint face read on one stands."""
    reads = {
        100: Face((0,), 1, (100.0, 100.0), 40.0, 0.0, 0.3),  # faint: the label's bar read as a one
        300: Face((0, 1), 2, (300.0, 100.0), 40.0, 0.0, 0.9),  # sure
    }
    monkeypatch.setattr(BodyReader, "read_body", lambda self, gray, tray, center, side: reads[int(center[0])])
    white_five = Face(tuple(range(5)), 5, (200.0, 250.0), 40.0, 0.0, 0.95)  # read in the frame
    centers = [[100.0, 100.0], [300.0, 100.0]] + ([[200.0, 250.0]] if bodies_hold_a_die else [])
    bodies = Bodies(np.array(centers), 40.0, np.full(len(centers), 40.0))
    blank = np.zeros((400, 400, 3), np.uint8)
    _, again = DiceReader().body_reader.read_again([white_five], bodies, blank[:, :, 0], blank, 1.0, 40.0)
    assert sorted(face.value for face in again) == ([1, 2] if bodies_hold_a_die else [2])


def test_a_coloured_die_read_low_with_no_body_of_its_own_is_read_again_at_the_bodies_size():
    """Touching dice make one blob, and a heap of more than twelve is not split: a coloured die read low in
    such a crowd has no body (nell-byler 112332: a six among 25 dice read as a four). It is read as a body
    all the same, centred on its face, at the size of the bodies found elsewhere; the two beside it, read
    on its own body, stays as it is."""
    frame, (six, two) = draw_dice([6, 2], face=(200, 60, 40), pip=235, floor=150)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found = find_bodies(frame)
    the_two_s = np.hypot(*(found.centers - np.array(two)).T) < 28
    assert the_two_s.sum() == 1 and not the_two_s.all()
    bodies = Bodies(found.centers[the_two_s], found.size, found.sizes[the_two_s])  # the six's heap unsplit
    read_low = Face((), 3, six, 56.0, 0.0, 0.9, pip=10.0)
    read_two = Face((), 2, two, 56.0, 0.0, 0.9, pip=10.0)
    replaced, again = DiceReader().body_reader.read_again(
        [read_low, read_two], bodies, gray, frame, 1.0, 56.0
    )
    assert replaced == {id(read_low)}
    assert [face.value for face in again] == [6]
    assert np.hypot(again[0].center[0] - six[0], again[0].center[1] - six[1]) < 5


@pytest.mark.parametrize(("value", "low"), [(6, 3), (6, 2), (5, 4)])
def test_a_black_die_with_white_pips_read_low_is_read_again(value, low):
    """A glossy black die throws a glint along one column of its six, which outshines the pips beside it in
    the whole frame: gray reads one column or one diagonal (nell-byler 112522 and 095533). The die shows no
    colour, but light pips tell it is no white die (those gray reads whole, and a white die read low is not
    read again, as in the test of the blue five): its body is read again."""
    frame, (centre,) = draw_dice([value], face=30, pip=235, floor=150)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    read_low = Face((), low, centre, 56.0, 0.0, 0.9, dark=False, pip=10.0)
    replaced, again = DiceReader().body_reader.read_again(
        [read_low], find_bodies(frame), gray, frame, 1.0, 56.0
    )
    assert replaced == {id(read_low)}
    assert [face.value for face in again] == [value]


def test_a_lone_pip_on_a_die_body_may_sit_on_a_two_tone_face():
    """A marbled die showing 1: half its face gold, half yellow, the pip in the middle. The ring of face
    around the pip is too uneven for a lone pip anywhere in the frame (a speck on a stained tray), but this
    one sits on a die body of its own, so it reads as a 1."""
    frame, _ = draw_dice([3, 5, 6], die=56, face=225, pip=30, floor=(185, 190, 195))
    centre = np.array([320.0, 390.0])
    cv2.rectangle(frame, tuple(np.intp(centre - 28)), tuple(np.intp(centre + 28)), (40, 140, 190), -1)
    half = np.intp([centre + (-28, -28), centre + (28, -28), centre + (28, 28)])
    cv2.fillConvexPoly(frame, half, (20, 230, 250), cv2.LINE_AA)
    cv2.circle(frame, tuple(np.intp(centre)), 7, (20, 20, 20), -1, cv2.LINE_AA)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    reader = DiceReader()
    _, again = reader.body_reader.read_again([], find_bodies(frame), gray, frame, 1.0, 56.0)
    one = min(again, key=lambda face: np.hypot(face.center[0] - centre[0], face.center[1] - centre[1]))
    assert one.value == 1 and np.hypot(one.center[0] - centre[0], one.center[1] - centre[1]) < 5
    threshold = reader.params["pip_contrast"] * (int(gray.max()) - int(gray.min()))
    strict = reader._faces(gray, 56.0, threshold)  # read as anywhere in the frame
    assert not any(abs(face.center[1] - centre[1]) < 10 for face in strict if face.value == 1)


def gold_die_with_sheen(pip_offset):
    """A gold die on a pale table whose face darkens from left to right, as a metallic die's sheen does,
    with one dark pip `pip_offset` pixels right of the face's centre: the frame and the body's centre."""
    frame = np.full((200, 200, 3), 200, np.uint8)
    frame = np.clip(frame + np.random.default_rng(7).normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    across = np.linspace(0.0, 1.0, 57)[None, :, None]
    gold = np.array([60.0, 150.0, 190.0])
    frame[72:129, 72:129] = (gold * (1.0 - 0.8 * across)).astype(np.uint8)
    cv2.circle(frame, (100 + pip_offset, 100), 6, (20, 20, 20), -1, cv2.LINE_AA)
    return frame, np.array([100.0, 100.0])


@pytest.mark.parametrize("offset", [0, -8])
def test_a_lone_pip_at_the_centre_of_a_die_body_reads_as_one_on_a_face_with_a_sheen(offset):
    """The sheen makes the face round the pip more uneven, in every channel, than a lone pip may have
    anywhere on a body; but this pip lies where a 1's pip does, at the body's centre, or a seventh of a side
    off it: a body's centre is rough, as it holds the die's shadow and side faces."""
    frame, centre = gold_die_with_sheen(offset)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    face = DiceReader().body_reader.read_body(gray, frame, centre, 56.0)
    assert face is not None and face.value == 1 and face.center == pytest.approx((100 + offset, 100), abs=2)


def test_a_lone_pip_off_the_centre_of_a_die_body_with_a_sheen_is_no_one():
    """A quarter of a side off the centre, the pip is not where a 1's lies (a two whose partner went unseen
    mostly has its pip a third of a side off), so the sheen round it makes it no die."""
    frame, centre = gold_die_with_sheen(-14)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert DiceReader().body_reader.read_body(gray, frame, centre, 56.0) is None


def test_pips_in_a_body_s_colour_channels_link_across_twice_the_roundness_noise():
    """JPEG blurs colour over pixels twice as wide as lightness's, so in a* two pips of one face about 12 px
    wide measured 0.91 and 0.72 round (nell-byler 095929, a smoky die's red two, read as a 1): a two there,
    where lightness's pips that differ so are a top face's 1 and its side face's pip."""
    pips = unequally_round_two()
    gray = np.full(pips.labels.shape, 220, np.uint8)
    body = DiceReader().body_reader

    def values(params):
        return sorted(face.value for face in group_faces(pips, gray, 40.0, params))

    assert values(body.chroma_params) == [2]
    assert values(body.body_params) == [1]


@pytest.mark.parametrize(("contrast", "pips"), [(4, 0), (6, 0), (10, 3)])
def test_a_die_body_s_crop_holds_no_pips_fainter_than_a_few_gray_levels(contrast, pips):
    """A body's crop of plain wood in b*: a streak of grain along its edge spans 18 levels, and blobs
    `contrast` levels from it lie where a three's pips do. A share of that range is a level or two, where
    JPEG's blocks make such blobs; the blobs 10 levels out are pips."""
    crop = np.full((69, 69), 142, np.uint8)
    crop[:, :6] = 160
    for offset in (-10, 0, 10):
        cv2.circle(crop, (34 + offset, 34 + offset), 4, 142 + contrast, -1, cv2.LINE_AA)
    reader = DiceReader()
    found = reader.body_reader._crop_pips(
        crop, 34.0, reader._scale_for(34.0), reader.body_reader.chroma_params, False
    )
    assert found is not None and len(found[1]) == pips


@pytest.mark.parametrize("value", [3, 5])
def test_corner_pips_against_a_dark_die_s_darker_bevel_are_read_on_its_body(value):
    """A gold die on a pale table with a dark bevel round its face, its corner pips just inside the bevel:
    the black-hat measures both against the table, so bevel and corner pips stand out alike and cut as
    one blob, and the die read low. Clipped at the face's level, the table is face."""
    frame = np.full((200, 200, 3), 205, np.uint8)
    frame = np.clip(frame + np.random.default_rng(7).normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    gold = np.array([0.45, 1.0, 1.25])
    cv2.rectangle(frame, (84, 84), (115, 115), tuple((gold * 50).tolist()), -1)  # the bevel, 3 px wide
    cv2.rectangle(frame, (87, 87), (112, 112), tuple((gold * 120).tolist()), -1)
    for dx, dy in PIP_SPOTS[value]:
        cv2.circle(frame, (100 + round(dx * 9.6), 100 + round(dy * 9.6)), 4, (35, 35, 35), -1, cv2.LINE_AA)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    face = DiceReader().body_reader.read_body(gray, frame, np.array([100.0, 100.0]), 32.0)
    assert face is not None and face.value == value


def test_a_dark_spot_on_a_swirled_die_body_is_no_one_in_the_crop_clipped_at_its_face_s_level():
    """A gold die with lighter swirls and a darker spot off its centre: in lightness the swirls make the
    face round the spot too uneven for a lone pip. Clipped at the face's level the swirls are face and the
    spot stands alone on an even face, so that copy counts only layouts of three pips or more."""
    frame = np.full((200, 200, 3), 205, np.uint8)
    frame = np.clip(frame + np.random.default_rng(7).normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    gold = np.array([0.45, 1.0, 1.25])
    swirls = cv2.GaussianBlur(np.random.default_rng(0).normal(0, 1, (32, 32)), (0, 0), 2.0)
    face = 120 * (1 + 0.3 * np.clip(swirls / np.abs(swirls).max(), 0, None))
    frame[84:116, 84:116] = np.clip(gold * face[:, :, None], 0, 255).astype(np.uint8)
    cv2.circle(frame, (109, 100), 4, tuple((gold * 80).tolist()), -1, cv2.LINE_AA)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert DiceReader().body_reader.read_body(gray, frame, np.array([100.0, 100.0]), 32.0) is None


def test_a_one_on_a_glossy_die_body_is_read_with_the_window_reflected_beside_its_pip():
    """A red glossy die showing 1, a light arc of reflected window beside its white pip: in lightness the
    arc is a blob of the pip's polarity on the ring of face around it, which made the face look uneven."""
    frame = np.full((200, 200, 3), 200, np.uint8)
    frame = np.clip(frame + np.random.default_rng(7).normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    cv2.rectangle(frame, (72, 72), (128, 128), (30, 30, 170), -1)
    cv2.circle(frame, (100, 100), 6, (235, 235, 235), -1, cv2.LINE_AA)
    cv2.ellipse(frame, (100, 100), (17, 17), 0, -70, 10, (210, 210, 230), 3, cv2.LINE_AA)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    face = DiceReader().body_reader.read_body(gray, frame, np.array([100.0, 100.0]), 56.0)
    assert face is not None and face.value == 1 and face.center == pytest.approx((100, 100), abs=2)


@pytest.mark.parametrize("swirl_radius", [6, 8])
def test_a_pale_pip_in_a_lighter_swirl_of_a_blue_die_is_read_in_its_colour_distance_from_the_face(
    swirl_radius,
):
    """A dark blue die showing 1, a lighter blue swirl round its pale pip, saved as a heavily compressed
    JPEG: in lightness pip and swirl are one blob, too uneven round the pip for a 1, and JPEG smears the pip
    into the face in every colour. In colour distance from the face the swirl (the face's own hue, lighter)
    weighs half and the pip stands alone."""
    frame = np.full((200, 200, 3), 200, np.uint8)
    frame = np.clip(frame + np.random.default_rng(7).normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    cv2.rectangle(frame, (83, 83), (117, 117), (120, 45, 25), -1)
    cv2.circle(frame, (100, 100), swirl_radius, (190, 110, 60), 3, cv2.LINE_AA)
    cv2.circle(frame, (100, 100), 4, (180, 170, 160), -1, cv2.LINE_AA)
    frame = cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 25])[1], cv2.IMREAD_COLOR)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    face = DiceReader().body_reader.read_body(gray, frame, np.array([100.0, 100.0]), 34.0)
    assert face is not None and face.value == 1 and face.center == pytest.approx((100, 100), abs=2)


@pytest.mark.parametrize(("value", "swirls"), [(3, 3), (4, 4), (5, 5)])
def test_red_pips_on_a_blue_die_with_pale_swirls_are_read_in_its_redness(value, swirls):
    """A dark blue die with white and pale violet swirls, showing dull red pips (the colours of nell-byler's
    blue dice), saved as a compressed JPEG: in red the swirls outshine the pips, and the other channels
    read each of these dice low. In redness the swirls are face, no redder than gray, and the pips alone
    stand out. (`swirls` seeds where the swirls fall.)"""
    frame = np.full((200, 200, 3), 200, np.uint8)
    frame = np.clip(frame + np.random.default_rng(7).normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    cv2.rectangle(frame, (83, 83), (117, 117), (90, 65, 48), -1)
    rng = np.random.default_rng(swirls)
    for stroke in range(6):
        colour = ((200, 200, 200), (210, 140, 170))[stroke % 2]
        cv2.polylines(frame, [rng.uniform(85, 115, (4, 2)).astype(np.int32)], False, colour, 2, cv2.LINE_AA)
    for place in pip_places(value, (100, 100), 34):
        cv2.circle(frame, place, 3, (64, 33, 100), -1, cv2.LINE_AA)
    frame = cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 40])[1], cv2.IMREAD_COLOR)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    face = DiceReader().body_reader.read_body(gray, frame, np.array([100.0, 100.0]), 34.0)
    assert face is not None and face.value == value


@pytest.mark.parametrize(("value", "read"), [(1, None), (2, None), (4, 4)])
def test_only_layouts_of_three_pips_or_more_count_in_a_die_body_s_redness(monkeypatch, value, read):
    """Clipped at zero, a blue or teal die's whole face is one level in redness, so a red speck at its edge
    (JPEG's fringe beside a red neighbour) would pass for a clean 1 there, and two for a 2. (A plain body,
    whose pips its redness alone shows.)"""

    def redness(image: np.ndarray) -> np.ndarray:
        spots = np.zeros(image.shape[:2], np.uint8)
        for place in pip_places(value, (34, 34), 34):
            cv2.circle(spots, place, 3, 60, -1, cv2.LINE_AA)
        return spots

    monkeypatch.setattr(body_read_module, "_redness", redness)
    frame = np.full((200, 200, 3), 200, np.uint8)
    cv2.rectangle(frame, (83, 83), (117, 117), (150, 140, 40), -1)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    face = DiceReader().body_reader.read_body(gray, frame, np.array([100.0, 100.0]), 34.0)
    assert (face.value if face is not None else None) == read


def read_body_with(monkeypatch, read_at, center: tuple[float, float], side: float) -> Face | None:
    """The face `BodyReader.read_body` reads on the body at `center` (`side` wide) of a blank 200 px frame,
    each of its crops read by the stand-in `read_at` (for `BodyReader._read_body_at`)."""
    monkeypatch.setattr(BodyReader, "_read_body_at", read_at)
    blank = np.zeros((200, 200, 3), np.uint8)
    return DiceReader().body_reader.read_body(blank[:, :, 0], blank, np.array(center), side)


@pytest.mark.parametrize(
    ("by_size", "expected", "reads"),
    [
        ({1.0: 1, 1.1: 3, 0.9: 3}, 3, 3),  # a glint cut a pip at the measured size: the other two agree
        ({1.0: 2, 1.1: 6, 0.9: 5}, 5, 3),  # both show more: the lesser of them
        ({1.0: None, 1.1: 5, 0.9: 5}, 5, 3),
        ({1.0: 2, 1.1: 6, 0.9: 2}, 2, 3),  # one size alone may take in the next die's pips
        ({1.0: 5, 1.1: 2, 0.9: 2}, 5, 2),  # fewer at other sizes never overrule the measured size
        ({1.0: 4, 1.1: 4, 0.9: 6}, 4, 2),  # the larger size shows no more: the smaller is not read
        ({1.0: None, 1.1: None, 0.9: 1}, None, 3),  # the third: the larger crop off its centre, nothing
    ],
)
def test_a_body_read_at_its_size_is_overruled_only_when_a_tenth_larger_and_smaller_both_read_more(
    monkeypatch, by_size, expected, reads
):
    """A body's measured side is rough, and a crop a little off may lose a pip: the body is read at its
    side, a tenth larger and a tenth smaller, and the reading at its side stands unless both others show
    more pips."""
    asked = []

    def read_at(self, gray, tray, center, side, centre_share=BODY_CENTRE_SHARE):
        asked.append(side)
        value = by_size[round(side / 50.0, 2)]
        return None if value is None else Face((0,), value, (10.0, 10.0), side, 0.0, 1.0)

    face = read_body_with(monkeypatch, read_at, (10.0, 10.0), 50.0)
    assert (None if face is None else face.value) == expected
    assert len(asked) == reads


@pytest.mark.parametrize(
    ("off_centre", "at_face", "expected"),
    [
        (False, {1.0: 1, 0.9: 1}, 1),  # read again centred on itself, the face is the die's
        (
            False,
            {1.0: 1, 0.9: None},
            None,
        ),  # one size alone is no more trusted there than at the body's centre
        (False, {1.0: 2, 0.9: 2}, None),  # read again, it must keep the value the larger crop read
        (True, {1.0: 1, 0.9: 1}, 1),
        (True, {1.0: 1, 0.9: None}, None),
    ],
)
def test_a_face_only_a_body_s_larger_crop_reads_stands_when_crops_centred_on_it_read_it_too(
    monkeypatch, off_centre, at_face, expected
):
    """nell-byler 112200 re-saved: a gold die's sheen split its body in two, each centred a third of a side
    off its face, and only the larger crop found the die's 1 near enough its centre to be the body's. The
    face is read again in crops of the measured and the smaller size centred on itself (never the larger:
    that one read it already). So is a face the larger crop reads further off the centre
    (`off_centre`: within `OFF_CENTRE_SHARE`), where no crop reads one near it: a body that holds its die's
    shadow is centred off the die's face."""
    body, pip = (10.0, 10.0), ((35.0, 10.0) if off_centre else (14.0, 10.0))
    share_needed = OFF_CENTRE_SHARE if off_centre else BODY_CENTRE_SHARE

    def read_at(self, gray, tray, center, side, centre_share=BODY_CENTRE_SHARE):
        size = round(side / 50.0, 2)
        if tuple(center) == pip:
            value = at_face[size]
        else:
            value = 1 if size == 1.1 and centre_share >= share_needed else None
        return None if value is None else Face((0,), value, pip, side, 0.0, 1.0)

    face = read_body_with(monkeypatch, read_at, body, 50.0)
    assert (None if face is None else face.value) == expected


@pytest.mark.parametrize(
    ("one_off", "two_off", "two_confidence", "expected"),
    [
        (0.2, 0.02, 1.0, 2),  # the 1 is one pip of the centred two
        (0.2, 0.12, 1.0, 1),  # the 2 is hardly more centred than the 1: a pip beside the die joined it
        (0.1, 0.0, 1.0, 1),  # the 1 lies near the centre, where a die's 1 is
        (0.2, 0.02, 0.3, 1),  # the 2 is read less surely than the 1: a speck beside the die's 1
    ],
)
def test_a_one_off_its_body_s_centre_is_half_of_the_two_the_larger_crop_reads_centred(
    monkeypatch, one_off, two_off, two_confidence, expected
):
    """nell-byler 100054: a glint over one pip of a black die's two. The body's measured and smaller crops
    read a 1 a fifth of a side off the body's centre, and the larger crop read the 2 centred on it and more
    surely. A 1's pip is its die's centre, so the 1 is half of the two. Stand-in crops: the measured and
    smaller sizes read the 1 `one_off` of a side off the centre (confidence 0.6), the larger one the 2
    `two_off` off."""
    side, body = 50.0, (100.0, 100.0)

    def read_at(self, gray, tray, center, crop, centre_share=BODY_CENTRE_SHARE):
        two = round(crop / side, 2) == 1.1
        value, off, confidence = (2, two_off, two_confidence) if two else (1, one_off, 0.6)
        return Face((0,), value, (100.0 + off * side, 100.0), side, 0.0, confidence)

    face = read_body_with(monkeypatch, read_at, body, side)
    assert face is not None and face.value == expected


@pytest.mark.parametrize("off", [17, 21])
def test_a_die_showing_1_is_read_on_a_body_centred_half_a_side_off_its_pip(off):
    """nell-byler 112951 turned 90: a gold die's body, holding its shadow, was centred half a side off the
    die's 1, which every channel read at every size but too far off the body's centre to be its face. A
    white die 34 px wide showing 1, read on a body centred 17 to 21 px below its pip: the die is found."""
    frame = np.full((200, 200, 3), 150, np.uint8)
    frame = np.clip(frame + np.random.default_rng(3).normal(0, 2, frame.shape), 0, 255).astype(np.uint8)
    cv2.rectangle(frame, (83, 83), (117, 117), (225, 225, 225), -1)
    cv2.circle(frame, (100, 100), 4, (30, 30, 30), -1, cv2.LINE_AA)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    face = DiceReader().body_reader.read_body(gray, frame, np.array([100.0, 100.0 + off]), 34.0)
    assert face is not None and face.value == 1 and face.center == pytest.approx((100, 100), abs=2)


def test_a_body_whose_pips_smear_into_one_bar_is_read_by_their_stable_regions():
    """A small die's three with its pips blurred together: the black-hat sees one bar, and no layout, in
    every channel. On the die's body the pips are also looked for as maximally stable regions."""
    frame = np.full((200, 200, 3), 200, np.uint8)
    cv2.rectangle(frame, (72, 72), (128, 128), (120, 120, 120), -1)
    cv2.line(frame, (85, 85), (115, 115), (40, 40, 40), 3, cv2.LINE_AA)
    for centre in ((85, 85), (100, 100), (115, 115)):
        cv2.circle(frame, centre, 4, (20, 20, 20), -1, cv2.LINE_AA)
    frame = cv2.GaussianBlur(frame, (0, 0), 1.0)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    face = DiceReader().body_reader.read_body(gray, frame, np.array([100.0, 100.0]), 56.0)
    assert face is not None and face.value == 3


def test_a_light_pip_cut_out_of_its_glint_reads_as_a_one_on_a_body_nothing_else_was_read_on():
    """A dark red die showing 1, its white pip trailing a glint: the pip is cut out of the blob it shares
    with the glint, a core, which alone is no 1 in the frame. On the die's own body it is."""
    frame = np.full((200, 200, 3), 200, np.uint8)
    cv2.rectangle(frame, (72, 72), (128, 128), (40, 30, 110), -1)
    cv2.circle(frame, (100, 100), 5, (235, 235, 235), -1, cv2.LINE_AA)
    cv2.line(frame, (100, 100), (112, 88), (220, 220, 220), 2, cv2.LINE_AA)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.8)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    face = DiceReader().body_reader.read_body(gray, frame, np.array([100.0, 100.0]), 56.0)
    assert face is not None and face.value == 1


def test_pips_of_one_face_may_differ_more_in_size_in_the_colour_channels_of_a_body():
    """Yellow pips on a blue die, as bright as it in gray: in b* they stand out, but JPEG's half-resolution
    colour leaves one measuring 1.7 times the other, past the lightness limit; on its body it is a two."""
    frame = np.full((200, 200, 3), 200, np.uint8)
    cv2.rectangle(frame, (72, 72), (128, 128), (200, 120, 40), -1)
    cv2.circle(frame, (85, 85), 6, (0, 130, 130), -1, cv2.LINE_AA)
    cv2.ellipse(frame, ((115.0, 115.0), (7.0, 7.0), 0), (0, 130, 130), -1, cv2.LINE_AA)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    face = DiceReader().body_reader.read_body(gray, frame, np.array([100.0, 100.0]), 56.0)
    assert face is not None and face.value == 2


def test_a_face_read_on_the_next_die_does_not_stop_a_body_being_read_again():
    """A five read in gray 0.65 of a die from a blue die's body lies on the die beside it (dice side by side
    are a side apart), so the blue die, its yellow pips faint in gray, is still read on its own body."""
    frame = np.full((240, 240, 3), 200, np.uint8)
    cv2.rectangle(frame, (92, 92), (148, 148), (200, 120, 40), -1)
    for spot in ((105, 105), (135, 135)):
        cv2.circle(frame, spot, 5, (0, 130, 130), -1, cv2.LINE_AA)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    bodies = Bodies(np.array([[120.0, 120.0]]), 56.0, np.array([56.0]))
    five = Face((0, 1, 2, 3, 4), 5, (120.0 - 0.46 * 56, 120.0 - 0.46 * 56), 56.0, 0.0, 1.0)
    _, again = DiceReader().body_reader.read_again([five], bodies, gray, frame, 1.0, 56.0)
    assert [face.value for face in again] == [2]


def test_a_channel_that_reads_nothing_on_a_body_may_read_its_lone_core_as_a_one(monkeypatch):
    """A purple die showing 1, its white pip cut out of the window's reflection beside it (a core): gray
    and red read nothing but that core, while b* reads two faint specks as a two. Each channel that reads
    nothing on the body is asked for its lone cores, and the channels vote: gray's and red's one outvote
    b*'s two. (Asking for lone cores only when no channel read anything, the two stood alone.)"""
    rng = np.random.default_rng(7)
    frame = rng.integers(0, 256, (120, 120, 3), np.uint8)  # every channel has contrast to read
    side, centre = 40.0, np.array([60.0, 60.0])
    works: list[int] = []

    def scripted(pips, work, die_px, params, focus, lone_cores=False):
        if id(work) not in works:
            works.append(id(work))
        channel = works.index(id(work))  # gray, red, a*, b*, redness, and gray clipped at the face's level
        one = Face((0,), 1, focus, die_px, 0.0, 0.8, pip=9.0)
        two = Face((0, 1), 2, (focus[0] + 3.0, focus[1]), die_px, 0.0, 0.3, pip=9.0)
        return [two] if channel == 3 else [one] if lone_cores and channel < 2 else []

    monkeypatch.setattr(body_read_module, "read_faces", scripted)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    face = DiceReader().body_reader._read_body_at(gray, frame, centre, side)
    assert len(works) == 6 and face is not None and face.value == 1


def test_a_body_is_read_once_while_the_same_bodies_are_read_again(monkeypatch):
    """A frame read again at the bodies' size, and a camera's still frames, which share their bodies
    (`vision.stream`), read each body's crop once; bodies found anew are read anew, and read alike."""
    frame, _ = draw_dice([3, 5, 6], die=56, face=225, pip=30, floor=(185, 190, 195))
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    reader = DiceReader().body_reader
    places = []
    reading = reader.read_body

    def noting(gray, tray, center, side):
        places.append(tuple(center))
        return reading(gray, tray, center, side)

    monkeypatch.setattr(reader, "read_body", noting)
    bodies = find_bodies(frame)
    first = reader.read_again([], bodies, gray, frame, 1.0, 56.0)
    assert len(places) == bodies.count == 3
    assert reader.read_again([], bodies, gray, frame, 1.0, 56.0) == first
    assert len(places) == 3
    assert reader.read_again([], find_bodies(frame), gray, frame, 1.0, 56.0) == first
    assert len(places) == 6

"""Side faces seen at a slant are told from dice by their shading or the slant (`vision.sides`)."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision.reader as reader_module
from vision.body import Bodies
from vision.faces import Face
from vision.reader import DiceReader
from vision.sides import drop_shaded_sides

SPOTS = {1: [(0, 0)], 3: [(-1, -1), (0, 0), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]}


def oblique_die(
    frame,
    centre,
    top_value,
    side_value,
    side_level=180,
    squash=1.0,
    depth=0.6,
    edge=0.0,
    die=56,
    side_bgr=None,
):
    """A die seen from the front and above: its top face, `squash` of its height (and so are its pips), then
    the rounded edge, `edge` of a side tall, and the front face, `depth` of its height and lit `side_level`
    instead of 225 (a room's light comes from above), or coloured `side_bgr`. The front face's pips are as
    round as the top face's, as a webcam's blur leaves them."""
    x, y = centre
    half, top_half = die // 2, int(die * squash / 2)
    cv2.rectangle(frame, (x - half, y - top_half), (x + half, y + top_half), (225,) * 3, -1)
    depth, edge = int(die * depth), int(die * edge)
    cv2.rectangle(
        frame,
        (x - half, y + top_half),
        (x + half, y + top_half + edge + depth),
        side_bgr or (side_level,) * 3,
        -1,
    )
    pip = int(die * 0.09)
    side_y = y + top_half + edge + depth / 2
    spots = [(x + dx * die * 0.27, y + dy * die * 0.27 * squash) for dx, dy in SPOTS[top_value]]
    spots += [(x + dx * die * 0.27, side_y + dy * depth * 0.27) for dx, dy in SPOTS[side_value]]
    for spot in spots:
        cv2.ellipse(frame, (spot, (2 * pip, 2 * pip * squash), 0), (30,) * 3, -1, cv2.LINE_AA)


def frame_with(dice, **looks):
    frame = np.full((480, 640, 3), 120, np.uint8)
    noise = np.random.default_rng(3).normal(0, 3, frame.shape)
    frame = np.clip(frame + noise, 0, 255).astype(np.uint8)
    for centre, top, side in dice:
        oblique_die(frame, centre, top, side, **looks)
    return frame


def test_the_darker_face_below_a_top_face_is_its_side_not_a_die():
    """Two dice showing 1 with a five on the face towards the camera: the fives are as round and as large
    as a top face's pips, so only their shading tells them."""
    frame = frame_with([((200, 200), 1, 5), ((420, 200), 1, 5)])
    assert DiceReader().read(frame).values == [1, 1]


def test_a_shaded_side_face_tinted_by_the_table_s_light_is_still_its_die_s_side():
    """The front face of a white die, in shade, takes on the colour of the light the table reflects: 10.8
    from the top face in a* and b* (a white die over a wooden table measured 10.05). Dice of two sets,
    one above the other, differed by 12.3 and more in the photo sets."""
    frame = frame_with([((200, 200), 1, 5), ((420, 200), 1, 5)], side_bgr=(160, 180, 180))
    assert DiceReader().read(frame).values == [1, 1]


def test_a_side_face_lit_like_its_top_face_is_told_by_the_slant_of_the_view():
    """Window light reaches the front faces too, but the top faces and their pips are squashed to 0.65 of
    their width (a camera 50 degrees off straight down): a face right below a top face is its side. Not
    squashed, the same faces are two dice each, one behind the other (a camera looking straight down sees
    no side faces)."""
    dice = [((200, 200), 1, 5), ((420, 200), 1, 5)]
    front = dict(side_level=225, depth=0.75, edge=0.1)
    assert DiceReader().read(frame_with(dice, squash=0.65, **front)).values == [1, 1]
    assert sorted(DiceReader().read(frame_with(dice, **front)).values) == [1, 1, 5, 5]


def test_two_dice_lit_alike_one_behind_the_other_are_both_read():
    """The nearer die's top face lies below the farther one's, about a side away and as bright: no side."""
    frame = np.full((480, 640, 3), 120, np.uint8)
    frame = np.clip(frame + np.random.default_rng(3).normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    for value, y in ((3, 150), (5, 210)):
        cv2.rectangle(frame, (292, y - 28), (348, y + 28), (225,) * 3, -1)
        for dx, dy in SPOTS[value]:
            cv2.circle(frame, (int(320 + dx * 15), int(y + dy * 15)), 5, (30,) * 3, -1, cv2.LINE_AA)
    assert sorted(DiceReader().read(frame).values) == [3, 5]


def test_a_side_face_read_on_a_body_of_its_own_is_still_its_die_s_side(monkeypatch):
    """A die seen low: its shaded front face stands out as a die body of its own, 0.9 of a side below the top
    face's centre, too far to count as the same die, so the body is read again and its crop reads the
    five. Below the top face and darker, it is that die's side face all the same."""
    frame = frame_with([((200, 200), 1, 5), ((420, 200), 1, 5)], depth=0.8)
    front = 28 + 0.8 * 56 / 2
    centres = np.array([[200.0, 200.0], [200.0, 200.0 + front], [420.0, 200.0], [420.0, 200.0 + front]])
    monkeypatch.setattr(reader_module, "find_bodies", lambda tray: Bodies(centres, 56.0, np.full(4, 56.0)))
    assert DiceReader().read(frame).values == [1, 1]


def painted_faces(faces, table=(120, 120, 120)):
    """Read faces (value, centre, face level or BGR colour, roundness of their pips) and a frame with each
    face painted as a square 30 px wide, of its level or colour, on a table of colour `table` (BGR)."""
    frame = np.full((300, 400, 3), table, np.uint8)
    read = []
    for value, (x, y), level, roundness in faces:
        cv2.rectangle(frame, (x - 15, y - 15), (x + 15, y + 15), np.broadcast_to(level, 3).tolist(), -1)
        read.append(Face((), value, (float(x), float(y)), 40.0, 0.0, 1.0, roundness=roundness))
    return frame, read


def test_a_shaded_face_below_and_to_one_side_of_a_top_face_is_its_side():
    """A die turned to the camera shows its front face down and to one side of its top face (31 px across and
    26 down, on a die 56 px wide): darker and of its colour, that face is its side face. A darker face as
    far to the side but above the top face is not."""
    frame, faces = painted_faces([(6, (200, 120), 225, 1.0), (2, (231, 146), 180, 1.0)])
    assert [face.value for face in drop_shaded_sides(faces, frame, 56.0, 1.0)] == [6]
    frame, faces = painted_faces([(6, (200, 146), 225, 1.0), (2, (231, 120), 180, 1.0)])
    assert [face.value for face in drop_shaded_sides(faces, frame, 56.0, 1.0)] == [6, 2]


@pytest.mark.parametrize(("pips", "values"), [((6.5, 6.8), [1]), ((3.2, 6.8), [1, 1]), ((0.0, 6.8), [1])])
def test_a_face_below_whose_pips_are_clearly_larger_than_the_top_face_s_is_another_die(pips, values):
    """A darker face just below a top face is its side face when its pips are as large or smaller; clearly
    larger (the top face's under `SIDE_PIP_SHARE` of them), they are another die's (nell-byler 111304 turned
    180: a black die's 1 below a smoky die's 1 whose red pip measured half as wide). A face of no measured
    pips tells nothing."""
    frame, faces = painted_faces([(1, (200, 120), 225, 1.0), (1, (200, 146), 180, 1.0)])
    faces = [replace(face, pip=pip) for face, pip in zip(faces, pips, strict=True)]
    assert [face.value for face in drop_shaded_sides(faces, frame, 56.0, 1.0)] == values


WOOD = (110, 160, 200)  # BGR: a pine table, CIELAB a* 136, b* 160


def test_a_white_die_s_side_face_may_take_on_the_table_s_colour_all_the_way():
    """A white die's front face in shade over wood, 13.6 from its top face in a* and b* (over `ALIKE_CHROMA`)
    but on the way from the top face's colour to the wood's, is its side face. A face as far from the top
    face's colour the other way (bluer) is another die's."""
    tinted = [(6, (200, 120), 225, 1.0), (2, (200, 150), (140, 160, 180), 1.0)]
    frame, faces = painted_faces(tinted, WOOD)
    assert [face.value for face in drop_shaded_sides(faces, frame, 56.0, 1.0)] == [6]
    bluer = [(6, (200, 120), 225, 1.0), (2, (200, 150), (180, 160, 140), 1.0)]
    frame, faces = painted_faces(bluer, WOOD)
    assert [face.value for face in drop_shaded_sides(faces, frame, 56.0, 1.0)] == [6, 2]


def test_a_black_die_below_a_red_one_on_a_white_board_is_a_die():
    """A black die's face lies on the way from a red die's colour to a white board's, darker, just below
    the red die (nell-byler 112510): a coloured die's side face keeps its colour, so it is a die."""
    looks = [(3, (200, 120), (40, 40, 200), 1.0), (5, (200, 150), (40, 40, 40), 1.0)]
    frame, faces = painted_faces(looks, (200, 200, 200))
    assert [face.value for face in drop_shaded_sides(faces, frame, 56.0, 1.0)] == [3, 5]


@pytest.mark.parametrize(("layout", "values"), [(1.0, [4, 5]), (0.55, [4])], ids=["square", "squashed"])
def test_a_square_layout_below_a_top_face_seen_from_straight_above_is_another_die(layout, values):
    """Seen from straight above (round pips), a side face is seen edge-on: a five in shade just below a four,
    its layout as square as a top face's, is the next die touching it (nell-byler 112205, two green dice, read
    enlarged 2.5 times), where a five squashed to 0.55 is the four's side face."""
    frame, faces = painted_faces([(4, (200, 120), 225, 0.9), (5, (200, 150), 180, 0.9)])
    faces = [replace(face, layout_squash=squash) for face, squash in zip(faces, (1.0, layout), strict=True)]
    assert [face.value for face in drop_shaded_sides(faces, frame, 56.0, 1.0)] == values


def test_a_face_nearly_level_with_a_top_face_is_another_die():
    """Down by less than half its distance across, a face is beside the top face, not below it: a side face
    lies that flat only when seen edge-on, too squashed to read."""
    frame, faces = painted_faces([(6, (200, 120), 225, 1.0), (2, (240, 136), 180, 1.0)])
    assert [face.value for face in drop_shaded_sides(faces, frame, 56.0, 1.0)] == [6, 2]


def test_a_die_in_front_of_another_s_side_face_is_a_die():
    """Seen at a slant (pips squashed to 0.65), a die's front face lies below its top face; the next die
    in front lies below that front face and as close to it, but one and a half sides from the top face. A
    side face is no top face, so the die in front stays (matteop65 three_43)."""
    frame, faces = painted_faces(
        [(3, (200, 100), 225, 0.65), (2, (200, 145), 200, 0.65), (3, (185, 187), 180, 0.65)]
    )
    assert [face.value for face in drop_shaded_sides(faces, frame, 56.0, 1.0)] == [3, 3]


@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE])
def test_a_shaded_side_face_is_told_however_the_camera_is_turned(turn):
    """A camera at a slant, turned on its mount: the front faces in shade lie beside or above their top
    faces. The pips' squash tells the axis the camera looks along, and the shaded faces which way it lies."""
    frame = frame_with([((200, 200), 1, 5), ((420, 200), 1, 5)], squash=0.65, depth=0.75, edge=0.1)
    assert DiceReader().read(cv2.rotate(frame, turn)).values == [1, 1]


def kept_turned_a_quarter(looks, die_px):
    """The values of the painted faces `looks` that `drop_shaded_sides` keeps, their pips squashed across the
    frame (`squash_angle` 0), as a camera turned a quarter on its mount squashes them."""
    frame, faces = painted_faces(looks)
    turned = [replace(face, squash_angle=0.0) for face in faces]
    return [face.value for face in drop_shaded_sides(turned, frame, die_px, 1.0)]


def test_the_side_faces_in_shade_tell_which_way_a_turned_camera_lies():
    """Pips squashed across the frame (a camera turned a quarter): a darker face of the die's colour beside a
    top face, on either side, is its side face; lit alike, beside a top face is where the next die lies too,
    and both stay."""
    assert kept_turned_a_quarter([(6, (200, 120), 225, 0.65), (2, (240, 120), 180, 0.65)], 56.0) == [6]
    assert kept_turned_a_quarter([(6, (240, 120), 225, 0.65), (2, (200, 120), 180, 0.65)], 56.0) == [6]
    assert kept_turned_a_quarter([(6, (200, 120), 225, 0.65), (2, (240, 120), 225, 0.65)], 56.0) == [6, 2]


def test_a_side_face_votes_by_its_own_top_face_not_the_next_die_s():
    """A camera turned a quarter, looking from the left: a die's front face in shade lies left of its top
    face, and as near the next die's top face up and to the right, on the axis too (matteop65 three_43 turned
    90). Its own top face is the nearer: it tells the camera lies to the left, and the face is a side."""
    looks = [(3, (280, 164), 225, 0.7), (3, (353, 209), 225, 0.7), (2, (308, 210), 180, 0.7)]
    assert kept_turned_a_quarter(looks, 63.0) == [3, 3]


def test_perspective_tells_which_way_a_turned_camera_lies_where_no_side_face_is_in_shade():
    """A camera turned a quarter, a window lighting the side faces as well as the top faces (matteop65
    four_15 turned 90): a face lit alike beside a top face may be its side face or the next die. The faces
    are rounder towards the camera, seen from higher above, so the way the dice grow rounder tells which
    side of its top face a side face lies, and the face there goes; the next die on the far side stays."""
    near_right = [(3, (80, 120), 225, 0.6), (6, (200, 120), 225, 0.72), (2, (240, 120), 225, 0.72)]
    assert kept_turned_a_quarter(near_right, 56.0) == [3, 6]
    near_left = [(3, (360, 120), 225, 0.6), (6, (240, 120), 225, 0.72), (2, (200, 120), 225, 0.72)]
    assert kept_turned_a_quarter(near_left, 56.0) == [3, 6]
    alike = [(3, (80, 120), 225, 0.72), (6, (200, 120), 225, 0.72), (2, (240, 120), 225, 0.72)]
    assert kept_turned_a_quarter(alike, 56.0) == [3, 6, 2]

"""Side faces seen at a slant are told from dice by their shading (`vision.sides`)."""

import cv2
import numpy as np

from vision.reader import DiceReader

SPOTS = {1: [(0, 0)], 3: [(-1, -1), (0, 0), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]}


def oblique_die(frame, centre, top_value, side_value, top_level=225, side_level=180, die=56):
    """A die seen from the front and above: its top face, and below it the front face squashed to 0.6 of
    its height and lit `side_level` instead of `top_level` (a room's light comes from above). Its pips are
    as round as the top face's, as a webcam's blur leaves them."""
    x, y = centre
    half = die // 2
    cv2.rectangle(frame, (x - half, y - half), (x + half, y + half), (top_level,) * 3, -1)
    depth = int(die * 0.6)
    cv2.rectangle(frame, (x - half, y + half), (x + half, y + half + depth), (side_level,) * 3, -1)
    pip = int(die * 0.09)
    for dx, dy in SPOTS[top_value]:
        spot = (int(x + dx * die * 0.27), int(y + dy * die * 0.27))
        cv2.circle(frame, spot, pip, (30,) * 3, -1, cv2.LINE_AA)
    side_y = y + half + depth / 2
    for dx, dy in SPOTS[side_value]:
        spot = (int(x + dx * die * 0.27), int(side_y + dy * die * 0.27 * 0.6))
        cv2.circle(frame, spot, pip, (30,) * 3, -1, cv2.LINE_AA)


def frame_with(dice):
    frame = np.full((480, 640, 3), 120, np.uint8)
    noise = np.random.default_rng(3).normal(0, 3, frame.shape)
    frame = np.clip(frame + noise, 0, 255).astype(np.uint8)
    for centre, top, side in dice:
        oblique_die(frame, centre, top, side)
    return frame


def test_the_darker_face_below_a_top_face_is_its_side_not_a_die():
    """Two dice showing 1 with a five on the face towards the camera: the fives are as round and as large
    as a top face's pips, so only their shading tells them."""
    frame = frame_with([((200, 200), 1, 5), ((420, 200), 1, 5)])
    assert DiceReader().read(frame).values == [1, 1]


def test_two_dice_lit_alike_one_behind_the_other_are_both_read():
    """The nearer die's top face lies below the farther one's, about a side away and as bright: no side."""
    frame = np.full((480, 640, 3), 120, np.uint8)
    frame = np.clip(frame + np.random.default_rng(3).normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    for value, y in ((3, 150), (5, 210)):
        cv2.rectangle(frame, (292, y - 28), (348, y + 28), (225,) * 3, -1)
        for dx, dy in SPOTS[value]:
            cv2.circle(frame, (int(320 + dx * 15), int(y + dy * 15)), 5, (30,) * 3, -1, cv2.LINE_AA)
    assert sorted(DiceReader().read(frame).values) == [3, 5]

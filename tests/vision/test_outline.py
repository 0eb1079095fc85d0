"""The outline cue: a white die on a white tray shows its edge all round its pip; a speck shows none."""

import cv2
import numpy as np
import pytest

from vision.outline import outline_contrast
from vision.reader import DEFAULT_PARAMS, OUTLINE_SHARE, WORK_DIE_PX

BAR = OUTLINE_SHARE * DEFAULT_PARAMS["body_contrast"]  # what the reader asks of a lone pip's outline
DIE = 40
PIP = 8


def pale_tray(grain=2.0, seed=5):
    """A pale, nearly flat tray with a little sensor grain, as 8-bit BGR."""
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal(200, grain, (240, 320, 3)), 0, 255).astype(np.uint8)


def white_die_showing_one(frame, centre, angle=0.0):
    """A die of the tray's own colour: only its thin shadow line round the face, and its pip, show."""
    corners = np.intp(np.round(cv2.boxPoints((centre, (DIE, DIE), angle))))
    cv2.polylines(frame, [corners], True, (180, 180, 180), 2, cv2.LINE_AA)
    cv2.circle(frame, (int(centre[0]), int(centre[1])), PIP // 2, (30, 30, 30), -1, cv2.LINE_AA)


def speck(frame, centre):
    cv2.circle(frame, (int(centre[0]), int(centre[1])), PIP // 2, (30, 30, 30), -1, cv2.LINE_AA)


@pytest.mark.parametrize("angle", [0.0, 20.0, 45.0])
def test_a_white_die_on_a_white_tray_shows_its_outline(angle):
    frame = pale_tray()
    white_die_showing_one(frame, (160.0, 120.0), angle)
    assert outline_contrast(frame, (160.0, 120.0), PIP, DIE, WORK_DIE_PX) >= BAR


def test_a_die_smaller_than_the_frames_dice_shows_its_outline_too():
    """A die of a smaller set beside the frame's dice: its side is 0.6 of theirs."""
    frame = pale_tray()
    white_die_showing_one(frame, (160.0, 120.0))
    assert outline_contrast(frame, (160.0, 120.0), PIP, DIE / 0.6, WORK_DIE_PX) >= BAR


@pytest.mark.parametrize("enlarged", [2.5, 4.0])
def test_an_enlarged_frame_shows_the_outline_as_steep_and_a_speck_still_none(enlarged):
    """A frame enlarged (bicubic, as a still with more pixels on the dice) spreads the die's edge over more
    pixels, each less steep, while the tray's gradient stays at a level or more: measured at the die's own
    size, the outline fell under the bar (nell-byler 100054 enlarged 2.5x: its white one refused)."""
    frame = pale_tray()
    white_die_showing_one(frame, (100.0, 120.0))
    speck(frame, (220.0, 120.0))
    large = cv2.resize(frame, None, fx=enlarged, fy=enlarged, interpolation=cv2.INTER_CUBIC)
    die, pip = DIE * enlarged, PIP * enlarged
    assert outline_contrast(large, (100.0 * enlarged, 120.0 * enlarged), pip, die, WORK_DIE_PX) >= BAR
    assert outline_contrast(large, (220.0 * enlarged, 120.0 * enlarged), pip, die, WORK_DIE_PX) < BAR


def test_a_speck_on_the_tray_has_no_outline():
    frame = pale_tray()
    speck(frame, (160.0, 120.0))
    assert outline_contrast(frame, (160.0, 120.0), PIP, DIE, WORK_DIE_PX) < BAR


def test_a_speck_beside_a_wall_has_no_outline():
    """The wall's edge runs past the speck on one side, where a die's side would lie: a side is no square."""
    frame = pale_tray()
    frame[:, : 160 - DIE // 2] = 120
    speck(frame, (160.0, 120.0))
    assert outline_contrast(frame, (160.0, 120.0), PIP, DIE, WORK_DIE_PX) < BAR


def test_a_speck_on_grained_wood_has_no_outline():
    """Grain lines cross the squares tried on two sides at most, and the wood's own gradient is the unit."""
    frame = pale_tray()
    for y in range(0, 240, 7):
        cv2.line(frame, (0, y), (319, y + 12), (150, 150, 150), 2, cv2.LINE_AA)
    speck(frame, (160.0, 120.0))
    assert outline_contrast(frame, (160.0, 120.0), PIP, DIE, WORK_DIE_PX) < BAR


def test_a_die_cut_by_the_frame_edge_is_measured_without_error():
    """Squares running off the frame count as no outline there; the die is the reader's to report as cut."""
    frame = pale_tray()
    white_die_showing_one(frame, (6.0, 120.0))
    assert 0.0 <= outline_contrast(frame, (6.0, 120.0), PIP, DIE, WORK_DIE_PX) < BAR


def test_a_pip_too_large_for_any_die_of_the_frame_has_no_outline():
    """A 1's pip is at most 0.4 of its side: a blob half a die wide leaves no side to try."""
    frame = pale_tray()
    white_die_showing_one(frame, (160.0, 120.0))
    assert outline_contrast(frame, (160.0, 120.0), 0.6 * DIE, DIE, WORK_DIE_PX) == 0.0

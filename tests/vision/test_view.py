"""Which way the camera lies (`vision.view`), on faces and distances built here."""

import numpy as np
import pytest

from vision.faces import Face
from vision.view import (
    DOWN,
    perspective_way,
    squash_agreement,
    squash_direction,
    towards_camera,
    view_axis,
)

ACROSS = np.array([1.0, 0.0])
NOTHING = np.zeros(2)  # perspective tells nothing


def face(roundness: float, squash_angle: float) -> Face:
    return Face((0, 1), 2, (0.0, 0.0), 40.0, 0.0, 1.0, roundness=roundness, squash_angle=squash_angle)


def offsets(centers: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """[i, j]: how far point j lies from point i, across and down the frame."""
    points = np.array(centers, float)
    return points[None, :, 0] - points[:, None, 0], points[None, :, 1] - points[:, None, 1]


def test_axes_are_averaged_as_axes():
    """An axis at 170 degrees is one at 350, 10 degrees from one at 0: their mean is 0, not 85."""
    mean = squash_direction(np.array([170.0, 10.0]), np.ones(2))
    assert abs((mean + 90.0) % 180.0 - 90.0) < 1e-6
    assert squash_direction(np.array([80.0, 100.0]), np.array([1.0, 3.0])) == pytest.approx(95.0, abs=0.5)
    assert np.isnan(squash_direction(np.array([0.0, 90.0]), np.ones(2)))


def test_round_pips_tell_no_axis_and_squashed_ones_tell_the_axis_they_are_squashed_along():
    """A camera looking straight down squashes no pips; one at a slant squashes them along the way it looks.
    Where no face's squash is known, a camera held upright is assumed."""
    assert view_axis([face(0.9, 0.0), face(0.95, 0.0)]) is None
    assert view_axis([]) is None
    across = view_axis([face(0.6, 0.0), face(0.7, 180.0)])  # an axis: either way along it
    assert abs(across @ np.array([1.0, 0.0])) == pytest.approx(1.0)
    np.testing.assert_array_equal(view_axis([face(0.6, np.nan), face(0.7, np.nan)]), DOWN)


@pytest.mark.parametrize(
    ("axis", "shaded_at", "way"),
    [(DOWN, 135.0, DOWN), (DOWN, 65.0, -DOWN), (np.array([1.0, 0.0]), 135.0, np.zeros(2))],
    ids=["below", "above", "across"],
)
def test_the_shaded_face_tells_which_way_along_the_axis_the_camera_lies(axis, shaded_at, way):
    """A top face and, on the axis, the face in shade beside it: the camera lies on the shaded face's side.
    Across the axis, the pair is no side face and its top face, so nothing tells (a frame turned a quarter,
    its shaded faces beside their top faces, with nothing in shade along its axis)."""
    dx, dy = offsets([(100.0, 100.0), (100.0, shaded_at)])
    shaded = np.array([[False, True], [False, False]])  # [i, j]: face j in shade beside face i
    np.testing.assert_allclose(towards_camera(axis, dx, dy, shaded, NOTHING), way, atol=1e-9)


def test_with_no_face_in_shade_an_upright_camera_is_assumed_along_a_vertical_axis_only():
    dx, dy = offsets([(100.0, 100.0), (100.0, 135.0)])
    none = np.zeros((2, 2), bool)
    np.testing.assert_array_equal(towards_camera(DOWN, dx, dy, none, NOTHING), DOWN)
    np.testing.assert_array_equal(towards_camera(ACROSS, dx, dy, none, NOTHING), [0.0, 0.0])


def test_a_shaded_face_votes_by_its_own_top_face_the_nearest_face_it_is_darker_than():
    """A side face below its top face, and a little further below it the next die's top face, which it is
    darker than too: its own (the nearer) votes, so the camera is below; voting by both pairs would tie."""
    dx, dy = offsets([(100.0, 100.0), (100.0, 130.0), (100.0, 165.0)])
    shaded = np.zeros((3, 3), bool)
    shaded[0, 1] = shaded[2, 1] = True
    np.testing.assert_array_equal(towards_camera(DOWN, dx, dy, shaded, NOTHING), DOWN)


def test_axes_that_agree_agree_and_axes_that_cross_cancel_out():
    assert squash_agreement(np.array([170.0, 10.0]), np.ones(2)) == pytest.approx(np.cos(np.radians(20.0)))
    assert squash_agreement(np.array([0.0, 90.0]), np.ones(2)) == pytest.approx(0.0, abs=1e-9)
    assert squash_agreement(np.array([]), np.array([])) == 0.0


def perspective(roundness: list[float], along: list[float], angles: list[float] | None = None) -> np.ndarray:
    """`perspective_way` for faces at `along` die sides across the frame (dice 40 px wide), their pips
    squashed across it (`angles` 0) to `roundness`, as a camera turned a quarter on its mount squashes
    them."""
    angles = angles or [0.0] * len(roundness)
    faces = [face(level, angle) for level, angle in zip(roundness, angles, strict=True)]
    centers = np.array([[40.0 * share, 100.0] for share in along])
    return perspective_way(ACROSS, faces, centers, 40.0)


def test_the_faces_nearer_the_camera_are_the_rounder():
    """A camera looking down at a slant sees the near table from higher above: the rounder end is its way."""
    np.testing.assert_array_equal(perspective([0.6, 0.68, 0.75], [1.0, 2.0, 3.5]), ACROSS)
    np.testing.assert_array_equal(perspective([0.75, 0.68, 0.6], [1.0, 2.0, 3.5]), -ACROSS)


@pytest.mark.parametrize(
    ("roundness", "along", "angles"),
    [
        ([0.6, 0.75], [1.0, 1.8], None),
        ([0.7, 0.74, 0.72], [1.0, 2.0, 3.5], None),
        ([0.6, 0.68, 0.75], [1.0, 2.0, 3.5], [0.0, 60.0, 120.0]),
    ],
    ids=["within-a-die", "alike", "squashed-every-way"],
)
def test_perspective_tells_nothing_from_faces_close_alike_or_squashed_every_which_way(
    roundness, along, angles
):
    """Faces less than a die apart along the axis, or whose roundness differs by less than pixel noise
    does, tell nothing; nor do dice in a heap seen from above, each tilted its own way (nell-byler 095849):
    their squash is no camera's slant."""
    np.testing.assert_array_equal(perspective(roundness, along, angles), NOTHING)


def test_with_no_face_in_shade_perspective_tells_and_a_shaded_face_outvotes_it():
    """A face beside another, lit alike (a window lights side faces too): perspective tells the way, on a
    vertical axis as well, where an upright camera is assumed only when it tells nothing. A face in shade
    beside its top face tells the way whatever perspective says."""
    dx, dy = offsets([(100.0, 100.0), (135.0, 100.0)])
    none = np.zeros((2, 2), bool)
    np.testing.assert_array_equal(towards_camera(ACROSS, dx, dy, none, -ACROSS), -ACROSS)
    dx, dy = offsets([(100.0, 100.0), (100.0, 135.0)])
    np.testing.assert_array_equal(towards_camera(DOWN, dx, dy, none, -DOWN), -DOWN)
    shaded = np.array([[False, True], [False, False]])
    np.testing.assert_array_equal(towards_camera(DOWN, dx, dy, shaded, -DOWN), DOWN)

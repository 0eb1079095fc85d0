"""Which way the camera lies (`vision.view`), on faces and distances built here."""

import numpy as np
import pytest

from vision.faces import Face
from vision.view import DOWN, squash_direction, towards_camera, view_axis


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
    np.testing.assert_allclose(towards_camera(axis, dx, dy, shaded), way, atol=1e-9)


def test_with_no_face_in_shade_an_upright_camera_is_assumed_along_a_vertical_axis_only():
    dx, dy = offsets([(100.0, 100.0), (100.0, 135.0)])
    none = np.zeros((2, 2), bool)
    np.testing.assert_array_equal(towards_camera(DOWN, dx, dy, none), DOWN)
    np.testing.assert_array_equal(towards_camera(np.array([1.0, 0.0]), dx, dy, none), [0.0, 0.0])


def test_a_shaded_face_votes_by_its_own_top_face_the_nearest_face_it_is_darker_than():
    """A side face below its top face, and a little further below it the next die's top face, which it is
    darker than too: its own (the nearer) votes, so the camera is below; voting by both pairs would tie."""
    dx, dy = offsets([(100.0, 100.0), (100.0, 130.0), (100.0, 165.0)])
    shaded = np.zeros((3, 3), bool)
    shaded[0, 1] = shaded[2, 1] = True
    np.testing.assert_array_equal(towards_camera(DOWN, dx, dy, shaded), DOWN)

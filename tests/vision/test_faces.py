"""Grouping pips into faces, on pip candidates built here (no image processing in between)."""

import numpy as np

from vision.faces import group_faces
from vision.pips import Pips
from vision.reader import DEFAULT_PARAMS


def diagonal_three(diameter: float, roundness: tuple[float, float, float], die: float = 40.0) -> Pips:
    """Three dark pips on the diagonal of a die `die` pixels wide, on a plain light face."""
    step = 0.27 * die
    centre = 60.0
    x = np.array([centre - step, centre, centre + step])
    n = len(x)
    return Pips(
        x=x,
        y=x.copy(),
        diameter=np.full(n, diameter),
        roundness=np.array(roundness),
        dark=np.ones(n, bool),
        contrast=np.full(n, 120.0),
        face=np.full(n, 220.0),
        label=np.arange(1, n + 1, dtype=np.int32),
        spread=np.zeros(n),
        labels=np.zeros((120, 120), np.int32),
    )


def read(pips: Pips) -> list[int | None]:
    gray = np.full(pips.labels.shape, 220, np.uint8)
    return sorted(face.value for face in group_faces(pips, gray, 40.0, DEFAULT_PARAMS))


def test_small_pips_of_uneven_measured_roundness_still_make_one_face():
    """At 5 px a pip's roundness is pixel noise: 0.8 and 0.62 are the same shape."""
    assert read(diagonal_three(5.0, (0.8, 0.62, 0.8))) == [3]


def test_large_pips_that_differ_this_much_in_roundness_are_not_one_face():
    """At 12 px the difference is real: a flatter pip belongs to a side face seen at an angle."""
    assert read(diagonal_three(12.0, (0.8, 0.62, 0.8))) != [3]

"""Completing partly found faces by looking at the places their missing pips would be."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.complete import complete_faces
from vision.faces import Face
from vision.pips import Pips
from vision.reader import DEFAULT_PARAMS

STEP = 11.0  # pip place to pip place along a side, in pixels (a die of about 40)
CENTRE = np.array([60.0, 60.0])
PLACES = {
    "diagonal": [(-1, -1), (1, 1)],
    "other diagonal": [(1, -1), (-1, 1)],
    "corners": [(-1, -1), (1, 1), (1, -1), (-1, 1)],
    "centre": [(0, 0)],
    "sides": [(-1, 0), (1, 0)],
    "column": [(-1, -1), (-1, 0), (-1, 1)],
    "three": [(-1, -1), (0, 0), (1, 1)],
    "near column": [(0.4, -1), (0.4, 0), (0.4, 1)],  # a six whose columns are closer than its rows
}


def face_image(places: list[str], faint: float = 0.0) -> np.ndarray:
    """A light face with dark pips at the named places; `faint` lightens all but the first two corners."""
    image = np.full((120, 120), 220, np.uint8)
    spots = [spot for name in places for spot in PLACES[name]]
    for index, (dx, dy) in enumerate(spots):
        level = 40 if index < 2 else int(40 + faint * 180)
        cv2.circle(image, (int(60 + dx * STEP), int(60 + dy * STEP)), 3, level, -1, cv2.LINE_AA)
    return image


def found(
    points: list[tuple[float, float]], readable: bool = True, unlinked: list[tuple[float, float]] = ()
) -> tuple[Face, Pips]:
    """The pips the detector found at `points` (offsets in STEPs), read as a face of that many pips (or, not
    `readable`, as a group of pips that forms no layout), and at `unlinked`, pips left out of the face (too
    unlike its pips: blur stretched them)."""
    xy = CENTRE + np.array([*points, *unlinked], float) * STEP
    n = len(xy)
    pips = Pips(
        x=xy[:, 0],
        y=xy[:, 1],
        diameter=np.full(n, 6.0),
        roundness=np.full(n, 0.95),
        dark=np.ones(n, bool),
        contrast=np.full(n, 180.0),
        face=np.full(n, 220.0),
        label=np.arange(1, n + 1, dtype=np.int32),
        spread=np.zeros(n),
        fill=np.ones(n),
        parent=np.arange(1, n + 1, dtype=np.int32),
        angle=np.zeros(n),
        labels=np.zeros((120, 120), np.int32),
    )
    members, middle = tuple(range(len(points))), tuple(xy[: len(points)].mean(axis=0))
    if not readable:
        return Face(members, None, middle, 40.0, 0.0, 0.0), pips
    return Face(members, len(points), middle, 40.0, 45.0, 0.9), pips


@pytest.mark.parametrize(
    ("places", "seen", "value"),
    [
        (["corners"], [(-1, -1), (1, 1)], 4),  # two pips of a four found: the other diagonal is there
        (["corners", "centre"], [(-1, -1), (1, 1)], 5),
        (["corners", "centre"], [(-1, -1), (0, 0), (1, 1)], 5),
        (["corners", "centre"], [(-1, -1), (1, 1), (1, -1), (-1, 1)], 5),
        (["diagonal"], [(-1, -1), (1, 1)], 2),  # a real two: blank face where a four has pips
        (["corners"], [(-1, -1), (1, 1), (1, -1), (-1, 1)], 4),
        (["corners", "sides"], [(-1, -1), (-1, 0), (-1, 1)], 6),  # one column of a six found
        (["three"], [(-1, -1), (0, 0), (1, 1)], 3),
    ],
)
def test_a_face_grows_to_the_layout_its_image_shows(places, seen, value):
    face, pips = found(seen)
    assert complete_faces([face], pips, face_image(places), DEFAULT_PARAMS)[0].value == value


CORNERS = [(-1, -1), (1, 1), (1, -1), (-1, 1)]
SIDES = [(-1, 0), (1, 0)]


@pytest.mark.parametrize("seen", [CORNERS, CORNERS[:3]])
def test_a_four_is_a_six_when_pips_were_found_at_the_middles_of_two_sides(seen):
    """Blur along a six's columns stretches its middle pips into their neighbours, so they are left out of
    the face (and a corner may be lost too: the group is completed to a four first). They were still found
    as pips, which a blank face between two corners never is."""
    face, pips = found(seen, readable=len(seen) == 4, unlinked=SIDES)
    assert complete_faces([face], pips, face_image(["corners", "sides"]), DEFAULT_PARAMS)[0].value == 6


@pytest.mark.parametrize("seen", [CORNERS, CORNERS[:3]])
def test_blur_darkening_the_face_between_a_four_s_pips_does_not_make_a_six(seen):
    """A four blurred along its columns: the face between two pips of a column is dark, but no pip stands
    out there as one of its own."""
    image = face_image(["corners"])
    for column in (-1, 1):
        x = int(60 + column * STEP)
        cv2.line(image, (x, int(60 - STEP)), (x, int(60 + STEP)), 100, 4)
    face, pips = found(seen, readable=len(seen) == 4)
    assert complete_faces([face], pips, image, DEFAULT_PARAMS)[0].value == 4


@pytest.mark.parametrize(("unlinked", "value"), [([(0, 0)], 3), ([], 2)])
def test_a_two_is_a_three_when_a_pip_was_found_at_its_centre(unlinked, value):
    """A three's middle pip stretched by a glint is left out of the face, but it was still found as a pip;
    a two's centre darkened by a smear, where no pip was found, stays a two's blank centre."""
    face, pips = found([(-1, -1), (1, 1)], unlinked=unlinked)
    assert complete_faces([face], pips, face_image(["three"]), DEFAULT_PARAMS)[0].value == value


@pytest.mark.parametrize(("unlinked", "value"), [([(1, 1)], 3), ([], 2)])
def test_a_three_s_middle_and_end_pip_are_a_three_when_its_other_end_was_found_too(unlinked, value):
    """A three's end pip joined to a glint does not link, and its other two pips read as a two of a die half
    its size; the pip beyond them, at their own distance, makes it the three, centred on the middle pip and
    twice the two's size. Without a pip found there, a two it stays, however dark the place is."""
    face, pips = found([(-1, -1), (0, 0)], unlinked=unlinked)
    face = replace(face, size=20.0)
    grown = complete_faces([face], pips, face_image(["three"]), DEFAULT_PARAMS)[0]
    assert grown.value == value
    if value == 3:
        assert grown.center == pytest.approx(tuple(CENTRE)) and grown.size == pytest.approx(40.0)


def blurred_three(middle_turn: float) -> tuple[np.ndarray, np.ndarray]:
    """A three smeared sideways by motion blur: its pips are bars (an image and its blobs' labels: the end
    ones 1 and 2, as `found` numbers them, and the middle one 3), the middle one turned `middle_turn`
    degrees from the others."""
    image = np.full((120, 120), 220, np.uint8)
    labels = np.zeros((120, 120), np.int32)
    for label, (dx, dy) in zip((1, 3, 2), PLACES["three"], strict=True):
        turn = np.radians(middle_turn if (dx, dy) == (0, 0) else 0.0)
        half = 5.0 * np.array([np.cos(turn), np.sin(turn)])
        centre = CENTRE + np.array([dx, dy]) * STEP
        ends = [tuple(int(v) for v in np.rint(centre + sign * half)) for sign in (-1, 1)]
        bar = np.zeros((120, 120), np.uint8)
        cv2.line(bar, *ends, 255, 3)
        image[bar > 0] = 40
        labels[bar > 0] = label
    return image, labels


@pytest.mark.parametrize(("middle_turn", "value"), [(0.0, 3), (10.0, 3), (60.0, 2)])
def test_a_two_is_a_three_when_a_bar_at_its_centre_lies_along_its_pips_bars(middle_turn, value):
    """Motion blur smears each pip of a moving die into a bar along one path: the end bars' cores are found
    as pips, the middle bar is cut as a blob of its own but too stretched to be a pip, so it was not found.
    A blob across the others (a marbled face's swirl between a two's pips) is no such pip."""
    image, labels = blurred_three(middle_turn)
    face, pips = found([(-1, -1), (1, 1)])
    pips = replace(pips, labels=labels)
    assert complete_faces([face], pips, image, DEFAULT_PARAMS)[0].value == value


def test_places_barely_darker_than_the_face_are_no_pips():
    face, pips = found([(-1, -1), (1, 1)])
    assert complete_faces([face], pips, face_image(["corners"], faint=0.7), DEFAULT_PARAMS)[0].value == 2


def test_a_place_on_a_dark_region_is_no_pip():
    """The other corners of a two fall on a shadow or a seam, not on pips: the ring around them is dark."""
    image = face_image(["diagonal"])
    cv2.line(image, (40, 80), (80, 40), 60, 12)  # a dark band through the other diagonal
    face, pips = found([(-1, -1), (1, 1)])
    assert complete_faces([face], pips, image, DEFAULT_PARAMS)[0].value == 2


def run_together(centre: int | None, bars: int) -> np.ndarray:
    """A four whose corner pips run into its centre along bars of gray level `bars`, as JPEG runs a small
    smoky die's red pips together, with a pip of level `centre` there (a five) or none (a four)."""
    image = face_image(["corners"])
    for dx, dy in CORNERS:
        cv2.line(image, (60, 60), (int(60 + dx * STEP), int(60 + dy * STEP)), bars, 6)
    if centre is not None:
        cv2.circle(image, (60, 60), 3, centre, -1, cv2.LINE_AA)
    return image


@pytest.mark.parametrize(
    ("centre", "bars", "value"),
    [
        (20, 110, 5),  # a pip darker than the bars that lead to it
        (None, 110, 4),  # the bars alone meet where a four is blank
        (40, 40, 4),  # bars as dark as the pips: a dark cross, no pip standing out of it
        (60, 150, 4),  # a spot that stands out of its ring, but less deep than the pips
    ],
)
def test_a_pip_that_runs_into_its_neighbours_is_one_where_it_stands_out_from_them(centre, bars, value):
    """Around a small die's five, the bars joining its centre pip to the corners cross most of the ring
    the look expects to be face. A spot as deep as the found pips that stands out from that ring is still
    the centre pip; where the bars alone meet, or the spot is no deeper than the bars or than the found
    pips, it is a four."""
    face, pips = found(CORNERS)
    assert complete_faces([face], pips, run_together(centre, bars), DEFAULT_PARAMS)[0].value == value


@pytest.mark.parametrize(
    ("places", "seen", "value"),
    [
        (["corners", "centre"], [(-1, -1), (1, 1), (1, -1), (0, 0)], 5),  # a corner lost to a glint
        (["corners", "sides"], [(-1, -1), (1, 1), (1, -1), (-1, 1), (-1, 0)], 6),
        (["corners"], [(-1, -1), (1, 1), (1, -1)], 4),
        (["three", "sides"], [(-1, -1), (1, 1), (1, -1), (0, 0)], None),  # blank where the mirror falls
    ],
)
def test_a_group_that_is_a_layout_but_for_one_pip_is_read_when_the_image_shows_it(places, seen, value):
    """Layouts are point-symmetric: the missing pip is the mirror of the one without a partner."""
    face, pips = found(seen, readable=False)
    assert complete_faces([face], pips, face_image(places), DEFAULT_PARAMS)[0].value == value


@pytest.mark.parametrize(("side_roundness", "value"), [(0.6, None), (0.95, 6)])
def test_a_four_and_a_flatter_pip_below_it_are_no_six_but_for_one_pip(side_roundness, value):
    """A four seen at a slant, linked to one pip of its side face just below (the side face's other pip
    was too flat to link): a two by three grid but for one place, which shows that other pip. The found pip
    of the end row is flatter than the four's, as a side face's are, so no six; alike, it is a six's."""
    four = [(-1, -1), (1, -1), (-1, 0), (1, 0)]
    face, pips = found([*four, (-1, 1)], readable=False)
    pips = replace(pips, roundness=np.array([0.95] * 4 + [side_roundness]))
    image = face_image(["corners", "sides"])
    assert complete_faces([face], pips, image, DEFAULT_PARAMS)[0].value == value


@pytest.mark.parametrize(
    ("places", "value"), [(["corners", "sides"], 6), (["other diagonal", "sides"], None)]
)
def test_a_group_that_is_a_six_but_for_two_opposite_corners_is_read_when_the_image_shows_them(places, value):
    """A small die's six: two corner pips merged with a side face's pips and were cut away. The four found
    (a corner pair and the middle pair) are point-symmetric but no layout; the lost pair lies a column's step
    beyond the middles. Where the image shows blank face there, the group stays unread."""
    face, pips = found([(1, -1), (-1, 1), (-1, 0), (1, 0)], readable=False)
    assert complete_faces([face], pips, face_image(places), DEFAULT_PARAMS)[0].value == value


def test_a_face_split_from_its_group_grows_back_with_the_rest_of_the_group():
    """A six missing one pip is no layout: its group splits into a column read as a three and two pips.

    The other column is nearer than a column's length (makers differ), so looking a column's length aside
    finds nothing; the group's other pips fix where the missing one is.
    """
    seen = [(-1, -1), (-1, 0), (-1, 1), (0.4, -1), (0.4, 1)]
    _, pips = found(seen)
    column = Face(
        (0, 1, 2), 3, (float(CENTRE[0] - STEP), float(CENTRE[1])), 40.0, 45.0, 0.9, group=(0, 1, 2, 3, 4)
    )
    image = face_image(["column", "near column"])
    assert complete_faces([column], pips, image, DEFAULT_PARAMS)[0].value == 6
    _, column_alone = found(seen[:3])  # no pip found beside the column: nothing shows the nearer column
    assert complete_faces([replace(column, group=())], column_alone, image, DEFAULT_PARAMS)[0].value == 3


@pytest.mark.parametrize(
    ("places", "beside", "value"),
    [
        (["column", "near column"], (0.4, 1), 6),  # one pip of the nearer column found, not linked
        (["column", "near column"], (0.4, 0), 6),
        (["column"], (0.4, 1), 3),  # a pip found beside the column, on a blank face: no other column there
        (["column", "near column"], (0.4, 0.5), 3),  # level with none of the column's pips
        (["column", "near column"], (1.6, 1), 3),  # farther aside than the column is long
    ],
)
def test_a_column_of_three_is_a_six_whose_other_column_a_pip_found_beside_it_shows(places, beside, value):
    """Some makers space a six's columns closer than its rows. A pip candidate found level with one of a
    three's pips, between half and the whole of its length aside, tells where the other column would be,
    and the look finds its pips there; a column's length aside it finds none."""
    face, pips = found(PLACES["column"], unlinked=[beside])
    read = complete_faces([face], pips, face_image(places), DEFAULT_PARAMS)[0]
    assert read.value == value
    if value == 6:  # the six lies between its columns, not on the one read first
        assert read.center[0] == pytest.approx(CENTRE[0] + (-1 + 0.4) / 2 * STEP)


@pytest.mark.parametrize(("end_roundness", "value"), [(0.6, 3), (0.95, 6)])
def test_a_column_and_a_pip_beside_it_ending_in_flatter_pips_are_no_six(end_roundness, value):
    """A four seen at a slant: one column and its side face's pip below make a straight three, and the side
    face's other pip is found beside it. That end row is flatter than the rest, as a side face's pips are, so
    no six; alike, it is a six's."""
    face, pips = found(PLACES["column"], unlinked=[(0.4, 1)])
    pips = replace(pips, roundness=np.array([0.95, 0.95, end_roundness, end_roundness]))
    image = face_image(["column", "near column"])
    assert complete_faces([face], pips, image, DEFAULT_PARAMS)[0].value == value

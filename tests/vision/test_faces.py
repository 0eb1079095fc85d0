"""Grouping pips into faces, on pip candidates built here (no image processing in between)."""

from dataclasses import fields, replace

import numpy as np
import pytest

from vision.faces import CORE_ONE_CONFIDENCE, Face, _links, group_faces, vote
from vision.pips import Pips
from vision.reader import DEFAULT_PARAMS

# The columns of `Pips` joined when two sets of pips are made one: labels are numbered anew, and `labels`
# and `seams` describe the whole cut.
_PER_PIP = [
    column.name for column in fields(Pips) if column.name not in ("label", "parent", "labels", "seams")
]


def pips_at(
    points: list[tuple[float, float]],
    diameter: float | list[float] = 5.0,
    roundness: list[float] | None = None,
    fill: float = 1.0,
    core: bool = False,
    contrast: list[float] | None = None,
    one_blob: bool = False,
    face: list[float] | None = None,
) -> Pips:
    """Dark pips at `points` on a plain light face (a 120 px square image with no other blobs).

    `core` makes each a core cut out of a larger blob of its own; `one_blob` makes them all cores of one blob.
    `face` is the gray level of the face around each pip (220: all lit alike).
    """
    xy = np.array(points, float)
    n = len(xy)
    return Pips(
        x=xy[:, 0],
        y=xy[:, 1],
        diameter=np.broadcast_to(np.array(diameter, float), n).copy(),
        roundness=np.array(roundness if roundness is not None else [0.9] * n),
        dark=np.ones(n, bool),
        contrast=np.array(contrast if contrast is not None else [120.0] * n),
        face=np.array(face if face is not None else [220.0] * n),
        label=np.arange(1, n + 1, dtype=np.int32),
        spread=np.zeros(n),
        fill=np.full(n, fill),
        parent=np.full(n, 100, np.int32)
        if one_blob
        else np.arange(1, n + 1, dtype=np.int32) + (100 if core else 0),
        angle=np.zeros(n),
        labels=np.zeros((120, 120), np.int32),
    )


def diagonal_three(diameter: float, roundness: tuple[float, float, float], die: float = 40.0) -> Pips:
    """Three dark pips on the diagonal of a die `die` pixels wide."""
    step = 0.27 * die
    return pips_at([(60 - step, 60 - step), (60, 60), (60 + step, 60 + step)], diameter, list(roundness))


def unequally_round_two() -> Pips:
    """A two's pips 12 px wide, 0.91 and 0.72 round: more apart than pips of one face seen alike measure."""
    step = 0.27 * 40.0
    return pips_at([(60 - step, 60 - step), (60 + step, 60 + step)], diameter=12.0, roundness=[0.91, 0.72])


def two_by_three_grid() -> list[tuple[float, float]]:
    """Pip centres two by three, the columns as far apart as the rows: a six, or a four seen at a slant
    with its side face's two pips just below it (read at a 40 px die)."""
    step = 0.5 * 40.0
    return [(60 + dx * step, 60 + dy * step) for dy in (-1, 0, 1) for dx in (-0.5, 0.5)]


def read(pips: Pips) -> list[int | None]:
    gray = np.full(pips.labels.shape, 220, np.uint8)
    return sorted(face.value for face in group_faces(pips, gray, 40.0, DEFAULT_PARAMS))


def test_small_pips_of_uneven_measured_roundness_still_make_one_face():
    """At 5 px a pip's roundness is pixel noise: 0.8 and 0.62 are the same shape."""
    assert read(diagonal_three(5.0, (0.8, 0.62, 0.8))) == [3]


def test_large_pips_that_differ_this_much_in_roundness_are_not_one_face():
    """At 12 px the difference is real: a flatter pip belongs to a side face seen at an angle."""
    assert read(diagonal_three(12.0, (0.8, 0.62, 0.8))) != [3]


def test_a_two_with_pips_set_well_in_from_the_edges_is_a_two():
    """Corner pips a third of the side in: the diagonal is half that of the layout the reader expects."""
    half_diagonal = 0.5 * 0.5 * 40.0 / 2  # pips 0.5 x as far apart as on the standard layout of a 40 px die
    assert read(
        pips_at([(60 - half_diagonal, 60 - half_diagonal), (60 + half_diagonal, 60 + half_diagonal)])
    ) == [2]


def test_a_two_with_pips_near_the_corners_of_a_die_measured_a_little_small_is_a_two():
    """Corner pips a fifth in from the edges: the diagonal is 0.85 of the side, and the side measured from the
    frame's other faces may be 3% short (matteop65 two_29: two pips 36 px apart on a die measured 41.9)."""
    half_diagonal = 0.85 * 40.0 * 1.03 / 2 / np.sqrt(2)
    assert read(
        pips_at([(60 - half_diagonal, 60 - half_diagonal), (60 + half_diagonal, 60 + half_diagonal)])
    ) == [2]


def test_a_rounder_face_of_the_next_die_does_not_drop_the_focused_die_s_face():
    """Reading one die's body: a five of flatter pips (smoky plastic blurs them) at the focus, and the next
    die's one, rounder, a die side to its right. Without a focus the five passes for the one's side face."""
    step = 0.27 * 40.0
    five = [(60 + dx * step, 60 + dy * step) for dx, dy in [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]]
    pips = pips_at([*five, (60 + 40.0, 60)], roundness=[0.6] * 5 + [0.95])
    gray = np.full(pips.labels.shape, 220, np.uint8)
    assert [face.value for face in group_faces(pips, gray, 40.0, DEFAULT_PARAMS)] == [1]
    assert [face.value for face in group_faces(pips, gray, 40.0, DEFAULT_PARAMS, focus=(60.0, 60.0))] == [5]


def test_two_neighbouring_pips_of_a_six_are_not_a_two():
    step = 0.27 * 40.0  # one pip to the next down a column of a six
    assert 2 not in read(pips_at([(60, 60), (60, 60 + step)]))


def test_a_lone_pip_must_be_a_clean_disc():
    """One pip has no layout to back it: a blob that covers little of its ellipse (a glyph) is no 1."""
    assert read(pips_at([(60, 60)], fill=0.97)) == [1]
    assert read(pips_at([(60, 60)], fill=0.8)) == []


def test_the_channel_that_sees_the_most_pips_decides_a_die():
    """Gray missed three faint pips of a five; the red channel saw all five. One die, and it is a five."""
    gray = Face((0, 1), 2, (60.0, 60.0), 40.0, 0.0, 0.95)
    red = Face((0, 1, 2, 3, 4), 5, (61.0, 59.0), 40.0, 0.0, 0.6)
    elsewhere = Face((0,), 1, (200.0, 60.0), 40.0, 0.0, 0.9)
    assert sorted(face.value for face in vote([[gray, elsewhere], [red]], 40.0)) == [1, 5]


def test_a_two_one_colour_channel_read_does_not_outvote_a_one_gray_and_another_read():
    """White pips on a red die are faint in red, where a side face's pip beside the one makes a two. When
    gray and another channel read the one, it stands; a two gray reads, or one no other channel contradicts
    (a faint second pip), still wins. So does a two whose two pips gray and another channel each read as a
    one of their own (a gold die's pips, each faint in one channel): those ones are not the same pip."""
    one = Face((0,), 1, (60.0, 60.0), 40.0, 0.0, 0.8, pip=6.0)
    two = Face((0, 1), 2, (63.0, 60.0), 40.0, 0.0, 0.77, pip=6.0)
    green_one = Face((0,), 1, (60.0, 61.0), 40.0, 0.0, 0.82, pip=6.0)
    assert [face.value for face in vote([[one], [two], [green_one]], 40.0)] == [1]
    assert [face.value for face in vote([[one], [two]], 40.0)] == [2]
    assert [face.value for face in vote([[two], [one], [green_one]], 40.0)] == [2]
    assert [face.value for face in vote([[one], [two], [two]], 40.0)] == [2]
    other_pip = replace(green_one, center=(72.0, 60.0))
    assert [face.value for face in vote([[one], [two], [other_pip]], 40.0)] == [2]


def test_a_two_of_specks_either_side_of_a_one_s_pip_does_not_outvote_the_one():
    """A smoky die's white swirl rings its red 1: in lightness two specks of the ring, either side of the
    pip, read as a two, while a* and b* read the pip as a 1 (nell-byler 112536 turned 90). A two's middle is
    blank face, so the one stands when two readings put its pip there and the two's pips are clearly smaller.
    The two still wins where one channel alone reads the one, where its pips are as large as the one's, and
    where the one lies beside its middle."""
    specks = Face((0, 1), 2, (60.0, 60.0), 40.0, 0.0, 1.0, pip=3.2)
    one = Face((0,), 1, (61.0, 60.0), 40.0, 0.0, 0.81, pip=7.4)
    other_one = replace(one, center=(61.5, 60.5), confidence=0.72, pip=6.3)
    assert [face.value for face in vote([[specks], [one], [other_one]], 40.0)] == [1]
    assert [face.value for face in vote([[specks], [one]], 40.0)] == [2]
    two = replace(specks, pip=6.0)
    assert [face.value for face in vote([[two], [one], [other_one]], 40.0)] == [2]
    beside = [replace(face, center=(67.0, 60.0)) for face in (one, other_one)]
    assert [face.value for face in vote([[specks], beside[:1], beside[1:]], 40.0)] == [2]


def test_a_faint_six_one_colour_channel_alone_read_does_not_outvote_a_four_gray_and_another_read():
    """A marbled die's swirls and its four pips pass for a six of poor fit in one opponent colour (nell-byler
    112404 turned 90). Gray and red read the four surely, so it stands. The six still wins where it is sure,
    where a second channel reads it too, where nothing backs gray's four, where gray read nothing there (its
    pips may be faint in gray), and against a two gray and another channel read (both may lose a faint pip).
    """
    four = Face((0, 1, 2, 3), 4, (66.0, 56.0), 40.0, 0.0, 0.99)
    red_four = replace(four, confidence=0.97)
    six = Face((0, 1, 2, 3, 4, 5), 6, (57.0, 57.0), 40.0, 0.0, 0.24)
    assert [face.value for face in vote([[four], [red_four], [], [six]], 40.0)] == [4]
    assert [face.value for face in vote([[four], [red_four], [replace(six, confidence=0.8)]], 40.0)] == [6]
    assert [face.value for face in vote([[four], [red_four], [six], [six]], 40.0)] == [6]
    assert [face.value for face in vote([[four], [], [six]], 40.0)] == [6]
    assert [face.value for face in vote([[], [red_four], [four], [six]], 40.0)] == [6]
    two = Face((0, 1), 2, (60.0, 57.0), 40.0, 0.0, 0.99)
    assert [face.value for face in vote([[two], [replace(two, confidence=0.9)], [six]], 40.0)] == [6]


def test_a_sure_face_one_colour_channel_alone_read_does_not_outvote_a_layout_three_readings_read():
    """A translucent red die's lit middle is a five's centre pip in red alone, beside a four's white pips
    (nell-byler 111548: red read the five with confidence 0.92). Against gray and one more reading the sure
    five wins, as a pip faint in both may be; against gray and two more it does not. Read by two channels, or
    against a two, it still wins."""
    four = Face((0, 1, 2, 3), 4, (66.0, 56.0), 40.0, 0.0, 0.99)
    backer = replace(four, confidence=0.95)
    five = Face((0, 1, 2, 3, 4), 5, (65.0, 57.0), 40.0, 0.0, 0.92)
    assert [face.value for face in vote([[four], [five], [backer], [backer]], 40.0)] == [4]
    assert [face.value for face in vote([[four], [five], [backer]], 40.0)] == [5]
    assert [face.value for face in vote([[four], [five], [five], [backer], [backer]], 40.0)] == [5]
    two = Face((0, 1), 2, (60.0, 57.0), 40.0, 0.0, 0.99)
    assert [face.value for face in vote([[two], [five], [two], [two]], 40.0)] == [5]


def test_a_four_with_a_side_face_pip_beside_it_is_not_a_five():
    """Four corners and a pip off one corner can pass the fingerprint of a five, but are not symmetric."""
    step = 0.27 * 40.0
    corners = [(60 - step, 60 - step), (60 + step, 60 - step), (60 - step, 60 + step), (60 + step, 60 + step)]
    assert read(pips_at([*corners, (60, 60)])) == [5]
    assert 5 not in read(pips_at([*corners, (60 + 2.2 * step, 60 + 1.2 * step)]))


def test_a_core_cut_out_of_a_larger_blob_is_no_one_on_its_own():
    """A core is a pip only in a layout: alone it may be the round middle of a letter."""
    assert read(pips_at([(60, 60)], core=True)) == []
    step = 0.27 * 40.0
    assert read(pips_at([(60 - step, 60 - step), (60 + step, 60 + step)], core=True)) == [2]


@pytest.mark.parametrize(
    ("cores", "values"), [((False, True), [2]), ((False, False), [1]), ((True, True), [])]
)
def test_a_core_flatter_than_the_whole_pip_beside_it_still_makes_a_face_with_it(cores, values):
    """A core's outline is where the cut fell: a two's pip joined to a dark die's pale bevel is cut out
    flatter than its other pip (nell-byler 095910: 0.72 beside 0.91). Two whole pips that differ so lie on a
    top and a side face (the rounder reads alone as a 1), and two cores show no face's shape at all (a
    glyph's strokes cut apart; a core alone is no 1)."""
    pips = unequally_round_two()
    labels = pips.label + np.where(cores, 100, 0)
    pips = replace(pips, label=labels.astype(np.int32), parent=np.array([1, 2], np.int32))
    assert list(pips.core) == list(cores)
    assert read(pips) == values


def test_a_flat_pip_is_no_one_on_its_own():
    """Only a smear (`vision.pips.SMEAR_ROUNDNESS`) passes as a pip that flat, and it is told by the other
    pips of its face, smeared alike; alone it may be a side face's pip or a stroke."""
    assert read(pips_at([(60, 60)], roundness=[0.45])) == []
    assert read(pips_at([(60, 60)], roundness=[0.6])) == [1]


@pytest.mark.parametrize("squash", [0.5, 0.6])
def test_a_layout_squashed_like_its_flat_pips_is_a_side_face_not_a_moving_die(squash):
    """A moving die smears its pips, not the places they lie at: a five of bars on a square layout is a five.
    A side face seen low has its layout squashed as much as its pips: no five, nor any part of it."""
    step = 0.27 * 40.0
    square = [(60 + dx * step, 60 + dy * step) for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1))]
    assert read(pips_at(square, diameter=6.0, roundness=[0.5] * 5)) == [5]
    squashed = [(x, 60 + (y - 60) * squash) for x, y in square]
    assert read(pips_at(squashed, diameter=6.0, roundness=[0.5] * 5)) == []


def test_a_lone_core_read_as_a_one_on_a_die_body_is_less_sure_than_a_whole_pip():
    """On a die body a lone core may read as a 1 (`lone_cores`), but a glint's stroke cut out of a larger blob
    looks like one too: in the channels' vote a one another channel read from a whole pip wins over it, and
    a roll read from it is less sure."""
    gray = np.full((120, 120), 220, np.uint8)
    (whole,) = group_faces(pips_at([(60, 60)]), gray, 40.0, DEFAULT_PARAMS, lone_cores=True)
    (cut,) = group_faces(pips_at([(60, 60)], core=True), gray, 40.0, DEFAULT_PARAMS, lone_cores=True)
    assert whole.value == cut.value == 1
    assert cut.confidence == pytest.approx(whole.confidence * CORE_ONE_CONFIDENCE)
    core_one = replace(cut, center=(64.0, 60.0), pip=5.0)
    assert vote([[], [core_one], [whole]], 40.0)[0].center == whole.center


def test_touching_pips_cut_out_of_one_blob_still_make_a_face():
    """On a small die the pips of a five touch and are cut apart from one blob: they are still a five."""
    step = 0.27 * 40.0
    corners = [(60 - step, 60 - step), (60 + step, 60 - step), (60 - step, 60 + step), (60 + step, 60 + step)]
    assert read(pips_at([*corners, (60, 60)], one_blob=True)) == [5]


def test_two_halves_of_one_pip_a_glint_cut_apart_are_not_linked():
    """A highlight across a glossy pip leaves two cores of one blob, less than a pip apart: not a two."""
    pips = pips_at([(60, 60), (60 + 4.0, 60)], one_blob=True)
    assert _links(pips, np.full((120, 120), 220, np.uint8), 40.0, DEFAULT_PARAMS).size == 0
    assert _links(
        pips_at([(60, 60), (60 + 4.0, 60)]), np.full((120, 120), 220, np.uint8), 40.0, DEFAULT_PARAMS
    ).size


def test_two_dice_one_reading_found_stay_two_when_the_channels_vote():
    """Gray told a one and a five apart although they are close (small dice touching): no later reading
    may fuse them, and a red reading of the five joins the five."""
    one = Face((0,), 1, (60.0, 60.0), 40.0, 0.0, 0.95)
    five = Face((0, 1, 2, 3, 4), 5, (86.0, 60.0), 40.0, 0.0, 0.9)
    red_five = Face((0, 1, 2, 3, 4), 5, (85.0, 61.0), 40.0, 0.0, 0.9)
    assert sorted(face.value for face in vote([[one, five], [red_five]], 40.0)) == [1, 5]


def test_pips_that_stand_out_unequally_are_not_linked():
    """A top face's pip and a faint pip of a slanted side face beside it (or of the next die of another
    colour) differ in contrast by more than twice: no link. Like pips at the same spacing are linked."""
    step = 0.27 * 40.0
    points = [(60 - step, 60), (60 + step, 60)]
    assert (
        _links(
            pips_at(points, contrast=[160.0, 70.0]), np.full((120, 120), 220, np.uint8), 40.0, DEFAULT_PARAMS
        ).size
        == 0
    )
    assert (
        _links(
            pips_at(points, contrast=[160.0, 120.0]), np.full((120, 120), 220, np.uint8), 40.0, DEFAULT_PARAMS
        ).size
        == 2
    )


def test_pips_whose_face_is_shaded_unequally_link_only_where_the_params_allow_a_sheen():
    """A two's pips, the face around one 50 levels darker than around the other (0.42 of their contrast):
    the next die of another colour in the frame, no link; on a die body's lightness, whose params allow a
    metallic die's sheen (`face_shade`), a link. Faces alike link either way."""
    step = 0.27 * 40.0
    points = [(60 - step, 60 - step), (60 + step, 60 + step)]
    gray = np.full((120, 120), 220, np.uint8)
    sheen = {**DEFAULT_PARAMS, "face_shade": 0.5}
    assert _links(pips_at(points, face=[220.0, 170.0]), gray, 40.0, DEFAULT_PARAMS).size == 0
    assert _links(pips_at(points, face=[220.0, 170.0]), gray, 40.0, sheen).size == 2
    assert _links(pips_at(points, face=[220.0, 210.0]), gray, 40.0, DEFAULT_PARAMS).size == 2


@pytest.mark.parametrize("one_blob", [False, True])
def test_a_long_blob_between_two_pips_is_a_seam_unless_they_were_cut_out_of_it(one_blob):
    """A two's pips with a long dark blob across the way between them (label 100, listed in `Pips.seams`):
    the gap between two dice lying close, so no link; but when the pips are cores cut out of that very blob
    (a marbled face the black-hat merged with its pips), it is their face, and they link."""
    step = 0.27 * 40.0
    pips = pips_at([(60 - step, 60 - step), (60 + step, 60 + step)], one_blob=one_blob)
    labels = np.zeros((120, 120), np.int32)
    labels[58:62, 10:110] = 100  # a strip of dark tray a few pixels wide, across the whole image
    pips = replace(pips, labels=labels, seams=np.array([100], np.int32))
    links = _links(pips, np.full((120, 120), 220, np.uint8), 40.0, DEFAULT_PARAMS)
    assert links.size == (2 if one_blob else 0)


def test_a_side_face_with_smaller_pips_beside_a_top_face_is_dropped():
    """A four on top; just below, the two of a side face seen aslant, its pips foreshortened to half."""
    step = 0.27 * 40.0
    top = pips_at(
        [(60 - step, 45 - step), (60 + step, 45 - step), (60 - step, 45 + step), (60 + step, 45 + step)]
    )
    side = pips_at([(52, 80), (68, 82)], diameter=2.5)
    both = Pips(
        **{name: np.concatenate([getattr(top, name), getattr(side, name)]) for name in _PER_PIP},
        label=np.arange(1, 7, dtype=np.int32),
        parent=np.arange(1, 7, dtype=np.int32),
        labels=top.labels,
    )
    assert read(both) == [4]


def test_a_flatter_face_straight_above_a_squashed_one_is_the_top_face_of_a_die_seen_low():
    """A far die seen from below 45 degrees: its one on top is squashed more than the two of the side face
    turned to the camera, straight below it. Only when that two's pips are round (a die seen from nearly
    straight above, where a side face may show above the top face) is the flatter one the side face."""
    step = 0.27 * 40.0
    points = [(62.0, 40.0), (60 - step, 68 - step), (60 + step, 68 + step)]
    assert read(pips_at(points, diameter=8.0, roundness=[0.55, 0.75, 0.75])) == [1]
    assert read(pips_at(points, diameter=8.0, roundness=[0.55, 0.9, 0.9])) == [2]


@pytest.mark.parametrize(
    ("turn", "side_face", "values"),
    [
        (lambda x, y: (x, y), 180.0, [1]),
        (lambda x, y: (120 - x, 120 - y), 180.0, [1]),
        (lambda x, y: (120 - y, x), 180.0, [1]),
        (lambda x, y: (120 - x, 120 - y), 220.0, [2]),
    ],
    ids=["upright", "upside down", "on its side", "upside down, lit alike"],
)
def test_of_a_flatter_face_and_a_squashed_one_in_shade_beside_it_the_shaded_one_is_the_side_face(
    turn, side_face, values
):
    """The die seen low of the test above, by a camera turned any way: the two of its side face is in shade
    (a room is lit from above), so it is the side face wherever it lies. Lit alike, only the one below the
    top face is, as an upright camera sees it; above, the flatter one is the side face (a camera looking
    nearly straight down)."""
    step = 0.27 * 40.0
    points = [turn(62.0, 40.0), turn(60 - step, 68 - step), turn(60 + step, 68 + step)]
    pips = pips_at(points, diameter=8.0, roundness=[0.55, 0.75, 0.75], face=[220.0, side_face, side_face])
    assert read(pips) == values


@pytest.mark.parametrize(
    ("turn", "pip_angle"),
    [
        (lambda x, y: (x, y), 0.0),
        (lambda x, y: (240 - x, 240 - y), 0.0),
        (lambda x, y: (240 - y, x), 90.0),
    ],
    ids=["upright", "upside down", "on its side"],
)
def test_a_side_face_lit_alike_lies_towards_the_camera_which_the_shaded_side_faces_tell(turn, pip_angle):
    """The die seen low of the tests above, its two lit like its one, and beside it a four with the two of
    its side face in shade below it, as a camera turned any way sees them. The shade tells which way the
    camera lies, and the pips' squash the axis (their long axes lie across it), so the lit two towards the
    camera from the one is that die's side face however the frame is turned."""
    step = 0.27 * 40.0
    seen_low = [(62.0, 40.0), (60 - step, 68 - step), (60 + step, 68 + step)]
    four = [(170 + dx * step, 40 + dy * step) for dx, dy in [(-1, -1), (1, -1), (-1, 1), (1, 1)]]
    shaded_two = [(162.0, 75.0), (178.0, 81.0)]
    pips = pips_at(
        [turn(x, y) for x, y in seen_low + four + shaded_two],
        diameter=[8.0] * 7 + [4.0] * 2,
        roundness=[0.55, 0.75, 0.75] + [0.7] * 4 + [0.6] * 2,
        face=[220.0] * 7 + [180.0] * 2,
    )
    pips = replace(pips, angle=np.full(len(pips), pip_angle), labels=np.zeros((240, 240), np.int32))
    assert read(pips) == [1, 4]


@pytest.mark.parametrize(("squash", "values"), [(0.5, [4]), (1.0, [5])], ids=["squashed", "square"])
def test_a_five_in_shade_below_a_flatter_four_is_its_side_face_when_its_layout_is_squashed(squash, values):
    """matteop65 four_48 as a Pi still: a four on top, and below it in shade the five of the side face turned
    to the camera, its pips fainter and rounder than the four's but its layout half as high as wide. Laid out
    square, the five is a top face and the flatter four beside it the side face, as before."""
    step = 0.27 * 40.0
    four = [(60 - step, 40 - step), (60 + step, 40 - step), (60 - step, 40 + step), (60 + step, 40 + step)]
    five = [
        (60 + dx * step, 78 + dy * step * squash) for dx, dy in [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]
    ]
    pips = pips_at(
        four + five,
        diameter=8.0,
        roundness=[0.7] * 4 + [0.85] * 5,
        contrast=[110.0] * 4 + [50.0] * 5,
        face=[220.0] * 4 + [190.0] * 5,
    )
    assert read(pips) == values


@pytest.mark.parametrize("squash", [1.0, 0.5])
def test_a_face_keeps_how_far_its_layout_is_squashed(squash):
    """`Face.layout_squash`: a five as square as from straight above measures 1, one squashed to half 0.5;
    a three, a line of pips, has no width to measure."""
    step = 0.27 * 40.0
    corners_and_middle = [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]
    five = [(60 + dx * step, 60 + dy * step * squash) for dx, dy in corners_and_middle]
    gray = np.full((120, 120), 220, np.uint8)
    (face,) = group_faces(pips_at(five, diameter=8.0), gray, 40.0, DEFAULT_PARAMS)
    assert face.value == 5
    assert face.layout_squash == pytest.approx(squash, abs=0.01)
    (three,) = group_faces(diagonal_three(5.0, (0.9, 0.9, 0.9)), gray, 40.0, DEFAULT_PARAMS)
    assert np.isnan(three.layout_squash)


def test_a_side_face_of_one_die_does_not_drop_the_next_die_s_face_below_it():
    """A four on top, the flat three of its side face below it, and below that a two of the next die seen at
    the same slant. The three is the four's side face, so it is not a top face the two could be a side of."""
    step = 0.27 * 40.0
    four = [(60 - step, 30 - step), (60 + step, 30 - step), (60 - step, 30 + step), (60 + step, 30 + step)]
    three = [(61 - step, 62 - step), (61.0, 62.0), (61 + step, 62 + step)]
    two = [(60 - step, 95 - step), (60 + step, 95 + step)]
    roundness = [0.95] * 4 + [0.55] * 3 + [0.76] * 2
    assert read(pips_at(four + three + two, diameter=10.0, roundness=roundness)) == [2, 4]


def test_two_rows_of_a_six_with_round_pips_are_no_four():
    """A square of pips squashed to half is a four seen at a slant only when its pips are squashed alike;
    with round pips it is two rows of a six (the third cut off by the frame's edge)."""
    step = 0.27 * 40.0
    rows = [(60 - step, 60 - step / 2), (60 + step, 60 - step / 2), (60 - step, 60 + step / 2)]
    rows.append((60 + step, 60 + step / 2))
    assert read(pips_at(rows, roundness=[0.95] * 4)) != [4]
    assert read(pips_at(rows, roundness=[0.55] * 4)) == [4]


@pytest.mark.parametrize(
    ("roundness", "values"),
    [
        ([0.93, 0.95, 0.9, 0.94, 0.91, 0.92], [6]),
        ([0.93, 0.95, 0.9, 0.94, 0.78, 0.74], [4]),  # the bottom row: the side face's pips
        ([0.93, 0.95, 0.78, 0.74, 0.9, 0.94], [6]),  # a middle row is on the face whatever its pips measure
    ],
)
def test_a_four_with_the_flatter_pips_of_its_side_face_below_it_is_no_six(roundness, values):
    """A four seen at a slant, with its side face's two pips just below, is a grid of two by three as a
    six whose columns are as far apart as its rows is; but a six's pips are foreshortened alike, and the
    side face's are flatter."""
    assert read(pips_at(two_by_three_grid(), diameter=8.0, roundness=roundness)) == values


@pytest.mark.parametrize(
    ("diameter", "values"),
    [
        ([8.0, 8.0, 8.0, 8.0, 8.0, 8.0], [6]),
        ([8.0, 8.4, 7.8, 8.2, 5.0, 5.6], [4]),  # the bottom row: the side face's pips
        ([8.0, 8.4, 5.0, 5.6, 7.8, 8.2], [6]),  # a middle row is on the face whatever its pips measure
        ([8.0, 8.4, 7.8, 8.2, 7.6, 5.0], [6]),  # one small pip: pixel noise, not a row of smaller pips
    ],
)
def test_a_four_with_the_smaller_pips_of_its_side_face_below_it_is_no_six(diameter, values):
    """The grid of the test above, its pips all as round: a side face seen aslant also has its pips
    foreshortened smaller, and a six's pips are printed and seen alike (nell-byler 112911 and 113012:
    fours read as sixes with their side faces' two pips, 0.55 to 0.68 as wide as the four's, as round)."""
    assert read(pips_at(two_by_three_grid(), diameter=diameter, roundness=[0.9] * 6)) == values


def test_a_small_die_only_a_colour_channel_read_is_not_voted_into_the_next_die():
    """Two touching dice of a smaller set, half a frame's die apart: gray read a six, red a one beside it.
    Within half a die, faces of two readings are one die (the six read low as a column in gray, whole in
    red, lies a quarter of a side off); further apart, they are two."""
    six = Face((0,), 6, (60.0, 60.0), 40.0, 0.0, 0.9)
    one = Face((0,), 1, (60.0, 81.0), 40.0, 0.0, 0.9)
    assert sorted(face.value for face in vote([[six], [one]], 40.0)) == [1, 6]
    column = Face((0,), 3, (60.0, 60.0), 40.0, 0.0, 0.9)
    whole = Face((0,), 6, (70.0, 60.0), 40.0, 0.0, 0.6)
    assert [face.value for face in vote([[column], [whole]], 40.0)] == [6]


def test_a_one_and_the_smaller_flatter_pip_of_its_side_face_are_not_a_two():
    """A die showing 1 with the nearest pip of its side face a two's diagonal away: that pip is both smaller
    and flatter (seen at a slant), so the one is read and the side pip dropped. A two's pips differ in one of
    those at most: pixel noise, not a slant."""
    step = 0.27 * 40
    diagonal = [(60 - step, 60 - step), (60 + step, 60 + step)]
    assert read(pips_at(diagonal, [8.0, 5.4], [0.9, 0.75])) == [1]
    assert read(pips_at(diagonal, [8.0, 5.4], [0.9, 0.9])) == [2]
    assert read(pips_at(diagonal, [8.0, 8.0], [0.9, 0.75])) == [2]


def test_a_two_cut_apart_beside_its_side_face_s_six_is_joined_again():
    """A two on top of a die whose side face below shows a six (matteop65 two_35 3x as far): all eight pips
    link into one group, and the spanning tree cuts each of the two's pips off on its own. The nearer one
    overlaps the six first, with which it is no face, and then the other pip, with which it is the two."""
    two = [(69, 35), (38, 46)]
    six = [(30, 71), (45, 74), (59, 77), (34, 90), (49, 93), (63, 96)]
    pips = pips_at(two + six, 8.0, [0.66, 0.62] + [0.6] * 6)
    gray = np.full(pips.labels.shape, 220, np.uint8)
    faces = group_faces(pips, gray, 60.0, DEFAULT_PARAMS)
    assert sorted((face.value, face.members) for face in faces) == [(2, (0, 1)), (6, (2, 3, 4, 5, 6, 7))]

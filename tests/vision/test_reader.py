"""The dice reader on frames drawn here: clean dice of both polarities, and every kind of bad frame."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision.consensus as consensus_module
import vision.reader as reader_module
from tests.vision.test_body import grain_below_felt
from tests.vision.test_frames import speckled
from tests.vision.test_frames import tinted as tint
from vision.body import FAINT_CONFIDENCE, Bodies, find_bodies
from vision.calibrate import auto_calibrate
from vision.faces import Face
from vision.frames import shows_colour
from vision.profile import CalibrationProfile
from vision.reader import (
    AGREEING_DIE_PX,
    DEFAULT_PARAMS,
    PARAM_RANGES,
    SPECKLED,
    DiceReader,
)
from vision.reading import Reading
from vision.simtray import SimDie, SimulatedTray

PIP_SPOTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def draw_dice(values, size=(640, 480), die=56, face=235, pip=25, floor=110, angle=0.0, centres=None):
    """A frame with one die per value, at `centres` or else in a row, evenly spaced; returns (frame, centres).

    Colours are gray levels or BGR tuples.
    """
    width, height = size
    face, pip, floor = (
        colour if isinstance(colour, tuple) else (colour,) * 3 for colour in (face, pip, floor)
    )
    frame = np.full((height, width, 3), floor, np.uint8)
    rng = np.random.default_rng(7)
    frame = np.clip(frame + rng.normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    step = width / (len(values) + 1)
    places = centres or [(step * (i + 1), height / 2) for i in range(len(values))]
    centres = []
    turn = np.deg2rad(angle)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    for value, place in zip(values, places, strict=True):
        centre = np.array(place, float)
        corners = cv2.boxPoints(((float(centre[0]), float(centre[1])), (die, die), angle))
        cv2.fillConvexPoly(frame, np.intp(np.round(corners)), face, cv2.LINE_AA)
        for spot in PIP_SPOTS[value]:
            x, y = centre + rotation @ (np.array(spot) * die * 0.27)
            cv2.circle(frame, (int(round(x)), int(round(y))), int(die * 0.09), pip, -1, cv2.LINE_AA)
        centres.append(tuple(centre))
    return frame, centres


@pytest.mark.parametrize("values", [[1, 2, 3, 4, 5], [6, 5, 4, 3, 2], [6, 6, 1, 2, 5]])
def test_reads_white_dice_left_to_right(values):
    frame, centres = draw_dice(values)
    reading = DiceReader().read(frame)
    assert reading.values == values
    assert reading.problem is None
    for die, centre in zip(reading.dice, centres, strict=True):
        assert abs(die.center[0] - centre[0]) < 10 and abs(die.center[1] - centre[1]) < 10
        assert 0.0 < die.confidence <= 1.0


def test_reads_dark_dice_with_light_pips():
    frame, _ = draw_dice([3, 4, 6, 1, 5], face=40, pip=230, floor=150)
    assert DiceReader().read(frame).values == [3, 4, 6, 1, 5]


def test_reads_turned_dice():
    frame, _ = draw_dice([2, 5, 6, 4, 3], angle=30)
    assert DiceReader().read(frame).values == [2, 5, 6, 4, 3]


def test_reads_a_large_frame_at_the_scale_the_dice_need():
    frame, _ = draw_dice([5, 2, 6, 3, 1], size=(2000, 1500), die=175)
    reading = DiceReader().read(frame)
    assert reading.values == [5, 2, 6, 3, 1]
    assert reading.frame_size == (2000, 1500)
    assert reading.extras["scale"] < 0.5


@pytest.mark.parametrize("die", [56, 60])
def test_dice_a_small_share_of_a_pi_still_are_measured_on_a_finer_copy(die):
    """A Pi camera's 8 MP still with dice 56 or 60 px wide, 2.3 to 2.4% of its height: on the 320 px copy
    the size estimate starts from, their pips are a pixel wide, too small to see, and it measured dice of
    twice their size. A copy two or four times as fine sees the pips. (Drawn dice are read right at either
    size; real photos so framed are not: see `vision.die_size.FINER_PAIRS`.)"""
    frame, _ = draw_dice([5, 2, 6, 3, 1], size=(3280, 2464), die=die)
    reading = DiceReader().read(frame)
    assert reading.values == [5, 2, 6, 3, 1]
    assert reading.extras["die_px"] < 1.5 * die  # the drawn pips measure a die 1.3 times its side


def test_a_hand_of_ones_in_a_still_is_measured_by_their_pips_not_by_a_pair_of_specks():
    """White dice on a white table, all showing 1, in an 8 MP still: the 320 px copy sees the five ones'
    pips, alone, and resolves them. A finer copy sees them too, and also two specks side by side: as a
    pair, they outnumbered the ones' pips, which have no like-sized neighbour, and measured dice under a
    third of their size, at which the specks read as a 2 and the ones were lost (matteop65 dice_49 as a
    Pi still)."""
    frame, _ = draw_dice([1, 1, 1, 1, 1], size=(3280, 2464), die=270, floor=225)
    for x in (600, 650):
        cv2.circle(frame, (x, 2000), 5, (40, 40, 40), -1, cv2.LINE_AA)
    reading = DiceReader().read(frame)
    assert reading.values == [1, 1, 1, 1, 1]
    assert reading.extras["die_px"] > 200


@pytest.mark.parametrize("die", [120, 160])
def test_a_lone_die_showing_one_in_a_still_is_measured_by_its_pip_not_by_its_body(die):
    """A white die showing 1, alone on a darker floor in an 8 MP still: a copy of the frame sees the die
    itself as a light blob round its dark pip, and the median of the two blobs measured a die four or five
    times its size, at which nothing was read (matteop65 dice_10 turned 90, from 3x as far, as a Pi
    still). The light blob round the pip is its die."""
    frame, _ = draw_dice([1], size=(3280, 2464), die=die, floor=150)
    reading = DiceReader().read(frame)
    assert reading.values == [1]
    assert reading.extras["die_px"] < 1.5 * die


@pytest.mark.parametrize(("gap", "floor"), [(60, 150), (30, 150), (60, 225)])
def test_a_lone_die_showing_one_in_a_still_is_measured_by_its_pip_not_by_dust_beside_it(gap, floor):
    """A white die showing 1, alone in an 8 MP still on a darker or a white floor, and two dust specks
    `gap` px apart (each alone, or a pair): the 320 px copy resolves the one's pip; a finer copy sees that
    pip again and the specks too, whose size it measured (dice of 82 px for a 220 px die), and the specks
    were read as a 2 where the one was lost. The finer copy saw the one's pip as it is, not a die's
    several pips."""
    frame, _ = draw_dice([1], size=(3280, 2464), die=220, floor=floor)
    for x in (600, 600 + gap):
        cv2.circle(frame, (x, 2000), 5, (40, 40, 40), -1, cv2.LINE_AA)
    reading = DiceReader().read(frame)
    assert reading.values == [1]
    assert reading.extras["die_px"] > 200


@pytest.mark.parametrize("size, die, speck", [((2000, 1500), 175, 7), ((3280, 2464), 270, 10)])
def test_two_specks_of_dust_in_a_fine_still_are_not_a_die_showing_two(size, die, speck):
    """A still fine enough shows a tray's dust: two dark specks on bare tray, spaced like a two's pips and
    under half their size. No die body and no outline is round them, so they are no die (nell-byler as a
    Pi still: three false twos)."""
    frame, _ = draw_dice([2, 5, 3], size=size, die=die)
    width, height = size
    for offset in (-die // 8, die // 8):
        cv2.circle(
            frame, (width // 2 + offset, int(height * 0.85) + offset), speck, (40, 40, 40), -1, cv2.LINE_AA
        )
    assert DiceReader().read(frame).values == [2, 5, 3]


SPECKS = [(320, 850), (600, 300), (1180, 1200), (900, 1300), (190, 940), (380, 1150), (1350, 450)]


def dark_die_on_a_dusty_board():
    """nell-byler 112554 enlarged 2.5x, drawn: a dark gold die showing 4, 70 px wide, on a pale board with
    a tray's two screw holes and dust specks 7 px wide, each far from the others."""
    gold, board = (36, 63, 95), (184, 189, 192)
    frame, _ = draw_dice([4], (1600, 1600), 70, gold, 5, board, angle=20, centres=[(1070, 815)])
    for x in (135, 1455):
        cv2.circle(frame, (x, 1480), 32, (101, 101, 101), -1, cv2.LINE_AA)
    for speck in SPECKS:
        cv2.circle(frame, speck, 3, (120, 122, 125), -1, cv2.LINE_AA)
    return frame


def test_a_dusty_board_s_specks_do_not_measure_the_dice():
    """On the 1280 px copy, seven lone dust specks alike in size, with no pair among them, pass for a hand
    of ones: they measured dice of 49 px, and outweighed the 320 px copy, which saw the die's pips but too
    small to count as ones. The specks lie on no die body (the die and the two screw holes are the bodies),
    so they are no ones, and the die is measured by its large pips, as wider than its 70 px."""
    reading = DiceReader().read(dark_die_on_a_dusty_board())
    assert reading.values == [4]
    assert reading.extras["die_px"] > 70


def test_dice_bodies_are_looked_for_again_where_the_die_size_says_they_are_a_few_pixels(monkeypatch):
    """Dice 56 px wide in a 3280x2464 still are 3.6 px wide in the 160 px copy the bodies are first found
    on: once the pips tell their size, the bodies are found again on a copy where a die is `BODY_DIE_PX`
    wide. Dice 10% of a frame's height are not: their bodies were measured well the first time."""
    copies = []
    original = reader_module.find_bodies

    def noting_the_copy(tray, short_side=160, die_px=None):
        copies.append((short_side, die_px))
        return original(tray, short_side, die_px)

    monkeypatch.setattr(reader_module, "find_bodies", noting_the_copy)
    frame, _ = draw_dice([5, 2, 6, 3, 1], size=(3280, 2464), die=56)
    reading = DiceReader().read(frame)
    assert reading.values == [5, 2, 6, 3, 1]
    die_in_copy = reading.extras["die_px"] * 160 / 2464
    # ... and told the die size there, so that a blob many dice long is no die (`vision.body.DIE_EXTENT`)
    again = (pytest.approx(160 * reader_module.BODY_DIE_PX / die_in_copy), reading.extras["die_px"])
    assert copies[:2] == [(160, None), again]
    copies.clear()
    frame, _ = draw_dice([5, 2, 6, 3, 1])
    assert DiceReader().read(frame).values == [5, 2, 6, 3, 1]
    assert copies == [(160, None)]


def test_small_dark_dice_in_a_large_still_are_found_as_bodies_on_a_finer_copy():
    """Three dark dice 28 px wide (1.1% of a 3280x2464 still's height) in a diagonal row pass for the
    pips of one huge die showing 3. In the 160 px copy they are under 2 px, too small for a body each:
    it sees one blob, the row, and nothing overruled that size; on a copy twice or four times as fine their
    bodies tell theirs, and read at it each shows 2."""
    frame = np.full((2464, 3280, 3), 190, np.uint8)
    frame[:, 2600:], frame[:, :300] = 235, 110  # a white card and a dark rim: the frame's brightness range
    frame = np.clip(frame + np.random.default_rng(3).normal(0, 2, frame.shape), 0, 255).astype(np.uint8)
    for step in range(3):
        x, y = int(1500 + 43 * step), int(1100 + 43 * step)
        cv2.rectangle(frame, (x - 14, y - 14), (x + 14, y + 14), (50, 45, 40), -1)
        for offset in (-7, 7):
            cv2.circle(frame, (x + offset, y + offset), 2, (235, 235, 235), -1, cv2.LINE_AA)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.7)
    assert find_bodies(frame).count == 1
    bodies = reader_module._bodies(frame)
    assert bodies.count == 3 and 24 < bodies.size < 40
    assert DiceReader().read(frame).values == [2, 2, 2]


def test_bodies_are_looked_for_on_finer_copies_only_while_too_few_are_found(monkeypatch):
    """Finer copies are looked at, each at most half the frame's short side, while fewer than three bodies
    are found (two may be blobs of heaped dice), and one counts only with three bodies or more (a die's pips
    are bodies too on a fine copy); the top of a tray's wall is not taken from it. A 640x480 frame's dice
    too small for the 160 px copy are too small to read: it is looked at once."""
    rim = np.ones((4, 4), bool)
    two = Bodies(np.array([[10.0, 10.0], [50.0, 10.0]]), 8.0, np.full(2, 8.0))
    three = Bodies(np.array([[10.0, 10.0], [50.0, 10.0], [90.0, 10.0]]), 8.0, np.full(3, 8.0))
    found = {160: two, 320: two, 640: replace(three, rim=rim)}
    copies = []

    def finding(tray, short_side=160):
        copies.append(short_side)
        return found.get(short_side)

    monkeypatch.setattr(reader_module, "find_bodies", finding)
    bodies = reader_module._bodies(np.zeros((2464, 3280, 3), np.uint8))
    assert copies == [160, 320, 640] and bodies.count == 3 and bodies.rim is None
    copies.clear()
    assert reader_module._bodies(np.zeros((2464, 3280, 3), np.uint8)[:1200]) is two
    assert copies == [160, 320]
    copies.clear()
    assert reader_module._bodies(np.zeros((480, 640, 3), np.uint8)) is two
    assert copies == [160]
    found[160] = three
    copies.clear()
    assert reader_module._bodies(np.zeros((2464, 3280, 3), np.uint8)) is found[160]
    assert copies == [160]


def test_finer_copies_are_only_for_bodies_too_small_for_the_usual_copy(monkeypatch):
    """Bodies `BODY_DIE_PX` wide in the 160 px copy are dice it resolves: a finer copy would take their pips
    for bodies, so it is not looked at. Three bodies a finer copy finds that wide, which the 160 px copy did
    not see as bodies, are no dice too small for it (a die's side face beside its top face); nor are three
    no larger than the largest pips beside the 160 px copy's smaller bodies: they are those dice's pips."""
    wide = reader_module.BODY_DIE_PX * 2464 / 160
    centres = np.array([[10.0, 10.0], [50.0, 10.0], [90.0, 10.0]])
    two_wide = Bodies(centres[:2], wide, np.full(2, wide))
    two_narrower = Bodies(centres[:2], wide / 2, np.full(2, wide / 2))
    three_wide = Bodies(centres, wide, np.full(3, wide))
    three_small = Bodies(centres, 8.0, np.full(3, 8.0))
    found = {160: two_wide, 320: three_small}
    copies = []

    def finding(tray, short_side=160):
        copies.append(short_side)
        return found.get(short_side)

    monkeypatch.setattr(reader_module, "find_bodies", finding)
    frame = np.zeros((2464, 3280, 3), np.uint8)
    assert reader_module._bodies(frame) is two_wide and copies == [160]
    found[160] = two_narrower
    copies.clear()
    assert reader_module._bodies(frame) is two_narrower and copies == [160, 320, 640]
    found[160], found[320] = None, three_wide
    assert reader_module._bodies(frame) is None
    found[640] = three_small
    assert reader_module._bodies(frame).sizes is three_small.sizes


def test_the_bodies_size_replaces_a_reading_only_when_it_reads_a_die_within_each_of_its_dice(monkeypatch):
    """Three bodies 27 px wide tell another size than the pips' 168 px, and read at theirs they are three
    dice. When the one die read at 168 px holds them (dark dice taken for the pips of one huge die), their
    reading replaces it; when it lies elsewhere (a white die on pale wood, which the bodies miss, and bits
    of a cable as bodies), nothing read at their size lies within it, and it stands."""
    centres = np.array([[100.0, 100.0], [150.0, 100.0], [200.0, 100.0]])
    bodies = Bodies(centres, 27.0, np.full(3, 27.0))
    ones = [Face((index,), 1, (x, y), 27.0, 0.0, 0.9) for index, (x, y) in enumerate(centres)]
    frame = np.zeros((1200, 1600, 3), np.uint8)
    gray = np.zeros((1200, 1600), np.uint8)

    def read_with(die: Face) -> list[int]:
        def read_at(gray, tray, die_px, threshold, bodies):
            return ([die] if die_px > 100 else ones), 1.0, gray.shape

        reader = DiceReader(work_die_px=60.0)
        monkeypatch.setattr(reader, "_read_at", read_at)
        prepared = reader_module.Prepared(frame, (0, 0), frame, gray, bodies, 100.0, 20.0, 168.0)
        return reader._read_prepared(prepared).values

    assert read_with(Face((0, 1), 2, (800.0, 600.0), 168.0, 0.0, 0.9)) == [2]
    assert read_with(Face((0, 1), 2, (150.0, 100.0), 168.0, 0.0, 0.9)) == [1, 1, 1]


@pytest.mark.parametrize(("pip", "values"), [(28.0, [5]), (8.0, [1])])
def test_a_die_read_whole_as_the_pip_of_a_one_witnesses_the_bodies_size(monkeypatch, pip, values):
    """nell-byler 112556 from 3x as far: one dark die 32 px wide on a pale board, whose pips and the tray's
    screw heads measured a die of 196 px. Read at that size, the whole die is the pip of a 1; read at its
    body's size, it shows 5. With no other die to read on a body, the five alone fell short of
    `SIZE_WITNESSES`, and the one stood. A pip as wide as the body under it is that body, a die taken for a
    pip: it witnesses the bodies' size, and is no die read at the pips' size. A 1 whose pip is a quarter of
    its body is a 1 (the pips' reading stands). The screw heads are bodies too, alike in size."""
    bodies = Bodies(np.array([[1040.0, 990.0], [690.0, 1232.0], [1220.0, 1228.0]]), 32.0, np.full(3, 32.0))
    one = Face((0,), 1, (1040.0, 990.0), 196.0, 0.0, 0.9, pip=pip)
    five = Face(tuple(range(5)), 5, (1042.0, 992.0), 32.0, 0.0, 0.9, pip=6.0)
    frame = np.zeros((1920, 1920, 3), np.uint8)
    gray = np.zeros((1920, 1920), np.uint8)

    def read_at(gray, tray, die_px, threshold, bodies):
        return ([one] if die_px > 100 else [five]), 1.0, gray.shape

    reader = DiceReader(work_die_px=60.0)
    monkeypatch.setattr(reader, "_read_at", read_at)
    prepared = reader_module.Prepared(frame, (0, 0), frame, gray, bodies, 100.0, 20.0, 196.0)
    assert reader._read_prepared(prepared).values == values


@pytest.mark.parametrize(("pip", "values"), [(28.0, [3, 4]), (8.0, [2, 1])])
def test_a_die_read_whole_as_the_pip_of_a_one_needs_no_die_read_in_it_at_the_bodies_size(
    monkeypatch, pip, values
):
    """nell-byler 095859: smoky dice on a white board, each 32 px wide, taken at 190 px for the pips of a
    two and of a one. Read at the bodies' size, the two's dice read a three and a four, and the one's die,
    its red pips faint, reads nothing. The one's pip is as wide as the body under it: that body is the die
    itself, read or not, so the reading at the bodies' size need not read a die within it to replace the
    pips' reading. A 1 whose pip is a quarter of the body under it is a 1, which that reading must account
    for (the pips' reading stands)."""
    centres = np.array([[100.0, 100.0], [140.0, 100.0], [400.0, 400.0]])
    bodies = Bodies(centres, 32.0, np.full(3, 32.0))
    two = Face((0, 1), 2, (120.0, 100.0), 95.0, 0.0, 0.9, pip=28.0)
    one = Face((2,), 1, (400.0, 400.0), 190.0, 0.0, 0.9, pip=pip)
    retried = [
        Face(tuple(range(value)), value, (x, 100.0), 32.0, 0.0, 0.9, pip=6.0)
        for value, x in ((3, 100.0), (4, 140.0))
    ]
    frame = np.zeros((640, 640, 3), np.uint8)
    gray = np.zeros((640, 640), np.uint8)

    def read_at(gray, tray, die_px, threshold, bodies):
        return ([two, one] if die_px > 100 else retried), 1.0, gray.shape

    reader = DiceReader(work_die_px=60.0)
    monkeypatch.setattr(reader, "_read_at", read_at)
    prepared = reader_module.Prepared(frame, (0, 0), frame, gray, bodies, 100.0, 20.0, 190.0)
    assert reader._read_prepared(prepared).values == values


@pytest.mark.parametrize(
    ("at_bodies", "values"),
    [
        # the six again, beside a side face's pip read as a one: all on pips of the six's size
        ([(6, (1500.0, 1000.0), 260.0, 36.0), (1, (1450.0, 1150.0), 36.0, 34.0)], [6]),
        # or the six's pips read as ones: each lone pip a body
        ([(1, (1500.0, 1000.0), 36.0, 36.0), (1, (1450.0, 1150.0), 36.0, 34.0)], [6]),
        # dark dice taken for one huge die's pips: each a three, its pips a seventh of its body
        ([(3, (1500.0, 1000.0), 36.0, 5.0), (3, (1450.0, 1150.0), 36.0, 5.0)], [3, 3]),
    ],
)
def test_the_bodies_size_does_not_replace_a_reading_whose_dice_it_reads_with_pips_as_large_as_bodies(
    monkeypatch, at_bodies, values
):
    """A 3280x2464 still of white dice on pale wood: the dice are 260 px wide, and their dark pips (36 px)
    stand out from the wood as dice bodies would. Read at the bodies' size, the dice read there have pips as
    large as the bodies, which measure the dice the pips' size did: the bodies were the pips, and the six
    stands (matteop65 at 5 times its resolution: six_29's three sixes read again beside a false 1, and
    dice_12's two ones beside a false 2). Where the dice read at the bodies' size have pips the size a die
    of that size has, as dark dice taken for one huge die's pips do, they are dice."""
    centres = np.array([[1500.0, 1000.0], [1450.0, 1150.0]])
    bodies = Bodies(centres, 36.0, np.full(2, 36.0))
    six = Face(tuple(range(6)), 6, (1500.0, 1000.0), 260.0, 0.0, 0.9, pip=36.0)
    retried = [
        Face(tuple(range(value)), value, centre, side, 0.0, 0.9, pip=pip)
        for value, centre, side, pip in at_bodies
    ]
    frame = np.zeros((2464, 3280, 3), np.uint8)
    gray = np.zeros((2464, 3280), np.uint8)

    def read_at(gray, tray, die_px, threshold, bodies):
        return ([six] if die_px > 100 else retried), 1.0, gray.shape

    reader = DiceReader(work_die_px=60.0)
    monkeypatch.setattr(reader, "_read_at", read_at)
    prepared = reader_module.Prepared(frame, (0, 0), frame, gray, bodies, 100.0, 20.0, 260.0)
    assert reader._read_prepared(prepared).values == values


def _stains_beside_few_dice(stain: tuple[int, int, int]) -> np.ndarray:
    """Five cream dice showing 5 on a pale wooden board (a photo a third of a 1920x1440 frame, the rest
    flat gray, as a camera far above a small board sees it), each with a faint stain pair of colour
    `stain` beside it, a two's pips apart."""
    frame = np.full((1440, 1920, 3), (140, 150, 155), np.uint8)
    frame[480:960, 640:1280] = (175, 205, 225)
    centres = [(760 + 110 * index, 640 + 140 * (index % 2)) for index in range(5)]
    for x, y in centres:
        for side in (-1, 1):
            cv2.circle(frame, (x + 13 * side, y + 75 + 13 * side), 4, stain, -1, cv2.LINE_AA)
    for x, y in centres:
        cv2.rectangle(frame, (x - 25, y - 25), (x + 25, y + 25), (190, 232, 242), -1)
        for spot_x, spot_y in PIP_SPOTS[5]:
            cv2.circle(frame, (x + 13 * spot_x, y + 13 * spot_y), 4, (25, 25, 25), -1, cv2.LINE_AA)
    frame = np.clip(frame + np.random.default_rng(5).normal(0, 1.5, frame.shape), 0, 255).astype(np.uint8)
    return cv2.GaussianBlur(frame, (0, 0), 0.8)


@pytest.mark.parametrize("stain", [(155, 185, 205), (155, 205, 225)], ids=["gray", "blue"])
def test_faint_stains_beside_a_few_dice_in_a_large_frame_are_no_twos(stain):
    """Five dice cover so little of the frame that its 1st and 99th percentiles, and those near the dice,
    are the board's and the gray around it: a threshold from them let a stain 20 levels darker than the
    board (in gray, or in blue alone, read as the cream dice show colour) read as a two. The dice's own
    range, their pips on their faces, sets the threshold in gray and in each colour channel alike."""
    assert DiceReader().read(_stains_beside_few_dice(stain)).values == [5, 5, 5, 5, 5]


def test_small_dice_are_enlarged_to_the_working_size():
    """Dice 24 px wide are read at the full working size (2.5 times), not at a coarser one."""
    frame, _ = draw_dice([4, 6, 3, 5, 2], die=24)
    reading = DiceReader(CalibrationProfile(die_size=24 / 480), reader_module.WORK_DIE_PX).read(frame)
    assert reading.values == [4, 6, 3, 5, 2]
    assert reading.extras["scale"] == pytest.approx(reader_module.WORK_DIE_PX / 24)


@pytest.mark.parametrize(
    ("size", "die", "values"),
    [
        ((1280, 720), 40, [5, 2, 6, 3, 1]),
        ((1280, 720), 40, [3]),
        ((640, 480), 24, [4]),
        ((640, 480), 56, [4]),
    ],
)
def test_a_few_dice_on_a_plain_tray_are_read(size, die, values):
    """Dice covering under 1% of the frame are not in its 1st and 99th percentiles, whose range is the tray's
    jitter alone: measured near the dice bodies, the frame is neither blank nor too noisy to read."""
    frame, _ = draw_dice(values, size=size, die=die)
    reading = DiceReader().read(frame)
    assert reading.problem is None
    assert reading.values == values


def test_the_last_die_rolled_in_a_calibrated_tray_is_read():
    """The held dice set aside, one die is left in the tray region of a 1280x720 frame (the Pi source's
    default size): before, its range was the tray's jitter and the frame read as blank."""
    frame, _ = draw_dice([3], size=(1280, 720), die=40)
    profile = CalibrationProfile(die_size=40 / 720, tray=(0.1, 0.1, 0.9, 0.9))
    assert DiceReader(profile).read(frame).values == [3]


def test_near_a_lone_die_the_frame_s_larger_range_still_holds():
    """A tray's black wall and a white glare at the frame's sides give it a larger range than the die's face
    and the felt near it: a faint pair of stains beside the die (a reflection in a glossy wall) is no two at
    the lower threshold the range near the die alone would give."""
    frame, _ = draw_dice([4], die=40)
    frame[:, :30], frame[:, -30:] = 0, 255
    for step in (-11, 11):
        cv2.circle(frame, (200 + step, 300 + step), 4, (85, 85, 85), -1, cv2.LINE_AA)
    assert DiceReader().read(frame).values == [4]


# Red pips on blue dice on green felt of nearly the dice's gray (85 and 69).
BLUE_DICE_ON_GREEN_FELT = {"face": (200, 90, 30), "pip": (40, 40, 210), "floor": (40, 90, 40)}


@pytest.mark.parametrize("values", [[6, 2], [1, 4, 3]])
def test_red_pips_on_blue_dice_in_a_dim_room_are_read_as_in_a_bright_one(values):
    """The levels scaled by 0.45, as a camera whose exposure was frozen in daylight sees the table in the
    evening: the dice's colours spread too few levels to be read in colour, and their bodies stand out too
    little from the felt, until the frame is brightened back (`vision.frames.exposed`)."""
    frame, _ = draw_dice(values, die=44, **BLUE_DICE_ON_GREEN_FELT)
    assert DiceReader().read(cv2.convertScaleAbs(frame, alpha=0.45)).values == values


def test_white_dice_seen_with_another_light_s_white_balance_are_white_dice():
    """A cool tint (blue by 1.2, red by 0.8) makes white dice pass for coloured ones, read in the colour
    channels too, where their side faces and shading stand out as pips; the reader takes the tint out
    (`vision.frames.balanced`) and sees them white, reading them as without the tint."""
    frame, centres = draw_dice([6, 3, 5], face=200, floor=(90, 140, 190))
    tinted = tint(frame, 1.2, 0.8)
    assert shows_colour(tinted, np.array(centres[0]), 56)
    prepared = DiceReader().prepare(tinted)
    assert not any(shows_colour(prepared.tray, np.array(centre), 56) for centre in centres)
    assert DiceReader().read(tinted).values == [6, 3, 5]


def test_pixel_noise_on_a_tray_as_light_as_the_dice_is_not_read_as_pips():
    """A blue die on green felt of nearly its gray: the frame's range is small, and without a floor of a few
    times the pixel jitter under the pip threshold, noise on the felt reads as a row of twos."""
    frame, _ = draw_dice([6, 2], die=44, **BLUE_DICE_ON_GREEN_FELT)
    assert DiceReader().read(frame).values == [6, 2]


def test_pixel_noise_in_a_colour_channel_is_not_read_as_pips():
    """Red pips on blue dice on green felt: the red channel, read round the coloured dice, is flat but for
    the pips and the jitter, and its pip threshold is floored by that jitter too."""
    values = [5, 2, 6, 3, 1]
    frame, _ = draw_dice(values, die=28, **BLUE_DICE_ON_GREEN_FELT)
    assert DiceReader().read(frame).values == values


def test_the_profile_die_size_and_polarity_are_used():
    frame, _ = draw_dice([4, 2, 6], die=56)
    profile = CalibrationProfile(die_size=56 / 480, pip_polarity="dark")
    assert DiceReader(profile).read(frame).values == [4, 2, 6]
    assert DiceReader(CalibrationProfile(pip_polarity="light")).read(frame).values != [4, 2, 6]


def test_a_calibrated_reader_links_pips_into_faces_at_the_faces_size(monkeypatch):
    """These dice's pips are 0.18 of their side, so by the pips they measure 72 px, not 56: calibration keeps
    that size and the faces' share of it. Pips are looked for at the first and linked at the second."""
    frame, _ = draw_dice([3, 4, 5], die=56)
    linked = []
    group = reader_module.read_faces

    def spy(pips, work, die_px, params, focus, lone_cores=False):
        if focus is None:
            linked.append(die_px)
        return group(pips, work, die_px, params, focus, lone_cores)

    monkeypatch.setattr(reader_module, "read_faces", spy)
    profile = CalibrationProfile(die_size=72 / 480, face_share=56 / 72)
    assert DiceReader(profile, 60.0).read(frame).values == [3, 4, 5]
    assert linked[0] == pytest.approx(56 * 60 / 72)  # read with dice 60 px wide by their pips


def test_the_tray_crop_ignores_dice_outside_it():
    frame, _ = draw_dice([3, 5, 2, 6])
    profile = CalibrationProfile(tray=(0.0, 0.0, 0.5, 1.0))
    reading = DiceReader(profile).read(frame)
    assert reading.values == [3, 5]
    assert all(die.center[0] < 320 for die in reading.dice)


@pytest.mark.parametrize(
    ("tray", "die_size", "least"),
    [
        ((0.5, 0.0, 0.5001, 1.0), 0.5, "a die (240 px)"),  # the die's shrink once left nothing to read
        ((0.0, 0.0, 1.0, 0.02), None, "16 px"),
        ((0.1, 0.1, 0.2, 0.9), 0.2, "a die (96 px)"),
    ],
)
def test_a_tray_region_too_narrow_for_a_die_is_reported_not_read(tray, die_size, least):
    frame, _ = draw_dice([3, 5, 2, 6])
    reading = DiceReader(CalibrationProfile(tray=tray, die_size=die_size)).read(frame)
    assert reading.dice == ()
    assert reading.problem.startswith("the tray region (") and f"narrower than {least}" in reading.problem


def test_a_speck_on_the_tray_is_not_a_die_showing_one():
    frame, centres = draw_dice([3, 5, 2])
    speck = (int(centres[0][0]), 400)  # a pip-sized dot on bare tray, well away from every die
    cv2.circle(frame, speck, 5, (25, 25, 25), -1, cv2.LINE_AA)
    assert DiceReader().read(frame).values == [3, 5, 2]


@pytest.mark.parametrize(("on_a_die", "values"), [(False, [3, 5, 4]), (True, [3, 2, 5, 4])])
def test_faint_dots_read_as_a_two_count_only_on_a_die(on_a_die, values):
    """Two dots a shade darker than the floor, a two's pips apart: on bare floor they are a tray's grain
    (wood's darker streaks), read faintly as a two, which stands out from the surface as no die does; on a
    die's face (a die whose pips are faint) the same faint two is read."""
    frame, centres = draw_dice([3, 5, 4], face=200, pip=120, floor=110)
    x, y = int(centres[1][0]), 390
    dots = 94
    if on_a_die:
        cv2.rectangle(frame, (x - 28, y - 28), (x + 28, y + 28), (200, 200, 200), -1)
        dots = 184
    for side in (-1, 1):
        cv2.circle(frame, (x + 15 * side, y + 15 * side), 5, (dots, dots, dots), -1, cv2.LINE_AA)
    reading = DiceReader().read(frame)
    # The faint two lies straight below the five: which of them comes first is a pixel's luck.
    assert sorted(reading.values) == sorted(values)
    if on_a_die:  # read as faintly as the grain was: the rule, not the reading, tells them apart
        faint = {die.value: die.confidence < FAINT_CONFIDENCE for die in reading.dice}
        assert faint == {3: False, 2: True, 5: False, 4: False}


def test_a_dot_among_the_stripes_of_a_barcode_is_not_a_die_showing_one():
    """A label is a body, and the dot on it is round; but the stripes around it are no face."""
    frame, _ = draw_dice([5, 3, 4], face=235, pip=25, floor=(60, 110, 150))
    cv2.rectangle(frame, (280, 360), (360, 420), (235, 235, 235), -1)
    for x in range(286, 356, 9):
        if abs(x - 320) > 8:
            cv2.rectangle(frame, (x, 366), (x + 2, 414), (25, 25, 25), -1)
    cv2.circle(frame, (320, 390), 5, (25, 25, 25), -1, cv2.LINE_AA)
    assert DiceReader().read(frame).values == [5, 3, 4]


def test_a_lone_pip_on_a_face_of_its_own_colour_still_reads_as_one():
    frame, _ = draw_dice([1, 4, 1])
    assert DiceReader().read(frame).values == [1, 4, 1]


def keyboard(frame, left):
    """The corner of a laptop's keyboard running off the bottom of the frame: two dark keys 56 pixels wide
    from x `left` on a silver deck; the keys and the deck are one blob, no die body."""
    cv2.rectangle(frame, (left - 6, 372), (left + 124, frame.shape[0]), (150, 150, 150), -1)
    for x in (left, left + 62):
        cv2.rectangle(frame, (x, 380), (x + 56, 436), (40, 40, 40), -1)


def test_a_lone_light_dot_among_dark_pipped_dice_is_refused():
    """White dice with black pips, and a small light symbol on a dark key beside them: not a black die's 1."""
    frame, _ = draw_dice([3, 5, 6, 4])
    keyboard(frame, 280)
    cv2.circle(frame, (308, 408), 4, (230, 230, 230), -1, cv2.LINE_AA)
    assert DiceReader().read(frame).values == [3, 5, 6, 4]
    assert DiceReader().read(frame[300:, 200:420]).values == [1]  # alone, it may well be a black die


def test_two_light_dots_among_dark_pipped_dice_are_not_a_two():
    """Two small light symbols on a dark key beside white dice: they pass for a two, not of these dice."""
    frame, _ = draw_dice([3, 5, 6, 4])
    keyboard(frame, 280)
    for spot in ((296, 396), (320, 420)):
        cv2.circle(frame, spot, 4, (230, 230, 230), -1, cv2.LINE_AA)
    assert DiceReader().read(frame).values == [3, 5, 6, 4]


def test_a_letter_on_a_key_is_not_read_as_a_die_of_its_own_size():
    """A light letter with two holes (an 8) on a dark keyboard beside white dice stands out from the keys
    as a body of its own, a fifth of a die wide. Read at that size, its holes are a two's pips; but no set
    of dice is a fifth the size of the dice beside it."""
    frame, _ = draw_dice([3, 5, 6, 4], centres=[(120, 100), (260, 110), (420, 90), (560, 120)])
    cv2.rectangle(frame, (40, 240), (600, 470), (45, 45, 45), -1)
    cv2.rectangle(frame, (85, 312), (95, 328), (230, 230, 230), -1)
    for hole in ((90, 316), (90, 324)):
        cv2.circle(frame, hole, 1, (40, 40, 40), -1, cv2.LINE_AA)
    assert DiceReader().read(frame).values == [3, 5, 6, 4]


def test_a_light_dot_that_stands_out_as_a_body_of_its_own_is_no_die_showing_one():
    """A light symbol on a dark keyboard beside white dice with dark pips stands out from the keys as a body
    of its own. A light dot smaller than the dice's pips is a 1 only on a die's body, and a body under a
    third of a die wide is none (matteop65 three_25 as a Pi still: a key's symbol read as a 1, 0.99 sure)."""
    frame, _ = draw_dice([3, 5, 6, 4], centres=[(120, 100), (260, 110), (420, 90), (560, 120)])
    cv2.rectangle(frame, (40, 240), (600, 470), (45, 45, 45), -1)
    cv2.circle(frame, (90, 320), 4, (230, 230, 230), -1, cv2.LINE_AA)
    assert DiceReader().read(frame).values == [3, 5, 6, 4]


def tray_with_dice(reflection):
    """Red dice in a tray seen from above: a pale floor, the wall's inner side in shade, its glossy black
    top, a white table outside; two dice lie against the wall on its inner side. With `reflection`, the top
    mirrors a die beside it: two dim light pips, a two. Returns (frame, the dice's values left to right)."""
    centres = [(200, 240), (320, 200), (440, 260), (300, 330), (150, 150), (470, 100), (110, 380)]
    values = [3, 5, 2, 6, 4, 1, 5]
    dice, _ = draw_dice(values, die=40, face=(40, 40, 190), pip=235, floor=190, centres=centres)
    frame = dice.copy()
    frame[:38, :] = frame[442:, :] = 235
    frame[:, :38] = frame[:, 602:] = 235
    cv2.rectangle(frame, (50, 50), (590, 430), (25, 25, 25), 24)  # the wall's top, 38 to 62 px in
    cv2.rectangle(frame, (77, 77), (563, 403), (115, 115, 115), 30)  # its inner side, 62 to 92 px in
    for x, y in centres[-2:]:  # on the wall's inner side
        frame[y - 21 : y + 22, x - 21 : x + 22] = dice[y - 21 : y + 22, x - 21 : x + 22]
    if reflection:
        for x, y in ((300, 46), (318, 54)):
            cv2.circle(frame, (x, y), 4, (170, 170, 180), -1, cv2.LINE_AA)
    order = sorted(range(len(values)), key=lambda i: centres[i][0])
    return frame, [values[i] for i in order]


def test_a_die_mirrored_in_a_glossy_tray_rim_is_no_die():
    """nell-byler's tray has a glossy black top to its walls, which mirrors the dice beside them: six false
    dice in its photos. No die rests on top of a wall; the dice against it, on its inner side, still count."""
    frame, values = tray_with_dice(reflection=True)
    assert DiceReader().read(frame).values == values


def test_when_every_die_shows_one_the_polarity_with_more_pips_is_the_dice():
    """Four white dice showing 1 and two small light symbols on dark keys: no layout tells the polarity."""
    frame, _ = draw_dice([1, 1, 1, 1])
    for x in (120, 400):
        keyboard(frame, x)
        cv2.circle(frame, (x + 28, 408), 4, (230, 230, 230), -1, cv2.LINE_AA)
    assert DiceReader().read(frame).values == [1, 1, 1, 1]


def test_a_black_die_showing_one_among_white_dice_is_read():
    """A die of another set: its one pip is as large as the other dice's pips, as makers make it."""
    frame, _ = draw_dice([3, 5, 6, 4])
    cv2.rectangle(frame, (280, 380), (336, 436), (40, 40, 40), -1)
    cv2.circle(frame, (308, 408), 7, (230, 230, 230), -1, cv2.LINE_AA)
    assert sorted(DiceReader().read(frame).values) == [1, 3, 4, 5, 6]


def test_a_black_die_with_a_small_pip_among_white_dice_is_read_on_its_body():
    """Tiny pips measure a pixel small: a black die's one, a little smaller than the white dice's pips,
    still stands on a die body of its own, which a key's letter (on a keyboard, one blob) has not."""
    frame, _ = draw_dice([3, 5, 6, 4])
    cv2.rectangle(frame, (280, 380), (336, 436), (40, 40, 40), -1)
    cv2.circle(frame, (308, 408), 4, (230, 230, 230), -1, cv2.LINE_AA)
    assert sorted(DiceReader().read(frame).values) == [1, 3, 4, 5, 6]


def test_a_gold_die_whose_sheen_shades_its_face_across_is_read_on_its_body():
    """A metallic die's face darkens from one side to the other (here from 190 to 60 in red, gold's
    brightest channel): the face around one pip of its two is far darker than around the other, more than
    two pips of one face differ in the frame (the next die of another colour). On the die's own body, in
    lightness, that is its sheen, and the pips are a two."""
    frame, _ = draw_dice([3, 5, 6, 4])
    die, centre = 56, np.array([300, 400])
    x0, y0 = centre - die // 2
    gold = np.array([0.55, 0.85, 1.0])  # blue, green, red shares of the red channel's level
    frame[y0 : y0 + die, x0 : x0 + die] = (np.linspace(60, 190, die)[None, :, None] * gold).astype(np.uint8)
    for spot in PIP_SPOTS[2]:
        x, y = centre + np.array(spot) * die * 0.27
        cv2.circle(frame, (int(x), int(y)), int(die * 0.09), (15, 15, 15), -1, cv2.LINE_AA)
    assert sorted(DiceReader().read(frame).values) == [2, 3, 4, 5, 6]


def two_by_two(step):
    """Centres of four dice two by two, `step` pixels from centre to centre."""
    return [(280 + step * (i % 2), 200 + step * (i // 2)) for i in range(4)]


@pytest.mark.parametrize("colours", [(235, 25, 70), (40, 230, 200)], ids=["white-dice", "dark-dice"])
@pytest.mark.parametrize("gap", [8, 4])
@pytest.mark.parametrize("values", [[3, 5, 2, 6], [6, 1, 6, 2], [4, 5, 2, 1]])
def test_four_dice_come_to_rest_together_are_each_read(values, gap, colours):
    """Dice in a tray come to rest together: here two by two, a few pixels of tray between them, darker than
    white dice or lighter than dark ones. The black-hat fills that strip as it fills a pip, but it is the
    seam between dice, not a fleck of a face: the pips of neighbouring dice must not join into one group,
    which read three of the four dice."""
    face, pip, floor = colours
    frame, _ = draw_dice(values, face=face, pip=pip, floor=floor, centres=two_by_two(56 + gap))
    assert sorted(DiceReader().read(frame).values) == sorted(values)


def test_a_three_among_dice_lying_close_is_not_raised_to_a_six_by_their_pips():
    """A three's diagonal is as straight as a six's column, and the six's other column would lie a column's
    length aside: among dice lying close together, that is on the next dice's pips, which are theirs."""
    frame, _ = draw_dice([5, 3, 4, 6], die=64, floor=70, centres=two_by_two(70))
    assert sorted(DiceReader().read(frame).values) == [3, 4, 5, 6]


@pytest.mark.parametrize("value", [2, 4])
def test_streaks_of_a_marbled_die_between_its_pips_do_not_split_its_face(value):
    """Light streaks in a dark die that lie on the lines from pip to pip are face, not a seam between dice."""
    die = 64
    frame, centres = draw_dice([value, value], die=die, face=(60, 40, 30), pip=235, floor=200)
    for x, y in centres:
        for dx, dy in ((0, 0), (0, -0.27), (0, 0.27), (-0.27, 0), (0.27, 0)):
            start = (int(x + dx * die) - 4, int(y + dy * die) - 1)
            cv2.line(frame, start, (start[0] + 8, start[1] + 2), (150, 150, 150), 2)
    assert DiceReader().read(frame).values == [value, value]


@pytest.mark.parametrize("value", [2, 5])
def test_a_glint_joining_a_pip_does_not_hide_it(value):
    """A glossy die: a light streak of reflected light runs into one of its light pips."""
    die = 64
    frame, centres = draw_dice([value, 3], die=die, face=(50, 40, 40), pip=(230, 230, 230), floor=200)
    x, y = centres[0]
    corner = (int(x - 0.27 * die), int(y - 0.27 * die))
    cv2.line(frame, corner, (corner[0] - 20, corner[1]), (170, 170, 170), 2, cv2.LINE_AA)
    assert DiceReader().read(frame).values == [value, 3]


def test_a_hollow_glyph_on_a_dark_key_is_not_a_die_showing_one():
    """A ring-shaped symbol is pip-sized and round, but strokes around a hole: no pip is hollow."""
    frame, _ = draw_dice([3, 5, 6, 4])
    cv2.rectangle(frame, (280, 380), (336, 436), (40, 40, 40), -1)
    cv2.circle(frame, (308, 408), 6, (230, 230, 230), 2, cv2.LINE_AA)
    assert DiceReader().read(frame[300:, 200:420]).values == []


@pytest.mark.parametrize(("value", "dot"), [(6, (0.0, -0.4)), (2, (0.0, 0.27))])
def test_a_stray_dot_on_a_die_does_not_make_a_second_die(value, dot):
    """Dice cannot overlap: a dot of dirt on a six must not cut it into two threes, nor a two into ones."""
    frame, centres = draw_dice([1, value, 5], die=64)
    x, y = centres[1]
    cv2.circle(frame, (int(x + dot[0] * 64), int(y + dot[1] * 64)), 5, (25, 25, 25), -1, cv2.LINE_AA)
    assert DiceReader().read(frame).values == [1, value, 5]


def test_small_dark_dice_on_a_pale_board_are_not_taken_for_the_pips_of_one_huge_die():
    frame, _ = draw_dice([2, 5, 3, 6, 4, 1, 2], size=(640, 640), die=24, face=40, pip=230, floor=225)
    reading = DiceReader().read(frame)
    assert len(reading.dice) == 7
    assert reading.extras["die_px"] == pytest.approx(24, rel=0.3)


def test_red_pips_on_blue_dice_are_read_in_the_red_channel():
    """Nearly the same gray (58 and 72), but red and blue are far apart in colour."""
    blue, red = (200, 40, 40), (30, 30, 170)
    frame, _ = draw_dice([2, 5, 3, 6], face=blue, pip=red, floor=(215, 215, 215))
    assert DiceReader().read(frame).values == [2, 5, 3, 6]


def test_a_small_die_of_another_set_is_read_at_its_own_size():
    """A blue die with red pips, less than half the size of the white dice beside it: at their size its
    pips merge into one blob, so its body tells its own size and it is read at that."""
    frame, _ = draw_dice([3, 5, 6, 4], die=60, face=225, pip=30, floor=(185, 190, 195))
    die, centre = 26, np.array([320.0, 400.0])
    corner = (centre - die / 2).astype(int)
    cv2.rectangle(frame, tuple(corner), tuple(corner + die), (90, 40, 20), -1)
    for spot in PIP_SPOTS[5]:
        x, y = centre + np.array(spot) * die * 0.27
        cv2.circle(frame, (int(round(x)), int(round(y))), 2, (40, 40, 200), -1, cv2.LINE_AA)
    reading = DiceReader().read(frame)
    assert sorted(reading.values) == [3, 4, 5, 5, 6]
    small = min(reading.dice, key=lambda read: abs(read.center[1] - centre[1]))
    assert small.value == 5 and small.size < 40


@pytest.mark.parametrize("value", [4, 5, 6])
def test_dark_red_pips_on_a_black_die_are_read_in_a_star(value):
    """A black die with dark red pips beside white dice, saved as JPEG as cameras do: its pips are about as
    dark as the die in gray and in red, and JPEG halves their colour's resolution. Only the green-to-red
    opponent channel a* shows them plainly."""
    frame, _ = draw_dice([3, 5, 6, 4], die=60, face=225, pip=30, floor=(185, 190, 195))
    die, centre = 40, np.array([320.0, 400.0])
    corner = (centre - die / 2).astype(int)
    cv2.rectangle(frame, tuple(corner), tuple(corner + die), (45, 45, 48), -1)
    for spot in PIP_SPOTS[value]:
        x, y = centre + np.array(spot) * die * 0.27
        cv2.circle(frame, (int(round(x)), int(round(y))), int(die * 0.09), (30, 25, 75), -1, cv2.LINE_AA)
    _, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    reading = DiceReader().read(cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
    assert sorted(reading.values) == sorted([3, 5, 6, 4, value])


@pytest.mark.parametrize("value", [4, 5, 6])
def test_small_red_pips_on_a_marbled_dark_die_are_read_in_red(value):
    """A smoky die with swirls of blue and purple and red pips a few pixels wide, saved as JPEG: in gray the
    pips barely outshine the swirls, and in a* JPEG's half-resolution colour smears them into the swirls'
    hue. Red has them bright on a dark die at nearly full resolution."""
    frame, _ = draw_dice([3, 5, 6, 4], die=44, face=225, pip=30, floor=(185, 190, 195))
    centre, die, turn = np.array([320.0, 380.0]), 34, np.deg2rad(20)
    body = np.zeros(frame.shape[:2], np.uint8)
    corners = np.intp(np.round(cv2.boxPoints(((320.0, 380.0), (die, die), 20))))
    cv2.fillConvexPoly(body, corners, 255, cv2.LINE_AA)
    swirls = cv2.GaussianBlur(np.random.default_rng(3).normal(0, 1, body.shape).astype(np.float32), (0, 0), 3)
    shades = (swirls / swirls.std())[..., None] * np.float32((30, 10, 20))
    marble = np.clip(np.float32((50, 40, 40)) + shades, 0, 255)
    alpha = (body / 255.0)[..., None]
    frame = (frame * (1 - alpha) + marble * alpha).astype(np.uint8)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    for spot in PIP_SPOTS[value]:
        x, y = centre + rotation @ (np.array(spot) * die * 0.27)
        cv2.circle(frame, (int(round(x)), int(round(y))), 2, (40, 40, 140), -1, cv2.LINE_AA)
    _, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 75])
    reading = DiceReader().read(cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
    assert sorted(reading.values) == sorted([3, 5, 6, 4, value])


@pytest.mark.parametrize(("confidence", "kept"), [(0.3, False), (0.9, True)])
def test_a_faint_one_on_the_grain_round_a_plain_tray_is_refused(confidence, kept):
    """A plain tray makes the frame's texture small, and the wooden table round it, read faintly, stands out
    from that as a die would (matteop65 from 3x as far: faint twos on the grain). A faint read must stand out
    from the surface near it too, which grain does not; a clear one is measured against the frame's, as a
    white die on pale wood stands out by little."""
    frame, _ = draw_dice([3, 5, 4], face=200, pip=120, floor=110)
    frame = grain_below_felt(frame, 340, 140)
    cv2.circle(frame, (210, 410), 5, (124, 124, 124), -1, cv2.LINE_AA)  # on a light streak
    lone = Face((0,), 1, (210.0, 410.0), 56.0, 0.0, confidence, pip=10.0)
    assert DiceReader()._refuse_false_dice([lone], frame, 56.0, 1.0, None) == ([lone] if kept else [])


def test_a_speck_on_a_faint_stain_of_a_flat_card_is_not_a_one():
    """A clean card is flatter than any die stands out from it, so a stain a few gray levels lighter around a
    speck is no die body, however small the card's own texture."""
    card = np.random.default_rng(1).normal(170, 0.6, (480, 640, 3))
    cv2.circle(card, (320, 400), 24, (176, 176, 176), -1, cv2.LINE_AA)
    cv2.circle(card, (320, 400), 3, (60, 60, 60), -1, cv2.LINE_AA)
    for i, value in enumerate([3, 5, 6]):
        centre = np.array([160.0 * (i + 1), 240.0])
        cv2.rectangle(card, tuple(np.intp(centre - 28)), tuple(np.intp(centre + 28)), (235, 235, 235), -1)
        for spot in PIP_SPOTS[value]:
            x, y = centre + np.array(spot) * 56 * 0.27
            cv2.circle(card, (int(round(x)), int(round(y))), 5, (30, 30, 30), -1, cv2.LINE_AA)
    frame = np.clip(card, 0, 255).astype(np.uint8)
    assert DiceReader().read(frame).values == [3, 5, 6]


@pytest.mark.parametrize(
    "profile", [None, CalibrationProfile(die_size=56 / 480)], ids=["default", "calibrated"]
)
def test_a_white_die_showing_one_on_a_white_tray_reads_by_its_outline(profile):
    """A die the tray's colour (nell-byler 100054) has no body that stands out from the tray, but the thin
    shadow round its face runs all round its pip; a speck on the same tray has no such outline. The
    appliance reads calibrated, at the die size of its profile."""
    frame, _ = draw_dice([3, 5, 2], face=215, floor=200)
    corners = np.intp(np.round(cv2.boxPoints(((320.0, 390.0), (56.0, 56.0), 15.0))))
    cv2.polylines(frame, [corners], True, (175, 175, 175), 2, cv2.LINE_AA)
    cv2.circle(frame, (320, 390), 5, (25, 25, 25), -1, cv2.LINE_AA)
    cv2.circle(frame, (110, 400), 5, (25, 25, 25), -1, cv2.LINE_AA)
    reading = DiceReader(profile).read(frame)
    assert sorted(reading.values) == [1, 2, 3, 5]
    (one,) = (die for die in reading.dice if die.value == 1)
    assert abs(one.center[0] - 320) < 5 and abs(one.center[1] - 390) < 5


def test_the_pips_of_a_two_need_not_be_equally_round():
    """Pips some 8 pixels wide: one of a two's pips drawn at 0.7 of the other's roundness, as pixels and an
    oblique view can leave it, is still the same face's pip."""
    frame, _ = draw_dice([3, 5, 6], die=56, face=225, pip=30, floor=(150, 120, 90))
    centre = np.array([320.0, 380.0])
    cv2.rectangle(frame, tuple(np.intp(centre - 28)), tuple(np.intp(centre + 28)), (225, 225, 225), -1)
    cv2.ellipse(frame, (centre - 15, (8, 8), 0), (30, 30, 30), -1, cv2.LINE_AA)
    cv2.ellipse(frame, (centre + 15, (8, 5.6), 30), (30, 30, 30), -1, cv2.LINE_AA)
    assert sorted(DiceReader().read(frame).values) == [2, 3, 5, 6]


def test_a_fleck_beside_the_pip_of_a_one_does_not_make_it_a_two():
    """The pip of a one, 14 px across, and a dark fleck 8 px across at its corner: they lie where a small
    two's pips would, but pips of one face are one size."""
    frame, _ = draw_dice([3, 5, 6], die=56, face=225, pip=30, floor=(150, 120, 90))
    centre = np.array([320.0, 380.0])
    cv2.rectangle(frame, tuple(np.intp(centre - 28)), tuple(np.intp(centre + 28)), (225, 225, 225), -1)
    cv2.ellipse(frame, (centre, (14, 14), 0), (30, 30, 30), -1, cv2.LINE_AA)
    cv2.ellipse(frame, (centre + 18, (8, 8), 0), (30, 30, 30), -1, cv2.LINE_AA)
    assert sorted(DiceReader().read(frame).values) == [1, 3, 5, 6]


def test_a_die_cut_by_a_colour_pass_does_not_outvote_its_whole_reading():
    """Colour channels are read only around doubtful dice; a white six at the edge of that box is cut in
    two, and its half (a three) must not outvote the six read whole in gray."""
    frame, _ = draw_dice([2], face=(200, 40, 40), pip=(30, 30, 170), floor=(215, 215, 215))
    die, x, y = 56, 320 + 2 * 56, 240
    cv2.rectangle(frame, (x - die // 2, y - die // 2), (x + die // 2, y + die // 2), (235, 235, 235), -1)
    for dx, dy in PIP_SPOTS[6]:
        cv2.circle(
            frame, (int(x + dx * die * 0.27), int(y + dy * die * 0.27)), 5, (25, 25, 25), -1, cv2.LINE_AA
        )
    values = DiceReader().read(frame).values
    assert 6 in values and 3 not in values


def test_white_dice_on_green_felt_are_read_in_gray_alone(monkeypatch):
    """Red and blue add nothing on a gray face with gray pips, however coloured the tray around it is."""

    def no_colour_pass(*args, **kwargs):
        raise AssertionError("a colour pass ran for white dice")

    monkeypatch.setattr(DiceReader, "_faces_in", no_colour_pass)
    frame, _ = draw_dice([1, 4, 6, 2, 5], floor=(60, 130, 40))
    assert DiceReader().read(frame).values == [1, 4, 6, 2, 5]


def test_seven_dice_are_all_reported():
    frame, _ = draw_dice([1, 2, 3, 4, 5, 6, 2], size=(1000, 400), die=60)
    assert DiceReader().read(frame).values == [1, 2, 3, 4, 5, 6, 2]


def test_a_die_cut_by_the_frame_edge_is_unreadable_not_guessed():
    frame, _ = draw_dice([5, 4], size=(640, 480))
    cut = frame[:, 203:]  # the first die (centre x 213) loses most of its left half
    reading = DiceReader().read(cut)
    assert reading.values == [4]
    assert any(region.reason == "cut by the frame edge" for region in reading.unreadable)


def test_a_small_four_near_the_frame_edge_is_read_not_called_cut():
    """A slanted camera sees its far dice smaller than most: a whole four 40 pixels wide whose face ends 4
    pixels from the top edge is no cut die, though a die of the frame's usual size there would be."""
    frame, _ = draw_dice([3, 5, 6], size=(640, 480), die=60)
    cv2.rectangle(frame, (300, 4), (340, 44), (235,) * 3, -1)
    for spot in PIP_SPOTS[4]:
        x, y = np.array([320.0, 24.0]) + np.array(spot) * 40 * 0.27
        cv2.circle(frame, (int(round(x)), int(round(y))), int(40 * 0.09), (25,) * 3, -1, cv2.LINE_AA)
    reading = DiceReader().read(frame)
    assert sorted(reading.values) == [3, 4, 5, 6]
    assert not reading.unreadable


def test_two_rows_of_a_six_cut_by_the_frame_edge_are_not_read_as_a_four():
    """Cut through its top row, a six shows a two-by-two of pips: squashed to half, with round pips."""
    frame, _ = draw_dice([6, 6, 6])
    reading = DiceReader().read(frame[224:])
    assert reading.values == []


def test_params_come_from_the_profile_clamped_to_their_ranges():
    assert set(DEFAULT_PARAMS) == set(PARAM_RANGES)
    for name, value in DEFAULT_PARAMS.items():
        low, high = PARAM_RANGES[name]
        assert low <= value <= high
    reader = DiceReader(CalibrationProfile(reader={"pip_contrast": 5.0, "layout_tolerance": 0.1, "bogus": 1}))
    assert reader.params["pip_contrast"] == PARAM_RANGES["pip_contrast"][1]
    assert reader.params["layout_tolerance"] == 0.1
    assert "bogus" not in reader.params


BAD_FRAMES = {
    "none": None,
    "empty": np.zeros((0, 0, 3), np.uint8),
    "black": np.zeros((480, 640, 3), np.uint8),
    "white": np.full((480, 640, 3), 255, np.uint8),
    "noise": np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8),
    "tiny": np.zeros((5, 5, 3), np.uint8),
    "five channels": np.zeros((48, 64, 5), np.uint8),
    "one dimension": np.zeros(100, np.uint8),
    "a list": [[1, 2], [3, 4]],
    "text": "not an image",
    "nan floats": np.full((480, 640, 3), np.nan, np.float32),
    # A lens cap: a few levels of sensor noise, which brightening an underexposed frame must not make a scene
    "lens cap": np.clip(np.random.default_rng(2).normal(4, 1.5, (480, 640, 3)), 0, 255).astype(np.uint8),
}


@pytest.mark.parametrize("name", sorted(BAD_FRAMES))
def test_bad_frames_give_a_reading_with_a_problem(name):
    reading = DiceReader().read(BAD_FRAMES[name])
    assert isinstance(reading, Reading)
    assert reading.dice == ()
    assert reading.problem


@pytest.mark.parametrize("share", [0.01, 0.05, 0.1])
@pytest.mark.parametrize("calibrated", [False, True])
def test_dice_in_a_frame_with_salt_and_pepper_are_read(share, calibrated):
    """A failing sensor or loose cable sets pixels white or black at random: specks of a pip's contrast by
    the thousand, which were read as dice of their own (and a frame for many seconds)."""
    frame, _ = draw_dice([6, 1, 3, 5])
    profile = CalibrationProfile(die_size=56 / 480) if calibrated else None
    assert DiceReader(profile).read(speckled(frame, share)).values == [6, 1, 3, 5]


def test_a_frame_speckled_all_over_is_refused():
    frame, _ = draw_dice([6, 1, 3, 5])
    reading = DiceReader().read(speckled(frame, 0.25))
    assert reading.dice == () and reading.problem == SPECKLED


def test_no_dice_on_a_plain_table():
    frame, _ = draw_dice([])
    reading = DiceReader().read(frame)
    assert reading.dice == () and reading.problem


@pytest.mark.parametrize(
    "convert",
    [
        lambda f: cv2.cvtColor(f, cv2.COLOR_BGR2GRAY),
        lambda f: f.astype(np.float32) / 255.0,
        lambda f: cv2.cvtColor(f, cv2.COLOR_BGR2BGRA),
        lambda f: f.astype(np.uint16) * 257,
    ],
    ids=["grayscale", "float", "four channels", "16 bit"],
)
def test_other_shapes_and_dtypes_are_read(convert):
    frame, _ = draw_dice([6, 1, 3])
    assert DiceReader().read(convert(frame)).values == [6, 1, 3]


def test_small_bodies_that_are_a_dies_own_pips_do_not_overrule_the_pip_based_die_size(monkeypatch):
    """A big white die showing 2 beside a grille of small holes: the pips tell a die 100 px wide, while
    the body finder sees the die's two pips (14 px) as bodies, the die itself being as pale as the board.
    At their size the grille reads as rows of dice, none of them on those bodies: one body is no witness,
    and two are none either when the dice they would replace are read on neither."""
    frame = np.full((480, 640, 3), 170, np.uint8)
    cv2.rectangle(frame, (400, 250), (500, 350), (235, 235, 235), -1)
    for centre in ((425, 275), (475, 325)):
        cv2.circle(frame, centre, 7, (30, 30, 30), -1, cv2.LINE_AA)
    for row in range(8):
        for column in range(10):
            cv2.circle(frame, (60 + column * 9, 60 + row * 9), 2, (60, 60, 60), -1, cv2.LINE_AA)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.7)
    monkeypatch.setattr(DiceReader, "_die_px", lambda self, gray, threshold, short_side, bodies: 100.0)
    centres = np.array([[425.0, 275.0], [475.0, 325.0]])
    for count in (1, 2):
        bodies = Bodies(centres[:count], 14.0, np.full(count, 14.0))
        monkeypatch.setattr(reader_module, "find_bodies", lambda tray, bodies=bodies: bodies)
        assert DiceReader().read(frame).values == [2]


def test_a_row_of_dark_dice_read_as_one_big_three_is_read_again_at_the_size_of_their_bodies(monkeypatch):
    """Three small dark dice in a diagonal row on a pale board pass for the pips of one huge die showing 3.
    Their bodies tell the dice's size, and read at it, each body holds a die showing 2."""
    frame = np.full((480, 640, 3), 190, np.uint8)
    frame[:, 480:], frame[:, :60] = 235, 110  # a white card and a dark rim: the frame's brightness range
    centres = np.array([[250.0 + 40 * step, 180.0 + 40 * step] for step in range(3)])
    for x, y in centres.astype(int):
        cv2.rectangle(frame, (x - 13, y - 13), (x + 13, y + 13), (50, 45, 40), -1)
        for offset in (-6, 6):
            cv2.circle(frame, (x + offset, y + offset), 2, (235, 235, 235), -1, cv2.LINE_AA)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.7)
    monkeypatch.setattr(DiceReader, "_die_px", lambda self, gray, threshold, short_side, bodies: 150.0)
    monkeypatch.setattr(reader_module, "find_bodies", lambda tray: Bodies(centres, 26.0, np.full(3, 26.0)))
    assert DiceReader().read(frame).values == [2, 2, 2]


@pytest.mark.parametrize(("seed", "value", "angle"), [(1, 6, 0.0), (3, 4, 30.0), (5, 6, 30.0)])
def test_dice_against_the_tray_walls_are_read_with_the_calibrated_tray(seed, value, angle):
    """The calibrated tray lies a little inside the walls (their shadow darkens the floor's edge), so a
    die against a wall reaches past it: it is read whole in the frame, not called cut, and not read from
    the pips left inside the tray (a four's side as a two, a six's column as a three)."""
    tray = SimulatedTray(640, 480, 5, seed)
    tray.open()
    frames = []
    for _ in range(5):
        tray.roll([])
        frames += [tray.read() for _ in range(tray.moving_frames + 1)][-1:]
    profile, _ = auto_calibrate(frames, CalibrationProfile())
    assert profile.tray is not None
    left, top, right, bottom = np.array(tray.tray) * [640, 480, 640, 480]
    half = tray.die_px / 2 + 1  # touching the wall
    walls = [(left + half, 240.0), (320.0, top + half), (right - half, 300.0), (250.0, bottom - half)]
    tray.place([SimDie(value, at, angle) for at in walls] + [SimDie(1, (400.0, 240.0), 0.0)])
    reading = DiceReader(profile).read(tray.read())
    assert reading.values == tray.values
    assert not reading.unreadable


def test_a_one_near_the_frame_edge_is_judged_cut_by_the_die_size_its_neighbours_measure(monkeypatch):
    """Pips larger than most makers' made the frame's die size half as large again as the dice are: a whole
    die showing 1 near the top edge would pass for what the edge left of a larger face. The threes, fours
    and fives beside it measure the dice, and at that size it is whole."""
    frame, _ = draw_dice([3, 4, 5], die=56)
    cv2.rectangle(frame, (292, 2), (348, 58), (235, 235, 235), -1)
    cv2.circle(frame, (320, 30), 5, (25, 25, 25), -1, cv2.LINE_AA)
    monkeypatch.setattr(DiceReader, "_die_px", lambda self, gray, threshold, short_side, bodies: 84.0)
    reading = DiceReader().read(frame)
    assert sorted(reading.values) == [1, 3, 4, 5]
    assert not reading.unreadable


def test_a_frame_is_read_at_the_outer_sizes_and_the_middle_one_where_they_differ(monkeypatch):
    """Calibrated or not: frames of still dice put each pip where the last frame did, so the roll watcher's
    agreeing frames are no second size."""
    scales = []

    def agree(readings):
        scales.append([reading.extras["scale"] for reading in readings])
        return real_agree(readings)

    real_agree = consensus_module.agree
    monkeypatch.setattr(consensus_module, "agree", agree)
    frame, _ = draw_dice([6, 5, 4, 3, 2], die=40)
    assert DiceReader().read(frame).values == [6, 5, 4, 3, 2]
    (asked,) = scales
    # The smallest and largest sizes read the drawn dice alike, so the middle one is not read.
    smallest, middle, largest = AGREEING_DIE_PX
    assert asked[1] / asked[0] == pytest.approx(largest / smallest)
    middle_scale = asked[0] * middle / smallest
    calibrated = CalibrationProfile(die_size=40 / 480)
    assert DiceReader(calibrated).read(frame).values == [6, 5, 4, 3, 2]
    assert scales[-1] == pytest.approx([smallest / 40, largest / 40])  # the profile's dice, 40 px
    assert DiceReader(work_die_px=57.0).read(frame).extras["scale"] == pytest.approx(asked[0])
    assert len(scales) == 2  # one size asked for is read alone

    # Where the outer sizes differ, the middle one is read too, between them.
    real_read = DiceReader._read_prepared

    def misreading_the_largest(reader, prepared):
        read = real_read(reader, prepared)
        return read if reader.work_die_px != largest else replace(read, dice=read.dice[1:])

    monkeypatch.setattr(DiceReader, "_read_prepared", misreading_the_largest)
    assert DiceReader().read(frame).values == [6, 5, 4, 3, 2]
    assert scales[-1] == pytest.approx([asked[0], middle_scale, asked[1]])
    assert DiceReader(calibrated).read(frame).values == [6, 5, 4, 3, 2]
    assert scales[-1] == pytest.approx([smallest / 40, middle / 40, largest / 40])


@pytest.mark.parametrize(("smear", "turn"), [(10, 0.0), (10, 100.0), (12, 20.0), (12, 100.0)])
def test_a_die_a_hand_moved_is_read_by_its_pips_smeared_into_bars(smear, turn):
    """A two and a five whose pips are smeared `smear` px along one line (matteop65 two_47: a die a hand
    moved as the photo was taken): too flat for pips, they read as nothing or as a two; as smears
    (`vision.pips.SMEAR_ROUNDNESS`) they read as they lie."""
    frame, centres = draw_dice([2, 5, 3, 4, 6])
    for centre, value in zip(centres[:2], (2, 5), strict=True):
        x, y = (round(c) for c in centre)
        cv2.rectangle(frame, (x - 28, y - 28), (x + 28, y + 28), (235, 235, 235), -1)
        for spot in PIP_SPOTS[value]:
            place = (round(x + spot[0] * 56 * 0.27), round(y + spot[1] * 56 * 0.27))
            cv2.ellipse(frame, place, (5 + smear // 2, 5), turn, 0, 360, (25, 25, 25), -1, cv2.LINE_AA)
    frame = cv2.GaussianBlur(frame, (0, 0), 1.2)
    assert DiceReader().read(frame).values == [2, 5, 3, 4, 6]

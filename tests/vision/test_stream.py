"""The stream reader over frames of the simulated tray: one working size per frame, in turn, and the sizes
agreed over the frames that show the same thing."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import reader as reader_module
from vision.profile import CalibrationProfile
from vision.reader import DiceReader
from vision.reading import ASK_BELOW, Die, Reading
from vision.simtray import SimulatedTray
from vision.stream import AVERAGED_FRAMES, BODIES_AGAIN_AT, StreamReader, alike, cell_side, look

# The simulated tray's die is 0.11 of its frame's short side, its pips dark: a calibrated table.
CALIBRATED = CalibrationProfile(die_size=0.11, pip_polarity="dark")


@pytest.fixture
def tray():
    with SimulatedTray(640, 480, 5, seed=11) as tray:
        yield tray


class ScriptedSizes:
    """Stands in for the working sizes of a real reader, which still prepares each frame: each size reads
    the tray's dice as they lie, but the size `misreading` reads the first die one higher. Records the
    size each call read at."""

    def __init__(self, reader: DiceReader, tray: SimulatedTray, misreading: int = 1) -> None:
        self.tray, self.misreading, self.sizes = tray, misreading, []
        reader.read_at_size = self.read_at_size

    def read_at_size(self, prepared, which: int) -> Reading:
        self.sizes.append(which)
        values = self.tray.values
        if which == self.misreading:
            values[0] = values[0] % 6 + 1
        dice = tuple(Die(v, d.center, 70.0, 0.0, 0.9) for v, d in zip(values, self.tray.dice, strict=True))
        return Reading(dice=dice, frame_size=(640, 480))


def test_each_frame_is_read_at_one_working_size_in_turn(tray):
    reader = DiceReader(CALIBRATED)
    sizes = ScriptedSizes(reader, tray)
    stream = StreamReader(reader)
    for _ in range(7):
        stream.read(tray.read())
    assert sizes.sizes == [0, 1, 2, 0, 1, 2, 0]


def test_still_frames_are_read_as_most_working_sizes_read_them(tray):
    """Size 1 misreads the first die: alone it is read as a size reads it; beside size 0's reading of the
    same still dice it is in doubt (asked about); once the three sizes have read them, most sizes' value
    stands, and stays as the sizes go round again."""
    truth = tray.values
    stream = StreamReader(DiceReader(CALIBRATED))
    ScriptedSizes(stream.reader, tray)
    readings = [stream.read(tray.read()) for _ in range(5)]
    assert readings[0].values == truth
    assert readings[1].dice[0].confidence < ASK_BELOW
    for reading in readings[2:]:
        assert reading.values == truth and not reading.asks


def test_a_die_turned_over_forgets_the_frames_before_it(tray):
    """Two frames of still dice, then one die shows another face: that frame is read at its own size
    alone, not outvoted by the two before it (which would read the first die as it was)."""
    stream = StreamReader(DiceReader(CALIBRATED))
    ScriptedSizes(stream.reader, tray, misreading=2)
    before = tray.values
    stream.read(tray.read())
    stream.read(tray.read())
    turned = before[0] % 6 + 1
    tray.set_values([turned, *before[1:]])
    assert stream.read(tray.read()).values[0] == turned % 6 + 1  # size 2 alone: its misread
    stream.read(tray.read())
    assert stream.read(tray.read()).values == tray.values  # sizes 2, 0 and 1 of the new face


def test_a_frame_the_reader_refuses_forgets_the_frames_before_it(tray):
    stream = StreamReader(DiceReader(CALIBRATED))
    sizes = ScriptedSizes(stream.reader, tray, misreading=0)
    frame = tray.read()
    stream.read(frame)
    stream.read(frame)
    refused = stream.read(np.zeros((480, 640, 3), np.uint8))
    assert refused.problem and not refused.dice
    assert sizes.sizes == [0, 1]  # the black frame was read at no size
    after = stream.read(frame)  # size 2 alone: the size 0 and 1 readings before the black frame are gone
    assert sizes.sizes == [0, 1, 2] and after.values == tray.values and not after.asks


@pytest.mark.parametrize("profile", [CALIBRATED, CalibrationProfile()], ids=["calibrated", "uncalibrated"])
def test_still_dice_of_the_simulated_tray_are_read_as_one_frame_at_every_size(tray, profile):
    """The real reader: three frames of still dice, read a size each, read them right; a camera's three
    copies of one frame (their mean is that frame) read exactly as `DiceReader.read` reads that frame."""
    stream = StreamReader(DiceReader(profile))
    for _ in range(3):
        tray.roll()
        for _ in range(tray.moving_frames):
            stream.read(tray.read())
        assert [stream.read(tray.read()) for _ in range(3)][-1].values == tray.values
        frame, copies = tray.read(), StreamReader(DiceReader(profile))
        assert [copies.read(frame) for _ in range(3)][-1] == DiceReader(profile).read(frame)


def test_frames_are_alike_while_the_dice_lie_still_and_not_once_one_moves_or_turns(tray):
    reader = DiceReader(CALIBRATED)
    first = reader.prepare(tray.read())
    first_look = look(first.gray, cell_side(first))

    def alike_first(frame: np.ndarray) -> bool:
        return alike(first, first_look, reader.light(frame).gray)

    assert alike_first(tray.read())  # sensor noise alone
    brighter = cv2.add(tray.read(), np.full((480, 640, 3), 30, np.uint8))
    assert alike_first(brighter)  # the room's light or the camera's exposure, not a die
    dice = list(tray.dice)
    x, y = dice[2].center
    tray.place([*dice[:2], replace(dice[2], center=(x + 5, y)), *dice[3:]])
    assert not alike_first(tray.read())
    tray.place(dice)
    values = tray.values
    for turned in range(1, 7):
        if turned != values[2]:
            tray.set_values([*values[:2], turned, *values[3:]])
            assert not alike_first(tray.read()), f"a {values[2]} turned to {turned}"


@pytest.fixture
def bodies_looked_for(monkeypatch):
    """How many times the reader has looked for dice bodies (`vision.reader._bodies`)."""
    calls = []

    def counting(tray_image):
        calls.append(tray_image.shape)
        return finding(tray_image)

    finding = reader_module._bodies
    monkeypatch.setattr(reader_module, "_bodies", counting)
    return calls


def test_still_frames_share_the_dice_bodies_of_their_run(tray, bodies_looked_for):
    """Still dice lie where they lay: their bodies are looked for in the first frame of a run of still
    frames, again in the mean of its first 4 and 8 frames (`BODIES_AGAIN_AT`), and once a die has moved;
    the frames read as well as they did each with its own bodies."""
    stream = StreamReader(DiceReader(CALIBRATED))
    looked = []
    for _ in range(9):
        assert stream.read(tray.read()).values == tray.values
        looked.append(len(bodies_looked_for))
    assert looked == [1 + sum(frames >= at for at in BODIES_AGAIN_AT) for frames in range(1, 10)]
    dice = list(tray.dice)
    x, y = dice[0].center
    tray.place([replace(dice[0], center=(x + 6, y)), *dice[1:]])
    readings = [stream.read(tray.read()) for _ in range(3)]
    assert len(bodies_looked_for) == looked[-1] + 1
    assert readings[-1].values == tray.values and not readings[-1].asks


@pytest.fixture
def lit_read(monkeypatch):
    """The lit frames a stream reader's `DiceReader.prepare_lit` is handed, in order."""
    handed = []

    def recording(self, lit, still=None):
        handed.append(lit)
        return preparing(self, lit, still)

    preparing = DiceReader.prepare_lit
    monkeypatch.setattr(DiceReader, "prepare_lit", recording)
    return handed


def _with_noise(frame: np.ndarray, seed: int, sigma: float = 8.0) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0.0, sigma, frame.shape)
    return np.clip(np.rint(frame + noise), 0, 255).astype(np.uint8)


def test_still_frames_are_read_as_the_mean_of_their_run(tray, lit_read):
    """Eight frames of still dice, each with its own sensor noise, are read as their mean: the eighth
    frame read differs from the frame without noise by less than half as much as the first (a root of 8
    less, in theory), and the dice are read right."""
    clean = tray.read()
    stream = StreamReader(DiceReader(CALIBRATED))
    readings = [stream.read(_with_noise(clean, seed)) for seed in range(AVERAGED_FRAMES)]
    truth = DiceReader(CALIBRATED).light(clean).gray.astype(np.float32)

    def off(lit) -> float:
        return float(np.abs(lit.gray - truth).mean())

    assert off(lit_read[-1]) < 0.5 * off(lit_read[0])
    assert readings[-1].values == tray.values and not readings[-1].asks


def test_a_still_run_is_read_as_its_mean_once_every_size_has_read_it(tray, lit_read):
    """The mean of `AVERAGED_FRAMES` still frames is the run's last: the frames after it are read as it,
    at each size in turn, and once every size has read it the stream gives what they agreed on without
    reading again (the same frame at the same size reads the same). A die that moves starts a new run."""
    stream = StreamReader(DiceReader(CALIBRATED))
    sizes = []
    reading_at = stream.reader.read_at_size

    def counting(prepared, which):
        sizes.append(which)
        return reading_at(prepared, which)

    stream.reader.read_at_size = counting
    readings = [stream.read(tray.read()) for _ in range(AVERAGED_FRAMES + 6)]
    assert len(lit_read) == AVERAGED_FRAMES
    assert len(sizes) == AVERAGED_FRAMES + stream.reader.working_sizes - 1
    assert all(reading == readings[len(sizes) - 1] for reading in readings[len(sizes) :])
    assert readings[-1].values == tray.values and not readings[-1].asks
    dice = list(tray.dice)
    x, y = dice[0].center
    tray.place([replace(dice[0], center=(x + 6, y)), *dice[1:]])
    stream.read(tray.read())
    assert len(lit_read) == AVERAGED_FRAMES + 1
    assert len(sizes) == AVERAGED_FRAMES + stream.reader.working_sizes


def test_dice_that_creep_end_their_run_once_moved_from_where_it_began(tray, bodies_looked_for):
    """Each frame is compared with the first of its run, not with the one before: a die nudged half a pixel
    a frame, each frame alike the one before it, is looked for again before it has moved a pip's width."""
    stream = StreamReader(DiceReader(CALIBRATED))
    stream.read(tray.read())
    dice = list(tray.dice)
    x, y = dice[0].center
    for step in range(1, 7):
        tray.place([replace(dice[0], center=(x + step / 2, y)), *dice[1:]])
        stream.read(tray.read())
    assert len(bodies_looked_for) >= 2

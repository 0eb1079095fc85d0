"""`pipkeeper bench-vision`: the reader's accuracy on every photo set there is, and its speed per frame.

Runs eval-vision on each set under `<repo>/../shared/datasets/dice-photos` (or `--datasets DIR`) and prints
one table (beside the contract's columns, the share of hands the game would ask the players about and of
hands read wrong without asking: `vision.dataset`), then times the reader on simulated-tray frames of
640x480 and 1280x720 on one thread: with the default profile (everything estimated per frame, as eval-vision
reads unseen photos) and with a profile auto-calibrated on a few of those frames (die size, pip polarity,
tray), as the appliance reads once set up: a photo alone (`DiceReader.read`, at two or three working sizes,
as `pipkeeper read` reads it) and a camera's stream (`vision.stream`, one size a frame in turn, as the camera
loop reads it), each roll's dice seen in `STREAM_STILL_FRAMES` frames, as they lie still before they settle
(the first of them finds the dice bodies, and the others share them and are read as the mean of the frames
so far).
Each frame counts by its fastest of several reads, made in rounds (`_timing`), so the machine's other work
does not.

With `--turned`, each set is also read with every photo turned a quarter and a half round. A reader tuned on
photos taken one way up can be right on some of them by luck of the pixel grid, where a die's reading rests
on a threshold; turned, those readings are drawn again, so the turned rows show what the accuracy on unseen
photos may be. (A camera that looks at a slant must be held upright, see `vision.sides`, so on slanted
photos the turned rows also lose the side faces that are then above their top faces: all of matteop65's
turned losses, 11 and 12 hands, which a reader told which way is down in the turned photos read right.)

With `--enlarged`, each set is also read with every photo enlarged 2.5 times (bicubic): the reader shrinks
a big photo to its working die size by another path than it enlarges a small one, so this row shows how
much of the accuracy holds for a camera with more pixels on the dice (a Raspberry Pi camera's 8 MP stills).
Bicubic interpolation also overshoots a little at edges, as a camera's own sharpening does: the row counts
both (nell-byler's hands 80.0% -> 68.5%; enlarged bilinearly, without the overshoot, 73.0%).

With `--distant`, each set is also read with every photo set in the middle of a frame three times as wide
and high, the rest the colour of the photo's own border (blended into it over a band, so no edge stands
out): the same dice at a third of their share of the frame, as a camera farther away or with a wider lens
sees them (a Raspberry Pi camera's still of a whole tray shows dice 2 to 4% of its height). The reader's
first estimates run on copies of a fixed size, so this row shows whether it still finds such dice.

With `--recompressed`, each set is also read with every photo saved once more as a JPEG of quality
`RECOMPRESSION_QUALITY`, its colour at half resolution as most cameras and phone apps store it: the pixels
change by a level or two, and the colour of a pip a few pixels wide is smeared once more. A reading that
changes with that rests on a level the pixel grid and the encoder decide, not on the dice (nell-byler's
hands 80.0% -> 75.0%, most of those lost on coloured or glossy dice: a gold die's sheen, a glint across a
green die's pip, a smoky die's red pips; matteop65's unchanged).

With `--still`, each set is also read with every photo enlarged (bicubic) to `STILL_WIDTH` pixels wide, a
Raspberry Pi camera v2's full still: matteop65's 640x480 photos become 3280x2460, five times as large. There
a white die's dark pips are blobs as large as the dice of a coarser frame, and the checks that rest on dice
bodies see them as bodies (matteop65: 98.0% of hands as taken, 97.2% so). It is the slowest row: nell-byler's
640x640 photos become 3280x3280.

With both `--distant` and `--still`, each set is also read with every photo from 3x as far, then enlarged
to a still's width: a whole tray in a Pi camera's still, the same dice a small share of a large frame
(matteop65's dice about 97 px in 3280x2460, 4% of its height). Finer copies of the frame, not the first
small one, tell the die size there (`vision.die_size.FINER_PAIRS`), and a small copy takes dice lying close
for the pips of one large die. This row is the nearest these photos come to a Pi camera's still of white
dice in a tray, and not all its losses are the reader's: matteop65 reads 99.0% die recall, 99.0% precision
and 96.2% of hands (381 of 396) so, with 6 hands wrong unasked. Two of those six are the stand-in's own
making: a die within the band that fades the photo into the padding (the outer twentieth of its shorter
side) loses pips with it (valid_8, valid_24). The others are a label that calls a die's 1 a 4 (valid_56),
a die a hand was moving (four_50), and a slanted webcam's side faces read as dice: two twos below a one
(dice_20, as taken too) and a two in place of the one above it (dice_22). A band a quarter as wide keeps
valid_8 and valid_24, but the photos' edges then stand out sharply, with the clutter there: 366 hands.

With `--tinted`, each set is also read with every photo's blue and red scaled apart (`TINTS`), one way and
the other, as a camera whose white balance was set for other light sees it: a Pi camera's balance frozen in
daylight, then a lamp lit. White dice look coloured then, unless the reader takes the tint out
(`vision.frames.balanced`). Levels scaled past full scale stay there, as a sensor's do. (Hands read
exactly, cool and warm: matteop65 98.0% and 97.7%, nell-byler 75.5% and 75.0%; before the reader balanced
a frame, 95.5% and 97.0%, 72.0% and 73.0%.)

With `--noisy`, each set is also read with every photo given sensor noise: each level moved by a draw from a
normal distribution of `NOISE_SIGMA` levels (the same draws for every photo of a size, so the row reads alike
each time). A photo's JPEG encoder, and a phone's denoiser before it, took out most of the pixel-to-pixel
jitter a live camera frame has: the shared photos' gray jitters by a median 0 or 1 level from one pixel to
the next (the reader's `_grain`), these noisy photos' by 3. Readings that rest on a faint pip or a blob at
the threshold change (hands read exactly with noise: matteop65 97.0% against 98.0% as taken, nell-byler 70.5%
against 80.0%). Smoothing the frame first lost more: on every second nell-byler photo with noise of 4 levels
(truncated to whole levels, not rounded), 64 hands of 100 after a Gaussian of 1 pixel and 68 after a 3x3
median, against 72 unsmoothed.

With any of them, each set gets one more row: the share of its photos read exactly in every variant, as taken
included. Every variant shows the same dice, so a hand read right in some and wrong in others rests on a
threshold that the pixel grid decides; only the hands right in all of them are read for a reason that holds
on photos the reader was not tuned on.

With `--calibrated`, each set gets one more row, read as the appliance reads once set up: each photo as
taken, with a profile auto-calibrated on that photo alone (die size, pip polarity, tray region), or with
the default profile where that calibration fails, as the appliance then keeps the profile it had. The
calibration sees the very dice it then reads, much as one made on the table's own dice before play does.
Its time columns are left out, as they would time the calibration too: the simulated tray's calibrated
timing is the calibrated reader's time. (Hands read exactly so: matteop65 97.2%, nell-byler 76.0%; read at
one working size, as the calibrated reader did before it read all three, 97.0% and 70.5%.)

With `--streamed`, each set gets one more row, read as the camera loop reads dice at rest (`_CameraStream`):
each photo as `STREAM_FRAMES` frames at `STREAM_FPS`, each with its own draw of sensor noise, read by a
`vision.stream.StreamReader` and watched by a `vision.watcher.RollWatcher` until the dice settle. The row
counts the reading they settled with, which the game scores and the tablet marks where unsure; dice that do
not settle within the frames give it nothing (the watcher asks the players about a view it cannot read).
A line after the table gives how long the dice took to settle in the camera's time: the watcher's still time
when the frames agree from the first, more when the stream's reading changes as its mean of frames sharpens.
(Hands read exactly so, and the photos read one at a time: matteop65 96.2% and 98.0%, 9 photos of 396 not
settled in the second, the others after 300 ms, median and p90; nell-byler 72.5% and 80.0%, 19 of 200 not
settled, the others after 300 ms median and 567 p90. Dice that do not settle show a region the reader
cannot read, which the watcher asks about after 1.5 s, or read otherwise from frame to frame.)
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from device.calibration_desk import CALIBRATION_FRAMES
from device.commands.eval_vision import read_set
from vision.calibrate import auto_calibrate
from vision.dataset import exact_in_every, summarise
from vision.profile import CalibrationProfile
from vision.reader import DiceReader
from vision.reading import Reading
from vision.stream import StreamReader
from vision.watcher import DiceSettled, RollWatcher

DEFAULT_DATASETS = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "dice-photos"
SIM_FRAMES = 30
STREAM_STILL_FRAMES = 3  # frames of each roll's still dice in the stream timed (a size each: 57, 60, 63 px)
TURNS = {"turned 90": cv2.ROTATE_90_CLOCKWISE, "turned 180": cv2.ROTATE_180}  # --turned: label -> rotation
TIMING_REPEATS = 10  # rounds over the simulated frames; each frame's fastest read counts (`_timing`)
ENLARGEMENT = 2.5  # --enlarged: a 640x480 photo becomes 1600x1200, a 1280x960 one a Pi camera's 3200x2400
DISTANCE = 3  # --distant: a photo fills the middle ninth of the frame it is read in
RECOMPRESSION_QUALITY = 95  # --recompressed: a camera's "fine" JPEG, which changes the pixels least
SET_COLUMN = 30  # the table's first column: a set's name and its variant
# The table's other columns: (title, width); a cell is right-aligned to its column's width
COLUMNS = (
    ("images", 6),
    ("die recall", 10),
    ("die precision", 13),
    ("hand accuracy", 13),
    ("asked", 6),
    ("wrong unasked", 13),
    ("ms median", 9),
    ("ms p90", 7),
)
STILL_WIDTH = 3280  # --still: a Raspberry Pi camera v2's full still is 3280x2464
TINTS = {"tinted cool": (1.25, 0.8), "tinted warm": (0.8, 1.25)}  # --tinted: label -> (blue, red) gains
NOISE_SIGMA = 4.0  # --noisy: the standard deviation of the sensor noise added to every level
NOISE_SEED = 0  # --noisy: every run and every photo of a size get the same draws
STREAM_FPS = 30  # --streamed: a camera's frames a second
STREAM_FRAMES = 30  # --streamed: how long a photo's still dice are watched, in frames: a second


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench-vision", help="accuracy and speed of the dice reader")
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS, help="folder of photo sets")
    parser.add_argument(
        "--turned", action="store_true", help="also read every set with its photos turned 90 and 180 degrees"
    )
    parser.add_argument(
        "--enlarged", action="store_true", help=f"also read every set with its photos enlarged {ENLARGEMENT}x"
    )
    parser.add_argument(
        "--distant",
        action="store_true",
        help=f"also read every set with each photo in the middle of a frame {DISTANCE}x as wide and high",
    )
    parser.add_argument(
        "--recompressed",
        action="store_true",
        help=f"also read every set with each photo saved again as a JPEG of quality {RECOMPRESSION_QUALITY}",
    )
    parser.add_argument(
        "--still",
        action="store_true",
        help=f"also read every set with its photos enlarged to {STILL_WIDTH} px wide, a Pi camera's still",
    )
    parser.add_argument(
        "--tinted",
        action="store_true",
        help="also read every set with its photos' blue and red scaled apart, as another white balance does",
    )
    parser.add_argument(
        "--noisy",
        action="store_true",
        help=f"also read every set with sensor noise of {NOISE_SIGMA:g} levels added to its photos",
    )
    parser.add_argument(
        "--streamed",
        action="store_true",
        help=f"also read every set as the camera loop does: each photo as {STREAM_FRAMES} frames of a still "
        f"tray with sensor noise, the reading the dice settle with",
    )
    parser.add_argument(
        "--calibrated",
        action="store_true",
        help="also read every set as the appliance once set up: each photo with a profile calibrated on it",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    cv2.setNumThreads(1)
    sets = sorted(p.parent for p in args.datasets.glob("*/truth.jsonl")) if args.datasets.is_dir() else []
    header = _line("set", [title for title, _ in COLUMNS])
    print(header)
    print("|" + "|".join("-" * (len(cell)) for cell in header.split("|")[1:-1]) + "|")
    variants = _variants(args)
    streams = {folder.name: _CameraStream() for folder in sets} if args.streamed else {}
    for folder in sets:
        for row in _rows(folder, variants, args.calibrated, streams.get(folder.name)):
            print(row)
    if not sets:
        print(f"(no photo sets under {args.datasets})")
    for name, stream in streams.items():
        print(f"{name} as a camera stream: {stream.settle_times()}")
    for width, height in ((640, 480), (1280, 720)):
        print(f"simulated tray {width}x{height}: {_sim_timing(width, height)}")
    return 0


def _variants(args: argparse.Namespace) -> dict[str, Callable[[np.ndarray], np.ndarray]]:
    """The photo variants the command line's flags ask for, by row label: each changes a photo before it is
    read (untimed)."""
    variants = {}
    if args.turned:
        for label, code in TURNS.items():
            variants[label] = lambda frame, code=code: cv2.rotate(frame, code)
    if args.enlarged:
        variants[f"enlarged {ENLARGEMENT}x"] = lambda frame: _enlarged(frame, ENLARGEMENT)
    if args.distant:
        variants[f"from {DISTANCE}x as far"] = _from_afar
    if args.recompressed:
        variants[f"re-saved q{RECOMPRESSION_QUALITY}"] = _saved_again
    if args.still:
        variants["as a Pi still"] = _as_still
    if args.distant and args.still:
        variants["far, as a Pi still"] = lambda frame: _as_still(_from_afar(frame))
    if args.tinted:
        for label, (blue, red) in TINTS.items():
            variants[label] = lambda frame, blue=blue, red=red: _tinted(frame, blue, red)
    if args.noisy:
        variants["with sensor noise"] = _noisy
    return variants


def _enlarged(frame: np.ndarray, factor: float) -> np.ndarray:
    """`frame` enlarged `factor` times, bicubic: it overshoots a little at edges, as a camera's own
    sharpening does."""
    return cv2.resize(frame, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)


def _as_still(frame: np.ndarray) -> np.ndarray:
    """`frame` enlarged to `STILL_WIDTH` pixels wide, a Pi camera's still."""
    return _enlarged(frame, STILL_WIDTH / frame.shape[1])


def _tinted(frame: np.ndarray, blue: float, red: float) -> np.ndarray:
    """`frame` with its blue and red levels scaled by `blue` and `red`, stopping at full scale."""
    return cv2.transform(frame, np.diag([blue, 1.0, red]))


def _noisy(frame: np.ndarray, seed: int = NOISE_SEED) -> np.ndarray:
    """`frame` with every level moved by a normal draw of `NOISE_SIGMA` levels, stopping at 0 and full scale:
    the same draws for every frame of its size and `seed`, so each run reads the same frames."""
    noise = np.random.default_rng(seed).normal(0.0, NOISE_SIGMA, frame.shape)
    return np.clip(np.rint(frame + noise), 0, 255).astype(np.uint8)


def _saved_again(frame: np.ndarray) -> np.ndarray:
    """`frame` as read back from a JPEG of `RECOMPRESSION_QUALITY` (OpenCV's default 4:2:0 chroma)."""
    encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, RECOMPRESSION_QUALITY])[1]
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


def _from_afar(frame: np.ndarray) -> np.ndarray:
    """`frame` in the middle of one `DISTANCE` times as wide and high, filled with the median colour of its
    outermost rows and columns, into which it fades over a twentieth of its shorter side (a hard edge would
    be a tray's wall that the photo does not show)."""
    height, width = frame.shape[:2]
    border = np.concatenate([frame[0], frame[-1], frame[:, 0], frame[:, -1]]).astype(np.float32)
    canvas = np.empty((height * DISTANCE, width * DISTANCE, 3), np.float32)
    canvas[:] = np.median(border, axis=0)
    band = max(2, min(height, width) // 20)
    weight = np.zeros((height, width), np.float32)
    weight[band:-band, band:-band] = 1.0
    weight = cv2.GaussianBlur(weight, (0, 0), band / 2)[:, :, None]
    top, left = height * (DISTANCE - 1) // 2, width * (DISTANCE - 1) // 2
    middle = canvas[top : top + height, left : left + width]
    canvas[top : top + height, left : left + width] = middle * (1 - weight) + frame * weight
    return np.rint(canvas).astype(np.uint8)


def _rows(
    folder: Path,
    variants: dict[str, Callable[[np.ndarray], np.ndarray]],
    calibrated: bool = False,
    stream: _CameraStream | None = None,
) -> Iterator[str]:
    """The table's rows for one photo set: as taken, then with each of `variants` (`_variants`), then (with
    variants) the hands read exactly in every one of them: those are not right by luck of the pixel grid;
    then (`calibrated`) the photos as taken, each read with a profile calibrated on it
    (`_read_calibrated`); then (with a `stream`) each photo as a still camera's frames, the reading its dice
    settle with."""
    named = [(folder.name, None)] + [
        (f"{folder.name} {label}", prepare) for label, prepare in variants.items()
    ]
    runs = []
    for name, prepare in named:
        try:
            results = read_set(folder / "truth.jsonl", prepare)
        except (ValueError, OSError) as error:
            yield f"| {name:<{SET_COLUMN}} | {error} |"
            return
        runs.append(results)
        yield _row(name, summarise(results))
    if variants:
        every = ["-"] * len(COLUMNS)
        every[0], every[3] = str(len(runs[0])), f"{exact_in_every(runs):.1%}"
        yield _line(f"{folder.name} every variant", every)
    if calibrated:
        results = read_set(folder / "truth.jsonl", read=_read_calibrated)
        yield _row(f"{folder.name} calibrated on each", summarise(results), timed=False)
    if stream is not None:
        results = read_set(folder / "truth.jsonl", read=stream)
        yield _row(f"{folder.name} as a camera stream", summarise(results), timed=False)


def _row(name: str, m: dict[str, float | int], timed: bool = True) -> str:
    """One set's row of the table from its `summarise` metrics `m`; without the times unless `timed`."""
    shares = [
        m[key] for key in ("die_recall", "die_precision", "hand_accuracy", "hands_asked", "wrong_unasked")
    ]
    times = [f"{m['ms_median']:.1f}", f"{m['ms_p90']:.1f}"] if timed else ["-", "-"]
    return _line(name, [str(m["images"])] + [f"{share:.1%}" for share in shares] + times)


def _line(name: str, cells: list[str]) -> str:
    """A line of the table: `name` in the set column, then `cells` under `COLUMNS`."""
    aligned = "".join(f" {cell:>{width}} |" for cell, (_, width) in zip(cells, COLUMNS, strict=True))
    return f"| {name:<{SET_COLUMN}} |" + aligned


def _read_calibrated(frame: np.ndarray) -> Reading:
    """`frame` read as the appliance reads once set up on it: with a profile auto-calibrated on `frame`
    alone, or the default profile where that fails (the appliance then keeps the profile it had)."""
    profile, _ = auto_calibrate([frame], CalibrationProfile())
    return DiceReader(profile).read(frame)


class _CameraStream:
    """Reads a photo as the camera loop reads a tray of still dice (`--streamed`): `STREAM_FRAMES` frames at
    `STREAM_FPS`, each the photo with its own draw of sensor noise, read by a `StreamReader` (one working
    size a frame, still frames read as their mean) and watched by a `RollWatcher`. The reading is the one of
    the frame the dice settled on, whose values the game scores and whose dice the tablet marks when unsure;
    dice that do not settle within the frames give the game nothing to score, and the row counts them asked
    (a view that holds a region the reader cannot read never settles, and the watcher asks the players about
    it, `DiceUnreadable`). It notes how long each photo's dice took to settle, in the camera's time."""

    def __init__(self) -> None:
        # Per photo read: seconds from its first still frame to the one its dice settled on, or None
        self.settled_after: list[float | None] = []

    def __call__(self, frame: np.ndarray) -> Reading:
        stream, watcher = StreamReader(DiceReader()), RollWatcher()
        for index in range(STREAM_FRAMES):
            reading = stream.read(_noisy(frame, NOISE_SEED + index))
            if any(isinstance(event, DiceSettled) for event in watcher.update(reading, index / STREAM_FPS)):
                self.settled_after.append(index / STREAM_FPS)
                return reading
        self.settled_after.append(None)
        return Reading(frame_size=reading.frame_size, problem=f"not settled in {STREAM_FRAMES} frames")

    def settle_times(self) -> str:
        """When the dice settled after they came to rest: median and p90 in milliseconds of camera time."""
        settled = [seconds for seconds in self.settled_after if seconds is not None]
        if not settled:
            return f"no photo's dice settled in {STREAM_FRAMES} frames"
        median, p90 = np.percentile(np.array(settled) * 1000.0, [50, 90])
        return (
            f"dice settled {median:.0f} ms median, {p90:.0f} ms p90 after they came to rest, and "
            f"{len(self.settled_after) - len(settled)} of {len(self.settled_after)} photos not in "
            f"{STREAM_FRAMES / STREAM_FPS:g} s ({STREAM_FPS} frames a second, sensor noise of "
            f"{NOISE_SIGMA:g} levels)"
        )


def _sim_timing(width: int, height: int) -> str:
    """Median and p90 reader time per simulated-tray frame, or why it could not be measured."""
    try:
        simtray = importlib.import_module("vision.simtray")
        tray = simtray.SimulatedTray(width, height, 5, 1)
        rolls = []
        tray.open()
        for _ in range(SIM_FRAMES):
            tray.roll([])
            for _ in range(tray.moving_frames):  # past the tumbling frames to the settled dice
                tray.read()
            rolls.append([tray.read() for _ in range(STREAM_STILL_FRAMES)])
    except Exception as error:  # the simulator is another room's code; report, don't crash the benchmark
        return f"not measured ({type(error).__name__}: {error})"
    frames = [still[0] for still in rolls]
    calibrated, report = auto_calibrate(frames[:CALIBRATION_FRAMES], CalibrationProfile())
    timings = [f"default profile {_timing(DiceReader(), frames)}"]
    if report.get("ok"):
        timings.append(f"calibrated {_timing(DiceReader(calibrated), frames)}")
        stream = [frame for still in rolls for frame in still]
        timings.append(f"calibrated camera stream {_timing(StreamReader(DiceReader(calibrated)), stream)}")
    return "; ".join(timings) + f" (one thread, each frame's fastest of {TIMING_REPEATS} reads)"


def _timing(reader: DiceReader | StreamReader, frames: list[np.ndarray]) -> str:
    """Median and p90 over `frames` of each frame's fastest of `TIMING_REPEATS` reads, and the median of
    the first reads.

    A shared machine's other work stretches single reads: the same code's median read of these frames
    measured 10.6 to 19.5 ms over one day on the build machine. The fastest of several reads of a frame is
    the reader's own cost (as `timeit` reports it); the first read of each is printed beside it. The reads
    are made in rounds, each reading every frame once, so a frame's reads are spread over the whole run:
    the machine's slow spells last a round (a third of a second) or more, and three reads of a frame in a
    row often fell in one (the calibrated 640x480 median measured 9.3 to 15.3 ms within an hour, its
    rounds' medians 9.4 to 16.0 ms). The fastest of ten reads in ten rounds measured 9.22 to 9.28 ms in
    three runs.
    """
    times = np.zeros((TIMING_REPEATS, len(frames)))
    for repeat in range(TIMING_REPEATS):
        for index, frame in enumerate(frames):
            start = time.perf_counter()
            reader.read(frame)
            times[repeat, index] = (time.perf_counter() - start) * 1000.0
    fastest = times.min(axis=0)
    return (
        f"{np.median(fastest):.1f} ms median, {np.percentile(fastest, 90):.1f} ms p90"
        f" (first reads {np.median(times[0]):.1f} ms median)"
    )

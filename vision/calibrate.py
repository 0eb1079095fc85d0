"""Calibration: fit the profile to one table from a few frames of its tray.

Two steps, both cheap enough to run from the admin page on the Pi:

* `auto_calibrate(frames, profile)` looks at whatever dice are in view and measures what the reader would
  otherwise have to guess on every frame: the die size (as a share of the frame's shorter side, as the
  reader measures it by the pips, and the faces' share of that), whether the pips are darker or lighter than
  the faces, and where the tray floor is.
* `calibrate_to_known(frames, expected_values, profile)` is given frames whose dice show known faces ("put the
  dice showing 1 2 3 4 5 6") and searches the reader's tunable parameters until every frame reads exactly that
  hand, then moves any parameter that sits near the edge of the range where the hand still reads to that
  range's middle, and reports the margin: how far each one can drift either way before the reading breaks.
  A wide margin is a robust setup; a narrow one says "improve the lighting" before a game goes wrong.

Both return `(profile, report)`. The report is a JSON-able dict with `ok` and a one-line `message` for a
person; when calibration fails the profile comes back unchanged. The reader is used only through its
documented interface (`DiceReader(profile).read(frame)` with its `extras["die_px"]`, `PARAM_RANGES`,
`DEFAULT_PARAMS`), and a different reader can be passed in, which is how the search itself is tested.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import cv2
import numpy as np

from vision import reader as dice_reader
from vision.frames import as_bgr
from vision.profile import DIE_SIZES, FACE_SHARES, CalibrationProfile
from vision.reading import Reading


class Reader(Protocol):
    def read(self, frame: Any) -> Reading: ...


ReaderFactory = Callable[[CalibrationProfile], Reader]

POLARITY_VOTE = 0.7  # share of dice that must agree before the profile commits to one pip polarity
PIP_CONTRAST_MIN = 12.0  # grey levels between face and pips below which a die casts no polarity vote
TRAY_WORK_SIDE = 160  # the tray is found on a copy this small: it is a large, smooth region
GRID_POINTS = 7  # values tried across a parameter's range per coordinate-search step
MAX_ORIGINS = 8  # starting points the search may try before it gives up
MARGIN_STEPS = 5  # bisection steps when measuring how far a parameter can move
CENTRE_ROOM = 0.1  # a parameter with less room than this share of its range either way gets centred
DICE_LOST_SLACK = 0.1  # share of the dice seen on "auto" that measured settings may drop (false finds)
DEFAULT_BUDGET = 600  # reader calls one calibration may spend (about 20 s on a Pi 4 at 30 ms a frame)


# -- auto-calibration --------------------------------------------------------------------------------


def auto_calibrate(
    frames: Sequence[Any],
    profile: CalibrationProfile | None = None,
    reader_factory: ReaderFactory = dice_reader.DiceReader,
) -> tuple[CalibrationProfile, dict[str, Any]]:
    """Measure die size, pip polarity and tray region from frames of the tray with dice in view.

    The dice are first read with those three settings on "auto", so an earlier, wrong calibration cannot
    hide the dice. The new profile is kept only if it reads nearly as many dice as that neutral pass (it may
    drop up to `DICE_LOST_SLACK` of them: a pass that knows less also finds dice where there are none). A
    pip polarity most dice vote for is kept only if looking for it alone reads as many dice as looking for
    both: a mixed set's dice of the other polarity would be lost, within that slack or beyond it (which
    failed the calibration).
    """
    profile = profile or CalibrationProfile()
    images = _usable(frames)
    report: dict[str, Any] = {"ok": False, "frames": len(frames), "frames_used": len(images)}
    if not images:
        return profile, {**report, "message": "no usable frames: check that the camera delivers images"}
    neutral = profile.with_changes(die_size=None, face_share=None, pip_polarity="auto", tray=None)
    readings = [reader_factory(neutral).read(image) for image in images]
    dice_seen = sum(len(reading.dice) for reading in readings)
    report["dice_seen"] = dice_seen
    if dice_seen == 0:
        message = f"no dice seen in {len(images)} frame(s): put a few dice in the tray, faces up, and retry"
        return profile, {**report, "message": message}

    die_size, spread = _die_size(images, readings)
    polarity, votes = _pip_polarity(images, readings)
    tray = _tray_region(images, readings, die_size)
    working = _working_die_size(images, readings, die_size)
    face_share = round(float(np.clip(die_size / working, *FACE_SHARES)), 4)
    candidate = neutral.with_changes(
        die_size=round(working, 4), face_share=face_share, pip_polarity=polarity, tray=tray
    )
    dice_read = _dice_read(reader_factory, candidate, images)
    if polarity != "auto":
        # A mixed set: a white die with black pips among red ones with white pips.
        both = candidate.with_changes(pip_polarity="auto")
        read_with_both = _dice_read(reader_factory, both, images)
        if read_with_both > dice_read:
            candidate, dice_read, polarity = both, read_with_both, "auto"
    notes = []
    enough = dice_seen * (1 - DICE_LOST_SLACK)
    if dice_read < enough and tray is not None:
        candidate = candidate.with_changes(tray=None)
        dice_read = _dice_read(reader_factory, candidate, images)
        notes.append("the tray estimate hid dice, so the whole frame is used")
    if dice_read < enough:
        message = (
            f"the measured settings read {dice_read} dice where {dice_seen} were seen; profile left unchanged"
        )
        return profile, {**report, "dice_read": dice_read, "message": message}
    if spread > 0.15:
        notes.append(f"die sizes vary by {spread:.0%}: are all the dice the same size and flat?")
    if polarity == "auto":
        notes.append("pip polarity is mixed, so the reader keeps looking for both")
    report.update(
        ok=True,
        dice_read=dice_read,
        die_size=candidate.die_size,
        face_share=candidate.face_share,
        die_size_spread=round(spread, 4),
        pip_polarity=polarity,
        polarity_votes=votes,
        tray=list(candidate.tray) if candidate.tray is not None else None,
        notes=notes,
    )
    tray_text = (
        "whole frame" if candidate.tray is None else "tray " + " ".join(f"{v:.2f}" for v in candidate.tray)
    )
    report["message"] = (
        f"die {candidate.die_size:.3f} of the short side, {polarity} pips, {tray_text}; "
        f"{dice_read} dice read in {len(images)} frame(s)" + "".join(f"; {note}" for note in notes)
    )
    final = profile.with_changes(
        die_size=candidate.die_size,
        face_share=candidate.face_share,
        pip_polarity=polarity,
        tray=candidate.tray,
    )
    return final, report


def _dice_read(reader_factory: ReaderFactory, profile: CalibrationProfile, images: list[np.ndarray]) -> int:
    """How many dice a reader with `profile` reads in all of `images`."""
    return sum(len(reader_factory(profile).read(image).dice) for image in images)


def _usable(frames: Sequence[Any]) -> list[np.ndarray]:
    images = []
    for frame in frames:
        image, _ = as_bgr(frame)
        if image is not None:
            images.append(image)
    return images


def _die_size(images: list[np.ndarray], readings: list[Reading]) -> tuple[float, float]:
    """Median die side as a share of the shorter side, and the relative spread (median absolute deviation)."""
    shares = [
        die.size / min(image.shape[:2])
        for image, reading in zip(images, readings, strict=True)
        for die in reading.dice
    ]
    median = statistics.median(shares)
    spread = statistics.median(abs(share - median) for share in shares) / median
    return float(np.clip(median, *DIE_SIZES)), float(spread)


def _working_die_size(images: list[np.ndarray], readings: list[Reading], faces: float) -> float:
    """The die side the reader works with, as a share of the shorter side (the dice's `faces` side when the
    reader does not report it).

    The reader measures dice by their pips (`extras["die_px"]`: the pips' diameter over the share of a side
    `pip_size` assumes), and its working scale, pip sizes and search distances all follow from that. A die
    read reports its face's side, which is less for dice with large pips: plain white dice's pips are about
    a fifth of the side, not a seventh, and they measure 1.4 times their face by their pips. A profile that
    held the face's side read them at a scale they are never read at uncalibrated. The faces' share of this
    size is kept too (`face_share`), where the reader links pips into faces. Each photo calibrated on itself
    and read with that profile, hands read exactly: matteop65 97.2% (98.0% uncalibrated), nell-byler 76.0%
    (80.0%; `bench-vision --calibrated`).
    """
    measured = [
        reading.extras["die_px"] / min(image.shape[:2])
        for image, reading in zip(images, readings, strict=True)
        if reading.dice and "die_px" in reading.extras
    ]
    return float(np.clip(statistics.median(measured), *DIE_SIZES)) if measured else faces


def _pip_polarity(images: list[np.ndarray], readings: list[Reading]) -> tuple[str, dict[str, int]]:
    """Dark or light pips, by the faces themselves: pips are the minority of a face's pixels.

    Inside a square of 0.6 die sides around the centre (inside the face at any angle) the median is face
    colour; whether the far tail of the brightness distribution lies below or above it tells the pip colour.
    """
    votes = {"dark": 0, "light": 0}
    for image, reading in zip(images, readings, strict=True):
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        for die in reading.dice:
            half = max(2, int(die.size * 0.3))
            x, y = int(round(die.center[0])), int(round(die.center[1]))
            patch = gray[max(0, y - half) : y + half + 1, max(0, x - half) : x + half + 1]
            if patch.size < 9:
                continue
            low, middle, high = np.percentile(patch, (3, 50, 97))
            below, above = middle - low, high - middle
            if max(below, above) < PIP_CONTRAST_MIN:
                continue
            votes["dark" if below > above else "light"] += 1
    total = votes["dark"] + votes["light"]
    for polarity, count in votes.items():
        if total and count >= POLARITY_VOTE * total:
            return polarity, votes
    return "auto", votes


def _tray_region(
    images: list[np.ndarray], readings: list[Reading], die_size: float
) -> tuple[float, float, float, float] | None:
    """The floor the dice lie on, as fractions of the frame; None when it fills the view.

    The floor colour is sampled in a ring around each die; the tray is the connected region of that colour
    (lightness counts half, so uneven light does not cut it up) that holds the most dice, grown to include
    every die seen. A rim, a table edge or clutter around the tray falls outside it.
    """
    height, width = images[0].shape[:2]
    same_size = [image for image in images if image.shape[:2] == (height, width)][:5]
    still = np.median(np.stack(same_size), axis=0).astype(np.uint8) if len(same_size) > 1 else images[0]
    shrink = TRAY_WORK_SIDE / min(height, width)
    small = cv2.resize(still, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[:, :, 0] *= 0.5
    die_px = die_size * TRAY_WORK_SIDE
    centers = [
        (die.center[0] * shrink, die.center[1] * shrink) for reading in readings for die in reading.dice
    ]
    ring = np.zeros(small.shape[:2], np.uint8)
    for x, y in centers:
        cv2.circle(ring, (int(x), int(y)), int(die_px * 1.6), 255, -1)
    for x, y in centers:
        cv2.circle(ring, (int(x), int(y)), int(die_px * 0.9), 0, -1)
    floor_pixels = lab[ring > 0]
    if len(floor_pixels) < 10:
        return None
    floor = np.median(floor_pixels, axis=0)
    distance = np.linalg.norm(lab - floor, axis=2)
    limit = float(np.clip(3 * np.median(np.linalg.norm(floor_pixels - floor, axis=1)), 12, 30))
    mask = (distance < limit).astype(np.uint8)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(die_px * 1.5) | 1,) * 2)
    # Beyond the frame edge the mask continues as it ends (a rim at the edge stays rim, a floor stays floor),
    # so closing neither glues the floor to the edge nor eats a floor that fills the view.
    pad = kernel.shape[0]
    padded = cv2.copyMakeBorder(mask, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    mask = cv2.morphologyEx(padded, cv2.MORPH_CLOSE, kernel)[pad:-pad, pad:-pad]
    count, labels = cv2.connectedComponents(mask)
    inside = Counter(
        labels[min(int(y), labels.shape[0] - 1), min(int(x), labels.shape[1] - 1)] for x, y in centers
    )
    inside.pop(0, None)
    if count <= 1 or not inside:
        return None
    region = (labels == inside.most_common(1)[0][0]).astype(np.uint8)
    ys, xs = np.nonzero(region)
    # Closing filled the floor around every die lying on it; a "die" found on the rim or in clutter lies
    # outside the region and does not stretch the tray.
    on_floor = [
        (x, y)
        for x, y in centers
        if region[min(int(y), region.shape[0] - 1), min(int(x), region.shape[1] - 1)]
    ]
    reach = die_px * 0.75
    x0 = min(xs.min(), *(x - reach for x, _ in on_floor)) / small.shape[1]
    x1 = max(xs.max() + 1, *(x + reach for x, _ in on_floor)) / small.shape[1]
    y0 = min(ys.min(), *(y - reach for _, y in on_floor)) / small.shape[0]
    y1 = max(ys.max() + 1, *(y + reach for _, y in on_floor)) / small.shape[0]
    box = (max(0.0, x0), max(0.0, y0), min(1.0, x1), min(1.0, y1))
    if box[2] - box[0] > 0.95 and box[3] - box[1] > 0.95:
        return None
    return tuple(round(float(v), 4) for v in box)


# -- tuning against known values -----------------------------------------------------------------------


class _Budget(Exception):
    """The search spent its reader calls."""


class _Trial:
    """Reads the frames with given parameters and scores the result; counts and caps reader calls."""

    def __init__(
        self,
        images: list[np.ndarray],
        expected: list[int],
        profile: CalibrationProfile,
        reader_factory: ReaderFactory,
        budget: int,
    ) -> None:
        self.images = images
        self.expected = Counter(expected)
        self.profile = profile
        self.reader_factory = reader_factory
        self.budget = budget
        self.reads = 0
        self.best: dict[str, float] = {}
        self.best_score = (-1, 0)
        self.best_values: list[list[int]] = []  # what the best parameters read, frame by frame
        self._cache: dict[tuple[tuple[str, float], ...], tuple[int, int]] = {}

    def score(self, params: Mapping[str, float]) -> tuple[int, int]:
        """(frames read exactly, minus the dice misread): higher is better, (len(frames), 0) is perfect."""
        key = tuple(sorted((name, round(value, 6)) for name, value in params.items()))
        if key in self._cache:
            return self._cache[key]
        if self.reads + len(self.images) > self.budget:
            raise _Budget
        reader = self.reader_factory(self.profile.with_changes(reader=dict(params)))
        exact, misread = 0, 0
        values = []
        for image in self.images:
            reading = reader.read(image)
            self.reads += 1
            got = Counter(reading.values)
            wrong = sum(((got - self.expected) + (self.expected - got)).values()) + len(reading.unreadable)
            exact += wrong == 0 and reading.problem is None
            misread += wrong
            values.append(sorted(reading.values))
        score = self._cache[key] = (exact, -misread)
        if score > self.best_score:
            self.best, self.best_score, self.best_values = dict(params), score, values
        return score

    def works(self, params: Mapping[str, float]) -> bool:
        return self.score(params)[0] == len(self.images)

    @property
    def solved(self) -> bool:
        return self.best_score[0] == len(self.images)


def calibrate_to_known(
    frames: Sequence[Any],
    expected_values: Sequence[int],
    profile: CalibrationProfile | None = None,
    reader_factory: ReaderFactory = dice_reader.DiceReader,
    param_ranges: Mapping[str, tuple[float, float]] | None = None,
    budget: int = DEFAULT_BUDGET,
) -> tuple[CalibrationProfile, dict[str, Any]]:
    """Tune the reader's parameters until every frame reads `expected_values` (as a multiset).

    Search: start from the profile's values; if they do not read the hand, a coordinate search tries
    `GRID_POINTS` values across each parameter's range in turn, keeping the best, for up to three passes.
    Then a parameter left near the edge of the interval where the hand still reads moves to its middle, and
    the margin of each (how far below and above it can go) is measured by bisection. `budget` caps the
    reader calls; a search that runs out keeps what it found and says so. Raises ValueError for bad
    expected values.
    """
    expected = _expected(expected_values)
    profile = profile or CalibrationProfile()
    ranges = dict(param_ranges if param_ranges is not None else dice_reader.PARAM_RANGES)
    images = _usable(frames)
    report: dict[str, Any] = {"ok": False, "expected": sorted(expected), "frames": len(frames)}
    if not images:
        return profile, {
            **report,
            "reads": 0,
            "message": "no usable frames: check that the camera delivers images",
        }
    trial = _Trial(images, expected, profile, reader_factory, budget)
    start = {
        name: _clamp(
            profile.reader.get(name, dice_reader.DEFAULT_PARAMS.get(name, (low + high) / 2)), low, high
        )
        for name, (low, high) in ranges.items()
    }
    margins: dict[str, dict[str, float]] = {}
    ran_out = False
    try:
        _search(trial, start, ranges)
        params = trial.best
        if trial.solved:
            params = _centre(trial, params, ranges)
            for name in ranges:  # one at a time, so a spent budget still leaves the margins measured so far
                margins[name] = _margin(trial, params, name, ranges[name])
    except _Budget:
        ran_out = True
        params = trial.best if not margins else params
    report["reads"] = trial.reads
    if not trial.solved:
        shown = "; ".join(" ".join(map(str, values)) for values in trial.best_values) or "nothing"
        hint = " (reader budget spent)" if ran_out else ""
        message = f"could not read {' '.join(map(str, sorted(expected)))}: best attempt read {shown}{hint}"
        return profile, {**report, "read": trial.best_values, "message": message}
    changed = {
        name: [round(start[name], 4), round(params[name], 4)]
        for name in ranges
        if params[name] != start[name]
    }
    defaults = dice_reader.DEFAULT_PARAMS
    overrides = {name: value for name, value in profile.reader.items() if name not in ranges}
    overrides.update({name: round(v, 4) for name, v in params.items() if round(v, 4) != defaults.get(name)})
    report.update(ok=True, changed=changed, margin=margins, budget_spent=ran_out)
    report["message"] = _margin_message(expected, margins, ran_out)
    return profile.with_changes(reader=overrides), report


def _expected(values: Sequence[int]) -> list[int]:
    if isinstance(values, str | bytes) or not isinstance(values, Sequence) or not values:
        raise ValueError("expected values must be a list of die faces such as [1, 2, 3, 4, 5, 6]")
    if any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6 for v in values):
        raise ValueError("expected values must be whole numbers from 1 to 6")
    return list(values)


def _clamp(value: float, low: float, high: float) -> float:
    return float(min(max(value, low), high))


def _search(trial: _Trial, start: dict[str, float], ranges: Mapping[str, tuple[float, float]]) -> None:
    """Coordinate searches from the profile's values, the reader's defaults, then random points.

    One parameter at a time cannot leave a plateau where two parameters are both wrong, so when a search
    from one origin stalls another origin is tried until the hand reads or the budget is spent. The best
    parameters seen are kept by `trial`. Random origins use a fixed seed: a calibration is repeatable.
    """
    defaults = {
        name: _clamp(dice_reader.DEFAULT_PARAMS.get(name, start[name]), *ranges[name]) for name in ranges
    }
    origins = [start, defaults]
    rng = np.random.default_rng(0)
    for attempt in range(MAX_ORIGINS):
        if trial.works(trial.best if trial.best else start):
            return
        origin = (
            origins[attempt]
            if attempt < len(origins)
            else {name: float(rng.uniform(low, high)) for name, (low, high) in ranges.items()}
        )
        _coordinate_search(trial, origin, ranges)


def _coordinate_search(
    trial: _Trial, params: dict[str, float], ranges: Mapping[str, tuple[float, float]]
) -> None:
    """Best value of one parameter at a time on a coarse grid, others fixed; up to three passes."""
    best = dict(params)
    for _ in range(3):
        improved = False
        for name, (low, high) in ranges.items():
            for value in np.linspace(low, high, GRID_POINTS):
                candidate = {**best, name: float(value)}
                if trial.score(candidate) > trial.score(best):
                    best, improved = candidate, True
        if trial.works(best) or not improved:
            return


def _centre(
    trial: _Trial, params: dict[str, float], ranges: Mapping[str, tuple[float, float]]
) -> dict[str, float]:
    """Move a parameter sitting near an edge of the interval where the hand reads to the interval's middle.

    A parameter with room on both sides keeps its value: the reader's defaults carry knowledge of other
    photos that one calibration frame does not, so they are changed only when this table needs it.
    """
    centred = dict(params)
    for name, (low_bound, high_bound) in ranges.items():
        low, high = _working_interval(trial, centred, name, (low_bound, high_bound))
        room = min(centred[name] - low, high - centred[name])
        if room >= CENTRE_ROOM * (high_bound - low_bound):
            continue
        candidate = {**centred, name: (low + high) / 2}
        if trial.works(candidate):
            centred = candidate
    return centred


def _working_interval(
    trial: _Trial, params: dict[str, float], name: str, bounds: tuple[float, float]
) -> tuple[float, float]:
    """How far `name` can go down and up (within its range) with the hand still read exactly."""
    value = params[name]
    edges = []
    for limit in bounds:
        good, bad = value, limit
        if trial.works({**params, name: limit}):
            edges.append(limit)
            continue
        for _ in range(MARGIN_STEPS):
            middle = (good + bad) / 2
            if trial.works({**params, name: middle}):
                good = middle
            else:
                bad = middle
        edges.append(good)
    return edges[0], edges[1]


def _margin(
    trial: _Trial, params: dict[str, float], name: str, bounds: tuple[float, float]
) -> dict[str, float]:
    low, high = _working_interval(trial, params, name, bounds)
    width = bounds[1] - bounds[0]
    return {
        "value": round(params[name], 4),
        "low": round(low, 4),
        "high": round(high, 4),
        "below": round((params[name] - low) / width, 4),  # as a share of the parameter's whole range
        "above": round((high - params[name]) / width, 4),
    }


def _margin_message(expected: list[int], margins: Mapping[str, Mapping[str, float]], ran_out: bool) -> str:
    hand = " ".join(map(str, sorted(expected)))
    if not margins:
        return f"reads {hand}; margins not measured (reader budget spent)"
    name, margin = min(margins.items(), key=lambda item: min(item[1]["below"], item[1]["above"]))
    tightest = min(margin["below"], margin["above"])
    verdict = "robust" if tightest >= 0.1 else "works, but with little room: check light and focus"
    partial = " (budget spent before every parameter was measured)" if ran_out else ""
    return (
        f"reads {hand}; {verdict}. Tightest: {name} {margin['value']} works from {margin['low']} "
        f"to {margin['high']} ({tightest:.0%} of its range to spare){partial}"
    )

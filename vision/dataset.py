"""Labelled dice photos (the `truth.jsonl` format of ../shared/datasets) and the reader's score on them.

Scores follow the contract in DESIGN.md: die recall is the summed multiset intersection of read and true
values over all true dice, die precision the same over all dice read, hand accuracy the share of images read
exactly. Time per image covers the reader only (decoding is excluded) and runs on one OpenCV thread. Where a
record also gives each die's box, the dice read are kept with their places, so `vision.misreads` can tell
which die was read wrong: the scores alone cannot.

A scorekeeper's costly error is not a wrong reading but a wrong one it gives as sure. The game asks about a
reading with something unreadable in view, the tablet marks each die read with less confidence than
`ASK_BELOW` for the players to check (`Reading.asks`), and a reading of more or fewer dice than the game
plays with is never scored: the game waits for all its dice (`device.session`). So the scores also count the
hands the game would ask about (`ImageResult.asked`: a photo's true dice are the game's) and the hands read
wrong without asking. Each photo is judged alone, as the tablet marks the dice of the frame that settled a
roll (the warning line weighs the roll watcher's agreement over several frames too).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.reading import Die, Reading


@dataclass(frozen=True)
class TrueDie:
    """One labelled die: its value and its box (x0, y0, x1, y1) in the photo's pixels."""

    value: int
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class Sample:
    image: Path
    values: tuple[int, ...]  # sorted
    dice: tuple[TrueDie, ...] = ()  # where the record gives boxes (its optional "dice" list)


@dataclass(frozen=True)
class ImageResult:
    sample: Sample
    read: tuple[int, ...]  # sorted
    seconds: float
    problem: str | None
    found: tuple[Die, ...] = ()  # the dice read, in the pixels of the frame read
    reader_asks: bool = True  # whether the reader asks the players about its reading (`Reading.asks`)

    @property
    def exact(self) -> bool:
        return self.read == self.sample.values

    @property
    def asked(self) -> bool:
        """Whether the game would ask the players rather than score the hand as read: the reader asks, or it
        read another number of dice than lie in view, which the game, knowing how many it plays with, waits
        on."""
        return self.reader_asks or len(self.read) != len(self.sample.values)

    @property
    def matched(self) -> int:
        return sum((Counter(self.read) & Counter(self.sample.values)).values())


def load_truth(path: Path) -> list[Sample]:
    """Parse a truth.jsonl; raises ValueError naming the first bad line."""
    samples = []
    base = path.parent
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                values = tuple(sorted(int(v) for v in record["values"]))
                image = base / str(record["image"])
                dice = _boxes(record, values)
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{path}:{number}: not a truth record ({error})") from None
            if any(not 1 <= v <= 6 for v in values):
                raise ValueError(f"{path}:{number}: face values must be 1..6")
            samples.append(Sample(image, values, dice))
    return samples


def _boxes(record: dict, values: tuple[int, ...]) -> tuple[TrueDie, ...]:
    """The boxed dice of a record, or none when it does not box every one of its `values` (boxes are given
    "where the source has them"): a die without its box cannot be told from a die read where none lies.
    Raises ValueError (or KeyError, TypeError) for an entry that is no die."""
    dice = []
    for die in record.get("dice", ()):
        if "box" not in die:
            return ()
        x0, y0, x1, y1 = (float(edge) for edge in die["box"])
        if not (x0 < x1 and y0 < y1):
            raise ValueError(f"box {die['box']} is empty")
        if not 1 <= int(die["value"]) <= 6:
            raise ValueError("face values must be 1..6")
        dice.append(TrueDie(int(die["value"]), (x0, y0, x1, y1)))
    return tuple(dice) if sorted(die.value for die in dice) == list(values) else ()


def run(
    samples: list[Sample],
    read: Callable[[np.ndarray], Reading],
    prepare: Callable[[np.ndarray], np.ndarray] | None = None,
) -> Iterator[ImageResult]:
    """Read every sample's image with `read`, timing the call alone on one OpenCV thread.

    `prepare` changes each decoded photo before it is read, untimed: the benchmark turns or enlarges photos.
    """
    cv2.setNumThreads(1)
    for sample in samples:
        frame = cv2.imread(str(sample.image), cv2.IMREAD_COLOR)
        if frame is None:
            yield ImageResult(sample, (), 0.0, f"cannot decode {sample.image}")
            continue
        if prepare is not None:
            frame = prepare(frame)
        start = time.perf_counter()
        reading = read(frame)
        seconds = time.perf_counter() - start
        values = tuple(sorted(reading.values))
        yield ImageResult(sample, values, seconds, reading.problem, reading.dice, reading.asks)


def summarise(results: list[ImageResult]) -> dict[str, float | int]:
    """The eval-vision metrics of a finished run."""
    true_dice = sum(len(r.sample.values) for r in results)
    read_dice = sum(len(r.read) for r in results)
    matched = sum(r.matched for r in results)
    times = np.array([r.seconds for r in results]) * 1000.0 if results else np.zeros(1)
    return {
        "images": len(results),
        "dice": true_dice,
        "dice_read": read_dice,
        "die_recall": matched / true_dice if true_dice else 0.0,
        "die_precision": matched / read_dice if read_dice else 0.0,
        "hand_accuracy": _share(results, lambda r: r.exact),
        "hands_asked": _share(results, lambda r: r.asked),
        "wrong_unasked": _share(results, lambda r: not r.exact and not r.asked),
        "ms_median": float(np.median(times)),
        "ms_p90": float(np.percentile(times, 90)),
        "unreadable_images": sum(
            r.problem is not None and r.problem.startswith("cannot decode") for r in results
        ),
    }


def _share(results: list[ImageResult], counts: Callable[[ImageResult], bool]) -> float:
    """The share of `results` that `counts` is true of (0.0 for none)."""
    return sum(counts(r) for r in results) / len(results) if results else 0.0


def exact_in_every(runs: list[list[ImageResult]]) -> float:
    """Share of the images read exactly in every one of `runs` (runs over the same samples, each reading
    them changed another way): a hand right as taken but wrong turned was right by luck of the pixel grid."""
    every = [all(result.exact for result in image) for image in zip(*runs, strict=True)]
    return sum(every) / len(every) if every else 0.0

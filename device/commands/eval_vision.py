"""`pipkeeper eval-vision TRUTH.jsonl --json`: score the dice reader on a labelled set of photos.

With `--misreads`, also every die read wrong, missed or read where no die is, matched to the truth's boxes
by place (`vision.misreads`), and the hands right by place: what to look at next, photo by photo.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.dataset import ImageResult, load_truth, run, summarise
from vision.misreads import misreads
from vision.reader import DiceReader


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("eval-vision", help="measure the dice reader on a truth.jsonl set")
    parser.add_argument("truth", type=Path, help="a truth.jsonl in the ../shared/datasets format")
    parser.add_argument("--json", action="store_true", help="print the metrics as JSON")
    parser.add_argument(
        "--misreads", action="store_true", help="also list each die read wrong, missed or false, by place"
    )
    parser.set_defaults(handler=handle)


def read_set(truth: Path, prepare: Callable[[np.ndarray], np.ndarray] | None = None) -> list[ImageResult]:
    """The default reader's result on every photo of one set, each photo changed by `prepare` first (see
    `vision.dataset.run`); raises ValueError for a missing or malformed set."""
    if not truth.is_file():
        raise ValueError(f"no such truth file: {truth}")
    samples = load_truth(truth)
    if not samples:
        raise ValueError(f"{truth} holds no images")
    return list(run(samples, DiceReader().read, prepare))


def handle(args: argparse.Namespace) -> int:
    try:
        results = read_set(args.truth)
    except (ValueError, OSError) as error:
        print(f"pipkeeper eval-vision: {error}", file=sys.stderr)
        return 2
    metrics: dict = summarise(results)
    listed = []
    if args.misreads:
        by_place, listed = _misreads_report(results, args.truth.parent)
        metrics.update(by_place)
    if args.json:
        print(json.dumps({**metrics, "misreads": listed} if args.misreads else metrics))
        return 0
    for name, value in metrics.items():
        print(f"{name:>18}: {value:.4f}" if isinstance(value, float) else f"{name:>18}: {value}")
    for row in listed:
        print(
            f"{row['image']}  {row['kind']:<6} true {row['truth']} read {row['read']}"
            f"  at ({row['x']:.0f}, {row['y']:.0f})  confidence {row['confidence']:.2f}"
        )
    return 0


def _misreads_report(results: list[ImageResult], base: Path) -> tuple[dict, list[dict]]:
    """({"boxed_images", "hands_by_place"}, one row per die misread) for `--misreads`: images named as
    their truth records name them (relative to `base`), places in the photo's pixels."""
    by_image = [(result, misreads(result)) for result in results]
    boxed = [found for _, found in by_image if found is not None]
    hands = sum(not found for found in boxed) / len(boxed) if boxed else 0.0
    rows = [
        {
            "image": _as_named(result.sample.image, base),
            "kind": misread.kind,
            "truth": misread.truth,
            "read": misread.read,
            "x": round(misread.center[0], 1),
            "y": round(misread.center[1], 1),
            "confidence": round(misread.confidence, 2),
        }
        for result, found in by_image
        for misread in found or ()
    ]
    return {"boxed_images": len(boxed), "hands_by_place": hands}, rows


def _as_named(image: Path, base: Path) -> str:
    """`image` as its truth record names it: relative to the set's folder, or whole when the record gave a
    path outside it (an absolute one)."""
    return image.relative_to(base).as_posix() if image.is_relative_to(base) else image.as_posix()

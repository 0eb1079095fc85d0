"""`pipkeeper eval-vision TRUTH.jsonl --json`: score the dice reader on a labelled set of photos.

With `--misreads`, also every die read wrong, missed or read where no die is, matched to the truth's boxes
by place (`vision.misreads`), and the hands right by place: what to look at next, photo by photo. With
`--tiles DIR`, each of those dice is also drawn into DIR (`vision.review`), numbered as listed: looking at
them tells a misread from a wrong label.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from vision.dataset import ImageResult, load_truth, run, summarise
from vision.misreads import Misread, misreads
from vision.reader import DiceReader
from vision.reading import Reading
from vision.review import misread_tile, tile_name


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("eval-vision", help="measure the dice reader on a truth.jsonl set")
    parser.add_argument("truth", type=Path, help="a truth.jsonl in the ../shared/datasets format")
    parser.add_argument("--json", action="store_true", help="print the metrics as JSON")
    parser.add_argument(
        "--misreads", action="store_true", help="also list each die read wrong, missed or false, by place"
    )
    parser.add_argument(
        "--tiles", type=Path, metavar="DIR", help="also draw each die --misreads lists into DIR"
    )
    parser.set_defaults(handler=handle)


def read_set(
    truth: Path,
    prepare: Callable[[np.ndarray], np.ndarray] | None = None,
    read: Callable[[np.ndarray], Reading] | None = None,
) -> list[ImageResult]:
    """The result of `read` (the default reader's) on every photo of one set, each photo changed by
    `prepare` first (see `vision.dataset.run`); raises ValueError for a missing or malformed set."""
    if not truth.is_file():
        raise ValueError(f"no such truth file: {truth}")
    samples = load_truth(truth)
    if not samples:
        raise ValueError(f"{truth} holds no images")
    return list(run(samples, read or DiceReader().read, prepare))


def handle(args: argparse.Namespace) -> int:
    listing = args.misreads or args.tiles is not None
    try:
        if args.tiles is not None:
            args.tiles.mkdir(parents=True, exist_ok=True)
        results = read_set(args.truth)
        by_image = [(result, misreads(result)) for result in results] if listing else []
        if args.tiles is not None:
            _draw_tiles(by_image, args.tiles)
    except (ValueError, OSError) as error:
        print(f"pipkeeper eval-vision: {error}", file=sys.stderr)
        return 2
    metrics: dict = summarise(results)
    listed = []
    if listing:
        by_place, listed = _misreads_report(by_image, args.truth.parent)
        metrics.update(by_place)
    if args.json:
        print(json.dumps({**metrics, "misreads": listed} if listing else metrics))
        return 0
    for name, value in metrics.items():
        print(f"{name:>18}: {value:.4f}" if isinstance(value, float) else f"{name:>18}: {value}")
    for row in listed:
        print(
            f"{row['image']}  {row['kind']:<6} true {row['truth']} read {row['read']}"
            f"  at ({row['x']:.0f}, {row['y']:.0f})  confidence {row['confidence']:.2f}"
        )
    return 0


def _misreads_report(
    by_image: list[tuple[ImageResult, list[Misread] | None]], base: Path
) -> tuple[dict, list[dict]]:
    """({"boxed_images", "hands_by_place"}, one row per die misread) for `--misreads`, from each photo's
    result and misreads: images named as their truth records name them (relative to `base`), places in the
    photo's pixels."""
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


def _draw_tiles(by_image: list[tuple[ImageResult, list[Misread] | None]], folder: Path) -> None:
    """A picture of each misread die into `folder` (`vision.review`), numbered in the order `--misreads`
    lists them (a photo that no longer decodes keeps its numbers, without pictures). Raises OSError when
    one cannot be written."""
    number = 0
    for result, found in by_image:
        frame = cv2.imread(str(result.sample.image), cv2.IMREAD_COLOR) if found else None
        for misread in found or ():
            number += 1
            path = folder / tile_name(number, result.sample.image, misread)
            if frame is not None and not cv2.imwrite(str(path), misread_tile(frame, result, misread)):
                raise OSError(f"cannot write {path}")


def _as_named(image: Path, base: Path) -> str:
    """`image` as its truth record names it: relative to the set's folder, or whole when the record gave a
    path outside it (an absolute one)."""
    return image.relative_to(base).as_posix() if image.is_relative_to(base) else image.as_posix()

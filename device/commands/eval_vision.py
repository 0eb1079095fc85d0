"""`pipkeeper eval-vision TRUTH.jsonl --json`: score the dice reader on a labelled set of photos."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.dataset import ImageResult, load_truth, run, summarise
from vision.reader import DiceReader


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("eval-vision", help="measure the dice reader on a truth.jsonl set")
    parser.add_argument("truth", type=Path, help="a truth.jsonl in the ../shared/datasets format")
    parser.add_argument("--json", action="store_true", help="print the metrics as JSON")
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
        metrics = summarise(read_set(args.truth))
    except (ValueError, OSError) as error:
        print(f"pipkeeper eval-vision: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(metrics))
    else:
        for name, value in metrics.items():
            print(f"{name:>18}: {value:.4f}" if isinstance(value, float) else f"{name:>18}: {value}")
    return 0

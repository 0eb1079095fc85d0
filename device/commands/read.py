"""`pipkeeper read IMAGE --json`: the dice the reader sees in one photo (values, centres, confidence), and
whether the game would ask the players to check them (`Reading.asks`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

from vision.reader import DiceReader
from vision.reading import Reading


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("read", help="read the dice in one photo")
    parser.add_argument("image", type=Path, help="a photo (jpg, png, ...)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of one line of text")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    frame = cv2.imread(str(args.image), cv2.IMREAD_COLOR) if args.image.is_file() else None
    if frame is None:
        print(f"pipkeeper read: cannot open {args.image} as an image", file=sys.stderr)
        return 2
    reading = DiceReader().read(frame)
    if args.json:
        print(json.dumps(reading_to_json(reading)))
    else:
        values = " ".join(str(v) for v in reading.values) or "no dice"
        print(
            f"{values} (confidence {reading.confidence:.2f})"
            + ("; the game would ask the players to check it" if reading.asks and reading.dice else "")
            + (f"; {reading.problem}" if reading.problem else "")
        )
    return 0


def reading_to_json(reading: Reading) -> dict:
    """The JSON shape of a reading: dice left to right, regions that could not be read, whether the game
    would ask the players about it, and any problem."""
    return {
        "values": reading.values,
        "centers": [[round(d.center[0], 1), round(d.center[1], 1)] for d in reading.dice],
        "confidence": round(reading.confidence, 3),
        "asks": reading.asks,
        "dice": [
            {
                "value": d.value,
                "center": [round(d.center[0], 1), round(d.center[1], 1)],
                "size": round(d.size, 1),
                "angle": round(d.angle, 1),
                "confidence": round(d.confidence, 3),
            }
            for d in reading.dice
        ],
        "unreadable": [
            {
                "center": [round(r.center[0], 1), round(r.center[1], 1)],
                "size": round(r.size, 1),
                "reason": r.reason,
            }
            for r in reading.unreadable
        ],
        "frame_size": list(reading.frame_size),
        "problem": reading.problem,
    }

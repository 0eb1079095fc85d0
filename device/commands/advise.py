"""`pipkeeper advise`: the optimal keep or box for a hand, or the optimal expected score of a new game.

Uses the saved table of the rule variant in the state directory, building it first when missing (tens of
seconds; progress goes to stderr). Expected values are the points still to come from this moment, this turn's
box and all bonuses included.
"""

from __future__ import annotations

import argparse
import json
import sys

from device.advisor_cache import ensure_table
from device.statefiles import default_state_dir
from scoring.advisor import advice
from scoring.advisor.model import UnsupportedRules
from scoring.rules import RULE_NAMES

ALTERNATIVES = 4


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("advise", help="the optimal keep or box for a hand (solitaire values)")
    parser.add_argument("--rules", required=True, choices=RULE_NAMES)
    parser.add_argument("--options", default="{}", help='rule options as JSON, e.g. {"joker": "free"}')
    parser.add_argument("--card", default="{}", help='boxes already filled, as JSON: {"yahtzee": 50}')
    parser.add_argument("--rolls-left", type=int, default=2, help="rolls still allowed this turn (0 to 2)")
    parser.add_argument(
        "--expected", action="store_true", help="print the optimal expected score of a new game"
    )
    parser.add_argument(
        "--state-dir", default=None, help="where tables are cached (default: the state directory)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON (the only output format)")
    parser.add_argument("dice", nargs="*", type=int, metavar="D", help="the dice values")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        options = _json_object(args.options, "--options")
        card = _json_object(args.card, "--card")
        if not args.expected and not args.dice:
            raise ValueError("give the dice values, or --expected")
        table = ensure_table(args.state_dir or default_state_dir(), args.rules, options, _progress)
        print(json.dumps(_answer(table, args, card)))
    except UnsupportedRules as reason:
        print(json.dumps({"rules": args.rules, "advisor": "none", "reason": str(reason)}))
    except ValueError as error:
        print(f"pipkeeper advise: {error}", file=sys.stderr)
        return 2
    return 0


def _answer(table, args: argparse.Namespace, card: dict) -> dict:
    answer: dict = {"rules": args.rules, "advisor": "optimal solitaire play"}
    if args.expected:
        return {**answer, "expected_score": round(table.expected_score, 4)}
    answer.update(dice=args.dice, rolls_left=args.rolls_left)
    if args.rolls_left == 0:
        boxes = advice.box_values(table, card, args.dice)
        return {**answer, "best": _box(boxes[0]), "boxes": [_box(b) for b in boxes]}
    keeps = advice.keep_options(table, card, args.dice, args.rolls_left)
    return {
        **answer,
        "best": _keep(keeps[0], args.dice),
        "alternatives": [_keep(k, args.dice) for k in keeps[1 : 1 + ALTERNATIVES]],
    }


def _keep(option: advice.KeepAdvice, dice: list[int]) -> dict:
    positions = advice.keep_positions(dice, option.keep)
    return {"keep": list(option.keep), "positions": positions, "ev": round(option.ev, 4)}


def _box(option: advice.BoxAdvice) -> dict:
    return {"box": option.box, "points": option.points, "extra": option.extra, "ev": round(option.ev, 4)}


def _json_object(text: str, flag: str) -> dict:
    try:
        value = json.loads(text)
    except ValueError:
        raise ValueError(f"{flag} is not valid JSON: {text}") from None
    if not isinstance(value, dict):
        raise ValueError(f"{flag} must be a JSON object")
    return value


def _progress(fraction: float) -> None:
    print(f"\rbuilding the advisor table: {fraction:5.1%}", end="" if fraction < 1 else "\n", file=sys.stderr)

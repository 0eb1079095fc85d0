"""`pipkeeper advise`: the optimal keep or box for a hand, or the optimal expected score of a new game.

Uses the saved table of the rule variant in the state directory, building it first when missing (tens of
seconds; progress goes to stderr). Expected values are the points still to come from this moment, this turn's
box and all bonuses included. Like `pipkeeper score`, bad input exits non-zero with one line on stderr: the
rule name, dice and roll count are checked here rather than by argparse, whose errors span lines.
"""

from __future__ import annotations

import argparse
import json
import sys

from device.advisor_cache import ensure_table
from device.commands.score import BAD_INPUT, add_rules_options, parse_card, parse_dice, rule_options
from device.statefiles import default_state_dir
from scoring.advisor import advice
from scoring.advisor.model import UnsupportedRules
from scoring.rules import RULE_NAMES

ALTERNATIVES = 4


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "advise",
        help="the optimal keep or box for a hand (solitaire values)",
        description="Print JSON with the best keep and the next best few, or with no roll left every legal "
        "box, each with its expected points still to come. Example: "
        "pipkeeper advise --rules yatzy --card '{\"chance\": 22}' --rolls-left 2 4 4 1 2 6 --json",
    )
    add_rules_options(parser, rules_flag=True)
    parser.add_argument("--card", metavar="JSON", default="{}", help='the filled boxes: {"yahtzee": 50}')
    parser.add_argument(
        "--rolls-left", metavar="N", default="2", help="rolls still allowed this turn (0 to 2)"
    )
    parser.add_argument(
        "--expected", action="store_true", help="print the optimal expected score of a new game"
    )
    parser.add_argument(
        "--state-dir", default=None, help="where tables are cached (default: the state directory)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON (the only output format)")
    parser.add_argument("dice", nargs="*", metavar="D", help="the face values, 1 to 6")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.rules not in RULE_NAMES:
            raise ValueError(f"--rules must be one of {', '.join(RULE_NAMES)}")
        options = rule_options(args)
        card = parse_card(args.card)
        dice = parse_dice(args.dice)
        rolls_left = _rolls_left(args.rolls_left)
        if not args.expected and not dice:
            raise ValueError("give the dice values, or --expected")
        table = ensure_table(args.state_dir or default_state_dir(), args.rules, options, _progress)
        print(json.dumps(_answer(table, args, card, dice, rolls_left)))
    except UnsupportedRules as reason:
        print(json.dumps({"rules": args.rules, "advisor": "none", "reason": str(reason)}))
    except ValueError as error:
        print(f"pipkeeper advise: {error}", file=sys.stderr)
        return BAD_INPUT
    return 0


def _answer(table, args: argparse.Namespace, card: dict, dice: list[int], rolls_left: int) -> dict:
    answer: dict = {"rules": args.rules, "advisor": "optimal solitaire play"}
    if args.expected:
        return {**answer, "expected_score": round(table.expected_score, 4)}
    answer.update(dice=dice, rolls_left=rolls_left)
    if rolls_left == 0:
        boxes = advice.box_values(table, card, dice)
        return {**answer, "best": _box(boxes[0]), "boxes": [_box(b) for b in boxes]}
    keeps = advice.keep_options(table, card, dice, rolls_left)
    return {
        **answer,
        "best": _keep(keeps[0], dice),
        "alternatives": [_keep(k, dice) for k in keeps[1 : 1 + ALTERNATIVES]],
    }


def _keep(option: advice.KeepAdvice, dice: list[int]) -> dict:
    positions = advice.keep_positions(dice, option.keep)
    return {"keep": list(option.keep), "positions": positions, "ev": round(option.ev, 4)}


def _box(option: advice.BoxAdvice) -> dict:
    return {"box": option.box, "points": option.points, "extra": option.extra, "ev": round(option.ev, 4)}


def _rolls_left(text: str) -> int:
    if text not in ("0", "1", "2"):
        raise ValueError(f"--rolls-left must be 0, 1 or 2, not {text!r}")
    return int(text)


def _progress(fraction: float) -> None:
    print(f"\rbuilding the advisor table: {fraction:5.1%}", end="" if fraction < 1 else "\n", file=sys.stderr)

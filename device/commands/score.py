"""`pipkeeper score`: where one hand may be written on a given card, and for how many points.

The contract (DESIGN.md) is what outside checks rely on: JSON `{"legal": {box: points}, "extra": points}`
on stdout, and for bad input a non-zero exit with one line on stderr, never a traceback or a usage dump.
That is why dice and the rule name are checked here rather than by argparse, whose errors span lines.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Collection

from scoring.rules import RULE_NAMES, RuleSet, get_rules

BAD_INPUT = 2
RULE_FLAGS = ("joker", "variant")


class BadInput(ValueError):
    """Input the command refuses; the message is printed as the one-line reason."""


class OneLineParser(argparse.ArgumentParser):
    """A subcommand parser whose every complaint is one line on stderr and exit code 2.

    argparse would print the usage block, and would leave unknown options to the top-level parser;
    here they are kept (in `unknown_args`) for the handler to refuse in one line. Dice after an option
    (`score 3 3 --rules yatzy 5 6 1`) are left over by argparse too; they join the other dice.
    """

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        namespace, extras = super().parse_known_args(args, namespace)
        options = [arg for arg in extras if arg.startswith("-") and not re.fullmatch(r"-[0-9]+", arg)]
        namespace.unknown_args = options
        namespace.dice = [*getattr(namespace, "dice", []), *(arg for arg in extras if arg not in options)]
        return namespace, []

    def error(self, message: str):  # type: ignore[override]
        self.exit(BAD_INPUT, f"{self.prog}: {message}\n")


def add_rules_options(parser: argparse.ArgumentParser, rules_flag: bool) -> None:
    """The options that pick a rule set, shared by `score`, `rules`, `advise` and `bench-advisor`."""
    if rules_flag:
        parser.add_argument("--rules", metavar="NAME", help=f"the rule set: {', '.join(RULE_NAMES)}")
    parser.add_argument("--joker", metavar="MODE", help="yahtzee only: forced (default), free or none")
    parser.add_argument("--variant", metavar="NAME", help="maxi only: swedish (default) or finnish")


def rules_from_args(name: str, args: argparse.Namespace, only: Collection[str] = RULE_FLAGS) -> RuleSet:
    """The rule set `name` with the --joker/--variant given (those in `only`); ValueError if either is bad."""
    return get_rules(name, rule_options(args, only))


def rule_options(args: argparse.Namespace, only: Collection[str] = RULE_FLAGS) -> dict[str, str]:
    """The rule options given on the command line (those in `only`), by name."""
    return {key: getattr(args, key) for key in only if getattr(args, key) is not None}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score",
        help="list the boxes a hand may be written in, with points",
        description='Print {"legal": {box: points}, "extra": points} for a hand, given the boxes already '
        "filled. Example: pipkeeper score --rules yahtzee --card '{\"yahtzee\": 50}' 4 4 4 4 4",
    )
    parser.__class__ = OneLineParser  # add_parser builds the plain class; this one only changes errors
    add_rules_options(parser, rules_flag=True)
    parser.add_argument("--card", metavar="JSON", default="{}", help='the filled boxes: {"fives": 20, ...}')
    parser.add_argument("dice", nargs="*", metavar="DIE", help="the face values, 1 to 6")
    parser.set_defaults(handler=run_score)


def run_score(args: argparse.Namespace) -> int:
    try:
        result = score_hand(args)
    except (BadInput, ValueError) as error:
        print(f"pipkeeper score: {error}", file=sys.stderr)
        return BAD_INPUT
    print(json.dumps(result))
    return 0


def score_hand(args: argparse.Namespace) -> dict:
    if args.unknown_args:
        raise BadInput(f"unknown option {args.unknown_args[0]!r} (see pipkeeper score --help)")
    if args.rules is None:
        raise BadInput(f"--rules is required (one of {', '.join(RULE_NAMES)})")
    rules = rules_from_args(args.rules, args)
    dice = rules.check_dice(parse_dice(args.dice))
    card = rules.check_card(parse_card(args.card))
    return {"legal": rules.legal_boxes(card, dice), "extra": rules.extra_points(card, dice)}


def parse_dice(args: list[str]) -> list[int]:
    """The dice typed after a command (`score`, `advise`): "3 3 5 6 1", "3,3,5,6,1" and 3 3 5 6 1 all mean
    the same hand. Their range and count are the rules' to check."""
    return [_die(text) for arg in args for text in re.split(r"[\s,]+", arg.strip()) if text]


def _die(text: str) -> int:
    # Plain ASCII digits only: int() would also take "５" or "1_0".
    if not re.fullmatch(r"-?[0-9]+", text):
        raise BadInput(f"a die shows 1 to 6, not {text!r}")
    return int(text)


def parse_card(text: str) -> dict:
    """The `--card` option's JSON object of box: points (not yet checked against the rules)."""
    try:
        card = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadInput(f"--card is not valid JSON ({error.msg} at character {error.pos})") from None
    if not isinstance(card, dict):
        raise BadInput('--card must be a JSON object such as {"fives": 20}')
    return card

"""`pipkeeper rules [NAME]`: the boxes of a rule set and how each scores, as the players read them."""

from __future__ import annotations

import argparse
import sys

from device.commands.score import BAD_INPUT, add_rules_options, rules_from_args
from scoring.rules import RULE_NAMES, RULE_OPTIONS, RuleSet


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "rules",
        help="print the boxes of a rule set and how they score",
        description="Print the boxes and scoring of one rule set, or of all when no name is given.",
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help=f"one of {', '.join(RULE_NAMES)}")
    add_rules_options(parser, rules_flag=False)
    parser.set_defaults(handler=run_rules)


def run_rules(args: argparse.Namespace) -> int:
    try:
        if args.name:
            rule_sets = [rules_from_args(args.name, args)]
        else:  # --joker and --variant apply to the rule sets that have them
            rule_sets = [rules_from_args(name, args, only=RULE_OPTIONS[name]) for name in RULE_NAMES]
    except ValueError as error:
        print(f"pipkeeper rules: {error}", file=sys.stderr)
        return BAD_INPUT
    print("\n\n".join(describe(rules) for rules in rule_sets))
    return 0


def describe(rules: RuleSet) -> str:
    """A rule set as text: a heading, the general rules, then one line per box in card order."""
    options = ", ".join(f"{key}={value}" for key, value in rules.options.items())
    lines = [f"{rules.title} ({rules.name}{'; ' + options if options else ''})"]
    lines += [f"  {note}" for note in rules.notes()]
    key_width = max(len(box) for box in rules.boxes)
    label_width = max(len(rules.label(box)) for box in rules.boxes)
    for box in rules.boxes:
        lines.append(f"  {box:<{key_width}}  {rules.label(box):<{label_width}}  {rules.describe(box)}")
    return "\n".join(lines)

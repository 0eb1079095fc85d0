"""`pipkeeper config`: print the documented default config, or check a config file before using it."""

from __future__ import annotations

import argparse
import sys

from device.config import DEFAULT_CONFIG_TOML, ConfigError, load_config


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "config",
        help="print the default config or check a config file",
        description="Print the default config (with the default GPIO wiring) or check a config file.",
    )
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--default", action="store_true", help="print the default config as TOML")
    action.add_argument("--check", metavar="FILE", help="check FILE and say what is wrong with it")
    parser.set_defaults(handler=run_config)


def run_config(args: argparse.Namespace) -> int:
    if args.default:
        sys.stdout.write(DEFAULT_CONFIG_TOML)
        return 0
    try:
        load_config(args.check)
    except ConfigError as error:
        print(f"pipkeeper: {error}", file=sys.stderr)
        return 1
    print(f"{args.check}: OK")
    return 0

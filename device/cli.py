"""The `pipkeeper` command line.

Each subcommand lives in its own module under `device/commands/` and exposes
`register(subparsers)`, which adds its parser and sets `handler` to a function taking the parsed
arguments and returning an exit code. Keeping one module per command lets the rooms grow their
commands without editing a shared dispatcher.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from device import commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pipkeeper",
        description="Scorekeeper for Yatzy-family dice games played with real dice.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(subparsers)
    return parser


EXIT_BROKEN_PIPE = 128 + 13  # what a shell reports for a command ended by SIGPIPE


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; a reader that stops early (`pipkeeper rules | head`) ends it quietly."""
    try:
        code = _dispatch(argv)
        sys.stdout.flush()  # here, so a pipe closed under buffered output is caught here too
    except BrokenPipeError:
        # Python flushes stdout again at exit and would complain about the same closed pipe: point it at
        # /dev/null first (the recipe of the `signal` module's documentation).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE
    return code


def _dispatch(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help()
        return 0 if args.command is None else 2
    return int(args.handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

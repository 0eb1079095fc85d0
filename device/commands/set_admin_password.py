"""`pipkeeper set-admin-password`: choose the password of the admin (calibration) page.

Run interactively it asks twice without echo; piped (installers, tests) it reads one line from stdin.
Only a salted hash is stored, in the state directory, readable by pipkeeper's user alone.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from device.admin_secrets import set_admin_password
from device.statefiles import default_state_dir


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "set-admin-password",
        help="set the password of the admin page",
        description="Set the password of the admin (calibration) page. Asks twice on a terminal; "
        "otherwise reads one line from standard input.",
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help="state directory (default: systemd's or the per-user one)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    state_dir = args.state_dir or default_state_dir()
    password = _ask_twice() if sys.stdin.isatty() else sys.stdin.readline().rstrip("\r\n")
    if password is None:
        print("pipkeeper: the two passwords differ; nothing changed", file=sys.stderr)
        return 1
    try:
        path = set_admin_password(state_dir, password)
    except ValueError as error:
        print(f"pipkeeper: {error}; nothing changed", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"pipkeeper: cannot write the password file: {error}", file=sys.stderr)
        return 1
    print(f"Admin password saved ({path}).")
    return 0


def _ask_twice() -> str | None:
    first = getpass.getpass("New admin password: ")
    second = getpass.getpass("Repeat it: ")
    return first if first == second else None

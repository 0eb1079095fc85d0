"""The command-line dispatcher finds every subcommand module and reports usage errors."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import build_parser, main


def test_without_a_command_prints_help(capsys):
    assert main([]) == 0
    assert "usage: pipkeeper" in capsys.readouterr().out


def test_unknown_command_is_a_usage_error():
    with pytest.raises(SystemExit) as exit_info:
        main(["no-such-command"])
    assert exit_info.value.code == 2


def test_parser_builds():
    assert build_parser().prog == "pipkeeper"


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("args", "code"),
    [(["rules"], 141), (["rules", "maxi"], 141), ([], 0), (["score", "--help"], 0)],  # argparse ignores it
)
def test_a_reader_that_stops_early_ends_the_command_quietly(args, code):
    """`pipkeeper rules | head -1`: the pipe closes before everything is written; no traceback."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has already gone: every write meets a closed pipe
    try:
        done = subprocess.run(
            [sys.executable, "-m", "device", *args],
            cwd=ROOT,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == code

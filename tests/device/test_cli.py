"""The command-line dispatcher finds every subcommand module and reports usage errors."""

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

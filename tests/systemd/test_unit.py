"""The systemd unit verifies cleanly, scores 3.0 or better on `systemd-analyze security`, and keeps the
promises the appliance depends on (notify + watchdog, own user, camera and GPIO devices reachable)."""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "pipkeeper.service"
MAX_EXPOSURE = 3.0


@pytest.fixture
def systemd_analyze() -> str:
    """The tool's path; skipped on a developer machine without it, a failure in CI (.ci/run installs it)."""
    path = shutil.which("systemd-analyze")
    if path is None:
        message = "systemd-analyze is not installed (apt install systemd); .ci/run installs it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def settings(text: str) -> dict[str, list[str]]:
    """Every Key=value of the unit; systemd allows a key several times, so each maps to a list."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


@pytest.fixture
def testable_unit(tmp_path) -> Path:
    """A copy whose ExecStart points at this machine's python, since /opt/pipkeeper does not exist here."""
    text = UNIT.read_text()
    text, replaced = re.subn(r"^ExecStart=\S+", f"ExecStart={sys.executable} -m device.cli", text, flags=re.M)
    assert replaced == 1
    copy = tmp_path / UNIT.name
    copy.write_text(text)
    return copy


def test_verify_prints_nothing(systemd_analyze, testable_unit):
    result = subprocess.run(
        [systemd_analyze, "verify", str(testable_unit)], capture_output=True, text=True, timeout=60
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_security_exposure_is_at_most_3(systemd_analyze, testable_unit):
    result = subprocess.run(
        [systemd_analyze, "security", "--offline=true", "--no-pager", str(testable_unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", result.stdout)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= MAX_EXPOSURE, result.stdout


def test_service_contract():
    unit = settings(UNIT.read_text())
    assert unit["Type"] == ["notify"]
    assert unit["NotifyAccess"] == ["main"]
    assert unit["WatchdogSec"] and unit["Restart"] == ["on-failure"]
    assert unit["User"] == ["pipkeeper"]
    assert set(" ".join(unit["SupplementaryGroups"]).split()) >= {"video", "gpio"}
    assert unit["StateDirectory"] == ["pipkeeper"]
    assert unit["ConfigurationDirectory"] == ["pipkeeper"]
    assert any(value.startswith("LG_WD=") for value in unit["Environment"])
    assert unit["ProtectSystem"] == ["strict"]
    assert "PrivateDevices" not in unit, "the camera and GPIO chips must stay reachable"
    allowed = " ".join(unit["DeviceAllow"])
    for device_group in ("char-video4linux", "char-media", "char-dma_heap", "char-gpiochip"):
        assert device_group in allowed


def test_exec_start_is_a_command_line_pipkeeper_accepts():
    """The unit's ExecStart must parse with the real CLI (checked once `pipkeeper run` exists)."""
    pytest.importorskip("device.commands.run", reason="device/commands/run.py has not landed yet")
    from device.cli import build_parser

    exec_start = settings(UNIT.read_text())["ExecStart"][0]
    argv = shlex.split(exec_start.replace("${STATE_DIRECTORY}", "/var/lib/pipkeeper"))
    assert argv[0] == "/opt/pipkeeper/venv/bin/pipkeeper"
    args = build_parser().parse_args(argv[1:])
    assert args.command == "run"
    assert str(args.config) == "/etc/pipkeeper/config.toml"
    assert str(args.state_dir) == "/var/lib/pipkeeper"

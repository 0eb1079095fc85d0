"""install.sh and uninstall.sh pass shellcheck, and their --dry-run prints every step and changes nothing.

The dry runs execute as an unprivileged user (`nobody` when the tests run as root) with every command that
could change the system replaced by a stub that fails loudly: a dry run that tried to act would exit
non-zero and name the command on stderr.
"""

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

SYSTEMD_DIR = Path(__file__).resolve().parents[2] / "systemd"
SCRIPTS = [SYSTEMD_DIR / "install.sh", SYSTEMD_DIR / "uninstall.sh", SYSTEMD_DIR / "common.sh"]
MUTATING_COMMANDS = [
    "apt-get", "groupadd", "useradd", "usermod", "userdel", "systemctl", "journalctl", "install",
    "ln", "rm", "mkdir", "tar", "mktemp", "python3", "env", "pip", "chown", "chmod", "cp",
]  # fmt: skip
INSTALLED_PATHS = [
    Path("/opt/pipkeeper"),
    Path("/etc/pipkeeper"),
    Path("/var/lib/pipkeeper"),
    Path("/etc/systemd/system/pipkeeper.service"),
    Path("/usr/local/bin/pipkeeper"),
]


@pytest.fixture(scope="module")
def stub_bin():
    """A world-readable directory of stubs that refuse to run, put first on PATH."""
    directory = Path(tempfile.mkdtemp(prefix="pipkeeper-stubs-"))
    directory.chmod(0o755)
    for name in MUTATING_COMMANDS:
        stub = directory / name
        stub.write_text(f'#!/bin/sh\necho "dry run called {name} $*" >&2\nexit 97\n')
        stub.chmod(0o755)
    yield directory
    shutil.rmtree(directory)


def run_script(script: str, *args: str, stub_bin: Path) -> subprocess.CompletedProcess:
    env = {"PATH": f"{stub_bin}:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    as_nobody = {}
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")
        as_nobody = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
    before = [path.exists() for path in INSTALLED_PATHS]
    result = subprocess.run(
        ["bash", str(SYSTEMD_DIR / script), *args],
        capture_output=True, text=True, env=env, cwd="/", timeout=60, **as_nobody,
    )  # fmt: skip
    assert [path.exists() for path in INSTALLED_PATHS] == before
    return result


def test_shellcheck_is_clean():
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt install shellcheck); .ci/run installs it")
    result = subprocess.run(
        ["shellcheck", "--external-sources", *map(str, SCRIPTS)], capture_output=True, text=True, timeout=60
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_install_dry_run_shows_every_step(stub_bin):
    result = run_script("install.sh", "--dry-run", stub_bin=stub_bin)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "dry run: nothing will be changed" in out
    for expected in [
        "apt packages: python3-venv python3-numpy python3-picamera2 python3-lgpio",
        "system user 'pipkeeper' in groups video gpio",
        "would run: python3 -m venv --system-site-packages /opt/pipkeeper/venv",
        "--constraint " + str(SYSTEMD_DIR.parent / "requirements" / "pi.txt"),
        "config /etc/pipkeeper/config.toml",
        "would run: install -m 0644 " + str(SYSTEMD_DIR / "pipkeeper.service"),
        "would run: systemctl enable pipkeeper.service",
        "would run: systemctl restart pipkeeper.service",
        "Scorecard:  http://",
    ]:
        assert expected in out


def test_install_refuses_a_directory_that_is_not_pipkeeper(stub_bin, tmp_path):
    result = run_script("install.sh", "--dry-run", "--source", "/", stub_bin=stub_bin)
    assert result.returncode == 1
    assert "does not look like pipkeeper's source" in result.stderr
    assert result.stdout == ""


def test_install_without_root_asks_for_sudo(stub_bin):
    result = run_script("install.sh", stub_bin=stub_bin)
    assert result.returncode == 1
    assert "sudo" in result.stderr and "--dry-run" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("script", ["install.sh", "uninstall.sh"])
def test_unknown_options_are_refused(stub_bin, script):
    result = run_script(script, "--dry-run", "--frobnicate", stub_bin=stub_bin)
    assert result.returncode == 1
    assert "unknown option: --frobnicate" in result.stderr


def test_uninstall_dry_run_keeps_the_games(stub_bin):
    result = run_script("uninstall.sh", "--dry-run", stub_bin=stub_bin)
    assert result.returncode == 0, result.stderr
    assert "service pipkeeper.service: stop, disable, remove" in result.stdout
    assert "system user 'pipkeeper'" in result.stdout
    assert "kept: games in /var/lib/pipkeeper" in result.stdout


def test_uninstall_purge_dry_run(stub_bin):
    result = run_script("uninstall.sh", "--dry-run", "--purge", stub_bin=stub_bin)
    assert result.returncode == 0, result.stderr
    assert "purge: games and config" in result.stdout
    assert "kept:" not in result.stdout

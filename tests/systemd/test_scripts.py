"""install.sh and uninstall.sh pass shellcheck, and their --dry-run prints every step and changes nothing.

The dry runs execute as an unprivileged user (`nobody` when the tests run as root) with every command that
could change the system replaced by a stub that fails loudly: a dry run that tried to act would exit
non-zero and name the command on stderr. The look-ups the scripts make (is the package, group, user there?)
are stubbed too, so each dry run sees a known world: a fresh Pi, or one where pipkeeper is installed (under
PIPKEEPER_FAKE_ROOT, since nothing is installed on the machine running the tests).
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


# The look-ups, answering "nothing there" (a fresh Pi) or "all there" (pipkeeper installed).
LOOKUPS = {
    "fresh": {"dpkg-query": "exit 1", "getent": "exit 2", "id": "exit 1"},
    "installed": {
        "dpkg-query": "echo 'install ok installed'",
        "getent": 'echo "$2:x:999:"',
        "id": "echo 999",
    },
}


def world_readable_tempdir(prefix: str) -> Path:
    directory = Path(tempfile.mkdtemp(prefix=prefix))
    directory.chmod(0o755)
    return directory


def write_stub(directory: Path, name: str, body: str) -> None:
    stub = directory / name
    stub.write_text(f"#!/bin/sh\n{body}\n")
    stub.chmod(0o755)


@pytest.fixture(scope="module", params=sorted(LOOKUPS))
def world(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def fresh(world) -> bool:
    return world == "fresh"


@pytest.fixture(scope="module")
def stub_bin(world):
    """A world-readable directory of stubs, put first on PATH: mutating commands refuse to run."""
    directory = world_readable_tempdir("pipkeeper-stubs-")
    for name in MUTATING_COMMANDS:
        write_stub(directory, name, f'echo "dry run called {name} $*" >&2\nexit 97')
    for name, body in LOOKUPS[world].items():
        write_stub(directory, name, body)
    yield directory
    shutil.rmtree(directory)


@pytest.fixture(scope="module")
def fake_root(fresh):
    """An empty directory (fresh) or one holding every file the installer leaves behind (installed)."""
    root = world_readable_tempdir("pipkeeper-fakeroot-")
    if not fresh:
        (root / "etc/systemd/system").mkdir(parents=True)
        (root / "etc/systemd/system/pipkeeper.service").write_text("[Service]\n")
        (root / "etc/pipkeeper").mkdir()
        (root / "etc/pipkeeper/config.toml").write_text("")
        (root / "opt/pipkeeper/venv/bin").mkdir(parents=True)
        (root / "opt/pipkeeper/venv/bin/pipkeeper").write_text("")
        (root / "usr/local/bin").mkdir(parents=True)
        (root / "usr/local/bin/pipkeeper").symlink_to(root / "opt/pipkeeper/venv/bin/pipkeeper")
        (root / "var/lib/pipkeeper").mkdir(parents=True)
        for directory in root.rglob("*"):
            if directory.is_dir():
                directory.chmod(0o755)
    yield root
    shutil.rmtree(root)


def tree(root: Path) -> list[str]:
    return sorted(str(path.relative_to(root)) for path in root.rglob("*"))


def run_script(script: str, *args: str, stub_bin: Path, fake_root: Path | None = None):
    env = {"PATH": f"{stub_bin}:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    if fake_root is not None:
        env["PIPKEEPER_FAKE_ROOT"] = str(fake_root)
    as_nobody = {}
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")
        as_nobody = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
    before = [path.exists() for path in INSTALLED_PATHS]
    fake_before = tree(fake_root) if fake_root is not None else None
    result = subprocess.run(
        ["bash", str(SYSTEMD_DIR / script), *args],
        capture_output=True, text=True, env=env, cwd="/", timeout=60, **as_nobody,
    )  # fmt: skip
    assert [path.exists() for path in INSTALLED_PATHS] == before
    if fake_root is not None:
        assert tree(fake_root) == fake_before
    return result


def require_tool(name: str, package: str) -> None:
    """Skip on a developer machine without the tool; fail in CI, where .ci/run installs it."""
    if shutil.which(name) is None:
        message = f"{name} is not installed (apt install {package}); .ci/run installs it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def test_shellcheck_is_clean():
    require_tool("shellcheck", "shellcheck")
    result = subprocess.run(
        ["shellcheck", "--external-sources", *map(str, SCRIPTS)], capture_output=True, text=True, timeout=60
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_install_dry_run_shows_every_step(stub_bin, fresh):
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
        # numpy pinned to apt's build in the same pip command, so pip can never replace it
        "numpy==APT_VERSION",
        "config /etc/pipkeeper/config.toml",
        "would run: install -m 0644 " + str(SYSTEMD_DIR / "pipkeeper.service"),
        "would run: systemctl enable pipkeeper.service",
        "would run: systemctl restart pipkeeper.service",
        "Scorecard:  http://",
    ]:
        assert expected in out
    if fresh:
        assert (
            "would run: env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "
            "python3-venv python3-numpy python3-picamera2 python3-lgpio"
        ) in out
        assert "would run: groupadd --system gpio" in out
        assert "would run: useradd --system --user-group --groups video\\,gpio" in out
        assert "would write the output of 'pipkeeper config --default' with web host 0.0.0.0" in out


def test_install_dry_run_over_an_installation_keeps_what_is_there(stub_bin, fresh, fake_root):
    result = run_script("install.sh", "--dry-run", stub_bin=stub_bin, fake_root=fake_root)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    if fresh:
        assert "would run: useradd --system" in out
        return
    assert "already installed" in out and "apt-get" not in out
    assert "groupadd" not in out and "useradd" not in out
    assert "would run: usermod --append --groups video\\,gpio pipkeeper" in out
    assert "kept (yours); checking it:" in out
    assert (
        f"would run: {fake_root}/opt/pipkeeper/venv/bin/pipkeeper config --check "
        f"{fake_root}/etc/pipkeeper/config.toml"
    ) in out
    assert "would run: systemctl restart pipkeeper.service" in out


def test_the_fake_root_is_refused_outside_a_dry_run(stub_bin, fake_root):
    result = run_script("install.sh", stub_bin=stub_bin, fake_root=fake_root)
    assert result.returncode == 1
    assert "PIPKEEPER_FAKE_ROOT is for tests and needs --dry-run" in result.stderr


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


def test_uninstall_dry_run_keeps_the_games(stub_bin, fresh, fake_root):
    result = run_script("uninstall.sh", "--dry-run", stub_bin=stub_bin, fake_root=fake_root)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "service pipkeeper.service: stop, disable, remove" in out
    assert "system user 'pipkeeper'" in out
    assert f"kept: games in {fake_root}/var/lib/pipkeeper" in out
    if fresh:
        assert "would run" not in out
        return
    for expected in [
        "would run: systemctl disable --now pipkeeper.service",
        f"would run: rm -f {fake_root}/etc/systemd/system/pipkeeper.service",
        "would run: systemctl daemon-reload",
        f"would run: rm -f {fake_root}/usr/local/bin/pipkeeper",
        f"would run: rm -rf {fake_root}/opt/pipkeeper",
        "would run: userdel pipkeeper",
    ]:
        assert expected in out
    assert f"rm -rf {fake_root}/var/lib/pipkeeper" not in out
    assert f"rm -rf {fake_root}/etc/pipkeeper" not in out


def test_uninstall_purge_dry_run(stub_bin, fresh, fake_root):
    result = run_script("uninstall.sh", "--dry-run", "--purge", stub_bin=stub_bin, fake_root=fake_root)
    assert result.returncode == 0, result.stderr
    assert "purge: games and config" in result.stdout
    assert "kept:" not in result.stdout
    if not fresh:
        assert f"would run: rm -rf {fake_root}/var/lib/pipkeeper" in result.stdout
        assert f"would run: rm -rf {fake_root}/etc/pipkeeper" in result.stdout

"""Where state lives by default, and atomic writes."""

import pytest

from device.statefiles import atomic_write_bytes, default_state_dir


@pytest.fixture
def no_systemd(monkeypatch, tmp_path):
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))


def test_systemds_state_directory_comes_first(monkeypatch, tmp_path):
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path}/a:{tmp_path}/b")
    assert default_state_dir(installed=tmp_path) == tmp_path / "a"


def test_the_installed_services_directory_is_used_when_writable(no_systemd, tmp_path):
    installed = tmp_path / "var-lib-pipkeeper"
    assert default_state_dir(installed=installed) == tmp_path / "xdg" / "pipkeeper"  # not installed
    installed.mkdir()
    assert default_state_dir(installed=installed) == installed


def test_atomic_write_replaces_the_whole_file(tmp_path):
    target = tmp_path / "deep" / "file.json"
    atomic_write_bytes(target, b"old")
    atomic_write_bytes(target, b"new", mode=0o600)
    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in target.parent.iterdir()] == ["file.json"]  # no temporary file left behind

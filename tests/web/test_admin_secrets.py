"""The admin secrets on disk and `pipkeeper set-admin-password`."""

from __future__ import annotations

import io
import stat

import pytest
from werkzeug.security import check_password_hash

from device.admin_secrets import load_or_create_secret_key, set_admin_password, web_config
from device.cli import main


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_secret_key_is_created_once_private_and_then_kept(tmp_path):
    key = load_or_create_secret_key(tmp_path)
    assert len(key) >= 32
    assert mode(tmp_path / "secret-key") == 0o600
    assert load_or_create_secret_key(tmp_path) == key


def test_a_truncated_secret_key_is_replaced(tmp_path):
    (tmp_path / "secret-key").write_bytes(b"short")
    assert len(load_or_create_secret_key(tmp_path)) >= 32


def test_the_password_is_stored_as_a_private_salted_hash(tmp_path):
    path = set_admin_password(tmp_path, "a long passphrase")
    stored = path.read_text().strip()
    assert mode(path) == 0o600
    assert "a long passphrase" not in stored
    assert check_password_hash(stored, "a long passphrase")
    assert web_config(tmp_path)["ADMIN_PASSWORD_FILE"] == str(path)


@pytest.mark.parametrize("password", ["short", " padded password ", ""])
def test_weak_or_odd_passwords_are_refused(tmp_path, password):
    with pytest.raises(ValueError):
        set_admin_password(tmp_path, password)
    assert not (tmp_path / "admin-password").exists()


def test_the_command_reads_one_line_from_a_pipe(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("piped passphrase\nignored\n"))
    assert main(["set-admin-password", "--state-dir", str(tmp_path)]) == 0
    assert check_password_hash((tmp_path / "admin-password").read_text().strip(), "piped passphrase")
    assert "saved" in capsys.readouterr().out


def test_the_command_asks_twice_on_a_terminal_and_refuses_a_mismatch(tmp_path, monkeypatch, capsys):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    answers = iter(["first passphrase", "other passphrase"])
    monkeypatch.setattr("sys.stdin", Terminal())
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    assert main(["set-admin-password", "--state-dir", str(tmp_path)]) == 1
    assert "differ" in capsys.readouterr().err
    assert not (tmp_path / "admin-password").exists()


def test_the_command_explains_a_short_password(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("tiny\n"))
    assert main(["set-admin-password", "--state-dir", str(tmp_path)]) == 1
    assert "at least 8 characters" in capsys.readouterr().err

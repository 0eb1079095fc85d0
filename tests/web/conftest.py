"""Fixtures for the web tests: the app over a scripted fake table, or over the real table session.

The fake answers the admin and camera calls the way the session does (including its refusals), and
lets a test publish snapshots and frames by hand. Game flows run against the real `TableSession` with a
real SQLite store in tmp_path, so the page contract is checked against the engine's actual answers.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

import pytest
from werkzeug.security import generate_password_hash

from device.session import TableSession
from device.store import GameStore
from web import create_app
from web.port import CommandResult, MalformedCommand

PASSWORD = "correct horse battery"


class ManualClock:
    """Seconds that only move when the test says so (for the login throttle)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class FakeTable:
    """A TablePort whose answers the test controls; it records what the web app asked of it."""

    def __init__(self) -> None:
        self.submitted: list[dict[str, Any]] = []
        self.changes: list[dict[str, Any]] = []
        self.auto_calls: list[list[int] | None] = []
        self.profile: dict[str, Any] = {"tray": None, "die_size": None, "pip_polarity": "auto", "reader": {}}
        self.saved = True
        self.frames: list[bytes] = []
        self._snapshot: dict[str, Any] = {"version": 1, "game_id": None, "game": None, "table": {}}
        self._changed = threading.Condition()

    # --- scripting -------------------------------------------------------------------------------
    def publish(self, **fields: Any) -> dict[str, Any]:
        with self._changed:
            self._snapshot = {**self._snapshot, **fields, "version": self._snapshot["version"] + 1}
            self._changed.notify_all()
            return self._snapshot

    # --- TablePort ------------------------------------------------------------------------------
    def submit(self, command: Mapping[str, Any]) -> CommandResult:
        self.submitted.append(dict(command))
        if command["type"] == "explode":
            raise MalformedCommand("unknown command type 'explode'")
        if command["type"] == "undo":
            return CommandResult(False, "nothing to undo", self._snapshot["version"])
        return CommandResult(True, "done", self.publish()["version"])

    def snapshot(self) -> dict[str, Any]:
        return self._snapshot

    def wait_for_change(self, after_version: int, timeout: float) -> dict[str, Any] | None:
        with self._changed:
            self._changed.wait_for(lambda: self._snapshot["version"] > after_version, timeout)
            return self._snapshot if self._snapshot["version"] > after_version else None

    def history(self) -> dict[str, Any]:
        return {
            "games": [
                {
                    "id": "g1",
                    "rules": "yatzy",
                    "options": {},
                    "players": ["Ann", "Bo"],
                    "created": 1.7e9,
                    "updated": 1.7e9,
                    "finished": False,
                    "round": 3,
                    "totals": {"Ann": 20, "Bo": 12},
                },
                {
                    "id": "g0",
                    "rules": "yahtzee",
                    "options": {},
                    "players": ["Ann"],
                    "created": 1.6e9,
                    "updated": 1.6e9,
                    "finished": True,
                    "round": 13,
                    "totals": {"Ann": 231},
                },
            ],
            "players": [
                {
                    "name": "Ann",
                    "games": 1,
                    "wins": 1,
                    "average_total": 231.0,
                    "best_total": 231,
                    "upper_bonus_rate": 1.0,
                    "yatzy_count": 1,
                }
            ],
        }

    def wait_for_frame(self, after: int, timeout: float) -> tuple[int, bytes] | None:
        number = after + 1
        return (number, self.frames[number]) if 0 <= number < len(self.frames) else None

    def status(self) -> dict[str, Any]:
        return {"camera": {"state": "ok", "fps": 9.5, "error": None}, "gpio": {"pin_factory": "mock"}}

    def calibration(self) -> dict[str, Any]:
        return {"profile": self.profile, "saved": self.saved, "parameters": {"min_area": {"default": 10}}}

    def update_calibration(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        if "tray" in changes and changes["tray"] is not None and len(changes["tray"]) != 4:
            raise ValueError("tray must be [x0, y0, x1, y1] as fractions of the frame")
        self.changes.append(dict(changes))
        self.profile = {**self.profile, **changes}
        self.saved = False
        return self.calibration()

    def save_calibration(self) -> dict[str, Any]:
        self.saved = True
        return self.calibration()

    def revert_calibration(self) -> dict[str, Any]:
        self.saved = True
        return self.calibration()

    def auto_calibrate(self, known_values: list[int] | None = None) -> dict[str, Any]:
        self.auto_calls.append(known_values)
        if known_values == [6]:
            raise ValueError("no dice in view")
        return {"die_size": 0.08}

    def test_read(self) -> dict[str, Any]:
        return {"values": [3, 3, 5, 6, 1], "confidence": 0.93, "unreadable": []}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def password_file(tmp_path):
    path = tmp_path / "admin-password"
    path.write_text(generate_password_hash(PASSWORD, method="pbkdf2:sha256:1000") + "\n")  # cheap: fast tests
    return path


@pytest.fixture
def fake_table() -> FakeTable:
    return FakeTable()


def _config(password_file, clock) -> dict[str, Any]:
    return {
        "SECRET_KEY": b"k" * 32,
        "ADMIN_PASSWORD_FILE": str(password_file),
        "LOGIN_CLOCK": clock,
        "SSE_KEEPALIVE_SECONDS": 0.05,
        "MJPEG_MIN_INTERVAL": 0.0,
    }


@pytest.fixture
def app(fake_table, password_file, clock):
    return create_app(fake_table, _config(password_file, clock))


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def csrf(client) -> str:
    """This client's CSRF token, fetched the way a script would."""
    return client.get("/api/csrf").get_json()["token"]


@pytest.fixture
def admin_client(client, csrf):
    response = client.post("/admin/login", data={"password": PASSWORD, "csrf_token": csrf})
    assert response.status_code == 302
    return client


@pytest.fixture
def session(tmp_path):
    """The real table session (no camera, no GPIO) over a real store file."""
    store = GameStore(tmp_path / "games.sqlite3")
    table = TableSession(store)
    table.start()
    yield table
    table.close()
    store.close()


@pytest.fixture
def real_client(session, password_file, clock):
    return create_app(session, _config(password_file, clock)).test_client()

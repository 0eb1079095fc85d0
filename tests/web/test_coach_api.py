"""The coach through the web API: the switch is a command, and the snapshot carries the hints."""

from __future__ import annotations

import time

import pytest

from device.advisor_cache import AdvisorCache, build_table
from device.coach import Coach
from device.session import TableSession
from device.store import GameStore


@pytest.fixture
def session(tmp_path):
    """Overrides conftest's: the real session with a coach whose (fast) 'forced' table is already saved."""
    state_dir = tmp_path / "state"
    build_table(state_dir, "forced")
    store = GameStore(tmp_path / "games.sqlite3")
    table = TableSession(store, coach=Coach(AdvisorCache(state_dir), state_dir))
    table.start()
    yield table
    table.close()
    store.close()


def post(client, body):
    token = client.get("/api/csrf").get_json()["token"]
    return client.post("/api/commands", json=body, headers={"X-CSRF-Token": token})


def test_the_snapshot_carries_the_coach_once_it_is_switched_on(real_client):
    assert post(real_client, {"type": "new_game", "players": ["Ann"], "rules": "forced"}).status_code == 200
    assert post(real_client, {"type": "roll", "values": [4, 1, 1, 2, 6]}).status_code == 200
    coach = real_client.get("/api/state").get_json()["table"]["coach"]
    assert coach["enabled"] == [False] and coach["keep"] is None and coach["note"] is None
    assert post(real_client, {"type": "coach", "player": 0, "on": True}).status_code == 200
    deadline = time.monotonic() + 30
    while coach["keep"] is None and time.monotonic() < deadline:
        time.sleep(0.05)
        coach = real_client.get("/api/state").get_json()["table"]["coach"]
    assert coach["enabled"] == [True]
    assert coach["kind"] == "optimal solitaire"
    assert coach["keep"]["values"] == [1, 1] and coach["keep"]["positions"] == [1, 2]
    assert coach["boxes"][0] == {"box": "ones", "points": 2, "ev": coach["boxes"][0]["ev"]}


def test_a_malformed_coach_command_is_400(real_client):
    assert post(real_client, {"type": "new_game", "players": ["Ann"], "rules": "forced"}).status_code == 200
    answer = post(real_client, {"type": "coach", "player": "Ann", "on": True})
    assert answer.status_code == 400
    assert post(real_client, {"type": "coach", "player": 0, "on": "yes"}).status_code == 400

"""Nothing a client sends answers 500: malformed bodies, wrong types, huge numbers, unknown commands and
missing fields all come back as 400 (or 409 when the rules refuse, 413 when far too large), with a reason,
and change nothing. Checked against the real table session and the real calibration desk."""

from __future__ import annotations

import json

import pytest

from device.calibration_desk import CalibrationDesk
from device.profile_store import ProfileStore
from device.session import TableSession
from device.store import GameStore
from tests.web.conftest import PASSWORD, _config
from web import create_app

HUGE = 10**40

# Commands that make no sense whether or not a game is running: each must be a 400.
MALFORMED_COMMANDS = [
    {"type": ""},
    {"type": "teleport"},
    {"type": "x" * 5000},
    {"type": None},
    {"type": ["undo"]},
    {"type": {"name": "undo"}},
    {"kind": "undo"},
    {},
    {"type": "new_game"},
    {"type": "new_game", "players": ["Ann"], "rules": 5},
    {"type": "new_game", "players": ["Ann"], "options": [1]},
    {"type": "new_game", "players": ["Ann"], "colour": "red"},
    {"type": "resume_game"},
    {"type": "resume_game", "game_id": 5},
    {"type": "resume_game", "game_id": ""},
    {"type": "delete_game", "game_id": None},
    {"type": "press"},
    {"type": "press", "button": 7},
    {"type": "press", "button": "hold99"},
    {"type": "press", "button": "select", "long": "yes"},
    {"type": "sim_roll", "now": True},
]

# Game commands with a game running and one roll made: wrong types, huge numbers, missing and unknown
# fields. The engine calls some of these malformed (400) and some illegal (409); none may be a 500.
BAD_GAME_COMMANDS = [
    {"type": "roll"},
    {"type": "roll", "values": "12345"},
    {"type": "roll", "values": [1, 2, 3, 4]},
    {"type": "roll", "values": [1, 2, 3, 4, 7]},
    {"type": "roll", "values": [1, 2, 3, 4, HUGE]},
    {"type": "roll", "values": [1.5, 2, 3, 4, 5]},
    {"type": "roll", "values": [True, 2, 3, 4, 5]},
    {"type": "roll", "values": [None, 2, 3, 4, 5]},
    {"type": "roll", "values": [1, 2, 3, 4, 5], "held": "0"},
    {"type": "roll", "values": [1, 2, 3, 4, 5], "held": [9]},
    {"type": "roll", "values": [1, 2, 3, 4, 5], "held": [-1]},
    {"type": "roll", "values": [1, 2, 3, 4, 5], "held": [HUGE]},
    {"type": "roll", "values": [1, 2, 3, 4, 5], "colour": "red"},
    {"type": "hold"},
    {"type": "hold", "dice": "0"},
    {"type": "hold", "dice": [HUGE]},
    {"type": "hold", "dice": [True]},
    {"type": "toggle_hold"},
    {"type": "toggle_hold", "die": -1},
    {"type": "toggle_hold", "die": HUGE},
    {"type": "toggle_hold", "die": 1.0},
    {"type": "toggle_hold", "die": "first"},
    {"type": "correct"},
    {"type": "correct", "values": None},
    {"type": "correct", "values": [0, 2, 3, 4, 5]},
    {"type": "correct", "values": [1, 2, 3]},
    {"type": "score"},
    {"type": "score", "box": 5},
    {"type": "score", "box": "nope"},
    {"type": "score", "box": {"name": "fives"}},
    {"type": "undo", "steps": 2},
]

# Bodies that are not a JSON object at all (or not JSON by its own rules): always a 400.
RAW_BODIES = [
    ("", "application/json"),
    ("null", "application/json"),
    ("7", "application/json"),
    ('"undo"', "application/json"),
    ("[1, 2]", "application/json"),
    ("{broken", "application/json"),
    ('{"type": "undo",}', "application/json"),
    ("NaN", "application/json"),
    ('{"type": "roll", "values": [NaN, 1, 2, 3, 4]}', "application/json"),
    ('{"type": "roll", "values": [Infinity, 1, 2, 3, 4]}', "application/json"),
    ('{"type": "roll", "values": [1e999, 1, 2, 3, 4]}', "application/json"),
    ('{"type": "roll", "values": [' + "9" * 5000 + ", 1, 2, 3, 4]}", "application/json"),
    ("[" * 20_000 + "]" * 20_000, "application/json"),
    ('{"a":' * 5000 + "1" + "}" * 5000, "application/json"),
    (b'{"type": "\xff\xfe"}', "application/json"),
    ('{"type": "undo"}', "text/plain"),
    ('{"type": "undo"}', "application/x-www-form-urlencoded"),
    ('{"type": "undo"}', "multipart/form-data; boundary=x"),
    ('{"type": "undo"}', ""),
]


@pytest.fixture
def client(real_client):
    token = real_client.get("/api/csrf").get_json()["token"]
    real_client.environ_base["HTTP_X_CSRF_TOKEN"] = token
    return real_client


def state(client):
    return client.get("/api/state").get_json()


START_AND_ROLL = ({"type": "new_game", "players": ["Ann", "Bo"]}, {"type": "roll", "values": [2, 2, 5, 6, 1]})


def start_and_roll(client):
    for command in START_AND_ROLL:
        assert client.post("/api/commands", json=command).status_code == 200


@pytest.mark.parametrize("with_game", [False, True], ids=["no game", "game running"])
def test_malformed_commands_are_400_and_change_nothing(client, with_game):
    if with_game:
        start_and_roll(client)
    before = state(client)
    for command in MALFORMED_COMMANDS:
        response = client.post("/api/commands", json=command)
        assert response.status_code == 400, (command, response.get_json())
        assert response.get_json()["error"], command
    assert state(client) == before


def test_bad_game_commands_are_refused_without_a_500(client):
    start_and_roll(client)
    before = state(client)
    for command in BAD_GAME_COMMANDS:
        response = client.post("/api/commands", json=command)
        assert response.status_code in (400, 409), (command, response.status_code, response.get_json())
        body = response.get_json()
        assert body.get("error") or body.get("message"), command
    after = state(client)
    assert after["game"] == before["game"]  # a 409 republishes (the warning line), but the game is as it was


def test_raw_bodies_that_are_not_a_json_object_are_400(client):
    before = state(client)
    for data, content_type in RAW_BODIES:
        response = client.post("/api/commands", data=data, content_type=content_type)
        assert response.status_code == 400, (data[:40], content_type, response.status_code)
        assert response.get_json()["error"]
    assert state(client) == before


def test_a_json_subtype_content_type_is_accepted(client):
    response = client.post(
        "/api/commands",
        data=json.dumps({"type": "new_game", "players": ["Ann"]}),
        content_type="application/json; charset=utf-8",
    )
    assert response.status_code == 200


def test_a_game_that_cannot_be_started_is_refused_without_a_500(client):
    for command in (
        {"type": "new_game", "players": "Ann"},
        {"type": "new_game", "players": [7]},
        {"type": "new_game", "players": []},
        {"type": "new_game", "players": ["A"] * 9},
        {"type": "new_game", "players": ["Ann", "Ann"]},
        {"type": "new_game", "players": ["Ann"], "rules": "chess"},
        {"type": "resume_game", "game_id": "no-such-game"},
    ):
        response = client.post("/api/commands", json=command)
        assert response.status_code in (400, 409), (command, response.get_json())


# --- the admin calibration API over the real desk ---------------------------------------------------
class StillCamera:
    """The two things the desk needs of the camera loop for profile changes."""

    def __init__(self, profile) -> None:
        self.profile = profile

    def set_profile(self, profile) -> None:
        self.profile = profile

    def latest(self):
        return None


@pytest.fixture
def admin(tmp_path, password_file, clock):
    store = GameStore(tmp_path / "games.sqlite3")
    profiles = ProfileStore(tmp_path)
    session = TableSession(store, calibration=CalibrationDesk(profiles, StillCamera(profiles.load())))
    session.start()
    client = create_app(session, _config(password_file, clock)).test_client()
    token = client.get("/api/csrf").get_json()["token"]
    assert client.post("/admin/login", data={"password": PASSWORD, "csrf_token": token}).status_code == 302
    client.environ_base["HTTP_X_CSRF_TOKEN"] = client.get("/api/csrf").get_json()["token"]
    yield client
    session.close()
    store.close()


BAD_PROFILE_CHANGES = [
    {"nope": 1},
    {"tray": "everywhere"},
    {"tray": [0, 0, 1]},
    {"tray": [0.9, 0.9, 0.1, 0.1]},
    {"tray": [None, None, None, None]},
    {"die_size": "big"},
    {"die_size": -1},
    {"pip_polarity": 5},
    {"reader": [1]},
    {"reader": None},
    {"reader": {"min_area": HUGE * HUGE * HUGE * HUGE * HUGE * HUGE * HUGE * HUGE}},
    {"camera": 5},
    {"reader": {"not_a_parameter": 0.1}},
    {"reader": {"pip_contrast": 40}},
    {"camera": {"gain": "x"}},
    {"camera": {"exposure_us": -5}},
    {"camera": {"awb_gains": [1]}},
    {"camera": {"shutter": 100}},
    {"camera": {"frozen": "yes"}},
    {"version": "x"},
]


def test_bad_profile_changes_are_400_on_the_real_desk(admin):
    before = admin.get("/admin/api/calibration").get_json()
    for path in ("/admin/api/calibration", "/admin/api/calibration/import"):
        for change in BAD_PROFILE_CHANGES:
            response = admin.post(path, json=change)
            assert response.status_code == 400, (path, change, response.status_code, response.get_json())
            assert response.get_json()["error"]
    assert admin.get("/admin/api/calibration").get_json() == before


def test_export_then_import_round_trips_on_the_real_desk(admin):
    changed = admin.post("/admin/api/calibration", json={"tray": [0.1, 0.2, 0.9, 0.8]})
    assert changed.status_code == 200
    exported = admin.get("/admin/api/calibration/export")
    assert exported.status_code == 200
    profile = json.loads(exported.get_data(as_text=True))
    assert profile["tray"] == [0.1, 0.2, 0.9, 0.8]
    assert admin.post("/admin/api/calibration", json={"tray": [0.3, 0.3, 0.7, 0.7]}).status_code == 200
    imported = admin.post("/admin/api/calibration/import", json=profile)
    assert imported.status_code == 200
    assert imported.get_json()["profile"] == profile
    assert imported.get_json()["saved"] is False


@pytest.mark.parametrize(
    "body",
    [
        {"known_values": "33561"},
        {"known_values": [0]},
        {"known_values": [HUGE]},
        {"known_values": [True]},
        {"x": 1},
    ],
)
def test_bad_auto_calibration_bodies_are_400_on_the_real_desk(admin, body):
    response = admin.post("/admin/api/calibration/auto", json=body)
    assert response.status_code == 400 and response.get_json()["error"]


def test_without_frames_the_real_desk_refuses_actions_with_409(admin, monkeypatch):
    monkeypatch.setattr("device.calibration_desk.FRAME_WAIT_SECONDS", 0.0)
    for path in ("/admin/api/test-read", "/admin/api/calibration/auto"):
        response = admin.post(path, json={})
        assert response.status_code == 409 and "frame" in response.get_json()["error"]

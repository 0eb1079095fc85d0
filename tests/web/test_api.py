"""The JSON API: snapshots, CSRF refusals, and how good, illegal and malformed commands are answered."""

from __future__ import annotations

import pytest


def post(client, body, token, **kwargs):
    headers = {"X-CSRF-Token": token} if token else {}
    return client.post("/api/commands", json=body, headers=headers, **kwargs)


def test_state_is_the_snapshot_with_its_version(client, fake_table):
    fake_table.publish(game_id="g1")
    response = client.get("/api/state")
    assert response.status_code == 200
    assert response.get_json() == fake_table.snapshot()
    assert response.get_json()["version"] == 2
    assert response.headers["Cache-Control"] == "no-store"


def test_csrf_token_is_stable_within_a_browser_session(client):
    first = client.get("/api/csrf").get_json()["token"]
    assert len(first) >= 32
    assert client.get("/api/csrf").get_json()["token"] == first


def test_a_command_with_the_token_is_applied(client, csrf, fake_table):
    response = post(client, {"type": "sim_roll"}, csrf)
    assert response.status_code == 200
    assert response.get_json() == {"ok": True, "message": "done", "version": 2}
    assert fake_table.submitted == [{"type": "sim_roll"}]


@pytest.mark.parametrize("token", [None, "forged-token"])
def test_commands_without_the_right_token_are_refused(client, csrf, fake_table, token):
    response = post(client, {"type": "sim_roll"}, token)
    assert response.status_code == 403
    assert "CSRF" in response.get_json()["error"]
    assert fake_table.submitted == []


def test_a_browser_that_never_got_a_token_is_refused(client, fake_table):
    response = post(client, {"type": "sim_roll"}, "anything")
    assert response.status_code == 403
    assert "reload the page" in response.get_json()["error"]
    assert fake_table.submitted == []


def test_a_refused_command_is_409_with_the_reason(client, csrf):
    response = post(client, {"type": "undo"}, csrf)
    assert response.status_code == 409
    assert response.get_json()["message"] == "nothing to undo"


@pytest.mark.parametrize(
    ("data", "content_type", "reason"),
    [
        ("{not json", "application/json", "not valid JSON"),
        ("[1, 2]", "application/json", "JSON object"),
        ('"undo"', "application/json", "JSON object"),
        ('{"box": "fives"}', "application/json", '"type"'),
        ('{"type": 7}', "application/json", '"type"'),
        ("type=undo", "application/x-www-form-urlencoded", "Content-Type: application/json"),
    ],
)
def test_malformed_bodies_are_400_with_a_reason(client, csrf, fake_table, data, content_type, reason):
    response = client.post(
        "/api/commands", data=data, content_type=content_type, headers={"X-CSRF-Token": csrf}
    )
    assert response.status_code == 400
    assert reason in response.get_json()["error"]
    assert fake_table.submitted == []


def test_a_command_the_table_calls_malformed_is_400(client, csrf):
    response = post(client, {"type": "explode"}, csrf)
    assert response.status_code == 400
    assert response.get_json()["error"] == "unknown command type 'explode'"


def test_an_oversized_body_is_413_not_a_crash(client, csrf):
    response = post(client, {"type": "roll", "values": [1] * 200_000}, csrf)
    assert response.status_code == 413
    assert "error" in response.get_json()


def test_unknown_routes_and_methods_answer_json_under_api(client):
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404 and "error" in missing.get_json()
    wrong_method = client.get("/api/commands")
    assert wrong_method.status_code == 405 and "error" in wrong_method.get_json()


def test_a_bug_in_the_table_is_a_500_without_a_traceback(client, fake_table, monkeypatch):
    def broken() -> dict:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(fake_table, "snapshot", broken)
    response = client.get("/api/state")
    assert response.status_code == 500
    assert "secret internals" not in response.get_data(as_text=True)


def test_healthz_is_cheap_and_ok(client, fake_table, monkeypatch):
    monkeypatch.setattr(fake_table, "snapshot", None)  # must not be touched
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"ok": True}


def test_history_lists_games_and_players(client):
    history = client.get("/api/history").get_json()
    assert [game["id"] for game in history["games"]] == ["g1", "g0"]
    assert history["players"][0]["name"] == "Ann"


# --- against the real table session ---------------------------------------------------------------
def real_post(client, body):
    token = client.get("/api/csrf").get_json()["token"]
    return client.post("/api/commands", json=body, headers={"X-CSRF-Token": token})


def test_a_turn_through_the_api_on_the_real_session(real_client):
    started = real_post(real_client, {"type": "new_game", "players": ["Ann", "Bo"], "rules": "yatzy"})
    assert started.status_code == 200, started.get_json()
    assert real_post(real_client, {"type": "roll", "values": [3, 3, 5, 6, 1]}).status_code == 200
    assert real_post(real_client, {"type": "toggle_hold", "die": 0}).status_code == 200
    assert real_post(real_client, {"type": "roll", "values": [3, 3, 3, 5, 5], "held": [0]}).status_code == 200
    assert real_post(real_client, {"type": "score", "box": "full_house"}).status_code == 200
    game = real_client.get("/api/state").get_json()["game"]
    assert game["players"][0]["card"] == {"full_house": 19}
    assert game["current_player"] == 1


def test_illegal_and_malformed_commands_on_the_real_session(real_client):
    real_post(real_client, {"type": "new_game", "players": ["Ann"], "rules": "yatzy"})
    for _ in range(3):
        assert real_post(real_client, {"type": "roll", "values": [1, 2, 3, 4, 5]}).status_code == 200
    fourth = real_post(real_client, {"type": "roll", "values": [1, 2, 3, 4, 5]})
    assert fourth.status_code == 409
    assert "no rolls left" in fourth.get_json()["message"]
    before = real_client.get("/api/state").get_json()
    for bad in (
        {"type": "roll", "values": [1, 2, 3, 4, 5], "colour": "red"},
        {"type": "toggle_hold", "die": "first"},
        {"type": "teleport"},
        {"type": "new_game", "players": ["Ann"], "rules": 5},
    ):
        response = real_post(real_client, bad)
        assert response.status_code == 400, (bad, response.get_json())
        assert response.get_json()["error"]
    assert real_client.get("/api/state").get_json() == before  # malformed commands change nothing

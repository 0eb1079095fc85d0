"""The admin login: password check, slowed retries, cookie flags, logout and safe redirects."""

from __future__ import annotations

import pytest

from web import create_app
from web.auth import LoginThrottle

PASSWORD = "correct horse battery"  # the one tests/web/conftest.py hashes


def token(client) -> str:
    return client.get("/api/csrf").get_json()["token"]


def login(client, password, **extra):
    return client.post("/admin/login", data={"password": password, "csrf_token": token(client), **extra})


def test_admin_pages_need_a_login(client):
    page = client.get("/admin")
    assert page.status_code == 302 and page.headers["Location"].startswith("/admin/login")
    for path in ("/admin/api/status", "/admin/api/calibration", "/admin/stream.mjpg"):
        assert client.get(path).status_code == 401


def test_the_right_password_logs_in_with_a_strict_httponly_cookie(client):
    response = login(client, PASSWORD)
    assert response.status_code == 302 and response.headers["Location"] == "/admin"
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/admin").status_code == 200
    assert client.get("/admin/api/status").get_json()["camera"]["fps"] == 9.5


def test_logging_in_renews_the_csrf_token(client):
    before = token(client)
    login(client, PASSWORD)
    assert token(client) != before


def test_login_needs_the_csrf_token(client):
    token(client)
    response = client.post("/admin/login", data={"password": PASSWORD})
    assert response.status_code == 403
    assert "CSRF" in response.get_data(as_text=True)
    assert client.get("/admin").status_code == 302


def test_wrong_passwords_are_slowed_down_more_each_time(client, clock):
    first = login(client, "guess one")
    assert first.status_code == 401 and "Wrong password" in first.get_data(as_text=True)
    early = login(client, PASSWORD)  # even the right password waits its turn
    assert early.status_code == 429 and early.headers["Retry-After"] == "1"
    clock.now += 1.0
    assert login(client, "guess two").status_code == 401
    clock.now += 1.0
    assert login(client, PASSWORD).headers["Retry-After"] == "1"
    clock.now += 1.0
    assert login(client, PASSWORD).status_code == 302


def test_the_slowdown_is_bounded_and_forgotten_after_quiet(clock):
    throttle = LoginThrottle(clock=clock, base=1.0, cap=30.0, forget_after=900.0)
    delays = [throttle.failed("10.0.0.9") for _ in range(8)]
    assert delays == [1, 2, 4, 8, 16, 30, 30, 30]
    assert throttle.wait_seconds("10.0.0.9") == 30
    assert throttle.wait_seconds("10.0.0.8") == 0  # per client
    clock.now += 901
    assert throttle.wait_seconds("10.0.0.9") == 0
    assert throttle.failed("10.0.0.9") == 1


def test_the_throttle_remembers_a_bounded_number_of_clients(clock):
    throttle = LoginThrottle(clock=clock, max_clients=3)
    for client in ("a", "b", "c", "d"):
        throttle.failed(client)
    assert throttle.wait_seconds("a") == 0
    assert throttle.wait_seconds("d") == 1


def test_logout_needs_the_token_and_ends_the_admin_session(admin_client):
    assert admin_client.post("/admin/logout").status_code == 403
    response = admin_client.post("/admin/logout", data={"csrf_token": token(admin_client)})
    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert admin_client.get("/admin").status_code == 302


@pytest.mark.parametrize("target", ["https://example.com/", "//example.com", "/setup", "/admin/login"])
def test_login_never_redirects_away_from_the_admin_pages(client, target):
    response = login(client, PASSWORD, next=target)
    assert response.headers["Location"] == "/admin"


def test_login_returns_to_the_admin_page_that_was_asked_for(client):
    assert login(client, PASSWORD, next="/admin/api/status").headers["Location"] == "/admin/api/status"


def test_without_a_password_file_the_page_says_how_to_set_one(fake_table, tmp_path, clock):
    app = create_app(fake_table, {"SECRET_KEY": b"k" * 32, "ADMIN_PASSWORD_FILE": str(tmp_path / "none")})
    client = app.test_client()
    page = client.get("/admin/login").get_data(as_text=True)
    assert "pipkeeper set-admin-password" in page
    assert login(client, "").status_code == 401


def test_a_damaged_hash_file_refuses_logins_without_crashing(fake_table, tmp_path):
    damaged = tmp_path / "admin-password"
    damaged.write_text("not-a-hash\n")
    client = create_app(
        fake_table, {"SECRET_KEY": b"k" * 32, "ADMIN_PASSWORD_FILE": str(damaged)}
    ).test_client()
    assert login(client, PASSWORD).status_code == 401


def test_create_app_refuses_to_run_without_a_secret_key(fake_table):
    with pytest.raises(ValueError, match="SECRET_KEY"):
        create_app(fake_table, {})

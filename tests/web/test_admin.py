"""The admin API: calibration changes, actions, export/import, status and the MJPEG view."""

from __future__ import annotations

import json

import pytest

POST_ROUTES = [
    "/admin/api/calibration",
    "/admin/api/calibration/import",
    "/admin/api/calibration/save",
    "/admin/api/calibration/revert",
    "/admin/api/calibration/auto",
    "/admin/api/test-read",
]


def post(client, path, body=None):
    token = client.get("/api/csrf").get_json()["token"]
    return client.post(path, json={} if body is None else body, headers={"X-CSRF-Token": token})


@pytest.mark.parametrize("path", POST_ROUTES)
def test_every_admin_post_needs_the_csrf_token(admin_client, fake_table, path):
    response = admin_client.post(path, json={})
    assert response.status_code == 403
    assert fake_table.changes == [] and fake_table.auto_calls == []


@pytest.mark.parametrize("path", POST_ROUTES)
def test_every_admin_post_needs_a_login(client, fake_table, path):
    assert post(client, path).status_code == 401


def test_a_tray_drawn_on_the_view_is_applied_live(admin_client, fake_table):
    response = post(admin_client, "/admin/api/calibration", {"tray": [0.1, 0.2, 0.9, 0.8]})
    assert response.status_code == 200
    assert response.get_json()["profile"]["tray"] == [0.1, 0.2, 0.9, 0.8]
    assert response.get_json()["saved"] is False
    assert fake_table.changes == [{"tray": [0.1, 0.2, 0.9, 0.8]}]


def test_an_invalid_change_is_400_with_the_reason(admin_client, fake_table):
    response = post(admin_client, "/admin/api/calibration", {"tray": [0.1]})
    assert response.status_code == 400
    assert response.get_json()["error"] == "tray must be [x0, y0, x1, y1] as fractions of the frame"
    assert fake_table.changes == []


@pytest.mark.parametrize("body", ["[1, 2]", "{broken", "null"])
def test_change_bodies_must_be_json_objects(admin_client, body):
    token = admin_client.get("/api/csrf").get_json()["token"]
    response = admin_client.post(
        "/admin/api/calibration", data=body, content_type="application/json", headers={"X-CSRF-Token": token}
    )
    assert response.status_code == 400 and response.get_json()["error"]


def test_save_and_revert(admin_client, fake_table):
    post(admin_client, "/admin/api/calibration", {"pip_polarity": "dark"})
    assert post(admin_client, "/admin/api/calibration/save").get_json()["saved"] is True
    assert post(admin_client, "/admin/api/calibration/revert").status_code == 200


def test_export_downloads_the_profile_and_import_applies_it(admin_client, fake_table):
    exported = admin_client.get("/admin/api/calibration/export")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["Content-Disposition"]
    profile = json.loads(exported.get_data(as_text=True))
    assert profile == fake_table.profile
    imported = post(admin_client, "/admin/api/calibration/import", {**profile, "die_size": 0.07})
    assert imported.status_code == 200
    assert fake_table.changes[-1]["die_size"] == 0.07


def test_auto_calibration_with_and_without_known_values(admin_client, fake_table):
    assert post(admin_client, "/admin/api/calibration/auto").get_json() == {"die_size": 0.08}
    assert (
        post(admin_client, "/admin/api/calibration/auto", {"known_values": [3, 3, 5, 6, 1]}).status_code
        == 200
    )
    assert fake_table.auto_calls == [None, [3, 3, 5, 6, 1]]
    refused = post(admin_client, "/admin/api/calibration/auto", {"known_values": [6]})
    assert refused.status_code == 409 and refused.get_json()["error"] == "no dice in view"


@pytest.mark.parametrize(
    "body", [{"known_values": [7]}, {"known_values": "3 3 5"}, {"known_values": [True]}, {"values": [1]}]
)
def test_bad_known_values_are_400(admin_client, fake_table, body):
    assert post(admin_client, "/admin/api/calibration/auto", body).status_code == 400
    assert fake_table.auto_calls == []


def test_test_read_and_status(admin_client):
    assert post(admin_client, "/admin/api/test-read").get_json()["values"] == [3, 3, 5, 6, 1]
    assert admin_client.get("/admin/api/status").get_json()["gpio"] == {"pin_factory": "mock"}
    assert admin_client.get("/admin/api/calibration").get_json()["parameters"] == {
        "min_area": {"default": 10}
    }


def test_the_mjpeg_stream_sends_each_frame_as_a_jpeg_part(admin_client, fake_table):
    fake_table.frames = [b"\xff\xd8first\xff\xd9", b"\xff\xd8second\xff\xd9"]
    response = admin_client.get("/admin/stream.mjpg", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "multipart/x-mixed-replace"
    assert response.mimetype_params["boundary"] == "frame"
    parts = iter(response.response)
    first, second = next(parts), next(parts)
    response.close()
    assert first == (
        b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: 9\r\n\r\n\xff\xd8first\xff\xd9\r\n"
    )
    assert second.endswith(b"\xff\xd8second\xff\xd9\r\n")


def test_the_mjpeg_stream_repeats_the_last_frame_while_the_camera_is_quiet(fake_table):
    from web.mjpeg import mjpeg_parts

    fake_table.frames = [b"only"]
    parts = mjpeg_parts(fake_table, min_interval=0.0, idle_timeout=0.0)
    assert next(parts) == next(parts)


def test_the_mjpeg_stream_skips_empty_frames(fake_table):
    from web.mjpeg import mjpeg_parts

    fake_table.frames = [b"", b"", b"picture"]
    assert next(mjpeg_parts(fake_table, min_interval=0.0)).endswith(b"picture\r\n")


def test_the_mjpeg_stream_sends_at_most_one_frame_per_interval(fake_table):
    from web.mjpeg import mjpeg_parts

    fake_table.frames = [b"a", b"b", b"c"]
    naps: list[float] = []
    now = iter([0.0, 0.02, 1.0, 1.03, 2.0, 2.0])
    parts = mjpeg_parts(fake_table, min_interval=0.1, clock=lambda: next(now), sleep=naps.append)
    for _ in range(3):
        next(parts)
    assert naps == pytest.approx([0.08, 0.07])


def test_without_a_camera_the_real_session_refuses_calibration_clearly(real_client, password_file):
    token = real_client.get("/api/csrf").get_json()["token"]
    real_client.post("/admin/login", data={"password": "correct horse battery", "csrf_token": token})
    response = real_client.get("/admin/api/calibration")
    assert response.status_code == 409
    assert "no camera" in response.get_json()["error"]
    assert post(real_client, "/admin/api/test-read").status_code == 409

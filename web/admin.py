"""The admin pages: login, the live camera view and the calibration API, all behind one password.

Calibration changes take effect on the live view at once and are kept only when the maker presses Save;
Revert goes back to the last saved profile. Export and import move a profile between tables as JSON.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from web.api import json_object_body
from web.auth import SESSION_KEY, login_required, password_hash, password_matches, throttle
from web.context import table
from web.csrf import rotate_csrf_token
from web.mjpeg import mjpeg_response

bp = Blueprint("admin", __name__, url_prefix="/admin")

EXPORT_FILENAME = "pipkeeper-calibration.json"
# What a profile change made of the maker's own JSON may raise: all of it is bad input (400), never a 500.
# (Validation lives in vision.profile; a wrong type or a number too large for a float must not slip past.)
INPUT_ERRORS: tuple[type[Exception], ...] = (ValueError, TypeError, OverflowError)


# --- login ------------------------------------------------------------------------------------
@bp.get("/login")
def login() -> str:
    return render_template("login.html", **_login_context())


@bp.post("/login")
def login_submit() -> Response | tuple[str, int, dict[str, str]] | tuple[str, int]:
    client = request.remote_addr or "unknown"
    wait = throttle().wait_seconds(client)
    if wait > 0:
        seconds = math.ceil(wait)
        message = f"Too many wrong passwords: wait {seconds} s before trying again."
        return (
            render_template("login.html", error=message, **_login_context()),
            429,
            {"Retry-After": str(seconds)},
        )
    password = request.form.get("password", "")
    if not password_matches(current_app.config.get("ADMIN_PASSWORD_FILE"), password):
        delay = throttle().failed(client)
        message = f"Wrong password. The next try is possible in {math.ceil(delay)} s."
        return render_template("login.html", error=message, **_login_context()), 401
    throttle().succeeded(client)
    session[SESSION_KEY] = True
    rotate_csrf_token()
    return redirect(_safe_next(request.form.get("next")))


@bp.post("/logout")
def logout() -> Response:
    session.pop(SESSION_KEY, None)
    rotate_csrf_token()
    return redirect(url_for("pages.scorecard"))


def _login_context() -> dict[str, object]:
    return {
        "password_set": password_hash(current_app.config.get("ADMIN_PASSWORD_FILE")) is not None,
        "next": _safe_next(request.values.get("next")),
    }


def _safe_next(target: str | None) -> str:
    """Only ever return to an admin page of this site, never to an address an attacker chose."""
    if target and target.startswith("/admin") and not target.startswith("/admin/login"):
        return target
    return url_for("admin.page")


# --- pages and streams ------------------------------------------------------------------------
@bp.get("")
@login_required
def page() -> str:
    return render_template("admin.html")


@bp.get("/stream.mjpg")
@login_required
def stream() -> Response:
    return mjpeg_response(table(), current_app.config["MJPEG_MIN_INTERVAL"])


# --- JSON API ---------------------------------------------------------------------------------
@bp.get("/api/status")
@login_required
def status() -> Response:
    return jsonify(table().status())


@bp.get("/api/calibration")
@login_required
def calibration() -> Response:
    return _checked(table().calibration, status=409)


@bp.post("/api/calibration")
@bp.post("/api/calibration/import")
@login_required
def update_calibration() -> Response:
    """Body: the profile fields to change, e.g. {"tray": [0.1, 0.1, 0.9, 0.9]} or {"reader": {...}}; an import
    is a whole exported profile. Either is applied live like any change and kept only after Save."""
    return _checked(table().update_calibration, json_object_body(), refuse=INPUT_ERRORS)


@bp.get("/api/calibration/export")
@login_required
def export_calibration() -> Response:
    profile = _checked(table().calibration, status=409).get_json()["profile"]
    return Response(
        json.dumps(profile, indent=2, sort_keys=True) + "\n",
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{EXPORT_FILENAME}"'},
    )


@bp.post("/api/calibration/save")
@login_required
def save_calibration() -> Response:
    return _checked(table().save_calibration, status=409)


@bp.post("/api/calibration/revert")
@login_required
def revert_calibration() -> Response:
    return _checked(table().revert_calibration, status=409)


@bp.post("/api/calibration/auto")
@login_required
def auto_calibrate() -> Response:
    """Body: {} to calibrate from what the camera sees, or {"known_values": [3, 3, 5, 6, 1]}."""
    body = json_object_body()
    unknown = set(body) - {"known_values"}
    if unknown:
        abort(400, description=f"Unknown field(s): {', '.join(sorted(unknown))}.")
    known = body.get("known_values")
    if known is not None and not _are_die_values(known):
        abort(400, description="known_values must be a list of whole numbers from 1 to 6.")
    return _checked(table().auto_calibrate, known, status=409)


@bp.post("/api/test-read")
@login_required
def test_read() -> Response:
    return _checked(table().test_read, status=409)


def _are_die_values(values: object) -> bool:
    return (
        isinstance(values, list)
        and 0 < len(values) <= 6
        and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values)
    )


def _checked(
    action: Callable[..., Any],
    *args: Any,
    status: int = 400,
    refuse: tuple[type[Exception], ...] = (ValueError,),
) -> Response:
    """Run a calibration action; its ValueError becomes a clear refusal: 400 when the maker's input was
    wrong, 409 when the table cannot do it now (no camera, no dice in view)."""
    try:
        return jsonify(action(*args))
    except refuse as error:
        abort(status, description=str(error) or "That calibration change is not valid.")

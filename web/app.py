"""The Flask application factory: one app per table session, configured from outside.

`create_app(table, config)` is all `pipkeeper run` needs: the table is any `web.port.TablePort`, and the
config carries SECRET_KEY (bytes, from the state directory) and ADMIN_PASSWORD_FILE (the hash file written
by `pipkeeper set-admin-password`). Tests pass a fake table, a temp password file and a fake clock.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from web import admin, api, csrf, pages
from web.auth import THROTTLE_KEY, LoginThrottle
from web.context import EXTENSION_KEY
from web.port import TablePort

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "SESSION_COOKIE_NAME": "pipkeeper_session",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "MAX_CONTENT_LENGTH": 256 * 1024,  # commands and profiles are a few kB; refuse anything far larger
    "SSE_KEEPALIVE_SECONDS": 15.0,
    "MJPEG_MIN_INTERVAL": 0.1,  # at most about 10 frames a second per admin viewer
    "LOGIN_CLOCK": None,  # a callable returning seconds; tests inject one so nobody sleeps
}


def create_app(table: TablePort, config: Mapping[str, Any]) -> Flask:
    if not config.get("SECRET_KEY"):
        raise ValueError("create_app needs a SECRET_KEY (see device.admin_secrets.load_or_create_secret_key)")
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config)
    app.json.sort_keys = False  # keep the engine's box order in snapshots
    app.extensions[EXTENSION_KEY] = table
    clock = app.config["LOGIN_CLOCK"]
    app.extensions[THROTTLE_KEY] = LoginThrottle(clock=clock) if clock else LoginThrottle()
    csrf.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(admin.bp)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected_error)
    return app


def _wants_json() -> bool:
    return request.path.startswith(("/api/", "/admin/api/")) or request.is_json


def _http_error(error: HTTPException) -> Any:
    """Every refusal says why, as JSON for the API and as a small page for people."""
    message = error.description or error.name
    if _wants_json():
        return jsonify(error=message, status=error.code), error.code
    return render_template("error.html", code=error.code, title=error.name, message=message), error.code


def _unexpected_error(error: Exception) -> Any:
    """A bug, not bad input: log the traceback, answer 500 without leaking it."""
    log.exception("unexpected error on %s %s", request.method, request.path)
    return _http_error(InternalServerError())

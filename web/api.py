"""The JSON API the pages use: read the snapshot, follow it live, and submit commands.

`POST /api/commands` takes one command object. The session decides what it means; this layer only makes
sure it is a JSON object with a string `type` and maps the outcome to HTTP: 200 applied, 409 refused by
the rules (with the engine's message), 400 malformed. The CSRF token is checked before any of this runs.
"""

from __future__ import annotations

import json
import math
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request

from web.context import table
from web.csrf import csrf_token
from web.port import MalformedCommand
from web.sse import event_stream_response

bp = Blueprint("api", __name__)


@bp.get("/api/state")
def state() -> Response:
    response = jsonify(table().snapshot())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/csrf")
def csrf() -> Response:
    return jsonify(token=csrf_token())


@bp.get("/api/events")
def events() -> Response:
    return event_stream_response(table(), current_app.config["SSE_KEEPALIVE_SECONDS"])


@bp.get("/api/history")
def history() -> Response:
    return jsonify(table().history())


@bp.post("/api/commands")
def commands() -> tuple[Response, int]:
    command = json_object_body()
    if not isinstance(command.get("type"), str):
        abort(400, description='A command needs a "type" string, e.g. {"type": "undo"}.')
    try:
        result = table().submit(command)
    except ValueError as error:  # MalformedCommand, or a ValueError the engine raised for the same reason
        abort(400, description=str(error) or MalformedCommand.__doc__)
    body = {"ok": result.ok, "message": result.message, "version": result.version}
    return jsonify(body), (200 if result.ok else 409)


@bp.get("/healthz")
def healthz() -> Response:
    """For the watchdog's self-check: proves a web thread answers, without touching the table."""
    return jsonify(ok=True)


def json_object_body() -> dict[str, Any]:
    """The request body as a JSON object, or a 400 saying what is wrong with it.

    Parsed here rather than by `request.get_json` so that what Python's json module tolerates but JSON
    does not (NaN, Infinity, numbers too large for a float) and what would exhaust the parser (arrays
    nested thousands deep) are refused as bad input instead of reaching the table or becoming a 500.
    """
    if not request.is_json:
        abort(400, description="Send the body as JSON (Content-Type: application/json).")
    try:
        body = json.loads(
            request.get_data(cache=True).decode("utf-8"),
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
        )
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        abort(400, description="The body is not valid JSON.")
    if not isinstance(body, dict):
        abort(400, description="The body must be a JSON object.")
    return body


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text} is too large a number")
    return number

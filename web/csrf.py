"""Cross-site request forgery protection: every state-changing request carries a token from our own page.

The token lives in the signed Flask session (so nothing is stored server side) and is embedded in each page
(`<meta name="csrf-token">`) or fetched from `GET /api/csrf`. A POST must echo it in the `X-CSRF-Token`
header or the `csrf_token` form field; anything else is refused with 403 before any handler runs.
Together with the SameSite=Strict cookie this keeps other sites from driving the table.
"""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, abort, request, session

SESSION_KEY = "csrf_token"
HEADER = "X-CSRF-Token"
FORM_FIELD = "csrf_token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def csrf_token() -> str:
    """This browser's token, created on first use."""
    token = session.get(SESSION_KEY)
    if not isinstance(token, str) or not token:
        token = secrets.token_urlsafe(32)
        session[SESSION_KEY] = token
    return token


def rotate_csrf_token() -> str:
    """A fresh token, e.g. after logging in, so a token seen before login is worth nothing after."""
    session.pop(SESSION_KEY, None)
    return csrf_token()


def init_app(app: Flask) -> None:
    app.before_request(_refuse_without_token)
    app.jinja_env.globals["csrf_token"] = csrf_token


def _refuse_without_token() -> None:
    if request.method in SAFE_METHODS:
        return
    expected = session.get(SESSION_KEY)
    given = request.headers.get(HEADER) or _form_token()
    if not isinstance(expected, str) or not expected:
        abort(403, description="No CSRF token in this browser session: reload the page and try again.")
    if not given or not hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8")):
        abort(403, description="Missing or wrong CSRF token: reload the page and try again.")


def _form_token() -> str | None:
    """The form field, read only from form posts so a JSON body is never parsed twice."""
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        return request.form.get(FORM_FIELD)
    return None

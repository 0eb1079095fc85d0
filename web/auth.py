"""The admin login: one password, stored as a salted hash, with failed attempts slowed down per client.

The password is set on the device with `pipkeeper set-admin-password`; the web app only reads the hash
file named by the ADMIN_PASSWORD_FILE config key. Wrong passwords are slowed by a growing, bounded delay
per client address: a client that failed must wait before its next attempt is even checked (HTTP 429
with Retry-After). Refusing early instead of sleeping keeps waitress's threads free for the tablets.
"""

from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from flask import current_app, jsonify, redirect, request, session, url_for
from werkzeug.security import check_password_hash

SESSION_KEY = "admin"
THROTTLE_KEY = "pipkeeper.login_throttle"

F = TypeVar("F", bound=Callable[..., Any])


def password_hash(path: str | Path | None) -> str | None:
    """The stored hash, or None when no password has been set yet (or the file cannot be read)."""
    if not path:
        return None
    try:
        text = Path(path).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return text or None


def password_matches(path: str | Path | None, password: str) -> bool:
    stored = password_hash(path)
    if stored is None:
        return False
    try:
        return check_password_hash(stored, password)
    except ValueError:  # a damaged hash file: treat as "no match" rather than crashing the login page
        return False


@dataclass
class _Failures:
    count: int
    not_before: float
    last: float


class LoginThrottle:
    """Per-client delays after failed logins: base * 2**(failures-1), at most `cap` seconds.

    Failures are forgotten after `forget_after` seconds of quiet, and only the `max_clients` most recent
    clients are remembered, so a flood of addresses cannot grow memory without bound.
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        base: float = 1.0,
        cap: float = 30.0,
        forget_after: float = 900.0,
        max_clients: int = 1024,
    ) -> None:
        self._clock = clock
        self._base = base
        self._cap = cap
        self._forget_after = forget_after
        self._max_clients = max_clients
        self._clients: OrderedDict[str, _Failures] = OrderedDict()
        self._lock = threading.Lock()

    def wait_seconds(self, client: str) -> float:
        """How long `client` must still wait before its next attempt is checked (0 = go ahead)."""
        now = self._clock()
        with self._lock:
            failures = self._current(client, now)
            return max(0.0, failures.not_before - now) if failures else 0.0

    def failed(self, client: str) -> float:
        """Record a wrong password; returns the delay now imposed on this client."""
        now = self._clock()
        with self._lock:
            failures = self._current(client, now)
            count = failures.count + 1 if failures else 1
            delay = min(self._cap, self._base * 2 ** (count - 1))
            self._clients[client] = _Failures(count, now + delay, now)
            self._clients.move_to_end(client)
            while len(self._clients) > self._max_clients:
                self._clients.popitem(last=False)
            return delay

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._clients.pop(client, None)

    def _current(self, client: str, now: float) -> _Failures | None:
        failures = self._clients.get(client)
        if failures and now - failures.last > self._forget_after:
            del self._clients[client]
            return None
        return failures


def throttle() -> LoginThrottle:
    return current_app.extensions[THROTTLE_KEY]


def is_admin() -> bool:
    return session.get(SESSION_KEY) is True


def login_required(view: F) -> F:
    """Pages redirect to the login page; JSON and stream endpoints answer 401."""

    @functools.wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if is_admin():
            return view(*args, **kwargs)
        if request.path.startswith("/admin/api/") or request.path.endswith(".mjpg"):
            return jsonify(error="Log in to the admin page first."), 401
        return redirect(url_for("admin.login", next=request.path))

    return guarded  # type: ignore[return-value]

"""Tell systemd how the appliance is doing: ready, status line, watchdog pings, stopping.

The unit is `Type=notify` with `WatchdogSec=`: systemd waits for READY=1 before calling the service started,
and restarts it when the WATCHDOG=1 pings stop. The protocol is one datagram of `KEY=value` lines to the
socket named in $NOTIFY_SOCKET, so a few lines of the standard library do it (no libsystemd binding to
install). Outside systemd every call is a silent no-op, so `pipkeeper run` behaves the same on a laptop.

`WatchdogPinger` pings only while every health check passes. A thread that pinged unconditionally would
keep a service with a hung camera "alive" forever; tying the ping to "a frame arrived recently" and
"the web server answers" turns a hang into a restart.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Mapping, Sequence

log = logging.getLogger(__name__)

HealthCheck = Callable[[], bool]


class SystemdNotifier:
    """Sends sd_notify messages to the socket systemd gave us, if any."""

    def __init__(self, environ: Mapping[str, str] | None = None, pid: int | None = None) -> None:
        env = os.environ if environ is None else environ
        self._address = _socket_address(env.get("NOTIFY_SOCKET", ""))
        self._watchdog_seconds = _watchdog_seconds(env, os.getpid() if pid is None else pid)
        self._send_failed = False

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a notify socket."""
        return self._address is not None

    def ready(self) -> bool:
        return self.notify("READY=1")

    def status(self, text: str) -> bool:
        """Set the one-line status `systemctl status pipkeeper` shows."""
        return self.notify("STATUS=" + " ".join(text.split()))

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def watchdog_interval(self) -> float | None:
        """Seconds systemd waits between pings before restarting us; None when no watchdog is set for us."""
        return self._watchdog_seconds

    def notify(self, *fields: str) -> bool:
        """Send one message; False (and one warning in the log) if it could not be delivered."""
        if self._address is None:
            return False
        message = "\n".join(fields).encode("utf-8")
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message, self._address)
        except OSError as error:
            if not self._send_failed:
                log.warning("cannot reach systemd's notify socket: %s", error)
                self._send_failed = True
            return False
        return True


class WatchdogPinger:
    """A daemon thread that sends WATCHDOG=1 every `interval` seconds, only while every check passes.

    `interval` defaults to half of systemd's watchdog timeout, the margin sd_watchdog_enabled(3)
    recommends. A check that raises counts as failed.
    """

    def __init__(
        self,
        notifier: SystemdNotifier,
        checks: Sequence[HealthCheck],
        interval: float | None = None,
    ) -> None:
        timeout = notifier.watchdog_interval()
        self.interval = interval if interval is not None else (timeout / 2 if timeout else None)
        self._notifier = notifier
        self._checks = tuple(checks)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failing: str | None = None

    def start(self) -> bool:
        """Start pinging; False when there is no watchdog to ping (not under systemd, or none set)."""
        if self.interval is None or not self._notifier.enabled or self._thread is not None:
            return False
        self._thread = threading.Thread(target=self._run, name="watchdog-pinger", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def ping_if_healthy(self) -> bool:
        """Run the checks once; ping and return True only if all of them pass."""
        failing = self._first_failing_check()
        if failing != self._failing:
            if failing is None:
                log.info("health checks pass again: watchdog pings resume")
            else:
                log.warning("health check %s failed: withholding watchdog pings", failing)
            self._failing = failing
        return failing is None and self._notifier.watchdog()

    def _first_failing_check(self) -> str | None:
        for check in self._checks:
            name = getattr(check, "__name__", type(check).__name__)
            try:
                passed = bool(check())
            except Exception:
                log.exception("health check %s raised", name)
                passed = False
            if not passed:
                return name
        return None

    def _run(self) -> None:
        assert self.interval is not None
        while not self._stop.wait(self.interval):
            self.ping_if_healthy()


def _socket_address(value: str) -> str | bytes | None:
    """$NOTIFY_SOCKET as a socket address: '@name' is Linux's abstract namespace (a leading NUL byte)."""
    if value.startswith("@"):
        return b"\0" + value[1:].encode("utf-8")
    if value.startswith("/"):
        return value
    return None


def _watchdog_seconds(env: Mapping[str, str], pid: int) -> float | None:
    """$WATCHDOG_USEC in seconds, unless $WATCHDOG_PID says the watchdog belongs to another process."""
    watchdog_pid = env.get("WATCHDOG_PID")
    if watchdog_pid and watchdog_pid != str(pid):
        return None
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 1_000_000 if usec > 0 else None

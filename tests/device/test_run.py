"""`pipkeeper run --sim` as a real process: serves on loopback, plays through the API, stops on SIGTERM."""

from __future__ import annotations

import http.cookiejar
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import termios
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from device.commands.run import health_url
from device.keyboard import KeyReader, in_foreground

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30


def start(tmp_path: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "device", "run", "--state-dir", str(tmp_path / "state"), *extra],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def stop_cleanly(process: subprocess.Popen) -> None:
    """SIGTERM, as systemd stops the service: pipkeeper must exit by itself with status 0."""
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=START_TIMEOUT) == 0


def reap(process: subprocess.Popen) -> None:
    """Kill a pipkeeper a failed test left running, so no stray server outlives the test."""
    if process.poll() is None:
        process.kill()
        process.wait()


def address_of(process: subprocess.Popen) -> str:
    for line in process.stdout:
        found = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        if found:
            return found.group(1)
    raise AssertionError(f"pipkeeper exited with {process.wait()} before printing its address")


class Client:
    """A browser-like client: keeps the session cookie and sends the CSRF token with every POST."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.token = self.get("api/csrf")["token"]

    def get(self, path: str) -> dict:
        with self.opener.open(self.base + path, timeout=10) as response:
            return json.load(response)

    def post(self, command: dict) -> dict:
        request = urllib.request.Request(
            self.base + "api/commands",
            data=json.dumps(command).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": self.token},
        )
        with self.opener.open(request, timeout=10) as response:
            return json.load(response)


@pytest.fixture
def running(tmp_path):
    process = start(tmp_path, "--sim", "--host", "127.0.0.1", "--port", "0")
    try:
        yield process, address_of(process)
    finally:
        reap(process)
        process.stdout.close()


def test_serves_the_simulated_table_and_stops_cleanly_on_sigterm(running):
    process, base = running
    client = Client(base)
    with urllib.request.urlopen(base, timeout=10) as page:
        assert page.status == 200
    assert client.post({"type": "new_game", "players": ["Ann", "Bob"]})["ok"]
    state = client.get("api/state")
    assert state["game"]["rules"] == "yatzy" and state["table"]["sim"] is True
    assert client.post({"type": "roll", "values": [2, 2, 3, 4, 5]})["ok"]
    assert client.post({"type": "press", "button": "select"})["ok"]
    assert client.get("api/state")["game"]["current_name"] == "Bob"

    stop_cleanly(process)
    assert "stopping" in process.stdout.read()


def test_a_bad_config_is_refused_with_the_key_named(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[web]\nport = 'eighty'\n")
    process = start(tmp_path, "--sim", "--config", str(config))
    output, _ = process.communicate(timeout=START_TIMEOUT)
    assert process.returncode == 2
    assert "web.port" in output


def test_the_r_key_in_the_terminal_rolls_the_simulated_tray(tmp_path):
    """pipkeeper in the foreground of a terminal (a pty here): R rolls, and the camera counts the roll."""
    master, slave = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "device", "run", "--sim", "--host", "127.0.0.1", "--port", "0"]
        + ["--state-dir", str(tmp_path / "state")],
        cwd=ROOT,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        preexec_fn=lambda: os.login_tty(slave),  # the pty becomes its controlling terminal, it the foreground
        close_fds=True,
    )
    os.close(slave)
    output = io.TextIOWrapper(os.fdopen(master, "rb", buffering=0), errors="replace")
    try:
        base = None
        for line in output:
            found = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
            if found:
                base = found.group(1)
            if "press R" in line:
                break
        assert base, "pipkeeper never printed its address"
        client = Client(base)
        assert client.post({"type": "new_game", "players": ["Ann"]})["ok"]
        os.write(master, b"r")
        for line in output:
            if "rolling" in line or "start a game" in line:
                break
        assert "rolling" in line
        deadline = time.monotonic() + START_TIMEOUT
        while client.get("api/state")["game"]["rolls_used"] == 0:
            assert time.monotonic() < deadline, "the camera never counted the roll"
            time.sleep(0.1)
        stop_cleanly(process)
    finally:
        reap(process)
        output.close()


def test_keys_are_read_one_at_a_time_and_the_terminal_is_restored():
    master, slave = os.openpty()
    keys: list[str] = []
    got_two = threading.Event()
    before = termios.tcgetattr(slave)
    with os.fdopen(slave, "rb", buffering=0) as stream:

        def on_key(key: str) -> None:
            keys.append(key)
            if len(keys) == 2:
                got_two.set()

        reader = KeyReader(on_key, stream)
        assert not termios.tcgetattr(slave)[3] & termios.ECHO  # cbreak: no echo, no waiting for Enter
        os.write(master, b"rR")  # two quick keys: neither waits for a third
        assert got_two.wait(5)
        reader.close()
        assert termios.tcgetattr(slave) == before
    os.close(master)
    assert keys == ["r", "R"]


def test_no_key_reader_without_a_terminal_in_the_foreground():
    assert not in_foreground(io.StringIO())
    with open(os.devnull) as devnull:
        assert not in_foreground(devnull)


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="this machine has no IPv6 loopback")
@pytest.mark.parametrize("host", ["::1", "::"])
def test_the_watchdog_is_pinged_when_serving_on_ipv6(tmp_path, host):
    """On an IPv6 address the server's own health check must reach it, or systemd restarts it forever.

    waitress listens on "::" for IPv6 only (IPV6_V6ONLY), so 127.0.0.1 does not reach it; ::1 does.
    """
    name = f"pipkeeper-test-{os.getpid()}-{time.monotonic_ns()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(b"\0" + name.encode())  # an abstract socket, as systemd's "@name" NOTIFY_SOCKET
        notify.settimeout(START_TIMEOUT)
        process = subprocess.Popen(
            [sys.executable, "-m", "device", "run", "--sim", "--host", host, "--port", "0"]
            + ["--state-dir", str(tmp_path / "state")],
            cwd=ROOT,
            env={**os.environ, "NOTIFY_SOCKET": "@" + name, "WATCHDOG_USEC": "400000"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            messages: list[str] = []
            while "WATCHDOG=1" not in messages:
                try:
                    messages += notify.recv(4096).decode().splitlines()
                except TimeoutError:
                    pytest.fail(f"no watchdog ping while serving on {host}; systemd heard {messages}")
            assert "READY=1" in messages
            stop_cleanly(process)
        finally:
            reap(process)


@pytest.mark.parametrize(
    ("host", "url"),
    [
        ("127.0.0.1", "http://127.0.0.1:8080/healthz"),
        ("0.0.0.0", "http://127.0.0.1:8080/healthz"),
        ("", "http://127.0.0.1:8080/healthz"),
        ("::1", "http://[::1]:8080/healthz"),
        ("::", "http://[::1]:8080/healthz"),
        ("fd00::5", "http://[fd00::5]:8080/healthz"),
        ("table.local", "http://table.local:8080/healthz"),
    ],
)
def test_the_health_check_url_brackets_ipv6_addresses(host, url):
    assert health_url(host, 8080) == url

"""A real appliance on loopback for the browser tests: `pipkeeper run --sim` as a subprocess, and Chromium.

The server runs the whole table (simulated tray -> real reader -> session -> store) in its own process,
exactly as `make run` does; the admin password is set first through `pipkeeper set-admin-password` on stdin.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ADMIN_PASSWORD = "e2e admin passphrase"
START_TIMEOUT = 60.0


def pipkeeper(*args: str) -> list[str]:
    return [sys.executable, "-m", "device", *args]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The base URL of a running simulated table; stopped with SIGTERM like systemd would."""
    state_dir = tmp_path_factory.mktemp("state")
    subprocess.run(
        pipkeeper("set-admin-password", "--state-dir", str(state_dir)),
        input=ADMIN_PASSWORD + "\n",
        text=True,
        check=True,
        cwd=REPO,
        capture_output=True,
        timeout=60,
    )
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        pipkeeper("run", "--sim", "--host", "127.0.0.1", "--port", "0", "--state-dir", str(state_dir)),
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    found: list[str] = []
    started = threading.Event()

    def watch_output() -> None:
        for line in process.stdout:
            match = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
            if match and not found:
                found.append(match.group(1))
                started.set()
        started.set()

    threading.Thread(target=watch_output, daemon=True).start()
    if not started.wait(START_TIMEOUT) or not found:
        process.kill()
        pytest.fail("pipkeeper run --sim did not print its address")
    yield found[0]
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="session")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def tablet(server, browser):
    """A tablet-sized page open on /setup, and a `post(command)` that sends with this page's CSRF token."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{server}/setup")
    token = page.request.get(f"{server}/api/csrf").json()["token"]

    def post(command: dict):
        return page.request.post(f"{server}/api/commands", data=command, headers={"X-CSRF-Token": token})

    yield page, post
    context.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS

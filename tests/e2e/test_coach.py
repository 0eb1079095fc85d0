"""The coach in headless Chromium against `pipkeeper run --sim`: the switch in a player's column turns on
the hints, and the dice to keep are outlined once the advisor table is ready (the 'forced' rules' table
builds in under a second, so the test sees the background build finish)."""

from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.browser

HINT_TIMEOUT = 60_000  # ms: the table is built in a child process on first use


def quiet_table(page, server: str, quiet_for: float = 1.0, give_up: float = 20.0) -> None:
    """Wait until no dice moved or changed for `quiet_for` seconds (or `give_up` passed)."""
    last, since, end = None, time.monotonic(), time.monotonic() + give_up
    while time.monotonic() < end:
        snap = page.request.get(f"{server}/api/state").json()
        game = snap.get("game") or {}
        seen = (snap.get("game_id"), game.get("dice"), game.get("rolls_used"))
        if seen != last or (snap.get("table") or {}).get("moving"):
            last, since = seen, time.monotonic()
        elif time.monotonic() - since >= quiet_for:
            return
        time.sleep(0.1)


def test_switching_the_coach_on_outlines_the_dice_to_keep(server, tablet, artifacts):
    page, post = tablet
    quiet_table(page, server)  # a throw of an earlier test still landing would become a roll of this game
    assert post({"type": "new_game", "players": ["Eve", "Flo"], "rules": "forced"}).ok
    post({"type": "roll", "values": [1, 6, 1, 3, 4]})  # the simulated camera may have rolled first (409)
    assert post({"type": "correct", "values": [1, 6, 1, 3, 4]}).ok
    quiet_table(page, server)
    game = page.request.get(f"{server}/api/state").json()["game"]
    assert game["dice"] == [1, 6, 1, 3, 4] and game["held"] == [], game["log"][-4:]

    page.goto(f"{server}/")
    toggle = page.locator('button.coach-toggle[data-player="0"]')
    toggle.wait_for(state="visible")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.locator(".die-slot.coach-keep").count() == 0
    toggle.click()
    page.wait_for_function(
        "() => document.querySelectorAll('.die-slot.coach-keep').length === 2", timeout=HINT_TIMEOUT
    )
    kept = [
        int(i)
        for i in page.locator(".die-slot.coach-keep .die").evaluate_all("ds => ds.map(d => d.dataset.index)")
    ]
    assert kept == [0, 2]
    assert page.locator('button.coach-toggle[data-player="0"]').get_attribute("aria-pressed") == "true"
    line = page.locator("#coach-line").inner_text()
    assert "keep 1 1" in line and "solitaire" in line
    assert page.locator("td.coach-best button.score[data-box='ones']").count() == 1
    page.screenshot(path=str(artifacts / "coach-keep-1024x768.png"))

"""The scorecard's marks and its life cycle in headless Chromium, driven by snapshots the test writes.

The page comes from the real server, but `/api/state` and `/api/events` are answered by the test with
snapshots made by the real engine plus the `table` fields the session adds, so every mark can be shown
on purpose: a low-confidence die, the GPIO cursor box, a pending scratch, the warning line, bonus
progress, the final ranking; and so the page's own behaviour can be watched: it re-fetches `/api/state`
after the event stream reconnects, and holds a screen wake lock only while a game is running.
"""

from __future__ import annotations

import json
import threading

import pytest

from scoring.game import Game
from vision.reading import ASK_BELOW

pytestmark = pytest.mark.browser

# navigator.wakeLock as the page sees it, counting requests and releases (headless Chromium may refuse
# the real one, and the test wants to know what the page asked for).
WAKE_LOCK_PROBE = """
window.__wake = { requests: 0, releases: 0, active: false };
Object.defineProperty(navigator, "wakeLock", {
  configurable: true,
  value: {
    request: async (type) => {
      if (type !== "screen") throw new TypeError("only screen locks");
      window.__wake.requests += 1;
      window.__wake.active = true;
      const lock = new EventTarget();
      lock.release = async () => {
        window.__wake.releases += 1;
        window.__wake.active = false;
        lock.dispatchEvent(new Event("release"));
      };
      return lock;
    },
  },
});
"""


def game_in_progress() -> dict:
    """Ann and Bo, a few boxes filled, Ann's first roll of round 2 on the table."""
    game = Game(["Ann", "Bo"], "yatzy")
    for command in (
        {"type": "roll", "values": [3, 3, 3, 1, 2]},
        {"type": "score", "box": "threes"},
        {"type": "roll", "values": [6, 6, 6, 6, 1]},
        {"type": "score", "box": "sixes"},
        {"type": "roll", "values": [5, 5, 5, 2, 6]},
    ):
        game.apply(command)
    return game.snapshot()


def finished_game() -> dict:
    """A whole two-player Yatzy game: every turn one roll of fives and sixes, the first open box."""
    game = Game(["Ann", "Bo"], "yatzy")
    while not game.snapshot()["finished"]:
        turn = game.snapshot()
        game.apply({"type": "roll", "values": [6, 6, 5, 5, 5] if turn["current_player"] else [1, 1, 2, 2, 3]})
        open_box = next(key for key, option in game.snapshot()["preview"].items() if option["allowed"])
        game.apply({"type": "score", "box": open_box})
    return game.snapshot()


def table_fields(**fields) -> dict:
    base = {
        "camera": {"state": "ok", "fps": 10.0, "error": None},
        "moving": False,
        "cursor": None,
        "pending_scratch": None,
        "warning": None,
        "confidence": [],
        "ask_below": ASK_BELOW,
        "sim": False,
    }
    return {**base, **fields}


class ScriptedTable:
    """Answers the page's two reads; the test swaps what each one says."""

    def __init__(self, snapshot: dict) -> None:
        self.state = snapshot
        self.events = snapshot
        self.state_reads = 0
        self.event_connects = 0
        self._lock = threading.Lock()

    def serve_state(self, route) -> None:
        with self._lock:
            self.state_reads += 1
            body = json.dumps(self.state)
        route.fulfill(status=200, content_type="application/json", body=body)

    def serve_events(self, route) -> None:
        """One snapshot, then the stream ends: the browser reconnects after the retry hint."""
        with self._lock:
            self.event_connects += 1
            body = f"retry: 300\n\nid: {self.events['version']}\ndata: {json.dumps(self.events)}\n\n"
        route.fulfill(status=200, content_type="text/event-stream", body=body)


def open_scorecard(server, browser, table: ScriptedTable, viewport=(1024, 768)):
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    context.set_default_timeout(10_000)
    context.add_init_script(WAKE_LOCK_PROBE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("**/api/state", table.serve_state)
    page.route("**/api/events", table.serve_events)
    page.goto(f"{server}/")
    return context, page, errors


def test_marks_for_doubtful_dice_cursor_pending_scratch_warning_and_bonus(server, browser, artifacts):
    snapshot = {
        "version": 5,
        "game_id": "g-marks",
        "game": game_in_progress(),
        "table": table_fields(
            confidence=[0.97, 0.41, 0.93, 0.9, 0.95],
            cursor="fives",
            pending_scratch="ones",
            warning="the camera is unsure of these dice: tap a die to correct it",
        ),
    }
    context, page, errors = open_scorecard(server, browser, ScriptedTable(snapshot))
    page.wait_for_selector("#dice .die-slot")

    low = page.locator(".die-slot.low")
    assert low.count() == 1
    assert low.locator(".die").get_attribute("data-index") == "1"
    assert low.locator(".badge").inner_text() == "?"
    assert "Not sure" in low.locator(".die").get_attribute("title")

    assert page.locator("td.cursor button.score").get_attribute("data-box") == "fives"
    assert page.locator("tr.cursor-row th").inner_text() == "Fives"
    assert page.locator("td.pending button.score").get_attribute("data-box") == "ones"
    assert page.locator("#pending").is_visible()
    assert page.locator("#pending").inner_text() == "Press SELECT again to scratch Ones for 0 points"
    assert page.locator("#warning").is_visible()
    assert "unsure" in page.locator("#warning").inner_text()

    preview = snapshot["game"]["preview"]
    top = max(option["points"] for option in preview.values() if option["allowed"])
    best = page.locator("td.best button.score")
    assert best.count() >= 1
    assert {int(points) for points in best.evaluate_all("(bs) => bs.map((b) => b.dataset.points)")} == {top}

    bonus = page.locator("tr.bonus td")
    assert bonus.all_inner_texts() == ["54 to go", "39 to go"]
    assert page.locator("tr.bonus td.bonus-to-go").count() == 2
    assert page.locator("thead th.current").inner_text() == "▶ Ann"
    assert page.locator("#turn-player").inner_text() == "Ann’s turn"
    assert page.locator("#rolls").inner_text() == "Roll 1 of 3 · 2 left"
    assert page.locator("#round").inner_text() == "Round 2 of 15"

    page.wait_for_function("window.__wake.active === true")
    page.screenshot(path=str(artifacts / "scorecard-marks-1024x768.png"))
    assert errors == []
    context.close()


def test_dice_are_marked_doubtful_below_the_threshold_the_snapshot_gives(server, browser):
    snapshot = {
        "version": 6,
        "game_id": "g-threshold",
        "game": game_in_progress(),
        "table": table_fields(confidence=[0.97, 0.41, 0.93, 0.9, 0.95], ask_below=0.95),
    }
    context, page, errors = open_scorecard(server, browser, ScriptedTable(snapshot))
    page.wait_for_selector("#dice .die-slot")
    low = page.locator(".die-slot.low .die")
    assert low.evaluate_all("(dice) => dice.map((d) => d.dataset.index)") == ["1", "2", "3"]
    assert errors == []
    context.close()


def test_after_a_reconnect_the_page_refetches_the_state(server, browser):
    before = {"version": 7, "game_id": "g-live", "game": game_in_progress(), "table": table_fields()}
    table = ScriptedTable(before)
    context, page, errors = open_scorecard(server, browser, table)
    page.wait_for_selector("#dice .die-slot")
    reads_at_start = table.state_reads
    # From now on only /api/state knows of the next move: the stream keeps sending the old snapshot.
    moved = Game.from_commands(
        {"players": ["Ann", "Bo"], "rules": "yatzy", "options": {}},
        [
            {"type": "roll", "values": [3, 3, 3, 1, 2]},
            {"type": "score", "box": "threes"},
            {"type": "roll", "values": [6, 6, 6, 6, 1]},
            {"type": "score", "box": "sixes"},
            {"type": "roll", "values": [5, 5, 5, 2, 6]},
            {"type": "score", "box": "fives"},
        ],
    )
    table.state = {**before, "version": 8, "game": moved.snapshot()}
    page.wait_for_function(
        "document.querySelector('#turn-player')?.textContent === 'Bo’s turn'", timeout=10_000
    )
    assert table.event_connects >= 2 and table.state_reads > reads_at_start
    assert page.locator("#live").inner_text() in ("live", "reconnecting…")
    assert errors == []
    context.close()


def test_the_final_ranking_screen_and_the_wake_lock_let_go(server, browser, artifacts):
    running = {"version": 3, "game_id": "g-end", "game": game_in_progress(), "table": table_fields()}
    table = ScriptedTable(running)
    context, page, errors = open_scorecard(server, browser, table)
    page.wait_for_function("window.__wake.active === true")
    finished = {**running, "version": 4, "game": finished_game()}
    table.state = table.events = finished

    overlay = page.locator("#ranking")
    overlay.wait_for(state="visible", timeout=10_000)
    expected = sorted(finished["game"]["ranking"], key=lambda entry: entry["place"])
    assert expected[0]["name"] == "Bo"
    rows = page.locator("#ranking-list li")
    assert rows.count() == 2
    assert rows.nth(0).inner_text().split() == ["1.", "Bo", str(expected[0]["total"])]
    assert rows.nth(1).inner_text().split() == ["2.", "Ann", str(expected[1]["total"])]
    assert "place-1" in rows.nth(0).get_attribute("class")
    page.wait_for_function("window.__wake.active === false && window.__wake.releases >= 1")
    page.screenshot(path=str(artifacts / "ranking-1024x768.png"))

    page.click("#ranking-close")
    assert overlay.is_hidden()
    assert page.locator("#turn-player").inner_text() == "Game over"
    assert page.locator("#rolls").inner_text() == f"Bo wins with {expected[0]['total']}"
    assert page.locator("#dice").is_hidden() and page.locator("#select").is_hidden()
    assert page.locator("td.preview").count() == 0  # nothing left to score
    assert errors == []
    context.close()

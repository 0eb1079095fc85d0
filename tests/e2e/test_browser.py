"""End to end in headless Chromium against `pipkeeper run --sim`: set up, play a turn, watch it live
from a second tablet, take screenshots, and tune the reader from the admin page."""

from __future__ import annotations

import json
import re

import pytest

pytestmark = pytest.mark.browser

ROLL_TIMEOUT = 20_000  # ms: a simulated throw is rendered, read and must settle under the camera
ADMIN_PASSWORD = "e2e admin passphrase"  # the one tests/e2e/conftest.py sets


def expect_text(page, selector: str, pattern: str, timeout: float = 10_000) -> None:
    page.wait_for_function(
        "([s, p]) => new RegExp(p).test(document.querySelector(s)?.textContent || '')",
        arg=[selector, pattern],
        timeout=timeout,
    )


def roll(page, number: int) -> None:
    """Throw the simulated dice and wait until the camera's reading became roll `number`."""
    page.click("#roll")
    try:
        expect_text(page, "#rolls", rf"^Roll {number} of", ROLL_TIMEOUT)
    except Exception as error:
        warning = page.locator("#warning").text_content()
        raise AssertionError(f"roll {number} never arrived; the table says: {warning!r}") from error


def test_a_two_player_turn_seen_live_on_a_second_tablet(server, browser, artifacts):
    tablet = browser.new_context(viewport={"width": 1024, "height": 768})
    page = tablet.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/setup")
    names = page.locator('#players input[name="player"]')
    names.nth(0).fill("Ann")
    names.nth(1).fill("Bo")
    page.check('input[name="rules"][value="yatzy"]')
    page.click("#start")
    page.wait_for_url(f"{server}/")
    expect_text(page, "#turn-player", "^Ann’s turn$")

    watcher = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = watcher.new_page()
    phone.goto(f"{server}/")
    expect_text(phone, "#turn-player", "^Ann’s turn$")
    expect_text(phone, "#live", "^live$")

    roll(page, 1)
    expect_text(phone, "#rolls", "^Roll 1 of 3", 5_000)  # pushed over SSE, not reloaded
    page.locator(".hold").first.click()
    page.wait_for_selector('.hold[aria-pressed="true"]')
    held_value = page.locator(".die-slot.held .die").first.get_attribute("data-value")
    roll(page, 2)
    assert page.locator(".die-slot.held .die").first.get_attribute("data-value") == held_value

    best = page.locator("td.best button.score")
    choice = best.first if best.count() else page.locator("td.preview:not(.disallowed) button.score").first
    box = choice.get_attribute("data-box")
    points = int(choice.get_attribute("data-points"))
    choice.click()
    if points == 0:
        page.click("#confirm-ok")
    expect_text(page, "#turn-player", "^Bo’s turn$")
    expect_text(phone, "#turn-player", "^Bo’s turn$", 5_000)
    state = page.request.get(f"{server}/api/state").json()
    assert state["game"]["players"][0]["card"] == {box: points}

    roll(page, 1)
    expect_text(phone, "#rolls", "^Roll 1 of 3", 5_000)
    correct_a_die(page, phone, server)
    page.wait_for_timeout(200)  # let the last paint settle before the pictures
    page.screenshot(path=str(artifacts / "scorecard-tablet-1024x768.png"))
    phone.screenshot(path=str(artifacts / "scorecard-phone-390x844.png"), full_page=True)
    assert errors == []
    tablet.close()
    watcher.close()


def correct_a_die(page, phone, server) -> None:
    """Tap the first die, pick another face: the engine gets a `correct` and every tablet shows it."""
    before = page.request.get(f"{server}/api/state").json()["game"]["dice"]
    new_value = 6 if before[0] != 6 else 1
    page.locator("#dice .die").first.click()
    page.wait_for_selector("#pick-die[open]")
    page.click(f'#pick-faces button[value="{new_value}"]')
    wanted = [new_value, *before[1:]]
    expect_text(page, "#log li:first-child", "corrected|Correct")
    state = page.request.get(f"{server}/api/state").json()["game"]
    assert state["dice"] == wanted
    assert state["rolls_used"] == 1  # a correction is not a roll
    phone.wait_for_function(
        "(v) => document.querySelector('#dice .die')?.dataset.value === String(v)",
        arg=new_value,
        timeout=5_000,
    )


def admin_page(server, browser):
    """A browser context logged in to the admin page (after one wrong try, which costs a second)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{server}/admin")
    assert "/admin/login" in page.url
    page.fill("#password", "wrong password")
    page.click("button[type=submit]")
    assert page.locator(".error").inner_text().startswith("Wrong password")
    page.wait_for_timeout(1100)
    page.fill("#password", ADMIN_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{server}/admin")
    return context, page


def test_admin_login_live_view_and_logout(server, browser, artifacts):
    context, page = admin_page(server, browser)
    page.wait_for_function("document.getElementById('stream').naturalWidth > 0", timeout=10_000)
    page.wait_for_selector("#status span")
    page.screenshot(path=str(artifacts / "admin-1280x900.png"))
    page.click("#logout")
    page.wait_for_url(re.compile(rf"{re.escape(server)}/$"))
    page.goto(f"{server}/admin")
    assert "/admin/login" in page.url
    context.close()


def test_admin_changes_a_reader_parameter_live(server, browser):
    context, page = admin_page(server, browser)
    slider = page.locator("#params input").first
    try:
        slider.wait_for(timeout=10_000)
    except Exception as error:
        raise AssertionError(f"no reader parameters: {page.locator('#result').text_content()!r}") from error
    name = slider.get_attribute("name")
    new_value = page.evaluate(
        """(input) => {
            const span = Number(input.max) - Number(input.min);
            input.value = Number(input.min) + span * 0.75;
            input.dispatchEvent(new Event("input", {bubbles: true}));
            return Number(input.value);
        }""",
        slider.element_handle(),
    )
    # The slider's change reaches the table after the page's short debounce. (Polled from here:
    # wait_for_function would take the Promise of an async predicate as a truthy answer.)
    for _ in range(50):
        answer = page.request.get(f"{server}/admin/api/calibration").json()
        if answer["profile"]["reader"].get(name) == pytest.approx(new_value):
            break
        page.wait_for_timeout(100)
    assert answer["profile"]["reader"].get(name) == pytest.approx(new_value), answer["profile"]
    assert answer["saved"] is False

    # Export the live profile, change its tray, and import it back through the page's file picker.
    exported = page.request.get(f"{server}/admin/api/calibration/export")
    assert exported.ok and "attachment" in exported.headers["content-disposition"]
    profile = exported.json()
    assert profile["reader"][name] == pytest.approx(new_value)
    tray = [0.125, 0.125, 0.875, 0.875]
    page.set_input_files(
        "#import",
        files=[
            {
                "name": "pipkeeper-calibration.json",
                "mimeType": "application/json",
                "buffer": json.dumps({**profile, "tray": tray}).encode(),
            }
        ],
    )
    expect_text(page, "#toast", "^Imported")
    answer = page.request.get(f"{server}/admin/api/calibration").json()
    assert answer["profile"]["tray"] == tray and answer["saved"] is False
    context.close()


def test_a_whole_game_ends_on_the_ranking_screen_and_in_the_history(server, tablet, artifacts):
    """Two players play every box through the API (as fast fingers on the tablet would); the page shows
    the final ranking, and the setup page lists the finished game and the players' statistics."""
    page, post = tablet
    assert post({"type": "new_game", "players": ["Cy", "Di"], "rules": "yatzy"}).ok
    hands = ([6, 6, 6, 5, 5], [1, 2, 3, 4, 5])
    for _ in range(200):
        game = page.request.get(f"{server}/api/state").json()["game"]
        if game["finished"]:
            break
        if game["rolls_used"] == 0:  # the camera may have rolled first: then its roll stands (409 here)
            post({"type": "roll", "values": hands[game["current_player"]]})
            continue
        box = next(key for key, option in game["preview"].items() if option["allowed"])
        post({"type": "score", "box": box})
    assert game["finished"], "the game did not finish"

    page.goto(f"{server}/")
    page.locator("#ranking").wait_for(state="visible")
    shown = [row.split() for row in page.locator("#ranking-list li").all_inner_texts()]
    assert shown == [[f"{e['place']}.", e["name"], str(e["total"])] for e in game["ranking"]]
    assert page.locator("#turn-player").inner_text() == "Game over"
    page.screenshot(path=str(artifacts / "ranking-real-1024x768.png"))

    page.goto(f"{server}/setup")
    finished = page.locator("#finished tbody tr").first.inner_text()
    assert "Cy" in finished and "Di" in finished
    stats = page.locator("#stats tbody").inner_text()
    assert "Cy" in stats and "Di" in stats

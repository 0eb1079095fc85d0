"""Whole turns at the table through mock GPIO pins: holds, the box cursor, scratches, undo, LEDs, buzzer.

Dice arrive as the camera thread delivers them (`post_dice` with a settled event), so these tests exercise the
session's rules for camera rolls without rendering frames; test_session_camera.py runs the real camera path.
"""

from __future__ import annotations

import time

import pytest

from device.camera_loop import CameraStatus, DiceStill, SeenDice
from device.config import ControlsConfig, PinsConfig
from device.controls import BeepTimes, Controls
from device.session import CANNOT_READ, TableSession
from device.store import GameStore
from vision.reading import ASK_BELOW
from vision.watcher import DiceChanged, DiceMoving, DiceSettled, DiceUnreadable
from web.port import MalformedCommand

PINS = PinsConfig()
BEEPS = BeepTimes(accepted=0.005, refused=0.03)
ROW_Y = 240.0


class Table:
    """A session with mock pins, and the moves a player makes at the table."""

    def __init__(self, session: TableSession, factory, clock) -> None:
        self.session, self.factory, self.clock = session, factory, clock

    @property
    def state(self) -> dict:
        return self.session.snapshot()

    def _after(self, action) -> dict:
        version = self.state["version"]
        action()
        changed = self.session.wait_for_change(version, timeout=5)
        assert changed is not None, "the table never published a change"
        return changed

    def press(self, pin: int, hold_for: float = 0.1) -> dict:
        def push():
            self.factory.pin(pin).drive_low()
            self.clock.advance(hold_for)
            self.factory.pin(pin).drive_high()
            self.clock.advance(0.1)

        return self._after(push)

    def settle(self, values: list[int], xs: list[float] | None = None) -> dict:
        """The camera saw these dice come to rest (x positions default to 100 px apart)."""
        xs = xs or [100.0 * (i + 1) for i in range(len(values))]
        event = DiceSettled(list(values), [(x, ROW_Y) for x in xs], 0.95)
        return self._after(lambda: self.session.post_dice(SeenDice(event, 40.0, (0.95,) * len(values))))

    def buzzer_beeps(self) -> list[float]:
        """How long each beep so far lasted (waits for a beep still sounding to end)."""
        pin = self.factory.pin(PINS.buzzer)
        deadline = time.monotonic() + 5
        while pin.state and time.monotonic() < deadline:
            time.sleep(0.002)
        return [s.timestamp for s in pin.states[1:] if not s.state]

    def lit_hold_leds(self) -> list[int]:
        return [i for i, pin in enumerate(PINS.hold_led) if self.factory.pin(pin).state]


@pytest.fixture
def make_table(tmp_path, mock_factory, manual_clock):
    made = []

    def make() -> Table:
        store = GameStore(tmp_path / "games.db")
        session = TableSession(store, scratch_confirm_seconds=3.0, clock=manual_clock)
        controls = Controls(PINS, ControlsConfig(), session.post_control, mock_factory, manual_clock, BEEPS)
        session.start(controls=controls)
        made.append((session, store))
        return Table(session, mock_factory, manual_clock)

    yield make
    for session, store in made:
        session.close()
        store.close()


@pytest.fixture
def table(make_table) -> Table:
    table = make_table()
    result = table.session.submit({"type": "new_game", "players": ["Ann", "Bob"], "rules": "yatzy"})
    assert result.ok, result.message
    return table


def card(state: dict, player: int) -> dict:
    return state["game"]["players"][player]["card"]


def test_a_whole_turn_with_hold_buttons_and_the_cursor(table):
    state = table.settle([3, 3, 5, 6, 1])
    assert state["game"]["dice"] == [3, 3, 5, 6, 1]
    table.press(PINS.hold[0])
    state = table.press(PINS.hold[1])
    assert state["game"]["held"] == [0, 1]
    assert table.lit_hold_leds() == [0, 1]

    state = table.settle([3, 3, 3, 2, 4])  # the held threes stayed where they were
    assert state["game"]["rolls_used"] == 2
    assert state["game"]["held"] == [0, 1]
    preview = state["game"]["preview"]
    best = max((b for b in preview if preview[b]["allowed"]), key=lambda b: preview[b]["points"])
    assert state["table"]["cursor"] == best

    state = table.press(PINS.next)
    allowed = [b for b in preview if preview[b]["allowed"]]
    moved_to = allowed[(allowed.index(best) + 1) % len(allowed)]
    assert state["table"]["cursor"] == moved_to
    state = table.press(PINS.prev)
    assert state["table"]["cursor"] == best

    state = table.press(PINS.select)
    assert card(state, 0) == {best: preview[best]["points"]}
    assert state["game"]["current_name"] == "Bob"
    assert table.lit_hold_leds() == []
    assert state["table"]["warning"] is None  # nothing was refused
    assert table.buzzer_beeps()  # accepted presses beep (short beeps may merge, so not counted)


def test_held_dice_are_found_by_place_and_face_after_the_others_land(table):
    table.settle([2, 4, 4, 5, 6], xs=[100, 200, 300, 400, 500])
    table.press(PINS.hold[3])  # the 5 at x=400
    state = table.settle([1, 1, 5, 5, 6], xs=[100, 150, 380, 404, 500])  # a rolled 5 lands next to it
    assert state["game"]["held"] == [3]


def test_a_scratch_needs_a_second_select_within_the_window(table):
    table.settle([1, 2, 3, 4, 6])
    state = table.state
    while state["game"]["preview"][state["table"]["cursor"]]["points"] != 0:
        state = table.press(PINS.next)
    zero_box = state["table"]["cursor"]

    state = table.press(PINS.select)
    assert state["table"]["pending_scratch"] == zero_box
    assert card(state, 0) == {}

    table.clock.advance(3.5)  # too late: the next SELECT arms again instead of writing
    state = table.press(PINS.select)
    assert card(state, 0) == {}
    assert state["table"]["pending_scratch"] == zero_box

    state = table.press(PINS.undo, hold_for=0.2)  # a short UNDO cancels the pending scratch
    assert state["table"]["pending_scratch"] is None

    table.press(PINS.select)
    state = table.press(PINS.select)
    assert card(state, 0) == {zero_box: 0}


def test_a_long_undo_takes_back_the_last_move_and_a_short_one_alone_is_refused(table):
    table.settle([6, 6, 6, 6, 2])
    state = table.press(PINS.select)
    assert card(state, 0) != {}
    state = table.press(PINS.undo, hold_for=2.1)
    assert card(state, 0) == {}
    assert state["game"]["dice"] == [6, 6, 6, 6, 2]

    state = table.press(PINS.undo, hold_for=0.2)
    assert "hold UNDO" in state["table"]["warning"]
    assert table.buzzer_beeps()[-1] >= BEEPS.refused  # refused: the long beep


def test_a_held_die_that_changed_is_a_warning_not_a_roll(table):
    table.settle([3, 3, 5, 6, 1])
    table.press(PINS.hold[2])
    state = table.settle([2, 4, 6, 6, 1])  # the held 5 now shows a 6
    assert state["game"]["rolls_used"] == 1
    assert state["game"]["dice"] == [3, 3, 5, 6, 1]
    assert "held 5" in state["table"]["warning"]
    assert table.buzzer_beeps()[-1] >= BEEPS.refused


def test_dice_settling_without_rolls_left_or_nudged_are_warnings(table):
    for values in ([1, 2, 3, 4, 5], [2, 2, 3, 4, 5], [3, 2, 3, 4, 5]):
        table.settle(values)
    state = table.settle([4, 2, 3, 4, 5])
    assert state["game"]["rolls_used"] == 3
    assert "no rolls left" in state["table"]["warning"]
    assert table.buzzer_beeps()[-1] >= BEEPS.refused  # refused: the long beep

    nudge = DiceChanged([4, 2, 3, 4, 6], [(100.0 * i, ROW_Y) for i in range(1, 6)], 0.9)
    state = table._after(lambda: table.session.post_dice(SeenDice(nudge, 40.0)))
    assert "without a throw" in state["table"]["warning"]
    assert state["game"]["dice"] == [3, 2, 3, 4, 5]


def test_dice_picked_up_to_be_thrown_are_no_roll_and_no_beep(table):
    table.settle([3, 3, 5, 6, 1])
    table.press(PINS.hold[0])
    table.press(PINS.hold[1])
    beeps = len(table.buzzer_beeps())
    state = table.settle([3, 3], xs=[100, 200])  # the others are in a hand: only the held threes lie still
    assert state["game"]["rolls_used"] == 1 and state["game"]["dice"] == [3, 3, 5, 6, 1]
    assert state["table"]["warning"].startswith("waiting for all dice")
    nudge = DiceChanged([3, 3, 5, 6], [(100.0 * i, ROW_Y) for i in range(1, 5)], 0.9)  # one die picked up
    state = table._after(lambda: table.session.post_dice(SeenDice(nudge, 40.0)))
    assert state["game"]["rolls_used"] == 1 and state["table"]["warning"].startswith("waiting for all dice")
    assert len(table.buzzer_beeps()) == beeps  # not a mistake: silence

    # The throw lands. The watcher calls it a change (most dice, the held ones, stayed put), but the thrown
    # dice were out of view meanwhile: it is a roll.
    landed = DiceChanged([3, 3, 2, 2, 6], [(100.0 * i, ROW_Y) for i in range(1, 6)], 0.95)
    state = table._after(lambda: table.session.post_dice(SeenDice(landed, 40.0, (0.95,) * 5)))
    assert state["game"]["rolls_used"] == 2 and state["game"]["held"] == [0, 1]
    assert state["game"]["dice"] == [3, 3, 2, 2, 6]
    assert state["table"]["warning"] is None

    nudge = DiceChanged([3, 3, 2, 1, 6], [(100.0 * i, ROW_Y) for i in range(1, 6)], 0.95)  # all in view
    state = table._after(lambda: table.session.post_dice(SeenDice(nudge, 40.0)))
    assert state["game"]["rolls_used"] == 2 and "without a throw" in state["table"]["warning"]


def test_a_doubtful_reading_counts_but_is_flagged(table):
    event = DiceSettled([1, 2, 3, 4, 5], [(100.0 * i, ROW_Y) for i in range(1, 6)], 0.3)
    state = table._after(lambda: table.session.post_dice(SeenDice(event, 40.0, (0.9, 0.9, 0.2, 0.9, 0.9))))
    assert state["game"]["rolls_used"] == 1
    assert state["table"]["confidence"] == [0.9, 0.9, 0.2, 0.9, 0.9]
    assert state["table"]["ask_below"] == ASK_BELOW  # the tablet marks the 0.2 die by it
    assert "unsure" in state["table"]["warning"]

    result = table.session.submit({"type": "correct", "values": [1, 2, 6, 4, 5]})  # fixed on the tablet
    assert result.ok, result.message
    state = table.state
    assert state["game"]["dice"] == [1, 2, 6, 4, 5] and state["game"]["rolls_used"] == 1
    assert state["table"]["warning"] is None and state["table"]["confidence"] == []


def test_a_die_that_lies_still_but_cannot_be_read_is_asked_about(table):
    table.settle([3, 3, 5, 6, 1])
    beeps = len(table.buzzer_beeps())
    table._after(lambda: table.session.post_dice(SeenDice(DiceMoving())))
    tipped = DiceUnreadable([3, 3, 5, 6], [(100.0 * i, ROW_Y) for i in range(1, 5)], [(500.0, ROW_Y)])
    state = table._after(lambda: table.session.post_dice(SeenDice(tipped, 40.0)))
    assert state["table"]["warning"].startswith(f"{CANNOT_READ} a die (")
    assert "straighten it, or tap Enter dice" in state["table"]["warning"]
    assert state["table"]["moving"] is False  # the status LED stops blinking: nothing is rolling
    assert state["game"]["rolls_used"] == 1 and state["game"]["dice"] == [3, 3, 5, 6, 1]
    assert len(table.buzzer_beeps()) == beeps + 1 and table.buzzer_beeps()[-1] >= BEEPS.refused

    two = DiceUnreadable(
        [3, 3, 5], [(100.0 * i, ROW_Y) for i in range(1, 4)], [(400.0, ROW_Y), (500.0, ROW_Y)]
    )
    state = table._after(lambda: table.session.post_dice(SeenDice(two, 40.0)))
    assert (
        state["table"]["warning"].startswith(f"{CANNOT_READ} 2 dice (")
        and "straighten them" in state["table"]["warning"]
    )

    state = table.settle([3, 3, 5, 6, 2])  # set flat: the roll counts and the question goes
    assert state["game"]["rolls_used"] == 2 and state["table"]["warning"] is None


def test_no_question_about_unreadable_dice_when_no_roll_is_awaited(make_table):
    table = make_table()
    tipped = DiceUnreadable([], [], [(300.0, ROW_Y)])
    state = table._after(lambda: table.session.post_dice(SeenDice(DiceMoving())))
    state = table._after(lambda: table.session.post_dice(SeenDice(tipped, 40.0)))  # no game yet
    assert state["table"]["warning"] is None and state["table"]["moving"] is False
    result = table.session.submit({"type": "new_game", "players": ["Ann"], "rules": "yatzy"})
    assert result.ok, result.message
    for values in ([1, 2, 3, 4, 5], [2, 2, 3, 4, 5], [3, 2, 3, 4, 5]):
        table.settle(values)
    beeps = len(table.buzzer_beeps())
    table._after(lambda: table.session.post_dice(SeenDice(DiceMoving())))
    state = table._after(lambda: table.session.post_dice(SeenDice(tipped, 40.0)))  # no rolls left
    assert state["table"]["warning"] is None and state["table"]["moving"] is False
    assert len(table.buzzer_beeps()) == beeps


def test_status_led_follows_the_dice_and_the_camera(table):
    led = table.factory.pin(PINS.status_led)
    assert led.state is False  # no camera yet: fault
    table._after(lambda: table.session.post_camera_status(CameraStatus("ok", fps=15)))
    assert led.state is True  # steady: waiting for a roll
    led.clear_states()
    table._after(lambda: table.session.post_dice(SeenDice(DiceMoving())))
    assert table.state["table"]["moving"] is True
    deadline = time.monotonic() + 5
    while len(led.states) < 3 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert [s.state for s in led.states[:3]] == [True, False, True]  # blinking: dice moving
    state = table._after(lambda: table.session.post_dice(SeenDice(DiceStill())))  # came to rest as before
    assert state["table"]["moving"] is False and state["game"]["rolls_used"] == 0
    assert led.state is True

    table._after(lambda: table.session.post_dice(SeenDice(DiceMoving())))
    table._after(lambda: table.session.post_camera_status(CameraStatus("missing", error="unplugged")))
    assert led.state is False  # off: fault
    assert table.state["table"]["camera"]["state"] == "missing"
    assert table.state["table"]["moving"] is False  # a missing camera sees nothing moving


def test_a_maxi_game_takes_the_sixth_hold_button_and_lights_its_led(make_table):
    table = make_table()
    assert table.session.submit({"type": "new_game", "players": ["Ann"], "rules": "maxi"}).ok
    state = table.settle([1, 2, 3, 4, 5, 6])
    assert len(state["game"]["dice"]) == 6
    state = table.press(PINS.hold[5])
    assert state["game"]["held"] == [5] and table.lit_hold_leds() == [5]
    state = table.settle([2, 2, 2, 4, 1, 6], xs=[100, 200, 300, 400, 450, 600])  # the held 6 stayed put
    assert state["game"]["held"] == [5] and state["game"]["rolls_used"] == 2
    assert table.lit_hold_leds() == [5]


def test_tablet_commands_and_on_screen_buttons_share_the_queue(table):
    result = table.session.submit({"type": "roll", "values": [5, 5, 5, 2, 1]})
    assert result.ok
    result = table.session.submit({"type": "press", "button": "hold3"})
    assert result.ok and table.state["game"]["held"] == [2]
    result = table.session.submit({"type": "press", "button": "hold6"})
    assert not result.ok and "5 dice" in result.message
    result = table.session.submit({"type": "score", "box": "chance"})
    assert result.ok and card(table.state, 0) == {"chance": 18}


@pytest.mark.parametrize(
    "command",
    [
        {"type": "explode"},
        {"type": "press", "button": "turbo"},
        {"type": "press", "button": "undo", "long": "yes"},
        {"type": "resume_game"},
        {"type": "new_game", "players": ["A"], "colour": "red"},
        {"type": "new_game", "players": "Ann"},
        {"type": "new_game", "players": {"Ann": 1}},
        {"type": "new_game", "players": None},
        {"type": "new_game", "players": 7},
        {"type": "new_game", "players": [7]},
        {"type": "new_game", "players": ["Ann", None]},
        {"type": "new_game", "players": [["Ann"]]},
        {"type": "roll", "values": [9, 9, 9, 9, 9]},
    ],
)
def test_malformed_commands_raise_and_change_nothing(table, command):
    before = table.state
    with pytest.raises(MalformedCommand):
        table.session.submit(command)
    assert table.state["game"] == before["game"]


def test_refusals_say_why(table):
    assert table.session.submit({"type": "score", "box": "chance"}).message == "Ann has not rolled yet"
    assert not table.session.submit({"type": "resume_game", "game_id": "nope"}).ok
    assert not table.session.submit({"type": "new_game", "players": []}).ok
    assert not table.session.submit({"type": "sim_roll"}).ok  # no simulated tray on this table


def test_the_unfinished_game_comes_back_after_a_restart(make_table):
    first = make_table()
    first.session.submit({"type": "new_game", "players": ["Ann"], "rules": "yahtzee"})
    first.settle([2, 2, 4, 4, 4])
    first.press(PINS.hold[4])
    game_id = first.state["game_id"]
    first.session.close()

    second = make_table()
    state = second.state
    assert state["game_id"] == game_id
    assert state["game"]["dice"] == [2, 2, 4, 4, 4] and state["game"]["held"] == [4]
    assert second.lit_hold_leds() == [4]
    assert second.session.history()["games"][0]["id"] == game_id


@pytest.mark.parametrize(
    ("players", "why"),
    [
        (["Ann", "  "], "every player needs a name"),
        ([""], "every player needs a name"),
        (["Ann", "x" * 25], "at most 24 characters"),
        (["Ann", "Bob", "ann "], "two players are called Ann"),
        (["Bob", "Bob"], "two players are called Bob"),
        ([], "1 to 8 players"),
    ],
)
def test_new_game_names_that_cannot_be_told_apart_or_shown_are_refused(table, players, why):
    before = table.state
    result = table.session.submit({"type": "new_game", "players": players})
    assert not result.ok and why in result.message
    assert table.state["game"] == before["game"]


def test_new_game_names_are_stripped_and_may_fill_the_name_field(table):
    result = table.session.submit({"type": "new_game", "players": [" Ann ", "x" * 24]})
    assert result.ok, result.message
    assert [p["name"] for p in table.state["game"]["players"]] == ["Ann", "x" * 24]

"""The session with the real camera path: simulated tray -> dice reader -> roll watcher -> game.

Frames are rendered, read and watched exactly as on the appliance; the tests wait on published snapshots,
never on fixed sleeps. A source that can be "unplugged" shows the game going on without the camera.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from device.calibration_desk import CalibrationDesk
from device.camera_loop import READER_FAILED, Backoff, CameraLoop, CameraStatus
from device.config import ControlsConfig, PinsConfig
from device.controls import BeepTimes, Controls
from device.profile_store import ProfileStore
from device.session import CANNOT_READ, WAITING_FOR_DICE, TableSession
from device.simtable import SIM_DIE_SIZE, SimTable
from device.store import GameStore
from vision.profile import CalibrationProfile
from vision.reading import Reading
from vision.simtray import SimDie
from vision.sources import FrameSource, SourceError
from vision.stream import StreamReader
from vision.watcher import RollWatcher

WAIT = 20.0  # generous ceiling for a slow shared machine; the tests end as soon as the state arrives
PINS = PinsConfig()
BEEPS = BeepTimes(accepted=0.005, refused=0.03)
# A profile that fixes the die size (the simulated tray's drawn size; calibrating the tray measures its dice
# by their pips, at 0.165) and the pip polarity: a reader that knows the die size need not estimate it, and
# reads in about half the time of one that must (which took 15 s of WAIT for 72 frames on the build
# machine).
CALIBRATED = CalibrationProfile(die_size=SIM_DIE_SIZE, pip_polarity="dark")
UNCALIBRATED = CalibrationProfile()  # a table fresh from the box


class UnpluggableSource(FrameSource):
    """The simulated tray behind a cable the test can pull and plug back in, and a lens a hand can cover."""

    def __init__(self, sim: SimTable) -> None:
        super().__init__()
        self.name = "unpluggable camera"
        self.sim = sim
        self.plugged = True
        self.covered = False

    def _open(self) -> None:
        if not self.plugged:
            raise SourceError("camera not found")
        self.sim.open()

    def _grab(self) -> np.ndarray:
        if not self.plugged:
            raise SourceError("camera stopped delivering frames")
        frame = self.sim.read()
        return np.zeros_like(frame) if self.covered else frame


class MisreadingSource(FrameSource):
    """The simulated tray as a reader with a borderline pip sees it: after `misread(cycles)`, one die shows
    another face in 4 frames of every 9, though no die moves. `done` is set after the last cycle."""

    def __init__(self, sim: SimTable) -> None:
        super().__init__()
        self.name = "misreading camera"
        self.sim = sim
        self.cycles = 0
        self.frame = 0
        self.done = threading.Event()

    def misread(self, cycles: int) -> None:
        self.frame, self.cycles = 0, cycles
        self.done.clear()

    def _open(self) -> None:
        self.sim.open()

    def _grab(self) -> np.ndarray:
        if self.cycles <= 0:
            return self.sim.read()
        step, self.frame = self.frame % 9, self.frame + 1
        if step < 4:
            tray = self.sim.tray
            values = tray.values
            tray.set_values([values[0] % 6 + 1, *values[1:]])
            frame = self.sim.read()
            tray.set_values(values)
        else:
            frame = self.sim.read()
        if step == 8:
            self.cycles -= 1
            if self.cycles == 0:
                self.done.set()
        return frame


def wait_for(session: TableSession, condition, what: str) -> dict:
    """The first published snapshot (including the current one) that satisfies `condition`."""
    state = session.snapshot()
    while not condition(state):
        newer = session.wait_for_change(state["version"], WAIT)
        assert newer is not None, f"timed out waiting for {what}; last state: {state['table']}"
        state = newer
    return state


@pytest.fixture
def make_session(tmp_path, mock_factory):  # the pins outlive the sessions that use them
    made = []

    def make(wrap=None, controls=None, profile=UNCALIBRATED) -> TableSession:
        store = GameStore(tmp_path / "games.db")
        sim = SimTable(960, 720, fps=10, seed=7, die_size=SIM_DIE_SIZE)
        source = wrap(sim) if wrap else sim
        session = TableSession(store, sim=sim)
        camera = CameraLoop(
            source,
            profile,
            session.post_dice,
            session.post_camera_status,
            make_watcher=lambda: RollWatcher(still_seconds=0.05, min_roll_seconds=0.0),
            fps=60,
            backoff=Backoff(first=0.01, longest=0.05),
        )
        session.calibration_desk = CalibrationDesk(ProfileStore(tmp_path / "state"), camera)
        session.start(camera=camera, controls=controls(session.post_control) if controls else None)
        made.append((session, store))
        return session

    yield make
    for session, store in made:
        session.close()
        store.close()


def roll_and_wait(session: TableSession, rolls_used: int, throws: int = 4) -> dict:
    """Throw until the camera's reading counts as roll number `rolls_used`.

    A misread (a die missed, a held die read as another face) makes the session warn and wait for another
    throw, exactly as at a real table; the test throws again then, since the reader's accuracy is measured
    elsewhere and this test is about the way from frames to the game.
    """
    for _ in range(throws):
        warning = session.snapshot()["table"]["warning"]
        result = session.submit({"type": "sim_roll"})
        assert result.ok, result.message
        state = wait_for(
            session,
            lambda s, before=warning: (
                s["game"]["rolls_used"] == rolls_used or _new_warning(s["table"]["warning"], before)
            ),
            f"roll {rolls_used}",
        )
        if state["game"]["rolls_used"] == rolls_used:
            return state
    raise AssertionError(f"{throws} throws never counted as roll {rolls_used}: {state['table']['warning']}")


def _new_warning(warning: str | None, before: str | None) -> bool:
    """A warning that means the throw failed (not the quiet note while some dice are in the air)."""
    return warning not in (None, before) and not warning.startswith(WAITING_FOR_DICE)


def test_several_full_turns_through_the_simulated_camera(make_session):
    session = make_session()
    wait_for(session, lambda s: s["table"]["camera"]["state"] == "ok", "the camera")
    assert session.submit({"type": "new_game", "players": ["Ann", "Bob"], "rules": "yatzy"}).ok

    read_right = 0
    for turn in range(4):
        player = turn % 2
        state = roll_and_wait(session, 1)
        read_right += state["game"]["dice"] == session.sim.tray.values
        assert session.submit({"type": "press", "button": "hold1"}).ok
        assert session.submit({"type": "press", "button": "hold2"}).ok
        kept = state["game"]["dice"][:2]

        state = roll_and_wait(session, 2)
        held = state["game"]["held"]
        assert sorted(state["game"]["dice"][i] for i in held) == sorted(kept)
        read_right += state["game"]["dice"] == session.sim.tray.values

        assert session.submit({"type": "press", "button": "select"}).ok
        state = session.snapshot()
        if state["table"]["pending_scratch"]:
            assert session.submit({"type": "press", "button": "select"}).ok
            state = session.snapshot()
        assert len(state["game"]["players"][player]["card"]) == turn // 2 + 1
        assert state["game"]["current_player"] == 1 - player
    assert read_right > 0  # the rolls really are the rendered dice, read from the frames


def test_a_die_the_camera_cannot_read_is_asked_about_and_counts_once_set_right(make_session):
    session = make_session(profile=CALIBRATED)
    wait_for(session, lambda s: s["table"]["camera"]["state"] == "ok", "the camera")
    assert session.submit({"type": "new_game", "players": ["Ann"], "rules": "yatzy"}).ok
    tray = session.sim.tray
    dice = list(tray.dice)
    first = dice[0]
    # The die lands on the tray's rim, half out of view: the reader sees it cut by the frame's edge.
    tray.place([SimDie(6, (0.1 * tray.die_px, first.center[1]), 20.0), *dice[1:]])
    state = wait_for(session, lambda s: (s["table"]["warning"] or "").startswith(CANNOT_READ), "the question")
    assert "straighten it, or tap Enter dice" in state["table"]["warning"]
    assert state["game"]["rolls_used"] == 0 and state["table"]["moving"] is False

    tray.place([SimDie(first.value % 6 + 1, first.center, first.angle), *dice[1:]])  # put back in the tray
    state = wait_for(session, lambda s: s["game"]["rolls_used"] == 1, "the roll")
    assert state["game"]["dice"] == tray.values
    assert state["table"]["warning"] is None


def test_a_camera_pulled_mid_game_leaves_the_game_playable_and_comes_back(make_session):
    sources = []
    session = make_session(wrap=lambda sim: sources.append(UnpluggableSource(sim)) or sources[-1])
    cable = sources[0]
    wait_for(session, lambda s: s["table"]["camera"]["state"] == "ok", "the camera")
    assert session.submit({"type": "new_game", "players": ["Ann"], "rules": "yahtzee"}).ok
    roll_and_wait(session, 1)

    cable.plugged = False
    state = wait_for(
        session, lambda s: s["table"]["camera"]["state"] == "missing", "the camera to go missing"
    )
    assert state["table"]["camera"]["error"]
    assert session.status()["camera"]["state"] == "missing"
    assert session.submit({"type": "roll", "values": [6, 6, 6, 1, 2]}).ok  # typed in on the tablet
    assert session.submit({"type": "score", "box": "sixes"}).ok

    cable.plugged = True
    wait_for(session, lambda s: s["table"]["camera"]["state"] == "ok", "the camera to come back")
    state = roll_and_wait(session, 1)
    assert len(state["game"]["dice"]) == 5
    assert state["game"]["players"][0]["card"] == {"sixes": 18}
    assert session.camera_alive(max_age=WAIT)


def test_admin_view_gets_annotated_jpeg_frames(make_session):
    session = make_session()
    first = session.wait_for_frame(0, WAIT)
    assert first is not None
    number, jpeg = first
    assert jpeg[:2] == b"\xff\xd8"  # a JPEG
    second = session.wait_for_frame(number, WAIT)
    assert second is not None and second[0] > number


def test_the_admin_desk_changes_the_reader_live_saves_and_reverts(tmp_path, make_session):
    session = make_session()
    wait_for(session, lambda s: s["table"]["camera"]["state"] == "ok", "the camera")
    profiles = ProfileStore(tmp_path / "state")
    assert session.calibration()["saved"] is True
    changed = session.update_calibration({"pip_polarity": "dark"})
    assert changed["profile"]["pip_polarity"] == "dark" and changed["saved"] is False
    with pytest.raises(ValueError):
        session.update_calibration({"pip_polarity": "plaid"})
    assert session.save_calibration()["saved"] is True
    assert profiles.load().pip_polarity == "dark"
    session.update_calibration({"pip_polarity": "light"})
    reverted = session.revert_calibration()  # unsaved changes: back to the saved profile
    assert reverted["profile"]["pip_polarity"] == "dark" and reverted["saved"] is True
    session.update_calibration({"pip_polarity": "light"})
    session.save_calibration()
    assert session.revert_calibration()["profile"]["pip_polarity"] == "dark"  # the save before
    read = session.test_read()
    assert read["problem"] is None and len(read["values"]) == len(session.sim.tray.values)


def test_whole_turns_with_gpio_buttons_and_the_simulated_tray(make_session, mock_factory, manual_clock):
    """Press a hold pin, roll in the simulated tray, press NEXT / PREV / SELECT; LEDs and buzzer follow."""

    def controls(post_control):
        return Controls(PINS, ControlsConfig(), post_control, mock_factory, manual_clock, BEEPS)

    session = make_session(controls=controls)
    buzzer, status_led = mock_factory.pin(PINS.buzzer), mock_factory.pin(PINS.status_led)
    wait_for(session, lambda s: s["table"]["camera"]["state"] == "ok", "the camera")
    assert session.submit({"type": "new_game", "players": ["Ann", "Bob"], "rules": "yatzy"}).ok

    def press(pin: int, hold_for: float = 0.1) -> dict:
        version = session.snapshot()["version"]
        mock_factory.pin(pin).drive_low()
        manual_clock.advance(hold_for)
        mock_factory.pin(pin).drive_high()
        manual_clock.advance(0.1)
        changed = session.wait_for_change(version, WAIT)
        assert changed is not None, "the press changed nothing"
        return changed

    def lit_hold_leds() -> list[int]:
        return [i for i, pin in enumerate(PINS.hold_led) if mock_factory.pin(pin).state]

    for player in (0, 1):
        state = roll_and_wait(session, 1)
        assert status_led.state is True  # steady again: the dice lie still, waiting
        held = [0, 2, 4]  # most dice held: the landing throw looks like a nudge to the watcher
        for die in held:
            state = press(PINS.hold[die])
        assert state["game"]["held"] == held and lit_hold_leds() == held
        kept = sorted(state["game"]["dice"][i] for i in held)

        state = roll_and_wait(session, 2)
        assert sorted(state["game"]["dice"][i] for i in state["game"]["held"]) == kept
        assert lit_hold_leds() == state["game"]["held"]  # the held dice may sit elsewhere after the throw

        cursor = state["table"]["cursor"]
        assert press(PINS.next)["table"]["cursor"] != cursor or len(_allowed(state)) == 1
        state = press(PINS.prev)
        assert state["table"]["cursor"] == cursor
        points = state["game"]["preview"][cursor]["points"]
        state = press(PINS.select)
        if points == 0:  # a scratch: the first SELECT only arms it
            assert state["table"]["pending_scratch"] == cursor
            assert state["game"]["players"][player]["card"] == {}
            state = press(PINS.select)
        assert state["game"]["players"][player]["card"] == {cursor: points}
        assert state["game"]["current_player"] == 1 - player
        assert lit_hold_leds() == []
    _wait_quiet(buzzer)
    assert buzzer.states[-1].state is False and len(buzzer.states) > 1  # it beeped, and is silent now

    state = press(PINS.undo, hold_for=2.5)  # a long UNDO takes back Bob's box
    assert state["game"]["players"][1]["card"] == {} and state["game"]["current_player"] == 1


def _allowed(state: dict) -> list[str]:
    return [box for box, info in state["game"]["preview"].items() if info["allowed"]]


def _wait_quiet(pin) -> None:
    deadline = time.monotonic() + WAIT
    while pin.state and time.monotonic() < deadline:
        time.sleep(0.002)


def test_a_maxi_game_uses_six_dice_and_the_sixth_hold_button(make_session, mock_factory, manual_clock):
    def controls(post_control):
        return Controls(PINS, ControlsConfig(), post_control, mock_factory, manual_clock, BEEPS)

    session = make_session(controls=controls)
    wait_for(session, lambda s: s["table"]["camera"]["state"] == "ok", "the camera")
    assert session.submit({"type": "new_game", "players": ["Ann"], "rules": "maxi"}).ok
    state = roll_and_wait(session, 1)
    assert len(state["game"]["dice"]) == 6 and len(session.sim.tray.values) == 6
    version = state["version"]
    mock_factory.pin(PINS.hold[5]).drive_low()
    manual_clock.advance(0.1)
    mock_factory.pin(PINS.hold[5]).drive_high()
    state = session.wait_for_change(version, WAIT)
    assert state["game"]["held"] == [5]
    assert mock_factory.pin(PINS.hold_led[5]).state is True


def session_with_pins_and_lens(make_session, mock_factory, manual_clock):
    """A session on MockFactory pins whose camera can be covered or pulled: (session, source)."""
    sources = []

    def controls(post_control):
        return Controls(PINS, ControlsConfig(), post_control, mock_factory, manual_clock, BEEPS)

    session = make_session(
        wrap=lambda sim: sources.append(UnpluggableSource(sim)) or sources[-1], controls=controls
    )
    return session, sources[0]


def test_a_hand_over_the_tray_blinks_the_status_led_then_nothing_counts(
    make_session, mock_factory, manual_clock
):
    session, lens = session_with_pins_and_lens(make_session, mock_factory, manual_clock)
    status_led = mock_factory.pin(PINS.status_led)
    wait_for(session, lambda s: s["table"]["camera"]["state"] == "ok", "the camera")
    assert session.submit({"type": "new_game", "players": ["Ann"], "rules": "yatzy"}).ok
    before = roll_and_wait(session, 1)["game"]

    status_led.clear_states()
    lens.covered = True
    wait_for(session, lambda s: s["table"]["moving"], "the dice to be seen moving")
    deadline = time.monotonic() + WAIT
    while len(status_led.states) < 3 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert [s.state for s in status_led.states[:3]] in ([True, False, True], [False, True, False])  # blinking

    lens.covered = False  # the hand goes away: the same dice lie there, still
    state = wait_for(session, lambda s: not s["table"]["moving"], "the tray to come to rest")
    assert state["game"] == before  # no roll counted
    assert status_led.state is True  # steady: waiting for a roll


def test_closing_the_session_closes_the_camera_and_releases_the_pins(
    make_session, mock_factory, manual_clock
):
    session, lens = session_with_pins_and_lens(make_session, mock_factory, manual_clock)
    wait_for(session, lambda s: s["table"]["camera"]["state"] == "ok", "the camera")
    assert lens.is_open
    session.close()
    assert not lens.is_open
    assert mock_factory.pin(PINS.status_led).state is False  # LEDs go dark with their pins
    Controls(PINS, ControlsConfig(), lambda event: None, mock_factory, manual_clock).close()  # pins are free


def test_a_failing_camera_is_retried_with_a_growing_pause_and_picked_up_again():
    sim = SimTable(320, 240, fps=10, seed=3)
    source = UnpluggableSource(sim)
    source.plugged = False
    statuses: list[CameraStatus] = []
    pauses: list[float] = []
    back = threading.Event()

    def wait(seconds: float) -> None:  # the loop's pause, recorded instead of slept
        if statuses and statuses[-1].state == "ok":
            back.set()
            loop._stop.wait(0.01)  # frames: a real (short) wait, so the test does not spin
            return
        pauses.append(seconds)
        if len(pauses) == 6:
            source.plugged = True

    loop = CameraLoop(
        source,
        CalibrationProfile(),
        on_dice=lambda seen: None,
        on_status=statuses.append,
        backoff=Backoff(first=0.5, longest=4.0),
        wait=wait,
    )
    loop.start()
    try:
        assert back.wait(WAIT)
    finally:
        loop.stop()
    assert pauses == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    assert [s.state for s in statuses] == ["missing", "ok"]
    assert statuses[0].error == "camera not found"
    assert not source.is_open


def test_a_frame_the_reader_fails_on_is_logged_and_the_next_frames_are_read(monkeypatch, caplog):
    """A bug the reader meets on one odd frame must not end the camera thread: the watchdog would restart
    the whole service for it."""
    read = StreamReader.read
    calls = 0

    def failing_once(reader: StreamReader, frame: np.ndarray) -> Reading:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise IndexError("a bug the second frame meets")
        return read(reader, frame)

    monkeypatch.setattr(StreamReader, "read", failing_once)
    readings: list[Reading] = []
    enough = threading.Event()

    def wait(seconds: float) -> None:  # after each frame: record its reading instead of sleeping
        readings.append(loop.latest()[1])
        if len(readings) == 4:
            enough.set()
        loop._stop.wait(0.01)

    statuses: list[CameraStatus] = []
    sim = SimTable(320, 240, fps=10, seed=3)
    loop = CameraLoop(UnpluggableSource(sim), CALIBRATED, lambda seen: None, statuses.append, wait=wait)
    loop.start()
    try:
        assert enough.wait(WAIT)
        assert loop.alive(max_age=WAIT)
    finally:
        loop.stop()
    assert [reading.problem for reading in readings[:4]] == [None, READER_FAILED, None, None]
    assert readings[1].frame_size == (320, 240) and readings[1].dice == ()
    assert len(readings[2].dice) == 5
    assert [status.state for status in statuses] == ["ok"]
    assert "a bug the second frame meets" in caplog.text


def test_an_idle_table_publishes_nothing_new_while_a_die_is_misread_now_and_then(make_session):
    """Settled dice, nobody at the table: a flickering face on a die that lies still is no news for the
    tablets (every new version is an event to each of them, and was a beep and a warning too)."""
    made: list[MisreadingSource] = []
    session = make_session(
        wrap=lambda sim: made.append(MisreadingSource(sim)) or made[-1], profile=CALIBRATED
    )
    assert session.submit({"type": "new_game", "players": ["Ann"]}).ok
    state = roll_and_wait(session, 1)
    assert not state["table"]["moving"]
    made[0].misread(cycles=8)
    assert made[0].done.wait(WAIT), "the camera stopped taking frames"
    assert session.wait_for_change(state["version"], 0.3) is None, session.snapshot()["table"]
    assert session.snapshot()["game"]["dice"] == state["game"]["dice"]


def test_the_snapshot_carries_the_live_camera_frame_rate_without_new_versions(make_session):
    session = make_session()
    state = wait_for(session, lambda s: s["table"]["camera"]["state"] == "ok", "the camera")
    deadline = time.monotonic() + WAIT
    while session.snapshot()["table"]["camera"]["fps"] == 0.0:
        assert time.monotonic() < deadline, "the frame rate stayed 0"
        time.sleep(0.01)
    assert session.snapshot()["version"] == state["version"]  # a rate that changes each frame is not news
    result = session.submit({"type": "new_game", "players": ["Ann"]})
    pushed = session.wait_for_change(result.version - 1, WAIT)  # what the live stream sends
    assert pushed["table"]["camera"]["fps"] > 0.0

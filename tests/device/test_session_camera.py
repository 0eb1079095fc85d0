"""The session with the real camera path: simulated tray -> dice reader -> roll watcher -> game.

Frames are rendered, read and watched exactly as on the appliance; the tests wait on published snapshots,
never on fixed sleeps. A source that can be "unplugged" shows the game going on without the camera.
"""

from __future__ import annotations

import numpy as np
import pytest

from device.calibration_desk import CalibrationDesk
from device.camera_loop import Backoff, CameraLoop
from device.profile_store import ProfileStore
from device.session import TableSession
from device.simtable import SimTable
from device.store import GameStore
from vision.profile import CalibrationProfile
from vision.sources import FrameSource, SourceError
from vision.watcher import RollWatcher

WAIT = 20.0  # generous ceiling for a slow shared machine; the tests end as soon as the state arrives


class UnpluggableSource(FrameSource):
    """The simulated tray behind a cable the test can pull and plug back in."""

    def __init__(self, sim: SimTable) -> None:
        super().__init__()
        self.name = "unpluggable camera"
        self.sim = sim
        self.plugged = True

    def _open(self) -> None:
        if not self.plugged:
            raise SourceError("camera not found")
        self.sim.open()

    def _grab(self) -> np.ndarray:
        if not self.plugged:
            raise SourceError("camera stopped delivering frames")
        return self.sim.read()


def wait_for(session: TableSession, condition, what: str) -> dict:
    """The first published snapshot (including the current one) that satisfies `condition`."""
    state = session.snapshot()
    while not condition(state):
        newer = session.wait_for_change(state["version"], WAIT)
        assert newer is not None, f"timed out waiting for {what}; last state: {state['table']}"
        state = newer
    return state


@pytest.fixture
def make_session(tmp_path):
    made = []

    def make(wrap=None) -> TableSession:
        store = GameStore(tmp_path / "games.db")
        sim = SimTable(960, 720, fps=10, seed=7, die_size=0.11)
        source = wrap(sim) if wrap else sim
        session = TableSession(store, sim=sim)
        camera = CameraLoop(
            source,
            CalibrationProfile(),
            session.post_dice,
            session.post_camera_status,
            make_watcher=lambda: RollWatcher(still_seconds=0.05, min_roll_seconds=0.0),
            fps=60,
            backoff=Backoff(first=0.01, longest=0.05),
        )
        session.calibration_desk = CalibrationDesk(ProfileStore(tmp_path / "state"), camera)
        session.start(camera=camera)
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
                s["game"]["rolls_used"] == rolls_used or s["table"]["warning"] not in (None, before)
            ),
            f"roll {rolls_used}",
        )
        if state["game"]["rolls_used"] == rolls_used:
            return state
    raise AssertionError(f"{throws} throws never counted as roll {rolls_used}: {state['table']['warning']}")


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
    session.save_calibration()
    assert session.revert_calibration()["profile"]["pip_polarity"] == "dark"
    read = session.test_read()
    assert read["problem"] is None and len(read["values"]) == len(session.sim.tray.values)

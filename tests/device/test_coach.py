"""The tablet coach: hints from a solved table, the review of a game's decisions, and the session command.

The 'forced' rules (boxes filled top to bottom) solve in well under a second, so every test here uses them;
the hints and the review only read a table, whichever rules it was solved for.
"""

from __future__ import annotations

import shutil

import pytest

from device.advisor_cache import AdvisorCache
from device.coach import REVIEW_STEP, Coach, box_hints, keep_hint, review_game
from device.session import TableSession
from device.store import GameStore
from scoring.game import Game
from web.port import MalformedCommand

FORCED = {"players": ["Ann"], "rules": "forced", "options": {}}


def test_the_first_box_of_forced_play_makes_the_coach_keep_the_ones(forced_table):
    _, table = forced_table
    hint = keep_hint(table, {}, [1, 6, 1, 3, 4], held=[], rolls_left=2)
    assert hint["values"] == [1, 1]
    assert hint["positions"] == [0, 2]
    assert hint["ev"] > 0


def test_keep_positions_prefer_the_dice_already_held(forced_table):
    _, table = forced_table
    hint = keep_hint(table, {}, [1, 6, 1, 1, 4], held=[2, 3], rolls_left=1)
    assert hint["values"] == [1, 1, 1]
    assert hint["positions"] == [0, 2, 3]


def test_box_hints_list_the_legal_boxes_best_first(forced_table):
    _, table = forced_table
    boxes = box_hints(table, {"ones": 3}, [2, 2, 5, 6, 2])
    assert [b["box"] for b in boxes] == ["twos"]  # forced order: only the next box
    assert boxes[0]["points"] == 6


def _play(game: Game, turns: list[list]) -> None:
    for turn in turns:
        for step in turn:
            if isinstance(step, str):
                game.score(step)
            elif isinstance(step, tuple):
                game.hold(list(step))
            else:
                game.roll(step)


def test_the_review_charges_a_bad_keep_and_nothing_for_good_ones(forced_table):
    _, table = forced_table
    game = Game(["Ann"], "forced")
    # Holding nothing with three ones showing throws them away; holding all the ones is optimal.
    _play(game, [[[1, 1, 1, 5, 6], (), [2, 3, 4, 5, 6], (), [1, 3, 4, 5, 6], "ones"]])
    _play(game, [[[2, 2, 3, 4, 5], (0, 1), [2, 2, 2, 6, 6], (0, 1, 2), [2, 2, 2, 2, 6], "twos"]])
    review = review_game(table, game.setup, game.commands)["0"]
    decisions = review["decisions"]
    choices = ["reroll all", "reroll all", "score Ones", "keep 2 2", "keep 2 2 2", "score Twos"]
    assert [d["choice"] for d in decisions] == choices
    assert decisions[0]["best"] == "keep 1 1 1"
    assert decisions[0]["cost"] > 1.0
    assert [d["cost"] for d in decisions[1:]] == [0.0] * 5  # no one to keep; no roll left, one box allowed
    assert [d["round"] for d in decisions] == [1, 1, 1, 2, 2, 2]
    assert review["total_cost"] == pytest.approx(sum(d["cost"] for d in decisions), abs=0.01)


def test_scoring_early_is_charged_against_rerolling_and_undo_takes_a_decision_back(forced_table):
    _, table = forced_table
    game = Game(["Ann"], "forced")
    game.roll([1, 2, 3, 4, 5])
    game.score("ones")  # one point with two rolls left: rerolling the non-ones is worth more
    review = review_game(table, game.setup, game.commands)["0"]
    assert review["decisions"][0]["best"].startswith("reroll: keep 1")
    assert review["decisions"][0]["cost"] > 0.5
    game.undo()
    assert review_game(table, game.setup, game.commands)["0"]["decisions"] == []


def test_a_game_finished_before_its_review_caught_up_shows_no_review_until_every_decision_is_judged(
    forced_table, tmp_path
):
    # The table arrives (or the coach is switched on) late: the review is judged REVIEW_STEP commands
    # per snapshot, so the first snapshot after the last box must not pass off a part as the whole.
    state_dir = tmp_path / "state"
    shutil.copytree(forced_table[0], state_dir)
    coach = Coach(AdvisorCache(state_dir), state_dir)
    game = Game(["Ann"], "forced")
    coach.command(game, "g1", {"type": "coach", "player": 0, "on": True})
    assert coach.wait_ready(game, timeout=10)
    for box in game.rules.boxes:
        game.roll([1, 2, 3, 4, 5])
        game.score(box)
    assert game.finished and len(game.commands) > REVIEW_STEP
    views = [coach.view(game, "g1")["review"] for _ in range(-(-len(game.commands) // REVIEW_STEP))]
    assert views[:-1] == [None] * (len(views) - 1)
    assert len(views[-1]["0"]["decisions"]) == len(game.rules.boxes)


def test_maxi_gets_no_hints_and_says_why(tmp_path):
    coach = Coach(AdvisorCache(tmp_path), tmp_path)
    game = Game(["Ann", "Bob"], "maxi")
    coach.command(game, "g1", {"type": "coach", "player": 0, "on": True})
    assert not coach.wait_ready(game, timeout=10)
    game.roll([1, 1, 2, 3, 4, 5])
    view = coach.view(game, "g1")
    assert view["enabled"] == [True, False]
    assert view["kind"] is None and view["keep"] is None and view["boxes"] is None
    assert "saved rolls" in view["reason"]
    assert "solitaire" in view["note"]
    assert not (tmp_path / "advisor").exists()


def test_bad_coach_commands_are_malformed(tmp_path):
    coach = Coach(None, tmp_path)
    game = Game(["Ann"], "forced")
    for command in ({"player": "0", "on": True}, {"player": 0, "on": 1}, {"player": 3, "on": True}):
        with pytest.raises(MalformedCommand):
            coach.command(game, "g1", command)


# --- through the session -------------------------------------------------------------------------


@pytest.fixture
def session(forced_table, tmp_path):
    state_dir = tmp_path / "state"
    shutil.copytree(forced_table[0], state_dir)
    sessions = []

    def start():
        store = GameStore(state_dir / "games.sqlite3")
        session = TableSession(store, coach=Coach(AdvisorCache(state_dir), state_dir))
        session.start()
        sessions.append((session, store))
        return session

    yield start
    for session, store in sessions:
        session.close()
        store.close()


def _wait_for_coach(session: TableSession, predicate, timeout: float = 30.0) -> dict:
    snapshot = session.snapshot()
    while not predicate(snapshot["table"]["coach"]):
        changed = session.wait_for_change(snapshot["version"], timeout)
        assert changed is not None, f"the coach never got there: {snapshot['table']['coach']}"
        snapshot = changed
    return snapshot


def test_the_session_serves_hints_once_a_coach_is_on_and_keeps_the_switch_over_a_restart(session):
    table = session()
    assert table.snapshot()["table"]["coach"] is None  # no game, no coach
    assert table.submit({"type": "new_game", "players": ["Ann", "Bob"], "rules": "forced"}).ok
    assert table.submit({"type": "roll", "values": [1, 6, 1, 3, 4]}).ok
    coach = table.snapshot()["table"]["coach"]
    assert coach["enabled"] == [False, False] and coach["keep"] is None
    assert table.submit({"type": "coach", "player": 0, "on": True}).ok
    snapshot = _wait_for_coach(table, lambda c: c["keep"] is not None)
    coach = snapshot["table"]["coach"]
    assert coach["kind"] == "optimal solitaire"
    assert coach["table"]["state"] == "ready"
    assert coach["keep"]["positions"] == [0, 2]
    assert coach["boxes"][0]["box"] == "ones"
    assert "solitaire" in coach["note"]
    table.close()

    again = session()
    snapshot = _wait_for_coach(again, lambda c: c["keep"] is not None)
    assert snapshot["table"]["coach"]["enabled"] == [True, False]


def test_coach_commands_are_checked_by_the_session(session):
    table = session()
    assert not table.submit({"type": "coach", "player": 0, "on": True}).ok  # no game yet
    assert table.submit({"type": "new_game", "players": ["Ann"], "rules": "forced"}).ok
    for command in (
        {"type": "coach", "player": 0},
        {"type": "coach", "player": 0, "on": True, "loud": True},
        {"type": "coach", "player": 1, "on": True},
        {"type": "coach", "player": True, "on": True},
    ):
        with pytest.raises(MalformedCommand):
            table.submit(command)


def test_a_finished_game_carries_the_review(session):
    table = session()
    assert table.submit({"type": "new_game", "players": ["Ann"], "rules": "forced"}).ok
    assert table.submit({"type": "coach", "player": 0, "on": True}).ok
    game = Game(["Ann"], "forced")
    for box in game.rules.boxes:
        assert table.submit({"type": "roll", "values": [1, 2, 3, 4, 5]}).ok
        assert table.submit({"type": "score", "box": box}).ok
    snapshot = _wait_for_coach(table, lambda c: c["review"] is not None)
    review = snapshot["table"]["coach"]["review"]["0"]
    assert len(review["decisions"]) == len(game.rules.boxes)
    assert review["total_cost"] > 0


def test_finnish_maxi_says_it_has_too_many_boxes_not_saved_rolls(tmp_path):
    coach = Coach(AdvisorCache(tmp_path), tmp_path)
    game = Game(["Ann"], "maxi", {"variant": "finnish"})
    coach.command(game, "g1", {"type": "coach", "player": 0, "on": True})
    assert not coach.wait_ready(game, timeout=10)
    view = coach.view(game, "g1")
    assert view["table"]["state"] == "unsupported" and view["kind"] is None
    assert "20 boxes are too many" in view["reason"] and "saved rolls" not in view["reason"]
    assert view["reason"].startswith("no hints for Maxi Yatzy")

"""The games store on real SQLite files: round trips, the game list, history, statistics and bad input."""

from __future__ import annotations

import json
import random
import sqlite3
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.store import SCHEMA_VERSION, GameStore, StoreError
from scoring.game import Game, IllegalMove, MalformedCommand
from scoring.rules import RULE_NAMES


def next_legal_command(game: Game, rng: random.Random) -> dict:
    """Apply one random command the rules accept (rolls, holds, corrections, scores, the odd undo).

    Deterministic for a seeded `rng`, so a test can rebuild the exact command list another process wrote.
    """
    while True:
        command = _random_command(game, rng)
        try:
            game.apply(command)
        except IllegalMove:
            continue
        return game.commands[-1]


def _random_command(game: Game, rng: random.Random) -> dict:
    snapshot = game.snapshot()
    dice, held, count = snapshot["dice"], snapshot["held"], snapshot["dice_count"]
    fresh = [rng.randint(1, 6) for _ in range(count)]
    if not dice:
        return {"type": "roll", "values": fresh}
    keep_held = [dice[i] if i in held else value for i, value in enumerate(fresh)]
    choice = rng.random()
    if choice < 0.04 and game.commands:
        return {"type": "undo"}
    if choice < 0.3 and snapshot["rolls_left"] > 0:
        return {"type": "roll", "values": keep_held}
    if choice < 0.4:
        return {"type": "hold", "dice": sorted(rng.sample(range(count), rng.randint(0, count)))}
    if choice < 0.45:
        return {"type": "toggle_hold", "die": rng.randrange(count)}
    if choice < 0.5:
        return {"type": "correct", "values": keep_held}
    allowed = [box for box, play in game.preview().items() if play["allowed"]]
    return {"type": "score", "box": rng.choice(allowed)}


def play(store: GameStore, game_id: str, game: Game, command: dict) -> int:
    """What the session's game thread does: apply to the live game, then append before publishing."""
    game.apply(command)
    return store.append(game_id, command, game)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path / "games.sqlite3", clock=FakeClock()) as opened:
        yield opened


def new_game(store: GameStore, players=("Ann", "Bo"), rules="yatzy", options=None) -> tuple[str, Game]:
    setup = {"players": list(players), "rules": rules, "options": options or {}}
    return store.create_game(setup), Game(**setup)


# -- round trips --------------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULE_NAMES), players=st.integers(1, 3), steps=st.integers(0, 90), rng=st.randoms()
)
def test_a_reloaded_game_equals_the_live_one(rules, players, steps, rng):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "games.sqlite3"
        with GameStore(path) as store:
            game_id, live = new_game(store, players=[f"P{n}" for n in range(players)], rules=rules)
            for _ in range(steps):
                if live.finished:
                    break
                store.append(game_id, next_legal_command(live, rng), live)
            assert store.load(game_id).snapshot() == live.snapshot()
        with GameStore(path) as reopened:
            replay = reopened.replay(game_id)
            assert replay.problem is None
            assert replay.game.snapshot() == live.snapshot()
            assert replay.game.commands == live.commands


def test_append_returns_increasing_sequence_numbers(store):
    game_id, game = new_game(store)
    assert play(store, game_id, game, {"type": "roll", "values": [1, 2, 3, 4, 5]}) == 1
    assert play(store, game_id, game, {"type": "hold", "dice": [0]}) == 2


def test_append_without_the_game_checks_the_command_itself(store):
    game_id, _ = new_game(store)
    assert store.append(game_id, {"type": "roll", "values": [6, 6, 2, 2, 1]}) == 1
    assert store.load(game_id).snapshot()["dice"] == [6, 6, 2, 2, 1]


def test_an_illegal_or_malformed_command_writes_nothing(store):
    game_id, _ = new_game(store)
    before = store.list_games()
    with pytest.raises(IllegalMove, match="not rolled"):
        store.append(game_id, {"type": "score", "box": "chance"})
    with pytest.raises(MalformedCommand):
        store.append(game_id, {"type": "roll", "values": [7, 1, 1, 1, 1]})
    assert store.list_games() == before
    assert store.load(game_id).commands == []


def test_appending_before_applying_is_refused(store):
    game_id, game = new_game(store)
    with pytest.raises(ValueError, match="after applying"):
        store.append(game_id, {"type": "roll", "values": [1, 2, 3, 4, 5]}, game)


# -- bad setups and unknown ids -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "setup",
    [
        {"players": ["Ann"], "rules": "poker", "options": {}},
        {"players": [], "rules": "yatzy", "options": {}},
        {"players": [f"P{n}" for n in range(9)], "rules": "yatzy", "options": {}},
        {"players": ["Ann", "Ann"], "rules": "yatzy", "options": {}},
        {"players": ["Ann"], "rules": "yahtzee", "options": {"joker": "sometimes"}},
        {"players": ["Ann"], "rules": "yatzy", "options": {}, "colour": "red"},
        ["Ann", "yatzy"],
    ],
)
def test_a_bad_setup_raises_value_error_and_writes_nothing(store, setup):
    with pytest.raises(ValueError):
        store.create_game(setup)
    assert store.list_games() == []


def test_unknown_ids_raise_key_error_naming_the_id(store):
    for call in (store.load, store.delete_game, lambda gid: store.append(gid, {"type": "undo"})):
        with pytest.raises(KeyError, match="no game with id 'nope'"):
            call("nope")


# -- the list, resuming, deleting, history ------------------------------------------------------------


def test_list_shows_games_most_recently_played_first(store):
    first_id, first = new_game(store, players=["Ann"])
    second_id, _ = new_game(store, players=["Bo", "Cy"], rules="maxi")
    play(store, first_id, first, {"type": "roll", "values": [5, 5, 5, 2, 1]})
    play(store, first_id, first, {"type": "score", "box": "fives"})
    listed = store.list_games()
    assert [entry["id"] for entry in listed] == [first_id, second_id]
    assert listed[0] == {
        "id": first_id,
        "rules": "yatzy",
        "options": {},
        "players": ["Ann"],
        "created": 1001.0,
        "updated": 1004.0,
        "finished": False,
        "round": 2,
        "totals": {"Ann": 15},
    }
    assert listed[1]["round"] == 1 and listed[1]["totals"] == {"Bo": 0, "Cy": 0}


def test_latest_unfinished_is_the_game_to_resume(store):
    assert store.latest_unfinished() is None
    old_id, old = new_game(store)
    new_id, _ = new_game(store)
    assert store.latest_unfinished() == new_id
    play(store, old_id, old, {"type": "roll", "values": [1, 1, 1, 1, 1]})
    assert store.latest_unfinished() == old_id
    resumed = store.load(old_id)
    resumed.apply({"type": "score", "box": "yatzy"})
    store.append(old_id, {"type": "score", "box": "yatzy"}, resumed)
    assert store.load(old_id).snapshot()["players"][0]["card"] == {"yatzy": 50}


def test_delete_removes_the_game_and_its_commands(store):
    kept_id, _ = new_game(store)
    gone_id, gone = new_game(store)
    play(store, gone_id, gone, {"type": "roll", "values": [1, 2, 3, 4, 5]})
    store.delete_game(gone_id)
    assert [entry["id"] for entry in store.list_games()] == [kept_id]
    with pytest.raises(KeyError):
        store.load(gone_id)
    with sqlite3.connect(store.path) as raw:
        assert raw.execute("SELECT COUNT(*) FROM commands").fetchone()[0] == 0


SCRATCH = [1, 2, 3, 4, 6]


def play_out(store: GameStore, game_id: str, game: Game, plans: dict[str, dict[str, list[int]]]) -> None:
    """Fill every card in card order: one roll per turn, the dice from the player's plan (else SCRATCH)."""
    while not game.finished:
        name = game.current_player
        card = game.snapshot()["players"][game.players.index(name)]["card"]
        box = game.rules.open_boxes(card)[0]
        play(store, game_id, game, {"type": "roll", "values": plans.get(name, {}).get(box, SCRATCH)})
        play(store, game_id, game, {"type": "score", "box": box})


UPPER_FOURS = {
    box: [face] * 4 + [1 if face > 1 else 2]
    for face, box in enumerate(("ones", "twos", "threes", "fours", "fives", "sixes"), start=1)
}
# Yatzy: upper 4+8+12+16+20+24 = 84 (+50 bonus), yatzy 50, chance 16, every other box 0: 200.
GOOD_YATZY = {**UPPER_FOURS, "yatzy": [6] * 5}
# Yahtzee: 84 (+35), small straight 30, yahtzee 50, then five 5s in chance: 25 and a +100 bonus: 324.
GOOD_YAHTZEE = {**UPPER_FOURS, "yahtzee": [6] * 5, "chance": [5] * 5}


def test_finished_games_stay_as_history(store):
    game_id, game = new_game(store)
    play_out(store, game_id, game, {"Ann": GOOD_YATZY})
    assert store.latest_unfinished() is None
    [entry] = store.list_games()
    assert entry["finished"] is True
    assert entry["round"] == 15
    assert entry["totals"] == {"Ann": 200, "Bo": 32}
    assert store.load(game_id).snapshot() == game.snapshot()


def test_an_undo_out_of_a_finished_game_reopens_it(store):
    game_id, game = new_game(store, players=["Ann"])
    play_out(store, game_id, game, {})
    play(store, game_id, game, {"type": "undo"})
    assert store.list_games()[0]["finished"] is False
    assert store.latest_unfinished() == game_id
    assert store.player_stats() == []


def test_player_stats_across_finished_games(store):
    first_id, first = new_game(store)
    play_out(store, first_id, first, {"Ann": GOOD_YATZY})
    tie_id, tie = new_game(store)
    play_out(store, tie_id, tie, {})
    solo_id, solo = new_game(store, players=["Ann"], rules="yahtzee")
    play_out(store, solo_id, solo, {"Ann": GOOD_YAHTZEE})
    assert solo.total(0) == 324
    new_game(store, players=["Ann", "Cy"])  # unfinished: not counted

    ann, bo = store.player_stats()
    assert ann == {
        "name": "Ann",
        "games": 3,
        "wins": 3,
        "average_total": 185.3,
        "best_total": 324,
        "upper_bonus_rate": 0.667,
        "yatzy_count": 3,
    }
    assert bo == {
        "name": "Bo",
        "games": 2,
        "wins": 1,
        "average_total": 32.0,
        "best_total": 32,
        "upper_bonus_rate": 0.0,
        "yatzy_count": 0,
    }
    assert [row["games"] for row in store.player_stats(rules="yatzy")] == [2, 2]


# -- replay problems, the file itself, threads --------------------------------------------------------


def test_a_stored_command_that_no_longer_replays_stops_the_replay_and_play_goes_on(store):
    game_id, game = new_game(store, players=["Ann"])
    play(store, game_id, game, {"type": "roll", "values": [3, 3, 3, 5, 5]})
    with sqlite3.connect(store.path) as raw:  # what an older pipkeeper with other rules might have left
        for seq, command in ((2, {"type": "score", "box": "villa"}), (3, {"type": "score", "box": "chance"})):
            raw.execute(
                "INSERT INTO commands (game_id, seq, command, at) VALUES (?, ?, ?, 0)",
                (game_id, seq, json.dumps(command)),
            )
    replay = store.replay(game_id)
    assert "stored command 2" in replay.problem and "villa" in replay.problem
    assert replay.game.snapshot() == game.snapshot()

    assert play(store, game_id, game, {"type": "score", "box": "full_house"}) == 4
    again = store.replay(game_id)
    assert again.problem is None
    assert again.game.snapshot() == game.snapshot()


def test_the_file_is_versioned_wal_and_append_only(store):
    game_id, game = new_game(store)
    play(store, game_id, game, {"type": "roll", "values": [1, 2, 3, 4, 5]})
    with sqlite3.connect(store.path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("UPDATE commands SET command = '{}'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM commands")
        with pytest.raises(sqlite3.IntegrityError, match="increase"):
            raw.execute("INSERT INTO commands VALUES (?, 1, '{}', 0)", (game_id,))


def test_a_file_from_a_newer_pipkeeper_is_refused(tmp_path):
    path = tmp_path / "games.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer pipkeeper"):
        GameStore(path)


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"these are not the games you are looking for" * 100)
    with pytest.raises(StoreError, match="not a usable"):
        GameStore(path)


def test_readers_on_other_threads_while_the_game_thread_appends(store):
    game_id, game = new_game(store)
    done, failures, reads = threading.Event(), [], []

    def read_history() -> None:
        try:
            while not done.is_set():
                reads.append(len(store.load(game_id).commands))
                store.list_games()
                store.player_stats()
        except Exception as exc:  # noqa: BLE001 - the assertion below reports it
            failures.append(exc)

    reader = threading.Thread(target=read_history)
    reader.start()
    rng = random.Random(7)
    try:
        for _ in range(80):
            store.append(game_id, next_legal_command(game, rng), game)
    finally:
        done.set()
        reader.join()
    assert failures == []
    assert reads == sorted(reads) and reads
    assert store.load(game_id).snapshot() == game.snapshot()

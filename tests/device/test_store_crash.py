"""A writer process killed mid-game loses nothing it acknowledged, and the game plays on after a reopen.

The writer is this very file run as a script: it creates a game, plays a seeded random legal game into the
store and prints each sequence number once `append` has returned (the commit is on disk). The test reads a
few acknowledgements, SIGKILLs the writer while it is writing the next command, and checks the file.
"""

from __future__ import annotations

import importlib.util
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from device.store import GameStore
from scoring.game import Game

SETUP = {"players": ["Ann", "Bo"], "rules": "yatzy", "options": {}}


def _sibling(name: str):
    """The driver that plays random legal games lives with the other store tests; load it from there."""
    spec = importlib.util.spec_from_file_location(
        f"_store_tests_{name}", Path(__file__).with_name(f"{name}.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


next_legal_command = _sibling("test_store").next_legal_command


def expected_commands(seed: int, count: int) -> list[dict]:
    """The first `count` commands the writer plays with this seed (the whole game if it ends sooner)."""
    game, rng = Game(**SETUP), random.Random(seed)
    while len(game.commands) < count and not game.finished:
        next_legal_command(game, rng)
    return game.commands


def write_until_killed(path: Path, seed: int) -> None:
    """The writer: acknowledge every command on stdout only after the store has committed it."""
    store = GameStore(path)
    game_id = store.create_game(SETUP)
    print(game_id, flush=True)
    game, rng = Game(**SETUP), random.Random(seed)
    while not game.finished:
        seq = store.append(game_id, next_legal_command(game, rng), game)
        print(seq, flush=True)
    sys.stdin.read()  # never reached in the test: it kills the writer long before the game ends


@pytest.mark.parametrize("acks_before_kill", [2, 30])
def test_a_killed_writer_loses_no_acknowledged_command(tmp_path, acks_before_kill):
    path, seed = tmp_path / "games.sqlite3", 1000 + acks_before_kill
    repo = Path(__file__).resolve().parents[2]
    writer = subprocess.Popen(
        [sys.executable, __file__, str(path), str(seed)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=repo,
        env={**os.environ, "PYTHONPATH": str(repo)},
    )
    try:
        game_id = writer.stdout.readline().strip()
        acked = [int(writer.stdout.readline()) for _ in range(acks_before_kill)]
        writer.send_signal(signal.SIGKILL)
    finally:
        writer.kill()
        writer.wait()
    assert acked == list(range(1, acks_before_kill + 1))

    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with GameStore(path) as store:
        replay = store.replay(game_id)
        assert replay.problem is None
        stored = replay.game.commands
        assert len(stored) >= acked[-1]
        expected = expected_commands(seed, len(stored) + 1)
        assert stored == expected[: len(stored)]
        assert replay.game.snapshot() == Game.from_commands(SETUP, stored).snapshot()
        assert store.latest_unfinished() == game_id

        assert store.append(game_id, expected[len(stored)]) == len(stored) + 1
        assert store.load(game_id).commands == expected


if __name__ == "__main__":
    write_until_killed(Path(sys.argv[1]), int(sys.argv[2]))

"""The games database: each game is its setup plus the append-only list of commands applied to it.

Why commands rather than states: `scoring.Game` is a pure state machine, so a game's state is a function of
its setup and its commands. Storing only those keeps one source of truth (replay), gives history and undo for
free, and makes a crash harmless: the last committed command is the last thing that happened.

Durability: the file runs in WAL mode with synchronous=FULL and every appended command is its own transaction.
`append` returns only after the commit reached the disk, so anything the caller acknowledged survives a killed
process (and a power cut). A resumed game is rebuilt by replaying its commands.

Threads: one connection, shared by every thread behind a lock. The game thread is the only writer and the web
threads run a few short reads, so the lock is hardly ever contended; a single connection means `close()`
really releases the file, no per-thread connections leak from a web server's worker pool, and SQLite's own
writer lock never makes two of our threads wait on each other with a timeout. Replays run outside the lock.

Commands that no longer replay (a stored command the current rules refuse) never crash a load: the replay
stops at the last good command, records the refused stretch in `dropped` with the reason, and later appends
continue from that state, so the next load rebuilds exactly what the players saw.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device import stats
from scoring.game import Game

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1

_SCHEMA_V1 = """
CREATE TABLE games (
    id       TEXT PRIMARY KEY,
    setup    TEXT NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    summary  TEXT NOT NULL,
    results  TEXT
);
CREATE INDEX games_by_update ON games (finished, updated);
CREATE TABLE commands (
    game_id TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    command TEXT NOT NULL,
    at      REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE dropped (
    game_id   TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq  INTEGER NOT NULL,
    reason    TEXT NOT NULL,
    at        REAL NOT NULL,
    PRIMARY KEY (game_id, first_seq)
);
CREATE TRIGGER commands_never_change BEFORE UPDATE ON commands
BEGIN SELECT RAISE(ABORT, 'stored commands are append-only'); END;
CREATE TRIGGER commands_leave_with_their_game BEFORE DELETE ON commands
WHEN EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id)
BEGIN SELECT RAISE(ABORT, 'stored commands are append-only'); END;
CREATE TRIGGER commands_in_order BEFORE INSERT ON commands
WHEN NEW.seq <= (SELECT COALESCE(MAX(seq), 0) FROM commands WHERE game_id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'command sequence numbers must increase'); END;
"""


class StoreError(Exception):
    """The games file cannot be used (not a database, or written by a newer pipkeeper)."""


@dataclass(frozen=True)
class Replay:
    """A loaded game and, when some stored commands no longer replay, why the replay stopped early."""

    game: Game
    problem: str | None = None


class GameStore:
    """Games in one SQLite file; see the module docstring for the durability and threading choices."""

    def __init__(self, path: Path, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.Lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            self._conn.execute("PRAGMA busy_timeout = 5000")
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = FULL")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise StoreError(f"{self.path} is not a usable pipkeeper games file: {exc}") from exc
        except StoreError:
            self._conn.close()
            raise

    def _migrate(self) -> None:
        """Create the schema on first open; refuse a file from a newer pipkeeper rather than misread it."""
        with self._transaction() as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} was written by a newer pipkeeper (schema {version}, this one knows "
                    f"{SCHEMA_VERSION}); upgrade pipkeeper to open it"
                )
            if version == 0:
                for statement in _split_statements(_SCHEMA_V1):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction under the lock; BEGIN IMMEDIATE takes SQLite's writer lock up front."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _read(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    # -- games -----------------------------------------------------------------------------------------

    def create_game(self, setup: dict[str, Any]) -> str:
        """Store a new game and return its id; a setup the rules refuse raises ValueError, writes nothing."""
        game = _new_game(setup)
        game_id = uuid.uuid4().hex
        now = self._clock()
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO games (id, setup, created, updated, summary) VALUES (?, ?, ?, ?, ?)",
                (game_id, _dumps(game.setup), now, now, _dumps(_summary(game))),
            )
        return game_id

    def append(self, game_id: str, command: dict[str, Any], game: Game | None = None) -> int:
        """Durably add one command to a game and return its sequence number.

        Pass `game` when the caller has just applied `command` to it (the session's game thread does): the
        store then trusts it and records its state. Without `game` the store replays the game and applies the
        command itself, so an illegal command raises `IllegalMove` and writes nothing. What is stored is the
        engine's clean copy of the command (`game.commands[-1]`), exactly what a replay feeds back in. When
        the command ends the game its results are written in the same transaction; an undo out of a finished
        game clears them again.
        """
        if game is None:
            game = self.load(game_id)
            game.apply(command)
        elif not game.commands or game.commands[-1].get("type") != command.get("type"):
            raise ValueError("append a command after applying it to the game, not before")
        text = _dumps(game.commands[-1])
        now = self._clock()
        results = _dumps(_results(game)) if game.finished else None
        with self._transaction() as conn:
            self._require_game(conn, game_id)
            seq = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM commands WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            conn.execute(
                "INSERT INTO commands (game_id, seq, command, at) VALUES (?, ?, ?, ?)",
                (game_id, seq, text, now),
            )
            conn.execute(
                "UPDATE games SET updated = ?, finished = ?, summary = ?, results = ? WHERE id = ?",
                (now, int(game.finished), _dumps(_summary(game)), results, game_id),
            )
        return seq

    def load(self, game_id: str) -> Game:
        """The game rebuilt from its commands (see `replay` for the report when some no longer replay)."""
        return self.replay(game_id).game

    def replay(self, game_id: str) -> Replay:
        """Rebuild a game; stop at the last good command if a stored one is refused, record and report why."""
        with self._lock:
            row = self._conn.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise KeyError(f"no game with id {game_id!r} in {self.path}")
            commands = self._conn.execute(
                "SELECT seq, command FROM commands WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
            dropped = self._conn.execute(
                "SELECT first_seq, last_seq FROM dropped WHERE game_id = ?", (game_id,)
            ).fetchall()
        try:
            game = _new_game(json.loads(row[0]))
        except ValueError as exc:
            raise ValueError(f"game {game_id} can no longer be set up by these rules: {exc}") from exc
        for seq, text in commands:
            if any(first <= seq <= last for first, last in dropped):
                continue
            try:
                game.apply(json.loads(text))
            except Exception as exc:  # noqa: BLE001 - whatever the engine says, the table must come back up
                problem = (
                    f"stored command {seq} of game {game_id} no longer replays ({exc}); stopped before it"
                )
                self._drop(game_id, seq, commands[-1][0], problem)
                return Replay(game, problem)
        return Replay(game)

    def _drop(self, game_id: str, first_seq: int, last_seq: int, reason: str) -> None:
        """Mark a stretch of commands as skipped on replay; the commands themselves stay, untouched."""
        log.warning("%s (commands %d..%d skipped from now on)", reason, first_seq, last_seq)
        with self._transaction() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO dropped (game_id, first_seq, last_seq, reason, at)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, first_seq, last_seq, reason, self._clock()),
            )

    def list_games(self) -> list[dict[str, Any]]:
        """Every game, most recently played first, with what a resume menu or a history page shows."""
        rows = self._read(
            "SELECT id, setup, created, updated, finished, summary FROM games"
            " ORDER BY updated DESC, rowid DESC"
        )
        games = []
        for game_id, setup_text, created, updated, finished, summary_text in rows:
            setup, summary = json.loads(setup_text), json.loads(summary_text)
            games.append(
                {
                    "id": game_id,
                    "rules": setup["rules"],
                    "options": setup["options"],
                    "players": setup["players"],
                    "created": created,
                    "updated": updated,
                    "finished": bool(finished),
                    "round": summary["round"],
                    "totals": summary["totals"],
                }
            )
        return games

    def latest_unfinished(self) -> str | None:
        """The id of the game to resume after a restart: the unfinished one played most recently."""
        rows = self._read("SELECT id FROM games WHERE finished = 0 ORDER BY updated DESC, rowid DESC LIMIT 1")
        return rows[0][0] if rows else None

    def delete_game(self, game_id: str) -> None:
        """Remove a game and its commands for good; an unknown id raises KeyError."""
        with self._transaction() as conn:
            self._require_game(conn, game_id)
            conn.execute("DELETE FROM games WHERE id = ?", (game_id,))
            conn.execute("DELETE FROM commands WHERE game_id = ?", (game_id,))
            conn.execute("DELETE FROM dropped WHERE game_id = ?", (game_id,))

    def player_stats(self, rules: str | None = None) -> list[dict[str, Any]]:
        """Statistics per player name over finished games, optionally of one rule set only."""
        rows = self._read("SELECT setup, results FROM games WHERE finished = 1 ORDER BY created")
        results = [
            json.loads(results) for setup, results in rows if rules in (None, json.loads(setup)["rules"])
        ]
        return stats.player_stats(results)

    def _require_game(self, conn: sqlite3.Connection, game_id: str) -> None:
        if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise KeyError(f"no game with id {game_id!r} in {self.path}")

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _new_game(setup: dict[str, Any]) -> Game:
    """A fresh game from a stored or offered setup; anything the engine refuses becomes one ValueError."""
    if not isinstance(setup, dict):
        raise ValueError("a game setup is an object with players, rules and options")
    try:
        return Game(**setup)
    except TypeError as exc:
        raise ValueError(f"a game setup has players, rules and options only: {exc}") from exc


def _summary(game: Game) -> dict[str, Any]:
    """What the game list shows without replaying every game: the round and each player's total so far."""
    snapshot = game.snapshot()
    return {"round": snapshot["round"], "totals": {p["name"]: p["total"] for p in snapshot["players"]}}


def _results(game: Game) -> dict[str, Any]:
    """The final card of every player, kept so history and statistics never need a replay."""
    keep = ("name", "card", "upper_bonus", "extra", "total")
    players = [{key: player[key] for key in keep} for player in game.snapshot()["players"]]
    return {"players": players, "ranking": game.ranking()}


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not storable as JSON: {exc}") from exc


def _split_statements(script: str) -> list[str]:
    """The schema as single statements, to run inside our own transaction (executescript would commit)."""
    statements, pending = [], ""
    for line in script.strip().splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    return statements

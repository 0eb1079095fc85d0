"""The tablet coach (issue 7): per-player hints from the optimal-play tables, and a review of every decision.

What the scorecard gets in `table.coach` (see docs/design.md for the full schema):

- `enabled`: one switch per player, set with the session command `{"type": "coach", "player": i, "on": b}`.
  The switches are kept per game in `coach.json` in the state directory, so they survive a restart.
- `keep`: after a roll with rolls left, the best dice to keep for the current player (when their coach is
  on), as positions on the real dice; `boxes`: every legal box for the dice, best first.
- `review`: every player's decisions with the expected points each one cost against optimal play, and the
  total; built as the game goes and shown once it is over.

The values are those of optimal *solitaire* play (maximise your own expected total): in a game of several
players that is what the coach advises, not how to beat the others; the page says so.

Maxi Yatzy gets no hints: the Swedish variant's saved rolls carry over between turns, and the Finnish
variant's 20 boxes are too many for an exact table on a Pi; a heuristic would give advice we could not stand
behind. `kind` is null and `reason` gives the advisor's own reason (the table status message).

Responsiveness: `view` runs on the game thread and never touches the disk or builds anything. A watcher
thread asks `AdvisorCache` for the tables the current game needs (loading one takes a few tenths of a second,
building one tens of seconds in a child process), relays build progress by calling `notify`, which makes the
session publish a new snapshot, and hands the ready table over. One advice call on a ready table takes about
15 ms on a desktop core (the keep values of every hand for the card); answers are memoised per game state, so
a snapshot republished for a camera or cursor change costs nothing more.

Review of keeps: a keep is the set of dice *held* (on the tablet or with the hold buttons) when the next roll
came in, because that is what the game records. Scoring with rolls left is a decision against rerolling.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.advisor_cache import AdvisorCache, BuildStatus
from device.statefiles import atomic_write_json
from scoring.advisor import advice
from scoring.advisor.solver import Table
from scoring.game import Game, IllegalMove
from web.port import MalformedCommand

log = logging.getLogger(__name__)

FLAGS_FILENAME = "coach.json"
KEPT_GAMES = 50  # coach switches are remembered for this many most recent games
MEMO_SIZE = 256
POLL_SECONDS = 0.5
REVIEW_STEP = 12  # commands judged per snapshot, when a table arrives late in a game
OPTIMAL = "optimal solitaire"
SOLITAIRE_NOTE = "coach values are solitaire values per player: the best play for your own total"
NO_TABLE_REASON = "this table has no advisor"

Variant = tuple[str, tuple[tuple[str, str], ...]]


def variant_of(game: Game) -> Variant:
    return game.rules.name, tuple(sorted((str(k), str(v)) for k, v in game.rules.options.items()))


# --- pure advice from a table -----------------------------------------------------------------------


def keep_hint(
    table: Table, card: Mapping[str, int], dice: Sequence[int], held: Sequence[int], rolls_left: int
):
    """The best keep as `{"positions", "values", "ev"}`; positions prefer the dice already held."""
    best = advice.best_keep(table, card, list(dice), rolls_left)
    return {
        "positions": _positions(dice, held, best.keep),
        "values": list(best.keep),
        "ev": round(best.ev, 3),
    }


def box_hints(table: Table, card: Mapping[str, int], dice: Sequence[int]) -> list[dict[str, Any]]:
    """Every legal box for the dice, best first, with its points (Yahtzee bonus included) and value."""
    return [
        {"box": option.box, "points": option.points + option.extra, "ev": round(option.ev, 3)}
        for option in advice.box_values(table, card, list(dice))
    ]


def _positions(dice: Sequence[int], held: Sequence[int], keep: Sequence[int]) -> list[int]:
    wanted = list(keep)
    positions = []
    for position in [*sorted(held), *(p for p in range(len(dice)) if p not in held)]:
        if dice[position] in wanted:
            wanted.remove(dice[position])
            positions.append(position)
    return sorted(positions)


def _keep_label(values: Sequence[int], dice_count: int) -> str:
    if not values:
        return "reroll all"
    if len(values) == dice_count:
        return "keep all " + " ".join(str(v) for v in values)
    return "keep " + " ".join(str(v) for v in sorted(values))


@dataclass
class Decision:
    player: int
    round: int
    dice: list[int]
    rolls_left: int
    choice: str
    best: str
    cost: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "dice": self.dice,
            "rolls_left": self.rolls_left,
            "choice": self.choice,
            "best": self.best,
            "cost": round(self.cost, 3),
        }


def judge(table: Table, game: Game, command: Mapping[str, Any]) -> Decision | None:
    """The decision `command` makes in `game`'s current state (before it is applied), or None if none.

    A roll after the first of a turn is a keep decision (the held dice); a score is a box decision, and with
    rolls left also a decision not to reroll.
    """
    kind = command.get("type")
    state = game.snapshot()
    if state["finished"] or not state["dice"] or kind not in ("roll", "score"):
        return None
    player = state["current_player"]
    card = state["players"][player]["card"]
    dice, rolls_left = list(state["dice"]), state["rolls_left"]
    label = game.rules.label
    base = {"player": player, "round": state["round"], "dice": dice, "rolls_left": rolls_left}
    if kind == "roll":
        kept = [dice[i] for i in state["held"]]
        options = advice.keep_options(table, card, dice, rolls_left)
        chosen = next(o.ev for o in options if o.keep == tuple(sorted(kept)))
        best = options[0]
        return Decision(
            **base,
            choice=_keep_label(kept, len(dice)),
            best=_keep_label(best.keep, len(dice)),
            cost=max(0.0, best.ev - chosen),
        )
    boxes = advice.box_values(table, card, dice)
    chosen = next(o.ev for o in boxes if o.box == command["box"])
    best_ev, best_label = boxes[0].ev, f"score {label(boxes[0].box)}"
    if rolls_left > 0:
        keep = advice.best_keep(table, card, dice, rolls_left)
        if keep.ev > best_ev + 1e-9:
            best_ev, best_label = keep.ev, f"reroll: {_keep_label(keep.keep, len(dice))}"
    return Decision(
        **base, choice=f"score {label(command['box'])}", best=best_label, cost=max(0.0, best_ev - chosen)
    )


class ReviewReplay:
    """A game's decisions judged as its commands come in (undo takes the undone decision back)."""

    def __init__(self, setup: Mapping[str, Any]) -> None:
        self._game = Game(setup["players"], setup["rules"], setup.get("options"))
        self._stack: list[Decision | None] = []
        self.done = 0

    def advance(self, table: Table, commands: Sequence[Mapping[str, Any]], limit: int | None = None) -> bool:
        """Judge up to `limit` more commands; True when caught up with `commands`."""
        end = len(commands) if limit is None else min(len(commands), self.done + limit)
        for command in commands[self.done : end]:
            decision = None
            if command.get("type") != "undo":
                decision = judge(table, self._game, command)
            self._game.apply(command)
            if command.get("type") == "undo":
                if self._stack:
                    self._stack.pop()
            else:
                self._stack.append(decision)
            self.done += 1
        return self.done >= len(commands)

    def review(self) -> dict[str, dict[str, Any]]:
        """Per player (by index, as a string for JSON): decisions in order and the total cost."""
        out: dict[str, dict[str, Any]] = {}
        for index in range(len(self._game.players)):
            mine = [d for d in self._stack if d is not None and d.player == index]
            out[str(index)] = {
                "name": self._game.players[index],
                "total_cost": round(sum(d.cost for d in mine), 3),
                "decisions": [d.to_dict() for d in mine],
            }
        return out


def review_game(table: Table, setup: Mapping[str, Any], commands: Sequence[Mapping[str, Any]]):
    """Every player's decisions in a whole game with their cost (for tests and the command line)."""
    replay = ReviewReplay(setup)
    replay.advance(table, commands)
    return replay.review()


# --- the coach of a running table ---------------------------------------------------------------------


@dataclass
class _GameCoach:
    replay: ReviewReplay | None = None
    review_error: str | None = None


@dataclass
class _Tables:
    ready: dict[Variant, Table] = field(default_factory=dict)
    status: dict[Variant, BuildStatus] = field(default_factory=dict)
    wanted: set[Variant] = field(default_factory=set)


def _unsupported_reason(game: Game, status: BuildStatus) -> str:
    """Why a rule set has no table, in the advisor's own words (saved rolls, too many boxes, ...)."""
    why = status.message.removeprefix(f"{game.rules.name}: ") or "there is no exact advisor table for them"
    return f"no hints for {game.rules.title}: {why}"


class Coach:
    """Coach switches, table readiness and hints for a `TableSession` (see the module docstring)."""

    def __init__(self, cache: AdvisorCache | None = None, state_dir: Path | None = None) -> None:
        self._cache = cache
        self._flags_path = Path(state_dir) / FLAGS_FILENAME if state_dir is not None else None
        self._flags: dict[str, list[bool]] = self._load_flags()
        self._lock = threading.Lock()
        self._tables = _Tables()
        self._games: dict[str, _GameCoach] = {}
        self._memo: OrderedDict[tuple, tuple[dict | None, list | None]] = OrderedDict()
        self._notify: Callable[[], None] = lambda: None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- lifecycle ----------------------------------------------------------------------------

    def start(self, notify: Callable[[], None]) -> None:
        """Start the watcher thread; `notify()` is called (from it) whenever the snapshot should change."""
        self._notify = notify
        if self._cache is not None and self._thread is None:
            self._thread = threading.Thread(target=self._watch, name="coach", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    # --- the session command --------------------------------------------------------------------

    def command(self, game: Game | None, game_id: str | None, command: Mapping[str, Any]) -> str:
        """Switch a player's coach on or off; MalformedCommand for bad fields, IllegalMove without a game."""
        player, on = command.get("player"), command.get("on")
        if isinstance(player, bool) or not isinstance(player, int) or not isinstance(on, bool):
            raise MalformedCommand("a coach command needs player (a seat number) and on (true or false)")
        if game is None or game_id is None:
            raise IllegalMove("start a game first")
        if not 0 <= player < len(game.players):
            raise MalformedCommand(f"player must be 0 to {len(game.players) - 1}")
        flags = self.enabled(game, game_id)
        flags[player] = on
        self._flags[game_id] = flags
        self._flags = dict(list(self._flags.items())[-KEPT_GAMES:])
        self._save_flags()
        if on:
            self._want(variant_of(game))
        return f"coach {'on' if on else 'off'} for {game.players[player]}"

    def enabled(self, game: Game, game_id: str) -> list[bool]:
        flags = list(self._flags.get(game_id, []))[: len(game.players)]
        return flags + [False] * (len(game.players) - len(flags))

    # --- the snapshot ----------------------------------------------------------------------------

    def view(self, game: Game | None, game_id: str | None) -> dict[str, Any] | None:
        """`table.coach` for the snapshot; cheap (memoised lookups), never blocks on the disk or a build."""
        if game is None or game_id is None:
            return None
        enabled = self.enabled(game, game_id)
        variant = variant_of(game)
        if any(enabled):
            self._want(variant)
        with self._lock:
            table = self._tables.ready.get(variant)
            status = self._tables.status.get(variant)
        view: dict[str, Any] = {
            "enabled": enabled,
            "kind": None,
            "reason": None,
            "note": SOLITAIRE_NOTE if len(game.players) > 1 else None,
            "table": None,
            "keep": None,
            "boxes": None,
            "review": None,
        }
        if self._cache is None:
            view["reason"] = NO_TABLE_REASON
            return view
        if status is not None:
            view["table"] = {"state": status.state, "progress": round(status.progress, 3)}
            if status.state == "unsupported":
                view["reason"] = _unsupported_reason(game, status)
                return view
            if status.state == "failed":
                view["reason"] = f"the advisor table could not be built: {status.message}"
        if table is None:
            return view
        view["kind"] = OPTIMAL
        state = game.snapshot()
        current = state["current_player"]
        if current is not None and enabled[current] and state["dice"]:
            view["keep"], view["boxes"] = self._hints(table, variant, state)
        view["review"] = self._review(table, game, game_id)
        return view

    def _hints(self, table: Table, variant: Variant, state: Mapping[str, Any]) -> tuple[dict | None, list]:
        card = state["players"][state["current_player"]]["card"]
        dice, held, rolls_left = tuple(state["dice"]), tuple(state["held"]), state["rolls_left"]
        key = (variant, tuple(sorted(card.items())), dice, held, rolls_left)
        if key in self._memo:
            self._memo.move_to_end(key)
            return self._memo[key]
        try:
            keep = keep_hint(table, card, dice, held, rolls_left) if rolls_left > 0 else None
            answer = (keep, box_hints(table, card, dice))
        except ValueError:
            log.exception("no coach hint for %s", key)
            answer = (None, None)
        self._memo[key] = answer
        while len(self._memo) > MEMO_SIZE:
            self._memo.popitem(last=False)
        return answer

    def _review(self, table: Table, game: Game, game_id: str) -> dict[str, Any] | None:
        coach = self._games.setdefault(game_id, _GameCoach())
        if coach.review_error is None:
            if coach.replay is None or coach.replay.done > len(game.commands):
                coach.replay = ReviewReplay(game.setup)
            try:
                if not coach.replay.advance(table, game.commands, REVIEW_STEP):
                    self._notify()  # the rest on the next snapshot, so other jobs on the queue go first
            except (ValueError, IllegalMove, StopIteration) as error:
                log.exception("the coach review of %s stopped", game_id)
                coach.review_error = str(error) or type(error).__name__
        if len(self._games) > 4:  # only the games played lately stay replayed in memory
            for old in list(self._games)[:-4]:
                del self._games[old]
        if not game.finished or coach.replay is None or coach.review_error is not None:
            return None
        if coach.replay.done < len(game.commands):
            return None  # a review with the last decisions still unjudged would undercount the cost
        return coach.replay.review()

    # --- tables ----------------------------------------------------------------------------------

    def _want(self, variant: Variant) -> None:
        with self._lock:
            if variant in self._tables.wanted:
                return
            self._tables.wanted.add(variant)
        self._wake.set()

    def poll(self) -> bool:
        """One pass of the watcher: ask the cache about every wanted table; True when anything changed."""
        if self._cache is None:
            return False
        changed = False
        with self._lock:
            pending = [v for v in self._tables.wanted if v not in self._tables.ready]
        for variant in pending:
            name, options = variant[0], dict(variant[1])
            with self._lock:
                old = self._tables.status.get(variant)
            if old is not None and old.state in ("unsupported", "failed"):
                continue
            try:
                status = self._cache.status(name, options)
                table = self._cache.table(name, options) if status.state == "ready" else None
            except Exception as error:  # noqa: BLE001 - a broken table must not stop the watcher
                log.exception("the advisor table of %s failed", name)
                status, table = BuildStatus("failed", 0.0, str(error)), None
            with self._lock:
                self._tables.status[variant] = status
                if table is not None:
                    self._tables.ready[variant] = table
            seen = None if old is None else (old.state, round(old.progress, 2))
            if seen != (status.state, round(status.progress, 2)):
                changed = True
        return changed

    def wait_ready(self, game: Game, timeout: float) -> bool:
        """Block until the game's table is ready or given up on (for tests); True when ready."""
        import time

        variant = variant_of(game)
        self._want(variant)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.poll()
            with self._lock:
                if variant in self._tables.ready:
                    return True
                status = self._tables.status.get(variant)
            if status is not None and status.state in ("unsupported", "failed"):
                return False
            time.sleep(0.05)
        return False

    def _watch(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(POLL_SECONDS)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                if self.poll():
                    self._notify()
            except Exception:  # noqa: BLE001 - the watcher must outlive any one bad poll
                log.exception("the coach watcher failed")

    # --- switches on disk ------------------------------------------------------------------------

    def _load_flags(self) -> dict[str, list[bool]]:
        if self._flags_path is None:
            return {}
        try:
            import json

            data = json.loads(self._flags_path.read_text())
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            str(k): [bool(x) for x in v]
            for k, v in data.items()
            if isinstance(v, list) and all(isinstance(x, bool) for x in v)
        }

    def _save_flags(self) -> None:
        if self._flags_path is None:
            return
        try:
            atomic_write_json(self._flags_path, self._flags)
        except OSError:
            log.exception("could not save the coach switches")

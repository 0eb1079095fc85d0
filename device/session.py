"""The table session: one game, fed by the camera, the buttons and the tablets, in one thread.

Everything that can change the game (a web request, a GPIO press, dice settling under the camera, the camera
going missing) becomes an item on one queue. A single game thread takes the items in order, applies them to
`scoring.Game`, appends every applied command to the store *before* publishing the new snapshot, and then
updates the LEDs and the buzzer. So the game needs no locks, every change is ordered, and whatever a tablet
has seen is already on disk. Web requests wait for their own outcome (`submit`); hardware callbacks don't.

The session implements `web.port.TablePort`; the admin calibration calls go to a `CalibrationDesk`.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from device.camera_loop import CameraLoop, CameraStatus, DiceStill, SeenDice
from device.coach import Coach
from device.controls import BUTTON_NAMES, ControlEvent, Controls
from device.cursor import BoxCursor
from device.holdmatch import HeldDie, HeldDieMissing, place_held
from device.hub import Hub
from device.simtable import SimTable
from device.store import GameStore
from scoring.game import Game, IllegalMove, check_players
from scoring.game import MalformedCommand as GameMalformed
from vision.reading import ASK_BELOW
from vision.watcher import DiceChanged, DiceMoving, DiceSettled, DiceUnreadable
from web.port import CommandResult, MalformedCommand

log = logging.getLogger(__name__)

GAME_COMMANDS = frozenset({"roll", "hold", "toggle_hold", "correct", "score", "undo"})
# Session command -> (required fields, optional fields), besides "type".
SESSION_COMMANDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "new_game": (frozenset({"players"}), frozenset({"rules", "options"})),
    "resume_game": (frozenset({"game_id"}), frozenset()),
    "delete_game": (frozenset({"game_id"}), frozenset()),
    "press": (frozenset({"button"}), frozenset({"long"})),
    "sim_roll": (frozenset(), frozenset()),
    "coach": (frozenset({"player", "on"}), frozenset()),
}
HELD_DIE_REACH = 0.75  # a held die may shift this many die sides between rolls and still be the same die
SUBMIT_TIMEOUT = 30.0
WAITING_FOR_DICE = "waiting for all dice"  # the quiet note while some dice are out of view
CANNOT_READ = "the camera cannot read"  # how the question about dice lying still but unreadable starts


class Refused(Exception):
    """The session refuses a command (no game, no camera...): same outcome as the engine's IllegalMove."""


@dataclass
class _Job:
    """One queue item: `kind` says which handler takes `payload`; `done` is set when a submitter waits."""

    kind: str
    payload: Any = None
    done: threading.Event | None = None
    result: CommandResult | None = None
    error: Exception | None = None


@dataclass
class _TableView:
    """What the session adds to the game's snapshot."""

    camera: CameraStatus = field(default_factory=lambda: CameraStatus("starting"))
    moving: bool = False
    warning: str | None = None
    confidence: list[float] = field(default_factory=list)


class TableSession:
    def __init__(
        self,
        store: GameStore,
        default_rules: str = "yatzy",
        scratch_confirm_seconds: float = 3.0,
        sim: SimTable | None = None,
        calibration: Any = None,
        clock: Callable[[], float] = time.monotonic,
        coach: Coach | None = None,
    ) -> None:
        self.store = store
        self.coach = coach if coach is not None else Coach()
        self.sim = sim
        self.calibration_desk = calibration
        self._default_rules = default_rules
        self._clock = clock
        self._queue: queue.Queue[_Job] = queue.Queue()
        self._hub: Hub[dict[str, Any]] = Hub({})
        self._no_frames: Hub[bytes] = Hub(b"")
        self._cursor = BoxCursor(scratch_confirm_seconds, clock)
        self._view = _TableView()
        self._game: Game | None = None
        self._game_id: str | None = None
        self._seen_at: tuple[tuple[int, ...], list[tuple[float, float]], float] | None = None
        self._dice_out = False  # the camera last saw fewer dice than the game needs (some in a hand)
        self._controls: Controls | None = None
        self._camera: CameraLoop | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ----------------------------------------------------------------------------

    def start(self, controls: Controls | None = None, camera: CameraLoop | None = None) -> None:
        """Resume the latest unfinished game, take over the controls and camera, start the game thread.

        The controls and the camera are built by the caller with this session's `post_control`, `post_dice`
        and `post_camera_status` as their callbacks; from here on the session closes them.
        """
        self._controls, self._camera = controls, camera
        if camera is None:
            self._view.camera = CameraStatus("missing", error="no camera configured")
        latest = self.store.latest_unfinished()
        if latest is not None:
            self._resume(latest)
        self._publish()
        self._thread = threading.Thread(target=self._run, name="game", daemon=True)
        self._thread.start()
        self.coach.start(lambda: self._queue.put(_Job("refresh")))  # table progress -> a new snapshot
        if camera is not None:
            camera.start()

    def close(self) -> None:
        """Stop the game thread, close the camera and release the GPIO pins. Safe to call twice."""
        if self._thread is not None:
            self._queue.put(_Job("stop"))
            self._thread.join(10)
            self._thread = None
        self.coach.close()
        if self._camera is not None:
            self._camera.stop()
        if self._controls is not None:
            self._controls.close()
            self._controls = None

    # --- callbacks for the hardware threads (they only enqueue) ---------------------------------

    def post_control(self, event: ControlEvent) -> None:
        self._queue.put(_Job("press", {"button": event.button, "long": event.long}))

    def post_dice(self, seen: SeenDice) -> None:
        self._queue.put(_Job("dice", seen))

    def post_camera_status(self, status: CameraStatus) -> None:
        self._queue.put(_Job("camera", status))

    # --- TablePort: the game ------------------------------------------------------------------

    def submit(self, command: Mapping[str, Any]) -> CommandResult:
        kind = command.get("type") if isinstance(command, Mapping) else None
        if kind not in GAME_COMMANDS and kind not in SESSION_COMMANDS:
            raise MalformedCommand(f"unknown command type {kind!r}")
        job = _Job("command", dict(command), threading.Event())
        if self._thread is None:
            return CommandResult(False, "the table is not running", self._hub.latest()[0])
        self._queue.put(job)
        if not job.done.wait(SUBMIT_TIMEOUT):
            return CommandResult(False, "the table did not answer in time", self._hub.latest()[0])
        if job.error is not None:
            raise job.error
        assert job.result is not None
        return job.result

    def snapshot(self) -> dict[str, Any]:
        version, value = self._hub.latest()
        return {"version": version, **self._live(value)}

    def wait_for_change(self, after_version: int, timeout: float) -> dict[str, Any] | None:
        changed = self._hub.wait_for_change(after_version, timeout)
        return None if changed is None else {"version": changed[0], **self._live(changed[1])}

    def _live(self, value: dict[str, Any]) -> dict[str, Any]:
        """The published snapshot with the camera's current frame rate.

        The rate changes with every frame, so it is not part of what is published (each publication is a new
        version sent to every tablet): it is read from the camera loop whenever a snapshot is handed out.
        """
        table = value.get("table")
        if self._camera is None or not table:
            return value
        live = self._camera.status
        if live.state != table["camera"]["state"]:
            return value  # the new state is on its way through the queue; show the published one until then
        camera = {**table["camera"], "fps": live.to_dict()["fps"]}
        return {**value, "table": {**table, "camera": camera}}

    def history(self) -> dict[str, Any]:
        return {"games": self.store.list_games(), "players": self.store.player_stats()}

    # --- TablePort: camera and admin ------------------------------------------------------------

    def wait_for_frame(self, after: int, timeout: float) -> tuple[int, bytes] | None:
        if self._camera is None:
            return self._no_frames.wait_for_change(after, timeout)
        return self._camera.wait_for_frame(after, timeout)

    def camera_alive(self, max_age: float) -> bool:
        """For the watchdog: the camera thread is making progress (frames, or retries of a missing camera)."""
        return self._camera is None or self._camera.alive(max_age)

    def status(self) -> dict[str, Any]:
        camera = self._camera.status.to_dict() if self._camera else self._view.camera.to_dict()
        camera["source"] = self._camera.source.name if self._camera else None
        return {
            "camera": camera,
            "gpio": {"pin_factory": self._controls.pin_factory_name if self._controls else None},
            "store": {"path": str(self.store.path), "games": len(self.store.list_games())},
            "sim": self.sim is not None,
        }

    def calibration(self) -> dict[str, Any]:
        return self._desk().calibration()

    def update_calibration(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        return self._desk().update(changes)

    def save_calibration(self) -> dict[str, Any]:
        return self._desk().save()

    def revert_calibration(self) -> dict[str, Any]:
        return self._desk().revert()

    def auto_calibrate(self, known_values: list[int] | None = None) -> dict[str, Any]:
        return self._desk().auto_calibrate(known_values)

    def test_read(self) -> dict[str, Any]:
        return self._desk().test_read()

    def _desk(self) -> Any:
        if self.calibration_desk is None:
            raise ValueError("this table has no camera to calibrate")
        return self.calibration_desk

    # --- the game thread --------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            deadline = self._cursor.scratch_deadline()
            timeout = None if deadline is None else max(0.01, deadline - self._clock())
            try:
                job = self._queue.get(timeout=timeout)
            except queue.Empty:
                if self._cursor.expire():
                    self._publish()
                continue
            if job.kind == "stop":
                return
            try:
                self._handle(job)
            except Exception as error:  # noqa: BLE001 - the game thread must outlive any one bad job
                log.exception("the table failed on %s", job.kind)
                job.result = CommandResult(False, f"internal error: {error}", self._hub.latest()[0])
            if job.done is not None:
                job.done.set()

    def _handle(self, job: _Job) -> None:
        if job.kind == "refresh":
            self._publish()
            return
        if job.kind == "camera":
            self._view.camera = job.payload
            if job.payload.state != "ok":
                self._view.moving = False  # no camera, no moving dice: whatever it saw last is gone
            self._publish()
            return
        if job.kind == "dice":
            self._on_dice(job.payload)
            return
        ok, message = True, ""
        try:
            if job.kind == "press":
                message = self._press(job.payload["button"], bool(job.payload.get("long")))
            else:
                message = self._command(job.payload)
        except (IllegalMove, Refused) as refusal:
            ok, message = False, str(refusal)
        except (GameMalformed, MalformedCommand) as error:
            job.error = MalformedCommand(str(error))
            return
        self._view.warning = None if ok else message
        self._beep(ok)
        job.result = CommandResult(ok, message, self._publish(always=True))

    def _command(self, command: dict[str, Any]) -> str:
        kind = command["type"]
        if kind in GAME_COMMANDS:
            return self._apply(command)
        _check_fields(command, *SESSION_COMMANDS[kind])
        if kind == "new_game":
            return self._new_game(command)
        if kind == "resume_game":
            return self._resume(_text(command, "game_id"))
        if kind == "delete_game":
            return self._delete(_text(command, "game_id"))
        if kind == "press":
            button, long = command["button"], command.get("long", False)
            if button not in BUTTON_NAMES or not isinstance(long, bool):
                raise MalformedCommand(f"button is one of {', '.join(BUTTON_NAMES)}; long is true or false")
            return self._press(button, long)
        if kind == "coach":
            return self.coach.command(self._game, self._game_id, command)
        return self._sim_roll()

    # --- session commands ---------------------------------------------------------------------

    def _new_game(self, command: dict[str, Any]) -> str:
        options = command.get("options") or {}
        rules = command.get("rules") or self._default_rules
        if not isinstance(rules, str) or not isinstance(options, dict):
            raise MalformedCommand("rules is a rule-set name and options an object")
        players = _player_names(command["players"])
        try:
            game_id = self.store.create_game({"players": players, "rules": rules, "options": options})
        except ValueError as error:
            raise Refused(str(error)) from None
        return self._resume(game_id)

    def _resume(self, game_id: str) -> str:
        try:
            replay = self.store.replay(game_id)
        except KeyError:
            raise Refused("there is no such game") from None
        self._game, self._game_id = replay.game, game_id
        self._seen_at = None
        self._dice_out = False
        self._view.confidence = []
        self._view.warning = replay.problem
        self._cursor.follow(self._game.preview(), new_roll=True)
        if self.sim is not None and self.sim.ensure_dice(self._game.rules.dice_count) and self._camera:
            self._camera.reset_watcher()
        return self._game.last_event

    def _delete(self, game_id: str) -> str:
        try:
            self.store.delete_game(game_id)
        except KeyError:
            raise Refused("there is no such game") from None
        if game_id == self._game_id:
            self._game = self._game_id = None
        return "game deleted"

    def _sim_roll(self) -> str:
        if self.sim is None:
            raise Refused("there is no simulated tray on this table: roll the real dice")
        state = self._require_game().snapshot()
        held = self._held_dice(state)
        if all(die.center is not None for die in held):  # the hand keeps the dice where the camera saw them
            keep = self.sim.nearest(die.center for die in held)
        else:
            keep = state["held"]
        self.sim.roll(keep)
        return "rolling"

    # --- the buttons ------------------------------------------------------------------------------

    def _press(self, button: str, long: bool) -> str:
        game = self._require_game()
        preview = game.preview()
        if button.startswith("hold"):
            die = int(button[len("hold") :]) - 1
            if die >= game.rules.dice_count:
                raise Refused(f"this game has {game.rules.dice_count} dice")
            return self._apply({"type": "toggle_hold", "die": die})
        if button in ("prev", "next"):
            if not self._cursor.move(preview, -1 if button == "prev" else 1):
                raise Refused("roll the dice first")
            return f"{game.rules.label(self._cursor.box)}: {preview[self._cursor.box]['points']} points"
        if button == "select":
            selection = self._cursor.select(preview)
            if selection.box is not None:
                return self._apply({"type": "score", "box": selection.box})
            if selection.armed is not None:
                return f"press SELECT again to scratch {game.rules.label(selection.armed)}"
            raise Refused("roll the dice first")
        if long:
            return self._apply({"type": "undo"})
        if self._cursor.cancel_scratch():
            return "scratch cancelled"
        raise Refused("hold UNDO for 2 seconds to undo the last move")

    # --- the camera -------------------------------------------------------------------------------

    def _on_dice(self, seen: SeenDice) -> None:
        event = seen.event
        if isinstance(event, DiceMoving):
            self._view.moving = True
            self._publish()
            return
        self._view.moving = False
        if isinstance(event, DiceStill):
            self._publish()  # the tray came to rest as it was: nothing to count
            return
        game = self._game
        if isinstance(event, DiceUnreadable):
            # Nothing will settle while it lies there: ask, with the long beep, while a roll is awaited.
            if game is not None and not game.finished and game.snapshot()["rolls_left"] > 0:
                self._view.warning = _cannot_read(len(event.regions))
                self._beep(False)
            self._publish()
            return
        warning = None
        dice_were_out, self._dice_out = self._dice_out, False
        if game is None or game.finished:
            pass
        elif len(event.values) < game.rules.dice_count:
            # Dice in a hand: the others were picked up to be thrown (the held ones lie still meanwhile).
            # Not a mistake, so no beep; the note stays only if a die really went missing.
            self._dice_out = True
            seen_count = f"the camera sees {len(event.values)} of {game.rules.dice_count}"
            self._view.warning = f"{WAITING_FOR_DICE}: {seen_count}"
        elif isinstance(event, DiceChanged) and not dice_were_out:
            warning = "the dice moved without a throw: throw again, or correct them on the tablet"
        else:
            # Settled dice, or "changed" dice that had been out of view: the watcher calls the landing of a
            # throw that kept most dice (the held ones) a nudge, but the thrown dice were in a hand meanwhile.
            warning = self._camera_roll(game, event, seen)
        if warning is not None:
            self._view.warning = warning
            self._beep(False)
        self._publish()

    def _camera_roll(self, game: Game, event: DiceSettled | DiceChanged, seen: SeenDice) -> str | None:
        """Turn settled dice into a roll; a warning instead when they cannot be one."""
        state = game.snapshot()
        if len(event.values) != game.rules.dice_count:
            return f"the camera sees {len(event.values)} dice; this game needs {game.rules.dice_count}"
        if state["rolls_left"] <= 0:
            return "no rolls left: choose a box to score"
        held = self._held_dice(state)
        try:
            positions = place_held(
                held, event.values, event.positions, HELD_DIE_REACH * max(seen.die_size, 1.0)
            )
        except HeldDieMissing as missing:
            return str(missing)
        try:
            self._apply({"type": "roll", "values": list(event.values), "held": positions})
        except IllegalMove as refusal:
            return str(refusal)
        self._seen_at = (tuple(event.values), list(event.positions), seen.die_size)
        self._view.confidence = list(seen.die_confidence)
        self._view.warning = None
        if event.confidence < ASK_BELOW:
            self._view.warning = "the camera is unsure of these dice: tap a die to correct it"
        self._beep(True)
        return None

    def _held_dice(self, state: Mapping[str, Any]) -> list[HeldDie]:
        """The held dice with where the camera saw them (if the current dice came from the camera)."""
        dice = tuple(state["dice"])
        seen = self._seen_at is not None and self._seen_at[0] == dice
        return [HeldDie(dice[i], self._seen_at[1][i] if seen else None) for i in state["held"]]

    # --- applying and publishing ------------------------------------------------------------------

    def _require_game(self) -> Game:
        if self._game is None:
            raise Refused("start a game first")
        return self._game

    def _apply(self, command: dict[str, Any]) -> str:
        """Apply a game command, store it, and move the cursor; raises (changing nothing) if refused."""
        game = self._require_game()
        before = (tuple(game.snapshot()["dice"]), game.snapshot()["rolls_used"])
        line = game.apply(command)
        try:
            self.store.append(self._game_id, game.commands[-1], game)
        except Exception:
            log.exception("could not store a command; reloading the game as stored")
            self._game = self.store.load(self._game_id)
            raise Refused("the move could not be saved, so it was not made") from None
        after = game.snapshot()
        if command["type"] != "roll":
            self._view.confidence = [] if tuple(after["dice"]) != before[0] else self._view.confidence
        self._cursor.follow(game.preview(), new_roll=(tuple(after["dice"]), after["rolls_used"]) != before)
        return line

    def _publish(self, always: bool = False) -> int:
        """Publish the snapshot as a new version; unless `always` (a person's command), only if it changed.

        The camera, the coach and timers ask for a publication whenever something *may* have changed; each
        new version is an event to every tablet, so an unchanged snapshot keeps its version.
        """
        game = self._game
        table = {
            "camera": self._view.camera.to_dict(),
            "moving": self._view.moving,
            "cursor": self._cursor.box if game is not None else None,
            "pending_scratch": self._cursor.pending_scratch if game is not None else None,
            "warning": self._view.warning,
            "confidence": list(self._view.confidence),
            "ask_below": ASK_BELOW,  # the tablet marks a die read with less confidence than this
            "sim": self.sim is not None,
            "coach": self.coach.view(game, self._game_id),
        }
        snapshot = game.snapshot() if game is not None else None
        if self._controls is not None:  # before publishing, so whoever sees the snapshot sees the LEDs too
            self._controls.show_held(snapshot["held"] if snapshot else [])
            self._controls.show_status(_status_mode(self._view))
        value = {"game_id": self._game_id, "game": snapshot, "table": table}
        version, published = self._hub.latest()
        if value == published and not always:
            return version
        return self._hub.publish(value)

    def _beep(self, accepted: bool) -> None:
        if self._controls is not None:
            self._controls.beep(accepted)


def _cannot_read(count: int) -> str:
    """The question for `count` things on the tray that look like dice but cannot be read."""
    what, them = ("a die", "it") if count == 1 else (f"{count} dice", "them")
    why = "tipped against the wall or another die, or covered?"
    return f"{CANNOT_READ} {what} ({why}): straighten {them}, or tap Enter dice"


def _status_mode(view: _TableView) -> str:
    if view.camera.state == "missing":
        return "fault"
    return "moving" if view.moving else "ready"


def _check_fields(command: Mapping[str, Any], required: frozenset[str], optional: frozenset[str]) -> None:
    given = set(command) - {"type"}
    if required - given:
        raise MalformedCommand(f"a {command['type']} command needs {', '.join(sorted(required - given))}")
    unknown = sorted(given - required - optional, key=str)
    if unknown:
        raise MalformedCommand(f"a {command['type']} command has no field {unknown[0]!r}")


def _player_names(players: Any) -> list[str]:
    """The names of a new game, stripped (`scoring.game.check_players`): not a list of strings is malformed
    (400); names the game refuses (empty, too long, another player's) are refused like a rule (409), with a
    message for the page."""
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise MalformedCommand("players must be a list of names (strings)")
    try:
        return check_players(players)
    except ValueError as error:
        raise Refused(str(error)) from None


def _text(command: Mapping[str, Any], key: str) -> str:
    value = command[key]
    if not isinstance(value, str) or not value:
        raise MalformedCommand(f"{key} must be a non-empty string")
    return value

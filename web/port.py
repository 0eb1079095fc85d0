"""The one narrow interface between the web app and the table session.

The web app never touches GPIO, the camera or the game directly: it submits commands and reads
snapshots through a `TablePort`, which `device.session.TableSession` implements. Tests can hand the app
any object with these methods.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol


class MalformedCommand(ValueError):
    """A command the table cannot even consider (unknown type, missing or unknown field): HTTP 400."""


@dataclass(frozen=True)
class CommandResult:
    """What became of one submitted command. `ok=False` means refused by the rules (HTTP 409)."""

    ok: bool
    message: str
    version: int


class TablePort(Protocol):
    # --- the game ---------------------------------------------------------------------------
    def submit(self, command: Mapping[str, Any]) -> CommandResult:
        """Apply one command on the game thread and wait for the outcome.

        Game commands are those of `scoring.game` (roll, hold, toggle_hold, correct, score, undo);
        the session adds `new_game` {players, rules, options}, `resume_game` {game_id},
        `delete_game` {game_id}, `press` {button, long} (an on-screen copy of a GPIO button:
        hold1..hold6, prev, next, select, undo) and `sim_roll` (roll the simulated tray).
        Raises `MalformedCommand` for malformed input.
        """

    def snapshot(self) -> dict[str, Any]:
        """The current state snapshot, with its `version`."""

    def wait_for_change(self, after_version: int, timeout: float) -> dict[str, Any] | None:
        """Block until the version exceeds `after_version`; the new snapshot, or None on timeout."""

    def history(self) -> dict[str, Any]:
        """`{"games": [...], "players": [...]}`: stored games and per-player statistics."""

    # --- the camera -------------------------------------------------------------------------
    def wait_for_frame(self, after: int, timeout: float) -> tuple[int, bytes] | None:
        """The next annotated JPEG newer than frame number `after`: (number, jpeg), or None on timeout."""

    # --- admin ------------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        """Health of camera (fps, error), GPIO (pin factory) and store, for the admin page."""

    def calibration(self) -> dict[str, Any]:
        """`{"profile": <profile dict>, "saved": bool, "parameters": {name: default and range}}`."""

    def update_calibration(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Apply profile changes live (not yet saved); raises ValueError with a reason if invalid."""

    def save_calibration(self) -> dict[str, Any]: ...

    def revert_calibration(self) -> dict[str, Any]: ...

    def auto_calibrate(self, known_values: list[int] | None = None) -> dict[str, Any]:
        """Calibrate from the live frames (optionally against known face values); returns a report."""

    def test_read(self) -> dict[str, Any]:
        """Read the current frame now: values, confidence, unreadable regions."""

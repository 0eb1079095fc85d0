"""The calibration profile on disk: one current file, the last good one beside it, never a crash on load.

`calibration.json` is what the reader uses; every save first keeps the profile it replaces (when that one was
valid) as `calibration.last-good.json`, so one bad calibration is one `revert()` away from undone. Both are
written atomically (`device.statefiles`), so a power cut leaves the old file or the new one, never half.

Loading never raises: a table with a damaged profile should still start and read dice with the last good
settings (or the defaults) and say so in `warning`, rather than refuse to boot in the middle of game night.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from device.statefiles import atomic_write_json
from vision.profile import CalibrationProfile

log = logging.getLogger(__name__)

CURRENT_NAME = "calibration.json"
LAST_GOOD_NAME = "calibration.last-good.json"


class ProfileStore:
    """Load, save and revert the calibration profile in one state directory."""

    def __init__(self, state_dir: str | Path) -> None:
        self.state_dir = Path(state_dir)
        self.current_path = self.state_dir / CURRENT_NAME
        self.last_good_path = self.state_dir / LAST_GOOD_NAME
        self.warning: str | None = None  # why the last load() could not use calibration.json, if it could not

    def load(self) -> CalibrationProfile:
        """The current profile; the last good one if it is damaged; the defaults if there is none."""
        self.warning = None
        if not self.current_path.exists():
            return CalibrationProfile()
        profile, problem = _read(self.current_path)
        if profile is not None:
            return profile
        fallback, _ = _read(self.last_good_path)
        if fallback is not None:
            self.warning = f"{CURRENT_NAME} is unusable ({problem}); using the last good calibration"
        else:
            self.warning = (
                f"{CURRENT_NAME} is unusable ({problem}) and there is no last good one; using defaults"
            )
            fallback = CalibrationProfile()
        log.warning("%s", self.warning)
        return fallback

    def save(self, profile: CalibrationProfile) -> None:
        """Make `profile` current, keeping the valid profile it replaces as the last good one."""
        data = CalibrationProfile.from_dict(profile.to_dict()).to_dict()  # refuse anything invalid, first
        previous, _ = _read(self.current_path)
        if previous is not None:
            atomic_write_json(self.last_good_path, previous.to_dict())
        atomic_write_json(self.current_path, data)
        self.warning = None

    def revert(self) -> CalibrationProfile:
        """Swap back to the last good profile (the current one becomes the last good, so revert is undoable).

        Raises ValueError, changing nothing, when there is no usable last good profile.
        """
        previous, problem = _read(self.last_good_path)
        if previous is None:
            raise ValueError(f"there is no earlier calibration to go back to ({problem})")
        current, _ = _read(self.current_path)
        if current is not None:
            atomic_write_json(self.last_good_path, current.to_dict())
        atomic_write_json(self.current_path, previous.to_dict())
        self.warning = None
        return previous


def _read(path: Path) -> tuple[CalibrationProfile | None, str]:
    """The profile in `path`, or None and a short reason (missing, unreadable, not JSON, invalid)."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, f"{path.name} does not exist"
    except (OSError, UnicodeDecodeError) as error:
        return None, f"cannot read {path.name}: {error}"
    except json.JSONDecodeError as error:
        return None, f"{path.name} is not valid JSON: {error.msg} at line {error.lineno}"
    try:
        return CalibrationProfile.from_dict(data), ""
    except ValueError as error:
        return None, f"{path.name}: {error}"

"""The admin page's calibration calls: live changes to the reader, save, revert, auto-calibrate, test read.

Changes apply to the camera loop at once (the live view shows their effect on the next frame) but reach the
disk only on `save`, so a maker can experiment and walk away without breaking the table: a restart loads the
saved profile. `revert` first drops unsaved changes (back to the saved profile); with nothing unsaved it goes
back to the profile before the last save, so one bad save is undone the same way.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from device.camera_loop import CameraLoop
from device.profile_store import ProfileStore
from vision.calibrate import auto_calibrate, calibrate_to_known
from vision.reader import DEFAULT_PARAMS, PARAM_RANGES, DiceReader

CALIBRATION_FRAMES = 5
FRAME_WAIT_SECONDS = 3.0


class CalibrationDesk:
    def __init__(self, profiles: ProfileStore, camera: CameraLoop) -> None:
        self._profiles = profiles
        self._camera = camera
        self._saved = True  # the camera loop starts with the profile loaded from disk

    def calibration(self) -> dict[str, Any]:
        parameters = {
            name: {"default": DEFAULT_PARAMS[name], "min": low, "max": high}
            for name, (low, high) in PARAM_RANGES.items()
        }
        return {
            "profile": self._camera.profile.to_dict(),
            "saved": self._saved,
            "parameters": parameters,
            "warning": self._profiles.warning,
        }

    def update(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Apply profile changes live (validated: ValueError names what is wrong, nothing changes)."""
        if not isinstance(changes, Mapping):
            raise ValueError("calibration changes are a JSON object of profile fields")
        self._camera.set_profile(self._camera.profile.with_changes(**changes))
        self._saved = False
        return self.calibration()

    def save(self) -> dict[str, Any]:
        self._profiles.save(self._camera.profile)
        self._saved = True
        return self.calibration()

    def revert(self) -> dict[str, Any]:
        """Back to the saved profile; already there, back to the one before it (ValueError when none)."""
        self._camera.set_profile(self._profiles.revert() if self._saved else self._profiles.load())
        self._saved = True
        return self.calibration()

    def auto_calibrate(self, known_values: list[int] | None = None) -> dict[str, Any]:
        """Calibrate from a few live frames; a successful result is applied live, not yet saved."""
        frames = self._recent_frames()
        if known_values:
            profile, report = calibrate_to_known(frames, known_values, self._camera.profile)
        else:
            profile, report = auto_calibrate(frames, self._camera.profile)
        if report.get("ok"):
            self._camera.set_profile(profile)
            self._saved = False
        return {"report": report, **self.calibration()}

    def test_read(self) -> dict[str, Any]:
        """Read the newest frame now with the live profile."""
        frame = self._recent_frames(count=1)[0]
        reading = DiceReader(self._camera.profile).read(frame)
        return {
            "values": reading.values,
            "confidence": [round(die.confidence, 3) for die in reading.dice],
            "centers": [list(die.center) for die in reading.dice],
            "unreadable": [
                {"center": list(r.center), "size": r.size, "reason": r.reason} for r in reading.unreadable
            ],
            "problem": reading.problem,
        }

    def _recent_frames(self, count: int = CALIBRATION_FRAMES) -> list[Any]:
        """Up to `count` successive camera frames (at least one); ValueError when the camera gives none."""
        frames: list[Any] = []
        deadline = time.monotonic() + FRAME_WAIT_SECONDS
        while len(frames) < count and time.monotonic() < deadline:
            latest = self._camera.latest()
            if latest is not None and (not frames or latest[0] is not frames[-1]):
                frames.append(latest[0])
            else:
                time.sleep(0.02)
        if not frames:
            raise ValueError("the camera has not delivered a frame: check the camera status")
        return frames

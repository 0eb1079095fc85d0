"""The calibration profile: everything the reader and the camera need to know about one table.

Pure data with validation; reading and writing the file is the device's job (`device.profile_store`).
Sizes are fractions of the frame, never pixels, so one profile serves every resolution of a camera.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any

PROFILE_VERSION = 1
POLARITIES = ("auto", "dark", "light")  # dark = dark pips on light dice
# A face's side as a share of the die size its pips measure (`face_share`): 0.3 for pips of nearly half the
# side, 2 for pips of a fourteenth.
FACE_SHARES = (0.3, 2.0)
DIE_SIZES = (0.005, 0.5)  # the die side's least and greatest share of the frame's shorter side
# The camera block: key -> (lowest, highest) for numbers. `frozen` is true or false; the gains pairs are
# [red, blue]. The short names are aliases older profiles used (vision.sources maps both to picamera2).
CAMERA_NUMBERS: dict[str, tuple[float, float]] = {
    "exposure_us": (1.0, 10_000_000.0),  # microseconds: up to 10 s
    "analogue_gain": (1.0, 64.0),
    "gain": (1.0, 64.0),
}
CAMERA_PAIRS: dict[str, tuple[float, float]] = {"colour_gains": (0.01, 32.0), "awb_gains": (0.01, 32.0)}
CAMERA_KEYS = ("frozen", *CAMERA_NUMBERS, *CAMERA_PAIRS)


@dataclass(frozen=True)
class CalibrationProfile:
    tray: tuple[float, float, float, float] | None = None  # (x0, y0, x1, y1) as fractions of width/height
    # Die side as a fraction of the frame's shorter side, as the reader measures it by the pips (more than
    # the face for dice with large pips: `vision.calibrate`); None = the reader measures every frame.
    die_size: float | None = None
    pip_polarity: str = "auto"
    # The faces' side as a share of `die_size`: where the reader links pips into faces. None = the same.
    face_share: float | None = None
    reader: dict[str, float] = field(default_factory=dict)  # overrides of vision.reader's tunable parameters
    camera: dict[str, Any] = field(default_factory=dict)  # exposure_us, gain, awb_gains, frozen, ...
    version: int = PROFILE_VERSION

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["tray"] = list(self.tray) if self.tray is not None else None
        return data

    @classmethod
    def from_dict(cls, data: Any) -> CalibrationProfile:
        """Build a profile from parsed JSON, refusing anything malformed with a clear message."""
        if not isinstance(data, dict):
            raise ValueError("a calibration profile must be a JSON object")
        unknown = set(data) - {known.name for known in fields(cls)}
        if unknown:
            raise ValueError(f"unknown profile field(s): {', '.join(sorted(unknown))}")
        version = data.get("version", PROFILE_VERSION)
        if version != PROFILE_VERSION:
            raise ValueError(f"profile version {version!r} is not supported (expected {PROFILE_VERSION})")
        profile = cls(
            tray=_tray(data.get("tray")),
            die_size=_die_size(data.get("die_size")),
            pip_polarity=_polarity(data.get("pip_polarity", "auto")),
            face_share=_face_share(data.get("face_share")),
            reader=_reader(data.get("reader", {})),
            camera=_camera(data.get("camera", {})),
        )
        return profile

    def with_changes(self, **changes: Any) -> CalibrationProfile:
        """A validated copy with some fields changed."""
        return CalibrationProfile.from_dict({**self.to_dict(), **changes})


def _tray(value: Any) -> tuple[float, float, float, float] | None:
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) != 4:
        raise ValueError("tray must be [x0, y0, x1, y1] as fractions of the frame")
    x0, y0, x1, y1 = (_number(v, "tray") for v in value)
    if not (0.0 <= x0 < x1 <= 1.0 and 0.0 <= y0 < y1 <= 1.0):
        raise ValueError("tray corners must satisfy 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1")
    return (x0, y0, x1, y1)


def _die_size(value: Any) -> float | None:
    if value is None:
        return None
    size = _number(value, "die_size")
    low, high = DIE_SIZES
    if not low <= size <= high:
        raise ValueError(f"die_size must be between {low:g} and {high:g} of the frame's shorter side")
    return size


def _face_share(value: Any) -> float | None:
    return None if value is None else _in_range(value, "face_share", *FACE_SHARES)


def _polarity(value: Any) -> str:
    if value not in POLARITIES:
        raise ValueError(f"pip_polarity must be one of {', '.join(POLARITIES)}")
    return value


def _reader(value: Any) -> dict[str, float]:
    from vision.reader import PARAM_RANGES  # here: vision.reader imports this module

    mapping = _mapping(value, "reader")
    unknown = sorted((str(k) for k in mapping if k not in PARAM_RANGES), key=str)
    if unknown:
        raise ValueError(f"reader has no parameter {unknown[0]!r}; it has {', '.join(PARAM_RANGES)}")
    return {k: _in_range(v, f"reader.{k}", *PARAM_RANGES[k]) for k, v in mapping.items()}


def _camera(value: Any) -> dict[str, Any]:
    mapping = _mapping(value, "camera")
    unknown = sorted((str(k) for k in mapping if k not in CAMERA_KEYS), key=str)
    if unknown:
        raise ValueError(f"camera has no setting {unknown[0]!r}; it has {', '.join(CAMERA_KEYS)}")
    camera: dict[str, Any] = {}
    for key, item in mapping.items():
        if key == "frozen":
            if not isinstance(item, bool):
                raise ValueError("camera.frozen must be true or false")
            camera[key] = item
        elif key in CAMERA_NUMBERS:
            number = _in_range(item, f"camera.{key}", *CAMERA_NUMBERS[key])
            camera[key] = int(number) if isinstance(item, int) else number
        else:
            low, high = CAMERA_PAIRS[key]
            if not isinstance(item, list | tuple) or len(item) != 2:
                raise ValueError(
                    f"camera.{key} must be [red_gain, blue_gain], each from {low:.10g} to {high:.10g}"
                )
            camera[key] = [_in_range(gain, f"camera.{key}", low, high) for gain in item]
    return camera


def _mapping(value: Any, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{name} must be a JSON object")
    return dict(value)


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, not {value!r}")
    return number


def _in_range(value: Any, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= float(value) <= high:
        raise ValueError(f"{name} must be a number from {low:.10g} to {high:.10g}, not {value!r}")
    return float(value)

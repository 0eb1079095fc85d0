"""The calibration profile: everything the reader and the camera need to know about one table.

Pure data with validation; reading and writing the file is the device's job (`device.profile_store`).
Sizes are fractions of the frame, never pixels, so one profile serves every resolution of a camera.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

PROFILE_VERSION = 1
POLARITIES = ("auto", "dark", "light")  # dark = dark pips on light dice


@dataclass(frozen=True)
class CalibrationProfile:
    tray: tuple[float, float, float, float] | None = None  # (x0, y0, x1, y1) as fractions of width/height
    die_size: float | None = None  # expected die side as a fraction of the frame's shorter side; None = auto
    pip_polarity: str = "auto"
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
        unknown = set(data) - {"tray", "die_size", "pip_polarity", "reader", "camera", "version"}
        if unknown:
            raise ValueError(f"unknown profile field(s): {', '.join(sorted(unknown))}")
        version = data.get("version", PROFILE_VERSION)
        if version != PROFILE_VERSION:
            raise ValueError(f"profile version {version!r} is not supported (expected {PROFILE_VERSION})")
        profile = cls(
            tray=_tray(data.get("tray")),
            die_size=_die_size(data.get("die_size")),
            pip_polarity=_polarity(data.get("pip_polarity", "auto")),
            reader=_reader(data.get("reader", {})),
            camera=_mapping(data.get("camera", {}), "camera"),
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
    if not 0.005 <= size <= 0.5:
        raise ValueError("die_size must be between 0.005 and 0.5 of the frame's shorter side")
    return size


def _polarity(value: Any) -> str:
    if value not in POLARITIES:
        raise ValueError(f"pip_polarity must be one of {', '.join(POLARITIES)}")
    return value


def _reader(value: Any) -> dict[str, float]:
    mapping = _mapping(value, "reader")
    return {str(k): _number(v, f"reader.{k}") for k, v in mapping.items()}


def _mapping(value: Any, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{name} must be a JSON object")
    return dict(value)


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number")
    return float(value)

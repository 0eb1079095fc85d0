"""Where frames come from: one small interface, several cameras behind it.

Every source hands out the same thing, a BGR uint8 array of shape (height, width, 3), so the dice reader,
the roll watcher and the admin page never care whether the frame came from a Raspberry Pi camera, a USB
webcam, a video file, a folder of photos or the simulated tray. A source that cannot deliver a frame raises
`SourceError` with a message a person can act on ("camera 0 could not be opened"), never a bare OpenCV or
libcamera traceback.

Sources are opened once and read many times, like picamera2's own examples: opening a camera is slow and
may change its exposure, so the session keeps one source open for the whole game.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import cv2
import numpy as np

from vision.frames import as_bgr

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
# Clockwise quarter turns a source can give its frames -> OpenCV's rotation code (0 needs none).
TURNS = {0: None, 90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}


class SourceError(RuntimeError):
    """A frame could not be produced; the message says what to check."""


class FrameSource:
    """A camera-like thing: `open()` once, `read()` frames, `close()` at the end (or use `with`).

    Subclasses implement `_open`, `_grab` and `_close`; this base class keeps the open/closed bookkeeping
    and guarantees every frame handed out is BGR uint8 HxWx3, whatever the backend produced (grey, BGRA
    and 16-bit frames are converted by `vision.frames.as_bgr`, the same conversion the reader trusts), and
    upright as `turn` set it.
    """

    name: str = "source"

    def __init__(self) -> None:
        self._is_open = False
        self._rotation: int | None = None

    def turn(self, degrees: int) -> None:
        """Turn every frame from now on clockwise by `degrees` (0, 90, 180 or 270).

        A camera that looks at the tray at a slant must hand out pictures with the tray's near side at the
        bottom: the reader tells a die's side face from its top face partly by which lies lower. A camera
        mounted on the far side of the tray, or upside down, is set right here rather than by remounting it.
        """
        if degrees not in TURNS:
            raise ValueError(
                f"a frame can be turned by {', '.join(map(str, TURNS))} degrees, not {degrees!r}"
            )
        self._rotation = TURNS[degrees]

    @property
    def is_open(self) -> bool:
        return self._is_open

    def open(self) -> None:
        """Acquire the device or file. Opening an open source does nothing (the camera is opened once)."""
        if self._is_open:
            return
        self._open()
        self._is_open = True

    def read(self) -> np.ndarray:
        """The next frame as BGR uint8 (height, width, 3); raises `SourceError` when there is none."""
        if not self._is_open:
            raise SourceError(f"{self.name} is not open: call open() first or use it in a `with` block")
        image, problem = as_bgr(self._grab())
        if image is None:
            raise SourceError(f"{self.name} delivered an unusable frame: {problem}")
        return image if self._rotation is None else cv2.rotate(image, self._rotation)

    def close(self) -> None:
        """Release the device; safe to call twice."""
        if self._is_open:
            self._is_open = False
            self._close()

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _open(self) -> None:
        raise NotImplementedError

    def _grab(self) -> np.ndarray:
        raise NotImplementedError

    def _close(self) -> None:
        """Most sources hold nothing that needs releasing."""


# Profile camera keys -> picamera2 control names. The profile stores plain, documented names so a
# person can read and edit calibration.json; aliases accept the short names older profiles used.
_CAMERA_KEYS = {
    "exposure_us": "ExposureTime",
    "analogue_gain": "AnalogueGain",
    "gain": "AnalogueGain",
    "colour_gains": "ColourGains",
    "awb_gains": "ColourGains",
}


def picamera2_controls(camera: Mapping[str, Any]) -> dict[str, Any]:
    """Translate the profile's camera dict into picamera2 controls.

    Frozen (`{"frozen": true, "exposure_us": 8000, "analogue_gain": 2.0, "colour_gains": [1.8, 1.5]}`):
    auto exposure and auto white balance are switched off and the stored values applied, so the dice
    look the same at 8 pm as at 3 pm and the reader's thresholds keep working. Not frozen: the camera's
    automatic algorithms run. Raises ValueError for values the camera could not accept.
    """
    frozen = bool(camera.get("frozen", False))
    controls: dict[str, Any] = {"AeEnable": not frozen, "AwbEnable": not frozen}
    if not frozen:
        return controls
    for key, control in _CAMERA_KEYS.items():
        if key not in camera:
            continue
        value = camera[key]
        if control == "ColourGains":
            if not isinstance(value, list | tuple) or len(value) != 2:
                raise ValueError(f"camera.{key} must be [red_gain, blue_gain]")
            controls[control] = (_positive(value[0], key), _positive(value[1], key))
        elif control == "ExposureTime":
            controls[control] = int(round(_positive(value, key)))
        else:
            controls[control] = _positive(value, key)
    return controls


def _positive(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError(f"camera.{key} must be a positive number, not {value!r}")
    return float(value)


class Picamera2Source(FrameSource):
    """The Raspberry Pi camera through picamera2 (installed from apt on the Pi, absent elsewhere).

    picamera2 is imported inside `open()` so that laptops and CI, which do not have it, never import it.
    The "RGB888" format is used because its arrays are already in OpenCV's BGR order: no conversion cost.
    """

    def __init__(
        self, size: tuple[int, int] = (1280, 720), controls: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__()
        self.size = (int(size[0]), int(size[1]))
        self.controls = picamera2_controls(controls or {})
        self.name = f"Raspberry Pi camera {self.size[0]}x{self.size[1]}"
        self._camera: Any = None

    def _open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as error:
            raise SourceError(
                "picamera2 is not installed: on Raspberry Pi OS run `sudo apt install python3-picamera2` "
                "and create the venv with --system-site-packages"
            ) from error
        try:
            camera = Picamera2()
        except (RuntimeError, IndexError, OSError) as error:
            raise SourceError(f"no Raspberry Pi camera found ({error}); check the ribbon cable") from error
        try:
            config = camera.create_video_configuration(main={"size": self.size, "format": "RGB888"})
            camera.configure(config)
            camera.set_controls(self.controls)
            camera.start()
        except Exception as error:
            camera.close()
            raise SourceError(f"the Raspberry Pi camera could not be started: {error}") from error
        self._camera = camera

    def apply_controls(self, camera: Mapping[str, Any]) -> None:
        """Change exposure/gain/white balance on the running camera (after a recalibration)."""
        self.controls = picamera2_controls(camera)
        if self._camera is not None:
            self._camera.set_controls(self.controls)

    def current_settings(self) -> dict[str, Any]:
        """What the camera's automatic algorithms chose, as a frozen profile camera dict.

        Calibration calls this while auto exposure runs, then stores the result so the camera can be
        frozen at exactly these values.
        """
        if self._camera is None:
            raise SourceError(f"{self.name} is not open")
        metadata = self._camera.capture_metadata()
        settings: dict[str, Any] = {"frozen": True}
        if "ExposureTime" in metadata:
            settings["exposure_us"] = int(metadata["ExposureTime"])
        if "AnalogueGain" in metadata:
            settings["analogue_gain"] = float(metadata["AnalogueGain"])
        if "ColourGains" in metadata:
            settings["colour_gains"] = [float(gain) for gain in metadata["ColourGains"]]
        return settings

    def _grab(self) -> np.ndarray:
        try:
            return self._camera.capture_array("main")
        except Exception as error:
            raise SourceError(f"{self.name} stopped delivering frames: {error}") from error

    def _close(self) -> None:
        camera, self._camera = self._camera, None
        try:
            camera.stop()
        finally:
            camera.close()


class OpenCVSource(FrameSource):
    """A USB webcam (an index such as 0, or "0") or a video file through OpenCV's VideoCapture.

    A video file loops at its end so that a recorded session can drive a demo for as long as needed.
    """

    def __init__(self, device_or_path: int | str | Path, size: tuple[int, int] | None = None) -> None:
        super().__init__()
        self.device: int | None = None
        self.path: Path | None = None
        if isinstance(device_or_path, int) or (isinstance(device_or_path, str) and device_or_path.isdigit()):
            self.device = int(device_or_path)
            self.name = f"camera {self.device}"
        else:
            self.path = Path(device_or_path)
            self.name = f"video {self.path.name}"
        self.size = size
        self._capture: cv2.VideoCapture | None = None

    def _open(self) -> None:
        if self.path is not None and not self.path.is_file():
            raise SourceError(f"video file {self.path} does not exist")
        target = self.device if self.device is not None else str(self.path)
        capture = cv2.VideoCapture(target)
        if not capture.isOpened():
            capture.release()
            what = f"camera {self.device} (is it plugged in?)" if self.path is None else f"video {self.path}"
            raise SourceError(f"could not open {what}")
        if self.size is not None and self.device is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture = capture

    def _grab(self) -> np.ndarray:
        ok, frame = self._capture.read()
        if not ok and self.path is not None:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._capture.read()
        if not ok:
            problem = "has no readable frames" if self.path is not None else "returned no frame (unplugged?)"
            raise SourceError(f"{self.name} {problem}")
        return frame

    def _close(self) -> None:
        capture, self._capture = self._capture, None
        capture.release()


class FolderSource(FrameSource):
    """Photos in a folder, replayed in name order and looping: a camera stand-in for demos and tuning.

    Files that do not decode are skipped with a warning (a stray README or a half-copied JPEG should not
    stop a demo); only when no file at all decodes does `read()` fail.
    """

    def __init__(self, directory: str | Path, suffixes: Sequence[str] = IMAGE_SUFFIXES) -> None:
        super().__init__()
        self.directory = Path(directory)
        self.suffixes = tuple(s.lower() for s in suffixes)
        self.name = f"folder {self.directory.name or self.directory}"
        self.paths: list[Path] = []
        self.skipped: list[Path] = []
        self.current: Path | None = None  # the file the last frame came from
        self._next = 0

    def _open(self) -> None:
        if not self.directory.is_dir():
            raise SourceError(f"{self.directory} is not a folder")
        self.paths = sorted(p for p in self.directory.iterdir() if p.suffix.lower() in self.suffixes)
        if not self.paths:
            raise SourceError(f"{self.directory} holds no images ({', '.join(self.suffixes)})")
        self.skipped = []
        self._next = 0

    def _grab(self) -> np.ndarray:
        for _ in range(len(self.paths)):
            path = self.paths[self._next]
            self._next = (self._next + 1) % len(self.paths)
            if path in self.skipped:
                continue
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is not None:
                self.current = path
                return frame
            log.warning("skipping %s: not a readable image", path)
            self.skipped.append(path)
        raise SourceError(f"none of the {len(self.paths)} image files in {self.directory} could be read")

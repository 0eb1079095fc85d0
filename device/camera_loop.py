"""The camera thread: frames in, roll events out, and the annotated view for the admin page.

One thread owns the camera (picamera2's advice: open it once, take frames in one place). Each frame goes
through the dice reader (`vision.stream`: one working size per frame, in turn, agreed over still frames)
and the roll watcher; the watcher's events go to the session's queue. A camera that fails to open or stops
delivering is closed and retried with a growing pause, and its state ("starting", "ok", "missing") is
reported, so a pulled cable shows on the tablet while the game goes on by hand.

The annotated JPEG is encoded once per frame for every viewer, at most `jpeg_fps` times a second, and only
while someone asked for one in the last few seconds: a Pi with nobody on the admin page spends nothing on it.
"""

from __future__ import annotations

import logging
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from device.hub import Hub
from vision.annotate import annotate
from vision.frames import frame_size
from vision.profile import CalibrationProfile
from vision.reader import DiceReader
from vision.reading import Reading
from vision.sources import FrameSource
from vision.stream import StreamReader
from vision.watcher import DiceMoving, DiceSettled, Event, RollWatcher

log = logging.getLogger(__name__)

VIEWER_LINGER_SECONDS = 5.0  # keep encoding this long after the last request for a frame
JPEG_QUALITY = 80
READER_FAILED = "the reader failed on this frame (the service log has why)"


@dataclass(frozen=True)
class CameraStatus:
    state: str  # "starting" | "ok" | "missing"
    fps: float = 0.0
    error: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {"state": self.state, "fps": round(self.fps, 1), "error": self.error}


@dataclass(frozen=True)
class DiceStill:
    """The tray is still again and shows what it showed before the disturbance (a hand passed over it).

    The roll watcher reports nothing then (still dice are reported once), but whoever showed "dice moving"
    must learn that the motion is over: the status LED stops blinking and the tablet stops waiting.
    """


@dataclass(frozen=True)
class SeenDice:
    """A roll event with what the session needs besides: typical die size in pixels (for hold matching)
    and each die's confidence in the frame that settled it."""

    event: Event | DiceStill
    die_size: float = 0.0
    die_confidence: tuple[float, ...] = ()


@dataclass(frozen=True)
class Backoff:
    """Pauses between attempts to reopen a failing camera: `first`, doubling up to `longest` seconds."""

    first: float = 0.5
    longest: float = 8.0


class CameraLoop:
    def __init__(
        self,
        source: FrameSource,
        profile: CalibrationProfile,
        on_dice: Callable[[SeenDice], None],
        on_status: Callable[[CameraStatus], None],
        make_watcher: Callable[[], RollWatcher] = RollWatcher,
        fps: float = 15.0,
        jpeg_fps: float = 10.0,
        backoff: Backoff = Backoff(),
        clock: Callable[[], float] = time.monotonic,
        wait: Callable[[float], object] | None = None,
    ) -> None:
        self.source = source
        self._profile = profile
        self._reader = StreamReader(DiceReader(profile))
        self._on_dice = on_dice
        self._on_status = on_status
        self._make_watcher = make_watcher
        self._frame_period = 1.0 / fps
        self._jpeg_period = 1.0 / jpeg_fps
        self._backoff = backoff
        self._clock = clock
        self._stop = threading.Event()
        self._wait = wait or self._stop.wait  # pauses between frames and retries; tests record them
        self._fresh_watcher = threading.Event()
        self._thread: threading.Thread | None = None
        self._status = CameraStatus("starting")
        self._latest: tuple[np.ndarray, Reading] | None = None
        self._last_progress = clock()
        self._last_viewer = float("-inf")
        self._last_jpeg = float("-inf")
        self.frames: Hub[bytes] = Hub(b"")

    # --- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and close the camera (also when the thread is stuck: then it is left behind)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._close_source()

    # --- what others ask --------------------------------------------------------------------------

    @property
    def status(self) -> CameraStatus:
        return self._status

    @property
    def profile(self) -> CalibrationProfile:
        return self._profile

    def set_profile(self, profile: CalibrationProfile) -> None:
        """Read with a new calibration from the next frame on."""
        self._profile = profile
        self._reader = StreamReader(DiceReader(profile))
        apply_controls = getattr(self.source, "apply_controls", None)
        if apply_controls is not None and self.source.is_open:
            apply_controls(profile.camera)

    def reset_watcher(self) -> None:
        """Take the dice now in view as the new baseline, not as a roll (the sim tray was replaced)."""
        self._fresh_watcher.set()

    def latest(self) -> tuple[np.ndarray, Reading] | None:
        """The newest frame and its reading, if the camera has delivered one."""
        return self._latest

    def alive(self, max_age: float) -> bool:
        """True while the thread makes progress: frames arrive, or a missing camera is being retried.

        A pulled cable is not a hang (the loop reports it and retries); a driver call that never returns is,
        and only that should make the systemd watchdog restart the service.
        """
        return self._thread is not None and self._clock() - self._last_progress <= max_age

    def wait_for_frame(self, after: int, timeout: float) -> tuple[int, bytes] | None:
        self._last_viewer = self._clock()
        return self.frames.wait_for_change(after, timeout)

    # --- the thread -------------------------------------------------------------------------------

    def _run(self) -> None:
        pause = self._backoff.first
        watcher, saw_motion = self._make_watcher(), False
        frame_times: list[float] = []
        while not self._stop.is_set():
            started = self._clock()
            try:
                if not self.source.is_open:
                    self.source.open()
                    self.set_profile(self._profile)  # camera controls of the profile
                frame = self.source.read()
            except Exception as error:  # noqa: BLE001 - any camera failure means: report, close, retry
                self._close_source()
                self._set_status(CameraStatus("missing", error=str(error) or type(error).__name__))
                self._last_progress = self._clock()
                watcher, saw_motion, frame_times = self._make_watcher(), False, []
                self._wait(pause)
                pause = min(pause * 2, self._backoff.longest)
                continue
            pause = self._backoff.first
            now = self._clock()
            self._last_progress = now
            frame_times = [t for t in frame_times if now - t < 2.0] + [now]
            fps = (len(frame_times) - 1) / (now - frame_times[0]) if len(frame_times) > 1 else 0.0
            was_ok, self._status = self._status.state == "ok", CameraStatus("ok", fps)
            if not was_ok:
                self._on_status(self._status)
            if self._fresh_watcher.is_set():
                self._fresh_watcher.clear()
                if watcher.moving:
                    self._on_dice(SeenDice(DiceStill()))  # the new watcher starts from still dice
                watcher, saw_motion = self._make_watcher(), False
            reading = self._read(frame)
            self._latest = (frame, reading)
            was_moving = watcher.moving
            for event in watcher.update(reading, now):
                if isinstance(event, DiceMoving):
                    saw_motion = True
                elif isinstance(event, DiceSettled) and not saw_motion:
                    continue  # the dice already lying there when the camera started: a baseline, not a roll
                was_moving = False  # this event already tells the session whether the dice move
                confidence = tuple(die.confidence for die in reading.dice)
                self._on_dice(SeenDice(event, _die_size(reading), confidence))
            if was_moving and not watcher.moving:
                self._on_dice(SeenDice(DiceStill()))
            self._maybe_encode(frame, reading, now)
            self._wait(max(0.0, self._frame_period - (self._clock() - started)))

    def _read(self, frame: np.ndarray) -> Reading:
        """The reader's reading of `frame`, or one whose problem says the reader failed on it (logged with
        its traceback). A reader's bug on one odd frame must not end this thread: the watchdog would then
        restart the whole service for it, and the tablet would lose its camera view meanwhile."""
        try:
            return self._reader.read(frame)
        except Exception:  # noqa: BLE001 - a bug in reading one frame; the next frame is read as usual
            log.exception("reading a frame of shape %s failed", getattr(frame, "shape", None))
            return Reading(frame_size=frame_size(frame), problem=READER_FAILED)

    def _set_status(self, status: CameraStatus) -> None:
        changed = (status.state, status.error) != (self._status.state, self._status.error)
        self._status = status
        if changed:
            self._on_status(status)

    def _maybe_encode(self, frame: np.ndarray, reading: Reading, now: float) -> None:
        if now - self._last_viewer > VIEWER_LINGER_SECONDS or now - self._last_jpeg < self._jpeg_period:
            return
        image = annotate(frame, reading, self._profile)
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if ok:
            self._last_jpeg = now
            self.frames.publish(jpeg.tobytes())

    def _close_source(self) -> None:
        try:
            self.source.close()
        except Exception:  # noqa: BLE001 - closing a broken camera may fail too; it is gone either way
            log.exception("closing %s failed", self.source.name)


def _die_size(reading: Reading) -> float:
    return statistics.median(die.size for die in reading.dice) if reading.dice else 0.0

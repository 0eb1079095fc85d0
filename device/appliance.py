"""Assemble one table from the config: store, session, camera loop, GPIO controls, simulated tray.

On a Raspberry Pi the table gets the Pi camera and real pins (gpiozero picks its lgpio pin factory itself,
so nothing Pi-only is imported here). Elsewhere, or with --sim, it gets the simulated tray and gpiozero's
mock pins: the same controls, session, reader and watcher run, only the hardware is pretend.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from device.advisor_cache import AdvisorCache
from device.calibration_desk import CalibrationDesk
from device.camera_loop import CameraLoop
from device.coach import Coach
from device.config import Config
from device.controls import Controls
from device.profile_store import ProfileStore
from device.session import TableSession
from device.simtable import SimTable
from device.store import GameStore
from scoring.rules import get_rules
from vision.profile import CalibrationProfile
from vision.sources import FolderSource, FrameSource, OpenCVSource, Picamera2Source
from vision.watcher import RollWatcher

PI_MODEL_FILE = Path("/proc/device-tree/model")
GAMES_FILENAME = "games.sqlite3"


def is_raspberry_pi(model_file: Path = PI_MODEL_FILE) -> bool:
    try:
        return "Raspberry Pi" in model_file.read_text(errors="replace")
    except OSError:
        return False


@dataclass
class Table:
    session: TableSession
    store: GameStore
    sim: SimTable | None

    def close(self) -> None:
        """Camera and GPIO first (the session owns them), then the games file."""
        self.session.close()
        self.store.close()


def build_table(config: Config, state_dir: Path, on_pi: bool) -> Table:
    """Everything but the web server, started: the game thread runs and the camera is opening."""
    camera_config = config.camera
    profiles = ProfileStore(state_dir)
    profile = profiles.load()
    source_kind = camera_config.source
    if source_kind == "auto" or not on_pi and source_kind == "picamera2":
        source_kind = "picamera2" if on_pi else "sim"
    sim = None
    if source_kind == "sim":
        dice = get_rules(config.game.rules).dice_count
        sim = SimTable(camera_config.width, camera_config.height, camera_config.fps, dice_count=dice)
    source = sim if sim is not None else _camera_source(source_kind, config, profile)
    store = GameStore(Path(state_dir) / GAMES_FILENAME)
    session = TableSession(
        store,
        default_rules=config.game.rules,
        scratch_confirm_seconds=config.controls.scratch_confirm_seconds,
        sim=sim,
        coach=Coach(AdvisorCache(state_dir), state_dir),
    )
    camera = CameraLoop(
        source,
        profile,
        session.post_dice,
        session.post_camera_status,
        make_watcher=lambda: RollWatcher(still_seconds=camera_config.still_seconds),
        fps=camera_config.fps,
    )
    session.calibration_desk = CalibrationDesk(profiles, camera)
    try:
        controls = Controls(
            config.pins, config.controls, session.post_control, pin_factory=_pin_factory(on_pi)
        )
    except BaseException:
        store.close()
        raise
    session.start(controls=controls, camera=camera)
    return Table(session, store, sim)


def _camera_source(kind: str, config: Config, profile: CalibrationProfile) -> FrameSource:
    camera = config.camera
    if kind == "picamera2":
        source: FrameSource = Picamera2Source((camera.width, camera.height), controls=profile.camera)
    elif kind == "opencv":
        source = OpenCVSource(camera.device, (camera.width, camera.height))
    else:
        source = FolderSource(str(camera.device))
    source.turn(camera.turn)
    return source


def _pin_factory(on_pi: bool) -> object:
    """None lets gpiozero choose (lgpio on a Pi); elsewhere mock pins keep every GPIO code path running."""
    if on_pi:
        return None
    from gpiozero.pins.mock import MockFactory

    return MockFactory()

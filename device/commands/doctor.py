"""`pipkeeper doctor`: say in plain words what would stop the table from working, before a game does.

Each check prints one line, `OK`, `WARN` (works, but not as you may expect) or `FAIL` (pipkeeper will not
work until this is fixed), followed by what to do. The exit code is non-zero when anything FAILs, so the
installer and a person over SSH get the same verdict. Checks that talk to hardware run with a timeout:
a hung camera driver must not hang the doctor too.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import http.client
import os
import pwd
import shutil
import socket
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from device.appliance import is_raspberry_pi
from device.commands.run import PI_CONFIG
from device.config import Config, ConfigError, load_config
from device.statefiles import PI_STATE_DIR, default_state_dir

HARDWARE_TIMEOUT = 5.0
HEALTHZ_TIMEOUT = 2.0

T = TypeVar("T")


@dataclass(frozen=True)
class Finding:
    level: str  # "OK", "WARN" or "FAIL"
    topic: str
    message: str

    def line(self) -> str:
        return f"{self.level:<4}  {self.topic}: {self.message}"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check camera, GPIO, state directory, config and web port",
        description="Check everything pipkeeper needs and say in plain words what is wrong. "
        "Exits non-zero if any check FAILs.",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help=f"the config file to check (default: {PI_CONFIG} if it exists, else the built-in defaults)",
    )
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help=f"the state directory to check (default: the service's, {PI_STATE_DIR}, once installed)",
    )
    parser.set_defaults(handler=run_doctor)


def run_doctor(args: argparse.Namespace) -> int:
    findings = diagnose(args.config, args.state_dir)
    for finding in findings:
        print(finding.line())
    failed = sum(finding.level == "FAIL" for finding in findings)
    print(f"{failed} check{'s' if failed > 1 else ''} failed." if failed else "All checks passed.")
    return 1 if failed else 0


def diagnose(config_path: str | None, state_dir: str | None) -> list[Finding]:
    """Every check, in the order a person would fix things: config first, since the others read it."""
    config_finding, config = check_config(config_path)
    directory = Path(state_dir) if state_dir else _default_state_dir()
    return [
        config_finding,
        check_camera(config),
        check_gpio(),
        check_state_dir(directory),
        check_port(config.web.host, config.web.port),
    ]


# --- config ---------------------------------------------------------------------------------------------


def check_config(path: str | None) -> tuple[Finding, Config]:
    """The config finding, and the config the other checks should use (the defaults if it is broken)."""
    if path is None and PI_CONFIG.is_file():
        path = str(PI_CONFIG)
    if path is None:
        return Finding("OK", "config", "no config file given: using the built-in defaults"), Config()
    try:
        config = load_config(path)
    except ConfigError as error:
        return Finding("FAIL", "config", f"{error} (the other checks use the defaults)"), Config()
    return Finding("OK", "config", f"{path} is valid"), config


def _default_state_dir() -> Path:
    """The directory `pipkeeper run` would use: systemd's, the installed service's, else the per-user one."""
    if "STATE_DIRECTORY" not in os.environ and PI_CONFIG.is_file():
        return PI_STATE_DIR
    return default_state_dir()


# --- camera ---------------------------------------------------------------------------------------------


def check_camera(config: Config) -> Finding:
    source = config.camera.source
    if source == "auto":  # decided the way `pipkeeper run` decides it
        if not is_raspberry_pi():
            return Finding("OK", "camera", "not a Raspberry Pi: the simulated tray will be used")
        source = "picamera2"
    if source == "sim":
        return Finding("OK", "camera", "the simulated tray is configured: no camera needed")
    if source == "folder":
        return _check_frames_from("folder", lambda: _folder_frame(config.camera.device), hint="")
    if source == "opencv":
        return _check_frames_from(
            f"camera {config.camera.device}",
            lambda: opencv_frame(config.camera.device),
            hint=" (if pipkeeper is running it holds the camera: stop it first)",
        )
    return _check_pi_camera()


def _check_pi_camera() -> Finding:
    try:
        cameras = run_with_timeout(list_pi_cameras, HARDWARE_TIMEOUT)
    except ImportError:
        return Finding(
            "FAIL",
            "camera",
            "picamera2 is not installed: run `sudo apt install python3-picamera2` and make sure the venv "
            "was created with --system-site-packages (systemd/install.sh does both)",
        )
    except TimeoutError:
        return Finding("FAIL", "camera", f"libcamera did not list the cameras within {HARDWARE_TIMEOUT:g} s")
    except Exception as error:
        return Finding("FAIL", "camera", f"libcamera could not list the cameras: {error}")
    if not cameras:
        return Finding(
            "FAIL",
            "camera",
            "no Raspberry Pi camera found: check the ribbon cable (contacts facing the right way, "
            "latch closed) and that `rpicam-hello --list-cameras` sees it",
        )
    models = ", ".join(str(camera.get("Model", "unknown model")) for camera in cameras)
    return Finding("OK", "camera", f"Raspberry Pi camera found ({models})")


def _check_frames_from(what: str, grab: Callable[[], object], hint: str) -> Finding:
    try:
        run_with_timeout(grab, HARDWARE_TIMEOUT)
    except TimeoutError:
        return Finding("FAIL", "camera", f"{what} gave no frame within {HARDWARE_TIMEOUT:g} s")
    except Exception as error:
        return Finding("FAIL", "camera", f"{error}{hint}")
    return Finding("OK", "camera", f"{what} delivers frames")


def list_pi_cameras() -> list[dict]:
    """The cameras libcamera sees; ImportError when picamera2 is absent (not a Pi, or no apt package)."""
    from picamera2 import Picamera2

    return list(Picamera2.global_camera_info())


def opencv_frame(device: int | str) -> object:
    """One frame from a webcam or video through OpenCV; raises SourceError with a readable reason."""
    import cv2

    from vision.sources import OpenCVSource

    cv2.setLogLevel(0)  # silent: the finding says what went wrong, OpenCV's own warnings only add noise
    with OpenCVSource(device) as source:
        return source.read()


def _folder_frame(directory: int | str) -> object:
    from vision.sources import FolderSource

    with FolderSource(str(directory)) as source:
        return source.read()


def run_with_timeout(func: Callable[[], T], timeout: float) -> T:
    """`func()` on a daemon thread; TimeoutError if it has not returned in time (the thread is abandoned)."""
    outcome: dict[str, object] = {}

    def target() -> None:
        try:
            outcome["value"] = func()
        except BaseException as error:
            outcome["error"] = error

    thread = threading.Thread(target=target, name="doctor-probe", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"no answer within {timeout:g} s")
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


# --- GPIO -----------------------------------------------------------------------------------------------


def check_gpio() -> Finding:
    if not is_raspberry_pi():
        return Finding("WARN", "gpio", "not a Raspberry Pi: GPIO will be simulated (on-screen buttons)")
    try:
        factory_name = run_with_timeout(open_pin_factory, HARDWARE_TIMEOUT)
    except ImportError as error:
        return Finding(
            "FAIL", "gpio", f"{error}: run `sudo apt install python3-lgpio` (systemd/install.sh does this)"
        )
    except TimeoutError:
        return Finding("FAIL", "gpio", f"the GPIO chip did not answer within {HARDWARE_TIMEOUT:g} s")
    except Exception as error:
        return Finding(
            "FAIL",
            "gpio",
            f"cannot open the GPIO chip ({error}): the user needs the gpio group, and lgpio a writable "
            "working directory ($LG_WD)",
        )
    return Finding("OK", "gpio", f"GPIO chip opened with gpiozero's {factory_name}")


def open_pin_factory() -> str:
    """Open and close gpiozero's lgpio pin factory, the one the table uses on a Pi; its class name."""
    with lgpio_working_directory():
        import lgpio  # noqa: F401  (imported first so a missing apt package is named, not gpiozero's wrapper)
        from gpiozero.pins.lgpio import LGPIOFactory

        factory = LGPIOFactory()
        try:
            return type(factory).__name__
        finally:
            factory.close()


@contextlib.contextmanager
def lgpio_working_directory() -> Iterator[None]:
    """A writable $LG_WD for lgpio's notification pipes, as the service gets one from its unit.

    Without it lgpio uses the current directory, and `sudo -u pipkeeper pipkeeper doctor` run from a home
    directory the service user cannot write would report a GPIO failure the service itself does not have.
    """
    if os.environ.get("LG_WD"):
        yield
        return
    directory = tempfile.mkdtemp(prefix="pipkeeper-lgpio-")
    os.environ["LG_WD"] = directory
    try:
        yield
    finally:
        os.environ.pop("LG_WD", None)
        shutil.rmtree(directory, ignore_errors=True)


# --- state directory ------------------------------------------------------------------------------------


def check_state_dir(directory: Path) -> Finding:
    if not directory.exists():
        parent = next((p for p in directory.parents if p.exists()), None)
        if parent is not None and parent.is_dir() and os.access(parent, os.W_OK | os.X_OK):
            return Finding(
                "WARN", "state", f"{directory} does not exist yet; pipkeeper creates it on first run"
            )
        return Finding("FAIL", "state", f"{directory} does not exist and cannot be created here")
    if not directory.is_dir():
        return Finding("FAIL", "state", f"{directory} is not a directory")
    try:
        with tempfile.TemporaryFile(dir=directory, prefix=".doctor-"):
            pass
    except OSError as error:
        return Finding(
            "FAIL",
            "state",
            f"{directory} is not writable by this user: {error.strerror or error}{_owner_hint(directory)}",
        )
    mode = directory.stat().st_mode & 0o777
    if mode & 0o077:
        return Finding(
            "WARN",
            "state",
            f"{directory} can be read by other users (mode {mode:04o}); it holds the games and the admin "
            f"password hash: `chmod 700 {directory}`",
        )
    return Finding("OK", "state", f"{directory} is writable and private")


def _owner_hint(directory: Path) -> str:
    """When someone else owns the directory: how to run the doctor as that user instead."""
    owner = directory.stat().st_uid
    if owner == os.geteuid():
        return ""
    try:
        name = pwd.getpwuid(owner).pw_name
    except KeyError:
        return f" (it belongs to user id {owner}, which does not exist)"
    return f" (it belongs to {name}: check as that user, `sudo -u {name} pipkeeper doctor`)"


# --- web port -------------------------------------------------------------------------------------------


def check_port(host: str, port: int) -> Finding:
    where = f"{host}:{port}"
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            if pipkeeper_answers(host, port):
                return Finding("OK", "web", f"{where} is served by a running pipkeeper (it answers /healthz)")
            return Finding(
                "FAIL", "web", f"port {port} is taken by another program: stop it or change web.port"
            )
        if error.errno == errno.EACCES:
            return Finding("FAIL", "web", f"port {port} needs root; choose a port above 1023 in web.port")
        if error.errno == errno.EADDRNOTAVAIL:
            return Finding("FAIL", "web", f"{host} is not an address of this machine: fix web.host")
        return Finding("FAIL", "web", f"cannot listen on {where}: {error.strerror or error}")
    return Finding("OK", "web", f"{where} is free")


def pipkeeper_answers(host: str, port: int) -> bool:
    """True when whatever holds the port answers pipkeeper's /healthz."""
    target = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    connection = http.client.HTTPConnection(target, port, timeout=HEALTHZ_TIMEOUT)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()

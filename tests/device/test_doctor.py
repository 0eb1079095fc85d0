"""`pipkeeper doctor` names each problem in plain words and fails only on real FAILs.

Hardware probes (picamera2's camera list, the lgpio pin factory, "is this a Raspberry Pi") are replaced by
fakes; files, folders, sockets and the HTTP /healthz probe are real.
"""

import os
import socket
import sys
import threading
import types
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cv2
import numpy as np
import pytest

from device.cli import main
from device.commands import doctor
from device.config import Config, parse_config
from device.statefiles import PI_STATE_DIR
from vision.sources import SourceError


@pytest.fixture(autouse=True)
def not_a_pi_without_pi_config(monkeypatch, tmp_path):
    """Every test starts on 'a laptop': not a Raspberry Pi, no /etc/pipkeeper/config.toml."""
    monkeypatch.setattr(doctor, "is_raspberry_pi", lambda: False)
    monkeypatch.setattr(doctor, "PI_CONFIG", tmp_path / "no-such-config.toml")


@pytest.fixture
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def private_state_dir(tmp_path):
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    return state


def config_with(text: str) -> Config:
    return parse_config(text)


def test_a_healthy_laptop_passes_with_gpio_simulated(tmp_path, free_port, private_state_dir, capsys):
    config = tmp_path / "config.toml"
    config.write_text(f"[web]\nport = {free_port}\n")
    code = main(["doctor", "--config", str(config), "--state-dir", str(private_state_dir)])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[0] == f"OK    config: {config} is valid"
    assert "WARN  gpio: not a Raspberry Pi: GPIO will be simulated (on-screen buttons)" in lines
    assert f"OK    state: {private_state_dir} is writable and private" in lines
    assert f"OK    web: 127.0.0.1:{free_port} is free" in lines
    assert lines[-1] == "All checks passed."


def test_a_broken_config_fails_by_name_and_the_other_checks_still_run(tmp_path, private_state_dir, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[web]\nprot = 8080\n")
    code = main(["doctor", "--config", str(config), "--state-dir", str(private_state_dir)])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith("FAIL  config: ")
    assert "web.prot" in out.splitlines()[0]
    assert len(out.splitlines()) == 6  # five checks and the verdict
    assert out.splitlines()[-1] == "1 check failed."


def test_the_pi_config_is_checked_when_no_config_is_given(monkeypatch, tmp_path):
    pi_config = tmp_path / "config.toml"
    pi_config.write_text('[camera]\nsource = "webcam"\n')
    monkeypatch.setattr(doctor, "PI_CONFIG", pi_config)
    finding, config = doctor.check_config(None)
    assert finding.level == "FAIL"
    assert "camera.source" in finding.message
    assert config == Config()


# --- camera ---------------------------------------------------------------------------------------------


def test_pi_camera_listed(monkeypatch):
    monkeypatch.setattr(doctor, "is_raspberry_pi", lambda: True)
    monkeypatch.setattr(doctor, "list_pi_cameras", lambda: [{"Model": "imx708", "Num": 0}])
    finding = doctor.check_camera(Config())
    assert (finding.level, finding.message) == ("OK", "Raspberry Pi camera found (imx708)")


def test_pi_camera_missing_points_at_the_ribbon_cable(monkeypatch):
    monkeypatch.setattr(doctor, "is_raspberry_pi", lambda: True)
    monkeypatch.setattr(doctor, "list_pi_cameras", lambda: [])
    finding = doctor.check_camera(Config())
    assert finding.level == "FAIL"
    assert "ribbon cable" in finding.message


def test_picamera2_absent_says_which_package(monkeypatch):
    def no_picamera2():
        raise ImportError("No module named 'picamera2'")

    monkeypatch.setattr(doctor, "list_pi_cameras", no_picamera2)
    finding = doctor.check_camera(config_with('[camera]\nsource = "picamera2"\n'))
    assert finding.level == "FAIL"
    assert "sudo apt install python3-picamera2" in finding.message
    assert "--system-site-packages" in finding.message


def test_a_hung_camera_times_out_instead_of_hanging_the_doctor(monkeypatch):
    release = threading.Event()
    monkeypatch.setattr(doctor, "HARDWARE_TIMEOUT", 0.05)
    monkeypatch.setattr(doctor, "is_raspberry_pi", lambda: True)
    monkeypatch.setattr(doctor, "list_pi_cameras", lambda: release.wait(10) and [])
    try:
        finding = doctor.check_camera(Config())
    finally:
        release.set()
    assert finding.level == "FAIL"
    assert "did not list the cameras within" in finding.message


def test_a_webcam_that_fails_is_named(monkeypatch):
    def unplugged(device):
        raise SourceError(f"could not open camera {device} (is it plugged in?)")

    monkeypatch.setattr(doctor, "opencv_frame", unplugged)
    finding = doctor.check_camera(config_with('[camera]\nsource = "opencv"\ndevice = 2\n'))
    assert finding.level == "FAIL"
    assert finding.message == (
        "could not open camera 2 (is it plugged in?)"
        " (if pipkeeper is running it holds the camera: stop it first)"
    )


def test_a_missing_video_file_fails_through_the_real_source(tmp_path):
    missing = tmp_path / "table.mp4"
    finding = doctor.check_camera(config_with(f'[camera]\nsource = "opencv"\ndevice = "{missing}"\n'))
    assert finding.level == "FAIL"
    assert "does not exist" in finding.message


def test_a_folder_of_photos(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    config = config_with(f'[camera]\nsource = "folder"\ndevice = "{photos}"\n')
    assert doctor.check_camera(config).level == "FAIL"
    cv2.imwrite(str(photos / "tray.png"), np.full((480, 640, 3), 90, np.uint8))
    assert doctor.check_camera(config).level == "OK"


def test_the_simulated_tray_needs_no_camera():
    assert doctor.check_camera(config_with('[camera]\nsource = "sim"\n')).level == "OK"


# --- GPIO -----------------------------------------------------------------------------------------------


def test_gpio_ready_on_a_pi(monkeypatch):
    monkeypatch.setattr(doctor, "is_raspberry_pi", lambda: True)
    monkeypatch.setattr(doctor, "open_pin_factory", lambda: "LGPIOFactory")
    finding = doctor.check_gpio()
    assert (finding.level, finding.message) == ("OK", "GPIO chip opened with gpiozero's LGPIOFactory")


@pytest.mark.parametrize(
    ("error", "advice"),
    [
        (ImportError("No module named 'lgpio'"), "sudo apt install python3-lgpio"),
        (PermissionError(13, "Permission denied"), "gpio group"),
    ],
)
def test_gpio_problems_on_a_pi(monkeypatch, error, advice):
    def failing():
        raise error

    monkeypatch.setattr(doctor, "is_raspberry_pi", lambda: True)
    monkeypatch.setattr(doctor, "open_pin_factory", failing)
    finding = doctor.check_gpio()
    assert finding.level == "FAIL"
    assert advice in finding.message


def test_lgpio_gets_a_writable_working_directory(monkeypatch):
    """lgpio makes its notification pipes in $LG_WD (else the current directory, perhaps not writable)."""
    seen = {}

    class FakeFactory:
        def __init__(self):
            directory = os.environ["LG_WD"]
            seen["dir"] = directory
            seen["writable"] = os.access(directory, os.W_OK | os.X_OK)

        def close(self):
            seen["closed"] = True

    fake_lgpio_pins = types.ModuleType("gpiozero.pins.lgpio")
    fake_lgpio_pins.LGPIOFactory = FakeFactory
    monkeypatch.setitem(sys.modules, "lgpio", types.ModuleType("lgpio"))
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", fake_lgpio_pins)
    monkeypatch.delenv("LG_WD", raising=False)
    assert doctor.open_pin_factory() == "FakeFactory"
    assert seen["writable"] and seen["closed"]
    assert "LG_WD" not in os.environ and not os.path.exists(seen["dir"])

    monkeypatch.setenv("LG_WD", "/run/pipkeeper")  # the service's own: left as it is
    seen.clear()
    doctor.open_pin_factory()
    assert seen["dir"] == "/run/pipkeeper"
    assert os.environ["LG_WD"] == "/run/pipkeeper"


# --- state directory ------------------------------------------------------------------------------------


def test_the_services_state_dir_is_checked_once_installed(monkeypatch, tmp_path):
    pi_config = tmp_path / "config.toml"
    pi_config.write_text("")
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    assert doctor._default_state_dir() != PI_STATE_DIR  # not installed (the autouse fixture)
    monkeypatch.setattr(doctor, "PI_CONFIG", pi_config)
    assert doctor._default_state_dir() == PI_STATE_DIR
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))  # under systemd: its own
    assert doctor._default_state_dir() == tmp_path


def test_a_state_dir_of_another_user_says_whose(monkeypatch, private_state_dir):
    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(doctor.tempfile, "TemporaryFile", refused)
    monkeypatch.setattr(doctor.os, "geteuid", lambda: private_state_dir.stat().st_uid + 1)
    monkeypatch.setattr(doctor.pwd, "getpwuid", lambda uid: types.SimpleNamespace(pw_name="pipkeeper"))
    finding = doctor.check_state_dir(private_state_dir)
    assert finding.level == "FAIL"
    assert finding.message == (
        f"{private_state_dir} is not writable by this user: Permission denied "
        "(it belongs to pipkeeper: check as that user, `sudo -u pipkeeper pipkeeper doctor`)"
    )


def test_state_dir_readable_by_others_is_a_warning(private_state_dir):
    private_state_dir.chmod(0o755)
    finding = doctor.check_state_dir(private_state_dir)
    assert finding.level == "WARN"
    assert f"chmod 700 {private_state_dir}" in finding.message


def test_state_dir_not_yet_created_is_a_warning(tmp_path):
    assert doctor.check_state_dir(tmp_path / "new" / "state").level == "WARN"


def test_state_dir_that_is_a_file_fails(tmp_path):
    a_file = tmp_path / "state"
    a_file.write_text("")
    assert doctor.check_state_dir(a_file).level == "FAIL"
    assert doctor.check_state_dir(a_file / "below").level == "FAIL"


# --- web port -------------------------------------------------------------------------------------------


def test_port_taken_by_another_program(monkeypatch, free_port):
    monkeypatch.setattr(doctor, "HEALTHZ_TIMEOUT", 0.1)  # the other program never answers HTTP
    with socket.socket() as other:
        other.bind(("127.0.0.1", free_port))
        other.listen()
        finding = doctor.check_port("127.0.0.1", free_port)
    assert finding.level == "FAIL"
    assert "taken by another program" in finding.message


def test_port_held_by_a_running_pipkeeper_is_fine():
    class Healthz(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200 if self.path == "/healthz" else 404)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Healthz)
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        finding = doctor.check_port("0.0.0.0", server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
    assert finding.level == "OK"
    assert "running pipkeeper" in finding.message

"""`pipkeeper run`: the whole appliance in one process, serving the scorecard until SIGTERM or Ctrl-C.

Start-up order matters to systemd: READY is sent once the GPIO pins are claimed and the web port is bound
(the camera may still be opening; the page says so). The watchdog is then pinged only while the camera thread
makes progress and the web server answers its own health check, so a hang restarts the service.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import signal
import socket
import sys
import threading
import urllib.request
from pathlib import Path

from waitress import create_server

from device.admin_secrets import web_config
from device.appliance import Table, build_table, is_raspberry_pi
from device.config import PI_CONFIG, ConfigError, default_config_path, load_config
from device.keyboard import KeyReader, in_foreground
from device.notify import SystemdNotifier, WatchdogPinger
from device.statefiles import default_state_dir
from web import create_app

log = logging.getLogger(__name__)

WEB_THREADS = 32  # each open live-update stream holds a thread; leave plenty for page loads
CAMERA_STALL_SECONDS = 20.0  # no frame and no retry for this long means the camera thread hangs
HEALTH_TIMEOUT = 5.0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the table: camera, buttons, game and the scorecard web page",
        description="Run the table. On a Raspberry Pi: the Pi camera and GPIO. Elsewhere, or with --sim: "
        "the simulated tray and on-screen buttons.",
    )
    parser.add_argument("--config", metavar="FILE", help=f"config file (default: {PI_CONFIG} if present)")
    parser.add_argument("--state-dir", metavar="DIR", help="where games, calibration and keys are kept")
    parser.add_argument("--sim", action="store_true", help="use the simulated table even on a Raspberry Pi")
    parser.add_argument("--host", help="address to listen on (default: from the config)")
    parser.add_argument(
        "--port", type=int, help="port to listen on, 0 for any free one (default: from config)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    config_path = args.config or default_config_path()
    try:
        config = load_config(config_path)
    except ConfigError as error:
        print(f"pipkeeper: {error}", file=sys.stderr)
        return 2
    host = args.host or config.web.host
    port = config.web.port if args.port is None else args.port
    if not 0 <= port <= 65535:
        print(f"pipkeeper: --port must be 0-65535, not {port}", file=sys.stderr)
        return 2
    state_dir = Path(args.state_dir) if args.state_dir else default_state_dir()
    state_dir.mkdir(parents=True, exist_ok=True)
    on_pi = not args.sim and is_raspberry_pi()

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    table = build_table(config, state_dir, on_pi)
    try:
        return _serve(table, state_dir, host, port, stop)
    finally:
        table.close()


def _serve(table: Table, state_dir: Path, host: str, port: int, stop: threading.Event) -> int:
    app = create_app(table.session, web_config(state_dir))
    try:
        server = create_server(app, host=host, port=port, threads=WEB_THREADS)
    except OSError as error:
        print(f"pipkeeper: cannot listen on {host}:{port}: {error.strerror or error}", file=sys.stderr)
        return 1
    bound_port = server.effective_port
    serving = threading.Thread(target=server.run, name="web", daemon=True)
    serving.start()
    notifier = SystemdNotifier()
    notifier.ready()
    address = _address(host, bound_port)
    notifier.status(f"scorecard at {address}")

    def camera_thread_alive() -> bool:
        return table.session.camera_alive(CAMERA_STALL_SECONDS)

    def web_server_answers() -> bool:
        url = health_url(host, bound_port)
        with urllib.request.urlopen(url, timeout=HEALTH_TIMEOUT) as response:
            return response.status == 200

    pinger = WatchdogPinger(notifier, [camera_thread_alive, web_server_answers])
    pinger.start()
    keys = None
    try:
        keys = _key_reader(table)  # before the hint below, so a key typed after reading it is not lost
        print(f"pipkeeper is running: open the scorecard at {address}", flush=True)
        if keys is not None:
            print("simulated table: press R here (or Roll on the page) to roll the dice", flush=True)
        elif table.sim is not None:
            print("simulated table: press Roll on the page to roll the dice", flush=True)
        while not stop.wait(0.5):
            pass
    finally:
        print("pipkeeper is stopping", flush=True)
        notifier.stopping()
        if keys is not None:
            keys.close()
        pinger.stop()
        server.task_dispatcher.shutdown(timeout=1)
        server.close()
        serving.join(5)
    return 0


def _key_reader(table: Table):
    """R in the terminal rolls the simulated tray (a simulated table run in the terminal's foreground)."""
    if table.sim is None or not in_foreground(sys.stdin):
        return None
    return KeyReader(lambda key: on_key(table, key))


def on_key(table: Table, key: str) -> None:
    """One key pressed in the terminal: R rolls the simulated tray, other keys are ignored."""
    if key.lower() == "r":
        result = table.session.submit({"type": "sim_roll"})
        print(result.message, flush=True)


def _listens_everywhere(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return host == ""


def health_url(host: str, port: int) -> str:
    """The URL of the server's own /healthz, on an address this machine reaches itself on.

    A wildcard listen address is reached on the loopback of its family; an IPv6 address goes in brackets
    (`http://::1:8080/` is no URL: the port would be read as part of the address).
    """
    if _listens_everywhere(host):
        host = "::1" if ":" in host else "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/healthz"


def _address(host: str, port: int) -> str:
    """The scorecard's address as a person types it; a wildcard listen address becomes the host name."""
    if _listens_everywhere(host):
        host = f"{socket.gethostname()}.local"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"

"""sd_notify messages reach a real datagram socket, and watchdog pings stop while a health check fails."""

import socket
import threading
import uuid

import pytest

from device.notify import SystemdNotifier, WatchdogPinger


@pytest.fixture
def notify_socket(tmp_path):
    """A datagram socket standing in for systemd's; returns (path, receive)."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(5)

    def receive() -> str:
        return sock.recv(4096).decode("utf-8")

    yield str(path), receive, sock
    sock.close()


def no_datagram_waiting(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        sock.recv(4096)
    except BlockingIOError:
        return True
    finally:
        sock.settimeout(5)
    return False


def test_messages_arrive_as_systemd_expects(notify_socket):
    path, receive, _ = notify_socket
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path})
    assert notifier.enabled
    assert notifier.ready()
    assert receive() == "READY=1"
    notifier.status("camera\nopening   slowly")
    assert receive() == "STATUS=camera opening slowly"
    notifier.watchdog()
    assert receive() == "WATCHDOG=1"
    notifier.stopping()
    assert receive() == "STOPPING=1"


def test_abstract_namespace_socket():
    name = f"pipkeeper-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(b"\0" + name.encode())
        sock.settimeout(5)
        assert SystemdNotifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert sock.recv(4096) == b"READY=1"


def test_outside_systemd_everything_is_a_quiet_no_op():
    notifier = SystemdNotifier({})
    assert not notifier.enabled
    assert notifier.ready() is False
    assert notifier.watchdog_interval() is None
    assert WatchdogPinger(notifier, [lambda: True]).start() is False


def test_a_vanished_socket_is_reported_not_raised(tmp_path, caplog):
    notifier = SystemdNotifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.ready() is False
    assert notifier.watchdog() is False
    assert len([r for r in caplog.records if "notify socket" in r.message]) == 1


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 30.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1234"}, 30.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "999"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({}, None),
    ],
)
def test_watchdog_interval_is_ours_only(env, expected):
    notifier = SystemdNotifier({"NOTIFY_SOCKET": "/run/nowhere", **env}, pid=1234)
    assert notifier.watchdog_interval() == expected


def test_pinger_defaults_to_half_the_watchdog_timeout():
    notifier = SystemdNotifier({"NOTIFY_SOCKET": "/run/nowhere", "WATCHDOG_USEC": "30000000"})
    assert WatchdogPinger(notifier, []).interval == 15.0


def test_pings_only_while_every_check_passes(notify_socket, caplog):
    path, receive, sock = notify_socket
    health = {"camera": False, "web": True}

    def camera_delivers_frames() -> bool:
        return health["camera"]

    def web_server_answers() -> bool:
        return health["web"]

    notifier = SystemdNotifier({"NOTIFY_SOCKET": path})
    pinger = WatchdogPinger(notifier, [camera_delivers_frames, web_server_answers], interval=1.0)

    assert pinger.ping_if_healthy() is False  # the camera has not delivered a frame yet
    assert no_datagram_waiting(sock)
    assert "camera_delivers_frames failed" in caplog.text

    health["camera"] = True
    assert pinger.ping_if_healthy() is True
    assert receive() == "WATCHDOG=1"

    health["web"] = False
    assert pinger.ping_if_healthy() is False
    assert no_datagram_waiting(sock)
    assert "web_server_answers failed" in caplog.text


def test_a_check_that_raises_withholds_the_ping(notify_socket):
    path, _, sock = notify_socket

    def broken() -> bool:
        raise RuntimeError("camera driver exploded")

    pinger = WatchdogPinger(SystemdNotifier({"NOTIFY_SOCKET": path}), [broken], 1.0)
    assert pinger.ping_if_healthy() is False
    assert no_datagram_waiting(sock)


def test_thread_pings_until_stopped(notify_socket):
    path, receive, _ = notify_socket
    checked = threading.Event()

    def healthy() -> bool:
        checked.set()
        return True

    notifier = SystemdNotifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"})
    pinger = WatchdogPinger(notifier, [healthy], interval=0.01)
    assert pinger.start() is True
    assert receive() == "WATCHDOG=1"
    assert receive() == "WATCHDOG=1"
    pinger.stop()
    assert checked.is_set()
    assert not any(thread.name == "watchdog-pinger" for thread in threading.enumerate())

"""Where pipkeeper keeps its state, and how it writes files so a power cut never leaves half a file.

Every file in the state directory (calibration profile, advisor tables, admin password hash, secret key)
is written through `atomic_write_bytes`: a temporary file in the same directory, fsync, rename over the
target, fsync of the directory. A reader therefore sees either the old file or the new one, never a mix.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

PI_STATE_DIR = Path("/var/lib/pipkeeper")


def default_state_dir(installed: Path = PI_STATE_DIR) -> Path:
    """The state directory when none is given: systemd's, the installed service's, else a per-user one.

    The installed service's directory is taken whenever it exists and this user may write to it, so that
    `sudo -u pipkeeper pipkeeper set-admin-password` on a Pi writes where the service reads, while a
    developer's `make run` on the same Pi keeps to a directory of its own.
    """
    from_systemd = os.environ.get("STATE_DIRECTORY")
    if from_systemd:
        return Path(from_systemd.split(":")[0])
    if installed.is_dir() and os.access(installed, os.W_OK | os.X_OK):
        return installed
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "pipkeeper"


def atomic_write_bytes(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Replace `path` with `data` so that readers see the old or the new content, never a torn write."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(data)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.chmod(tmp_name, mode)
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    _fsync_directory(path.parent)


def atomic_write_json(path: Path, obj: Any, mode: int = 0o644) -> None:
    """Write `obj` as pretty JSON, atomically."""
    text = json.dumps(obj, indent=2, sort_keys=True) + "\n"
    atomic_write_bytes(path, text.encode("utf-8"), mode)


def _fsync_directory(directory: Path) -> None:
    """Make the rename itself durable; some filesystems refuse to open directories, which is fine."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

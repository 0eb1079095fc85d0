"""The two secrets of the admin page: the Flask session key and the admin password hash.

Both live in the state directory, readable only by pipkeeper's user (mode 0600), and are written
atomically so a power cut never leaves a half-written key that would lock the maker out. The session key
is created on first start and then kept, so admin logins and CSRF tokens survive a restart.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from werkzeug.security import generate_password_hash

from device.statefiles import atomic_write_bytes

SECRET_KEY_FILENAME = "secret-key"
ADMIN_PASSWORD_FILENAME = "admin-password"
SECRET_KEY_BYTES = 32
MIN_PASSWORD_LENGTH = 8
PRIVATE_MODE = 0o600


def admin_password_path(state_dir: Path) -> Path:
    """Where the salted hash of the admin password lives (the web app's ADMIN_PASSWORD_FILE)."""
    return Path(state_dir) / ADMIN_PASSWORD_FILENAME


def load_or_create_secret_key(state_dir: Path) -> bytes:
    """The key that signs session cookies: read it, or create it once if missing or too short."""
    path = Path(state_dir) / SECRET_KEY_FILENAME
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        key = b""
    if len(key) >= SECRET_KEY_BYTES:
        return key
    key = secrets.token_bytes(SECRET_KEY_BYTES)
    atomic_write_bytes(path, key, mode=PRIVATE_MODE)
    return key


def set_admin_password(state_dir: Path, password: str) -> Path:
    """Store a salted hash of `password`; refuses (ValueError) a password too short to be worth having."""
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ValueError(f"the admin password needs at least {MIN_PASSWORD_LENGTH} characters")
    if password != password.strip() or "\n" in password:
        raise ValueError("the admin password must not start or end with spaces or contain line breaks")
    path = admin_password_path(state_dir)
    atomic_write_bytes(path, (generate_password_hash(password) + "\n").encode("utf-8"), mode=PRIVATE_MODE)
    return path


def web_config(state_dir: Path) -> dict[str, object]:
    """The configuration `web.create_app` needs, taken from the state directory."""
    return {
        "SECRET_KEY": load_or_create_secret_key(state_dir),
        "ADMIN_PASSWORD_FILE": str(admin_password_path(state_dir)),
    }

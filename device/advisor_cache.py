"""Optimal-play tables kept in the state directory, and built in the background when missing.

A table takes tens of seconds to build and a few megabytes to keep, so it is built once per rule variant and
saved. The file is written atomically and carries a format version, a fingerprint of the rules it was solved
for and a SHA-256 of its values: a torn, corrupted or outdated file is never used, it is rebuilt.

Building runs in a separate low-priority process, so the game thread and the web server keep their share of
the Pi's cores and the GIL; a watcher thread in the appliance relays its progress (fraction done) and loads
the finished table. Until then `AdvisorCache.table` returns None and the tablet shows no hints.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import struct
import threading
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from device.statefiles import atomic_write_bytes
from scoring.advisor.model import GameModel, UnsupportedRules, build_model
from scoring.advisor.solver import Table, solve
from scoring.rules import get_rules

FORMAT_VERSION = 1
MAGIC = b"PIPKEEPER-ADVISOR\n"
SUBDIRECTORY = "advisor"
Progress = Callable[[float], None]


class BadTableFile(ValueError):
    """A table file that must not be used: wrong magic, version, rules, shape or checksum."""


def table_path(state_dir: Path, name: str, options: Mapping[str, str] | None = None) -> Path:
    """Where the table of one rule variant lives: one file per rule set and options.

    The name lists every option with defaults filled in, so `{}` and `{"joker": "forced"}` share one file
    instead of building the same table twice.
    """
    chosen = get_rules(name, options).options
    variant = "".join(f"-{key}={value}" for key, value in sorted(chosen.items()))
    return Path(state_dir) / SUBDIRECTORY / f"{name}{variant}.table"


def rules_fingerprint(model: GameModel) -> str:
    """Hash of everything the table depends on, so a change to the rules invalidates saved tables."""
    digest = hashlib.sha256()
    digest.update(json.dumps([model.rules.name, list(model.boxes), model.threshold, model.bonus]).encode())
    digest.update(json.dumps([model.forced_order, model.flag_box, model.flag_points]).encode())
    digest.update(model.score.astype("<i8").tobytes())
    digest.update(model.special_hands.astype("<i8").tobytes())
    return digest.hexdigest()


def encode_table(table: Table) -> bytes:
    """Magic line, header length, JSON header (version, fingerprint, shape, checksum), zlib'd float64 values.

    Unreachable states are NaN and compress to almost nothing, which halves the file.
    """
    payload = zlib.compress(np.ascontiguousarray(table.values, dtype="<f8").tobytes(), 1)
    header = {
        "version": FORMAT_VERSION,
        "rules": table.model.rules.name,
        "fingerprint": rules_fingerprint(table.model),
        "shape": list(table.values.shape),
        "sha256": hashlib.sha256(payload).hexdigest(),
        "expected_score": table.expected_score,
    }
    header_bytes = json.dumps(header, sort_keys=True).encode()
    return MAGIC + struct.pack("<I", len(header_bytes)) + header_bytes + payload


def decode_table(data: bytes, model: GameModel) -> Table:
    """The table in `data` if it is intact and was solved for `model`; BadTableFile otherwise."""
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 4:
        raise BadTableFile("not an advisor table")
    (length,) = struct.unpack_from("<I", data, len(MAGIC))
    start = len(MAGIC) + 4
    try:
        header = json.loads(data[start : start + length])
    except ValueError:
        raise BadTableFile("unreadable header") from None
    payload = data[start + length :]
    if header.get("version") != FORMAT_VERSION:
        raise BadTableFile(f"format version {header.get('version')} is not {FORMAT_VERSION}")
    if header.get("fingerprint") != rules_fingerprint(model):
        raise BadTableFile("solved for different rules")
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise BadTableFile("checksum mismatch")
    shape = tuple(header["shape"])
    try:
        values = zlib.decompress(payload)
    except zlib.error:
        raise BadTableFile("unreadable values") from None
    if shape != (1 << model.box_count, model.threshold + 1, model.flag_states) or len(values) != 8 * np.prod(
        shape
    ):
        raise BadTableFile("wrong shape")
    return Table(model, np.frombuffer(values, dtype="<f8").reshape(shape))


def load_table(state_dir: Path, name: str, options: Mapping[str, str] | None = None) -> Table | None:
    """The saved table of a rule variant, or None when it is missing or unusable."""
    model = build_model(get_rules(name, options))
    try:
        data = table_path(state_dir, name, options).read_bytes()
        return decode_table(data, model)
    except (OSError, BadTableFile):
        return None


def build_table(
    state_dir: Path, name: str, options: Mapping[str, str] | None = None, progress: Progress | None = None
) -> Table:
    """Solve a rule variant from scratch in this process and save it atomically."""
    table = solve(build_model(get_rules(name, options)), progress)
    atomic_write_bytes(table_path(state_dir, name, options), encode_table(table))
    return table


def ensure_table(
    state_dir: Path, name: str, options: Mapping[str, str] | None = None, progress: Progress | None = None
) -> Table:
    """The saved table, built here and now if it is missing or bad (for the command line)."""
    return load_table(state_dir, name, options) or build_table(state_dir, name, options, progress)


@dataclass
class BuildStatus:
    """What the tablet shows: `state` is ready, building, failed or unsupported; `progress` 0..1."""

    state: str
    progress: float = 0.0
    message: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"state": self.state, "progress": self.progress, "message": self.message}


class AdvisorCache:
    """Tables by rule variant for the running appliance: loaded from disk or built in the background."""

    def __init__(self, state_dir: Path) -> None:
        self._state_dir = Path(state_dir)
        self._lock = threading.Lock()
        self._tables: dict[str, Table] = {}
        self._status: dict[str, BuildStatus] = {}
        self._done: dict[str, threading.Event] = {}

    def table(self, name: str, options: Mapping[str, str] | None = None) -> Table | None:
        """The table if ready; otherwise start building it (once) and return None right away."""
        key = table_path(self._state_dir, name, options).name
        with self._lock:
            if key in self._tables:
                return self._tables[key]
            if key in self._status:
                return None
        try:
            loaded = load_table(self._state_dir, name, options)
        except UnsupportedRules as reason:
            self._set(key, BuildStatus("unsupported", 0.0, str(reason)))
            return None
        with self._lock:
            if loaded is not None:
                self._tables[key] = loaded
                self._status[key] = BuildStatus("ready", 1.0)
                return loaded
            if key in self._status:
                return None
            self._status[key] = BuildStatus("building", 0.0)
            self._done[key] = threading.Event()
        threading.Thread(
            target=self._build, args=(key, name, dict(options or {})), name=f"advisor-{key}", daemon=True
        ).start()
        return None

    def status(self, name: str, options: Mapping[str, str] | None = None) -> BuildStatus:
        """Progress of a variant's table; asking also starts its build."""
        self.table(name, options)
        with self._lock:
            status = self._status[table_path(self._state_dir, name, options).name]
            return BuildStatus(status.state, status.progress, status.message)

    def wait(
        self, name: str, options: Mapping[str, str] | None = None, timeout: float | None = None
    ) -> Table | None:
        """Block until the variant's build ends (for tests and the command line); the table or None."""
        table = self.table(name, options)
        if table is not None:
            return table
        key = table_path(self._state_dir, name, options).name
        event = self._done.get(key)
        if event is not None:
            event.wait(timeout)
        with self._lock:
            return self._tables.get(key)

    def _set(self, key: str, status: BuildStatus) -> None:
        with self._lock:
            self._status[key] = status

    def _build(self, key: str, name: str, options: dict[str, str]) -> None:
        """Watcher thread: run the build in a child process and relay its messages."""
        context = multiprocessing.get_context("spawn")
        receiver, sender = context.Pipe(duplex=False)
        child = context.Process(
            target=_child_build, args=(str(self._state_dir), name, options, sender), daemon=True
        )
        child.start()
        sender.close()
        kind, value = "error", "the build process ended without a word"
        try:
            while True:
                kind, value = receiver.recv()
                if kind != "progress":
                    break
                self._set(key, BuildStatus("building", float(value)))
        except EOFError:
            kind, value = "error", "the build process ended without a word"
        child.join()
        table = load_table(self._state_dir, name, options) if kind == "done" else None
        with self._lock:
            if table is not None:
                self._tables[key] = table
                self._status[key] = BuildStatus("ready", 1.0)
            else:
                self._status[key] = BuildStatus("failed", 0.0, str(value or "the saved table is unreadable"))
        self._done[key].set()


def _child_build(state_dir: str, name: str, options: dict[str, str], sender) -> None:
    """Child process: build at low priority, report progress at most every 1 %, then done or the error."""
    os.nice(10)
    last = [-1.0]

    def report(fraction: float) -> None:
        if fraction - last[0] >= 0.01 or fraction >= 1.0:
            last[0] = fraction
            sender.send(("progress", fraction))

    try:
        build_table(Path(state_dir), name, options, report)
    except Exception as error:  # noqa: BLE001 - any failure is reported to the tablet, not raised in a child
        sender.send(("error", f"{type(error).__name__}: {error}"))
    else:
        sender.send(("done", None))
    finally:
        sender.close()

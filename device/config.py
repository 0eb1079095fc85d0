"""pipkeeper's configuration: one TOML file, every key optional, every mistake named.

The file is small on purpose: where the web page listens, which camera to open, the default rule set, and the
GPIO wiring. Anything left out takes the default below (`DEFAULT_CONFIG_TOML` is the documented default and
the text `pipkeeper config --default` prints). An unknown key or a value of the wrong type is refused with a
`ConfigError` that names the key, so a typo never silently falls back to a default.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from vision.sources import TURNS

PI_CONFIG = Path("/etc/pipkeeper/config.toml")  # where the Raspberry Pi installer writes the config
CAMERA_SOURCES = ("auto", "picamera2", "opencv", "folder", "sim")
HOLD_BUTTONS = 6  # enough for Maxi Yatzy; five-dice games leave the sixth unused
BCM_PINS = range(0, 28)

DEFAULT_CONFIG_TOML = """\
# pipkeeper configuration. Every key is optional: a missing key takes the value shown here.
# On a Raspberry Pi this file lives at /etc/pipkeeper/config.toml; elsewhere pass --config FILE.

[web]
# Address and port of the scorecard page. 127.0.0.1 keeps it private to this machine; the Raspberry Pi
# installer writes its own config that listens on the local network.
host = "127.0.0.1"
port = 8080

[camera]
# auto: picamera2 on a Raspberry Pi, the simulated tray elsewhere.
# picamera2 | opencv (a USB webcam; device = its index or path) | folder (device = a folder of photos) | sim
source = "auto"
device = 0
width = 1280
height = 720
fps = 15
# Turns the picture clockwise: 0 | 90 | 180 | 270. A camera that looks at the tray at a slant needs the
# side of the tray nearest it at the bottom of the picture (check the admin page's live view).
turn = 0
# How long the dice must lie still before a roll counts.
still_seconds = 0.3

[game]
# The rule set a new game starts with: yahtzee | yatzy | maxi | forced
rules = "yatzy"

[controls]
# Presses shorter than this after the previous edge are contact bounce and ignored.
debounce_ms = 30
# Holding UNDO this long undoes the last move; a shorter press cancels a pending scratch.
undo_hold_seconds = 2.0
# A box that would score 0 needs a second SELECT within this many seconds.
scratch_confirm_seconds = 3.0

[pins]
# BCM GPIO numbers. Buttons connect the pin to ground (internal pull-up, active low); LEDs and the buzzer
# are driven high through a resistor (or a transistor for the buzzer). Set a pin to false if it is not wired.
hold1 = 5
hold2 = 6
hold3 = 13
hold4 = 19
hold5 = 26
hold6 = 21
hold_led1 = 17
hold_led2 = 27
hold_led3 = 22
hold_led4 = 23
hold_led5 = 24
hold_led6 = 25
prev = 12
next = 16
select = 20
undo = 4
status_led = 18
buzzer = 9

# A rotary encoder with a push switch instead of the PREV / NEXT / SELECT buttons: uncomment to use it.
# Turning moves the highlighted box, pushing selects it. It reuses those three buttons' pins.
# [pins.encoder]
# a = 12
# b = 16
# switch = 20
"""


class ConfigError(ValueError):
    """The config file cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class WebConfig:
    host: str = "127.0.0.1"
    port: int = 8080


@dataclass(frozen=True)
class CameraConfig:
    source: str = "auto"
    device: int | str = 0
    width: int = 1280
    height: int = 720
    fps: int = 15
    turn: int = 0
    still_seconds: float = 0.3


@dataclass(frozen=True)
class GameConfig:
    rules: str = "yatzy"


@dataclass(frozen=True)
class ControlsConfig:
    debounce_ms: int = 30
    undo_hold_seconds: float = 2.0
    scratch_confirm_seconds: float = 3.0


@dataclass(frozen=True)
class EncoderPins:
    a: int
    b: int
    switch: int | None = None


@dataclass(frozen=True)
class PinsConfig:
    """BCM pin numbers; None means not wired."""

    hold: tuple[int | None, ...] = (5, 6, 13, 19, 26, 21)
    hold_led: tuple[int | None, ...] = (17, 27, 22, 23, 24, 25)
    prev: int | None = 12
    next: int | None = 16
    select: int | None = 20
    undo: int | None = 4
    status_led: int | None = 18
    buzzer: int | None = 9
    encoder: EncoderPins | None = None

    def named(self) -> dict[str, int]:
        """Every wired pin by its config key, e.g. {"hold1": 5, "encoder.a": 12}."""
        names: dict[str, int | None] = {}
        for i in range(HOLD_BUTTONS):
            names[f"hold{i + 1}"] = self.hold[i]
            names[f"hold_led{i + 1}"] = self.hold_led[i]
        if self.encoder is None:
            names.update(prev=self.prev, next=self.next, select=self.select)
        else:
            names.update({"encoder.a": self.encoder.a, "encoder.b": self.encoder.b})
            names["encoder.switch"] = self.encoder.switch
        names.update(undo=self.undo, status_led=self.status_led, buzzer=self.buzzer)
        return {name: pin for name, pin in names.items() if pin is not None}


@dataclass(frozen=True)
class Config:
    web: WebConfig = field(default_factory=WebConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    game: GameConfig = field(default_factory=GameConfig)
    controls: ControlsConfig = field(default_factory=ControlsConfig)
    pins: PinsConfig = field(default_factory=PinsConfig)


def default_config_path() -> Path | None:
    """The installed config when there is one (a Raspberry Pi), else None: the built-in defaults."""
    return PI_CONFIG if PI_CONFIG.exists() else None


def load_config(path: str | Path | None = None) -> Config:
    """The config in `path`, or the defaults when `path` is None. Raises ConfigError naming what is wrong."""
    if path is None:
        return Config()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"cannot read config file {path}: {error.strerror or error}") from None
    return parse_config(text, source=str(path))


def parse_config(text: str, source: str = "config") -> Config:
    """Parse and validate config text (see `load_config`)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None
    try:
        return _build(data)
    except ConfigError as error:
        raise ConfigError(f"{source}: {error}") from None


def _build(data: dict[str, Any]) -> Config:
    _refuse_unknown(data, {"web", "camera", "game", "controls", "pins"}, "")
    web = _section(WebConfig, _table(data, "web"), "web")
    if not 1 <= web.port <= 65535:
        raise ConfigError("web.port must be between 1 and 65535")
    camera = _section(CameraConfig, _table(data, "camera"), "camera")
    if camera.source not in CAMERA_SOURCES:
        raise ConfigError(f"camera.source must be one of {', '.join(CAMERA_SOURCES)}, not {camera.source!r}")
    for key in ("width", "height", "fps"):
        if getattr(camera, key) <= 0:
            raise ConfigError(f"camera.{key} must be positive")
    if camera.turn not in TURNS:
        raise ConfigError(f"camera.turn must be one of {', '.join(map(str, TURNS))} (degrees clockwise)")
    if camera.still_seconds < 0:
        raise ConfigError("camera.still_seconds must not be negative")
    game = _section(GameConfig, _table(data, "game"), "game")
    _check_rules(game.rules)
    controls = _section(ControlsConfig, _table(data, "controls"), "controls")
    for f in fields(ControlsConfig):
        if getattr(controls, f.name) < 0:
            raise ConfigError(f"controls.{f.name} must not be negative")
    pins = _pins(_table(data, "pins"))
    return Config(web=web, camera=camera, game=game, controls=controls, pins=pins)


def _table(data: dict[str, Any], key: str, prefix: str = "") -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{prefix}{key} must be a table ([{prefix}{key}])")
    return value


def _refuse_unknown(table: dict[str, Any], known: set[str], prefix: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        names = ", ".join(prefix + key for key in unknown)
        raise ConfigError(f"unknown key(s): {names} (known: {', '.join(sorted(known))})")


_TYPE_NAMES = {
    "str": "a string",
    "int": "an integer",
    "float": "a number",
    "int | str": "an integer or a string",
}


def _section(cls: type, table: dict[str, Any], name: str) -> Any:
    """Build one frozen section dataclass, checking each value against the field's annotated type."""
    known = {f.name: f for f in fields(cls)}
    _refuse_unknown(table, set(known), f"{name}.")
    values = {}
    for key, value in table.items():
        kind = known[key].type
        if not _fits(value, kind):
            raise ConfigError(f"{name}.{key} must be {_TYPE_NAMES[kind]}, not {value!r}")
        values[key] = float(value) if kind == "float" else value
    return cls(**values)


def _fits(value: Any, kind: str) -> bool:
    if isinstance(value, bool):
        return False
    if kind == "str":
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int)
    if kind == "float":
        return isinstance(value, int | float)
    return isinstance(value, int | str)  # "int | str"


def _check_rules(name: str) -> None:
    from scoring.rules import get_rules

    try:
        get_rules(name)
    except ValueError as error:
        raise ConfigError(f"game.rules: {error}") from None


def _pins(table: dict[str, Any]) -> PinsConfig:
    defaults = PinsConfig()
    flat = [f"hold{i + 1}" for i in range(HOLD_BUTTONS)] + [f"hold_led{i + 1}" for i in range(HOLD_BUTTONS)]
    singles = ["prev", "next", "select", "undo", "status_led", "buzzer"]
    _refuse_unknown(table, set(flat + singles + ["encoder"]), "pins.")
    hold = tuple(_pin(table, f"hold{i + 1}", defaults.hold[i]) for i in range(HOLD_BUTTONS))
    hold_led = tuple(_pin(table, f"hold_led{i + 1}", defaults.hold_led[i]) for i in range(HOLD_BUTTONS))
    chosen = {key: _pin(table, key, getattr(defaults, key)) for key in singles}
    encoder = None
    if "encoder" in table:
        enc = _table(table, "encoder", "pins.")
        _refuse_unknown(enc, {"a", "b", "switch"}, "pins.encoder.")
        for key in ("a", "b"):
            if key not in enc:
                raise ConfigError(f"pins.encoder.{key} is required when [pins.encoder] is present")
        a, b = (_pin(enc, key, None, "pins.encoder.") for key in ("a", "b"))
        if a is None or b is None:
            raise ConfigError("pins.encoder.a and pins.encoder.b must be wired")
        encoder = EncoderPins(a=a, b=b, switch=_pin(enc, "switch", None, "pins.encoder."))
    pins = PinsConfig(hold=hold, hold_led=hold_led, encoder=encoder, **chosen)
    _refuse_shared_pins(pins)
    return pins


def _pin(table: dict[str, Any], key: str, default: int | None, prefix: str = "pins.") -> int | None:
    value = table.get(key, default)
    if value is False or value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in BCM_PINS:
        raise ConfigError(f"{prefix}{key} must be a BCM pin number 0-27 or false, not {value!r}")
    return value


def _refuse_shared_pins(pins: PinsConfig) -> None:
    owners: dict[int, str] = {}
    for name, pin in pins.named().items():
        if pin in owners:
            raise ConfigError(f"pins.{name} and pins.{owners[pin]} both use GPIO {pin}")
        owners[pin] = name

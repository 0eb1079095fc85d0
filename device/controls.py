"""The physical controls: hold buttons, PREV / NEXT / SELECT (or a rotary encoder), UNDO, LEDs and a buzzer.

gpiozero calls our callbacks on its own threads, so a callback does nothing but turn an edge into a
`ControlEvent` and hand it on (the session puts it in its command queue). Debouncing is ours, measured with
an injectable clock: gpiozero's own bounce timer cannot be driven by a test. Outputs are simple verbs the
session calls after each state change: which dice are held, what the status LED shows, and a beep.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from gpiozero import LED, Buzzer, DigitalInputDevice, RotaryEncoder

from device.config import ControlsConfig, PinsConfig

BUTTON_NAMES = tuple(f"hold{i}" for i in range(1, 7)) + ("prev", "next", "select", "undo")
STATUS_MODES = ("ready", "moving", "fault")  # steady, blinking, off


@dataclass(frozen=True)
class ControlEvent:
    """One press of a table button: `hold1`..`hold6`, `prev`, `next`, `select` or `undo` (`long` for UNDO)."""

    button: str
    long: bool = False


@dataclass(frozen=True)
class BeepTimes:
    """Seconds the buzzer sounds: short = accepted, long = refused."""

    accepted: float = 0.08
    refused: float = 0.6


class Controls:
    """The gpiozero devices of one table, built from the pin map; `close()` releases every pin."""

    def __init__(
        self,
        pins: PinsConfig,
        settings: ControlsConfig,
        on_event: Callable[[ControlEvent], None],
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        beep_times: BeepTimes = BeepTimes(),
    ) -> None:
        self._on_event = on_event
        self._clock = clock
        self._debounce = settings.debounce_ms / 1000.0
        self._undo_hold = settings.undo_hold_seconds
        self._beep_times = beep_times
        self._lock = threading.Lock()
        self._last_edge: dict[str, float] = {}
        self._pressed_at: dict[str, float] = {}
        self._devices: list[Any] = []
        self._status_mode: str | None = None
        self.pin_factory_name = "unset"
        try:
            self._build(pins, pin_factory)
        except BaseException:
            self.close()
            raise

    def _build(self, pins: PinsConfig, factory: Any) -> None:
        buttons = {f"hold{i + 1}": pin for i, pin in enumerate(pins.hold)}
        buttons["undo"] = pins.undo
        if pins.encoder is None:
            buttons.update(prev=pins.prev, next=pins.next, select=pins.select)
        else:
            buttons["select"] = pins.encoder.switch
            encoder = self._own(RotaryEncoder(pins.encoder.a, pins.encoder.b, pin_factory=factory))
            encoder.when_rotated_clockwise = lambda: self._on_event(ControlEvent("next"))
            encoder.when_rotated_counter_clockwise = lambda: self._on_event(ControlEvent("prev"))
        for name, pin in buttons.items():
            if pin is not None:
                self._add_button(name, pin, factory)
        self._hold_leds = [
            self._own(LED(pin, pin_factory=factory)) if pin is not None else None for pin in pins.hold_led
        ]
        self._status_led = (
            self._own(LED(pins.status_led, pin_factory=factory)) if pins.status_led is not None else None
        )
        self._buzzer = (
            self._own(Buzzer(pins.buzzer, pin_factory=factory)) if pins.buzzer is not None else None
        )
        if self._devices:
            self.pin_factory_name = type(self._devices[0].pin_factory).__name__

    def _own(self, device: Any) -> Any:
        self._devices.append(device)
        return device

    def _add_button(self, name: str, pin: int, factory: Any) -> None:
        # A plain input rather than gpiozero's Button: we time presses ourselves, so its hold thread
        # (one per button, each slow to stop) buys nothing.
        button = self._own(DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=factory))
        button.when_activated = lambda: self._edge(name, pressed=True)
        button.when_deactivated = lambda: self._edge(name, pressed=False)

    # --- inputs (gpiozero threads) ------------------------------------------------------------

    def _edge(self, name: str, pressed: bool) -> None:
        """Turn one debounced edge into at most one event; UNDO reports on release how long it was held."""
        now = self._clock()
        with self._lock:
            last = self._last_edge.get(name)
            if last is not None and now - last < self._debounce:
                return
            if pressed == (name in self._pressed_at):
                return  # a release without a press (or a second press): a bounce we already ignored
            self._last_edge[name] = now
            if pressed:
                self._pressed_at[name] = now
                event = None if name == "undo" else ControlEvent(name)
            else:
                held_for = now - self._pressed_at.pop(name)
                event = ControlEvent("undo", long=held_for >= self._undo_hold) if name == "undo" else None
        if event is not None:
            self._on_event(event)

    # --- outputs (the session's game thread) ----------------------------------------------------

    def show_held(self, held: Iterable[int]) -> None:
        """Light the LED of every held die (0-based positions from the left); the others go dark."""
        held = set(held)
        for index, led in enumerate(self._hold_leds):
            if led is not None:
                led.value = index in held

    def show_status(self, mode: str) -> None:
        """`ready`: steady (waiting for a roll); `moving`: blinking (dice moving); `fault`: off."""
        if mode not in STATUS_MODES:
            raise ValueError(f"unknown status mode {mode!r}")
        if self._status_led is None or mode == self._status_mode:
            return
        self._status_mode = mode
        if mode == "ready":
            self._status_led.on()
        elif mode == "moving":
            self._status_led.blink(on_time=0.15, off_time=0.15)
        else:
            self._status_led.off()

    def beep(self, accepted: bool) -> None:
        """A short beep when a press was accepted, a long one when it was refused."""
        if self._buzzer is None:
            return
        seconds = self._beep_times.accepted if accepted else self._beep_times.refused
        self._buzzer.beep(on_time=seconds, off_time=0.0, n=1)

    def close(self) -> None:
        """Turn the LEDs and the buzzer off, then release every pin. Safe to call twice.

        Outputs are switched off first: closing alone leaves a mock pin (and on some pin factories a real
        one) at its last level, and would race a blink or beep still running on gpiozero's thread.
        """
        devices, self._devices = self._devices, []
        for device in reversed(devices):
            if isinstance(device, LED | Buzzer):
                device.off()
            device.close()

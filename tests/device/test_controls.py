"""The controls turn debounced pin edges into events and drive the LEDs and buzzer, all on mock pins."""

from __future__ import annotations

import queue
import time

import pytest

from device.config import ControlsConfig, EncoderPins, PinsConfig
from device.controls import BeepTimes, ControlEvent, Controls

PINS = PinsConfig()
FAST_BEEPS = BeepTimes(accepted=0.01, refused=0.05)


@pytest.fixture
def table(mock_factory, manual_clock):
    events: queue.Queue[ControlEvent] = queue.Queue()
    controls = Controls(PINS, ControlsConfig(), events.put, mock_factory, manual_clock, FAST_BEEPS)
    yield controls, events
    controls.close()


def press(factory, clock, pin: int, hold_for: float = 0.1) -> None:
    factory.pin(pin).drive_low()
    clock.advance(hold_for)
    factory.pin(pin).drive_high()
    clock.advance(0.1)


def drain(events: queue.Queue) -> list[ControlEvent]:
    found = []
    while not events.empty():
        found.append(events.get_nowait())
    return found


def wait_until(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition never became true"
        time.sleep(0.005)


def test_each_button_reports_its_name_on_press(table, mock_factory, manual_clock):
    _, events = table
    for pin in (*PINS.hold, PINS.prev, PINS.next, PINS.select):
        press(mock_factory, manual_clock, pin)
    names = [event.button for event in drain(events)]
    assert names == ["hold1", "hold2", "hold3", "hold4", "hold5", "hold6", "prev", "next", "select"]


def test_contact_bounce_within_the_debounce_time_is_ignored(table, mock_factory, manual_clock):
    _, events = table
    pin = mock_factory.pin(PINS.select)
    pin.drive_low()
    manual_clock.advance(0.005)
    pin.drive_high()  # bounce: ignored, the button still counts as pressed
    manual_clock.advance(0.005)
    pin.drive_low()
    manual_clock.advance(0.2)
    pin.drive_high()
    assert drain(events) == [ControlEvent("select")]


def test_undo_reports_on_release_whether_it_was_held_long(table, mock_factory, manual_clock):
    _, events = table
    press(mock_factory, manual_clock, PINS.undo, hold_for=0.3)
    press(mock_factory, manual_clock, PINS.undo, hold_for=2.0)
    assert drain(events) == [ControlEvent("undo", long=False), ControlEvent("undo", long=True)]


def test_hold_leds_follow_the_held_dice(table, mock_factory):
    controls, _ = table
    controls.show_held({0, 3})
    lit = [mock_factory.pin(pin).state for pin in PINS.hold_led]
    assert lit == [True, False, False, True, False, False]
    controls.show_held([])
    assert not any(mock_factory.pin(pin).state for pin in PINS.hold_led)


def test_status_led_steady_blinking_and_off(table, mock_factory):
    controls, _ = table
    led = mock_factory.pin(PINS.status_led)
    controls.show_status("ready")
    assert led.state is True
    led.clear_states()
    controls.show_status("moving")
    wait_until(lambda: len(led.states) >= 3)
    led.assert_states([True, False, True])  # dark, then lit again: blinking
    controls.show_status("fault")
    assert led.state is False
    with pytest.raises(ValueError):
        controls.show_status("disco")


def test_buzzer_short_for_accepted_long_for_refused(table, mock_factory):
    controls, _ = table
    buzzer = mock_factory.pin(PINS.buzzer)
    controls.beep(accepted=True)
    wait_until(lambda: len(buzzer.states) >= 3)
    buzzer.assert_states([False, True, False])
    buzzer.clear_states()
    controls.beep(accepted=False)
    wait_until(lambda: len(buzzer.states) >= 3)
    buzzer.assert_states([False, True, False])
    assert buzzer.states[2].timestamp >= FAST_BEEPS.refused  # sounded at least the long time


def test_rotary_encoder_replaces_prev_next_select(mock_factory, manual_clock):
    events: queue.Queue[ControlEvent] = queue.Queue()
    pins = PinsConfig(encoder=EncoderPins(a=PINS.prev, b=PINS.next, switch=PINS.select))
    controls = Controls(pins, ControlsConfig(), events.put, mock_factory, manual_clock)
    try:
        a, b = mock_factory.pin(PINS.prev), mock_factory.pin(PINS.next)
        for step in (a.drive_low, b.drive_low, a.drive_high, b.drive_high):  # one detent clockwise
            step()
        for step in (b.drive_low, a.drive_low, b.drive_high, a.drive_high):  # one detent back
            step()
        press(mock_factory, manual_clock, PINS.select)
        assert [event.button for event in drain(events)] == ["next", "prev", "select"]
    finally:
        controls.close()


def test_close_releases_the_pins_so_they_can_be_reused(mock_factory, manual_clock):
    controls = Controls(PINS, ControlsConfig(), lambda event: None, mock_factory, manual_clock)
    controls.close()
    controls.close()
    again = Controls(PINS, ControlsConfig(), lambda event: None, mock_factory, manual_clock)
    again.close()

"""Fixtures for the table's tests: a clock the test moves by hand, and mock GPIO pins."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory


class ManualClock:
    """A monotonic clock that only moves when the test says so."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def manual_clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def mock_factory():
    factory = MockFactory()
    yield factory
    factory.close()


@pytest.fixture(scope="session")
def forced_table(tmp_path_factory):
    """The 'forced' rules' optimal-play table (a fraction of a second to solve), saved in a state directory:
    (state_dir, table). Shared, so the advisor tests build it once."""
    from device.advisor_cache import build_table

    state_dir = tmp_path_factory.mktemp("advisor-state")
    return state_dir, build_table(state_dir, "forced")

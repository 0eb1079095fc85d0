"""The calibration profile file: real files in tmp_path, damaged on purpose."""

import json

import pytest

from device.profile_store import ProfileStore
from vision.profile import CalibrationProfile

FIRST = CalibrationProfile(die_size=0.1, pip_polarity="dark", tray=(0.1, 0.1, 0.9, 0.9))
SECOND = CalibrationProfile(die_size=0.12, reader={"pip_contrast": 0.2}, camera={"frozen": True})


def test_defaults_when_nothing_is_saved(tmp_path):
    store = ProfileStore(tmp_path / "state")
    assert store.load() == CalibrationProfile()
    assert store.warning is None


def test_save_then_load_round_trips_and_keeps_the_previous_one(tmp_path):
    store = ProfileStore(tmp_path)
    store.save(FIRST)
    assert store.load() == FIRST
    assert not store.last_good_path.exists()  # nothing was replaced yet
    store.save(SECOND)
    assert store.load() == SECOND
    assert CalibrationProfile.from_dict(json.loads(store.last_good_path.read_text())) == FIRST
    assert not list(tmp_path.glob("*.tmp"))  # atomic writes leave no temporary files behind


@pytest.mark.parametrize("damage", ["{ half a fi", '{"die_size": 9}', "[1, 2]", '{"version": 99}', ""])
def test_a_damaged_profile_falls_back_to_the_last_good_one(tmp_path, damage):
    store = ProfileStore(tmp_path)
    store.save(FIRST)
    store.save(SECOND)
    store.current_path.write_text(damage)
    assert store.load() == FIRST
    assert "calibration.json is unusable" in store.warning and "last good" in store.warning


def test_a_damaged_profile_without_a_last_good_one_gives_defaults(tmp_path):
    store = ProfileStore(tmp_path)
    store.current_path.write_bytes(b"\xff\xfe not utf-8")
    assert store.load() == CalibrationProfile()
    assert "using defaults" in store.warning


def test_saving_over_a_damaged_profile_keeps_the_good_last_one(tmp_path):
    store = ProfileStore(tmp_path)
    store.save(FIRST)
    store.save(SECOND)
    store.current_path.write_text("garbage")
    store.save(FIRST)
    assert store.load() == FIRST
    assert CalibrationProfile.from_dict(json.loads(store.last_good_path.read_text())) == FIRST


def test_revert_swaps_back_and_is_undoable(tmp_path):
    store = ProfileStore(tmp_path)
    store.save(FIRST)
    store.save(SECOND)
    assert store.revert() == FIRST and store.load() == FIRST
    assert store.revert() == SECOND and store.load() == SECOND


def test_revert_without_history_changes_nothing(tmp_path):
    store = ProfileStore(tmp_path)
    store.save(FIRST)
    with pytest.raises(ValueError, match="no earlier calibration"):
        store.revert()
    assert store.load() == FIRST


def test_saving_an_invalid_profile_is_refused(tmp_path):
    store = ProfileStore(tmp_path)
    with pytest.raises(ValueError):
        store.save(CalibrationProfile(die_size=3.0))
    assert not store.current_path.exists()

"""The calibration profile refuses what the reader or the camera could not use, naming the field."""

from __future__ import annotations

import math

import pytest

from vision.profile import CalibrationProfile
from vision.reader import PARAM_RANGES

GOOD_CAMERA = {"frozen": True, "exposure_us": 8000, "analogue_gain": 2.0, "colour_gains": [1.8, 1.5]}


def test_a_good_profile_round_trips():
    data = {"reader": {"pip_contrast": 0.2, "body_contrast": 0}, "camera": GOOD_CAMERA, "die_size": 0.1}
    profile = CalibrationProfile.from_dict(data)
    assert CalibrationProfile.from_dict(profile.to_dict()) == profile
    assert profile.camera == GOOD_CAMERA and profile.reader == {"pip_contrast": 0.2, "body_contrast": 0.0}
    assert CalibrationProfile.from_dict({"camera": {"gain": 4, "awb_gains": [1, 2], "frozen": False}})


def test_every_reader_parameter_is_accepted_at_both_ends_of_its_range():
    for name, (low, high) in PARAM_RANGES.items():
        assert CalibrationProfile().with_changes(reader={name: low}).reader[name] == low
        assert CalibrationProfile().with_changes(reader={name: high}).reader[name] == high


@pytest.mark.parametrize(
    ("reader", "named", "allowed"),
    [
        ({"min_area": 3}, "'min_area'", "pip_contrast"),
        ({"pip_contrast": math.nan}, "reader.pip_contrast", "from 0.04 to 0.4"),
        ({"pip_contrast": math.inf}, "reader.pip_contrast", "from 0.04 to 0.4"),
        ({"pip_contrast": -math.inf}, "reader.pip_contrast", "from 0.04 to 0.4"),
        ({"pip_contrast": 5.0}, "reader.pip_contrast", "from 0.04 to 0.4"),
        ({"pip_size": 0.0}, "reader.pip_size", "from 0.12 to 0.28"),
        ({"face_spread": "wide"}, "reader.face_spread", "from 0.2 to 1.5"),
        ({"face_spread": True}, "reader.face_spread", "from 0.2 to 1.5"),
    ],
)
def test_bad_reader_parameters_are_refused_with_the_name_and_what_is_allowed(reader, named, allowed):
    assert_refused_both_ways("reader", reader, named, allowed)


def assert_refused_both_ways(field: str, value, named: str, allowed: str) -> None:
    """Loading a profile and changing one refuse `value` for `field` alike, naming it and what is allowed."""
    for build in (
        lambda: CalibrationProfile.from_dict({field: value}),
        lambda: CalibrationProfile().with_changes(**{field: value}),
    ):
        with pytest.raises(ValueError) as refused:
            build()
        assert named in str(refused.value) and allowed in str(refused.value)


@pytest.mark.parametrize(
    ("camera", "named", "allowed"),
    [
        ({"gain": "x"}, "camera.gain", "from 1 to 64"),
        ({"gain": math.nan}, "camera.gain", "from 1 to 64"),
        ({"analogue_gain": 0}, "camera.analogue_gain", "from 1 to 64"),
        ({"exposure_us": -5}, "camera.exposure_us", "from 1 to 10000000"),
        ({"exposure_us": math.inf}, "camera.exposure_us", "from 1 to 10000000"),
        ({"awb_gains": [1]}, "camera.awb_gains", "[red_gain, blue_gain]"),
        ({"awb_gains": "1,2"}, "camera.awb_gains", "[red_gain, blue_gain]"),
        ({"colour_gains": [1.5, -1]}, "camera.colour_gains", "from 0.01 to 32"),
        ({"colour_gains": [1.5, None]}, "camera.colour_gains", "from 0.01 to 32"),
        ({"shutter": 100}, "'shutter'", "exposure_us"),
        ({"frozen": "yes"}, "camera.frozen", "true or false"),
        ({"frozen": 1}, "camera.frozen", "true or false"),
    ],
)
def test_bad_camera_settings_are_refused_with_the_name_and_what_is_allowed(camera, named, allowed):
    assert_refused_both_ways("camera", camera, named, allowed)


@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_die_size_and_tray_refuse_nan_and_infinity(value):
    with pytest.raises(ValueError, match="die_size"):
        CalibrationProfile.from_dict({"die_size": value})
    with pytest.raises(ValueError, match="tray"):
        CalibrationProfile.from_dict({"tray": [0.1, 0.1, value, 0.9]})


def test_the_faces_share_of_the_die_size_is_optional_and_kept_in_range():
    assert CalibrationProfile.from_dict({}).face_share is None
    profile = CalibrationProfile.from_dict({"die_size": 0.14, "face_share": 0.7})
    assert CalibrationProfile.from_dict(profile.to_dict()) == profile
    for bad in (0.1, 3.0, "big", math.nan):
        with pytest.raises(ValueError, match="face_share"):
            CalibrationProfile.from_dict({"face_share": bad})

"""The camera the appliance opens is the one the config names, turned as the config says."""

from __future__ import annotations

import cv2
import numpy as np

from device.appliance import _camera_source
from device.config import parse_config
from vision.profile import CalibrationProfile


def test_the_configured_turn_reaches_the_frames(tmp_path):
    frame = np.random.default_rng(2).integers(0, 256, (40, 60, 3), np.uint8)
    cv2.imwrite(str(tmp_path / "tray.png"), frame)
    config = parse_config(f'[camera]\nsource = "folder"\ndevice = "{tmp_path}"\nturn = 90\n')
    with _camera_source("folder", config, CalibrationProfile()) as source:
        assert np.array_equal(source.read(), np.rot90(frame, -1))  # a quarter turn clockwise

"""Every frame source hands out BGR uint8 HxWx3 frames or a SourceError a person can act on."""

import re
import sys
import types

import cv2
import numpy as np
import pytest

from vision.sources import (
    FolderSource,
    FrameSource,
    OpenCVSource,
    Picamera2Source,
    SourceError,
    picamera2_controls,
)

# -- picamera2, through a stand-in module -------------------------------------------------------------


class FakePicamera2:
    """Records what pipkeeper asks of the camera; frames are BGR already, as RGB888 ones are."""

    instances: list["FakePicamera2"] = []

    def __init__(self):
        self.controls = {}
        self.config = None
        self.started = False
        self.closed = False
        self.frame = np.zeros((720, 1280, 3), np.uint8)
        self.frame[:, :, 0] = 200  # blue channel first, as OpenCV expects
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main):
        return {"main": dict(main)}

    def configure(self, config):
        self.config = config

    def set_controls(self, controls):
        self.controls.update(controls)

    def start(self):
        self.started = True

    def capture_array(self, stream):
        assert stream == "main" and self.started
        return self.frame

    def capture_metadata(self):
        return {"ExposureTime": 9000, "AnalogueGain": 1.5, "ColourGains": (1.9, 1.4)}

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch):
    FakePicamera2.instances = []
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_picamera2_frozen_profile_controls_are_applied(fake_picamera2):
    camera = {"frozen": True, "exposure_us": 8000, "analogue_gain": 2.0, "colour_gains": [1.8, 1.5]}
    with Picamera2Source(size=(1280, 720), controls=camera) as source:
        frame = source.read()
    fake = fake_picamera2.instances[0]
    assert fake.config == {"main": {"size": (1280, 720), "format": "RGB888"}}
    assert fake.controls == {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": 8000,
        "AnalogueGain": 2.0,
        "ColourGains": (1.8, 1.5),
    }
    assert frame.shape == (720, 1280, 3) and frame.dtype == np.uint8
    assert frame[0, 0].tolist() == [200, 0, 0]  # passed through untouched: RGB888 is BGR in memory
    assert fake.closed


def test_picamera2_not_frozen_runs_automatic_exposure(fake_picamera2):
    with Picamera2Source(controls={"frozen": False, "exposure_us": 8000}):
        pass
    assert fake_picamera2.instances[0].controls == {"AeEnable": True, "AwbEnable": True}


def test_picamera2_camera_is_opened_once(fake_picamera2):
    source = Picamera2Source()
    source.open()
    source.open()
    source.read()
    source.read()
    source.close()
    source.close()
    assert len(fake_picamera2.instances) == 1


def test_picamera2_reports_settings_to_freeze_and_applies_new_ones(fake_picamera2):
    with Picamera2Source() as source:
        settings = source.current_settings()
        source.apply_controls(settings)
        applied = fake_picamera2.instances[0].controls
    assert settings == {"frozen": True, "exposure_us": 9000, "analogue_gain": 1.5, "colour_gains": [1.9, 1.4]}
    assert applied["AeEnable"] is False and applied["ExposureTime"] == 9000


def test_picamera2_missing_module_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes `import picamera2` fail
    source = Picamera2Source()
    with pytest.raises(SourceError, match="picamera2 is not installed"):
        source.open()
    assert not source.is_open


def test_bad_camera_values_are_refused():
    with pytest.raises(ValueError, match="colour_gains"):
        picamera2_controls({"frozen": True, "colour_gains": [1.0]})
    with pytest.raises(ValueError, match="exposure_us"):
        picamera2_controls({"frozen": True, "exposure_us": -5})


# -- OpenCV: a video file written here ----------------------------------------------------------------


def write_video(path, frames):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for frame in frames:
        writer.write(frame)
    writer.release()


def test_opencv_video_file_frames_and_loop(tmp_path):
    path = tmp_path / "roll.avi"
    shades = [30, 120, 220]
    write_video(path, [np.full((48, 64, 3), shade, np.uint8) for shade in shades])
    with OpenCVSource(path) as source:
        seen = [int(source.read().mean()) for _ in range(5)]
    for got, want in zip(seen, shades + shades[:2], strict=True):
        assert abs(got - want) < 10  # JPEG frames are close, not exact
    assert source.name == "video roll.avi"


def test_opencv_missing_file_and_missing_camera(tmp_path):
    with pytest.raises(SourceError, match="does not exist"):
        OpenCVSource(tmp_path / "nope.avi").open()
    with pytest.raises(SourceError, match="camera 99"):
        OpenCVSource("99").open()


def test_opencv_file_that_is_not_a_video(tmp_path):
    path = tmp_path / "notes.avi"
    path.write_text("not a video")
    with pytest.raises(SourceError), OpenCVSource(path) as source:
        source.read()


# -- a folder of photos --------------------------------------------------------------------------------


def test_folder_replays_in_name_order_and_loops(tmp_path):
    for name, shade in [("b.png", 100), ("a.png", 50), ("c.jpg", 200)]:
        cv2.imwrite(str(tmp_path / name), np.full((30, 40, 3), shade, np.uint8))
    (tmp_path / "README.txt").write_text("ignored: not an image suffix")
    with FolderSource(tmp_path) as source:
        means = [round(float(source.read().mean()), -1) for _ in range(4)]
        assert source.current.name == "a.png"
    assert means == [50, 100, 200, 50]


def test_folder_skips_corrupt_files(tmp_path):
    cv2.imwrite(str(tmp_path / "1.png"), np.full((30, 40, 3), 77, np.uint8))
    (tmp_path / "2.jpg").write_bytes(b"\xff\xd8 half a jpeg")
    with FolderSource(tmp_path) as source:
        frames = [source.read() for _ in range(3)]
    assert all(frame.shape == (30, 40, 3) for frame in frames)
    assert [p.name for p in source.skipped] == ["2.jpg"]


def test_folder_of_only_corrupt_files_is_a_clear_error(tmp_path):
    (tmp_path / "1.jpg").write_bytes(b"junk")
    (tmp_path / "2.png").write_bytes(b"junk")
    with FolderSource(tmp_path) as source, pytest.raises(SourceError, match="none of the 2 image files"):
        source.read()


def test_folder_missing_or_empty(tmp_path):
    with pytest.raises(SourceError, match="not a folder"):
        FolderSource(tmp_path / "missing").open()
    with pytest.raises(SourceError, match="holds no images"):
        FolderSource(tmp_path).open()


# -- the shared contract -------------------------------------------------------------------------------


class ArraySource(FrameSource):
    name = "array"

    def __init__(self, frame):
        super().__init__()
        self.frame = frame

    def _open(self):
        pass

    def _grab(self):
        return self.frame


@pytest.mark.parametrize("degrees, quarter_turns", [(0, 0), (90, -1), (180, 2), (270, 1)])
def test_frames_are_turned_clockwise_as_set(degrees, quarter_turns):
    frame = np.random.default_rng(1).integers(0, 256, (40, 60, 3), np.uint8)
    with ArraySource(frame) as source:
        source.turn(degrees)
        out = source.read()
    assert np.array_equal(out, np.rot90(frame, quarter_turns))  # np.rot90 turns counterclockwise


def test_a_turn_that_is_no_quarter_is_refused_and_changes_nothing():
    frame = np.random.default_rng(1).integers(0, 256, (40, 60, 3), np.uint8)
    with ArraySource(frame) as source:
        source.turn(180)
        with pytest.raises(ValueError, match="0, 90, 180, 270 degrees, not 45"):
            source.turn(45)
        assert np.array_equal(source.read(), frame[::-1, ::-1])


def test_read_before_open_is_a_clear_error():
    with pytest.raises(SourceError, match="not open"):
        ArraySource(np.zeros((40, 40, 3), np.uint8)).read()


@pytest.mark.parametrize(
    "frame",
    [np.zeros((40, 50), np.uint8), np.zeros((40, 50, 4), np.uint8), np.zeros((40, 50, 3), np.uint16)],
)
def test_grey_four_channel_and_deep_frames_become_bgr(frame):
    with ArraySource(frame) as source:
        out = source.read()
    assert out.shape == (40, 50, 3) and out.dtype == np.uint8 and out.flags.c_contiguous


@pytest.mark.parametrize(
    "frame, message",
    [
        (None, "no frame"),
        (np.zeros((0, 5, 3), np.uint8), "empty"),
        (np.zeros((40, 50, 2), np.uint8), "unsupported frame shape"),
    ],
)
def test_broken_frames_are_a_source_error(frame, message):
    with (
        ArraySource(frame) as source,
        pytest.raises(SourceError, match=f"array delivered an unusable frame: {re.escape(message)}"),
    ):
        source.read()

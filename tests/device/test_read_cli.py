"""`pipkeeper read`, `eval-vision` and `bench-vision` on files written here."""

import json
import re

import cv2
import numpy as np
import pytest

from device.calibration_desk import CALIBRATION_FRAMES
from device.cli import main
from device.commands import bench_vision
from vision.reader import DiceReader
from vision.reading import ASK_BELOW, Die, Reading, Region
from vision.review import TILE_PX
from vision.stream import StreamReader
from vision.watcher import RollWatcher


@pytest.fixture(autouse=True)
def one_timing_round(monkeypatch):
    """The bench times the simulated tray in one round of as few frames as it calibrates on here: these
    tests check what it prints, and ten rounds of four timings of 30 frames each would take most of a
    minute per test (one round of 30, twelve seconds)."""
    monkeypatch.setattr(bench_vision, "TIMING_REPEATS", 1)
    monkeypatch.setattr(bench_vision, "SIM_FRAMES", CALIBRATION_FRAMES)


def _photo(path):
    """A white die showing 2 on a gray table (pips on its diagonal)."""
    frame = np.full((240, 320, 3), 110, np.uint8)
    cv2.rectangle(frame, (130, 90), (186, 146), (235, 235, 235), -1)
    for x, y in ((143, 103), (173, 133)):
        cv2.circle(frame, (x, y), 5, (25, 25, 25), -1, cv2.LINE_AA)
    cv2.imwrite(str(path), frame)


def _one_photo_set(tmp_path):
    """A photo set "tiny" under `tmp_path` of one photo, a die showing 2 (`_photo`): its folder."""
    folder = tmp_path / "tiny"
    (folder / "images").mkdir(parents=True)
    _photo(folder / "images" / "a.png")
    (folder / "truth.jsonl").write_text(json.dumps({"image": "images/a.png", "values": [2]}) + "\n")
    return folder


def test_read_prints_values_centres_and_confidence(tmp_path, capsys):
    _photo(tmp_path / "die.png")
    assert main(["read", str(tmp_path / "die.png"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["values"] == [2]
    ((x, y),) = result["centers"]
    assert abs(x - 158) < 6 and abs(y - 118) < 6
    assert 0 < result["confidence"] <= 1 and result["unreadable"] == [] and result["problem"] is None
    assert result["asks"] is (result["confidence"] < ASK_BELOW)


@pytest.mark.parametrize(
    ("reading", "said"),
    [
        (Reading(dice=(Die(4, (10.0, 10.0), 40.0, 0.0, 0.9),)), "4 (confidence 0.90)\n"),
        (Reading(dice=(Die(4, (10.0, 10.0), 40.0, 0.0, 0.4),)), "4 (confidence 0.40); the game would ask"),
        (
            Reading(
                dice=(Die(4, (10.0, 10.0), 40.0, 0.0, 0.9),), unreadable=(Region((90.0, 9.0), 40.0, "cut"),)
            ),
            "4 (confidence 0.90); the game would ask",
        ),
        (Reading(problem="no dice found"), "no dice (confidence 0.00); no dice found\n"),
    ],
)
def test_read_says_when_the_game_would_ask_the_players(tmp_path, capsys, monkeypatch, reading, said):
    _photo(tmp_path / "die.png")
    monkeypatch.setattr(DiceReader, "read", lambda self, frame: reading)
    assert main(["read", str(tmp_path / "die.png")]) == 0
    assert capsys.readouterr().out.startswith(said)
    assert main(["read", str(tmp_path / "die.png"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["asks"] is reading.asks


def test_read_refuses_a_missing_or_undecodable_file(tmp_path, capsys):
    (tmp_path / "junk.png").write_text("not an image")
    for name in ("missing.png", "junk.png"):
        assert main(["read", str(tmp_path / name), "--json"]) == 2
        assert "cannot open" in capsys.readouterr().err


def test_eval_vision_prints_the_contract_metrics(tmp_path, capsys):
    (tmp_path / "images").mkdir()
    _photo(tmp_path / "images" / "a.png")
    (tmp_path / "truth.jsonl").write_text(json.dumps({"image": "images/a.png", "values": [2]}) + "\n")
    assert main(["eval-vision", str(tmp_path / "truth.jsonl"), "--json"]) == 0
    metrics = json.loads(capsys.readouterr().out)
    for key in ("images", "dice", "die_recall", "die_precision", "hand_accuracy", "ms_median", "ms_p90"):
        assert key in metrics
    assert metrics["images"] == 1 and metrics["hand_accuracy"] == 1.0


def _boxed_set(folder, dice):
    """A set in `folder` of one photo (`_photo`, a die showing 2 at 130, 90 to 186, 146) whose truth boxes a
    die of each (value, box) of `dice`."""
    (folder / "images").mkdir()
    _photo(folder / "images" / "a.png")
    record = {
        "image": "images/a.png",
        "values": sorted(value for value, _ in dice),
        "dice": [{"value": value, "box": box} for value, box in dice],
    }
    (folder / "truth.jsonl").write_text(json.dumps(record) + "\n")


def test_eval_vision_lists_the_misread_dice_by_place(tmp_path, capsys):
    _boxed_set(tmp_path, [(2, [130, 90, 186, 146]), (5, [20, 20, 76, 76])])
    assert main(["eval-vision", str(tmp_path / "truth.jsonl"), "--json", "--misreads"]) == 0
    metrics = json.loads(capsys.readouterr().out)
    assert (
        metrics["hand_accuracy"] == 0.0 and metrics["boxed_images"] == 1 and metrics["hands_by_place"] == 0.0
    )
    assert metrics["misreads"] == [
        {
            "image": "images/a.png",
            "kind": "missed",
            "truth": 5,
            "read": 0,
            "x": 48.0,
            "y": 48.0,
            "confidence": 0.0,
        }
    ]
    assert main(["eval-vision", str(tmp_path / "truth.jsonl"), "--misreads"]) == 0
    out = capsys.readouterr().out
    assert "hands_by_place: 0.0000" in out and "images/a.png  missed true 5 read 0  at (48, 48)" in out
    assert main(["eval-vision", str(tmp_path / "truth.jsonl"), "--json"]) == 0
    assert "misreads" not in json.loads(capsys.readouterr().out)  # the contract's output, unless asked


def test_eval_vision_draws_each_misread_die_numbered_as_listed(tmp_path, capsys):
    _boxed_set(tmp_path, [(3, [130, 90, 186, 146]), (5, [20, 20, 76, 76])])
    tiles = tmp_path / "out" / "tiles"
    assert main(["eval-vision", str(tmp_path / "truth.jsonl"), "--json", "--tiles", str(tiles)]) == 0
    listed = json.loads(capsys.readouterr().out)["misreads"]  # --tiles lists them too
    assert [(row["kind"], row["truth"], row["read"]) for row in listed] == [("wrong", 3, 2), ("missed", 5, 0)]
    drawn = sorted(path.name for path in tiles.iterdir())
    assert drawn == ["001-a-wrong-true3-read2.png", "002-a-missed-true5-read0.png"]
    assert cv2.imread(str(tiles / drawn[0])).shape == (TILE_PX, TILE_PX, 3)


def test_eval_vision_refuses_a_tiles_folder_it_cannot_make(tmp_path, capsys):
    (tmp_path / "images").mkdir()
    _photo(tmp_path / "images" / "a.png")
    (tmp_path / "truth.jsonl").write_text(json.dumps({"image": "images/a.png", "values": [2]}) + "\n")
    (tmp_path / "taken").write_text("a file, not a folder")
    assert main(["eval-vision", str(tmp_path / "truth.jsonl"), "--tiles", str(tmp_path / "taken")]) == 2
    assert "pipkeeper eval-vision:" in capsys.readouterr().err


def test_eval_vision_names_a_photo_outside_the_set_by_its_whole_path(tmp_path, capsys):
    _photo(tmp_path / "elsewhere.png")
    (tmp_path / "set").mkdir()
    record = {
        "image": str(tmp_path / "elsewhere.png"),
        "values": [5],
        "dice": [{"value": 5, "box": [20, 20, 76, 76]}],
    }
    (tmp_path / "set" / "truth.jsonl").write_text(json.dumps(record) + "\n")
    assert main(["eval-vision", str(tmp_path / "set" / "truth.jsonl"), "--json", "--misreads"]) == 0
    misreads = json.loads(capsys.readouterr().out)["misreads"]
    assert [(row["image"], row["kind"]) for row in misreads] == [
        ((tmp_path / "elsewhere.png").as_posix(), "missed"),
        ((tmp_path / "elsewhere.png").as_posix(), "false"),
    ]


def test_eval_vision_refuses_a_missing_set(tmp_path, capsys):
    assert main(["eval-vision", str(tmp_path / "nope.jsonl"), "--json"]) == 2
    assert "no such truth file" in capsys.readouterr().err


def test_bench_vision_prints_one_table(tmp_path, capsys):
    _one_photo_set(tmp_path)
    assert main(["bench-vision", "--datasets", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "| tiny" in out and "100.0%" in out and "hand accuracy" in out
    header = next(line for line in out.splitlines() if "hand accuracy" in line)
    row = next(line for line in out.splitlines() if line.startswith("| tiny"))
    cells = dict(zip(header.split("|")[1:-1], row.split("|")[1:-1], strict=True))
    assert {name.strip(): cell.strip() for name, cell in cells.items()}["wrong unasked"] == "0.0%"
    assert "640x480" in out and "1280x720" in out
    # The appliance's steady state is timed too: a photo alone, and a camera's stream as the camera loop reads
    assert len(re.findall(r"; calibrated [0-9.]+ ms median", out)) == 2
    assert len(re.findall(r"; calibrated camera stream [0-9.]+ ms median", out)) == 2
    assert "turned" not in out and "enlarged" not in out  # variants only when asked: they multiply the time


def test_bench_vision_turned_reads_every_set_turned_a_quarter_and_a_half_round(tmp_path, capsys):
    _one_photo_set(tmp_path)
    assert main(["bench-vision", "--datasets", str(tmp_path), "--turned"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| tiny")]
    labels = ["tiny", "tiny turned 90", "tiny turned 180", "tiny every variant"]
    assert [row.split("|")[1].strip() for row in rows] == labels
    assert all("100.0%" in row for row in rows)


def test_bench_vision_enlarged_reads_every_set_with_its_photos_enlarged(tmp_path, capsys, monkeypatch):
    folder = _one_photo_set(tmp_path)
    photo_shape = cv2.imread(str(folder / "images" / "a.png")).shape
    shapes = []
    original_read = DiceReader.read

    def read_noting_shape(self, frame):
        if not shapes or shapes[-1][0] is not frame:  # once per photo: the reader reads it at three sizes
            shapes.append((frame, frame.shape))
        return original_read(self, frame)

    monkeypatch.setattr(DiceReader, "read", read_noting_shape)
    assert main(["bench-vision", "--datasets", str(tmp_path), "--turned", "--enlarged"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| tiny")]
    labels = ["tiny", "tiny turned 90", "tiny turned 180", "tiny enlarged 2.5x", "tiny every variant"]
    assert [row.split("|")[1].strip() for row in rows] == labels
    assert all("100.0%" in row for row in rows)
    enlarged = (photo_shape[0] * 5 // 2, photo_shape[1] * 5 // 2, 3)
    assert [shape for _, shape in shapes[:4]] == [
        photo_shape,
        photo_shape[1::-1] + (3,),
        photo_shape,
        enlarged,
    ]


def _frames_read_by(reader_class, monkeypatch):
    """The frames `reader_class.read` is given from now on, in order; it still reads them."""
    frames = []
    original_read = reader_class.read

    def read_keeping_frame(self, frame):
        frames.append(frame)
        return original_read(self, frame)

    monkeypatch.setattr(reader_class, "read", read_keeping_frame)
    return frames


def _bench_one_variant(tmp_path, capsys, monkeypatch, *flags):
    """Run bench-vision with `flags` on a set of one photo (a die showing 2): (the set's row labels, whether
    each row read every hand, the frames the reader was given in order: the photo as taken first)."""
    _one_photo_set(tmp_path)
    frames = _frames_read_by(DiceReader, monkeypatch)
    assert main(["bench-vision", "--datasets", str(tmp_path), *flags]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| tiny")]
    return [row.split("|")[1].strip() for row in rows], all("100.0%" in row for row in rows), frames


def test_bench_vision_distant_reads_every_photo_in_the_middle_of_a_frame_three_times_as_large(
    tmp_path, capsys, monkeypatch
):
    """The same die at a third of its share of the frame, as a camera farther away sees it: the photo in the
    middle of a frame 3 times as wide and high, filled with the colour of the photo's border."""
    labels, all_read, frames = _bench_one_variant(tmp_path, capsys, monkeypatch, "--distant")
    assert labels == ["tiny", "tiny from 3x as far", "tiny every variant"]
    assert all_read
    photo, afar = frames[0], frames[1]
    assert afar.shape == (720, 960, 3)
    assert np.array_equal(afar[240 + 40 : 480 - 40, 320 + 40 : 640 - 40], photo[40:-40, 40:-40])
    assert (afar[:200, :200] == 110).all() and (afar[-200:, -200:] == 110).all()


def test_bench_vision_recompressed_reads_every_photo_saved_again_as_a_jpeg(tmp_path, capsys, monkeypatch):
    """The same photo through one more JPEG encoder: its size kept, its pixels a level or two off."""
    labels, all_read, frames = _bench_one_variant(tmp_path, capsys, monkeypatch, "--recompressed")
    assert labels == ["tiny", "tiny re-saved q95", "tiny every variant"]
    assert all_read
    photo, saved = frames[0].astype(int), frames[1].astype(int)
    assert saved.shape == photo.shape
    assert not np.array_equal(saved, photo)
    assert np.abs(saved - photo).mean() < 2.0


def test_bench_vision_tinted_reads_every_photo_with_its_blue_and_red_scaled_apart(
    tmp_path, capsys, monkeypatch
):
    """The photo as a camera balanced for other light sees it: blue up and red down, then the other way,
    each stopping at full scale; green as it was."""
    labels, all_read, frames = _bench_one_variant(tmp_path, capsys, monkeypatch, "--tinted")
    assert labels == ["tiny", "tiny tinted cool", "tiny tinted warm", "tiny every variant"]
    assert all_read
    photo, cool, warm = (frame.astype(float) for frame in frames[:3])
    for tinted, (blue, red) in ((cool, (1.25, 0.8)), (warm, (0.8, 1.25))):
        assert np.array_equal(tinted[:, :, 1], photo[:, :, 1])
        assert np.abs(tinted[:, :, 0] - np.minimum(255, blue * photo[:, :, 0])).max() <= 1
        assert np.abs(tinted[:, :, 2] - np.minimum(255, red * photo[:, :, 2])).max() <= 1


def test_bench_vision_noisy_reads_every_photo_with_sensor_noise_the_same_each_run(
    tmp_path, capsys, monkeypatch
):
    """Every level moved by a normal draw of `NOISE_SIGMA` levels, clipped to 0..255: its size kept, the
    jitter a live frame has, and the same draws each run, so the row is read alike every time."""
    labels, all_read, frames = _bench_one_variant(tmp_path, capsys, monkeypatch, "--noisy")
    assert labels == ["tiny", "tiny with sensor noise", "tiny every variant"]
    assert all_read
    photo, noisy = frames[0].astype(float), frames[1].astype(float)
    assert noisy.shape == photo.shape and frames[1].dtype == np.uint8
    unclipped = (photo > 20) & (photo < 235)
    assert np.std((noisy - photo)[unclipped]) == pytest.approx(bench_vision.NOISE_SIGMA, rel=0.05)
    assert np.array_equal(bench_vision._noisy(frames[0]), frames[1])


def test_bench_vision_streamed_reads_every_photo_as_a_still_camera_until_its_dice_settle(
    tmp_path, capsys, monkeypatch
):
    """Each photo as the camera loop sees still dice: frames of the photo, each with its own draw of sensor
    noise, read by the stream and watched until the dice settle, a still time after the first frame; the
    row counts the reading they settled with, and a line says how long that took in the camera's time."""
    folder = _one_photo_set(tmp_path)
    frames = _frames_read_by(StreamReader, monkeypatch)
    monkeypatch.setattr(bench_vision, "_sim_timing", lambda width, height: "not timed here")
    assert main(["bench-vision", "--datasets", str(tmp_path), "--streamed"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| tiny")]
    assert [row.split("|")[1].strip() for row in rows] == ["tiny", "tiny as a camera stream"]
    assert all("100.0%" in row for row in rows)
    # Settled once the dice had lain still for the watcher's still time: the frame 0.3 s after the first.
    settled = round(RollWatcher().still_seconds * bench_vision.STREAM_FPS)
    assert len(frames) == settled + 1
    after = settled * 1000 // bench_vision.STREAM_FPS
    assert f"tiny as a camera stream: dice settled {after} ms median" in out
    assert "0 of 1 photos not in 1 s" in out
    photo = cv2.imread(str(folder / "images" / "a.png")).astype(float)
    noise = [np.std(frame - photo) for frame in frames]
    assert noise == pytest.approx([bench_vision.NOISE_SIGMA] * len(frames), rel=0.1)
    assert not any(np.array_equal(first, second) for first, second in zip(frames, frames[1:], strict=False))


def test_bench_vision_streamed_gives_the_game_nothing_for_dice_that_never_settle(
    tmp_path, capsys, monkeypatch
):
    """Dice the watcher never reports within the frames watched: the game scores nothing and asks, so the
    row reads no die and asks about every hand."""
    _one_photo_set(tmp_path)
    monkeypatch.setattr(RollWatcher, "update", lambda self, reading, now: [])
    monkeypatch.setattr(bench_vision, "_sim_timing", lambda width, height: "not timed here")
    assert main(["bench-vision", "--datasets", str(tmp_path), "--streamed"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("| tiny as a camera stream"))
    recall, _, hands, asked = (cell.strip() for cell in row.split("|")[3:7])
    assert (recall, hands, asked) == ("0.0%", "0.0%", "100.0%")
    assert "tiny as a camera stream: no photo's dice settled in 30 frames" in out


def test_bench_vision_counts_the_hands_read_right_in_every_variant(tmp_path, capsys, monkeypatch):
    """Photo a is misread turned a quarter round, photo b turned a half round: each turned row reads half
    the hands, and no hand is read right in every variant (neither the worst row nor their mean)."""
    folder = tmp_path / "tiny"
    (folder / "images").mkdir(parents=True)
    for name in ("a", "b"):
        _photo(folder / "images" / f"{name}.png")
    marked = cv2.imread(str(folder / "images" / "b.png"))
    marked[:8, :8] = (0, 0, 255)  # a red corner tells photo b's way up
    cv2.imwrite(str(folder / "images" / "b.png"), marked)
    lines = [json.dumps({"image": f"images/{name}.png", "values": [2]}) for name in ("a", "b")]
    (folder / "truth.jsonl").write_text("\n".join(lines) + "\n")
    original_read = DiceReader.read

    def read_misreading_some_turned_photos(self, frame):
        red = (frame == (0, 0, 255)).all(axis=2)
        turned_a = frame.shape[0] > frame.shape[1] and not red.any()
        upside_down_b = red[-8:, -8:].all()
        return (
            Reading(frame_size=frame.shape[1::-1])
            if turned_a or upside_down_b
            else original_read(self, frame)
        )

    monkeypatch.setattr(DiceReader, "read", read_misreading_some_turned_photos)
    monkeypatch.setattr(bench_vision, "_sim_timing", lambda width, height: "not timed here")
    assert main(["bench-vision", "--datasets", str(tmp_path), "--turned"]) == 0
    rows = {
        row.split("|")[1].strip(): row.split("|")[5].strip()
        for row in capsys.readouterr().out.splitlines()
        if row.startswith("| tiny")
    }
    assert rows == {
        "tiny": "100.0%",
        "tiny turned 90": "50.0%",
        "tiny turned 180": "50.0%",
        "tiny every variant": "0.0%",
    }


def test_bench_timing_reads_every_frame_once_a_round_and_counts_each_frames_fastest_read(monkeypatch):
    """Three frames read in four rounds, each round reading every frame once, taking (in ms) 9, 8, 7 /
    2, 3, 5 / 4, 3, 1 / 6, 6, 6: the fastest reads are 2, 3 and 1 (median 2), the first reads 9, 8 and 7
    (median 8). A frame's reads lie a round apart, so a slow spell of the machine's other work does not
    stretch all of them. The clock is scripted, not real."""
    monkeypatch.setattr(bench_vision, "TIMING_REPEATS", 4)
    rounds = [[9, 8, 7], [2, 3, 5], [4, 3, 1], [6, 6, 6]]
    ends = np.cumsum(np.ravel(rounds)) / 1000.0
    starts = np.concatenate(([0.0], ends[:-1]))  # each read starts where the one before ended
    ticks = iter(np.column_stack([starts, ends]).ravel())
    frames = [np.full((4, 4, 3), number, np.uint8) for number in range(3)]
    order = []

    class RecordingReader:
        def read(self, frame):
            order.append(int(frame[0, 0, 0]))

    monkeypatch.setattr(bench_vision.time, "perf_counter", lambda: float(next(ticks)))
    line = bench_vision._timing(RecordingReader(), frames)
    assert order == [0, 1, 2] * bench_vision.TIMING_REPEATS
    assert line.startswith("2.0 ms median") and "first reads 8.0 ms median" in line


def test_bench_vision_still_reads_every_photo_enlarged_to_a_pi_camera_still_s_width(
    tmp_path, capsys, monkeypatch
):
    """A Raspberry Pi camera v2's full still is 3280 px wide: each photo enlarged to that width, its shape
    kept, as the white dice of a tray are seen at the camera's full resolution."""
    labels, all_read, frames = _bench_one_variant(tmp_path, capsys, monkeypatch, "--still")
    assert labels == ["tiny", "tiny as a Pi still", "tiny every variant"]
    assert all_read
    photo, still = frames[0], frames[1]
    assert still.shape == (photo.shape[0] * 3280 // photo.shape[1], 3280, 3)


def test_bench_vision_distant_and_still_also_read_every_photo_from_afar_as_a_pi_still(
    tmp_path, capsys, monkeypatch
):
    """A whole tray in a Pi camera's still: the photo from 3x as far, then enlarged to 3280 px wide."""
    labels, all_read, frames = _bench_one_variant(tmp_path, capsys, monkeypatch, "--distant", "--still")
    assert labels == [
        "tiny",
        "tiny from 3x as far",
        "tiny as a Pi still",
        "tiny far, as a Pi still",
        "tiny every variant",
    ]
    assert all_read
    afar, far_still = frames[1], frames[3]
    assert far_still.shape == (2460, 3280, 3)
    assert np.array_equal(far_still, bench_vision._as_still(afar))


def test_bench_vision_calibrated_reads_each_photo_with_a_profile_calibrated_on_it(
    tmp_path, capsys, monkeypatch
):
    """As the appliance reads once set up: each photo as taken, with a profile auto-calibrated on that photo
    alone. Its time columns are left out: they would time the calibration too."""
    folder = _one_photo_set(tmp_path)
    calibrated_on, read_with = [], []
    real_calibrate, real_read = bench_vision.auto_calibrate, DiceReader.read

    def calibrate(frames, profile):
        calibrated_on.append(frames)
        return real_calibrate(frames, profile)

    def read(self, frame):
        read_with.append(self.profile)
        return real_read(self, frame)

    monkeypatch.setattr(bench_vision, "auto_calibrate", calibrate)
    monkeypatch.setattr(DiceReader, "read", read)
    monkeypatch.setattr(bench_vision, "_sim_timing", lambda width, height: "not timed here")
    assert main(["bench-vision", "--datasets", str(tmp_path), "--calibrated"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| tiny")]
    assert [row.split("|")[1].strip() for row in rows] == ["tiny", "tiny calibrated on each"]
    cells = [cell.strip() for cell in rows[1].split("|")[1:-1]]
    assert cells[4] == "100.0%" and cells[-2:] == ["-", "-"]
    ((photo,),) = calibrated_on
    assert np.array_equal(photo, cv2.imread(str(folder / "images" / "a.png")))
    assert read_with[0].die_size is None and read_with[-1].die_size is not None


def test_a_photo_that_does_not_calibrate_is_read_with_the_default_profile():
    """As the appliance keeps the profile it had when a calibration fails: a blank photo calibrates to
    nothing, and is read, without an exception, as showing no dice."""
    reading = bench_vision._read_calibrated(np.full((240, 320, 3), 110, np.uint8))
    assert reading.dice == () and reading.problem is not None

"""Loading truth.jsonl sets and scoring a run, on a tiny set written here."""

import json

import cv2
import numpy as np
import pytest

from vision.dataset import load_truth, run, summarise
from vision.reading import Die, Reading


def _write_set(tmp_path, records):
    (tmp_path / "images").mkdir()
    for record in records:
        cv2.imwrite(str(tmp_path / record["image"]), np.zeros((32, 32, 3), np.uint8))
    truth = tmp_path / "truth.jsonl"
    truth.write_text("".join(json.dumps(r) + "\n" for r in records))
    return truth


def test_scores_follow_the_multiset_contract(tmp_path):
    truth = _write_set(
        tmp_path,
        [{"image": "images/a.png", "values": [1, 3, 3]}, {"image": "images/b.png", "values": [2, 6]}],
    )
    answers = iter([[3, 1, 3], [2, 5, 6]])

    def fake_read(frame):
        return Reading(dice=tuple(Die(v, (0.0, 0.0), 1.0, 0.0, 1.0) for v in next(answers)))

    metrics = summarise(list(run(load_truth(truth), fake_read)))
    assert metrics["images"] == 2 and metrics["dice"] == 5
    assert metrics["die_recall"] == 1.0
    assert metrics["die_precision"] == pytest.approx(5 / 6)
    assert metrics["hand_accuracy"] == 0.5
    assert metrics["ms_median"] >= 0.0 and metrics["ms_p90"] >= metrics["ms_median"]


def test_prepare_changes_each_photo_before_it_is_read(tmp_path):
    truth = _write_set(tmp_path, [{"image": "images/a.png", "values": [1]}])
    shapes = []

    def read(frame):
        shapes.append(frame.shape)
        return Reading()

    list(run(load_truth(truth), read, prepare=lambda frame: frame[:, :16]))
    assert shapes == [(32, 16, 3)]


@pytest.mark.parametrize("line", ['{"image": "x.png"}', "not json", '{"image": "x.png", "values": [7]}'])
def test_malformed_truth_names_the_line(tmp_path, line):
    truth = tmp_path / "truth.jsonl"
    truth.write_text(line + "\n")
    with pytest.raises(ValueError, match="truth.jsonl:1"):
        load_truth(truth)

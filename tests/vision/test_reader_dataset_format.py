"""Loading truth.jsonl sets and scoring a run, on a tiny set written here."""

import json

import cv2
import numpy as np
import pytest

from vision.dataset import load_truth, run, summarise
from vision.reading import ASK_BELOW, Die, Reading, Region


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


def _die(value, confidence=1.0):
    return Die(value, (0.0, 0.0), 1.0, 0.0, confidence)


@pytest.mark.parametrize(
    ("reading", "asks"),
    [
        (Reading(dice=(_die(2), _die(5, ASK_BELOW))), False),
        (Reading(dice=(_die(2), _die(5, ASK_BELOW - 0.01))), True),  # the weakest die decides
        (Reading(dice=(_die(2),), unreadable=(Region((9.0, 9.0), 1.0, "cocked"),)), True),
        (Reading(), True),  # nothing read: nothing is scored unasked
    ],
)
def test_a_reading_asks_about_a_doubtful_die_or_anything_unreadable(reading, asks):
    assert reading.asks is asks


def test_scores_count_the_hands_asked_about_and_the_wrong_ones_given_as_sure(tmp_path):
    records = [{"image": f"images/{name}.png", "values": [2, 5]} for name in "abcde"]
    truth = _write_set(tmp_path, records)
    answers = iter(
        [
            (_die(2), _die(5)),  # right and sure
            (_die(2), _die(5, 0.3)),  # right but asked about
            (_die(2), _die(4, 0.3)),  # wrong and asked about: the players correct it
            (_die(2), _die(4)),  # wrong and given as sure
            (_die(2),),  # a die missed: the game waits for all its dice, so nothing is scored
        ]
    )

    results = list(run(load_truth(truth), lambda frame: Reading(dice=next(answers))))
    assert [result.asked for result in results] == [False, True, True, False, True]
    metrics = summarise(results)
    assert metrics["hand_accuracy"] == 0.4
    assert metrics["hands_asked"] == 0.6
    assert metrics["wrong_unasked"] == 0.2


def test_a_photo_that_cannot_be_decoded_is_no_wrong_hand_given_as_sure(tmp_path):
    truth = _write_set(tmp_path, [{"image": "images/a.png", "values": [3]}])
    (tmp_path / "images" / "a.png").write_bytes(b"not a picture")
    metrics = summarise(list(run(load_truth(truth), lambda frame: Reading(dice=(_die(4),)))))
    assert metrics["hand_accuracy"] == 0.0 and metrics["wrong_unasked"] == 0.0


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


def test_boxes_are_kept_where_the_record_boxes_every_die(tmp_path):
    truth = _write_set(
        tmp_path,
        [
            {
                "image": "images/a.png",
                "values": [2, 5],
                "dice": [{"value": 5, "box": [1, 2, 11, 12]}, {"value": 2, "box": [20, 2, 30, 12]}],
            },
            {"image": "images/b.png", "values": [2, 5], "dice": [{"value": 5}, {"value": 2}]},
            {"image": "images/c.png", "values": [2, 5], "dice": [{"value": 5, "box": [1, 2, 11, 12]}]},
            {"image": "images/d.png", "values": [3]},
        ],
    )
    a, b, c, d = load_truth(truth)
    assert [(die.value, die.box) for die in a.dice] == [
        (5, (1.0, 2.0, 11.0, 12.0)),
        (2, (20.0, 2.0, 30.0, 12.0)),
    ]
    # A die without its box, a die left out, no boxes at all: the hand is judged by value alone.
    assert b.dice == c.dice == d.dice == ()


@pytest.mark.parametrize(
    "dice",
    [
        '[{"value": 3, "box": [5, 5, 5, 9]}]',
        '[{"value": 3, "box": [1, 2]}]',
        '[{"value": 9, "box": [1, 2, 3, 4]}]',
    ],
)
def test_a_malformed_box_names_the_line(tmp_path, dice):
    truth = tmp_path / "truth.jsonl"
    truth.write_text('{"image": "x.png", "values": [3], "dice": ' + dice + "}\n")
    with pytest.raises(ValueError, match="truth.jsonl:1"):
        load_truth(truth)


def test_the_dice_read_are_kept_with_their_places(tmp_path):
    truth = _write_set(tmp_path, [{"image": "images/a.png", "values": [4]}])
    die = Die(4, (7.0, 9.0), 12.0, 0.0, 0.8)
    (result,) = run(load_truth(truth), lambda frame: Reading(dice=(die,)))
    assert result.found == (die,) and result.read == (4,)

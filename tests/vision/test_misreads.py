"""Matching the dice read to a photo's labelled boxes, so each misread die is named by place."""

from pathlib import Path

from vision.dataset import ImageResult, Sample, TrueDie
from vision.misreads import Misread, misreads
from vision.reading import Die


def _result(truth, read):
    """A photo labelled with `truth` ((value, x, y) of 20 px dice) read as `read` ((value, x, y))."""
    boxes = tuple(TrueDie(v, (x - 10.0, y - 10.0, x + 10.0, y + 10.0)) for v, x, y in truth)
    sample = Sample(Path("a.png"), tuple(sorted(v for v, _, _ in truth)), boxes)
    found = tuple(Die(v, (float(x), float(y)), 20.0, 0.0, 0.9) for v, x, y in read)
    return ImageResult(sample, tuple(sorted(v for v, _, _ in read)), 0.0, None, found)


def test_a_hand_read_right_has_no_misreads():
    assert misreads(_result([(3, 50, 50), (6, 100, 50)], [(6, 102, 49), (3, 48, 53)])) == []


def test_two_values_swapped_are_two_wrong_dice_though_the_values_match():
    result = _result([(4, 50, 50), (5, 100, 50)], [(5, 50, 50), (4, 100, 50)])
    assert result.read == result.sample.values  # right by value, as eval-vision's contract scores it
    assert misreads(result) == [
        Misread("wrong", 4, 5, (50.0, 50.0), 0.9),
        Misread("wrong", 5, 4, (100.0, 50.0), 0.9),
    ]


def test_a_die_missed_beside_a_false_die_of_its_value():
    found = misreads(_result([(2, 50, 50)], [(2, 150, 50)]))
    assert found == [Misread("missed", 2, 0, (50.0, 50.0), 0.0), Misread("false", 0, 2, (150.0, 50.0), 0.9)]


def test_the_nearest_die_read_takes_the_box():
    # Two dice read near one box: the nearer is its die, the other a false one.
    found = misreads(_result([(1, 50, 50)], [(1, 58, 50), (1, 52, 50)]))
    assert found == [Misread("false", 0, 1, (58.0, 50.0), 0.9)]


def test_a_record_without_boxes_has_no_places_to_match():
    sample = Sample(Path("a.png"), (3,))
    assert misreads(ImageResult(sample, (3,), 0.0, None, ())) is None

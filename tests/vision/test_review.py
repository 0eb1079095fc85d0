"""Pictures of misread dice: the photo around the die, enlarged, with the truth's boxes and the dice read."""

from pathlib import Path

import numpy as np

from vision.annotate import SURE
from vision.dataset import ImageResult, Sample, TrueDie
from vision.misreads import Misread
from vision.reading import Die
from vision.review import TILE_DICE, TILE_PX, TRUTH, misread_tile, tile_name

SIDE = 40  # every labelled die here is 40 px wide


def _result(boxes: list[tuple[int, float, float]], found: tuple[Die, ...] = ()) -> ImageResult:
    """A photo's result whose truth boxes a 40 px die of each (value, x, y)."""
    dice = tuple(
        TrueDie(value, (x - SIDE / 2, y - SIDE / 2, x + SIDE / 2, y + SIDE / 2)) for value, x, y in boxes
    )
    sample = Sample(Path("photo.jpg"), tuple(sorted(value for value, _, _ in boxes)), dice)
    return ImageResult(sample, tuple(sorted(die.value for die in found)), 0.0, None, found)


def _is(pixel: np.ndarray, colour: tuple[int, int, int]) -> bool:
    return bool(np.abs(pixel.astype(int) - colour).max() < 40)


def test_a_missed_die_is_shown_enlarged_in_the_middle_inside_its_truth_box():
    frame = np.full((240, 320, 3), 100, np.uint8)
    frame[100:140, 140:180] = 240  # a pale die, 40 px, centred on (160, 120)
    tile = misread_tile(frame, _result([(5, 160, 120)]), Misread("missed", 5, 0, (160.0, 120.0), 0.0))
    assert tile.shape == (TILE_PX, TILE_PX, 3)
    middle = TILE_PX // 2
    assert (tile[middle - 20 : middle + 20, middle - 20 : middle + 20] > 200).all()  # the die, enlarged
    box_half = TILE_PX / TILE_DICE / 2  # the box is a third of the picture, round its middle
    left = int(round(middle - box_half))
    assert _is(tile[middle, left], TRUTH) and _is(tile[middle, int(round(middle + box_half))], TRUTH)
    assert _is(tile[middle, left - 12], (100, 100, 100))  # the table outside it


def test_the_dice_read_are_drawn_where_they_were_read_and_past_the_photo_is_black():
    frame = np.full((240, 320, 3), 100, np.uint8)
    read = Die(3, (30.0, 30.0), 40.0, 0.0, 0.95)  # a false die near the corner
    tile = misread_tile(frame, _result([(2, 200, 150)], (read,)), Misread("false", 0, 3, (30.0, 30.0), 0.95))
    middle, half_die = TILE_PX // 2, TILE_PX / TILE_DICE / 2
    assert _is(
        tile[middle, int(round(middle + half_die))], SURE
    )  # its right side, green: read with confidence
    assert (tile[:20, :20] == 0).all()  # above and left of the photo: black
    assert not (tile == TRUTH).all(axis=2).any()  # the labelled die lies outside the picture


def test_a_picture_is_named_by_its_number_photo_and_what_is_wrong():
    misread = Misread("wrong", 6, 5, (1.0, 2.0), 0.97)
    assert tile_name(7, Path("images/IMG_1.jpg"), misread) == "007-IMG_1-wrong-true6-read5.png"

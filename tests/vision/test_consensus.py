"""Readings of one frame at several working sizes agreeing on its dice (`vision.consensus.agree`)."""

import pytest

from vision.consensus import agree, unanimous
from vision.reading import ASK_BELOW, Die, Reading, Region


def die(value, x, confidence=0.9, y=100.0, size=40.0):
    return Die(value, (x, y), size, 0.0, confidence)


def reading(*dice, unreadable=(), problem=None):
    return Reading(tuple(dice), tuple(unreadable), (640, 480), problem, {"scale": 1.0})


def test_a_die_read_alike_at_every_size_keeps_its_value_and_confidence():
    agreed = agree([reading(die(3, 100)), reading(die(3, 102)), reading(die(3, 98))])
    assert agreed.values == [3]
    assert agreed.dice[0].center == (102, 100.0)  # the middle reading's die
    assert agreed.dice[0].confidence == pytest.approx(0.9)
    assert agreed.unreadable == () and agreed.problem is None


def test_the_value_most_sizes_read_wins_with_a_confidence_that_says_how_many():
    agreed = agree([reading(die(4, 100)), reading(die(5, 100)), reading(die(4, 101))])
    assert agreed.values == [4]
    assert agreed.dice[0].confidence == pytest.approx(ASK_BELOW * 2 / 3)


@pytest.mark.parametrize(
    "middle",
    [reading(die(5, 100, confidence=1.0)), reading()],  # the middle size read another value, or nothing
    ids=["another value", "missed"],
)
def test_a_die_the_sizes_did_not_all_read_alike_is_asked_about_however_surely_each_read_it(middle):
    sure = reading(die(4, 100, confidence=1.0))
    agreed = agree([sure, middle, sure])
    assert agreed.values == [4]
    assert agreed.dice[0].confidence < ASK_BELOW
    assert agreed.asks
    alike = agree([sure, sure, sure])
    assert alike.dice[0].confidence == 1.0 and not alike.asks


def test_a_die_the_sizes_read_differently_keeps_the_largest_value_and_is_doubtful():
    # A reading loses faint pips far more often than it makes some up: the middle size's 1 is a four's
    # pip, and the 2 one of its diagonals.
    agreed = agree(
        [reading(die(2, 100)), reading(die(1, 100), die(6, 300)), reading(die(4, 100), die(6, 301))]
    )
    assert agreed.values == [4, 6]
    assert agreed.dice[0].confidence == pytest.approx(ASK_BELOW / 3)
    assert agreed.dice[1].confidence == pytest.approx(ASK_BELOW * 2 / 3)  # the first size missed the 6


def test_of_two_sizes_that_saw_a_die_the_one_that_read_more_pips_wins():
    agreed = agree([reading(die(5, 100)), reading(die(2, 101)), reading()])
    assert agreed.values == [5]
    assert agreed.dice[0].center == (100, 100.0)  # the die that was read so


def test_a_die_one_size_alone_saw_is_an_unreadable_region_not_a_die():
    agreed = agree([reading(die(5, 100)), reading(die(5, 100), die(1, 400)), reading(die(5, 100))])
    assert agreed.values == [5]
    assert [region.center for region in agreed.unreadable] == [(400, 100.0)]
    assert "fewer than most" in agreed.unreadable[0].reason


def test_dice_apart_are_not_one_die_and_come_out_left_to_right():
    first = reading(die(6, 300), die(2, 100), die(1, 130))  # 30 px apart: less than a die, but one reading
    agreed = agree([first, reading(die(2, 100), die(6, 300), die(1, 131)), first])
    assert agreed.values == [2, 1, 6]


def test_the_middle_readings_regions_stay_unless_an_agreed_die_lies_on_them():
    cut = Region((600.0, 100.0), 40.0, "cut by the frame edge")
    on_die = Region((100.0, 102.0), 40.0, "pips do not form a die face")
    agreed = agree([reading(die(3, 100)), reading(unreadable=(cut, on_die)), reading(die(3, 100))])
    assert agreed.values == [3]
    assert agreed.unreadable == (cut,)


def test_a_frame_no_size_could_read_keeps_its_problem():
    blank = reading(problem="the frame is blank (no contrast)")
    assert agree([blank, blank, blank]).problem == "the frame is blank (no contrast)"
    assert agree([blank, reading(die(1, 100)), reading(die(1, 100))]).problem is None


def test_a_die_near_two_groups_joins_the_nearer_so_no_die_comes_out_twice():
    """One size reads a die and, half a die off, a small face beside it; the next size reads the die a
    little lower, and the largest reads it larger still, nearer the die than the small face but near enough
    to both. Joined to the first group it met, it made two dice 6 px apart with two values (nell-byler
    112623: a 6 and a 4 on one die held in a hand)."""
    agreed = agree(
        [
            reading(die(3, 174, y=575, size=15), die(3, 190, y=581, size=37)),
            reading(die(4, 193, y=591, size=30)),
            reading(die(6, 187, y=589, size=43)),
        ]
    )
    assert agreed.values == [6]  # three values, one each: the largest, doubtful
    assert agreed.dice[0].confidence == pytest.approx(ASK_BELOW / 3)
    assert [region.center for region in agreed.unreadable] == [(174, 575)]


def test_a_die_one_size_read_as_two_parts_comes_out_once():
    """The smallest size reads a two's pips as two ones; the other sizes read the two between them, each a
    little nearer another one, so each joins another group. Each group made a two of its own, and the die
    came out twice, a few pixels apart (matteop65 two_49 with sensor noise). Two dice cannot lie within half
    a die of each other: it is one die."""
    agreed = agree(
        [
            reading(die(1, 162, y=317, size=26), die(1, 170, y=344, size=26)),
            reading(die(2, 166, y=330, size=40)),
            reading(die(2, 166, y=331, size=40)),
        ]
    )
    assert agreed.values == [2]
    assert agreed.unreadable == ()


def test_of_two_dice_agreed_on_one_spot_the_surer_stays():
    agreed = agree(
        [
            reading(die(1, 162, y=317, size=26), die(1, 170, y=344, size=26)),
            reading(die(2, 166, y=330, size=40, confidence=0.5)),
            reading(die(3, 166, y=331, size=40, confidence=0.3)),
        ]
    )
    assert agreed.values == [2]  # the surer, though the other read more pips
    assert agreed.dice[0].confidence == pytest.approx(0.5 / 3)


def test_dice_within_a_large_die_s_reach_but_not_on_each_other_all_stay():
    # matteop65 three_37 from 3x as far: a two read from two threes' pips is as wide as both; each three
    # lies within half its side, but not within half of its own.
    hand = reading(die(3, 100, size=42), die(2, 150, size=105), die(3, 200, size=42))
    assert agree([hand, hand, hand]).values == [3, 2, 3]


def test_two_readings_of_the_same_dice_read_alike_are_unanimous_in_any_order():
    assert unanimous([reading(die(3, 100), die(5, 300)), reading(die(5, 302), die(3, 101))])
    assert unanimous([reading(problem="no dice found"), reading(problem="no dice found")])


@pytest.mark.parametrize(
    "second",
    [
        reading(die(3, 100), die(4, 300)),  # one die read otherwise
        reading(die(3, 100)),  # one die missed
        reading(die(3, 100), die(5, 300), die(1, 500)),  # one more die
        reading(die(3, 100), die(5, 300), unreadable=(Region((500, 100), 40.0, "cut by the frame edge"),)),
    ],
)
def test_readings_that_differ_on_a_die_or_leave_a_region_are_not_unanimous(second):
    assert not unanimous([reading(die(3, 100), die(5, 300)), second])


def test_when_two_readings_are_unanimous_a_third_changes_no_die_s_value():
    # What `DiceReader.read` relies on to skip the middle size: whatever a third reads, the dice and
    # their values are those two agreed on.
    first, second = reading(die(2, 100), die(6, 300)), reading(die(2, 101), die(6, 299))
    assert unanimous([first, second])
    thirds = [reading(), reading(die(1, 100), die(5, 300)), reading(die(2, 100), die(6, 300), die(4, 500))]
    for third in thirds:
        assert agree([first, third, second]).values == agree([first, second]).values == [2, 6]

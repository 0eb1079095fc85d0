"""Advice read from solved tables: keeps, boxes, costs, and games played by the advice itself."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.advisor import advice
from scoring.advisor.model import build_model
from scoring.advisor.simulate import simulate_games
from scoring.advisor.solver import solve
from scoring.rules import get_rules


class PartOfYatzy:
    """Real Yatzy scoring on a few of its boxes: a game small enough to solve in a fraction of a second."""

    def __init__(self, boxes):
        self.rules = get_rules("yatzy")
        self.name, self.dice_count, self.boxes = "part of yatzy", 5, tuple(boxes)
        self.upper_boxes = tuple(b for b in boxes if b in self.rules.upper_boxes)
        self.bonus_threshold, self.bonus_points, self.forced_order = 63, 0, False

    def box_score(self, box, dice):
        return self.rules.box_score(box, dice)

    def legal_boxes(self, card, dice):
        return {box: self.box_score(box, dice) for box in self.boxes if box not in card}

    def extra_points(self, card, dice):
        return 0


@pytest.fixture(scope="module")
def small():
    return solve(
        build_model(PartOfYatzy(["one_pair", "three_of_a_kind", "large_straight", "chance", "sixes"]))
    )


@pytest.fixture(scope="module")
def forced():
    return solve(build_model(get_rules("forced")))


def test_the_first_roll_expectation_agrees_with_the_table(small):
    after_first_roll = advice.hand_values(small, {}, 2)
    assert small.model.space.hand_probability @ after_first_roll == pytest.approx(
        small.expected_score, abs=1e-9
    )


def test_keeping_everything_is_worth_the_best_box(small):
    options = advice.keep_options(small, {"chance": 20}, [2, 3, 4, 5, 6], 1)
    kept_all = [o for o in options if o.keep == (2, 3, 4, 5, 6)][0]
    assert options[0] == kept_all
    best_box = advice.box_values(small, {"chance": 20}, [2, 3, 4, 5, 6])[0]
    assert (best_box.box, best_box.points) == ("large_straight", 20)
    assert kept_all.ev == pytest.approx(best_box.ev)


def test_box_values_follow_the_rules_legal_boxes_and_cost_nothing_when_best(small):
    options = advice.box_values(small, {"one_pair": 8}, [3, 3, 3, 5, 6])
    assert {o.box for o in options} == {"three_of_a_kind", "large_straight", "chance", "sixes"}
    assert options == sorted(options, key=lambda o: -o.ev)
    assert advice.decision_cost(small, {"one_pair": 8}, [3, 3, 3, 5, 6], 0, options[0].box) == 0.0
    worst = options[-1]
    assert advice.decision_cost(small, {"one_pair": 8}, [3, 3, 3, 5, 6], 0, worst.box) == pytest.approx(
        options[0].ev - worst.ev
    )


def test_the_cost_of_a_keep_is_its_shortfall(small):
    options = advice.keep_options(small, {}, [6, 6, 1, 2, 3], 2)
    assert advice.decision_cost(small, {}, [6, 6, 1, 2, 3], 2, options[0].keep) == 0.0
    assert advice.decision_cost(small, {}, [6, 6, 1, 2, 3], 2, []) > 0


@pytest.mark.parametrize(
    "card, dice, rolls_left, choice, reason",
    [
        ({}, [1, 2, 3, 4, 5], 2, [6], "cannot keep"),
        ({}, [1, 2, 3, 4, 5], 0, "yatzy", "not a legal box"),
        ({}, [1, 2, 3, 4, 5], 0, [1], "box name"),
        ({}, [1, 2, 3, 4, 5], 2, "chance", "dice kept"),
        ({"nope": 3}, [1, 2, 3, 4, 5], 2, [1], "no box"),
        ({"sixes": 7}, [1, 2, 3, 4, 5], 2, [1], "no hand scores 7"),
        ({}, [1, 2, 3, 4, 7], 2, [1], "1 to 6"),
        ({}, [1, 2, 3, 4], 2, [1], "5 dice"),
        ({}, [1, 2, 3, 4, 5], 3, [1], "rolls left"),
    ],
)
def test_bad_questions_get_a_clear_reason(small, card, dice, rolls_left, choice, reason):
    with pytest.raises(ValueError, match=reason):
        advice.decision_cost(small, card, dice, rolls_left, choice)


def test_keep_positions_point_at_the_real_dice():
    assert advice.keep_positions([6, 1, 4, 1, 3], (1, 1)) == [1, 3]
    with pytest.raises(ValueError):
        advice.keep_positions([6, 1, 4, 1, 3], (2,))


def test_forced_yatzy_writes_only_the_next_box(forced):
    options = advice.box_values(forced, {"ones": 3, "twos": 4}, [3, 3, 3, 3, 1])
    assert [(o.box, o.points) for o in options] == [("threes", 12)]
    with pytest.raises(ValueError, match="top to bottom"):
        advice.box_values(forced, {"twos": 4}, [3, 3, 3, 3, 1])


def test_ten_thousand_forced_games_under_the_advisor_average_the_expectation(forced):
    scores = simulate_games(forced, 10_000, np.random.default_rng(2024))
    standard_error = scores.std() / np.sqrt(len(scores))
    assert abs(scores.mean() - forced.expected_score) < 2 * standard_error

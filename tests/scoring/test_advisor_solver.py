"""The solver against values worked out independently: small made-up games and Forced Yatzy."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache

import pytest

from scoring.advisor.dice import dice_space
from scoring.advisor.model import UnsupportedRules, build_model
from scoring.advisor.solver import solve
from scoring.rules import get_rules


@dataclass
class TinyRules:
    """A made-up game with a few boxes, scored by plain functions, for checking the solver by brute force."""

    scorers: dict
    dice_count: int = 5
    upper_boxes: tuple = ()
    bonus_threshold: int = 63
    bonus_points: int = 0
    forced_order: bool = False
    name: str = "tiny"
    boxes: tuple = field(init=False)

    def __post_init__(self):
        self.boxes = tuple(self.scorers)

    def box_score(self, box, dice):
        return self.scorers[box](tuple(dice))

    def legal_boxes(self, card, dice):
        return {box: self.box_score(box, dice) for box in self.boxes if box not in card}

    def extra_points(self, card, dice):
        return 0


def test_the_dice_space_has_252_hands_and_462_keeps_with_probabilities_summing_to_one():
    space = dice_space(5)
    assert (space.hand_count, space.keep_count) == (252, 462)
    assert space.hand_probability.sum() == pytest.approx(1.0)
    assert space.hand_probability[space.hand_index((1, 1, 1, 1, 1))] == pytest.approx(1 / 6**5)


def test_chance_alone_is_five_independent_dice_kept_at_five_and_four():
    # one die over three rolls: keep 5-6 after the first, 4-6 after the second: 14/3 per die
    table = solve(build_model(TinyRules({"chance": sum})))
    assert table.expected_score == pytest.approx(5 * 14 / 3)


def test_yahtzee_alone_is_the_chance_of_five_of_a_kind_in_three_rolls():
    table = solve(build_model(TinyRules({"yahtzee": lambda d: 50 * (len(set(d)) == 1)})))
    assert table.expected_score == pytest.approx(50 * 2783176 / 6**10)


def _brute_force(rules: TinyRules) -> float:
    """Exact expectation by plain recursion over ordered rolls: no multisets, keep lattice or vectorising."""
    faces = range(1, 7)

    @cache
    def roll(kept, rolls_left, card):
        outcomes = list(itertools.product(faces, repeat=rules.dice_count - len(kept)))
        return sum(hand(tuple(sorted(kept + o)), rolls_left, card) for o in outcomes) / len(outcomes)

    @cache
    def hand(dice, rolls_left, card):
        best = max(p + game(card | {b}) for b, p in rules.legal_boxes(dict.fromkeys(card), dice).items())
        if rolls_left:
            subsets = {
                tuple(sorted(c)) for r in range(len(dice) + 1) for c in itertools.combinations(dice, r)
            }
            best = max([best] + [roll(s, rolls_left - 1, card) for s in subsets])
        return best

    @cache
    def game(card):
        return 0.0 if len(card) == len(rules.boxes) else roll((), 2, card)

    return game(frozenset())


def test_a_three_box_three_dice_game_matches_brute_force():
    rules = TinyRules(
        {
            "sixes": lambda d: 6 * d.count(6),
            "pair": lambda d: max([2 * a for a, b in itertools.pairwise(d) if a == b], default=0),
            "chance": sum,
        },
        dice_count=3,
    )
    assert solve(build_model(rules)).expected_score == pytest.approx(_brute_force(rules), abs=1e-9)


def test_an_upper_bonus_is_reached_more_often_than_by_chance():
    plain = TinyRules({"fives": lambda d: 5 * d.count(5), "sixes": lambda d: 6 * d.count(6)})
    bonus = TinyRules(
        {"fives": lambda d: 5 * d.count(5), "sixes": lambda d: 6 * d.count(6)},
        upper_boxes=("fives", "sixes"),
        bonus_threshold=30,
        bonus_points=100,
    )
    without, with_bonus = solve(build_model(plain)).expected_score, solve(build_model(bonus)).expected_score
    assert without < with_bonus < without + 100


def test_forced_yatzy_expected_score():
    assert solve(build_model(get_rules("forced"))).expected_score == pytest.approx(122.5585, abs=5e-3)


def test_the_yahtzee_joker_hands_and_flag_box_are_found_by_asking_the_rules():
    model = build_model(get_rules("yahtzee"))
    space = model.space
    assert sorted(space.hand_values(h) for h in model.special_hands) == [(f,) * 5 for f in range(1, 7)]
    assert model.boxes[model.flag_box] == "yahtzee"
    assert len(build_model(get_rules("yatzy")).special_hands) == 0


def test_maxi_with_saved_rolls_is_refused_with_a_reason():
    with pytest.raises(UnsupportedRules, match="saved rolls"):
        build_model(get_rules("maxi"))

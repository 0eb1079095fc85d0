"""The full games: published optimal expectations, hand-worked decisions, and 10,000 games under the advisor.

Building the three tables takes about a minute of one core, so these run only when asked (`make test-slow`,
or `.venv/bin/python -m pytest -m slow tests/scoring/test_advisor_full_games.py`).
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring.advisor import advice
from scoring.advisor.model import build_model
from scoring.advisor.simulate import simulate_games
from scoring.advisor.solver import solve
from scoring.rules import get_rules

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

VARIANTS = {
    "yahtzee forced joker": ("yahtzee", {"joker": "forced"}, 254.5877),
    "yahtzee free joker": ("yahtzee", {"joker": "free"}, 254.5896),
    "yatzy": ("yatzy", {}, 248.4400),
}


@pytest.fixture(scope="module")
def tables():
    return {key: solve(build_model(get_rules(name, options))) for key, (name, options, _) in VARIANTS.items()}


@pytest.mark.parametrize("key", list(VARIANTS))
def test_optimal_expected_score(tables, key):
    assert tables[key].expected_score == pytest.approx(VARIANTS[key][2], abs=5e-5)


@pytest.mark.parametrize("key", list(VARIANTS))
def test_a_pair_not_a_lonely_six_early_in_the_game(tables, key):
    assert advice.best_keep(tables[key], {}, [4, 4, 1, 2, 6], 2).keep == (4, 4)


def test_the_large_straight_is_taken_when_it_is_there(tables):
    yahtzee, yatzy = tables["yahtzee forced joker"], tables["yatzy"]
    card = {"ones": 3, "twos": 6, "chance": 22}
    assert advice.box_values(yahtzee, card, [2, 3, 4, 5, 6])[0].box == "large_straight"
    assert advice.best_keep(yahtzee, card, [6, 5, 4, 3, 2], 2).keep == (2, 3, 4, 5, 6)
    assert advice.box_values(yatzy, card, [2, 3, 4, 5, 6])[0].box == "large_straight"


def test_a_second_yahtzee_earns_its_bonus_in_the_advice(tables):
    options = advice.box_values(tables["yahtzee forced joker"], {"yahtzee": 50}, [6, 6, 6, 6, 6])
    assert [(o.box, o.points, o.extra) for o in options] == [("sixes", 30, 100)]


@pytest.mark.parametrize("key", list(VARIANTS))
def test_ten_thousand_games_under_the_advisor_average_the_expectation(tables, key):
    scores = simulate_games(tables[key], 10_000, np.random.default_rng(7))
    standard_error = scores.std() / np.sqrt(len(scores))
    assert abs(scores.mean() - tables[key].expected_score) < 2 * standard_error

"""Play many solitaire games under the advisor at once, to check the table against its own promise.

The mean final score of games played by the table's choices must match the table's expected score within
sampling error; a wrong transition, a mis-scored box or a bad keep shows up as a gap. All games advance one
turn at a time together, so 10,000 games cost about as much as solving 10,000 states per turn.
"""

from __future__ import annotations

import numpy as np

from scoring.advisor.dice import FACES
from scoring.advisor.solver import SpecialTable, States, Table, box_usable, final_values, next_values
from scoring.advisor.turn import hand_values_with_rolls, keep_values


def simulate_games(table: Table, games: int, rng: np.random.Generator) -> np.ndarray:
    """(games,) final scores of `games` solitaire games played with the table's best keeps and boxes."""
    model = table.model
    space = model.space
    states = States(
        np.zeros(games, dtype=np.int64), np.zeros(games, dtype=np.int64), np.zeros(games, dtype=np.int64)
    )
    totals = np.zeros(games)
    special = SpecialTable(model)
    code_to_keep = _keep_by_code(space)
    sub_keeps = _padded_sub_keeps(space)
    games_index = np.arange(games)
    for _ in range(model.box_count):
        distinct, column = _distinct_states(model, states)
        finals = final_values(table.values, model, distinct, special)
        after = [finals, hand_values_with_rolls(space, finals, 1)]
        counts = _roll(rng, np.zeros((games, FACES), dtype=np.int64), space.dice_count)
        for rolls_left in (2, 1):
            hands = code_to_keep[_code(counts)] - space.size_start[-2]
            keep_ev = keep_values(space, after[rolls_left - 1])
            candidates = sub_keeps[hands]
            best = candidates[games_index, np.argmax(keep_ev[candidates, column[:, None]], axis=1)]
            counts = _roll(rng, space.counts[best], space.dice_count)
        hands = code_to_keep[_code(counts)] - space.size_start[-2]
        box, points, extra = choose_boxes(table, states, hands, special)
        totals += points + extra
        states = _write(model, states, box, points)
    return totals + np.where(states.upper >= model.threshold, model.bonus, 0)


def choose_boxes(
    table: Table, states: States, hands: np.ndarray, special: SpecialTable
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(box, points, extra) the table picks for each state's final hand."""
    model = table.model
    games = np.arange(len(states))
    best = np.full(len(states), -np.inf)
    box = np.zeros(len(states), dtype=np.int64)
    points = np.zeros(len(states), dtype=np.int64)
    extra = np.zeros(len(states), dtype=np.int64)
    row = np.full(model.space.hand_count, -1)
    row[model.special_hands] = np.arange(len(model.special_hands))
    is_special = row[hands] >= 0
    if is_special.any():
        special_points, special_extra = special.for_states(states)
        extra = np.where(is_special, special_extra[row[hands], games], 0)
    for b in range(model.box_count):
        pts = model.score[b, hands]
        legal = box_usable(model, states, b)
        if is_special.any():
            sp = special_points[row[hands], b, games]
            legal = np.where(is_special, sp >= 0, legal)
            pts = np.where(is_special, np.maximum(sp, 0), pts)
        value = np.where(legal, pts + extra + next_values(table.values, model, states, b, pts), -np.inf)
        better = value > best
        best = np.where(better, value, best)
        box = np.where(better, b, box)
        points = np.where(better, pts, points)
    return box, points, extra


def _distinct_states(model, states: States) -> tuple[States, np.ndarray]:
    """The different states among the games, and which one each game is in: many games share a state."""
    key = (states.mask * (model.threshold + 1) + states.upper) * 2 + states.flag
    _, first, column = np.unique(key, return_index=True, return_inverse=True)
    return states.take(first), column


def _write(model, states: States, box: np.ndarray, points: np.ndarray) -> States:
    upper = np.where(model.upper[box], np.minimum(model.threshold, states.upper + points), states.upper)
    flag = (
        states.flag | ((box == model.flag_box) & (points > 0)) if model.flag_box is not None else states.flag
    )
    return States(states.mask | (1 << box), upper, flag)


def _roll(rng: np.random.Generator, kept: np.ndarray, dice_count: int) -> np.ndarray:
    """Counts after rolling the dice not kept."""
    missing = dice_count - kept.sum(axis=1)
    faces = rng.integers(0, FACES, size=(len(kept), dice_count))
    used = np.arange(dice_count)[None, :] < missing[:, None]
    rolled = np.stack([((faces == f) & used).sum(axis=1) for f in range(FACES)], axis=1)
    return kept + rolled


def _code(counts: np.ndarray) -> np.ndarray:
    return counts @ (8 ** np.arange(FACES))


def _keep_by_code(space) -> np.ndarray:
    table = np.full(8**FACES, -1, dtype=np.int64)
    table[_code(space.counts)] = np.arange(space.keep_count)
    return table


def _padded_sub_keeps(space) -> np.ndarray:
    """(hands, most sub-keeps) every hand's sub-keeps, padded by repeating its last one."""
    rows = [space.sub_keeps(h) for h in range(space.hand_count)]
    width = max(len(r) for r in rows)
    return np.array([np.concatenate([r, np.repeat(r[-1:], width - len(r))]) for r in rows])

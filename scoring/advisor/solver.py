"""The optimal-play table: expected final points from every state between turns, by dynamic programming.

A state between turns is (which boxes are filled, the upper subtotal capped at the bonus threshold, and, when
the rules have a flag box such as Yahtzee's, whether it holds points). Its value is the expected number of
points still to come under optimal play, bonuses included. A state with k boxes filled depends only on states
with k + 1 filled, so the table is filled level by level from the full card back to the empty one, and every
state of a level is solved together in large chunks: the turn itself (252 hands, 462 keeps, three rolls) runs
on arrays with the states along the last axis.

Unreachable states (an upper subtotal the filled upper boxes cannot make) are skipped and stay NaN, so a bug
that reads one shows up as NaN instead of a plausible wrong number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from scoring.advisor.model import GameModel
from scoring.advisor.turn import turn_start_value

# States whose final hands are valued together: large enough that the per-box numpy calls are few, small
# enough to keep the (hands, states) arrays a few megabytes; `turn_start_value` splits them further.
CHUNK_STATES = 2048
Progress = Callable[[float], None]


@dataclass(frozen=True)
class States:
    """A batch of states between turns as parallel arrays (mask, capped upper subtotal, flag)."""

    mask: np.ndarray
    upper: np.ndarray
    flag: np.ndarray

    def __len__(self) -> int:
        return len(self.mask)

    def take(self, index: np.ndarray | slice) -> States:
        return States(self.mask[index], self.upper[index], self.flag[index])


@dataclass(frozen=True)
class Table:
    """Solved values: `values[mask, upper, flag]` is the expected points still to come from that state."""

    model: GameModel
    values: np.ndarray

    @property
    def expected_score(self) -> float:
        """The optimal expected final score of a new game."""
        return float(self.values[0, 0, 0])

    def lookup(self, states: States) -> np.ndarray:
        return self.values[states.mask, states.upper, states.flag]


def level_states(model: GameModel, reach: np.ndarray, filled: int) -> States:
    """Every reachable state with `filled` boxes filled (only top-to-bottom prefixes in a forced game)."""
    n = model.box_count
    if model.forced_order:
        masks = np.array([(1 << filled) - 1], dtype=np.int64)
    else:
        all_masks = np.arange(1 << n, dtype=np.int64)
        masks = all_masks[_popcount(all_masks) == filled]
    flags = np.zeros((len(masks), model.flag_states), dtype=bool)
    flags[:, 0] = True
    if model.flag_box is not None:
        flags[:, 1] = (masks >> model.flag_box & 1).astype(bool)
    live = reach[masks][:, :, None] & flags[:, None, :]
    which, upper, flag = np.nonzero(live)
    return States(masks[which], upper, flag)


def final_values(
    table_values: np.ndarray, model: GameModel, states: States, special: SpecialTable
) -> np.ndarray:
    """(hands, states) value of each hand with no roll left: its best legal box, points plus what follows.

    In a box whose points change nothing later (not upper, not the flag box), every hand that scores 0 is
    worth the same, the box's scratch value, and a hand that scores there beats its own scratch. So the best
    such scratch is found once per state and each of those boxes visits only the hands it gives points to
    (a handful for the straights and the yatzy), which about halves this step.
    """
    usable = {box: box_usable(model, states, box) for box in range(model.box_count)}
    usable = {box: open_ for box, open_ in usable.items() if open_.any()}
    plain = [box for box in usable if not (model.upper[box] or box == model.flag_box)]
    scratch = np.full(len(states), -np.inf)
    plain_after = {}
    for box in plain:
        after = np.where(usable[box], next_values(table_values, model, states, box, np.int64(0)), -np.inf)
        np.maximum(scratch, after, out=scratch)
        plain_after[box] = after
    best = np.repeat(scratch[None, :], model.space.hand_count, axis=0)
    for box, after in plain_after.items():
        hands = np.flatnonzero(model.score[box] > 0)
        candidate = model.score[box, hands][:, None] + after[None, :]
        if len(hands) == len(best):
            np.maximum(best, candidate, out=best)
        else:
            best[hands] = np.maximum(best[hands], candidate)
    for box in [box for box in usable if box not in plain]:
        points = np.unique(model.score[box])
        after = next_values(table_values, model, states, box, points[:, None])
        after[:, ~usable[box]] = -np.inf
        np.maximum(best, (points[:, None] + after)[np.searchsorted(points, model.score[box])], out=best)
    if len(model.special_hands):
        best[model.special_hands] = special_values(table_values, model, states, special)
    return best


def special_values(
    table_values: np.ndarray, model: GameModel, states: States, special: SpecialTable
) -> np.ndarray:
    """(special hands, states) best value of each special hand, from what `legal_boxes` allowed per card."""
    points, extra = special.for_states(states)
    best = np.full(points.shape[::2], -np.inf)
    for box in range(model.box_count):
        legal = points[:, box] >= 0
        if not legal.any():
            continue
        pts = np.where(legal, points[:, box], 0)
        after = next_values(table_values, model, states, box, pts)
        np.maximum(best, np.where(legal, pts + extra + after, -np.inf), out=best)
    return best


class SpecialTable:
    """Legal boxes and extra points of the special hands, asked of the rules once per card shape seen.

    `for_states` returns points (special hands, boxes, states) with -1 where the box is not legal, and extra
    (special hands, states).
    """

    def __init__(self, model: GameModel) -> None:
        self._model = model
        self._hands = [model.space.hand_values(h) for h in model.special_hands]
        self._cache: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}

    def for_states(self, states: States) -> tuple[np.ndarray, np.ndarray]:
        keys = states.mask * 2 + states.flag
        unique, inverse = np.unique(keys, return_inverse=True)
        rows = [self._for_card(int(key) >> 1, int(key) & 1) for key in unique]
        points = np.stack([r[0] for r in rows], axis=-1)[:, :, inverse]
        extra = np.stack([r[1] for r in rows], axis=-1)[:, inverse]
        return points, extra

    def _for_card(self, mask: int, flag: int) -> tuple[np.ndarray, np.ndarray]:
        key = (mask, flag)
        if key not in self._cache:
            model = self._model
            card = model.sample_card(mask, flag)
            points = np.full((len(self._hands), model.box_count), -1, dtype=np.int64)
            extra = np.zeros(len(self._hands), dtype=np.int64)
            for j, dice in enumerate(self._hands):
                for box, pts in model.rules.legal_boxes(card, dice).items():
                    points[j, model.boxes.index(box)] = pts
                extra[j] = model.rules.extra_points(card, dice)
            self._cache[key] = (points, extra)
        return self._cache[key]


def solve(model: GameModel, progress: Progress | None = None) -> Table:
    """Fill the whole table; `progress(fraction)` is called as levels complete (0 < fraction <= 1)."""
    n = model.box_count
    reach = model.upper_reach()
    values = np.full((1 << n, model.threshold + 1, model.flag_states), np.nan)
    full = (1 << n) - 1
    values[full] = np.where(np.arange(model.threshold + 1) >= model.threshold, model.bonus, 0.0)[:, None]
    levels = [level_states(model, reach, filled) for filled in range(n - 1, -1, -1)]
    total = sum(len(states) for states in levels)
    done = 0
    for states in levels:
        special = SpecialTable(model)
        for start in range(0, len(states), CHUNK_STATES):
            chunk = states.take(slice(start, start + CHUNK_STATES))
            finals = final_values(values, model, chunk, special)
            values[chunk.mask, chunk.upper, chunk.flag] = turn_start_value(model.space, finals)
            done += len(chunk)
            if progress is not None:
                progress(done / total)
    return Table(model, values)


def box_usable(model: GameModel, states: States, box: int) -> np.ndarray:
    """(states,) True where `box` is open and, in a forced game, the next box in order."""
    open_ = (states.mask >> box & 1) == 0
    if model.forced_order:
        open_ &= (states.mask & ((1 << box) - 1)) == (1 << box) - 1
    return open_


def next_values(
    table_values: np.ndarray, model: GameModel, states: States, box: int, points: np.ndarray
) -> np.ndarray:
    """Value of the state after writing `points` (broadcast against the states) in `box`."""
    upper = states.upper
    if model.upper[box]:
        upper = np.minimum(model.threshold, upper + points)
    flag = states.flag
    if box == model.flag_box:
        flag = flag | (points > 0)
    mask = states.mask | (1 << box)
    shape = np.broadcast_shapes(np.shape(points), mask.shape)
    return table_values[
        np.broadcast_to(mask, shape), np.broadcast_to(upper, shape), np.broadcast_to(flag, shape)
    ]


def _popcount(values: np.ndarray) -> np.ndarray:
    counts = np.zeros_like(values)
    for bit in range(int(values.max()).bit_length() if len(values) else 0):
        counts += values >> bit & 1
    return counts

"""One turn solved backwards, for many game states at once.

Arrays put the hand or keep on the first axis and the game state on the last, so one call handles thousands of
states and every gather copies whole contiguous rows (one row per keep) instead of scattered elements; that
layout is several times faster than states-first. Values are expected points from the moment described to the
end of the game.
"""

from __future__ import annotations

import numpy as np

from scoring.advisor.dice import FACES, DiceSpace

# States per block in `turn_start_value`. A turn makes about a hundred passes over a (keeps, states) array; at
# 256 states that array (462 x 256 float64, under 1 MB) stays in the core's L2 cache, while 4096-state blocks
# spill to main memory and the whole build runs about 2.5 times slower.
BLOCK_STATES = 256


def keep_values(space: DiceSpace, hand_values: np.ndarray) -> np.ndarray:
    """(keeps, states) expected value of each keep before rerolling, from (hands, states) values after it.

    A keep of k dice is worth the mean over the six faces of the keep with one more die of that face,
    filled in from full hands down to the empty keep.
    """
    values = np.empty((space.keep_count, hand_values.shape[1]))
    values[space.keep_slice(space.dice_count)] = hand_values
    for size in range(space.dice_count - 1, -1, -1):
        grow = space.grow[size]
        block = values[space.keep_slice(size)]
        np.take(values, grow[:, 0], axis=0, out=block)
        for face in range(1, FACES):
            block += values[grow[:, face]]
        block *= 1.0 / FACES
    return values


def best_sub_keep(space: DiceSpace, keep_value: np.ndarray) -> np.ndarray:
    """(keeps, states) the best value of keeping any sub-multiset of each keep; updates `keep_value` in place.

    best(k) = max(value(k), best(k minus one die)) over the dice k holds, filled in from the empty keep up.
    """
    for size in range(1, space.dice_count + 1):
        shrink = space.shrink[size]
        block = keep_value[space.keep_slice(size)]
        for face in range(FACES):
            np.maximum(block, keep_value[shrink[:, face]], out=block)
    return keep_value


def hand_values_with_rolls(space: DiceSpace, final_values: np.ndarray, rolls_left: int) -> np.ndarray:
    """(hands, states) value of holding each hand with `rolls_left` rolls still allowed this turn.

    `final_values` is the value of each hand once no roll is left (the best box to write it in).
    """
    values = final_values
    for _ in range(rolls_left):
        values = best_sub_keep(space, keep_values(space, values))[space.hand_keep]
    return values


def turn_start_value(space: DiceSpace, final_values: np.ndarray, rolls: int = 3) -> np.ndarray:
    """(states,) expected value at the start of a turn that allows `rolls` rolls, in cache-sized blocks."""
    values = np.empty(final_values.shape[1])
    for start in range(0, len(values), BLOCK_STATES):
        block = slice(start, start + BLOCK_STATES)
        after_first_roll = hand_values_with_rolls(space, final_values[:, block], rolls - 1)
        # A weighted sum instead of `@`: a matrix product would wake OpenBLAS's thread pool, whose spinning
        # threads take the second core from the game and the web server.
        values[block] = np.einsum("h,hs->s", space.hand_probability, after_first_roll)
    return values

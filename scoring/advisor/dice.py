"""The combinatorics of one turn: every hand, every keep, and how a keep turns into a hand.

A hand is the multiset of all the dice (252 of them for five dice); a keep is any multiset of at most that
many dice (462 for five). Order never matters for scoring, so working with multisets instead of ordered rolls
cuts the work by two orders of magnitude.

Rerolling the dice that are not kept is modelled one die at a time: the value of a keep of k dice is the mean,
over the six faces, of the value of the keep with one more die of that face. Rolling the missing dice together
or one after another gives the same distribution, and the one-die step needs only six lookups per keep instead
of a dense keep-by-hand probability matrix.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache

import numpy as np

FACES = 6


@dataclass(frozen=True)
class DiceSpace:
    """Indexes of hands and keeps for `dice_count` dice, and the index tables the turn solver gathers with.

    Keeps are ordered by size, so `keeps[size_start[k]:size_start[k + 1]]` are the keeps of k dice and the
    last block is the full hands. Arrays (all int64 index arrays unless stated):

    - `counts`: (keeps, 6) how many of each face a keep holds.
    - `grow[k]`: (keeps of size k, 6) index of the keep plus one die of each face, for k < dice_count.
    - `shrink[k]`: (keeps of size k, 6) index of the keep minus one die of each face it holds, padded with
      the keep's own index where it holds none of that face.
    - `hand_keep`: (hands,) keep index of each hand; `hands` are the keep indexes of the last block.
    - `hand_probability`: (hands,) float64 chance of each hand on a roll of all the dice.
    """

    dice_count: int
    counts: np.ndarray
    size_start: tuple[int, ...]
    grow: tuple[np.ndarray, ...]
    shrink: tuple[np.ndarray, ...]
    hand_probability: np.ndarray

    @property
    def keep_count(self) -> int:
        return len(self.counts)

    @property
    def hand_count(self) -> int:
        return self.size_start[-1] - self.size_start[-2]

    @property
    def hand_keep(self) -> np.ndarray:
        """Keep index of each hand: hands are the last block of keeps."""
        return np.arange(self.size_start[-2], self.size_start[-1])

    def keep_slice(self, size: int) -> slice:
        return slice(self.size_start[size], self.size_start[size + 1])

    def hand_values(self, hand: int) -> tuple[int, ...]:
        """The sorted die values of hand number `hand`."""
        return self.keep_values(self.size_start[-2] + hand)

    def keep_values(self, keep: int) -> tuple[int, ...]:
        row = self.counts[keep]
        return tuple(face + 1 for face in range(FACES) for _ in range(int(row[face])))

    def keep_index(self, values: tuple[int, ...] | list[int]) -> int:
        return self._index_of_counts[_counts_key(values)]

    def hand_index(self, values: tuple[int, ...] | list[int]) -> int:
        """Hand number of a full set of dice values (any order)."""
        if len(values) != self.dice_count:
            raise ValueError(f"a hand has {self.dice_count} dice, got {len(values)}")
        return self.keep_index(values) - self.size_start[-2]

    def sub_keeps(self, hand: int) -> np.ndarray:
        """Keep indexes of every distinct sub-multiset of hand number `hand` (including none and all)."""
        return self._sub_keeps[hand]

    @property
    def _index_of_counts(self) -> dict[tuple[int, ...], int]:
        return _index_map(self.dice_count)

    @property
    def _sub_keeps(self) -> tuple[np.ndarray, ...]:
        return _sub_keep_table(self.dice_count)


def _counts_key(values: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    row = [0] * FACES
    for value in values:
        if not 1 <= int(value) <= FACES:
            raise ValueError(f"a die shows 1 to {FACES}, got {value}")
        row[int(value) - 1] += 1
    return tuple(row)


def _keeps_of_size(size: int) -> list[tuple[int, ...]]:
    """Count vectors of every multiset of `size` dice, in a fixed (lexicographic by values) order."""
    return [
        _counts_key(combo) for combo in itertools.combinations_with_replacement(range(1, FACES + 1), size)
    ]


@cache
def _index_map(dice_count: int) -> dict[tuple[int, ...], int]:
    keys = [key for size in range(dice_count + 1) for key in _keeps_of_size(size)]
    return {key: index for index, key in enumerate(keys)}


@cache
def _sub_keep_table(dice_count: int) -> tuple[np.ndarray, ...]:
    space = dice_space(dice_count)
    index = _index_map(dice_count)
    tables = []
    for hand in range(space.hand_count):
        row = space.counts[space.size_start[-2] + hand]
        subs = itertools.product(*(range(int(c) + 1) for c in row))
        tables.append(np.array(sorted(index[tuple(sub)] for sub in subs), dtype=np.int64))
    return tuple(tables)


@cache
def dice_space(dice_count: int = 5) -> DiceSpace:
    """Build (once per dice count) the hand and keep index tables."""
    if dice_count < 1:
        raise ValueError("a game needs at least one die")
    index = _index_map(dice_count)
    counts = np.array(list(index), dtype=np.int64)
    sizes = counts.sum(axis=1)
    size_start = tuple(int(np.searchsorted(sizes, k)) for k in range(dice_count + 2))
    unit = np.eye(FACES, dtype=np.int64)
    grow = []
    shrink = []
    for size in range(dice_count + 1):
        block = counts[size_start[size] : size_start[size + 1]]
        own = np.arange(size_start[size], size_start[size + 1])
        if size < dice_count:
            grow.append(np.array([[index[tuple(row + unit[f])] for f in range(FACES)] for row in block]))
        shrink.append(
            np.array(
                [
                    [index[tuple(row - unit[f])] if row[f] else own[i] for f in range(FACES)]
                    for i, row in enumerate(block)
                ]
            )
        )
    hands = counts[size_start[dice_count] :]
    ways = np.array([math.factorial(dice_count) / np.prod([math.factorial(c) for c in row]) for row in hands])
    probability = ways / FACES**dice_count
    return DiceSpace(dice_count, counts, size_start, tuple(grow), tuple(shrink), probability)

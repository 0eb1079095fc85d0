"""Find the held dice in a new camera reading, so holds survive the re-roll of the other dice.

A held die stays where it was and shows the same face. After a roll the camera lists the dice left to right
again, and the held ones may now sit at other indices (a rolled die can land left of them). Each held die is
matched to the nearest die in the new reading with the same value, within `max_shift` pixels of where it lay.
A held die with no such partner was picked up, turned or knocked: the session warns instead of counting the
roll. Dice typed in on the tablet have no position; they match the first free die of their value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True)
class HeldDie:
    value: int
    center: Point | None  # None when the dice were entered by hand


class HeldDieMissing(Exception):
    """A held die is not where it was with the face it had; the message names it for the players."""


def place_held(
    held: Sequence[HeldDie], values: Sequence[int], centers: Sequence[Point], max_shift: float
) -> list[int]:
    """Indices into the new reading of the held dice (sorted), or HeldDieMissing naming the first lost one."""
    taken: set[int] = set()
    placed: dict[int, int] = {}
    pairs = sorted(
        (math.dist(die.center, centers[j]), i, j)
        for i, die in enumerate(held)
        if die.center is not None
        for j, value in enumerate(values)
        if value == die.value and math.dist(die.center, centers[j]) <= max_shift
    )
    for _, i, j in pairs:
        if i not in placed and j not in taken:
            placed[i] = j
            taken.add(j)
    for i, die in enumerate(held):
        if i in placed:
            continue
        free = None
        if die.center is None:
            free = next((j for j, value in enumerate(values) if value == die.value and j not in taken), None)
        if free is None:
            raise HeldDieMissing(f"the held {die.value} moved or changed: put it back or release its hold")
        placed[i] = free
        taken.add(free)
    return sorted(placed.values())

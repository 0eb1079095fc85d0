"""Which die the reader got wrong in a labelled photo: each die read matched to a labelled die by place.

The eval-vision scores compare values as multisets, as the contract says: a hand is right when the values
read are the values there. That hides what a maintainer needs to see: a 4 read as 5 beside a 5 read as 4
scores as right, and a die missed beside a false die of its value too (nell-byler has hands of both kinds,
and a few truth boxes that lie elsewhere than their dice). Where the truth boxes each die, the dice read are
matched to the boxes instead: nearest pairs first, each within `MATCH_SHARE` of the larger of the box's side
and the die's side (matteop65's boxes cover only the top face's pips). What is left over is a die missed or
a false die.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.dataset import ImageResult, TrueDie
from vision.reading import Die

MATCH_SHARE = 0.75  # a die read lies within this share of a side from the centre of the die it reads


@dataclass(frozen=True)
class Misread:
    """One die the reader got wrong: `kind` "wrong" (read with another value), "missed" (no die read there)
    or "false" (read where no die is). `truth` and `read` are 0 where there is none; `center` is the
    labelled die's (frame pixels), or the false die's; `confidence` the read die's (0 for a missed die)."""

    kind: str
    truth: int
    read: int
    center: tuple[float, float]
    confidence: float


def misreads(result: ImageResult) -> list[Misread] | None:
    """The dice of one photo read wrong, missed or read where no die is; None when its record boxes no die
    (its hand is then judged by value alone). Only for photos read as they were taken: the boxes are in
    the photo's pixels."""
    truth = result.sample.dice
    if not truth:
        return None
    gaps = ((_gap(true, die), t, d) for t, true in enumerate(truth) for d, die in enumerate(result.found))
    pairs = sorted(pair for pair in gaps if pair[0] <= MATCH_SHARE)
    matched_truth: dict[int, int] = {}
    matched_dice: set[int] = set()
    for _, t, d in pairs:
        if t not in matched_truth and d not in matched_dice:
            matched_truth[t] = d
            matched_dice.add(d)
    listed = []
    for t, true in enumerate(truth):
        if t not in matched_truth:
            listed.append(Misread("missed", true.value, 0, _center(true), 0.0))
            continue
        die = result.found[matched_truth[t]]
        if die.value != true.value:
            listed.append(Misread("wrong", true.value, die.value, _center(true), die.confidence))
    listed += [
        Misread("false", 0, die.value, die.center, die.confidence)
        for d, die in enumerate(result.found)
        if d not in matched_dice
    ]
    return listed


def _center(die: TrueDie) -> tuple[float, float]:
    x0, y0, x1, y1 = die.box
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def _gap(true: TrueDie, die: Die) -> float:
    """How far `die` lies from the labelled die `true`, in sides (the larger of its box's and the die's)."""
    x0, y0, x1, y1 = true.box
    side = max(x1 - x0, y1 - y0, die.size)
    return math.dist(_center(true), die.center) / side

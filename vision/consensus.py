"""One reading from several readings of the same frame: a die counts where most of them saw it, with the value
most of them read.

The reader resizes a frame so a die is a set number of pixels wide (`vision.reader`), and where a pip lands
on that pixel grid decides some of its thresholds: on nell-byler's photos, a working size a twentieth
smaller or larger than 60 px read 14 and 13 hands fewer of 200, not the same hands lost each time. Read at
three sizes around it, a die read alike at two of them is read for a reason that holds on the next photo.
A die only one size saw is left for the player to check (an unreadable region), as a die the reader cannot
read is; one the sizes read differently keeps the largest value read, with a confidence that flags it: a
reading loses faint pips far more often than it makes up a pip layout (nell-byler: 44 of the 60 dice read
wrong read low), as the channels' vote in `vision.faces` holds too. A die one size missed is flagged too
(`_voted_confidence`). The middle size is read only when the other two differ (`unanimous`): most frames'
dice are read alike at both.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from vision.reading import ASK_BELOW, Die, Reading, Region

SAME_DIE_SHARE = 0.5  # dice of two readings whose centres lie within this share of a die side are one die


def agree(readings: list[Reading]) -> Reading:
    """The dice most of `readings` (of one frame) saw, with the value most of them read (of values read
    equally often, the largest).

    A die's confidence is scaled by the share of readings that read its value, and one they did not all
    read alike is doubtful (the game asks, `_voted_confidence`). Regions come from the middle reading, less
    those on an agreed die. Of two agreed dice one on the other, the surer stays (`_apart`).
    """
    middle = len(readings) // 2
    dice, doubtful = [], []
    for seen in _same_dice(readings):
        counts = Counter(die.value for die in seen.values())
        own = seen.get(middle)
        value = max(counts, key=lambda value: (counts[value], value))
        die = (
            own
            if own is not None and own.value == value
            else next(d for d in seen.values() if d.value == value)
        )
        if 2 * len(seen) <= len(readings):
            doubtful.append(Region(die.center, die.size, "seen at fewer than most working sizes"))
        else:
            dice.append(
                replace(die, confidence=_voted_confidence(die.confidence, counts[value] / len(readings)))
            )
    dice = _apart(dice)
    regions = [
        region for region in readings[middle].unreadable if not any(_near(region, die) for die in dice)
    ]
    dice.sort(key=lambda die: die.center[0])
    problem = readings[middle].problem if not dice and not regions and not doubtful else None
    return replace(readings[middle], dice=tuple(dice), unreadable=tuple(regions + doubtful), problem=problem)


def _voted_confidence(confidence: float, share: float) -> float:
    """The confidence of a die the `share` of the readings read so, one of whose readings read it with
    `confidence`: scaled by the share, and under `ASK_BELOW` unless every reading read it alike.

    As taken, the dice the sizes did not all read alike, one reading another value or missing the die, were
    read wrong far more often than the dice all read alike: matteop65 1 of 13 against 8 of 1192, nell-byler
    20 of 75 against 32 of 1388. Scaled by two thirds alone, a die two sizes read surely stayed over
    `ASK_BELOW` and was given as read. Kept under it, replayed on the three sizes' readings of every bench
    row but the Pi stills (nine of each set): no hand's values changed, 8 of matteop65's 24 wrong hands
    given as sure were asked about, and 11 of nell-byler's 51, while 62 and 34 more right hands were too.
    """
    return confidence if share == 1 else min(confidence, ASK_BELOW) * share


def _apart(dice: list[Die]) -> list[Die]:
    """`dice` less each that lies on a surer one (higher confidence, then value, `_on`): two dice cannot
    lie so, so those are one die that two groups of readings each took.

    A size that reads one die as two parts begins two groups (`_same_dice`), and the other sizes' readings
    of the whole die, between the parts, may each join another: the die came out twice (matteop65 two_49
    with sensor noise, both of two twos; two_35 enlarged 2.5 times). Grouping by where a group's dice lie
    on average, rather than by the die it began with, joined those too, but it regrouped dice elsewhere:
    nell-byler lost five hands over four of its bench rows. A die one size alone saw on an agreed die stays
    a region: left out, three of nell-byler's hands read wrong (one each as taken, turned 90 and turned
    180) and one of matteop65's from 3x as far were no longer flagged.
    """
    kept: list[Die] = []
    for die in sorted(dice, key=lambda die: (die.confidence, die.value), reverse=True):
        if not any(_on(die, other) for other in kept):
            kept.append(die)
    return kept


def _on(die: Die, other: Die) -> bool:
    """Whether one of two dice lies on the other: its centre within half the smaller die's side of the
    other's. Not the larger's (`_near`): a false die read from two dice's pips is as large as both, and
    its neighbours lie within half its side (matteop65 three_37 from 3x as far: a two 105 px wide between
    threes of 42)."""
    return math.dist(die.center, other.center) < SAME_DIE_SHARE * min(die.size, other.size)


def unanimous(readings: list[Reading]) -> bool:
    """Whether `readings` saw the same dice, each read alike, and left nothing unreadable.

    Two of three readings that agree so are most of them on every die: a third can neither outvote a value
    nor make a die of its own (one reading alone is a doubtful region, `agree`). So the reader reads a third
    size only when the first two differ. What the third would have added is left out: a lower confidence for
    a die it read otherwise, and a region for one only it saw, which both others missed whole.
    """
    return all(not reading.unreadable for reading in readings) and all(
        len(seen) == len(readings) and len({die.value for die in seen.values()}) == 1
        for seen in _same_dice(readings)
    )


def agree_outer_first(smallest: Reading, largest: Reading, middle: Callable[[], Reading]) -> Reading:
    """What a frame's readings at three working sizes agree on, the smallest and largest size's first: where
    those two are `unanimous`, the middle size cannot change what most sizes read, and `middle` (which reads
    it, or hands over a reading already made) is not asked."""
    if unanimous([smallest, largest]):
        return agree([smallest, largest])
    return agree([smallest, middle(), largest])


def _same_dice(readings: list[Reading]) -> list[dict[int, Die]]:
    """The dice of all readings in groups of one die each, by reading index: at most one per reading.

    Each reading's dice join the groups nearest them first: a die lying near two groups (a small die read
    beside a large one at one size, one die read larger at another) is the nearer one's, or one die would
    come out twice, a few pixels apart, with two values.
    """
    groups: list[dict[int, Die]] = []
    for index, reading in enumerate(readings):
        firsts = [next(iter(group.values())) for group in groups]  # the die each group began with
        pairs = sorted(
            (math.dist(first.center, die.center), which, number)
            for which, first in enumerate(firsts)
            for number, die in enumerate(reading.dice)
            if _near(first, die)
        )
        joined: dict[int, int] = {}  # die number -> group number
        for _, which, number in pairs:
            if number not in joined and which not in joined.values():
                joined[number] = which
        for number, die in enumerate(reading.dice):
            if number in joined:
                groups[joined[number]][index] = die
            else:
                groups.append({index: die})
    return groups


def _near(first: Die | Region, second: Die) -> bool:
    return math.dist(first.center, second.center) < SAME_DIE_SHARE * max(first.size, second.size)

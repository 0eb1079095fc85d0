"""What the solver needs to know about a rule set, learned by asking the `RuleSet` itself.

The scoring rules live in one place, `scoring.rules`. The solver never re-implements them: it tabulates
`box_score` for every hand and box once, and finds out by probing `legal_boxes` and `extra_points` on a set of
sample cards which hands do not follow the plain rule "any open box at its raw score, nothing extra" (in
Yahtzee: the five-of-a-kind hands, because of the joker and the +100 bonus). For those few hands the solver
asks `legal_boxes` again for every card shape it meets.

The probes also find the "flag" box whose *points* (not just whether it is filled) change later scoring; in
Yahtzee that is the yahtzee box, since +100 bonuses need it to hold 50. The state between turns then records
whether that box holds a non-zero score.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from scoring.advisor.dice import DiceSpace, dice_space


class RuleSetLike(Protocol):
    """The part of `scoring.rules.RuleSet` the advisor uses (tests pass small made-up games)."""

    name: str
    dice_count: int
    boxes: tuple[str, ...]
    upper_boxes: tuple[str, ...]
    bonus_threshold: int
    bonus_points: int
    forced_order: bool

    def box_score(self, box: str, dice: tuple[int, ...]) -> int: ...

    def legal_boxes(self, card: Mapping[str, int], dice: tuple[int, ...]) -> dict[str, int]: ...

    def extra_points(self, card: Mapping[str, int], dice: tuple[int, ...]) -> int: ...


class UnsupportedRules(ValueError):
    """The rule set cannot be solved exactly by this advisor (the message says why)."""


@dataclass(frozen=True)
class GameModel:
    """A rule set reduced to arrays: scores per (box, hand), upper boxes, bonus, joker hands, flag box.

    - `score`: (boxes, hands) int64 raw points of each hand in each box.
    - `upper`: (boxes,) bool, True for boxes that count towards the upper bonus.
    - `special_hands`: hand indexes whose legal boxes or extra points depend on the card beyond "open boxes
      at raw score"; `flag_box` the index of the box whose points matter later (or None) and `flag_points`
      the non-zero points a sample card writes in it.
    """

    rules: RuleSetLike
    space: DiceSpace
    boxes: tuple[str, ...]
    score: np.ndarray
    upper: np.ndarray
    threshold: int
    bonus: int
    forced_order: bool
    special_hands: np.ndarray
    flag_box: int | None
    flag_points: int

    @property
    def box_count(self) -> int:
        return len(self.boxes)

    @property
    def flag_states(self) -> int:
        return 1 if self.flag_box is None else 2

    def sample_card(self, mask: int, flag: int) -> dict[str, int]:
        """A card with the boxes of `mask` filled: zeros, except the flag box holding points when `flag`."""
        card = {box: 0 for i, box in enumerate(self.boxes) if mask >> i & 1}
        if flag and self.flag_box is not None:
            card[self.boxes[self.flag_box]] = self.flag_points
        return card

    def plain_legal(self, card: Mapping[str, int], hand: int) -> dict[str, int]:
        """What `legal_boxes` gives an ordinary hand: open boxes (the next one if forced) at raw score."""
        open_boxes = [i for i, box in enumerate(self.boxes) if box not in card]
        if self.forced_order:
            open_boxes = open_boxes[:1]
        return {self.boxes[i]: int(self.score[i, hand]) for i in open_boxes}

    def upper_reach(self) -> np.ndarray:
        """(2**boxes, threshold + 1) bool: which capped upper subtotals the filled upper boxes can make."""
        upper_index = np.flatnonzero(self.upper)
        by_subset = np.zeros((1 << len(upper_index), self.threshold + 1), dtype=bool)
        by_subset[0, 0] = True
        for subset in range(1, len(by_subset)):
            low = (subset & -subset).bit_length() - 1
            before = by_subset[subset & ~(1 << low)]
            for points in np.unique(self.score[upper_index[low]]):
                capped = np.minimum(np.flatnonzero(before) + points, self.threshold)
                by_subset[subset, capped] = True
        masks = np.arange(1 << self.box_count)
        subset_of_mask = np.zeros_like(masks)
        for k, box in enumerate(upper_index):
            subset_of_mask |= (masks >> box & 1) << k
        return by_subset[subset_of_mask]


def build_model(rules: RuleSetLike) -> GameModel:
    """Tabulate and probe `rules`; raise `UnsupportedRules` for rules the advisor cannot solve exactly."""
    if getattr(rules, "saved_rolls", False):
        raise UnsupportedRules(
            f"{rules.name}: saved rolls carry over between turns, which multiplies the states beyond what an "
            "exact table can hold; no hints are given"
        )
    if len(rules.boxes) > 16:
        raise UnsupportedRules(f"{rules.name}: {len(rules.boxes)} boxes are too many for an exact table")
    space = dice_space(rules.dice_count)
    hands = [space.hand_values(h) for h in range(space.hand_count)]
    score = np.array([[rules.box_score(box, dice) for dice in hands] for box in rules.boxes], dtype=np.int64)
    upper = np.array([box in rules.upper_boxes for box in rules.boxes])
    plain = GameModel(
        rules, space, tuple(rules.boxes), score, upper, int(rules.bonus_threshold), int(rules.bonus_points),
        bool(rules.forced_order), np.zeros(0, dtype=np.int64), None, 0,
    )  # fmt: skip
    special, flag_box = _probe(plain, hands)
    flag_points = int(score[flag_box].max()) if flag_box is not None else 0
    return GameModel(
        rules, space, plain.boxes, score, upper, plain.threshold, plain.bonus, plain.forced_order,
        np.array(sorted(special), dtype=np.int64), flag_box, flag_points,
    )  # fmt: skip


def _probe_cards(model: GameModel) -> list[dict[str, int]]:
    """Sample cards: empty; one box filled (0 or its best); all boxes but one filled (at their best)."""
    best = {box: int(model.score[i].max()) for i, box in enumerate(model.boxes)}
    cards: list[dict[str, int]] = [{}]
    for box in model.boxes:
        cards += [{box: 0}, {box: best[box]}, {b: p for b, p in best.items() if b != box}]
    return cards


def _probe(model: GameModel, hands: list[tuple[int, ...]]) -> tuple[set[int], int | None]:
    rules = model.rules
    special = set()
    for card in _probe_cards(model):
        for h, dice in enumerate(hands):
            if h in special:
                continue
            if rules.legal_boxes(card, dice) != model.plain_legal(card, h) or rules.extra_points(card, dice):
                special.add(h)
    flag_boxes = set()
    best = {box: int(model.score[i].max()) for i, box in enumerate(model.boxes)}
    for left_open in model.boxes:
        full = {b: p for b, p in best.items() if b != left_open}
        for box in full:
            zeroed = {**full, box: 0}
            for h in special:
                answers = [
                    (rules.legal_boxes(c, hands[h]), rules.extra_points(c, hands[h])) for c in (full, zeroed)
                ]
                if answers[0] != answers[1]:
                    flag_boxes.add(model.boxes.index(box))
    if len(flag_boxes) > 1:
        raise UnsupportedRules(f"{rules.name}: more than one box changes later scoring by its points")
    return special, next(iter(flag_boxes), None)

"""Advice for one player at one moment: which dice to keep, which box to fill, and what a choice cost.

These are the small pure functions the tablet and the command line call with a solved `Table`. Every expected
value (`ev`) is the number of points still to come from this moment to the end of the game under optimal play,
counting this turn's box, the upper bonus and any Yahtzee bonuses; the expected final total is therefore the
points already written on the card plus the Yahtzee bonuses already earned plus `ev`.

The box choices come straight from `rules.legal_boxes` and `rules.extra_points` on the player's real card, so
the joker and forced order are exactly the game's own rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from scoring.advisor.solver import Table
from scoring.advisor.turn import hand_values_with_rolls, keep_values


@dataclass(frozen=True)
class KeepAdvice:
    """Keep these dice (sorted values) and reroll the rest; `ev` is the expected points still to come."""

    keep: tuple[int, ...]
    ev: float


@dataclass(frozen=True)
class BoxAdvice:
    """Write the hand in `box` for `points` (+ `extra`, the Yahtzee bonus); `ev` counts those points too."""

    box: str
    points: int
    extra: int
    ev: float


def keep_options(
    table: Table, card: Mapping[str, int], dice: Sequence[int], rolls_left: int
) -> list[KeepAdvice]:
    """Every distinct keep of `dice`, best first, with `rolls_left` (1 or 2) rolls still to come."""
    model = table.model
    rolls_per_turn = getattr(model.rules, "rolls_per_turn", 3)
    if not 1 <= rolls_left <= rolls_per_turn - 1:
        raise ValueError(f"keeps need 1 to {rolls_per_turn - 1} rolls left, got {rolls_left}")
    hand = _hand(table, dice)
    after_reroll = hand_values(table, card, rolls_left - 1)
    values = keep_values(model.space, after_reroll[:, None])[:, 0]
    subs = model.space.sub_keeps(hand)
    order = subs[np.argsort(-values[subs], kind="stable")]
    return [KeepAdvice(model.space.keep_values(int(k)), float(values[k])) for k in order]


def best_keep(table: Table, card: Mapping[str, int], dice: Sequence[int], rolls_left: int) -> KeepAdvice:
    """The keep with the highest expected value."""
    return keep_options(table, card, dice, rolls_left)[0]


def hand_values(table: Table, card: Mapping[str, int], rolls_left: int) -> np.ndarray:
    """(hands,) expected points still to come when holding each hand with `rolls_left` rolls to go."""
    finals = _final_values(table, _checked_card(table, card))
    return hand_values_with_rolls(table.model.space, finals[:, None], rolls_left)[:, 0]


def box_values(table: Table, card: Mapping[str, int], dice: Sequence[int]) -> list[BoxAdvice]:
    """Every box the hand may be written in now, best first."""
    model = table.model
    card = _checked_card(table, card)
    dice = model.space.hand_values(_hand(table, dice))
    extra = int(model.rules.extra_points(card, dice))
    mask, upper, flag = _state(table, card)
    options = [
        BoxAdvice(box, int(points), extra, points + extra + _after(table, mask, upper, flag, box, points))
        for box, points in model.rules.legal_boxes(card, dice).items()
    ]
    return sorted(options, key=lambda option: -option.ev)


def decision_cost(
    table: Table, card: Mapping[str, int], dice: Sequence[int], rolls_left: int, choice: Sequence[int] | str
) -> float:
    """Expected points lost by `choice` against the best choice (0.0 when it was optimal).

    `choice` is the kept dice values when rolls are left (rerolling everything keeps `[]`), or the box
    name when none is left.
    """
    if rolls_left == 0:
        if not isinstance(choice, str):
            raise ValueError("with no roll left the choice is a box name")
        options = box_values(table, card, dice)
        chosen = [o.ev for o in options if o.box == choice]
        if not chosen:
            raise ValueError(f"{choice!r} is not a legal box for this hand")
        return max(0.0, options[0].ev - chosen[0])
    if isinstance(choice, str):
        raise ValueError("with rolls left the choice is the dice kept")
    options = keep_options(table, card, dice, rolls_left)
    kept = tuple(sorted(int(v) for v in choice))
    chosen = [o.ev for o in options if o.keep == kept]
    if not chosen:
        raise ValueError(f"cannot keep {list(kept)} from the dice {sorted(dice)}")
    return max(0.0, options[0].ev - chosen[0])


def keep_positions(dice: Sequence[int], keep: Sequence[int]) -> list[int]:
    """Positions in `dice` (left to right) to hold for `keep`, so the tablet can highlight real dice."""
    wanted = list(keep)
    positions = []
    for position, value in enumerate(dice):
        if value in wanted:
            wanted.remove(value)
            positions.append(position)
    if wanted:
        raise ValueError(f"cannot keep {list(keep)} from the dice {list(dice)}")
    return positions


def _final_values(table: Table, card: dict[str, int]) -> np.ndarray:
    """(hands,) value of each hand with no roll left on this card: its best legal box."""
    model = table.model
    mask, upper, flag = _state(table, card)
    finals = np.empty(model.space.hand_count)
    for hand in range(model.space.hand_count):
        dice = model.space.hand_values(hand)
        extra = model.rules.extra_points(card, dice)
        finals[hand] = max(
            points + extra + _after(table, mask, upper, flag, box, points)
            for box, points in model.rules.legal_boxes(card, dice).items()
        )
    return finals


def _after(table: Table, mask: int, upper: int, flag: int, box: str, points: int) -> float:
    """Expected points still to come once `points` are written in `box`."""
    model = table.model
    index = model.boxes.index(box)
    if model.upper[index]:
        upper = min(model.threshold, upper + points)
    if index == model.flag_box and points > 0:
        flag = 1
    return float(table.values[mask | 1 << index, upper, flag])


def _state(table: Table, card: Mapping[str, int]) -> tuple[int, int, int]:
    """(mask, capped upper subtotal, flag) of a card."""
    model = table.model
    mask = sum(1 << i for i, box in enumerate(model.boxes) if box in card)
    upper = min(
        model.threshold, sum(card[box] for i, box in enumerate(model.boxes) if box in card and model.upper[i])
    )
    flag = int(model.flag_box is not None and card.get(model.boxes[model.flag_box], 0) > 0)
    return mask, upper, flag


def _checked_card(table: Table, card: Mapping[str, int]) -> dict[str, int]:
    """The card as a dict, or ValueError with the reason it cannot occur in a game.

    Points must be ones some hand scores in that box: the table solves only the upper subtotals such points
    can make, and any other subtotal would read an unsolved (NaN) state.
    """
    model = table.model
    for box, points in card.items():
        if box not in model.boxes:
            raise ValueError(f"{model.rules.name} has no box {box!r}")
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise ValueError(f"points in {box!r} must be a whole number of at least 0, not {points!r}")
        possible = np.unique(model.score[model.boxes.index(box)])
        if points not in possible:
            listed = ", ".join(str(p) for p in possible)
            raise ValueError(f"no hand scores {points} in {box!r} (possible: {listed})")
    if len(card) >= model.box_count:
        raise ValueError("the card is already full")
    if model.forced_order and set(card) != set(model.boxes[: len(card)]):
        raise ValueError(f"{model.rules.name} fills the card top to bottom")
    return dict(card)


def _hand(table: Table, dice: Sequence[int]) -> int:
    for value in dice:
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise ValueError(f"a die shows a whole number from 1 to 6, not {value!r}")
    return table.model.space.hand_index([int(v) for v in dice])

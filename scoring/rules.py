"""The four rule sets: which boxes a card has, what a hand scores in each, and where it may be written.

A `RuleSet` is a frozen description plus pure functions of (card, dice); it keeps no game state, so the
game, the advisor, the command line and the tests all ask the same object the same questions.

A card is a mapping of the boxes already filled to their points (`{"yahtzee": 50, "fives": 25}`); dice are
a sequence of face values. `box_score` is the raw value of a hand in one box; `legal_boxes` is what the
rules allow right now, with the Yahtzee joker and Forced Yatzy's top-to-bottom order applied.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from types import MappingProxyType

RULE_NAMES = ("yahtzee", "yatzy", "maxi", "forced")
FACES = (1, 2, 3, 4, 5, 6)
UPPER_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")
ROLLS_PER_TURN = 3

# counts[face] is how many dice show that face; counts[0] is always 0 so faces index directly.
Counts = tuple[int, ...]
Scorer = Callable[[Counts], int]

LABELS = {
    "ones": "Ones",
    "twos": "Twos",
    "threes": "Threes",
    "fours": "Fours",
    "fives": "Fives",
    "sixes": "Sixes",
    "one_pair": "One pair",
    "two_pairs": "Two pairs",
    "three_pairs": "Three pairs",
    "three_of_a_kind": "Three of a kind",
    "four_of_a_kind": "Four of a kind",
    "five_of_a_kind": "Five of a kind",
    "small_straight": "Small straight",
    "large_straight": "Large straight",
    "full_straight": "Full straight",
    "full_house": "Full house",
    "villa": "Villa",
    "tower": "Tower",
    "chance": "Chance",
    "yatzy": "Yatzy",
    "yahtzee": "Yahtzee",
    "maxi_yatzy": "Maxi Yatzy",
}

# Under the Yahtzee joker these boxes score their fixed value even though five of a kind is no straight.
JOKER_FIXED_POINTS = {"full_house": 25, "small_straight": 30, "large_straight": 40}
YAHTZEE_BONUS = 100
JOKER_MODES = ("forced", "free", "none")
MAXI_VARIANTS = ("swedish", "finnish")
# Each rule set's options and their allowed values, the default first.
RULE_OPTIONS: Mapping[str, Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {"yahtzee": {"joker": JOKER_MODES}, "yatzy": {}, "maxi": {"variant": MAXI_VARIANTS}, "forced": {}}
)
JOKER_NOTES = {
    "forced": "joker (forced): a further Yahtzee must go in its upper box if open, else in any open lower "
    "box (full house 25, straights 30/40, others the sum), else in an open upper box for 0",
    "free": "joker (free): a further Yahtzee may go in any open box; once its upper box is filled, full "
    "house and straights score 25/30/40",
    "none": "no joker: a further Yahtzee scores what it shows in any open box",
}


@lru_cache(maxsize=65536)
def _counts(dice: tuple[int, ...]) -> Counts:
    counts = [0] * 7
    for value in dice:
        counts[value] += 1
    return tuple(counts)


def _total(counts: Counts) -> int:
    return sum(face * counts[face] for face in FACES)


def _best_groups(counts: Counts, sizes: tuple[int, ...]) -> int:
    """Best points from groups of `sizes` dice, each group one face and all faces different; 0 if none fits.

    One search covers pairs, two and three pairs, n of a kind, full house, villa and tower, so "the best
    way counts" holds for six dice as well as five. Every face is at least 1, so 0 means "not possible".
    """
    size, rest = sizes[0], sizes[1:]
    best = 0
    for face in (6, 5, 4, 3, 2, 1):
        if counts[face] < size:
            continue
        if not rest:
            return size * face
        others = counts[:face] + (0,) + counts[face + 1 :]
        remainder = _best_groups(others, rest)
        if remainder:
            best = max(best, size * face + remainder)
    return best


def _upper(face: int) -> Scorer:
    return lambda counts: face * counts[face]


def _groups(*sizes: int) -> Scorer:
    return lambda counts: _best_groups(counts, sizes)


def _groups_sum_of_all(*sizes: int) -> Scorer:
    """Scores the sum of all dice when the groups are present (Yahtzee's n of a kind, villa, tower)."""
    return lambda counts: _total(counts) if _best_groups(counts, sizes) else 0


def _groups_fixed(points: int, *sizes: int) -> Scorer:
    return lambda counts: points if _best_groups(counts, sizes) else 0


def _faces_present(points: int, faces: Sequence[int]) -> Scorer:
    return lambda counts: points if all(counts[face] for face in faces) else 0


def _any_run(points: int, length: int) -> Scorer:
    runs = [range(start, start + length) for start in range(1, 8 - length)]
    return lambda counts: points if any(all(counts[face] for face in run) for run in runs) else 0


@dataclass(frozen=True)
class Box:
    """One line of a scorecard: its key, how it scores, and the sentence `pipkeeper rules` prints."""

    key: str
    scorer: Scorer
    description: str

    @property
    def label(self) -> str:
        return LABELS[self.key]


def _upper_boxes() -> list[Box]:
    return [
        Box(key, _upper(face), f"the sum of the dice showing {face}")
        for face, key in zip(FACES, UPPER_BOXES, strict=True)
    ]


def _yahtzee_boxes() -> list[Box]:
    return _upper_boxes() + [
        Box("three_of_a_kind", _groups_sum_of_all(3), "sum of all dice when at least three show one face"),
        Box("four_of_a_kind", _groups_sum_of_all(4), "sum of all dice when at least four show one face"),
        Box("full_house", _groups_fixed(25, 3, 2), "25 for three of one face and two of another"),
        Box(
            "small_straight", _any_run(30, 4), "30 for any four faces in a row (a large straight counts too)"
        ),
        Box("large_straight", _any_run(40, 5), "40 for five faces in a row"),
        Box("yahtzee", _groups_fixed(50, 5), "50 for five of a kind"),
        Box("chance", _total, "sum of all dice"),
    ]


def _yatzy_boxes() -> list[Box]:
    return _upper_boxes() + [
        Box("one_pair", _groups(2), "two dice of the highest paired face"),
        Box("two_pairs", _groups(2, 2), "two pairs of different faces, sum of those four dice"),
        Box("three_of_a_kind", _groups(3), "three dice of one face, their sum"),
        Box("four_of_a_kind", _groups(4), "four dice of one face, their sum"),
        Box("small_straight", _faces_present(15, (1, 2, 3, 4, 5)), "15 for 1-2-3-4-5"),
        Box("large_straight", _faces_present(20, (2, 3, 4, 5, 6)), "20 for 2-3-4-5-6"),
        Box("full_house", _groups(3, 2), "three of one face and two of another, sum of all dice"),
        Box("chance", _total, "sum of all dice"),
        Box("yatzy", _groups_fixed(50, 5), "50 for five of a kind"),
    ]


def _maxi_boxes() -> list[Box]:
    return _upper_boxes() + [
        Box("one_pair", _groups(2), "two dice of the highest paired face"),
        Box("two_pairs", _groups(2, 2), "the best two pairs of different faces, sum of those four dice"),
        Box("three_pairs", _groups(2, 2, 2), "three pairs of different faces, sum of all six dice"),
        Box("three_of_a_kind", _groups(3), "three dice of one face, their sum"),
        Box("four_of_a_kind", _groups(4), "four dice of one face, their sum"),
        Box("five_of_a_kind", _groups(5), "five dice of one face, their sum"),
        Box("small_straight", _faces_present(15, (1, 2, 3, 4, 5)), "15 for 1-2-3-4-5, the sixth die ignored"),
        Box("large_straight", _faces_present(20, (2, 3, 4, 5, 6)), "20 for 2-3-4-5-6, the sixth die ignored"),
        Box("full_straight", _faces_present(21, FACES), "21 for 1-2-3-4-5-6"),
        Box("full_house", _groups(3, 2), "three of one face and two of another, sum of those five"),
        Box("villa", _groups_sum_of_all(3, 3), "two triples of different faces, sum of all six dice"),
        Box("tower", _groups_sum_of_all(4, 2), "four of one face and two of another, sum of all six dice"),
        Box("chance", _total, "sum of all six dice"),
        Box("maxi_yatzy", _groups_fixed(100, 6), "100 for six of a kind"),
    ]


@dataclass(frozen=True, eq=False)
class RuleSet:
    """A rule set with its options fixed. Build one with `get_rules`; it never changes after that.

    Two rule sets are equal when their name and options are: everything else follows from those, and the
    scorer functions inside would never compare equal across two `get_rules` calls.
    """

    name: str
    title: str
    options: Mapping[str, str]
    dice_count: int
    boxes: tuple[str, ...]
    upper_boxes: tuple[str, ...]
    bonus_threshold: int
    bonus_points: int
    saved_rolls: bool
    forced_order: bool
    joker: str | None
    box_rules: Mapping[str, Box]
    rolls_per_turn: int = ROLLS_PER_TURN

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleSet) and self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def _identity(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        return self.name, tuple(sorted(self.options.items()))

    # --- describing ---------------------------------------------------------------------------
    def label(self, box: str) -> str:
        """The name a player reads on the card: "Full house"."""
        return self._box(box).label

    def describe(self, box: str) -> str:
        """How the box scores in this rule set, one sentence."""
        return self._box(box).description

    def notes(self) -> list[str]:
        """The rules beyond the boxes, one line each, for `pipkeeper rules`."""
        rolls = f"{self.dice_count} dice, up to {self.rolls_per_turn} rolls a turn, at least one"
        lines = [rolls + ("; unused rolls are saved for later turns" if self.saved_rolls else "")]
        upper = f"upper bonus: +{self.bonus_points} when Ones to Sixes reach {self.bonus_threshold}"
        lines.append(upper)
        if self.forced_order:
            lines.append("boxes are filled strictly from top to bottom")
        if not self.joker:
            top = "maxi_yatzy" if "maxi_yatzy" in self.box_rules else "yatzy"
            lines.append(f"no bonus for a second {self.label(top)} and no joker")
        else:
            lines.append(
                f"a further Yahtzee earns +{YAHTZEE_BONUS} while the Yahtzee box holds 50 "
                "(not counted toward the upper bonus)"
            )
            lines.append(JOKER_NOTES[self.joker])
        if self.forced_order:
            lines.append("the next box takes the hand even when it does not fit, for 0 (a scratch)")
        else:
            lines.append("a box may take a hand that does not fit it, for 0 (a scratch)")
        return lines

    # --- checking input -----------------------------------------------------------------------
    def check_dice(self, dice: Sequence[int]) -> tuple[int, ...]:
        """The dice as a tuple, or ValueError saying what is wrong with them."""
        values = tuple(dice)
        for value in values:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"a die shows a whole number from 1 to 6, not {value!r}")
            if not 1 <= value <= 6:
                raise ValueError(f"a die shows 1 to 6, not {value}")
        if len(values) != self.dice_count:
            raise ValueError(f"{self.title} is played with {self.dice_count} dice, got {len(values)}")
        return values

    def check_card(self, card: Mapping[str, object]) -> dict[str, int]:
        """The card as a plain dict, or ValueError naming the unknown box or the bad points."""
        checked: dict[str, int] = {}
        for box, points in card.items():
            if box not in self.box_rules:
                raise ValueError(f"{self.title} has no box {box!r}")
            if isinstance(points, bool) or not isinstance(points, int):
                raise ValueError(f"points in {box!r} must be a whole number, not {points!r}")
            if points < 0:
                raise ValueError(f"points in {box!r} cannot be negative ({points})")
            possible = self.possible_points(box)
            if points not in possible:
                raise ValueError(f"no hand scores {points} in {box!r} (possible: {_point_list(possible)})")
            checked[box] = points
        return checked

    def possible_points(self, box: str) -> frozenset[int]:
        """Every number `box` can hold on a card: 0 (a scratch) and what some hand scores there.

        The joker adds nothing new: its fixed values (25/30/40) and sums are what real hands score too.
        """
        return _possible_points(self, box)

    # --- scoring a hand -----------------------------------------------------------------------
    def box_score(self, box: str, dice: Sequence[int]) -> int:
        """The raw points of `dice` in `box`, ignoring the joker and the card. Dice are not checked."""
        return self._box(box).scorer(_counts(tuple(dice)))

    def open_boxes(self, card: Mapping[str, int]) -> list[str]:
        return [box for box in self.boxes if box not in card]

    def joker_active(self, card: Mapping[str, int], dice: Sequence[int]) -> bool:
        """True for a further five of a kind in Yahtzee (yahtzee box filled, 50 or 0) with the joker on."""
        return self.joker in ("forced", "free") and "yahtzee" in card and self._five_alike(dice)

    def legal_boxes(self, card: Mapping[str, int], dice: Sequence[int]) -> dict[str, int]:
        """Every box the hand may be written in now, with its points; a 0 is a legal scratch."""
        open_boxes = self.open_boxes(card)
        if not open_boxes:
            return {}
        if self.forced_order:
            return {open_boxes[0]: self.box_score(open_boxes[0], dice)}
        if not self.joker_active(card, dice):
            return {box: self.box_score(box, dice) for box in open_boxes}
        matching_upper = UPPER_BOXES[dice[0] - 1]
        if self.joker == "free":
            if matching_upper in card:
                return {box: self._joker_points(box, dice) for box in open_boxes}
            return {box: self.box_score(box, dice) for box in open_boxes}
        if matching_upper not in card:
            return {matching_upper: self.box_score(matching_upper, dice)}
        lower = [box for box in open_boxes if box not in self.upper_boxes]
        if lower:
            return {box: self._joker_points(box, dice) for box in lower}
        return {box: 0 for box in open_boxes}

    def refusal(self, card: Mapping[str, int], dice: Sequence[int], box: str) -> str | None:
        """Why `box` may not take this hand now, in words a player understands; None when it may."""
        if box in card:
            return f"{self.label(box)} is already filled"
        legal = self.legal_boxes(card, dice)
        if box in legal:
            return None
        if self.forced_order:
            return f"{self.title} fills the card top to bottom: next is {self.label(next(iter(legal)))}"
        if len(legal) == 1:
            return f"a Yahtzee joker must go in {self.label(next(iter(legal)))}"
        return "a Yahtzee joker must go in an open lower box"

    def extra_points(self, card: Mapping[str, int], dice: Sequence[int]) -> int:
        """Points beyond the box: +100 for a further Yahtzee while the yahtzee box holds 50."""
        if self.name != "yahtzee" or card.get("yahtzee") != 50 or not self.open_boxes(card):
            return 0
        return YAHTZEE_BONUS if self._five_alike(dice) else 0

    # --- totals -------------------------------------------------------------------------------
    def upper_subtotal(self, card: Mapping[str, int]) -> int:
        return sum(card.get(box, 0) for box in self.upper_boxes)

    def upper_bonus(self, card: Mapping[str, int]) -> int:
        return self.bonus_points if self.upper_subtotal(card) >= self.bonus_threshold else 0

    def bonus_to_go(self, card: Mapping[str, int]) -> int:
        """Upper points still missing for the bonus (0 once reached)."""
        return max(0, self.bonus_threshold - self.upper_subtotal(card))

    def total(self, card: Mapping[str, int], extra: int = 0) -> int:
        """All boxes plus the upper bonus plus `extra` (Yahtzee bonuses already earned)."""
        return sum(card.values()) + self.upper_bonus(card) + extra

    # --- helpers ------------------------------------------------------------------------------
    def _box(self, box: str) -> Box:
        try:
            return self.box_rules[box]
        except KeyError:
            raise ValueError(f"{self.title} has no box {box!r}") from None

    def _five_alike(self, dice: Sequence[int]) -> bool:
        return len(set(dice)) == 1

    def _joker_points(self, box: str, dice: Sequence[int]) -> int:
        return JOKER_FIXED_POINTS.get(box, self.box_score(box, dice))


@lru_cache(maxsize=256)
def _possible_points(rules: RuleSet, box: str) -> frozenset[int]:
    hands = combinations_with_replacement(FACES, rules.dice_count)  # every hand once, as a sorted tuple
    return frozenset({0} | {rules.box_score(box, hand) for hand in hands})


def _point_list(points: frozenset[int]) -> str:
    """ "0, 5, 10, 15" or, for long lists, "0, 6 to 36"."""
    ordered = sorted(points)
    if len(ordered) <= 8:
        return ", ".join(map(str, ordered))
    rest = ordered[1:]
    if rest == list(range(rest[0], rest[-1] + 1)):
        return f"0, {rest[0]} to {rest[-1]}"
    return ", ".join(map(str, ordered[:6])) + f", ..., {ordered[-1]}"


def _check_options(name: str, options: Mapping[str, object]) -> dict:
    """Defaults filled in; ValueError for an unknown option or value."""
    allowed = RULE_OPTIONS[name]
    chosen = {key: values[0] for key, values in allowed.items()}
    for key, value in options.items():
        if key not in allowed:
            known = ", ".join(allowed) or "none"
            raise ValueError(f"{name} has no option {key!r} (options: {known})")
        if value not in allowed[key]:
            raise ValueError(f"{name} option {key!r} must be one of {', '.join(allowed[key])}, not {value!r}")
        chosen[key] = value
    return chosen


def _build(
    name: str,
    title: str,
    options: dict,
    boxes: list[Box],
    dice_count: int,
    bonus: tuple[int, int],
    *,
    joker: str | None = None,
    forced_order: bool = False,
    saved_rolls: bool = False,
) -> RuleSet:
    return RuleSet(
        name=name,
        title=title,
        options=MappingProxyType(options),
        dice_count=dice_count,
        boxes=tuple(box.key for box in boxes),
        upper_boxes=UPPER_BOXES,
        bonus_threshold=bonus[0],
        bonus_points=bonus[1],
        saved_rolls=saved_rolls,
        forced_order=forced_order,
        joker=joker,
        box_rules=MappingProxyType({box.key: box for box in boxes}),
    )


def get_rules(name: str, options: Mapping[str, object] | None = None) -> RuleSet:
    """The rule set called `name` with `options`; ValueError with a one-line reason if either is unknown.

    yahtzee: {"joker": "forced" (default, official) | "free" | "none"};
    maxi: {"variant": "swedish" (default: saved rolls, +100 at 84) | "finnish" (+50 at 75, no saved rolls)}.
    """
    options = dict(options or {})
    if name == "yahtzee":
        chosen = _check_options(name, options)
        return _build(name, "Yahtzee", chosen, _yahtzee_boxes(), 5, (63, 35), joker=chosen["joker"])
    if name in ("yatzy", "forced"):
        chosen = _check_options(name, options)
        title = "Forced Yatzy" if name == "forced" else "Yatzy"
        return _build(name, title, chosen, _yatzy_boxes(), 5, (63, 50), forced_order=name == "forced")
    if name == "maxi":
        chosen = _check_options(name, options)
        if chosen["variant"] == "finnish":
            return _build(name, "Maxi Yatzy", chosen, _maxi_boxes(), 6, (75, 50))
        return _build(name, "Maxi Yatzy", chosen, _maxi_boxes(), 6, (84, 100), saved_rolls=True)
    raise ValueError(f"unknown rule set {name!r} (choose from {', '.join(RULE_NAMES)})")

"""Every box of every rule set with worked hands, the Yahtzee joker, bonuses and Forced Yatzy's order."""

import pytest

from scoring.rules import RULE_NAMES, get_rules

YAHTZEE = get_rules("yahtzee")
YATZY = get_rules("yatzy")
MAXI = get_rules("maxi")
FORCED = get_rules("forced")

# (rules, dice, box, points): at least one scoring and one zero hand per box.
WORKED_HANDS = [
    # --- yahtzee -------------------------------------------------------------------------------
    (YAHTZEE, [1, 1, 2, 3, 1], "ones", 3),
    (YAHTZEE, [2, 2, 2, 3, 1], "twos", 6),
    (YAHTZEE, [3, 3, 5, 6, 1], "threes", 6),
    (YAHTZEE, [4, 1, 2, 3, 5], "fours", 4),
    (YAHTZEE, [5, 5, 5, 5, 5], "fives", 25),
    (YAHTZEE, [1, 2, 3, 4, 5], "sixes", 0),
    (YAHTZEE, [3, 3, 3, 5, 6], "three_of_a_kind", 20),
    (YAHTZEE, [3, 3, 4, 5, 6], "three_of_a_kind", 0),
    (YAHTZEE, [2, 2, 2, 2, 5], "four_of_a_kind", 13),
    (YAHTZEE, [2, 2, 2, 2, 2], "four_of_a_kind", 10),
    (YAHTZEE, [2, 2, 2, 5, 5], "four_of_a_kind", 0),
    (YAHTZEE, [2, 2, 2, 5, 5], "full_house", 25),
    (YAHTZEE, [2, 2, 2, 2, 5], "full_house", 0),
    (YAHTZEE, [4, 4, 4, 4, 4], "full_house", 0),
    (YAHTZEE, [1, 2, 3, 3, 4], "small_straight", 30),
    (YAHTZEE, [6, 3, 5, 4, 1], "small_straight", 30),
    (YAHTZEE, [2, 3, 4, 5, 6], "small_straight", 30),
    (YAHTZEE, [1, 2, 3, 5, 6], "small_straight", 0),
    (YAHTZEE, [2, 3, 4, 5, 6], "large_straight", 40),
    (YAHTZEE, [5, 4, 3, 2, 1], "large_straight", 40),
    (YAHTZEE, [1, 2, 3, 4, 4], "large_straight", 0),
    (YAHTZEE, [6, 6, 6, 6, 6], "yahtzee", 50),
    (YAHTZEE, [6, 6, 6, 6, 5], "yahtzee", 0),
    (YAHTZEE, [6, 6, 6, 6, 5], "chance", 29),
    # --- yatzy (the worked hands first) --------------------------------------------------
    (YATZY, [3, 3, 3, 5, 5], "one_pair", 10),
    (YATZY, [3, 3, 3, 5, 5], "two_pairs", 16),
    (YATZY, [3, 3, 3, 5, 5], "three_of_a_kind", 9),
    (YATZY, [3, 3, 3, 5, 5], "full_house", 19),
    (YATZY, [6, 6, 6, 6, 6], "two_pairs", 0),
    (YATZY, [6, 6, 6, 6, 6], "full_house", 0),
    (YATZY, [6, 6, 6, 6, 2], "two_pairs", 0),
    (YATZY, [1, 1, 6, 6, 2], "two_pairs", 14),
    (YATZY, [1, 2, 3, 4, 6], "one_pair", 0),
    (YATZY, [1, 1, 2, 3, 4], "ones", 2),
    (YATZY, [2, 2, 3, 4, 5], "twos", 4),
    (YATZY, [3, 2, 3, 3, 5], "threes", 9),
    (YATZY, [1, 2, 3, 5, 6], "fours", 0),
    (YATZY, [5, 5, 5, 5, 1], "fives", 20),
    (YATZY, [6, 6, 6, 6, 6], "sixes", 30),
    (YATZY, [6, 6, 6, 6, 2], "three_of_a_kind", 18),
    (YATZY, [6, 6, 6, 6, 2], "four_of_a_kind", 24),
    (YATZY, [6, 6, 6, 2, 2], "four_of_a_kind", 0),
    (YATZY, [5, 4, 3, 2, 1], "small_straight", 15),
    (YATZY, [2, 3, 4, 5, 6], "small_straight", 0),
    (YATZY, [6, 5, 4, 3, 2], "large_straight", 20),
    (YATZY, [1, 2, 3, 4, 5], "large_straight", 0),
    (YATZY, [1, 2, 3, 4, 5], "chance", 15),
    (YATZY, [4, 4, 4, 4, 4], "yatzy", 50),
    (YATZY, [4, 4, 4, 4, 3], "yatzy", 0),
    # --- maxi ------------------------------------------------------------------------------------
    (MAXI, [2, 2, 5, 5, 6, 6], "three_pairs", 26),
    (MAXI, [3, 3, 6, 6, 6, 6], "tower", 30),
    (MAXI, [2, 2, 5, 5, 6, 6], "two_pairs", 22),
    (MAXI, [2, 2, 5, 5, 6, 6], "one_pair", 12),
    (MAXI, [6, 6, 6, 6, 5, 5], "three_pairs", 0),
    (MAXI, [6, 6, 6, 6, 6, 6], "three_pairs", 0),
    (MAXI, [1, 1, 1, 2, 3, 4], "ones", 3),
    (MAXI, [2, 2, 2, 2, 2, 2], "twos", 12),
    (MAXI, [3, 1, 1, 1, 1, 1], "threes", 3),
    (MAXI, [4, 4, 4, 1, 2, 3], "fours", 12),
    (MAXI, [1, 2, 3, 4, 6, 6], "fives", 0),
    (MAXI, [6, 6, 1, 2, 3, 4], "sixes", 12),
    (MAXI, [4, 4, 4, 4, 4, 1], "three_of_a_kind", 12),
    (MAXI, [4, 4, 4, 4, 4, 1], "four_of_a_kind", 16),
    (MAXI, [4, 4, 4, 4, 4, 1], "five_of_a_kind", 20),
    (MAXI, [4, 4, 4, 4, 1, 1], "five_of_a_kind", 0),
    (MAXI, [1, 2, 3, 4, 5, 5], "small_straight", 15),
    (MAXI, [6, 5, 4, 3, 2, 1], "small_straight", 15),
    (MAXI, [2, 3, 4, 5, 6, 6], "small_straight", 0),
    (MAXI, [2, 3, 4, 5, 6, 1], "large_straight", 20),
    (MAXI, [1, 2, 3, 4, 5, 1], "large_straight", 0),
    (MAXI, [1, 2, 3, 4, 5, 6], "full_straight", 21),
    (MAXI, [1, 2, 3, 4, 5, 5], "full_straight", 0),
    (MAXI, [6, 6, 6, 6, 5, 5], "full_house", 28),
    (MAXI, [5, 5, 5, 6, 6, 6], "full_house", 28),
    (MAXI, [1, 1, 1, 2, 2, 6], "full_house", 7),
    (MAXI, [6, 6, 6, 6, 6, 6], "full_house", 0),
    (MAXI, [5, 5, 5, 6, 6, 6], "villa", 33),
    (MAXI, [5, 5, 5, 5, 6, 6], "villa", 0),
    (MAXI, [6, 6, 6, 6, 6, 6], "villa", 0),
    (MAXI, [5, 5, 5, 5, 6, 6], "tower", 32),
    (MAXI, [6, 6, 6, 6, 6, 6], "tower", 0),
    (MAXI, [5, 5, 5, 6, 6, 6], "tower", 0),
    (MAXI, [1, 2, 3, 4, 5, 6], "chance", 21),
    (MAXI, [2, 2, 2, 2, 2, 2], "maxi_yatzy", 100),
    (MAXI, [2, 2, 2, 2, 2, 1], "maxi_yatzy", 0),
]


@pytest.mark.parametrize(("rules", "dice", "box", "points"), WORKED_HANDS)
def test_worked_hand(rules, dice, box, points):
    assert rules.box_score(box, dice) == points


def test_worked_hands_cover_every_box_of_every_rule_set():
    covered = {(rules.name, box) for rules, _, box, _ in WORKED_HANDS}
    for rules in (YAHTZEE, YATZY, MAXI):
        assert {(rules.name, box) for box in rules.boxes} <= covered


def test_card_shapes():
    assert (YAHTZEE.dice_count, len(YAHTZEE.boxes)) == (5, 13)
    assert (YATZY.dice_count, len(YATZY.boxes)) == (5, 15)
    assert (MAXI.dice_count, len(MAXI.boxes)) == (6, 20)
    assert FORCED.boxes == YATZY.boxes and FORCED.forced_order and not YATZY.forced_order
    assert YAHTZEE.label("full_house") == "Full house"
    assert "four faces in a row" in YAHTZEE.describe("small_straight")
    assert RULE_NAMES == ("yahtzee", "yatzy", "maxi", "forced")


def test_yatzy_maximum_is_374():
    best = {box: max(YATZY.box_score(box, hand) for hand in _all_hands(5)) for box in YATZY.boxes}
    assert YATZY.total(best) == 374


def _all_hands(count):
    if count == 0:
        return [()]
    return [hand + (face,) for hand in _all_hands(count - 1) for face in range(1, 7)]


# --- options ---------------------------------------------------------------------------------------


def test_rule_sets_compare_and_hash_by_name_and_options():
    assert get_rules("yahtzee") == get_rules("yahtzee", {"joker": "forced"}) == YAHTZEE
    assert get_rules("yahtzee", {"joker": "free"}) != YAHTZEE and YATZY != FORCED
    assert len({YAHTZEE, get_rules("yahtzee"), YATZY}) == 2


def test_defaults_and_options():
    assert dict(YAHTZEE.options) == {"joker": "forced"}
    assert dict(MAXI.options) == {"variant": "swedish"}
    assert (MAXI.saved_rolls, MAXI.bonus_threshold, MAXI.bonus_points) == (True, 84, 100)
    finnish = get_rules("maxi", {"variant": "finnish"})
    assert (finnish.saved_rolls, finnish.bonus_threshold, finnish.bonus_points) == (False, 75, 50)
    assert get_rules("yahtzee", {"joker": "free"}).joker == "free"
    assert dict(get_rules("yatzy", {}).options) == {}


@pytest.mark.parametrize(
    ("name", "options", "reason"),
    [
        ("poker", None, "unknown rule set 'poker'"),
        ("yahtzee", {"joker": "wild"}, "must be one of forced, free, none"),
        ("yatzy", {"joker": "free"}, "yatzy has no option 'joker'"),
        ("maxi", {"variant": "danish"}, "must be one of swedish, finnish"),
        ("maxi", {"variant": ["swedish"]}, "must be one of"),
    ],
)
def test_unknown_names_and_options_are_refused(name, options, reason):
    with pytest.raises(ValueError, match=reason) as error:
        get_rules(name, options)
    assert "\n" not in str(error.value)


def test_dice_and_card_checks():
    with pytest.raises(ValueError, match="1 to 6, not 7"):
        YATZY.check_dice([1, 2, 3, 4, 7])
    with pytest.raises(ValueError, match="played with 5 dice, got 6"):
        YATZY.check_dice([1, 2, 3, 4, 5, 6])
    with pytest.raises(ValueError, match="whole number"):
        YATZY.check_dice([1, 2, 3, 4, True])
    with pytest.raises(ValueError, match="no box 'villa'"):
        YATZY.check_card({"villa": 20})
    with pytest.raises(ValueError, match="whole number"):
        YATZY.check_card({"fives": "20"})
    with pytest.raises(ValueError, match="negative"):
        YATZY.check_card({"fives": -5})
    with pytest.raises(ValueError, match="no box"):
        YATZY.box_score("villa", [1, 1, 1, 1, 1])
    assert YATZY.check_card({"fives": 20}) == {"fives": 20}


# --- legal boxes, the joker and the Yahtzee bonus -------------------------------------------------


def test_open_boxes_are_all_legal_and_zero_is_a_scratch():
    legal = YATZY.legal_boxes({"fives": 20}, [1, 2, 3, 4, 6])
    assert set(legal) == set(YATZY.boxes) - {"fives"}
    assert legal["yatzy"] == 0


def test_full_card_has_no_legal_box_and_no_extra():
    full = {box: 0 for box in YAHTZEE.boxes} | {"yahtzee": 50}
    assert YAHTZEE.legal_boxes(full, [3] * 5) == {}
    assert YAHTZEE.extra_points(full, [3] * 5) == 0


def test_first_yahtzee_is_no_joker():
    legal = YAHTZEE.legal_boxes({}, [4] * 5)
    assert legal["yahtzee"] == 50 and legal["full_house"] == 0 and len(legal) == 13
    assert YAHTZEE.extra_points({}, [4] * 5) == 0


@pytest.mark.parametrize("yahtzee_points", [50, 0])
def test_forced_joker_must_take_the_matching_upper_box(yahtzee_points):
    assert YAHTZEE.legal_boxes({"yahtzee": yahtzee_points}, [4] * 5) == {"fours": 20}
    refusal = YAHTZEE.refusal({"yahtzee": yahtzee_points}, [4] * 5, "chance")
    assert refusal == "a Yahtzee joker must go in Fours"


@pytest.mark.parametrize("yahtzee_points", [50, 0])
def test_forced_joker_then_any_open_lower_box_at_full_value(yahtzee_points):
    card = {"yahtzee": yahtzee_points, "fours": 12, "chance": 20}
    assert YAHTZEE.legal_boxes(card, [4] * 5) == {
        "three_of_a_kind": 20,
        "four_of_a_kind": 20,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
    }
    assert YAHTZEE.refusal(card, [4] * 5, "ones") == "a Yahtzee joker must go in an open lower box"


def test_forced_joker_last_resort_is_an_open_upper_box_for_zero():
    lower = ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight", "chance")
    card = {box: 10 for box in lower} | {"yahtzee": 50, "fours": 8}
    assert YAHTZEE.legal_boxes(card, [4] * 5) == {"ones": 0, "twos": 0, "threes": 0, "fives": 0, "sixes": 0}


def test_free_joker_any_open_box_with_joker_values_only_when_upper_is_filled():
    free = get_rules("yahtzee", {"joker": "free"})
    upper_open = free.legal_boxes({"yahtzee": 50}, [4] * 5)
    assert len(upper_open) == 12 and upper_open["full_house"] == 0 and upper_open["ones"] == 0
    upper_filled = free.legal_boxes({"yahtzee": 0, "fours": 16}, [4] * 5)
    assert len(upper_filled) == 11
    assert (upper_filled["full_house"], upper_filled["large_straight"], upper_filled["ones"]) == (25, 40, 0)
    assert free.extra_points({"yahtzee": 50}, [4] * 5) == 100


def test_no_joker_scores_raw_but_still_pays_the_bonus():
    plain = get_rules("yahtzee", {"joker": "none"})
    legal = plain.legal_boxes({"yahtzee": 50, "fours": 16}, [4] * 5)
    assert len(legal) == 11 and legal["full_house"] == 0 and legal["chance"] == 20
    assert plain.extra_points({"yahtzee": 50}, [4] * 5) == 100


def test_yahtzee_bonus_needs_50_in_the_yahtzee_box_and_five_alike():
    assert YAHTZEE.extra_points({"yahtzee": 50}, [2] * 5) == 100
    assert YAHTZEE.extra_points({"yahtzee": 0}, [2] * 5) == 0
    assert YAHTZEE.extra_points({"yahtzee": 50}, [2, 2, 2, 2, 3]) == 0
    assert YATZY.extra_points({"yatzy": 50}, [2] * 5) == 0
    assert MAXI.extra_points({"maxi_yatzy": 100}, [2] * 6) == 0


def test_yatzy_has_no_joker():
    legal = YATZY.legal_boxes({"yatzy": 50}, [4] * 5)
    assert legal["full_house"] == 0 and legal["ones"] == 0 and len(legal) == 14


def test_forced_order_allows_only_the_topmost_open_box():
    assert FORCED.legal_boxes({}, [1, 1, 1, 5, 5]) == {"ones": 3}
    card = {box: 0 for box in FORCED.boxes[:8]}
    assert FORCED.legal_boxes(card, [1, 1, 1, 5, 5]) == {"three_of_a_kind": 3}
    assert FORCED.refusal(card, [1, 1, 1, 5, 5], "chance") == (
        "Forced Yatzy fills the card top to bottom: next is Three of a kind"
    )
    assert FORCED.refusal(card, [1, 1, 1, 5, 5], "ones") == "Ones is already filled"


# --- bonus edges -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "upper", "bonus"),
    [
        (YAHTZEE, [3, 6, 9, 12, 15, 17], 0),
        (YAHTZEE, [3, 6, 9, 12, 15, 18], 35),
        (YATZY, [3, 6, 9, 12, 15, 17], 0),
        (YATZY, [3, 6, 9, 12, 15, 18], 50),
        (MAXI, [4, 8, 12, 16, 20, 23], 0),
        (MAXI, [4, 8, 12, 16, 20, 24], 100),
        (get_rules("maxi", {"variant": "finnish"}), [4, 8, 12, 16, 20, 14], 0),
        (get_rules("maxi", {"variant": "finnish"}), [4, 8, 12, 16, 20, 15], 50),
    ],
)
def test_upper_bonus_edges(rules, upper, bonus):
    card = dict(zip(rules.upper_boxes, upper, strict=True)) | {"chance": 20}
    assert rules.upper_bonus(card) == bonus
    assert rules.total(card, extra=100) == sum(upper) + 20 + bonus + 100
    assert rules.bonus_to_go(card) == max(0, rules.bonus_threshold - sum(upper))


# --- cards from outside: impossible points ---------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "card", "reason"),
    [
        (YAHTZEE, {"fives": 7}, "no hand scores 7 in 'fives' (possible: 0, 5, 10, 15, 20, 25)"),
        (YAHTZEE, {"yahtzee": 49}, "no hand scores 49 in 'yahtzee' (possible: 0, 50)"),
        (YAHTZEE, {"full_house": 19}, "possible: 0, 25"),
        (YAHTZEE, {"chance": 4}, "possible: 0, 5 to 30"),
        (YATZY, {"fives": 30}, "no hand scores 30 in 'fives'"),
        (YATZY, {"two_pairs": 7}, "no hand scores 7 in 'two_pairs'"),
        (YATZY, {"full_house": 10}, "no hand scores 10 in 'full_house'"),
        (YATZY, {"yatzy": 100}, "possible: 0, 50"),
        (MAXI, {"maxi_yatzy": 50}, "possible: 0, 100"),
        (MAXI, {"three_pairs": 10}, "no hand scores 10 in 'three_pairs'"),
        (MAXI, {"villa": 10}, "no hand scores 10 in 'villa'"),
    ],
)
def test_impossible_points_on_a_card_are_refused(rules, card, reason):
    with pytest.raises(ValueError) as error:
        rules.check_card(card)
    assert reason in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("rules", [YAHTZEE, YATZY, MAXI])
def test_every_score_a_hand_can_make_is_accepted_on_a_card(rules):
    for box in rules.boxes:
        made = {rules.box_score(box, hand) for hand in _all_hands(rules.dice_count)}
        assert rules.possible_points(box) == made | {0}
        for points in made:
            assert rules.check_card({box: points}) == {box: points}
    assert MAXI.check_card({"fives": 30, "chance": 36}) == {"fives": 30, "chance": 36}


def test_notes_say_what_the_boxes_do_not():
    yahtzee = "\n".join(YAHTZEE.notes())
    assert "+100 while the Yahtzee box holds 50 (not counted toward the upper bonus)" in yahtzee
    assert "no bonus for a second Yatzy and no joker" in YATZY.notes()
    assert "no bonus for a second Maxi Yatzy and no joker" in MAXI.notes()
    assert FORCED.notes()[-1] == "the next box takes the hand even when it does not fit, for 0 (a scratch)"


# --- an independent oracle: every box of the Scandinavian sets, by brute force over the dice ------


def _oracle(box, dice):
    """The best score of `box` found by trying every choice of dice (slow, obviously right)."""
    from collections import Counter
    from itertools import combinations

    def best(size, fits, points=sum):
        found = [points(pick) for pick in combinations(sorted(dice), size) if fits(Counter(pick))]
        return max(found, default=0)

    def shape(*sizes):
        return lambda counts: sorted(counts.values()) == sorted(sizes)

    upper = ("ones", "twos", "threes", "fours", "fives", "sixes")
    if box in upper:
        return sum(value for value in dice if value == upper.index(box) + 1)
    table = {
        "one_pair": (2, shape(2)),
        "two_pairs": (4, shape(2, 2)),
        "three_pairs": (6, shape(2, 2, 2)),
        "three_of_a_kind": (3, shape(3)),
        "four_of_a_kind": (4, shape(4)),
        "five_of_a_kind": (5, shape(5)),
        "full_house": (5, shape(3, 2)),
        "villa": (6, shape(3, 3)),
        "tower": (6, shape(4, 2)),
        "chance": (len(dice), lambda counts: True),
        "small_straight": (5, lambda counts: set(counts) == {1, 2, 3, 4, 5}, lambda pick: 15),
        "large_straight": (5, lambda counts: set(counts) == {2, 3, 4, 5, 6}, lambda pick: 20),
        "full_straight": (6, lambda counts: len(counts) == 6, lambda pick: 21),
        "yatzy": (5, shape(5), lambda pick: 50),
        "maxi_yatzy": (6, shape(6), lambda pick: 100),
    }
    return best(*table[box])


@pytest.mark.parametrize("rules", [YATZY, MAXI])
def test_every_hand_in_every_box_matches_a_brute_force_oracle(rules):
    hands = {tuple(sorted(hand)) for hand in _all_hands(rules.dice_count)}
    for hand in hands:
        for box in rules.boxes:
            assert rules.box_score(box, hand) == _oracle(box, hand), (box, hand)

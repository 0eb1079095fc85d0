"""Random whole games: the bookkeeping always adds up, boxes are written once, replay equals the live game."""

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.game import Game, IllegalMove
from scoring.rules import get_rules

SETUPS = [
    ("yahtzee", {"joker": "forced"}),
    ("yahtzee", {"joker": "free"}),
    ("yahtzee", {"joker": "none"}),
    ("yatzy", {}),
    ("forced", {}),
    ("maxi", {"variant": "swedish"}),
    ("maxi", {"variant": "finnish"}),
]


def random_values(rng: random.Random, dice: int) -> list[int]:
    # Few faces make pairs, full houses and five of a kind (the joker) frequent.
    faces = rng.choice([(1, 2, 3, 4, 5, 6), (rng.randint(1, 6),), (rng.randint(1, 3), rng.randint(4, 6))])
    return [rng.choice(faces) for _ in range(dice)]


def random_command(rng: random.Random, game: Game) -> dict:
    dice = game.rules.dice_count
    state = game.snapshot()
    kinds = ["roll", "hold", "toggle_hold", "correct", "score", "undo"]
    kind = rng.choices(kinds, weights=[6, 2, 1, 1, 5 if state["dice"] else 1, 1])[0]
    if kind == "roll":
        values = random_values(rng, dice)
        held_values = sorted(state["dice"][i] for i in state["held"])
        if rng.random() < 0.8:  # usually keep the held dice, so rolls mostly go through
            for position, value in zip(rng.sample(range(dice), len(held_values)), held_values, strict=True):
                values[position] = value
        return {"type": "roll", "values": values}
    if kind == "hold":
        return {"type": "hold", "dice": rng.sample(range(dice), rng.randint(0, dice))}
    if kind == "toggle_hold":
        return {"type": "toggle_hold", "die": rng.randrange(dice)}
    if kind == "correct":
        return {"type": "correct", "values": random_values(rng, dice)}
    if kind == "score":
        allowed = [box for box, play in state["preview"].items() if play["allowed"]]
        if allowed and rng.random() < 0.8:  # mostly legal plays, so games reach their end
            return {"type": "score", "box": rng.choice(allowed)}
        return {"type": "score", "box": rng.choice(game.rules.boxes)}
    return {"type": "undo"}


def check_bookkeeping(game: Game) -> None:
    state = game.snapshot()
    rules = game.rules
    for player in state["players"]:
        card = player["card"]
        upper = sum(card.get(box, 0) for box in rules.upper_boxes)
        bonus = rules.bonus_points if upper >= rules.bonus_threshold else 0
        assert player["upper_subtotal"] == upper and player["upper_bonus"] == bonus
        assert player["total"] == sum(card.values()) + bonus + player["extra"]
        assert player["extra"] % 100 == 0 and (player["extra"] == 0 or card.get("yahtzee") == 50)
        assert rules.saved_rolls or player["saved_rolls"] == 0
    held_values = [state["dice"][i] for i in state["held"]]
    assert all(0 <= i < len(state["dice"]) for i in state["held"]) and len(held_values) <= rules.dice_count
    assert 0 <= state["rolls_used"] <= state["rolls_allowed"]


@settings(max_examples=60, deadline=None)
@given(setup=st.sampled_from(SETUPS), players=st.integers(1, 3), seed=st.integers(0, 2**32))
def test_random_games(setup, players, seed):
    # One seed drives the whole game: a game is hundreds of choices, too many to draw one by one.
    rng = random.Random(seed)
    rules_name, options = setup
    game = Game([f"P{n}" for n in range(players)], rules_name, options)
    rules = get_rules(rules_name, options)
    for _ in range(2000):
        if game.finished:
            break
        before = game.snapshot()
        command = random_command(rng, game)
        try:
            game.apply(command)
        except IllegalMove:
            assert game.snapshot() == before
            continue
        after = game.snapshot()
        if command["type"] == "score":
            scorer = before["current_player"]
            card_before = before["players"][scorer]["card"]
            card_after = after["players"][scorer]["card"]
            assert command["box"] not in card_before
            assert card_after == card_before | {command["box"]: before["preview"][command["box"]]["points"]}
            assert before["preview"][command["box"]]["allowed"]
            others = [i for i in range(players) if i != scorer]
            assert all(after["players"][i] == before["players"][i] for i in others)
        check_bookkeeping(game)
    assert game.finished
    final = game.snapshot()
    for player in final["players"]:
        assert list(player["card"]) == list(rules.boxes)
    totals = sorted(player["total"] for player in final["players"])
    assert sorted(entry["total"] for entry in final["ranking"]) == totals
    assert Game.from_commands(game.setup, game.commands).snapshot() == final


@settings(max_examples=60, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**32), steps=st.integers(0, 80))
def test_replay_equals_live_game_at_any_point(setup, seed, steps):
    rng = random.Random(seed)
    game = Game(["Ann", "Bo"], *setup)
    for _ in range(steps):
        with contextlib.suppress(IllegalMove):
            game.apply(random_command(rng, game))
    assert Game.from_commands(game.setup, game.commands).snapshot() == game.snapshot()


@settings(max_examples=100, deadline=None)
@given(setup=st.sampled_from(SETUPS), data=st.data())
def test_legal_boxes_are_open_boxes_with_their_preview_points(setup, data):
    rules = get_rules(*setup)
    dice = data.draw(st.lists(st.integers(1, 6), min_size=rules.dice_count, max_size=rules.dice_count))
    filled = data.draw(st.sets(st.sampled_from(rules.boxes), max_size=len(rules.boxes) - 1))
    points = {box: st.sampled_from([0, 50]) if box == "yahtzee" else st.integers(0, 30) for box in filled}
    card = {box: data.draw(strategy) for box, strategy in points.items()}
    legal = rules.legal_boxes(card, dice)
    assert legal and set(legal) <= set(rules.open_boxes(card))
    if rules.forced_order:
        assert list(legal) == rules.open_boxes(card)[:1]
    elif not rules.joker_active(card, dice):
        assert legal == {box: rules.box_score(box, dice) for box in rules.open_boxes(card)}
    for box in rules.open_boxes(card):
        assert (rules.refusal(card, dice, box) is None) == (box in legal)

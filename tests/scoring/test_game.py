"""The game: turns, rolls, holds, corrections, scoring, saved rolls, forced order, undo, ranking, the log."""

import json

import pytest

from scoring.game import Game, IllegalMove, MalformedCommand


def refused(game, command, error=IllegalMove, match=None):
    """Apply a command that must be refused, and check that nothing about the game changed."""
    before, commands = game.snapshot(), list(game.commands)
    with pytest.raises(error, match=match):
        game.apply(command)
    assert game.snapshot() == before and game.commands == commands


def play_turn(game, values, box):
    game.roll(values)
    return game.score(box)


# --- setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rules", "reason"),
    [
        ([], "yatzy", "1 to 8 players, got 0"),
        ([f"P{n}" for n in range(9)], "yatzy", "1 to 8 players, got 9"),
        (["Ann", "Ann"], "yatzy", "two players are called Ann"),
        (["Ann", "ann "], "yatzy", "two players are called Ann"),  # one name on a scorecard
        (["Ann", "x" * 25], "yatzy", "at most 24 characters"),
        (["Ann", " "], "yatzy", "needs a name"),
        (["Ann", 3], "yatzy", "needs a name"),
        ("Ann", "yatzy", "list of names"),
        (["Ann"], "canasta", "unknown rule set"),
    ],
)
def test_bad_setup_is_refused(players, rules, reason):
    with pytest.raises(ValueError, match=reason):
        Game(players, rules)


def test_setup_records_options_with_defaults():
    game = Game(["Ann", "Bo"], "maxi")
    assert game.setup == {"players": ["Ann", "Bo"], "rules": "maxi", "options": {"variant": "swedish"}}
    assert game.log == ["New game of Maxi Yatzy: Ann, Bo"]
    with pytest.raises(ValueError, match="from_commands|players and rules"):
        Game.from_commands({"rules": "yatzy"}, [])


# --- rolls and holds -------------------------------------------------------------------------------


def test_roll_hold_and_log_lines():
    game = Game(["Ann", "Bo"], "yahtzee")
    assert game.roll([3, 3, 5, 6, 1]) == "Ann rolled 3 3 5 6 1"
    assert game.hold([0, 1]) == "Ann held 3 3"
    game.roll([6, 3, 2, 3, 3])
    state = game.snapshot()
    assert state["held"] == [1, 3] and state["rolls_used"] == 2 and state["rolls_left"] == 1
    assert game.toggle_hold(1) == "Ann held 3"
    assert game.toggle_hold(4) == "Ann held 3 3"
    assert game.hold([]) == "Ann held nothing"
    game.roll([2, 2, 2, 5, 5])
    assert game.score("full_house") == "Ann scored 25 in Full house"
    assert game.snapshot()["current_name"] == "Bo"
    assert game.last_event == "Ann scored 25 in Full house"


def test_explicit_held_positions_are_checked():
    game = Game(["Ann"], "yatzy")
    game.roll([5, 1, 2, 3, 4])
    game.hold([0])
    game.roll([1, 1, 1, 1, 5], held=[4])
    assert game.snapshot()["held"] == [4]
    refused(game, {"type": "roll", "values": [5, 2, 2, 2, 2], "held": [1]}, match="a held 5 is missing")
    two_marked = {"type": "roll", "values": [5, 5, 2, 2, 2], "held": [0, 1]}
    refused(game, two_marked, match="held dice: 1, marked as held in the roll: 2")


def test_fourth_roll_and_missing_held_die_are_refused():
    game = Game(["Ann"], "yatzy")
    game.roll([5, 1, 2, 3, 4])
    game.hold([0])
    refused(game, {"type": "roll", "values": [1, 1, 2, 3, 4]}, match="a held 5 is missing")
    game.roll([1, 1, 2, 3, 5])
    game.roll([1, 5, 2, 3, 4])
    refused(game, {"type": "roll", "values": [5, 1, 2, 3, 4]}, match="Ann has no rolls left this turn")


def test_wrong_number_of_dice_is_refused():
    game = Game(["Ann"], "maxi")
    five = {"type": "roll", "values": [1, 2, 3, 4, 5]}
    refused(game, five, match="Maxi Yatzy is played with 6 dice, got 5")


def test_nothing_before_the_first_roll():
    game = Game(["Ann"], "yatzy")
    assert game.preview() == {}
    for command in ({"type": "hold", "dice": [0]}, {"type": "score", "box": "chance"}):
        refused(game, command, match="Ann has not rolled yet")
    refused(game, {"type": "correct", "values": [1, 2, 3, 4, 5]}, match="Ann has not rolled yet")


def test_correct_fixes_a_misread_without_counting_a_roll():
    game = Game(["Ann"], "yatzy")
    game.roll([3, 3, 5, 6, 1])
    game.hold([0, 1, 2])
    game.roll([3, 3, 5, 2, 2])
    assert game.correct([3, 5, 3, 2, 4]) == "Ann corrected the dice to 3 5 3 2 4"
    state = game.snapshot()
    assert state["rolls_used"] == 2 and state["dice"] == [3, 5, 3, 2, 4] and state["held"] == [0, 1, 2]
    refused(game, {"type": "correct", "values": [3, 5, 1, 2, 4]}, match="a held 3 is missing")


# --- scoring ---------------------------------------------------------------------------------------


def test_a_filled_box_is_refused_and_turns_rotate():
    game = Game(["Ann", "Bo"], "yatzy")
    play_turn(game, [5, 5, 1, 2, 3], "fives")
    play_turn(game, [1, 2, 3, 4, 6], "chance")
    game.roll([5, 5, 5, 2, 3])
    refused(game, {"type": "score", "box": "fives"}, match="Fives is already filled")
    assert game.score("three_of_a_kind") == "Ann scored 15 in Three of a kind"
    state = game.snapshot()
    assert state["round"] == 2 and state["current_player"] == 1
    assert state["players"][0]["card"] == {"fives": 10, "three_of_a_kind": 15}


def test_scratch_scores_zero():
    game = Game(["Ann"], "yatzy")
    assert play_turn(game, [1, 2, 3, 4, 6], "yatzy") == "Ann scored 0 in Yatzy"


def test_forced_order():
    game = Game(["Ann"], "forced")
    game.roll([6, 6, 6, 6, 6])
    refused(game, {"type": "score", "box": "yatzy"}, match="top to bottom: next is Ones")
    preview = game.preview()
    assert preview["ones"] == {"points": 0, "allowed": True}
    assert preview["yatzy"] == {"points": 50, "allowed": False}
    game.score("ones")
    game.roll([2, 2, 1, 1, 1])
    assert game.score("twos") == "Ann scored 4 in Twos"


def test_yahtzee_bonus_and_forced_joker_in_a_game():
    game = Game(["Ann"], "yahtzee")
    play_turn(game, [4, 4, 4, 4, 4], "yahtzee")
    game.roll([4, 4, 4, 4, 4])
    refused(game, {"type": "score", "box": "chance"}, match="joker must go in Fours")
    assert game.score("fours") == "Ann scored 20 in Fours and a Yahtzee bonus of 100"
    game.roll([4, 4, 4, 4, 4])
    assert game.preview()["large_straight"] == {"points": 40, "allowed": True}
    assert game.preview()["ones"] == {"points": 0, "allowed": False}
    game.score("large_straight")
    player = game.snapshot()["players"][0]
    assert player["extra"] == 200 and player["total"] == 50 + 20 + 40 + 200


def test_saved_rolls_in_swedish_maxi():
    game = Game(["Ann", "Bo"], "maxi")
    play_turn(game, [1, 2, 3, 4, 5, 6], "full_straight")
    assert game.snapshot()["players"][0]["saved_rolls"] == 2
    play_turn(game, [1, 2, 3, 4, 5, 6], "full_straight")
    assert game.snapshot()["rolls_allowed"] == 5
    for _ in range(5):
        game.roll([1, 1, 1, 1, 1, 2])
    refused(game, {"type": "roll", "values": [1] * 6}, match="no rolls left")
    game.score("ones")
    assert game.snapshot()["players"][0]["saved_rolls"] == 0
    assert game.snapshot()["rolls_allowed"] == 5


def test_saved_rolls_accumulate_and_only_swedish_maxi_has_them():
    game = Game(["Ann"], "maxi")
    play_turn(game, [1, 2, 3, 4, 5, 6], "full_straight")
    game.roll([1, 1, 1, 1, 1, 2])
    game.roll([1, 1, 1, 1, 1, 2])
    game.score("ones")
    assert game.snapshot()["players"][0]["saved_rolls"] == 3
    for rules, options in (("maxi", {"variant": "finnish"}), ("yatzy", None), ("yahtzee", None)):
        other = Game(["Ann"], rules, options)
        play_turn(other, [1] * other.rules.dice_count, "chance")
        assert other.snapshot()["players"][0]["saved_rolls"] == 0
        assert other.snapshot()["rolls_allowed"] == 3


# --- undo ------------------------------------------------------------------------------------------


def test_undo_steps_back_across_turns_to_the_start():
    game = Game(["Ann", "Bo"], "yahtzee")
    start = game.snapshot()
    game.roll([2, 2, 3, 3, 3])
    game.hold([2, 3, 4])
    mid_turn = game.snapshot()
    game.roll([2, 5, 3, 3, 3])
    game.score("threes")
    game.roll([2, 2, 2, 5, 5])
    game.score("full_house")
    assert game.undo() == "Bo undid: Bo scored 25 in Full house"
    assert game.snapshot()["dice"] == [2, 2, 2, 5, 5] and game.snapshot()["current_name"] == "Bo"
    assert game.undo() == "Bo undid: Bo rolled 2 2 2 5 5"
    assert game.undo() == "Ann undid: Ann scored 9 in Threes"
    assert game.undo() == "Ann undid: Ann rolled 2 5 3 3 3"
    after_undos = game.snapshot()
    assert {k: v for k, v in after_undos.items() if k not in ("log", "last_event")} == {
        k: v for k, v in mid_turn.items() if k not in ("log", "last_event")
    }
    game.undo()
    game.undo()
    assert game.snapshot()["players"] == start["players"] and game.snapshot()["dice"] == []
    refused(game, {"type": "undo"}, match="nothing to undo")
    assert len(game.commands) == 12 and game.log[-1] == "Ann undid: Ann rolled 2 2 3 3 3"


def test_undo_restores_saved_rolls_and_bonus():
    game = Game(["Ann"], "yahtzee")
    play_turn(game, [6] * 5, "yahtzee")
    play_turn(game, [6] * 5, "sixes")
    assert game.snapshot()["players"][0]["extra"] == 100
    game.undo()
    assert game.snapshot()["players"][0]["extra"] == 0
    maxi = Game(["Ann"], "maxi")
    play_turn(maxi, [1] * 6, "ones")
    maxi.undo()
    assert maxi.snapshot()["players"][0]["saved_rolls"] == 0


# --- the end and the ranking -----------------------------------------------------------------------


def finish(game, values_for):
    """Every player fills boxes top to bottom with the dice `values_for(player)` returns."""
    while not game.finished:
        game.roll(values_for(game.current_player))
        game.score(next(box for box, play in game.preview().items() if play["allowed"]))


def test_ties_share_a_place():
    game = Game(["Ann", "Bo", "Cy"], "yatzy")
    finish(game, lambda name: [1, 2, 3, 4, 6] if name != "Cy" else [1, 1, 1, 1, 2])
    assert game.ranking() == [
        {"name": "Ann", "total": 16 + 16, "place": 1},
        {"name": "Bo", "total": 16 + 16, "place": 1},
        {"name": "Cy", "total": 6 + 2 + 3 + 4 + 6, "place": 3},
    ]
    assert game.log[-1] == "Game over: Ann and Bo share first place with 32"


def test_game_end():
    game = Game(["Ann"], "forced")
    finish(game, lambda name: [6, 6, 6, 6, 6])
    state = game.snapshot()
    assert state["finished"] and state["current_player"] is None and state["preview"] == {}
    assert state["players"][0]["total"] == 30 + 12 + 18 + 24 + 30 + 50
    assert game.log[-1] == "Game over: Ann wins with 164"
    refused(game, {"type": "roll", "values": [1, 2, 3, 4, 5]}, match="the game is over")
    game.undo()
    assert not game.finished and game.current_player == "Ann"


# --- malformed commands ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        (["roll"], "JSON object"),
        ({"type": "jump"}, "unknown command type 'jump'"),
        ({"values": [1, 2, 3, 4, 5]}, "unknown command type None"),
        ({"type": "roll"}, "needs values"),
        ({"type": "roll", "values": [1, 2, 3, 4, 5], "speed": 3}, "no field 'speed'"),
        ({"type": "roll", "values": [1, 2, 3, 4, 7]}, "1 to 6"),
        ({"type": "roll", "values": [1, 2, 3, 4, "5"]}, "list of whole numbers"),
        ({"type": "roll", "values": "12345"}, "list of whole numbers"),
        ({"type": "roll", "values": [1, 2, 3, 4, True]}, "list of whole numbers"),
        ({"type": "roll", "values": [1, 2, 3, 4, 5], "held": [5]}, "die position is 0 to 4"),
        ({"type": "hold", "dice": [0, 0]}, "twice"),
        ({"type": "toggle_hold", "die": -1}, "die position"),
        ({"type": "toggle_hold", "die": 1.0}, "die position"),
        ({"type": "score", "box": "villa"}, "Yatzy has no box 'villa'"),
        ({"type": "score", "box": 3}, "no box"),
        ({"type": "undo", "steps": 2}, "no field 'steps'"),
    ],
)
def test_malformed_commands_change_nothing(command, reason):
    game = Game(["Ann"], "yatzy")
    game.roll([1, 2, 3, 4, 5])
    refused(game, command, MalformedCommand, reason)
    assert issubclass(MalformedCommand, ValueError)


def test_null_held_counts_as_absent_and_commands_are_stored_clean():
    game = Game(["Ann"], "yatzy")
    game.apply({"type": "roll", "values": (1, 2, 3, 4, 5), "held": None})
    assert game.commands == [{"type": "roll", "values": [1, 2, 3, 4, 5]}]


# --- snapshot and replay ---------------------------------------------------------------------------


def test_snapshot_is_json_and_replays():
    game = Game(["Ann", "Bo"], "yahtzee", {"joker": "free"})
    play_turn(game, [5, 5, 5, 2, 2], "full_house")
    game.roll([1, 1, 1, 1, 1])
    game.hold([0, 1])
    state = game.snapshot()
    assert json.loads(json.dumps(state)) == state
    assert state["boxes"][6] == {"key": "three_of_a_kind", "label": "Three of a kind", "upper": False}
    assert state["preview"]["yahtzee"] == {"points": 50, "allowed": True}
    assert state["players"][0] == {
        "name": "Ann",
        "card": {"full_house": 25},
        "upper_subtotal": 0,
        "upper_bonus": 0,
        "bonus_to_go": 63,
        "extra": 0,
        "total": 25,
        "saved_rolls": 0,
    }
    assert Game.from_commands(game.setup, game.commands).snapshot() == state


# --- edges the issue names -------------------------------------------------------------------------


def test_eight_players_take_turns_in_seating_order():
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    game = Game(names, "yatzy")
    for name in names:
        assert game.current_player == name
        play_turn(game, [1, 2, 3, 4, 6], "chance")
    assert game.current_player == "Ann" and game.snapshot()["round"] == 2


def test_a_correction_after_the_last_roll_is_allowed_and_costs_no_roll():
    game = Game(["Ann"], "yatzy")
    for _ in range(3):
        game.roll([6, 6, 6, 2, 1])
    game.correct([6, 6, 6, 2, 2])
    assert game.snapshot()["rolls_left"] == 0
    assert game.score("full_house") == "Ann scored 22 in Full house"


def test_joker_after_a_scratched_yahtzee_pays_no_bonus():
    game = Game(["Ann"], "yahtzee")
    play_turn(game, [1, 2, 3, 4, 6], "yahtzee")
    game.roll([5] * 5)
    refused(game, {"type": "score", "box": "full_house"}, match="joker must go in Fives")
    assert game.score("fives") == "Ann scored 25 in Fives"
    game.roll([5] * 5)
    assert game.score("full_house") == "Ann scored 25 in Full house"
    assert game.snapshot()["players"][0]["extra"] == 0


def test_finnish_maxi_saves_no_rolls_and_pays_50_at_75():
    game = Game(["Ann"], "maxi", {"variant": "finnish"})
    for face, box in enumerate(("ones", "twos", "threes", "fours", "fives"), start=1):
        play_turn(game, [face] * 4 + [6, 6], box)
        assert game.rolls_allowed() == 3
    play_turn(game, [6, 6, 6, 1, 1, 1], "sixes")  # 4 + 8 + 12 + 16 + 20 + 18 = 78
    player = game.snapshot()["players"][0]
    assert (player["upper_subtotal"], player["upper_bonus"], player["saved_rolls"]) == (78, 50, 0)

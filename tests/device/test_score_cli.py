"""`pipkeeper score` and `pipkeeper rules` from the outside, through the real command-line entry point."""

import json

import pytest

from device.cli import main


def score(capsys, *argv):
    code = main(["score", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def legal_and_extra(capsys, *argv):
    code, out, err = score(capsys, *argv)
    assert (code, err) == (0, "")
    return json.loads(out)


def test_yatzy_hand_on_an_empty_card(capsys):
    result = legal_and_extra(capsys, "--rules", "yatzy", "3", "3", "3", "5", "5")
    assert result["extra"] == 0 and len(result["legal"]) == 15
    assert (result["legal"]["one_pair"], result["legal"]["two_pairs"], result["legal"]["full_house"]) == (
        10,
        16,
        19,
    )
    assert list(result["legal"])[:2] == ["ones", "twos"]


def test_yahtzee_joker_and_bonus_through_the_card(capsys):
    card = json.dumps({"yahtzee": 50, "fives": 25})
    result = legal_and_extra(capsys, "--rules", "yahtzee", "--card", card, "5", "5", "5", "5", "5")
    assert result == {
        "legal": {
            "three_of_a_kind": 25,
            "four_of_a_kind": 25,
            "full_house": 25,
            "small_straight": 30,
            "large_straight": 40,
            "chance": 25,
        },
        "extra": 100,
    }
    result = legal_and_extra(
        capsys, "--rules", "yahtzee", "--card", '{"yahtzee": 0}', "5", "5", "5", "5", "5"
    )
    assert result == {"legal": {"fives": 25}, "extra": 0}


def test_joker_and_variant_options(capsys):
    card = '{"yahtzee": 50}'
    free = legal_and_extra(
        capsys, "--rules", "yahtzee", "--joker", "free", "--card", card, "2", "2", "2", "2", "2"
    )
    assert len(free["legal"]) == 12 and free["legal"]["full_house"] == 0 and free["extra"] == 100
    none = legal_and_extra(
        capsys, "--rules", "yahtzee", "--joker", "none", "--card", card, "2", "2", "2", "2", "2"
    )
    assert len(none["legal"]) == 12
    finnish = legal_and_extra(capsys, "--rules", "maxi", "--variant", "finnish", "1", "2", "3", "4", "5", "6")
    assert finnish["legal"]["full_straight"] == 21


def test_maxi_and_forced(capsys):
    maxi = legal_and_extra(capsys, "--rules", "maxi", "3", "3", "6", "6", "6", "6")
    assert maxi["legal"]["tower"] == 30 and maxi["legal"]["three_pairs"] == 0
    forced = legal_and_extra(capsys, "--rules", "forced", "--card", '{"ones": 3}', "6", "6", "6", "6", "6")
    assert forced == {"legal": {"twos": 0}, "extra": 0}


def test_dice_may_come_as_one_argument(capsys):
    result = legal_and_extra(capsys, "--rules", "yahtzee", "1,2,3,3,4")
    assert result["legal"]["small_straight"] == 30


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["--rules", "yatzy", "1", "2", "3", "4", "7"], "1 to 6, not 7"),
        (["--rules", "yatzy", "1", "2", "3", "4", "x"], "not 'x'"),
        (["--rules", "yatzy", "1", "2", "3", "4"], "played with 5 dice, got 4"),
        (["--rules", "maxi", "1", "2", "3", "4", "5"], "played with 6 dice, got 5"),
        (["--rules", "yatzy", "--card", '{"villa": 20}', "1", "2", "3", "4", "5"], "no box 'villa'"),
        (["--rules", "yatzy", "--card", '{"fives": "20"}', "1", "2", "3", "4", "5"], "whole number"),
        (["--rules", "yatzy", "--card", '{"fives": 2.5}', "1", "2", "3", "4", "5"], "whole number"),
        (["--rules", "yatzy", "--card", '{"fives": 20', "1", "2", "3", "4", "5"], "not valid JSON"),
        (["--rules", "yatzy", "--card", "[20]", "1", "2", "3", "4", "5"], "JSON object"),
        (["--rules", "poker", "1", "2", "3", "4", "5"], "unknown rule set 'poker'"),
        (["--rules", "yatzy", "--joker", "free", "1", "2", "3", "4", "5"], "no option 'joker'"),
        (["1", "2", "3", "4", "5"], "--rules is required"),
        (
            ["--rules", "yahtzee", "--card", '{"fives": 7}', "1", "2", "3", "4", "5"],
            "no hand scores 7 in 'fives'",
        ),
        (["--rules", "yahtzee", "--card", '{"yahtzee": 49}', "1", "2", "3", "4", "5"], "possible: 0, 50"),
        (["--rules", "yatzy", "--card", '{"fives": true}', "1", "2", "3", "4", "5"], "whole number"),
        (["--rules", "yatzy", "--card", '{"fives": null}', "1", "2", "3", "4", "5"], "whole number"),
        (["--rules", "yatzy", "--card", '{"fives": -5}', "1", "2", "3", "4", "5"], "negative"),
        (["--rules", "yatzy", "--card", "", "1", "2", "3", "4", "5"], "not valid JSON"),
        (["--rules", "yatzy", "1", "2", "3", "4", "5", "--bogus"], "unknown option '--bogus'"),
        (["--rules"], "argument --rules: expected one argument"),
        (["--rules", "yatzy", "--card"], "argument --card: expected one argument"),
        (["--rules", "yatzy", "1", "2", "3", "4", "-5"], "1 to 6, not -5"),
        (["--rules", "yatzy", "1", "2", "3", "4", "\uff15"], "not '\uff15'"),
        (["--rules", "yatzy", "1", "2", "3", "4", "1_0"], "not '1_0'"),
        (["--rules", "yatzy", "1", "2", "3", "4", "5", "6"], "played with 5 dice, got 6"),
        (["--rules", "maxi", "--card", '{"yatzy": 50}', "1", "2", "3", "4", "5", "6"], "no box 'yatzy'"),
    ],
)
def test_bad_input_exits_non_zero_with_one_line(capsys, argv, reason):
    try:
        code, out, err = score(capsys, *argv)
    except SystemExit as exit:  # argparse's own complaints leave through SystemExit
        code, (out, err) = exit.code, capsys.readouterr()
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and reason in err and "Traceback" not in err


def test_dice_may_come_before_and_between_options(capsys):
    result = legal_and_extra(capsys, "3", "3", "--rules", "yatzy", "3", "--card", '{"ones": 0}', "5", "5")
    assert result["legal"]["full_house"] == 19 and "ones" not in result["legal"]


def test_filled_boxes_are_not_listed_and_a_full_card_lists_nothing(capsys):
    card = {"ones": 0, "twos": 4, "chance": 20}
    result = legal_and_extra(capsys, "--rules", "yatzy", "--card", json.dumps(card), "2", "2", "3", "3", "3")
    assert set(result["legal"]) == {
        "threes", "fours", "fives", "sixes", "one_pair", "two_pairs", "three_of_a_kind",
        "four_of_a_kind", "small_straight", "large_straight", "full_house", "yatzy",
    }  # fmt: skip
    full = {box: 0 for box in ("ones", "twos", "threes", "fours", "fives", "sixes")}
    full |= {"three_of_a_kind": 0, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30}
    full |= {"large_straight": 40, "yahtzee": 50, "chance": 0}
    result = legal_and_extra(
        capsys, "--rules", "yahtzee", "--card", json.dumps(full), "6", "6", "6", "6", "6"
    )
    assert result == {"legal": {}, "extra": 0}


def test_yahtzee_zero_keeps_the_joker_but_pays_no_bonus(capsys):
    card = json.dumps({"yahtzee": 0, "threes": 9})
    result = legal_and_extra(capsys, "--rules", "yahtzee", "--card", card, "3", "3", "3", "3", "3")
    assert result["extra"] == 0 and result["legal"]["full_house"] == 25 and "ones" not in result["legal"]
    free = legal_and_extra(
        capsys, "--rules", "yahtzee", "--joker", "free", "--card", '{"yahtzee": 0}', "3", "3", "3", "3", "3"
    )
    assert free["extra"] == 0 and free["legal"]["threes"] == 15 and free["legal"]["full_house"] == 0


def test_rules_lists_every_rule_set(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for title in ("Yahtzee (yahtzee", "Yatzy (yatzy)", "Maxi Yatzy (maxi", "Forced Yatzy (forced)"):
        assert title in out
    assert "filled strictly from top to bottom" in out


def test_rules_for_one_rule_set_with_options(capsys):
    assert main(["rules", "maxi", "--variant", "finnish"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Maxi Yatzy (maxi; variant=finnish)")
    assert "+50 when Ones to Sixes reach 75" in out and "saved" not in out
    assert "villa" in out and "two triples of different faces" in out
    assert main(["rules", "yahtzee", "--joker", "none"]) == 0
    assert "no joker" in capsys.readouterr().out


def test_rules_refuses_unknown_names(capsys):
    assert main(["rules", "poker"]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown rule set 'poker'" in err

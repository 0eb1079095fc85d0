"""Player statistics from finished-game results: wins shared on ties, bonus rate, Yatzy counts."""

from device.stats import five_alike_count, player_stats


def player(name, total, card=None, upper_bonus=0, extra=0):
    return {"name": name, "card": card or {}, "upper_bonus": upper_bonus, "extra": extra, "total": total}


def by_name(rows):
    return {row["name"]: row for row in rows}


def test_a_tie_gives_every_tied_player_a_win():
    rows = by_name(player_stats([{"players": [player("Ann", 200), player("Bo", 200), player("Cy", 150)]}]))
    assert [rows[name]["wins"] for name in ("Ann", "Bo", "Cy")] == [1, 1, 0]


def test_games_average_best_and_bonus_rate_across_games():
    results = [
        {"players": [player("Ann", 250, upper_bonus=50), player("Bo", 180)]},
        {"players": [player("Ann", 150), player("Bo", 181, upper_bonus=35)]},
        {"players": [player("Ann", 201, upper_bonus=50)]},
    ]
    ann = by_name(player_stats(results))["Ann"]
    assert ann == {
        "name": "Ann",
        "games": 3,
        "wins": 2,
        "average_total": 200.3,
        "best_total": 250,
        "upper_bonus_rate": 0.667,
        "yatzy_count": 0,
    }


def test_a_scratched_yatzy_box_is_not_a_yatzy_but_each_yahtzee_bonus_is():
    assert five_alike_count(player("Ann", 0, card={"yatzy": 0})) == 0
    assert five_alike_count(player("Ann", 0, card={"maxi_yatzy": 100})) == 1
    assert five_alike_count(player("Ann", 0, card={"yahtzee": 50}, extra=200)) == 3


def test_rows_come_sorted_by_name_whatever_the_case():
    results = [{"players": [player("bo", 1), player("Ann", 2), player("Cy", 3)]}]
    assert [row["name"] for row in player_stats(results)] == ["Ann", "bo", "Cy"]


def test_no_finished_games_means_no_rows():
    assert player_stats([]) == []

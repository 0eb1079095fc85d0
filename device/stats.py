"""Per-player statistics across finished games, computed from the results the store keeps for each one.

Pure functions over plain dicts, so the numbers can be checked without a database and the store stays about
storage. Players are matched by name exactly as typed at setup: the table has no accounts, and "Ann" at this
table last week is the same Ann.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.rules import YAHTZEE_BONUS

FIVE_ALIKE_BOXES = ("yatzy", "yahtzee", "maxi_yatzy")


def five_alike_count(player: Mapping[str, Any]) -> int:
    """How many times this player threw all dice alike and was paid for it in one game.

    The box counts once when it holds points (a scratched 0 is not a Yatzy); every Yahtzee bonus is a further
    five of a kind, so the bonus points count as YAHTZEE_BONUS each.
    """
    card = player["card"]
    in_box = sum(1 for box in FIVE_ALIKE_BOXES if card.get(box))
    return in_box + int(player.get("extra", 0)) // YAHTZEE_BONUS


@dataclass
class _Tally:
    """Running sums for one player while the results are read."""

    name: str
    games: int = 0
    wins: int = 0
    total_sum: int = 0
    best_total: int = 0
    bonuses: int = 0
    yatzy_count: int = 0

    def add(self, player: Mapping[str, Any], won: bool) -> None:
        total = int(player["total"])
        self.games += 1
        self.wins += won
        self.total_sum += total
        self.best_total = total if self.games == 1 else max(self.best_total, total)
        self.bonuses += bool(player["upper_bonus"])
        self.yatzy_count += five_alike_count(player)

    def row(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "average_total": round(self.total_sum / self.games, 1),
            "best_total": self.best_total,
            "upper_bonus_rate": round(self.bonuses / self.games, 3),
            "yatzy_count": self.yatzy_count,
        }


def player_stats(results: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per player name over the given finished-game results, sorted by name.

    Each result holds `players`: the snapshot players (name, card, upper_bonus, extra, total). Every player
    whose total equals the game's best total gets a win, so a tie shares the win rather than losing it.
    """
    tallies: dict[str, _Tally] = {}
    for result in results:
        players = result["players"]
        best = max(player["total"] for player in players)
        for player in players:
            tally = tallies.setdefault(player["name"], _Tally(player["name"]))
            tally.add(player, won=player["total"] == best)
    return [tallies[name].row() for name in sorted(tallies, key=str.casefold)]

"""The two pages anyone at the table may open: the scorecard and the game setup.

Both are thin HTML shells; the scorecard draws itself from `/api/state` and the live event stream, so one
rendering path serves the first paint, every update and every reconnect.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from flask import Blueprint, render_template

from scoring.game import MAX_NAME_LENGTH, MAX_PLAYERS
from scoring.rules import RULE_NAMES, get_rules
from web.context import table

bp = Blueprint("pages", __name__)


# What the setup page offers for each rule set. Option keys and values are the engine's own
# (see scoring.rules.get_rules); the first choice is the engine's default. tests/web checks they agree.
RULE_BLURBS = {
    "yahtzee": "Hasbro rules: 13 boxes, 35 bonus at 63, Yahtzee bonus +100.",
    "yatzy": "Scandinavian: 15 boxes with pairs, 50 bonus at 63.",
    "maxi": "Six dice, 20 boxes, saved rolls.",
    "forced": "Yatzy boxes filled strictly top to bottom.",
}
RULE_OPTIONS: dict[str, dict[str, dict[str, Any]]] = {
    "yahtzee": {
        "joker": {
            "label": "Joker rule",
            "choices": {"forced": "Forced joker (official)", "free": "Free joker", "none": "No joker"},
        }
    },
    "maxi": {
        "variant": {
            "label": "Variant",
            "choices": {
                "swedish": "Swedish: saved rolls, 100 bonus at 84",
                "finnish": "Finnish: no saved rolls, 50 bonus at 75",
            },
        }
    },
}


def rule_choices() -> list[dict[str, Any]]:
    """Every rule set with its title, a one-line description and its options, for the setup form."""
    return [
        {
            "name": name,
            "title": get_rules(name).title,
            "blurb": RULE_BLURBS[name],
            "options": RULE_OPTIONS.get(name, {}),
        }
        for name in RULE_NAMES
    ]


@bp.get("/")
def scorecard() -> str:
    return render_template("scorecard.html")


@bp.get("/setup")
def setup() -> str:
    return render_template(
        "setup.html",
        rules=rule_choices(),
        history=history_view(table().history()),
        snapshot=table().snapshot(),
        max_players=MAX_PLAYERS,
        max_name_length=MAX_NAME_LENGTH,
    )


def history_view(history: Mapping[str, Any]) -> dict[str, Any]:
    """The stored games as the setup page lists them (names joined, a readable date, the result line)."""
    return {
        "games": [_game_row(game) for game in history.get("games", [])],
        "players": list(history.get("players", [])),
    }


def _game_row(game: Mapping[str, Any]) -> dict[str, Any]:
    totals = game.get("totals") or {}
    standings = sorted(totals.items(), key=lambda item: -item[1])
    return {
        "game_id": game["id"],
        "players": list(game.get("players", [])),
        "rules_title": _rules_title(game.get("rules", "")),
        "when": _when(game.get("updated")),
        "finished": bool(game.get("finished")),
        "result": " · ".join(f"{name} {points}" for name, points in standings),
    }


def _rules_title(name: str) -> str:
    try:
        return get_rules(name).title
    except ValueError:
        return name


def _when(timestamp: Any) -> str:
    if not isinstance(timestamp, int | float):
        return ""
    return datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")

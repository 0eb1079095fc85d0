"""One game at the table: players, turns, rolls, holds, scoring, undo and a human-readable log.

The game is a pure state machine in the sans-I/O style: it is fed plain JSON-able command dicts through
`apply` and never reads a clock, a file or a camera. Every command either changes the state and adds
log lines, or raises and changes nothing: `MalformedCommand` when the command does not fit the schema
(a client bug), `IllegalMove` when the rules refuse it (a message for the players). Because every applied
command is kept in `commands`, `Game.from_commands(game.setup, game.commands)` rebuilds the same game,
which is how the store survives a power cut.

Undo keeps the state as it was before each command still in effect, so stepping back is exact and cheap
however long the game has run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.rules import RuleSet, get_rules

MAX_PLAYERS = 8
MAX_NAME_LENGTH = 24  # characters: what a scorecard column and the setup page's name field show

# Command type -> (required fields, optional fields), besides "type".
COMMAND_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "roll": (frozenset({"values"}), frozenset({"held"})),
    "hold": (frozenset({"dice"}), frozenset()),
    "toggle_hold": (frozenset({"die"}), frozenset()),
    "correct": (frozenset({"values"}), frozenset()),
    "score": (frozenset({"box"}), frozenset()),
    "undo": (frozenset(), frozenset()),
}


class IllegalMove(Exception):
    """The rules refuse this command now; the message is meant for the players."""


class MalformedCommand(ValueError):
    """The command does not fit the schema at all (unknown type or field, wrong types)."""


@dataclass
class _State:
    """Everything that undo must restore. `dice` is empty until the current player's first roll."""

    cards: list[dict[str, int]]
    extras: list[int]
    saved: list[int]
    current: int
    dice: tuple[int, ...] = ()
    held: tuple[int, ...] = ()
    rolls_used: int = 0

    def copy(self) -> _State:
        return _State(
            [dict(card) for card in self.cards],
            list(self.extras),
            list(self.saved),
            self.current,
            self.dice,
            self.held,
            self.rolls_used,
        )


def check_players(players: object) -> list[str]:
    """The players' names, stripped, or a ValueError whose message a player can act on.

    A game has 1 to `MAX_PLAYERS` players, each with a name of at most `MAX_NAME_LENGTH` characters (what a
    scorecard column shows) that can be told from the others' ignoring case: "Ann" and "ann " are one name
    to the players reading the card.
    """
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ValueError("players must be a list of names")
    if any(not isinstance(player, str) or not player.strip() for player in players):
        raise ValueError("every player needs a name")
    names = [player.strip() for player in players]
    if not 1 <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"a game needs 1 to {MAX_PLAYERS} players, got {len(names)}")
    too_long = next((name for name in names if len(name) > MAX_NAME_LENGTH), None)
    if too_long is not None:
        raise ValueError(f"a name has at most {MAX_NAME_LENGTH} characters: {too_long[:MAX_NAME_LENGTH]}…")
    seen: dict[str, str] = {}
    for name in names:
        if name.casefold() in seen:
            raise ValueError(f"two players are called {seen[name.casefold()]}: give them different names")
        seen[name.casefold()] = name
    return names


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Game:
    """A game of one rule set for 1 to 8 players in seating order."""

    def __init__(self, players: Sequence[str], rules: str, options: Mapping[str, Any] | None = None) -> None:
        self.rules: RuleSet = get_rules(rules, options)
        self.players = check_players(players)
        self.setup = {"players": list(self.players), "rules": rules, "options": dict(self.rules.options)}
        self.commands: list[dict[str, Any]] = []
        self.log = [f"New game of {self.rules.title}: {', '.join(self.players)}"]
        count = len(self.players)
        self._state = _State([{} for _ in range(count)], [0] * count, [0] * count, 0)
        # For every command still in effect: the state before it and its first log line.
        self._undoable: list[tuple[_State, str]] = []

    @classmethod
    def from_commands(cls, setup: Mapping[str, Any], commands: Sequence[Mapping[str, Any]]) -> Game:
        """Replay stored commands; the result equals the live game they were recorded from."""
        if not isinstance(setup, Mapping) or not {"players", "rules"} <= set(setup):
            raise ValueError("a game setup needs players and rules")
        game = cls(setup["players"], setup["rules"], setup.get("options"))
        for command in commands:
            game.apply(command)
        return game

    # --- commands -----------------------------------------------------------------------------
    def apply(self, command: Mapping[str, Any]) -> str:
        """Apply one command and return its log line; raise (changing nothing) if it is refused."""
        clean = self._parse(command)
        if clean["type"] == "undo":
            lines = [self._undo()]
        else:
            state = self._state.copy()
            lines = getattr(self, f"_{clean['type']}")(state, clean)
            self._undoable.append((self._state, lines[0]))
            self._state = state
            if self.finished:
                lines.append(self._game_over_line())
        self.commands.append(clean)
        self.log.extend(lines)
        return lines[0]

    def roll(self, values: Sequence[int], held: Sequence[int] | None = None) -> str:
        command: dict[str, Any] = {"type": "roll", "values": list(values)}
        if held is not None:
            command["held"] = list(held)
        return self.apply(command)

    def hold(self, dice: Sequence[int]) -> str:
        return self.apply({"type": "hold", "dice": list(dice)})

    def toggle_hold(self, die: int) -> str:
        return self.apply({"type": "toggle_hold", "die": die})

    def correct(self, values: Sequence[int]) -> str:
        return self.apply({"type": "correct", "values": list(values)})

    def score(self, box: str) -> str:
        return self.apply({"type": "score", "box": box})

    def undo(self) -> str:
        return self.apply({"type": "undo"})

    # --- reading the state --------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self._is_finished(self._state)

    @property
    def current_player(self) -> str | None:
        return None if self.finished else self.players[self._state.current]

    @property
    def last_event(self) -> str:
        return self.log[-1]

    def rolls_allowed(self) -> int:
        """Rolls the current player has this turn: 3, plus saved rolls under Swedish Maxi rules."""
        return self._rolls_allowed(self._state)

    def preview(self) -> dict[str, dict[str, Any]]:
        """For the current dice: every open box with its points and whether the rules allow it now."""
        state = self._state
        if not state.dice or self.finished:
            return {}
        card = state.cards[state.current]
        legal = self.rules.legal_boxes(card, state.dice)
        return {
            box: {"points": legal.get(box, self.rules.box_score(box, state.dice)), "allowed": box in legal}
            for box in self.rules.open_boxes(card)
        }

    def total(self, player: int) -> int:
        return self.rules.total(self._state.cards[player], self._state.extras[player])

    def ranking(self) -> list[dict[str, Any]]:
        """Players by total, best first; equal totals share a place (1, 1, 3)."""
        totals = [(name, self.total(index)) for index, name in enumerate(self.players)]
        ordered = sorted(totals, key=lambda entry: -entry[1])
        return [
            {"name": name, "total": total, "place": 1 + sum(other > total for _, other in totals)}
            for name, total in ordered
        ]

    def snapshot(self) -> dict[str, Any]:
        """Everything a scorecard shows, as plain JSON-able data."""
        rules, state = self.rules, self._state
        finished = self.finished
        return {
            "rules": rules.name,
            "title": rules.title,
            "options": dict(rules.options),
            "dice_count": rules.dice_count,
            "boxes": [self._box_snapshot(box) for box in rules.boxes],
            "bonus_threshold": rules.bonus_threshold,
            "bonus_points": rules.bonus_points,
            "players": [self._player_snapshot(index) for index in range(len(self.players))],
            "current_player": None if finished else state.current,
            "current_name": self.current_player,
            "round": len(rules.boxes) if finished else len(state.cards[state.current]) + 1,
            "dice": list(state.dice),
            "held": list(state.held),
            "rolls_used": state.rolls_used,
            "rolls_allowed": 0 if finished else self.rolls_allowed(),
            "rolls_left": 0 if finished else self.rolls_allowed() - state.rolls_used,
            "preview": self.preview(),
            "finished": finished,
            "ranking": self.ranking(),
            "log": list(self.log),
            "last_event": self.last_event,
        }

    # --- command handlers (each works on a copy of the state and returns its log lines) --------
    def _roll(self, state: _State, command: Mapping[str, Any]) -> list[str]:
        name = self._require_turn(state)
        if state.rolls_used >= self._rolls_allowed(state):
            raise IllegalMove(f"{name} has no rolls left this turn")
        values = self._check_count(command["values"])
        state.held = self._place_held(state, values, command.get("held"))
        state.dice = values
        state.rolls_used += 1
        return [f"{name} rolled {_faces(values)}"]

    def _hold(self, state: _State, command: Mapping[str, Any]) -> list[str]:
        name = self._require_dice(state)
        state.held = tuple(sorted(command["dice"]))
        return [self._held_line(name, state)]

    def _toggle_hold(self, state: _State, command: Mapping[str, Any]) -> list[str]:
        name = self._require_dice(state)
        state.held = tuple(sorted(set(state.held) ^ {command["die"]}))
        return [self._held_line(name, state)]

    def _correct(self, state: _State, command: Mapping[str, Any]) -> list[str]:
        name = self._require_dice(state)
        values = self._check_count(command["values"])
        kept = [index for index in state.held if values[index] == state.dice[index]]
        moved = [state.dice[index] for index in state.held if index not in kept]
        state.held = tuple(sorted(kept + _positions_of(moved, values, taken=kept)))
        state.dice = values
        return [f"{name} corrected the dice to {_faces(values)}"]

    def _score(self, state: _State, command: Mapping[str, Any]) -> list[str]:
        name = self._require_dice(state)
        box, player = command["box"], state.current
        card = state.cards[player]
        refusal = self.rules.refusal(card, state.dice, box)
        if refusal:
            raise IllegalMove(refusal)
        points = self.rules.legal_boxes(card, state.dice)[box]
        extra = self.rules.extra_points(card, state.dice)
        if self.rules.saved_rolls:
            state.saved[player] = self._rolls_allowed(state) - state.rolls_used
        card[box] = points
        state.extras[player] += extra
        state.current = (player + 1) % len(self.players)
        state.dice, state.held, state.rolls_used = (), (), 0
        line = f"{name} scored {points} in {self.rules.label(box)}"
        return [line + (f" and a Yahtzee bonus of {extra}" if extra else "")]

    def _undo(self) -> str:
        if not self._undoable:
            raise IllegalMove("nothing to undo")
        self._state, line = self._undoable.pop()
        return f"{self.players[self._state.current]} undid: {line}"

    # --- checks -------------------------------------------------------------------------------
    def _is_finished(self, state: _State) -> bool:
        return all(len(card) == len(self.rules.boxes) for card in state.cards)

    def _rolls_allowed(self, state: _State) -> int:
        return self.rules.rolls_per_turn + state.saved[state.current]

    def _require_turn(self, state: _State) -> str:
        if self._is_finished(state):
            raise IllegalMove("the game is over")
        return self.players[state.current]

    def _require_dice(self, state: _State) -> str:
        name = self._require_turn(state)
        if not state.dice:
            raise IllegalMove(f"{name} has not rolled yet")
        return name

    def _check_count(self, values: Sequence[int]) -> tuple[int, ...]:
        try:
            return self.rules.check_dice(values)
        except ValueError as error:
            raise IllegalMove(str(error)) from None

    def _place_held(
        self, state: _State, values: tuple[int, ...], positions: Sequence[int] | None
    ) -> tuple[int, ...]:
        """Where the held dice are in a new roll: the given positions (checked) or the first matching ones."""
        held_values = [state.dice[index] for index in state.held]
        if positions is None:
            return tuple(sorted(_positions_of(held_values, values, taken=[])))
        if len(positions) != len(held_values):
            raise IllegalMove(f"held dice: {len(held_values)}, marked as held in the roll: {len(positions)}")
        missing = _missing(held_values, [values[index] for index in positions])
        if missing is not None:
            raise IllegalMove(f"a held {missing} is missing")
        return tuple(sorted(positions))

    def _parse(self, command: object) -> dict[str, Any]:
        """A clean copy of the command, or MalformedCommand saying what does not fit the schema."""
        if not isinstance(command, Mapping):
            raise MalformedCommand("a command is a JSON object")
        kind = command.get("type")
        if kind not in COMMAND_FIELDS:
            raise MalformedCommand(f"unknown command type {kind!r}")
        required, optional = COMMAND_FIELDS[kind]
        # An optional field sent as null (JSON clients do that) counts as absent.
        given = {key for key, value in command.items() if not (key in optional and value is None)} - {"type"}
        if required - given:
            raise MalformedCommand(f"a {kind} command needs {', '.join(sorted(required - given))}")
        unknown = sorted(given - required - optional, key=str)
        if unknown:
            raise MalformedCommand(f"a {kind} command has no field {unknown[0]!r}")
        clean: dict[str, Any] = {"type": kind}
        for key in sorted(given):
            clean[key] = self._parse_field(key, command[key])
        return clean

    def _parse_field(self, key: str, value: object) -> Any:
        if key == "box":
            if not isinstance(value, str) or value not in self.rules.boxes:
                raise MalformedCommand(f"{self.rules.title} has no box {value!r}")
            return value
        if key == "die":
            return self._parse_index(value)
        if not isinstance(value, list | tuple) or not all(_is_int(item) for item in value):
            raise MalformedCommand(f"{key} must be a list of whole numbers")
        if key == "values":
            if any(not 1 <= item <= 6 for item in value):
                raise MalformedCommand("die values are 1 to 6")
            return list(value)
        if len(set(value)) != len(value):
            raise MalformedCommand(f"{key} names a die twice")
        return [self._parse_index(item) for item in value]

    def _parse_index(self, value: object) -> int:
        if not _is_int(value) or not 0 <= value < self.rules.dice_count:
            raise MalformedCommand(f"a die position is 0 to {self.rules.dice_count - 1}, not {value!r}")
        return value

    # --- text ---------------------------------------------------------------------------------
    def _held_line(self, name: str, state: _State) -> str:
        held = [state.dice[index] for index in state.held]
        return f"{name} held {_faces(held) if held else 'nothing'}"

    def _game_over_line(self) -> str:
        ranking = self.ranking()
        winners = [entry["name"] for entry in ranking if entry["place"] == 1]
        best = ranking[0]["total"]
        if len(winners) == 1:
            return f"Game over: {winners[0]} wins with {best}"
        return f"Game over: {' and '.join(winners)} share first place with {best}"

    def _box_snapshot(self, box: str) -> dict[str, Any]:
        return {"key": box, "label": self.rules.label(box), "upper": box in self.rules.upper_boxes}

    def _player_snapshot(self, index: int) -> dict[str, Any]:
        card, rules = self._state.cards[index], self.rules
        return {
            "name": self.players[index],
            "card": {box: card[box] for box in rules.boxes if box in card},
            "upper_subtotal": rules.upper_subtotal(card),
            "upper_bonus": rules.upper_bonus(card),
            "bonus_to_go": rules.bonus_to_go(card),
            "extra": self._state.extras[index],
            "total": self.total(index),
            "saved_rolls": self._state.saved[index],
        }


def _faces(values: Sequence[int]) -> str:
    return " ".join(str(value) for value in values)


def _positions_of(wanted: Sequence[int], values: Sequence[int], taken: Sequence[int]) -> list[int]:
    """The first free position in `values` for each wanted face; IllegalMove if one is missing."""
    used = set(taken)
    positions = []
    for face in wanted:
        position = next((i for i, value in enumerate(values) if value == face and i not in used), None)
        if position is None:
            raise IllegalMove(f"a held {face} is missing")
        used.add(position)
        positions.append(position)
    return positions


def _missing(wanted: Sequence[int], present: Sequence[int]) -> int | None:
    """A face in `wanted` that `present` lacks (counting repeats), or None."""
    remaining = list(present)
    for face in sorted(wanted):
        if face not in remaining:
            return face
        remaining.remove(face)
    return None

"""Roll watching: turns a stream of per-frame readings into a few meaningful events.

The reader looks at one frame at a time and will happily read a die in mid-air. The game wants something
else: "the dice have come to rest and show 3 3 5 6 1", once per throw. `RollWatcher` is a small state
machine (no threads, no clock of its own: the caller passes `now`) fed one `Reading` per frame.

The rules, in the order they are applied:

* Two readings *agree* when they hold the same number of dice and every die of one has a die of the other
  with the same value whose centre is within `position_tolerance` die sides. The tolerance is relative to the
  die size, so it means the same at every resolution.
* A reading is *unsteady* when it cannot stand for dice at rest: it has a `problem` (blank frame, no dice
  found), any unreadable region (a cocked, blurred or covered die, a hand), or no dice at all.
* A *still run* is a stretch of frames that agree with the run's first steady frame. One odd frame inside a
  run (a reader glitch, a shadow flicking by) is forgiven but counted as a disagreement; two odd frames in a
  row end the run.
* The dice are *at rest* when a run has lasted `still_seconds`, holds at least `min_frames` agreeing frames,
  and at least `min_agreement` (3 in 4) of its frames agreed. Lucky frames in the middle of a throw, or a
  reader flipping between two readings, can never settle anything.
* When a run ends the tray is *moving*: `DiceMoving()` is emitted once, at that moment, unless the watcher
  already reported motion since the last rest. It says "something is happening", and it may be followed by
  nothing if the dice come back to rest exactly as they were (a hand passed over the tray).
* Once dice are at rest, a steady frame with the same dice in the same places but another face on some die is
  a misread, not motion (a die cannot turn over without moving): it ends nothing and reports nothing. A reader
  flickering on one borderline pip would otherwise report motion and a nudge, again and again, at an idle
  table (every report is a new snapshot for the tablets and a beep).
* When the dice come to rest showing what was last reported, nothing is emitted: still dice are reported once.
* A view that holds an unreadable region never settles, but when it lies still for `ask_seconds` (the same
  dice in the same places, and the same regions in the same places, one odd frame forgiven) the players are
  asked, once: `DiceUnreadable`. A die tipped against the tray's wall or another die reads as a region for as
  long as it lies there, and without the question the table would wait for a roll that never settles, with
  nothing to say why. Frames of that view are no disturbance once it has been asked about; the same view is
  not asked about again until dice have been at rest in between. The wait is longer than `still_seconds`:
  dice in motion blur into regions, though seldom into ones that stay put for a second and a half.
* When they come to rest showing something new, exactly one event is emitted:
  - `DiceChanged` for a *nudge*: there was an earlier report, the disturbance lasted less than
    `min_roll_seconds` (from the first odd frame to the start of the new run), and more than half of the dice
    stayed put with the same face. A die knocked over or pushed aside is a correction, not a throw.
  - `DiceSettled` otherwise: the first dice seen, a disturbance long enough to be a throw, or most dice new.

The confidence reported combines the reader's per-frame confidence with how well the frames agreed: the median
frame confidence of the agreeing frames, with its doubt shrunk by the square root of their number (a reading
that holds over many frames is no glimpse of dice still moving), times the share of the run's frames that
agreed. So a longer, cleaner run reports more confidence than a short or flickering one. But agreement never
lifts a reading the frames ask about (median under `ASK_BELOW`) over that line: frames of dice at rest are no
independent looks at a doubtful die, as its pips fall on the same pixels in every frame, and the camera's
stream reads the mean of those frames (`vision.stream`). Were its doubt shrunk too, ten agreeing frames of any
reading would report 0.68 or more, and the game would never warn about a roll. Measured on photos read as a
camera stream (every 2nd photo, 30 frames with noise of 4 levels, each roll settled after ten agreeing
frames): of nell-byler's 88 rolls, the frames asked about 43, and 14 of those were read wrong, against 2 of
the other 45; of matteop65's 193, they asked about 8, 1 of them read wrong, against 1 of the other 185.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from vision.reading import ASK_BELOW, Die, Reading, Region


@dataclass(frozen=True)
class DiceMoving:
    """The tray is disturbed: dice rolling, a hand in view, or dice being picked up."""


@dataclass(frozen=True)
class DiceSettled:
    """A throw came to rest. `values` and `positions` (pixel centres) are left to right."""

    values: list[int]
    positions: list[tuple[float, float]]
    confidence: float


@dataclass(frozen=True)
class DiceChanged:
    """Dice at rest changed without a throw (a nudge): the game may correct the hand, not count a roll."""

    values: list[int]
    positions: list[tuple[float, float]]
    confidence: float


@dataclass(frozen=True)
class DiceUnreadable:
    """The tray lies still, but something on it that looks like a die cannot be read (a die tipped against the
    wall or another die, a covered one): the players should straighten it or enter the dice by hand. `values`
    and `positions` are the dice that can be read, `regions` the centres of what cannot."""

    values: list[int]
    positions: list[tuple[float, float]]
    regions: list[tuple[float, float]]


Event = DiceMoving | DiceSettled | DiceChanged | DiceUnreadable


@dataclass
class _Run:
    """Frames that agree with `reference`, with one odd frame forgiven at a time."""

    reference: Reading
    started: float
    agreeing: list[Reading] = field(default_factory=list)
    total: int = 0
    odd_since: float | None = None  # time of the forgiven odd frame just seen, if the last frame was odd
    at_rest: bool = False  # this run has already been judged as dice at rest


@dataclass
class _Unclear:
    """A view with unreadable regions that has looked alike since `started`, one odd frame forgiven."""

    reference: Reading
    started: float
    odd: bool = False  # the last frame was odd
    asked: bool = False  # the players were asked about this view (or one alike it)


class RollWatcher:
    """Feed it every reading with its time; it returns the events that reading caused (usually none)."""

    def __init__(
        self,
        still_seconds: float = 0.3,
        min_frames: int = 3,
        position_tolerance: float = 0.35,
        min_roll_seconds: float = 0.6,
        min_agreement: float = 0.75,
        ask_seconds: float = 1.5,
    ) -> None:
        if min(still_seconds, min_roll_seconds, ask_seconds) < 0 or min_frames < 1 or position_tolerance <= 0:
            raise ValueError(
                "still_seconds, min_roll_seconds, ask_seconds >= 0; min_frames >= 1; position_tolerance > 0"
            )
        if not 0 < min_agreement <= 1:
            raise ValueError("min_agreement must be a share in (0, 1]")
        self.still_seconds = still_seconds
        self.min_frames = min_frames
        self.position_tolerance = position_tolerance
        self.min_roll_seconds = min_roll_seconds
        self.min_agreement = min_agreement
        self.ask_seconds = ask_seconds
        self._run: _Run | None = None
        self._unclear: _Unclear | None = None  # the still view with unreadable regions being watched
        self._asked: Reading | None = None  # the view last asked about, until dice are next at rest
        self._previous: tuple[Reading, float] | None = None  # the last frame, to start a run from an odd pair
        self._reported: Reading | None = None  # the dice last reported at rest
        self._moving = False
        self._disturbed_at: float | None = None  # first odd frame since the last rest

    @property
    def moving(self) -> bool:
        """True from a reported disturbance until the dice are next at rest, or until a still view with
        something unreadable in it is asked about (`DiceUnreadable`)."""
        return self._moving

    def update(self, reading: Reading, now: float) -> list[Event]:
        """Take the reading of the frame captured at `now` (seconds, any monotonic clock)."""
        events, asked = self._watch_unclear(reading, now)
        steady = self._steady(reading)
        run = self._run
        if run is not None and steady and self.agree(run.reference, reading):
            run.agreeing.append(reading)
            run.total += 1
            run.odd_since = None
        elif run is not None and run.at_rest and steady and self._in_place(run.reference, reading):
            run.total += 1  # a face misread on dice lying where they lay: no motion, nothing to report
            run.odd_since = None
        elif run is not None and run.odd_since is None:
            run.total += 1
            run.odd_since = now
        else:
            if (run is not None or not steady) and not asked:
                events += self._disturbed(run.odd_since if run is not None else now)
            self._run = self._new_run(reading, now) if steady else None
        self._previous = (reading, now)
        return events + self._check_rest()

    def agree(self, first: Reading, second: Reading) -> bool:
        """Same dice, same faces, same places (within the die-size-relative tolerance)."""
        return len(first.dice) == len(second.dice) == self._stayed_put(first, second)

    @staticmethod
    def _steady(reading: Reading) -> bool:
        return reading.problem is None and not reading.unreadable and bool(reading.dice)

    def _watch_unclear(self, reading: Reading, now: float) -> tuple[list[Event], bool]:
        """Follow the still view with unreadable regions: (`DiceUnreadable` once it has lain still for
        `ask_seconds`, unless asked about already; whether `reading` belongs to a view asked about).

        Once asked, the view is no longer motion: whoever showed "dice moving" learns it is over even when
        the same view, back after a flicker, is not asked about again."""
        view = self._unclear
        unclear = reading.problem is None and bool(reading.unreadable)
        if view is not None and unclear and self._looks_alike(view.reference, reading):
            view.odd = False
            if view.asked or now - view.started < self.ask_seconds:
                return [], view.asked
            view.asked, self._moving = True, False
            if self._asked is not None and self._looks_alike(self._asked, reading):
                return [], True  # the same view again after a flicker: asked once is enough
            self._asked = reading
            regions = [region.center for region in reading.unreadable]
            return [DiceUnreadable(reading.values, [die.center for die in reading.dice], regions)], True
        if view is not None and not view.odd:
            view.odd = True  # the reader may read the tipped die in one frame, or lose a region
            return [], view.asked
        self._unclear = _Unclear(reading, now) if unclear else None
        return [], False

    def _looks_alike(self, first: Reading, second: Reading) -> bool:
        """The same dice in the same places (whatever their faces) and the same regions in the same places."""
        return (
            len(first.unreadable) == len(second.unreadable)
            and self._in_place(first, second)
            and self._matched(first.unreadable, second.unreadable, same_face=False) == len(first.unreadable)
        )

    def _disturbed(self, since: float) -> list[Event]:
        if self._disturbed_at is None:
            self._disturbed_at = since
        if self._moving:
            return []
        self._moving = True
        return [DiceMoving()]

    def _new_run(self, reading: Reading, now: float) -> _Run:
        """Start a run at this frame, or at the previous one when the two agree (the odd pair was a rest)."""
        previous = self._previous
        if previous is not None and self._steady(previous[0]) and self.agree(previous[0], reading):
            return _Run(reference=previous[0], started=previous[1], agreeing=[previous[0], reading], total=2)
        return _Run(reference=reading, started=now, agreeing=[reading], total=1)

    def _check_rest(self) -> list[Event]:
        run = self._run
        if run is None or run.at_rest or run.odd_since is not None:
            return []
        last_time = self._previous[1] if self._previous is not None else run.started
        if last_time - run.started < self.still_seconds or len(run.agreeing) < self.min_frames:
            return []
        if len(run.agreeing) < self.min_agreement * run.total:
            return []
        run.at_rest = True
        self._moving, self._asked = False, None
        disturbed_at, self._disturbed_at = self._disturbed_at, None
        latest = run.agreeing[-1]
        before, self._reported = self._reported, latest
        if before is not None and self.agree(before, latest):
            return []
        values = latest.values
        positions = [die.center for die in latest.dice]
        confidence = self._confidence(run)
        disturbance = run.started - disturbed_at if disturbed_at is not None else 0.0
        if before is not None and self._is_nudge(before, latest, disturbance):
            return [DiceChanged(values, positions, confidence)]
        return [DiceSettled(values, positions, confidence)]

    def _is_nudge(self, before: Reading, after: Reading, disturbance: float) -> bool:
        most_stayed = 2 * self._stayed_put(before, after) > max(len(before.dice), len(after.dice))
        return disturbance < self.min_roll_seconds and most_stayed

    def _in_place(self, first: Reading, second: Reading) -> bool:
        """Same number of dice, each within the tolerance of a die of the other, whatever the faces."""
        return len(first.dice) == len(second.dice) == self._matched(first.dice, second.dice, same_face=False)

    def _stayed_put(self, first: Reading, second: Reading) -> int:
        """How many dice of `first` have a die in `second` with the same face, close enough to be the same."""
        return self._matched(first.dice, second.dice, same_face=True)

    def _matched(self, first: Sequence[Die | Region], second: Sequence[Die | Region], same_face: bool) -> int:
        """How many dice (or regions) of `first` pair off with those of `second` within the position
        tolerance, each with the nearest one still free (and, if `same_face`, dice showing the same face)."""
        unmatched = list(second)
        matched = 0
        for die in first:
            reach = self.position_tolerance * max(die.size, 1.0)
            candidates = [
                other
                for other in unmatched
                if (not same_face or other.value == die.value)
                and math.dist(other.center, die.center) <= reach
            ]
            if candidates:
                unmatched.remove(min(candidates, key=lambda other: math.dist(other.center, die.center)))
                matched += 1
        return matched

    def _confidence(self, run: _Run) -> float:
        """The run's median frame confidence, raised by the agreement of its frames unless under
        `ASK_BELOW` (see the module docstring), times the share of its frames that agreed."""
        per_frame = statistics.median(reading.confidence for reading in run.agreeing)
        doubt = (1.0 - per_frame) / math.sqrt(len(run.agreeing))
        raised = per_frame if per_frame < ASK_BELOW else 1.0 - doubt
        agreement = len(run.agreeing) / run.total
        return round(max(0.0, min(1.0, raised * agreement)), 4)

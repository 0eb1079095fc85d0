"""What the dice reader returns: plain, immutable values that the roll watcher and the session consume."""

from __future__ import annotations

from dataclasses import dataclass, field

# A die read with less confidence than this is marked on the tablet for the players to check, and a settled
# roll read so gets the warning line (`device.session`): the game asks, as it does about anything in view the
# reader cannot read, rather than score it unasked.
ASK_BELOW = 0.6


@dataclass(frozen=True)
class Die:
    """One readable die. Coordinates are pixels of the frame that was read."""

    value: int  # 1..6, the top face
    center: tuple[float, float]  # (x, y)
    size: float  # side length of the top face
    angle: float  # degrees, 0..90
    confidence: float  # 0..1


@dataclass(frozen=True)
class Region:
    """Something that looks like a die but cannot be read (cocked, blurred, occluded, cut by the edge)."""

    center: tuple[float, float]
    size: float
    reason: str


@dataclass(frozen=True)
class Reading:
    """Every die in one frame, ordered left to right (by centre x) so that hold button i is the i-th die."""

    dice: tuple[Die, ...] = ()
    unreadable: tuple[Region, ...] = ()
    frame_size: tuple[int, int] = (0, 0)  # (width, height)
    problem: str | None = None  # a frame that could not be read at all says why here
    # Reader diagnostics, for the admin view; calibration takes the die size from "die_px" (`vision.reader`)
    extras: dict = field(default_factory=dict, compare=False)

    @property
    def values(self) -> list[int]:
        return [die.value for die in self.dice]

    @property
    def confidence(self) -> float:
        """The weakest die decides: one doubtful die makes the whole hand doubtful."""
        if not self.dice:
            return 0.0
        return min(die.confidence for die in self.dice)

    @property
    def asks(self) -> bool:
        """Whether the players are asked about this reading rather than given it as read: something in view
        cannot be read, no die was read (nothing to score), or the weakest die is below `ASK_BELOW`. A wrong
        reading that does not ask is the costly kind: a score the players are not warned about."""
        return bool(self.unreadable) or self.confidence < ASK_BELOW

"""A simulated dice tray: rendered camera frames for demos and for tests of the code around the reader.

It draws what a camera above a tray would see (felt floor, a wooden rim, white dice with black pips at
random places and angles, rounded corners, soft shadows, uneven light, sensor noise) and can roll the dice
that are not held, showing a few frames of motion (a hand, then blurred tumbling dice) before they settle,
so the roll watcher sees a real move -> settle sequence.

It is never evidence of the reader's accuracy: the dice here are idealised and drawn by the same people
who write the reader. Accuracy is measured on real photos only.

Speed matters because the simulated appliance reads every frame: the background (felt, rim, light) is
rendered once, and each frame only draws the dice, one small blurred shadow mask and pre-made noise.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.sources import FrameSource

_FELT_BGR = (58, 96, 40)
_RIM_BGR = (52, 92, 140)
_SKIN_BGR = (120, 150, 205)
_SUBPIXEL_BITS = 4  # cv2 drawing with 1/16 pixel precision keeps small pips round
_SUBPIXEL = 1 << _SUBPIXEL_BITS
_PIP_SPOTS = {  # pip centres in units of the die's half side, x to the right, y down
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
_PIP_SPREAD = 0.52  # pips sit at about half of the half side from the centre
_PIP_RADIUS = 0.1  # of the die side
_CORNER_RADIUS = 0.16  # of the die side
_SHADOW_OFFSET = (0.1, 0.14)  # of the die side: light comes from the upper left
_NOISE_SIGMA = 3.0
_NOISE_PAD = 24


@dataclass(frozen=True)
class SimDie:
    """Ground truth for one simulated die, in pixels of the rendered frame."""

    value: int
    center: tuple[float, float]
    angle: float  # degrees, 0..90 (a square looks the same every quarter turn)


class SimulatedTray(FrameSource):
    """A `FrameSource` that renders a tray of dice and can roll them.

    `die_size` is the die side as a fraction of the frame's shorter side, like the calibration profile.
    `dice_colour` and `pip_colour` (BGR) allow dark dice with light pips. `seed` makes a run repeatable.
    """

    def __init__(
        self,
        width: int = 640,
        height: int = 480,
        dice_count: int = 5,
        seed: int | None = None,
        die_size: float = 0.09,
        dice_colour: tuple[int, int, int] = (236, 238, 240),
        pip_colour: tuple[int, int, int] = (25, 22, 20),
        moving_frames: int = 4,
    ) -> None:
        super().__init__()
        if not 1 <= dice_count <= 6:
            raise ValueError("a simulated tray holds 1 to 6 dice")
        if width < 64 or height < 64:
            raise ValueError("a simulated frame must be at least 64x64 pixels")
        self.width, self.height = int(width), int(height)
        self.dice_count = dice_count
        self.die_px = die_size * min(self.width, self.height)
        self.dice_colour = dice_colour
        self.pip_colour = pip_colour
        self.moving_frames = moving_frames
        self.name = f"simulated tray {self.width}x{self.height}"
        self._rng = np.random.default_rng(seed)
        rim = int(round(0.06 * min(self.width, self.height)))
        self._floor = (rim, rim, self.width - rim, self.height - rim)  # x0, y0, x1, y1 in pixels
        self._background = self._render_background(rim)
        self._light = self._render_light()
        self._noise_up, self._noise_down = self._render_noise()
        self._unit_outline = _rounded_square(_CORNER_RADIUS)
        self._dice: list[SimDie] = []
        self._pending_motion = 0
        self._rolled: set[int] = set()  # indices into self._dice that are still tumbling
        self.roll()
        self._pending_motion = 0  # the first layout is simply there, not rolled in

    # -- the FrameSource interface -------------------------------------------------------------------

    def _open(self) -> None:
        """Nothing to acquire: the tray exists as soon as it is made."""

    def _grab(self) -> np.ndarray:
        if self._pending_motion > 0:
            step = self.moving_frames - self._pending_motion
            self._pending_motion -= 1
            return self._render_motion(step)
        return self._render(self._dice)

    # -- what a test or demo controls -----------------------------------------------------------------

    @property
    def values(self) -> list[int]:
        """Face values left to right, the order a `Reading` lists dice in."""
        return [die.value for die in self.dice]

    @property
    def dice(self) -> tuple[SimDie, ...]:
        """The dice at rest, left to right (by centre x)."""
        return tuple(sorted(self._dice, key=lambda die: die.center[0]))

    @property
    def tray(self) -> tuple[float, float, float, float]:
        """The felt floor inside the rim as fractions (x0, y0, x1, y1), like a profile's tray."""
        x0, y0, x1, y1 = self._floor
        return (x0 / self.width, y0 / self.height, x1 / self.width, y1 / self.height)

    @property
    def moving(self) -> bool:
        """True while the next read() will still show the dice in motion."""
        return self._pending_motion > 0

    def roll(self, held: Iterable[int] = ()) -> list[int]:
        """Throw every die not in `held` (positions in the current left-to-right order).

        Held dice keep their value and their place; the others get a new value, place and angle. The
        next `moving_frames` reads show the throw in progress. Returns the new values, left to right.
        """
        current = list(self.dice)
        keep = set(held)
        bad = [i for i in keep if not isinstance(i, int) or not 0 <= i < len(current)]
        if bad:
            raise ValueError(f"held positions must be 0..{len(current) - 1}, got {sorted(map(str, bad))}")
        kept = [current[i] for i in sorted(keep)]
        placed = list(kept)
        for _ in range(self.dice_count - len(kept)):
            center = self._free_spot([die.center for die in placed])
            placed.append(SimDie(int(self._rng.integers(1, 7)), center, float(self._rng.uniform(0, 90))))
        self._dice = placed
        self._rolled = set(range(len(kept), len(placed)))
        self._pending_motion = self.moving_frames
        return self.values

    def set_values(self, values: Sequence[int]) -> None:
        """Show exactly these faces, left to right, keeping the dice where they are (tests and demos)."""
        if len(values) != self.dice_count:
            raise ValueError(f"expected {self.dice_count} values, got {len(values)}")
        if any(not isinstance(v, int) or not 1 <= v <= 6 for v in values):
            raise ValueError("die values must be whole numbers 1..6")
        self._dice = [
            SimDie(value, die.center, die.angle) for value, die in zip(values, self.dice, strict=True)
        ]
        self._pending_motion = 0

    def place(self, dice: Sequence[SimDie]) -> None:
        """Put exactly these dice at rest where they say, e.g. against the tray's wall (tests and demos)."""
        if len(dice) != self.dice_count:
            raise ValueError(f"expected {self.dice_count} dice, got {len(dice)}")
        self._dice = list(dice)
        self._pending_motion = 0

    # -- layout --------------------------------------------------------------------------------------

    def _free_spot(self, taken: list[tuple[float, float]]) -> tuple[float, float]:
        """A random centre on the floor whose die cannot touch any other, whatever both angles are."""
        margin = self.die_px * 0.75
        x0, y0, x1, y1 = self._floor
        clearance = self.die_px * math.sqrt(2) * 1.05
        for _ in range(500):
            x = float(self._rng.uniform(x0 + margin, x1 - margin))
            y = float(self._rng.uniform(y0 + margin, y1 - margin))
            if all(math.hypot(x - tx, y - ty) >= clearance for tx, ty in taken):
                return (x, y)
        raise ValueError("the dice do not fit on this tray: use a larger frame or a smaller die_size")

    # -- rendering -----------------------------------------------------------------------------------

    def _render_background(self, rim: int) -> np.ndarray:
        """Felt with a faint texture inside a wooden rim whose inner edge casts a soft shadow."""
        rng = np.random.default_rng(12345)
        image = np.empty((self.height, self.width, 3), np.uint8)
        image[:] = _RIM_BGR
        grain = rng.normal(0, 6, (self.height, 1, 1))  # wood grain runs along the rows
        image[:] = np.clip(image.astype(np.float32) + grain, 0, 255).astype(np.uint8)
        x0, y0, x1, y1 = self._floor
        felt = np.empty((y1 - y0, x1 - x0, 3), np.float32)
        felt[:] = _FELT_BGR
        felt += cv2.GaussianBlur(rng.normal(0, 10, felt.shape[:2]).astype(np.float32), (0, 0), 1.2)[..., None]
        inner_shadow = np.ones(felt.shape[:2], np.float32)
        depth = max(2, rim // 2)
        cv2.rectangle(inner_shadow, (0, 0), (felt.shape[1] - 1, felt.shape[0] - 1), 0.55, depth)
        inner_shadow = cv2.GaussianBlur(inner_shadow, (0, 0), depth / 2)
        image[y0:y1, x0:x1] = np.clip(felt * inner_shadow[..., None], 0, 255).astype(np.uint8)
        return image

    def _render_light(self) -> np.ndarray:
        """A gain map (as uint8, 255 = 1.0): brighter at the upper left, a vignette at the corners."""
        ys, xs = np.mgrid[0 : self.height, 0 : self.width].astype(np.float32)
        nx, ny = xs / self.width - 0.5, ys / self.height - 0.5
        gain = 0.92 - 0.22 * (nx + ny) - 0.35 * (nx * nx + ny * ny)
        gain = np.clip(gain, 0.4, 1.0) * 255
        return cv2.cvtColor(gain.astype(np.uint8), cv2.COLOR_GRAY2BGR)

    def _render_noise(self) -> tuple[np.ndarray, np.ndarray]:
        """Sensor noise made once, split into a brightening and a darkening part for saturating adds."""
        rng = np.random.default_rng(54321)
        shape = (self.height + _NOISE_PAD, self.width + _NOISE_PAD, 3)
        noise = rng.normal(0, _NOISE_SIGMA, shape)
        up = np.clip(noise, 0, 255).astype(np.uint8)
        down = np.clip(-noise, 0, 255).astype(np.uint8)
        return up, down

    def _outline(self, die: SimDie, scale: float = 1.0, offset: tuple[float, float] = (0, 0)) -> np.ndarray:
        """The die's rounded-square outline in fixed-point pixel coordinates for cv2.fillPoly."""
        theta = math.radians(die.angle)
        rotation = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
        side = self.die_px * scale
        points = self._unit_outline @ rotation.T * side + (
            die.center[0] + offset[0],
            die.center[1] + offset[1],
        )
        return np.round(points * _SUBPIXEL).astype(np.int32)

    def _render(self, dice: Sequence[SimDie]) -> np.ndarray:
        frame = self._background.copy()
        gain = self._shadowed_light(dice)
        for die in dice:
            self._draw_die(frame, die)
        frame = cv2.multiply(frame, gain, scale=1 / 255)
        return self._add_noise(frame)

    def _shadowed_light(self, dice: Sequence[SimDie]) -> np.ndarray:
        """The light map darkened by each die's soft shadow (drawn small and blurred, which is cheap)."""
        small = 4
        mask = np.zeros((self.height // small + 1, self.width // small + 1), np.uint8)
        offset = (_SHADOW_OFFSET[0] * self.die_px, _SHADOW_OFFSET[1] * self.die_px)
        for die in dice:
            points = self._outline(die, 1.05, offset) // small
            cv2.fillPoly(mask, [points], 110, cv2.LINE_AA, _SUBPIXEL_BITS)
        mask = cv2.GaussianBlur(mask, (0, 0), max(0.8, self.die_px * 0.12 / small))
        for die in dice:  # a die's top face is lit: its own shadow lies beside it, not on it
            cv2.fillPoly(mask, [self._outline(die, 0.9) // small], 0, cv2.LINE_AA, _SUBPIXEL_BITS)
        shade = 255 - cv2.resize(mask, (self.width, self.height), interpolation=cv2.INTER_LINEAR)
        return cv2.multiply(self._light, cv2.cvtColor(shade, cv2.COLOR_GRAY2BGR), scale=1 / 255)

    def _draw_die(self, frame: np.ndarray, die: SimDie) -> None:
        """A die seen from above: a slightly darker bevel around a bright face, then the pips."""
        bevel = tuple(int(c * 0.78) for c in self.dice_colour)
        cv2.fillPoly(frame, [self._outline(die)], bevel, cv2.LINE_AA, _SUBPIXEL_BITS)
        cv2.fillPoly(frame, [self._outline(die, 0.9)], self.dice_colour, cv2.LINE_AA, _SUBPIXEL_BITS)
        theta = math.radians(die.angle)
        cos, sin = math.cos(theta), math.sin(theta)
        reach = self.die_px / 2 * _PIP_SPREAD
        radius = int(round(self.die_px * _PIP_RADIUS * _SUBPIXEL))
        for ux, uy in _PIP_SPOTS[die.value]:
            px = die.center[0] + (ux * cos - uy * sin) * reach
            py = die.center[1] + (ux * sin + uy * cos) * reach
            centre = (int(round(px * _SUBPIXEL)), int(round(py * _SUBPIXEL)))
            cv2.circle(frame, centre, radius, self.pip_colour, -1, cv2.LINE_AA, _SUBPIXEL_BITS)

    def _add_noise(self, frame: np.ndarray) -> np.ndarray:
        dy, dx = (int(v) for v in self._rng.integers(0, _NOISE_PAD, 2))
        window = (slice(dy, dy + self.height), slice(dx, dx + self.width))
        frame = cv2.add(frame, self._noise_up[window])
        return cv2.subtract(frame, self._noise_down[window])

    def _render_motion(self, step: int) -> np.ndarray:
        """One frame of a throw: first a hand over the tray, then the thrown dice tumbling into place.

        Held dice stay sharp where they are; thrown dice are drawn short of their resting place with a
        random face and angle and smeared along their path, as a camera at a normal shutter speed sees them.
        """
        progress = (step + 1) / (self.moving_frames + 1)
        tumbling = []
        for index, die in enumerate(self._dice):
            if index not in self._rolled:
                continue
            travel = (1 - progress) * self.die_px * 3
            center = (die.center[0] - travel, die.center[1] + travel * 0.3)
            tumbling.append(SimDie(int(self._rng.integers(1, 7)), center, float(self._rng.uniform(0, 90))))
        held = [die for index, die in enumerate(self._dice) if index not in self._rolled]
        frame = self._render(held + tumbling)
        if tumbling:
            frame = self._smear(frame, tumbling, held)
        if step == 0:
            self._draw_hand(frame)
        return frame

    def _smear(self, frame: np.ndarray, tumbling: Sequence[SimDie], held: Sequence[SimDie]) -> np.ndarray:
        """Motion blur along the throw, applied only around the tumbling dice and never over held ones."""
        length = max(3, int(self.die_px * 0.6)) | 1
        mask = np.zeros(frame.shape[:2], np.uint8)
        for die in tumbling:
            cv2.fillPoly(mask, [self._outline(die, 1.6)], 255, cv2.LINE_8, _SUBPIXEL_BITS)
        for die in held:
            cv2.fillPoly(mask, [self._outline(die, 1.1)], 0, cv2.LINE_8, _SUBPIXEL_BITS)
        x, y, w, h = cv2.boundingRect(mask)
        if w == 0 or h == 0:
            return frame
        area = (slice(y, y + h), slice(x, x + w))  # blur only where the dice fly: it is the costly part
        blurred = cv2.blur(frame[area], (length, 1))
        np.copyto(frame[area], blurred, where=mask[area][..., None] > 0)
        return frame

    def _draw_hand(self, frame: np.ndarray) -> None:
        """A rough hand reaching in from the bottom edge: a palm and four fingers."""
        palm_w, palm_h = self.die_px * 1.6, self.die_px * 2.0
        cx = float(self._rng.uniform(0.3, 0.7)) * self.width
        cy = self.height - palm_h * 0.6
        cv2.ellipse(frame, (int(cx), int(cy)), (int(palm_w), int(palm_h)), 0, 0, 360, _SKIN_BGR, -1)
        for finger in range(4):
            fx = cx + (finger - 1.5) * palm_w * 0.5
            fy = cy - palm_h * 1.25
            axes = (int(self.die_px * 0.28), int(self.die_px * 0.9))
            cv2.ellipse(frame, (int(fx), int(fy)), axes, 0, 0, 360, _SKIN_BGR, -1)


def _rounded_square(corner: float, points_per_corner: int = 6) -> np.ndarray:
    """A unit square (side 1, centred at 0) with rounded corners, as an (N, 2) outline."""
    inner = 0.5 - corner
    outline = []
    for cx, cy, start in (
        (inner, inner, 0),
        (-inner, inner, 90),
        (-inner, -inner, 180),
        (inner, -inner, 270),
    ):
        for k in range(points_per_corner + 1):
            a = math.radians(start + 90 * k / points_per_corner)
            outline.append((cx + corner * math.cos(a), cy + corner * math.sin(a)))
    return np.array(outline, np.float64)

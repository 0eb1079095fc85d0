"""Draw what the reader saw onto a copy of the frame, for the admin page and for debugging by eye.

Green boxes are dice read with confidence, amber ones doubtful, red crosses unreadable regions; the tray
region of the profile is a blue rectangle and a banner states the frame's problem when there is one, in as
many lines as the frame's width needs.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.frames import as_bgr
from vision.profile import CalibrationProfile
from vision.reading import Reading

SURE = (60, 200, 60)
DOUBTFUL = (0, 170, 255)
UNREADABLE = (40, 40, 230)
TRAY = (230, 140, 30)
DOUBT_BELOW = 0.5
BANNER_MARGIN = 8  # pixels between the problem's banner and the frame's left and right edges


def annotate(frame: np.ndarray, reading: Reading, profile: CalibrationProfile | None = None) -> np.ndarray:
    """A BGR copy of `frame` with the reading drawn on it; a blank canvas stands in for an unusable frame."""
    image, _ = as_bgr(frame)
    if image is None:
        width, height = reading.frame_size if min(reading.frame_size) > 0 else (320, 240)
        image = np.zeros((height, width, 3), np.uint8)
    else:
        image = image.copy()
    scale = max(image.shape[:2]) / 640.0
    thickness = max(1, int(round(2 * scale)))
    font = 0.5 * max(scale, 0.6)
    if profile is not None and profile.tray is not None:
        height, width = image.shape[:2]
        x0, y0, x1, y1 = profile.tray
        cv2.rectangle(
            image, (int(x0 * width), int(y0 * height)), (int(x1 * width), int(y1 * height)), TRAY, thickness
        )
    for die in reading.dice:
        colour = SURE if die.confidence >= DOUBT_BELOW else DOUBTFUL
        corners = cv2.boxPoints((die.center, (die.size, die.size), die.angle))
        cv2.polylines(image, [np.intp(np.round(corners))], True, colour, thickness)
        label = f"{die.value} {die.confidence:.2f}"
        origin = (int(die.center[0] - die.size / 2), int(die.center[1] - die.size / 2 - 4))
        cv2.putText(image, label, origin, cv2.FONT_HERSHEY_SIMPLEX, font, colour, thickness, cv2.LINE_AA)
    for region in reading.unreadable:
        half = region.size / 2
        x, y = region.center
        top_left, bottom_right = (int(x - half), int(y - half)), (int(x + half), int(y + half))
        cv2.rectangle(image, top_left, bottom_right, UNREADABLE, thickness)
        cv2.line(image, top_left, bottom_right, UNREADABLE, thickness)
        cv2.putText(
            image, "?", (top_left[0], top_left[1] - 4), cv2.FONT_HERSHEY_SIMPLEX, font, UNREADABLE, thickness
        )
    if reading.problem:
        lines = _wrapped(reading.problem, image.shape[1] - 2 * BANNER_MARGIN, font, thickness)
        for row, line in enumerate(lines, start=1):
            # A line every 48 font units (about twice the font's height): 24 px on a 640 px frame, and lines
            # that do not overlap on a small frame, whose font is kept legible.
            origin = (BANNER_MARGIN, int(48 * font * row))
            cv2.putText(image, line, origin, cv2.FONT_HERSHEY_SIMPLEX, font, UNREADABLE, thickness)
    return image


def _wrapped(text: str, width: int, font: float, thickness: int) -> list[str]:
    """`text` broken between words into lines that fit `width` pixels at this font size: a problem names what
    to do last ("... set the tray again"), and a banner cut at the frame's edge loses it. A word wider than
    `width` on its own gets a line of its own."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        (fits, _), _ = cv2.getTextSize(joined, cv2.FONT_HERSHEY_SIMPLEX, font, thickness)
        if lines and fits <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines

"""Turn whatever a caller hands the reader into an 8-bit BGR image, or say plainly why it cannot be read.

Cameras, files and tests produce grayscale, BGRA, float and 16-bit arrays; the reader should accept them all
rather than crash in the middle of a game, so every conversion lives here in one place.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

MIN_SIDE = 16  # smaller than this cannot hold a readable die at any camera distance


def as_bgr(frame: Any) -> tuple[np.ndarray | None, str | None]:
    """Return (bgr uint8 image, None) or (None, reason) for a frame that cannot be read at all."""
    if frame is None:
        return None, "no frame"
    if not isinstance(frame, np.ndarray):
        try:
            frame = np.asarray(frame)
        except (TypeError, ValueError):
            return None, "the frame is not an image array"
    if frame.dtype == object or frame.size == 0:
        return None, "empty frame"
    if frame.ndim == 3 and frame.shape[2] == 1:
        frame = frame[:, :, 0]
    if frame.ndim == 2:
        frame = np.repeat(frame[:, :, None], 3, axis=2)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = frame[:, :, :3]
    elif not (frame.ndim == 3 and frame.shape[2] == 3):
        return None, f"unsupported frame shape {tuple(frame.shape)}"
    if min(frame.shape[:2]) < MIN_SIDE:
        return None, f"frame too small ({frame.shape[1]}x{frame.shape[0]})"
    return _as_uint8(frame), None


def _as_uint8(frame: np.ndarray) -> np.ndarray:
    if frame.dtype == np.uint8:
        return np.ascontiguousarray(frame)
    if frame.dtype == bool:
        return frame.astype(np.uint8) * 255
    values = frame.astype(np.float32)
    values = np.nan_to_num(values, nan=0.0, posinf=0.0, neginf=0.0)
    if np.issubdtype(frame.dtype, np.floating):
        top = 1.0 if float(values.max(initial=0.0)) <= 1.0 else 255.0
    else:
        top = float(np.iinfo(frame.dtype).max) if frame.dtype.itemsize > 1 else 255.0
    return np.ascontiguousarray(np.clip(values * (255.0 / top), 0, 255).astype(np.uint8))


def resize(image: np.ndarray, scale: float) -> np.ndarray:
    """`image` scaled by `scale`; shrinking averages the pixels each new pixel covers (no aliasing of pips).

    OpenCV's area average is fast for halving only (a tenth of the time of an area resize by 0.39), so a
    shrink to half or less halves the image while that does not make it smaller than asked, and
    interpolates the rest: by then each new pixel covers less than two old ones.
    """
    width, height = image.shape[1], image.shape[0]
    size = (max(1, int(round(width * scale))), max(1, int(round(height * scale))))
    if scale >= 1:
        return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
    if scale > 0.5:
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    # Halve while the half is not (beyond a pixel of rounding) smaller than the size asked.
    while image.shape[1] // 2 >= size[0] - 1 and image.shape[0] // 2 >= size[1] - 1:
        half_width, half_height = image.shape[1] // 2, image.shape[0] // 2
        # An odd last row or column would make the factor not exactly 2: the slow general path.
        even = image[: 2 * half_height, : 2 * half_width]
        image = cv2.resize(even, (half_width, half_height), interpolation=cv2.INTER_AREA)
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)

"""Turn whatever a caller hands the reader into an 8-bit BGR image, or say plainly why it cannot be read.

Cameras, files and tests produce grayscale, BGRA, float and 16-bit arrays; the reader should accept them all
rather than crash in the middle of a game, so every conversion lives here in one place; so do what the reader
does to a whole frame before it reads (speckle, colour cast, exposure, resizing) and the test of whether a die
shows colour at all.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

MIN_SIDE = 16  # smaller than this cannot hold a readable die at any camera distance
# A well exposed frame of dice has its brightest half percent (white pips or dice, the tray's highlights) at
# three quarters of full scale or above: nell-byler's 200 photos at 192 to 220, matteop65's 396 at 190 to 255.
# A darker frame is scaled up to there, by a stop at most (`MAX_GAIN`, so a lens cap's few levels of noise
# stay a blank frame); one within `MIN_GAIN` of it is left as it is.
WHITE_SHARE = 0.995
WHITE_LEVEL = 0.75 * 255
MAX_GAIN = 2.0
MIN_GAIN = 1.05
EXPOSURE_SAMPLES = 40000  # the white level is read on about this many pixels: a sample tells it as well
# A pixel is coloured when its channels spread COLOUR_SPREAD 8-bit levels or more (max - min of B, G, R): the
# reader reads dice that show colour in the colour channels too (`vision.reader`).
COLOUR_SPREAD = 40
# Around each die gray saw (a disc CHROMA_RING_SHARE of a die wide), the colour channels are read when at
# least CHROMA_SHARE of it is coloured (`shows_colour`: a coloured face, or coloured pips on a gray one).
CHROMA_RING_SHARE = 0.35
CHROMA_SHARE = 0.03
# The brightest half percent of a frame (`WHITE_SHARE`: white dice and pips, a pale board, glints) is white
# things under the light, so it tells the light's colour. Where its channels spread COLOUR_SPREAD or more,
# the camera balanced white for other light (a Pi camera's white balance frozen in daylight, then a warm
# lamp) and every white die would pass for a coloured one; the channels are scaled so that it is gray again
# (`balanced`). Not past MAX_CAST times its weakest channel: a white balance set for daylight sees a lamp's
# light about 1.6 times as red as blue in 8-bit levels, and a brightest part more coloured than any light
# makes it is a coloured thing (a red tray), whose colour is the scene's own.
MAX_CAST = 2.0
MILD_SHRINK = 0.85  # from here on `resize` interpolates: a pip is several pixels wide, not one
# A pixel SPECKLE_LEVEL 8-bit levels (a quarter of full scale) from the median of its 3x3 neighbourhood
# stands alone: salt and pepper, from dead pixels, a failing sensor or a loose camera cable. Not a share of
# the frame's range: a tray's sensor noise spans all of it where the tiles see no die. A scene leaves few:
# the shared photos' worst 0.12%, those 3280 px wide none, sensor noise of 30 levels in each channel 0.13%.
# Over SPECKLE_SHARE, each level that stands alone is replaced by that median; a frame still speckled after
# it (a fifth of its pixels hit, whose specks clump) is refused, as nothing in it can be told from a pip:
# read as it was, such a frame gave hundreds of dice in minutes. Only then: a pip 2 px wide stands alone
# too, and the replacement done on every photo cost 2 and 9 hands of matteop65's 387 and nell-byler's 160
# (the whole median, 15 and 30).
SPECKLE_LEVEL = 64
SPECKLE_SHARE = 0.005
# Lone pixels are counted in a grid of SPECKLE_TILES x SPECKLE_TILES tiles SPECKLE_TILE pixels wide: a
# 3x3 median of a whole 640x480 frame costs 0.5 ms, a twentieth of one working size's calibrated read.
SPECKLE_TILES = 4
SPECKLE_TILE = 32


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


def frame_size(frame: Any) -> tuple[int, int]:
    """(width, height) of anything with an image's shape, else (0, 0): a reading's size for any frame."""
    shape = getattr(frame, "shape", None)
    if shape is not None and len(shape) >= 2:
        return int(shape[1]), int(shape[0])
    return (0, 0)


def exposed(image: np.ndarray) -> np.ndarray:
    """`image` (BGR uint8) brightened when it is underexposed (`WHITE_LEVEL`), else `image` itself.

    A camera whose exposure was frozen in daylight (calibration does so, so that frames of one roll compare)
    sees the same table darker in the evening, and another camera exposes for its own reasons. Scaling the
    levels is what a longer exposure does to them (sRGB levels scale with the light, as its curve is nearly a
    power), so the frame is read as if exposed well: the reader's absolute floors (the least contrast a
    die body must show against the table, the least spread of a coloured pixel) then mean what they mean in
    a well exposed frame. matteop65's and nell-byler's photos with their levels scaled by 0.55 lost 2 and 24
    hands (of 396 and 200) against the photos as taken, and lose 1 and 12 brightened: 8 bits scaled by 0.55
    keep fewer levels, which brightening does not bring back.
    """
    _, _, white = _brightest(image)
    gain = min(MAX_GAIN, WHITE_LEVEL / max(float(white), 1.0))
    return image if gain < MIN_GAIN else cv2.convertScaleAbs(image, alpha=gain)


def balanced(image: np.ndarray) -> np.ndarray:
    """`image` (BGR uint8) with its colour cast taken out (`MAX_CAST`), else `image` itself.

    With blue scaled by 1.25 and red by 0.8, and the other way round (`bench-vision --tinted`), matteop65's
    white dice passed for coloured ones, whose colour channels read side faces and shading as pips: 378 and
    384 of its 396 hands were read exactly (389 as taken); balanced, 388 and 387 (388). A tint within
    `COLOUR_SPREAD` changes nothing the reader tests, and is left: of the photos as taken, only two of
    matteop65's are balanced, whose whitest part the webcam saw blue.
    """
    sample, brightest, white = _brightest(image)
    light = np.median(sample[brightest >= white], axis=0)  # B, G, R of the whitest pixels
    weakest, strongest = max(float(light.min()), 1.0), float(light.max())
    if strongest - weakest < COLOUR_SPREAD or strongest > MAX_CAST * weakest:
        return image
    return cv2.transform(image, np.diag(light.mean() / np.maximum(light, 1.0)))


def _brightest(image: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """About `EXPOSURE_SAMPLES` of a BGR image's pixels, evenly spread; the brightest of each one's channels;
    and the level the brightest half percent of those reach (`WHITE_SHARE`). Every step-th pixel, by OpenCV:
    numpy's max over the channels of a strided view costs the calibrated reader a quarter of its time on a
    640x480 frame."""
    height, width = image.shape[:2]
    step = max(1, int(np.sqrt(height * width / EXPOSURE_SAMPLES)))
    size = (max(1, width // step), max(1, height // step))
    sample = cv2.resize(image, size, interpolation=cv2.INTER_NEAREST)
    blue, green, red = cv2.split(sample)
    brightest = cv2.max(cv2.max(blue, green), red)
    (white,) = levels_at(brightest, (WHITE_SHARE,))
    return sample, brightest, int(white)


def despeckled(image: np.ndarray) -> np.ndarray | None:
    """`image` (BGR uint8), with the levels that stand alone replaced by their 3x3 median when over
    `SPECKLE_SHARE` of its pixels do, or None when that leaves it speckled: salt and pepper noise is
    pip-sized blobs by the thousand, each of which the reader would weigh, and a false die for every few
    that line up."""
    if _lone_share(image) <= SPECKLE_SHARE:
        return image
    smoothed = _lone_pixels_replaced(image)
    return smoothed if _lone_share(smoothed) <= SPECKLE_SHARE else None


def _lone_pixels_replaced(image: np.ndarray) -> np.ndarray:
    """`image` with each level over `SPECKLE_LEVEL` from its 3x3 median replaced by that median, in each
    channel: a speck is one pixel, and often one channel (a sensor's dead pixel sits under one colour
    filter), while a pip's edge and its glint keep their levels, which the whole median would round off."""
    median = cv2.medianBlur(image, 3)
    return np.where(cv2.absdiff(image, median) > SPECKLE_LEVEL, median, image)


def _lone_share(image: np.ndarray) -> float:
    """The share of `image`'s pixels, in a grid of tiles, that stand alone (`SPECKLE_LEVEL`)."""
    height, width = image.shape[:2]
    side = min(SPECKLE_TILE, height, width)
    last = SPECKLE_TILES - 1
    rows = [(height - side) * row // last for row in range(SPECKLE_TILES)]
    columns = [(width - side) * column // last for column in range(SPECKLE_TILES)]
    # The tiles side by side, so OpenCV converts and filters them in one call each (a row of tiles: its
    # median filter is six times as fast as that of a column of them).
    tiles = np.hstack([image[y : y + side, x : x + side] for y in rows for x in columns])
    gray = cv2.cvtColor(tiles, cv2.COLOR_BGR2GRAY)
    apart = cv2.absdiff(gray, cv2.medianBlur(gray, 3)).reshape(side, -1, side)
    # A tile's edge pixels have neighbours from another tile, or made up by OpenCV: only its inner ones count.
    inner = apart[1:-1, :, 1:-1]
    return np.count_nonzero(inner > SPECKLE_LEVEL) / inner.size


def levels_at(image: np.ndarray, shares: tuple[float, ...]) -> np.ndarray:
    """The 8-bit levels below which these shares of `image`'s pixels lie, from its histogram (no sort).

    OpenCV's histogram: a third of the time of numpy's `bincount` on a tray's pixels (which first widens
    every level to a 64-bit index); its float counts are exact up to 2**24 pixels, a 16 MP frame.
    """
    histogram = cv2.calcHist([image], [0], None, [256], [0, 256])
    counts = np.cumsum(histogram.ravel().astype(np.int64))
    return np.searchsorted(counts, np.array(shares) * counts[-1])


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
    interpolates the rest: by then each new pixel covers less than two old ones. A mild shrink is
    interpolated from the start for the same reason: at `MILD_SHRINK` or more a new pixel covers under 1.4
    old ones, which bilinear's 2x2 neighbours nearly average, and area's general path took 1.74 ms where
    bilinear took 0.22 (a 604x432 gray tray at 0.88, one thread: a seventh of a calibrated 640x480 read).
    Not from 0.75: at 0.77 and 0.80, bilinear thinned a drawn glint that joins a dark die's light pip, and
    the die's two was lost (`test_a_glint_joining_a_pip_does_not_hide_it`).
    """
    width, height = image.shape[1], image.shape[0]
    size = (max(1, int(round(width * scale))), max(1, int(round(height * scale))))
    if scale >= MILD_SHRINK:
        return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
    if scale > 0.5:
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    # Halve while the half is not (beyond a pixel of rounding) smaller than the size asked, nor empty.
    while image.shape[1] // 2 >= max(1, size[0] - 1) and image.shape[0] // 2 >= max(1, size[1] - 1):
        half_width, half_height = image.shape[1] // 2, image.shape[0] // 2
        # An odd last row or column would make the factor not exactly 2: the slow general path.
        even = image[: 2 * half_height, : 2 * half_width]
        image = cv2.resize(even, (half_width, half_height), interpolation=cv2.INTER_AREA)
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)


def shows_colour(tray: np.ndarray, center: np.ndarray, size: float) -> bool:
    """Whether the die at `center` (tray pixels), `size` wide, shows colour.

    The die is looked at within its own size, so a coloured tray around a white die does not count.
    """
    height, width = tray.shape[:2]
    radius = max(1, int(CHROMA_RING_SHARE * size))
    x0, y0 = max(0, int(center[0]) - radius), max(0, int(center[1]) - radius)
    patch = tray[y0 : min(height, int(center[1]) + radius + 1), x0 : min(width, int(center[0]) + radius + 1)]
    return patch.size > 0 and _colour_share(patch) >= CHROMA_SHARE


def _colour_share(image: np.ndarray) -> float:
    """Share of (sampled) pixels whose channels spread at least COLOUR_SPREAD gray levels apart."""
    step = max(1, int(np.sqrt(image.shape[0] * image.shape[1] / 20000)))
    blue, green, red = cv2.split(np.ascontiguousarray(image[::step, ::step]))
    spread = cv2.subtract(cv2.max(cv2.max(blue, green), red), cv2.min(cv2.min(blue, green), red))
    return cv2.countNonZero(cv2.compare(spread, COLOUR_SPREAD, cv2.CMP_GE)) / spread.size

"""How wide the dice are, measured by their pips before any face is read: every later distance is a share
of it (`vision.reader` works at a scale that brings dice to a fixed size).

The pips are found on a small copy of the frame (a black-hat wide enough for any die believed), and the
median size of those with a like-sized neighbour, over the pip-to-die ratio, is the die. Dice a small share
of a large frame have pips too small for that copy, which then finds nothing or takes whole dice for pips:
copies twice as fine are asked until the smallest die believed shows pips a few pixels wide, and a finer
copy's size replaces the coarser one's when it sees several times as many paired pips, or as many as the
lone pips of one size the coarser copy resolved (a hand of ones). Two dice bodies alike in size
(`vision.body.witnessed`) that confirm the first copy's size save the finer copies' time.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from vision.body import Bodies, alike_in_size, on_bodies, sizes_agree, witnessed
from vision.faces import distances
from vision.frames import resize
from vision.pips import Pips, find_pips, odd_kernel

ESTIMATE_SHORT_SIDE = 320  # the die-size estimation pass runs on a copy this small
MIN_DIE_SHARE = 0.02  # smallest die the estimate will believe, as a share of the shorter side
MAX_DIE_SHARE = 0.4
# Dice a small share of a large frame (a Pi camera's 8 MP still of a tray, dice 2 to 4% of its height) have
# pips under 2 px in that copy, too small for `find_pips`: it finds nothing there, or takes whole dice for
# pips. So a frame larger than the copy is estimated again on copies twice as fine, each smaller than the
# frame, until the smallest die believed shows pips of RESOLVED_PIP_PX; a finer copy's estimate replaces
# the coarser one when it finds pips with a like-sized neighbour where the coarser found none, or
# FINER_PAIRS times as many, measuring smaller dice: a face shows three or four pips on average, so a copy
# that sees the pips sees several times as many as one that took the dice for pips. Where the coarser
# copy's pips are as large as the finer copy's dice, it took them for pips, and TAKEN_DICE_PAIRS times as
# many are enough: each die shows two pips or more but a 1, and a hand of twos shows fewer than four
# (matteop65 two_23 from 3x as far, as a Pi still: the 320 px copy took three twos lying close for 98 px
# pips of one die 701 px wide; the 640 px copy saw 6 paired pips of dice 116 px wide, short of 12, and
# nothing was read). Only twice: a finer copy that saw 3 pairs of specks against a coarser copy's 2 took a
# heap of dice for one die, as its coarser copy had (nell-byler 112458 as a Pi still). Where a copy that
# resolves its pips finds none with such a neighbour, its pips alike in size may be a hand of ones: a finer
# copy replaces it only with as many pips of its own (`_outweighs`), its lone ones counted on die bodies where
# bodies are witnessed (`_estimate_die`). (A copy as large as the frame is not used: on the shared photos,
# read at their own size, it measured pips finer than the reader's tuning expects, and lost hands.)
RESOLVED_PIP_PX = 3.0
FINER_PAIRS = 4
TAKEN_DICE_PAIRS = 2
# Those copies find pips with a black-hat half the largest die believed (`MAX_DIE_SHARE`): a fifth of the
# copy's short side, many dice wide where dice are a small share of a large frame, where it fills in the
# shade between dice and beside them as it fills a pip, and the same pips measured dice otherwise than in the
# photo as taken. Where finer copies were asked (frames over twice ESTIMATE_SHORT_SIDE), a size found on
# paired pips is measured again on the copy that found it with a black-hat KERNEL_DICE dice wide
# (`_measured_again`; one found on a hand of ones' lone pips is not).
# matteop65 from 3x as far, against each photo as taken: three_34 51.3 -> 54.4 px (57.3 as taken), four_40
# 69.0 -> 70.2 (70.0), valid_59 65.4 -> 64.1 (65.1); 376 -> 379 hands, those three; every other variant of
# both sets reads each photo as before. (2 dice wide: 380, but enlarged 2.5x lost dice_45. In every frame,
# 640 px ones too: nell-byler turned 90 lost 113004 and turned 180 gained 111530.)
KERNEL_DICE = 3.0
# ... unless two dice bodies or more measure dice within SIZES_CONFIRM times the size the 320 px copy gave,
# either way: two witnesses agree, and the finer copies' time is saved (20 ms for a 1280x720 frame, 90 ms
# for an 8 MP still). (Bodies measure dice at about 0.8 of their pips' measure: 0.82 on nell-byler.) But
# only when that copy resolved the pips it measured (RESOLVED_PIP_PX): pips at the least size it sees are
# no measure of the dice, and bodies, which take in a die's shadow and side face, lie within 1.5 times of
# that too (matteop65 from 3x as far: the copy measured 72.5 px, from pips of 2.3 px, for dice of about 50;
# bodies of 50 to 100 px confirmed it, and false ones and twos were read at that size).
SIZES_CONFIRM = 1.5


_NO_BLOBS = np.zeros((0, 4))


class _Estimate(NamedTuple):
    """A die size measured on one copy of the frame (`DieSizer._estimate_die`)."""

    die: float | None  # in frame pixels; None when the copy shows no pips
    pairs: int  # how many of its pips have a like-sized neighbour
    # When none has one and the copy resolves them (`RESOLVED_PIP_PX`), how many are alike in size to
    # their median (and lie on a die body, where witnessed bodies were given): they may be the pips of a hand
    # of ones, which measure its dice too.
    ones: int
    # The blobs it kept (dice it took whole left out): x, y, diameter and 1 for a dark one, in frame pixels
    blobs: np.ndarray = _NO_BLOBS
    ones_at: np.ndarray = _NO_BLOBS  # those of them counted as `ones`


class DieSizer:
    """Measures the die size of frames by their pips, with the reader's pip tests (`params`: `pip_size`,
    `pip_roundness` and `pip_fill`) and pip polarity (`polarity`: "auto", "dark" or "light")."""

    def __init__(self, params: dict[str, float], polarity: str) -> None:
        self.params = params
        self.polarity = polarity

    def die_px(
        self, gray: np.ndarray, threshold: float, short_side: int, bodies: Bodies | None
    ) -> float | None:
        """Die side in frame pixels (None when no copy shows pips): from pips that have a like-sized
        neighbour, on the coarsest copy of the frame (`gray`, `short_side` pixels short) that sees them
        (`FINER_PAIRS`), unless `bodies` confirm the first. Where finer copies were asked, that copy
        measures it again with a narrower black-hat (`_measured_again`).

        Bodies smaller than the least die the estimate believes (`MIN_DIE_SHARE`) witness nothing here:
        they are specks, of a wood's grain or a die's pips, and the lone pips of a hand of ones lie on none
        of them (matteop65 dice_16 and dice_30 turned 90, from 3x as far, as a Pi still: bodies of 15 px
        beside ones of about 150 px; the finer copies' ones did not count, and dice_16's [1, 1] was read as
        [2, 2]). The bodies still tell the reader's other steps what stands out where."""
        if bodies is not None and bodies.size < MIN_DIE_SHARE * short_side:
            bodies = None
        copy = ESTIMATE_SHORT_SIDE
        estimate = self._estimate_die(gray, threshold, short_side, copy)
        if (
            estimate.die is not None
            and self._pips_resolved(estimate.die, copy, gray)
            and sizes_agree(bodies, estimate.die, SIZES_CONFIRM)
        ):
            return estimate.die
        smallest_pip = MIN_DIE_SHARE * self.params["pip_size"]  # per pixel of a copy's shorter side
        measured_on = copy
        while copy * 2 < min(gray.shape) and copy * smallest_pip < RESOLVED_PIP_PX:
            copy *= 2
            finer = self._estimate_die(gray, threshold, short_side, copy, bodies=bodies)
            if _outweighs(finer, estimate, bodies, self.params["pip_size"]):
                estimate, measured_on = finer, copy
        if estimate.die is None or copy == ESTIMATE_SHORT_SIDE:
            return estimate.die
        return self._measured_again(gray, threshold, short_side, measured_on, estimate)

    def _measured_again(
        self, gray: np.ndarray, threshold: float, short_side: int, copy: int, estimate: _Estimate
    ) -> float:
        """The die size of `estimate` (as the copy of `gray` `copy` pixels short measured it) measured
        again on that copy with a black-hat `KERNEL_DICE` dice wide, where the estimate's own is wider; it
        stands when no pips there have a like-sized neighbour, or when it was measured on lone pips (a hand
        of ones): the narrower black-hat finds their side faces' pips, smaller and foreshortened, in pairs,
        and those measured smaller dice (matteop65 dice_27 from 3x as far, as a Pi still: three ones of
        about 105 px measured 98 px on their lone pips, then 76 px on their side faces' pips, and a side
        face's two was read as a die)."""
        die = estimate.die
        if not estimate.pairs:
            return die
        shrink = _copy_shrink(copy, gray)
        kernel = KERNEL_DICE * die * shrink
        if kernel >= _unsized_kernel(min(gray.shape) * shrink):
            return die
        again = self._estimate_die(gray, threshold, short_side, copy, kernel)
        return again.die if again.die is not None and again.pairs else die

    def _pips_resolved(self, die: float, copy: int, gray: np.ndarray) -> bool:
        """Whether the copy of `gray` `copy` pixels short shows the pips of dice `die` frame pixels wide at
        `RESOLVED_PIP_PX` or more: wide enough that their measure is theirs, not the least blob it sees."""
        return die * _copy_shrink(copy, gray) * self.params["pip_size"] >= RESOLVED_PIP_PX

    def _estimate_die(
        self,
        gray: np.ndarray,
        threshold: float,
        short_side: int,
        copy: int,
        kernel: float | None = None,
        bodies: Bodies | None = None,
    ) -> _Estimate:
        """The die size measured on a copy of `gray` `copy` pixels short (or `gray` itself, when smaller):
        the median size of the pips that have a like-sized neighbour over `pip_size`, or of all its pips
        when none has one. The black-hat that finds them is `kernel` copy pixels wide, by default
        `_unsized_kernel`'s, as nothing yet tells the dice's size.

        Lone pips alike in size count as a hand of ones (`_Estimate.ones`) only where they lie on a die body,
        when `bodies` are given and witnessed (`witnessed`). They are given for a finer copy, whose ones
        would replace a coarser copy's size (`_outweighs`): a pale board's dust specks are lone blobs of one
        size too. nell-byler 112554, 112556 and 112637 enlarged 2.5x, one die each: the 1280 px copy measured
        dice of 44 to 52 px from three to six specks, where the coarser copies had taken the dark die and a
        tray's two screw holes for three lone pips, and the die, about 70 px, read nothing or a two at that
        size. Not for the first copy, whose ones keep its size against a finer copy's pair of specks: bodies
        of a pip's size may lie beside a hand of ones, not under its pips (matteop65 dice_49 as a Pi still:
        counted only on bodies, the 320 px copy's six lone pips became one, a 1280 px copy's pair of specks
        outweighed it, and five ones were read as [2]). Without witnessed bodies every such pip counts: white
        dice on pale wood stand out as no body.

        A die the copy took whole for a pip, with its own pip seen on it (`_dice_taken_whole`), is left out,
        and where no pip has a like-sized neighbour, the pips seen on such dice measure them before other
        lone blobs, and count as ones without a body under them: the blob round each is its die. Else the
        median of a lone one's pip and its die, or of its pip and two specks, measures neither: a white die
        showing 1 on darker wood, alone in an 8 MP still, was read as nothing (matteop65 dice_10 and
        four_9 turned 90, from 3x as far, as a Pi still: dice of about 190 px measured 688 and 396 px,
        the second from a cable's dark lengths, each with a glint on it)."""
        shrink = _copy_shrink(copy, gray)
        small = gray if shrink == 1.0 else resize(gray, shrink)
        side = min(small.shape)
        pips = find_pips(
            small,
            odd_kernel(kernel or _unsized_kernel(side)),
            (2.0, side * MAX_DIE_SHARE * self.params["pip_size"] * 1.6),
            threshold,
            self.polarity,
            self.params["pip_roundness"],
            self.params["pip_fill"],
            cores=False,
        )
        if len(pips) == 0:
            return _Estimate(None, 0, 0)
        gaps = np.hypot(pips.x[:, None] - pips.x[None, :], pips.y[:, None] - pips.y[None, :])
        whole, on_whole = _dice_taken_whole(pips, gaps, self.params["pip_size"])
        pips, gaps, on_whole = pips.subset(~whole), gaps[~whole][:, ~whole], on_whole[~whole]
        alike = alike_in_size(pips.diameter[:, None], pips.diameter[None, :])
        alike &= pips.dark[:, None] == pips.dark[None, :]
        near = gaps <= 4.5 * np.maximum(pips.diameter[:, None], pips.diameter[None, :])
        np.fill_diagonal(near, False)
        paired = (alike & near).any(axis=1)
        lone = on_whole if on_whole.any() else np.ones(len(pips), bool)
        pip = float(np.median(pips.diameter[paired] if paired.any() else pips.diameter[lone]))
        die = pip / self.params["pip_size"] / shrink
        die = float(np.clip(die, MIN_DIE_SHARE * short_side, MAX_DIE_SHARE * short_side))
        blobs = np.stack([pips.x / shrink, pips.y / shrink, pips.diameter / shrink, pips.dark], axis=1)
        if paired.any() or not self._pips_resolved(die, copy, gray):
            return _Estimate(die, int(paired.sum()), 0, blobs)
        ones = alike_in_size(pips.diameter, pip)
        if witnessed(bodies):
            ones &= on_bodies(np.stack([pips.x, pips.y], axis=1) / shrink, bodies) | on_whole
        return _Estimate(die, 0, int(ones.sum()), blobs, blobs[ones])


def _copy_shrink(copy: int, gray: np.ndarray) -> float:
    """How much the die-size estimate's copy `copy` pixels short shrinks `gray` (1.0: it is `gray` itself)."""
    return min(1.0, copy / min(gray.shape))


def _unsized_kernel(side: float) -> float:
    """The estimate's black-hat side on a copy `side` pixels short while nothing tells the dice's size: half
    the largest die believed (`MAX_DIE_SHARE`), so that every die's pips stand out in it."""
    return side * MAX_DIE_SHARE * 0.5


def _seen_again(ones_at: np.ndarray, blobs: np.ndarray) -> bool:
    """Whether every one of a coarser copy's lone pips (`ones_at`, `_Estimate`'s frame-pixel rows) is
    among a finer copy's `blobs` again: one of its polarity and alike in size within half its diameter of
    its centre. Then the finer copy sees the same pips, none resolved into a die's several pips, and the
    smaller blobs beside them that it measured may be specks."""
    if len(ones_at) == 0 or len(blobs) == 0:
        return False
    gaps = distances(ones_at[:, :2], blobs[:, :2])
    again = (
        (gaps < 0.5 * ones_at[:, 2:3])
        & alike_in_size(blobs[None, :, 2], ones_at[:, 2:3])
        & (blobs[None, :, 3] == ones_at[:, 3:4])
    )
    return bool(again.any(axis=1).all())


def _outweighs(finer: _Estimate, coarser: _Estimate, bodies: Bodies | None, pip_size: float) -> bool:
    """Whether a finer copy's die size replaces a coarser copy's (`FINER_PAIRS`).

    A coarser copy that took the dice for pips sees a handful of blobs; the finer copy that sees their
    pips finds several times as many in pairs. A hand of ones shows lone pips, though, and a finer copy
    may see a pair of specks beside them, which measured dice a fifth of their size (matteop65 dice_49 as
    a Pi still: the 320 px copy measured five ones' pips, the 1280 px copy a pair of specks, and
    [1, 1, 1, 1, 1] was read as [1, 2]). So a finer copy must find as many pips as a coarser copy's lone
    pips of one size. Only as many: lone blobs of one size are weaker evidence than pairs. They may be dark
    dice taken whole for pips, with a tray's two screw holes beside them (nell-byler 112905 enlarged), so
    dice bodies that agree with the finer copy (`SIZES_CONFIRM`) overrule them. Where the coarser copy's pips
    (its die times `pip_size`) are alike in size to the finer copy's dice, each of them is a die, and the
    finer copy needs only `TAKEN_DICE_PAIRS` times as many pairs. Lone pips that a finer copy sees again
    as they were (`_seen_again`: it resolved none into a die's several pips), where it measures other
    dice than the coarser copy, weigh as pairs do, so it needs `FINER_PAIRS` times as many: a die showing
    1 alone in an 8 MP still, with two specks of dust on the tray, was read as [2], the 1280 px copy
    having measured dice of 82 px on the specks for one of 220 px. Not more than that: a dark cable or a
    shadow is a lone blob that every copy sees, and a hand beside it shows the finer copy a dozen pairs or
    more (matteop65 five_29 turned 90, far, as a Pi still: 15 pairs, read as nothing when a blob seen
    again kept the coarser size outright). A finer copy that measures the same ones a little smaller
    measures them better (matteop65 dice_13 as a Pi still: 266 px on the 640 px copy for 284 on the
    320 px one, at which a side face's pip joined a one to read [1, 2]).
    """
    if finer.die is None:
        return False
    if coarser.die is None:
        return True
    ones = 0 if sizes_agree(bodies, finer.die, SIZES_CONFIRM) else coarser.ones
    if ones and not alike_in_size(finer.die, coarser.die) and _seen_again(coarser.ones_at, finer.blobs):
        ones *= FINER_PAIRS
    took_dice_for_pips = alike_in_size(coarser.die * pip_size, finer.die)
    needed = max(1, (TAKEN_DICE_PAIRS if took_dice_for_pips else FINER_PAIRS) * coarser.pairs, ones)
    return finer.die < coarser.die and max(finer.pairs, finer.ones) >= needed


def _dice_taken_whole(pips: Pips, gaps: np.ndarray, pip_size: float) -> tuple[np.ndarray, np.ndarray]:
    """Which of `pips` (`gaps` apart) are whole dice a copy of the frame took for pips, and which are the
    pips it saw on them: a blob of the other polarity inside another, alike in size to that one's
    `pip_size` share, is a pip on its die (a white die on darker wood is a light blob round its dark pip).
    A glint on a glossy pip is a blob of the other polarity inside it too, but a glint that size (a tenth
    to a fifth of the pip) is under `find_pips`' least blob of 2 px unless the copy's pips are 10 px or
    more, and the copies estimated on see pips a few pixels wide."""
    on = (
        (gaps < 0.5 * pips.diameter[:, None])
        & alike_in_size(pips.diameter[None, :], pip_size * pips.diameter[:, None])
        & (pips.dark[:, None] != pips.dark[None, :])
    )  # [i, j]: blob j lies on blob i
    return on.any(axis=1), on.any(axis=0)

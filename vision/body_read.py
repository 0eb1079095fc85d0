"""Die bodies read again, each in a crop at its own size: the dice the frame's reading missed or read low.

A frame may hold dice of two sets, one half the size of the other, whose small dice's pips merge into one blob
at the frame's die size; and coloured pips, or light pips outshone by a glint, are faint in gray, so a face
is read low (a two is often one diagonal of a four, five or six). Each body no face was read on, and each
coloured or light-pipped face read as a two, three or four, is read again in a crop at the body's own size:
in lightness (also clipped at the face's level), in red, in the opponent colours and in redness, and last in
how far each pixel lies from the face's colour; the reading with most pips wins (`vision.reader`'s step 8
tells the whole).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np

from vision.body import (
    BODY_CENTRE_SHARE,
    FAINT_CONFIDENCE,
    Bodies,
    colour_distance,
    dice_on_bodies,
)
from vision.complete import read_faces
from vision.contrast import MIN_SPREAD, brightness_range
from vision.faces import FACE_SHADE_SHARE, ROUNDNESS_NOISE_PX, Face, vote
from vision.frames import resize, shows_colour
from vision.pips import Pips, pips_for_dice
from vision.smear import SMEAR_CONFIDENCE, smeared_face

# In a die body's crop, a pip stands at least this many gray levels from its face, whatever the crop's range.
# A channel of a crop where no die lies spans little more than MIN_SPREAD, and a share of that is a level or
# two: there JPEG's blocks and a table's grain make pip-sized blobs (matteop65 five_43 from 3x as far: a body
# on plain wood spanned 15 levels in b*, where 13 blobs stood out by 2 to 7, and two of them read as a 2).
# Measured at 4 to 12 levels (nell-byler as taken, turned 180 and re-saved, matteop65 from 3x as far): no
# row lost a hand from 6 up, and 8 gained most.
MIN_PIP_CONTRAST = 8
# A body this close to a face read in gray (a share of the die side) is that face's die: a top face lies
# within 0.4 of a side of its body's centre (the body holds the side face and shadow a slanted camera sees),
# while the next die, side by side, is a whole side away.
OVERLAP_SHARE = 0.6
# ... but a body that holds the die's shadow, or a part of the next die, may be centred further off its face:
# where neither the body's measured nor its larger crop reads a face that near, a face the larger crop reads
# within this share is read again centred on itself (nell-byler 112951 turned 90: a gold die's 1 half a side
# off its body's centre, read alike in every channel and at every size). A neighbour's face a whole side
# away is not taken in.
OFF_CENTRE_SHARE = 0.6
# A coloured die read as one of these values is read again on its own body: a two may be one diagonal of a
# four, five or six whose other pips were faint, a three a six's column, a four a five without its centre.
# (A one is not: its body holds the side faces too, whose pips would outnumber it.)
LOW_READ_VALUES = (2, 3, 4)
# A lone pip read on a die body of its own may sit on a face this many times as uneven as one found in the
# whole frame: the body is already evidence of a die (a marbled or speckled die showing 1), where a speck
# on the tray or a glint beside a pip has none.
ON_BODY_SPREAD = 1.7
# In lightness, two pips on a die body of its own link when the face around one is up to this share of their
# contrast darker or lighter than around the other (`faces.FACE_SHADE_SHARE` elsewhere): a metallic or glossy
# die's sheen shades its face from one side to the other (nell-byler 100200 re-saved: a gold die's two read
# as a 1, the face around one pip 0.4 to 0.6 of their contrast darker than around the other in the crops
# read). In the colour channels the share stays: there, a face of another shade beside a pip is more likely
# the next die's other colour (there too, nell-byler read worse: hands lost as taken).
BODY_FACE_SHADE = 0.5
# A die showing 1 has its pip at its face's centre. On a die body, a lone pip within CENTRED_SHARE of the
# body's side from the body's centre may sit on a face CENTRED_SPREAD times as uneven as one found in the
# whole frame: a gold or marbled die's sheen and swirls reach round its pip (nell-byler 112305, 112911). A
# body's centre is rough, as it holds the die's shadow and side faces, so the pip may lie as far off it as a
# 1 may before it is taken for half of a two (`ONE_OFF_SHARE`): the red ones of blue and smoky dice lay
# about a seventh of a side off (nell-byler 095359, 112305 turned 90, 112353 cut by a pixel). The pip left
# of a two whose partner is faint mostly lies a third of a side off the centre, but on a body centred
# towards it as near (112127 turned 90, a red two then read as a 1), and a speck anywhere.
CENTRED_SHARE = 0.15
CENTRED_SPREAD = 2.5
# Dice of two sets on one table differ in size by a half or so (nell-byler's by a quarter), and a body
# measures a die at 0.8 of its side by its pips: a body less than this share of the frame's die size is no
# die but clutter standing out from its surroundings (a key's letter, a label's print). Read in a crop at its
# own size, an 8's or a B's holes pass for a two's pips, and a letter's strokes for a four's; nor does it make
# a light dot on it a die of another set showing 1 (`vision.reader`'s `_refuse_false_dice`).
SMALLEST_SET = 1 / 3
# A die body is read at its measured side, and also a tenth larger and smaller: its size is rough, and
# when both of those read more pips, they are the better guess (`read_body`; a face the larger crop alone
# reads on a body its measured side reads nothing on is read again at the other two, centred on itself, as
# is one the larger crop reads off the body's centre, `OFF_CENTRE_SHARE`, where neither reads one nearer).
BODY_SIZES = (1.0, 1.1, 0.9)
# A 1's pip is its die's centre, and a two's pips lie either side of it. So a 1 a body's measured crop reads
# over this share of the body's side off its centre is half of a two where the larger crop reads a 2 less
# than half as far off, and as surely or more: the two's other pip is lost at the measured size (nell-byler
# 100054: a glint over one pip of a black die's two, which two working sizes of three read as a 1 0.19 and
# 0.21 of a side off its body's centre, at 0.58 and 0.63, and the larger crop as a 2 at 1.0). A die's own 1
# lies near its body's centre, and a 2 the larger crop makes of it and the next die's pip lies between the
# two dice.
ONE_OFF_SHARE = 0.15
# A die body's face level is the median lightness within this share of its side of its centre: the middle
# of its top face, of which pips cover less than half (`_levelled`).
FACE_LEVEL_SHARE = 0.3


class BodyReader:
    """Reads die bodies again, each in a crop at its own size (`read_again`), with the reader's `params`, pip
    `polarity` and `scale_for` (the resize that brings dice of a size to the working size)."""

    def __init__(self, params: dict[str, float], polarity: str, scale_for: Callable[[float], float]) -> None:
        self.params = params
        self.polarity = polarity
        self.scale_for = scale_for
        # The bodies last read again, and the face read on each (`_face_on`).
        self._read: tuple[Bodies | None, dict[int, Face | None]] = (None, {})
        # On a die body of its own, a lone pip is a 1 on a less even face (`ON_BODY_SPREAD`), and in lightness
        # two pips link across more of a sheen's shading (`BODY_FACE_SHADE`).
        self.body_params = {
            **params,
            "face_spread": params["face_spread"] * ON_BODY_SPREAD,
            "face_shade": BODY_FACE_SHADE,
        }
        # JPEG keeps colour at half the resolution of lightness, so in a* and b* a small pip bleeds into the
        # face around it and measures larger or smaller than it is: pips of one face may differ in size by
        # the lightness ratio twice over, and in roundness by twice the pixel noise, its outline blurred over
        # pixels twice as wide (nell-byler 095929: a smoky die's red two, 0.91 and 0.72 round in a*, 12 to
        # 16 px wide, read as a 1). A step of shade between two pips there is no sheen, which is lightness,
        # but the next die's colour (`BODY_FACE_SHADE`).
        self.chroma_params = {
            **self.body_params,
            "size_ratio": self.body_params["size_ratio"] ** 2,
            "roundness_noise_px": 2.0 * ROUNDNESS_NOISE_PX,
            "face_shade": FACE_SHADE_SHARE,
        }

    def read_again(
        self,
        faces: list[Face],
        bodies: Bodies,
        gray: np.ndarray,
        tray: np.ndarray,
        scale: float,
        die_px: float,
    ) -> tuple[set[int], list[Face]]:
        """Die bodies read again, each at its own size: (ids of the faces replaced, the faces read), in work
        coordinates.

        A frame may hold dice of two sets, one half the size of the other: read at the frame's die size, the
        small dice's pips merge into one blob. Their bodies tell each die's own size, so every body no face
        was read on is read again. So is every body read as a two, three or four that shows colour or has
        light pips, the faces read low when some pips are faint in gray: coloured pips on a coloured die,
        and white pips on a black die, where a glint along one column outshines the pips beside it (white
        dice with black pips are read whole in gray): a two is often one diagonal of a four, five or six.
        No body less than a third of the frame's dice is read (`SMALLEST_SET`): that is a key's letter, whose
        holes at its own size pass for pips. The new reading replaces the old only when it has more pips:
        the old on the body, and any face read where the new one lies (`_same_die`), as a die may hold two
        bodies. A die in a heap the bodies could not split has no body of its own (`vision.body`), so a face
        read low with no body under it is read as a body too (`_unbodied`). A face another body's reading
        replaced is no longer on this one: a face read low between two touching dice is nearest both their
        bodies, and once one body reads its die, the other is read as a body with no face on it (nell-byler
        112353: a blue one beside a green four read as a two).

        Where no die read lies on a body, though, the bodies are not the dice: white dice on pale wood stand
        out as none, and what does is clutter, a cable's label or a laptop's corner. A face read faintly
        (under `FAINT_CONFIDENCE`) on a body with no face on it is then refused, as one read faintly where no
        body is (`vision.reader`'s `_refuse_false_dice`): matteop65 from 3x as far read false ones on them in
        six_10, three_36 and two_32. A sure face stands: a die by the frame's edge the whole frame missed
        (matteop65 two_47 turned 180, read as a two with confidence 1.0).
        """
        read = [face for face in faces if face.value is not None]
        centers = np.array([face.center for face in read], float).reshape(-1, 2)
        replaced: set[int] = set()
        extra = []
        places = list(zip(bodies.centers, bodies.sizes, strict=True)) + _unbodied(read, bodies, scale, die_px)
        bodies_are_dice = not read or dice_on_bodies(read, bodies, scale) > 0
        for index, (center, side) in enumerate(places):
            if side < SMALLEST_SET * die_px:
                continue
            on_body = None
            if centers.size:
                gaps = np.hypot(*(centers - center * scale).T)
                nearest = int(np.argmin(gaps))
                if gaps[nearest] < OVERLAP_SHARE * die_px * scale and id(read[nearest]) not in replaced:
                    on_body = read[nearest]
            if on_body is not None and (
                on_body.value not in LOW_READ_VALUES
                or (on_body.dark and not shows_colour(tray, center, side))
            ):
                continue
            if index < bodies.count:
                face = self._face_on(bodies, index, gray, tray)
            else:  # a place `_unbodied` made of this frame's faces: no body to remember it by
                face = self.read_body(gray, tray, center, side)
            if face is None or (on_body is not None and face.value <= on_body.value):
                continue
            if on_body is None and not bodies_are_dice and face.confidence < FAINT_CONFIDENCE:
                continue
            x, y = face.center
            face = replace(face, center=(x * scale, y * scale), size=face.size * scale, pip=face.pip * scale)
            # One die may hold two bodies (its side faces split from it), each read on part of it: a three
            # and its middle pip as a one (nell-byler 112404). A face read where another lies is that die.
            under = [other for other in read if id(other) not in replaced and _same_die(face, other)]
            if on_body is not None:
                under.append(on_body)
            read_again = [other for other in extra if _same_die(face, other)]
            if any(other.value >= face.value for other in under + read_again):
                continue
            replaced.update(id(other) for other in under)
            extra = [other for other in extra if not _same_die(face, other)] + [face]
        return replaced, extra

    def _face_on(self, bodies: Bodies, index: int, gray: np.ndarray, tray: np.ndarray) -> Face | None:
        """`read_body`'s face on the `index`th of `bodies`, remembered while the same `bodies` are read again.

        A frame read at the bodies' size too (`vision.reader`) reads each body twice alike, and a camera's
        still frames share their run's bodies (`vision.stream`): a die lying still shows the same face on
        every frame, and reading it in its crop costs a frame several times a plain one's work
        (640x480 simulated tray, calibrated camera stream of nine still frames a roll, 0.3 s at 30 frames a
        second: 12.2 ms a frame on average, 9.0 with the faces remembered; 7.2 ms median either way). Only
        the bodies' own faces are kept, one each: however long the dice lie still, no more than that.
        """
        read, faces = self._read
        if read is not bodies:
            faces = {}
            self._read = (bodies, faces)
        if index not in faces:
            faces[index] = self.read_body(gray, tray, bodies.centers[index], float(bodies.sizes[index]))
        return faces[index]

    def read_body(self, gray: np.ndarray, tray: np.ndarray, center: np.ndarray, side: float) -> Face | None:
        """The face read on the body at `center` (about `side` wide), in frame pixels, or None: its pips
        (`_read_body_sized`), or the three or six whose red pips JPEG ran into bars (`_smeared_face`) where
        the pips read no face or one of fewer pips. Those are the pips that stayed apart: a six's four
        corners, whose gaps are widest (nell-byler 112517), or two of a three's. The bars are looked for at
        the measured size alone, so they never lend a crop of another size the vote it needs
        (`_read_body_sized`'s two sizes)."""
        face = self._read_body_sized(gray, tray, center, side)
        smeared = _smeared_face(tray, center, side)
        if smeared is not None and (face is None or smeared.value > face.value):
            return smeared
        return face

    def _read_body_sized(
        self, gray: np.ndarray, tray: np.ndarray, center: np.ndarray, side: float
    ) -> Face | None:
        """The face the pips read on the body at `center` (about `side` wide), in frame pixels, or None.

        A body's side is measured roughly (its blob may hold the die's shadow and side faces, or miss a
        dark rim), and a crop read at a size a little off can lose a pip to a glint or the crop's edge. So
        the reading at the measured side stands unless the body read a tenth larger and a tenth smaller
        (`BODY_SIZES`) both show more pips; then the lesser of those two is kept. Both must agree: one
        size alone may take in the next die's pips, and the measured size is not overruled by one read.

        A body's centre is rough too: a gold die's sheen may split it into two bodies, each centred about a
        third of a side off its face, so that at the measured size its pip lies too far from the centre to
        be the body's (nell-byler 112200 re-saved: a gold die's 1, read only by the larger crop). So when
        the measured size reads nothing and the larger crop reads a face, that face is read again centred
        on itself (`_read_at_face`). When neither reads a face near the centre, a face the larger crop reads
        further off it (`OFF_CENTRE_SHARE`: a body holding the die's shadow) is read again so too. And a 1 the
        measured size reads off the centre is half of a two the larger crop reads centred on it
        (`ONE_OFF_SHARE`): a die's 1 is at its centre, and a glint can hide one pip of a two.
        """
        measured, larger, smaller = BODY_SIZES
        face = self._read_body_at(gray, tray, center, side * measured)
        value = face.value if face is not None else 0
        grown = self._read_body_at(gray, tray, center, side * larger)
        if face is None and grown is None:
            aside = self._read_body_at(gray, tray, center, side * larger, OFF_CENTRE_SHARE)
            return None if aside is None else self._read_at_face(gray, tray, aside, side)
        if _half_of_a_two(face, grown, center, side):
            return grown
        if grown is None or grown.value <= value:
            return face
        shrunk = self._read_body_at(gray, tray, center, side * smaller)
        if shrunk is None or shrunk.value <= value:
            return face if face is not None else self._read_at_face(gray, tray, grown, side)
        return grown if grown.value <= shrunk.value else shrunk

    def _read_at_face(self, gray: np.ndarray, tray: np.ndarray, face: Face, side: float) -> Face | None:
        """`face`, read by a body's larger crop only, as read again in crops of the body's measured and
        smaller sizes (`side` measured) centred on the face itself, or None unless both read its value.

        Both must read it, as both other sizes must at the body's centre: one crop alone may take in the next
        die's pips. (A face the larger crop took in from the next die lies on that die, and is dropped where
        that die was read with as many pips or more: `read_again`.)
        """
        measured, _, smaller = BODY_SIZES
        at = np.array(face.center)
        again = self._read_body_at(gray, tray, at, side * measured)
        if again is None or again.value != face.value:
            return None
        less = self._read_body_at(gray, tray, at, side * smaller)
        return again if less is not None and less.value == face.value else None

    def _read_body_at(
        self,
        gray: np.ndarray,
        tray: np.ndarray,
        center: np.ndarray,
        side: float,
        centre_share: float = BODY_CENTRE_SHARE,
    ) -> Face | None:
        """The face with most pips read on the body at `center` (`side` wide), in frame pixels, or None.
        It lies within `centre_share` of the side of the body's centre. That share picks the faces kept
        only: a channel's fallbacks below (lone cores, a centred 1) are asked for as at `BODY_CENTRE_SHARE`.

        The body is read in lightness, in red and in the two opponent colours (`_opponent_channels`): a
        body nothing was read on in gray is often a die whose pips differ from it in hue alone. Red pips on
        a dark or blue die, a few pixels wide, are bright in red, which carries lightness's resolution,
        while JPEG smears them into the face in a*. Red is read with the opponent colours' looser pip sizes
        (its colour part is at half resolution too). Only faces near the body's centre (`group_faces`'
        focus) are read, so the next die in the crop cannot pass this one's face for a side face of its own.
        In gray, a lone pip's face is also judged without the light blobs beside it (`find_pips`' glare): a
        glossy die's reflection of the window is one, and reflections are white, so not in the colours. A
        sheen's shading is lightness too: two pips link across it in gray alone (`BODY_FACE_SHADE`).
        In every channel, pips the black-hat merged with the face between them are also looked for as
        maximally stable regions (`find_pips`' stable): only here, on a body that is evidence of a die, as
        in the whole frame they add false dice (measured: matteop65 29 more) and cost time.
        In a channel that reads no face on the body, the same pips are grouped again with lone cores allowed
        as ones (`group_faces`), and then the channels vote: allowed at once, a core beside a five knocked it
        out as a side face; asked only when no channel read anything, two specks one colour channel read as
        a two stood alone against the one gray and red read (nell-byler 095800, a purple die). Where that
        reads nothing either, a lone pip at the body's centre is a 1 on a face more uneven than elsewhere
        (`CENTRED_SPREAD`): a gold die's sheen or a marbled die's swirls round the pip of its one.
        Lightness is also read clipped from above at the face's level (`_levelled`), where a dark die's bevel
        no longer stands out with the corner pips beside it; there only layouts of three pips or more count.
        So they do in `_redness`, where red pips stand alone on a blue die with pale swirls: all its face is
        one level there, and a red speck at a neighbour's edge passes for a clean one.
        A body no channel reads a face on is read last in how far it lies from its face's colour
        (`_unlike_face`). Only then: as one more voter, where the reading with most pips wins, it counted a
        glint beside a four as a five's centre pip (nell-byler, three dice). And only when the profile leaves
        the pips' polarity open: pips of either polarity are far from their face's colour.
        """
        height, width = gray.shape
        half = int(side)
        x0, y0 = max(0, int(center[0]) - half), max(0, int(center[1]) - half)
        x1, y1 = min(width, int(center[0]) + half + 1), min(height, int(center[1]) + half + 1)
        local = self.scale_for(side)
        focus = ((center[0] - x0) * local, (center[1] - y0) * local)
        # (channel, params, whether a lone pip may have glare beside it: in lightness alone, as a
        # reflection is white, while in the colour channels a bright blob beside it is the die's swirl;
        # whether only layouts of three pips or more count there)
        crops = [
            (gray[y0:y1, x0:x1], self.body_params, True, False),
            (tray[y0:y1, x0:x1, 2], self.chroma_params, False, False),
        ]
        crops += [
            (channel, self.chroma_params, False, False) for channel in _opponent_channels(tray[y0:y1, x0:x1])
        ]
        crops.append((_redness(tray[y0:y1, x0:x1]), self.chroma_params, False, True))
        levelled = _levelled(gray[y0:y1, x0:x1], (center[0] - x0, center[1] - y0), side)
        crops.append((levelled, self.body_params, False, True))
        channels = []
        for crop, params, glare, layouts_only in crops:
            found = self._crop_pips(crop, side, local, params, glare)
            if found is not None:
                channels.append((*found, params, layouts_only))
        if not channels:
            return None

        def gap(face: Face) -> float:
            """How far `face` (crop work pixels) lies from the body's centre, in shares of its side."""
            return float(np.hypot(face.center[0] - focus[0], face.center[1] - focus[1])) / (side * local)

        def on_body(face: Face, share: float = BODY_CENTRE_SHARE) -> bool:
            """Whether `face` is read, within `share` of the body's side of its centre."""
            return face.value is not None and gap(face) <= share

        # A lone core is a 1 only in a channel that read nothing else on the body (see `group_faces`), and a
        # lone pip on an uneven face only at the body's centre.
        uneven = self.params["face_spread"] * CENTRED_SPREAD
        readings = []
        for work, pips, params, layouts_only in channels:
            faces = read_faces(pips, work, side * local, params, focus)
            if layouts_only:
                readings.append([face for face in faces if face.is_layout])
                continue
            if not any(on_body(face) for face in faces):
                faces = read_faces(pips, work, side * local, params, focus, lone_cores=True)
            if not any(on_body(face) for face in faces):
                ones = read_faces(pips, work, side * local, {**params, "face_spread": uneven}, focus)
                faces = faces + [face for face in ones if face.value == 1 and gap(face) <= CENTRED_SHARE]
            readings.append(faces)
        read = [face for face in vote(readings, side * local) if on_body(face, centre_share)]
        if not read and self.polarity == "auto":
            unlike = _unlike_face(tray[y0:y1, x0:x1], (center[0] - x0, center[1] - y0), side)
            found = self._crop_pips(unlike, side, local, self.chroma_params, False)
            if found is not None:
                work, pips = found
                faces = read_faces(pips, work, side * local, self.chroma_params, focus)
                read = [face for face in faces if on_body(face, centre_share)]
        if not read:
            return None
        face = max(read, key=lambda face: face.value)
        at = (face.center[0] / local + x0, face.center[1] / local + y0)
        return replace(face, center=at, size=face.size / local, pip=face.pip / local)

    def _crop_pips(
        self, crop: np.ndarray, side: float, local: float, params: dict[str, float], glare: bool
    ) -> tuple[np.ndarray, Pips] | None:
        """(the crop at work size, its pips) for one channel of a die body's crop (`side` wide in frame
        pixels, `local` work pixels per frame pixel), or None when the crop is too flat to hold pips. A pip
        stands `pip_contrast` of the crop's range from its face, and at least `MIN_PIP_CONTRAST`."""
        spread = brightness_range(crop)
        if spread < MIN_SPREAD:
            return None
        work = resize(crop, local)
        threshold = max(self.params["pip_contrast"] * spread, MIN_PIP_CONTRAST)
        return work, pips_for_dice(work, side * local, threshold, params, self.polarity, glare, True)


def _same_die(face: Face, other: Face) -> bool:
    """Whether two faces' centres lie within `OVERLAP_SHARE` of the smaller one's side: one die. (The
    larger may be a two read across two dice, its side guessed from the pips' diagonal.)"""
    gap = math.dist(face.center, other.center)
    return gap < OVERLAP_SHARE * min(face.size, other.size)


def _unbodied(
    faces: list[Face], bodies: Bodies, scale: float, die_px: float
) -> list[tuple[np.ndarray, float]]:
    """A die body's place (centre and side, image pixels) for each of `faces` (work coordinates, `scale` work
    pixels per image pixel) read low (`LOW_READ_VALUES`) with no body within `OVERLAP_SHARE` of a die side
    (`die_px`, image pixels): centred on the face, the typical body's side.

    Touching dice make one blob, split into dice only up to a heap of twelve (`vision.body`): in a crowd of
    twenty dice, a coloured die read low has no body to be read on (nell-byler 112332: a six read as a four).
    """
    if not bodies.count:
        return []
    places = []
    for face in faces:
        if face.value not in LOW_READ_VALUES:
            continue
        at = np.array(face.center) / scale
        if np.hypot(*(bodies.centers - at).T).min() >= OVERLAP_SHARE * die_px:
            places.append((at, bodies.size))
    return places


def _half_of_a_two(one: Face | None, two: Face | None, center: np.ndarray, side: float) -> bool:
    """Whether `one`, read in the measured crop of the body at `center` (`side` wide), is a 1 that is half
    of `two`, a 2 its larger crop read at least as surely: the 1 lies over `ONE_OFF_SHARE` of the side off the
    centre, and the 2 less than half as far off. A fainter 2 may be a die's 1 and a speck beside it, which
    the measured crop read alone (nell-byler 112305 re-saved: a smoky die's 1 at 0.66, the 2 at 0.22)."""
    if one is None or two is None or (one.value, two.value) != (1, 2) or two.confidence < one.confidence:
        return False
    one_off, two_off = (float(np.hypot(*(np.array(face.center) - center))) for face in (one, two))
    return one_off > ONE_OFF_SHARE * side and two_off < one_off / 2


def _smeared_face(tray: np.ndarray, center: np.ndarray, side: float) -> Face | None:
    """The three or six a die body (at `center` in the BGR `tray`, `side` wide) shows as red bars where JPEG
    ran its pips together (`vision.smear`), in frame pixels, or None. The crop is the body's square alone: a
    neighbour's pips beside it would be blobs of their own."""
    half = int(side / 2)
    x, y = int(center[0]), int(center[1])
    if x < half or y < half:
        return None
    face = tray[y - half : y + half + 1, x - half : x + half + 1]
    if face.shape[:2] != (2 * half + 1, 2 * half + 1):
        return None
    smear = smeared_face(face)
    if smear is None:
        return None
    at = (float(center[0]), float(center[1]))
    # Like a pip, a bar is no lighter than the face (dark pips).
    return Face((), smear.value, at, side, smear.angle, SMEAR_CONFIDENCE, pip=smear.width)


def _levelled(gray: np.ndarray, center: tuple[float, float], side: float) -> np.ndarray:
    """A die body's crop of lightness (`gray`, the body at `center`, `side` wide) clipped from above at its
    face's level.

    The black-hat measures a dark pip against the lightest within half a die. On a dark die on a pale tray
    the tray lifts that within half a die of the die's border, so a darker bevel round the face stands out
    as much as the corner pips beside it, and the black-hat cuts them as one blob (nell-byler's gold dice:
    a six read as a four, a three as a two). Clipped at the face's level (the median of the body's middle,
    which pips cover less than half of), the tray, a glint and the face's lighter swirls are all face, and
    only what is darker than the face stands out. A swirl darker than the face stands out there too, so the
    clipped crop counts only layouts of three pips or more (`_read_body_at`). Light pips need no such copy:
    a die with light pips is dark, and the top-hat leaves out a pale tray beside it, light over more than
    its kernel.
    """
    return np.minimum(gray, np.uint8(np.median(_middle(gray, center, side))))


def _middle(image: np.ndarray, center: tuple[float, float], side: float) -> np.ndarray:
    """The middle of a die body's crop (`image`, the body at `center`, `side` wide), `FACE_LEVEL_SHARE` of
    its side each way: pips cover less than half of it, so its median is the face."""
    reach = max(1, int(FACE_LEVEL_SHARE * side))
    x, y = int(center[0]), int(center[1])
    return image[max(0, y - reach) : y + reach + 1, max(0, x - reach) : x + reach + 1]


def _unlike_face(image: np.ndarray, center: tuple[float, float], side: float) -> np.ndarray:
    """How far each pixel of a die body's crop (BGR `image`, the body at `center`, `side` wide) lies from
    its face's colour (the median of the body's middle, which pips cover less than half of), in CIELAB
    units (`colour_distance`).

    A pip differs from its face in lightness and in hue at once, while a face's own swirls and sheen are
    mostly lighter or darker shades of its colour, whose squared difference this weighs at half. So a pale
    pip inside a lighter swirl of a blue die, one blob with it in lightness and smeared by JPEG in the
    colours, stands alone here (nell-byler 100127).
    """
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    face = np.median(_middle(lab, center, side).reshape(-1, 3), axis=0)
    distance = colour_distance(lab.reshape(-1, 3), face[None, :]).reshape(lab.shape[:2])
    return np.clip(distance, 0, 255).astype(np.uint8)


def _redness(image: np.ndarray) -> np.ndarray:
    """How much redder than both green and blue each pixel of a BGR crop is, clipped at zero.

    Red pips on a dark blue die with pale swirls (nell-byler's blue dice) are faint in every other channel:
    in red the swirls outshine them, and in a* the face's blue and teal swirls vary as much as the pips
    stand out. Clipped, whatever is no redder than gray is one level, and the pips alone stand out: over the
    90th percentile of the rest of the die's box, by 6 to 49 levels on six such dice, against -1 to 24 in
    a* and less than nothing in red.
    """
    blue, green, red = (image[:, :, index].astype(np.int16) for index in range(3))
    return np.clip(red - np.maximum(green, blue), 0, 255).astype(np.uint8)


def _opponent_channels(image: np.ndarray) -> list[np.ndarray]:
    """CIELAB's a* (green to red) and b* (blue to yellow) of a BGR image.

    Dark red pips on a black die are as dark as the die in gray and in red alike, and JPEG keeps their
    colour at half resolution; in a* they are the only red thing there.
    """
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    return [lab[:, :, 1], lab[:, :, 2]]

"""The dice reader: one camera frame in, the value of every die out.

How it reads, in order:
1. The frame is made 8-bit BGR (`vision.frames`), rid of salt and pepper (pixels far from all their
   neighbours, from a failing sensor or cable, replaced by their neighbours' median when there are many,
   and a frame speckled all over refused), rid of a colour cast (its brightest part, white things under the
   light, made gray: a camera white-balanced for other light), brightened when it is underexposed (its
   brightest half percent below three quarters of full scale: a dim room), and cropped to the profile's tray
   (one narrower than a die, or than `MIN_SIDE`, is reported, not read). Pip thresholds are a share of its
   brightness range (1st to 99th percentile; when a few dice lie on a plain tray, at least that near their
   bodies and on them, `vision.contrast`), and never within a few times its pixel jitter (`PIP_GRAIN`).
2. Die size: taken from the profile, or estimated (`vision.die_size`) from a quick pass on a small copy of the
   frame (the median size of pips that have a like-sized neighbour, times the die-to-pip ratio), and on copies
   twice as fine when the frame is larger and those see several times as many such pips (dice a small share of
   a large frame, whose pips the small copy cannot see: `FINER_PAIRS`; only twice as many where the small
   copy's pips are as large as the finer copy's dice), or as many as the lone pips of one size the coarser
   copy resolved (a hand of ones: `_outweighs`; a finer copy's own lone pips count so only on die bodies,
   where bodies as large as a die are witnessed: a pale board's dust specks are lone pips too), unless two
   dice bodies alike in size confirm the small copy's size and that copy resolved the pips it measured
   (`SIZES_CONFIRM`). A blob with a pip of the other polarity on it is a die a copy took whole for a pip: it
   is left out, and its pip, a lone one's, measures it before specks do (`_dice_taken_whole`). Lone pips a
   finer copy sees again as they were weigh as pairs against other dice it measures (`_seen_again`): the
   smaller blobs beside them may be dust.
   The dice bodies (`vision.body`: compact blobs that stand out from the surface, looked for on finer copies
   when the usual one shows fewer than three and none it resolves, and again on a finer copy when the size
   says dice are a few pixels wide in theirs: `BODY_DIE_PX`) give a second opinion; when two or more bodies
   disagree with the pips by more than twice (`SIZES_DIFFER`), the frame is read at both sizes and the reading
   with more dice wins (replacing dice read at the pips' size only with dice read on two bodies or more (a 1
   whose pip fills its body, a whole die taken for a pip, is one of them and no die read: `WHOLE_DIE_PIP`),
   a white die's pips being bodies too, with a die read within each die it replaces but such a whole die,
   `_accounts_for`, and with dice whose pips measure the bodies' size rather than the first estimate).
3. The frame is resized so a die is about `WORK_DIE_PX` pixels: big photos are shrunk before any real work,
   small dice enlarged (up to `MAX_ENLARGE` times), and every later distance is a share of that die size,
   so no pixel constant belongs to one camera.
4. Pip candidates of either polarity (`vision.pips`: solid, round blobs; a blob a glint or a neighbouring pip
   joined is cut again nearer its peak; bars a pip wide along one line are the pips of a die that moved as the
   photo was taken, never a 1 alone, nor a layout squashed as much as they are), grouped into faces and
   checked against the canonical layouts (`vision.faces`: distances, point symmetry, a four squashed no more
   than its pips, and a two's pips alike (one smaller and flatter is a side face's pip beside a 1), as a six's
   are (an end row flatter than the rest is the side face below a four); of two faces on one die, the side
   face is the one with flatter or smaller pips, or of a flatter face and a squashed one (its pips, or a
   layout of four pips or more, squashed more than the other's) in shade beside it (or lit alike straight
   below it), the latter, as a die seen from below 45 degrees shows, however the camera is turned). A face
   read low is looked at where its missing pips would be (`vision.complete`: a two may be half of a four,
   or two thirds of a three).
   Groups that look like dice but fit no layout, and dice cut by the frame edge (a four, five or six by its
   own size, other faces by the frame's die size, as its faces of three pips or more measure it), are reported
   as unreadable regions so the game can ask instead of guessing.
5. Around the dice that show colour (faces gray read, and die bodies it read nothing on), the red, green
   and blue channels are read too, and for each die the reading with most pips wins: red pips on a blue die
   are faint in gray and plain in red. But a two one colour channel alone reads does not outvote a one that
   gray and another channel read (white pips on a red die are faint in red, and a side face's pip beside the
   one makes a two there). White dice with black pips are read in gray alone.
6. A lone pip reads as a 1 only on a die body of its own, or (a die the colour of the surface: a white die
   on a white tray) inside a square outline of its own (`vision.outline`); so do two pips under half the
   frame's pips read as a 2 (`SPECK_SHARE`: a tray's dust in a fine still), and any face read faintly
   (`FAINT_CONFIDENCE`: a tray's wood grain). A 1 or a 2 reads only with the pip polarity of the frame's
   dice, pips as large as theirs, or a die body under it (a third of the frame's dice wide at least,
   `SMALLEST_SET`: a light symbol on dark keys is a small body of its own): a speck on the tray or letters
   on a keyboard are not dice. Nor is anything read on the top of a tray's wall (`vision.body`'s
   rim, the outer third of the wall from outside to floor): a glossy rim mirrors the dice beside it, and
   no die rests there.
7. Of a read face and a darker one of the same colour (or, on a white die, tinted towards the table's) just
   below it (or down and to one side: a die turned to the camera), the darker is a side face of the same die
   seen at a slant (`vision.sides`): rooms are lit from above. When the pips are squashed (the camera looks at
   a slant), the lower one is a side face however it is lit. "Below" is towards the camera, which the pips'
   squash and the shaded faces tell for a camera turned on its mount too, or, with no face in shade, the
   top faces growing rounder towards it (perspective: the near table is seen from higher above).
8. Die bodies no face was read on (a die of a smaller set, or coloured pips faint in gray), and coloured dice
   or dice with light pips read as a two, three or four (faces read low when pips are faint or outshone by a
   glint), are read again (`vision.body_read`), each in a crop at its own size (or a tenth larger and smaller,
   when both read more pips: a body's size is rough; or, when its own size reads nothing and only the larger
   crop reads a face, in crops of its own size and a tenth smaller centred on that face, when both read it: a
   body's centre is rough too, and as rough where no crop reads a face near it and the larger reads one up to
   0.6 of a side off, on a body that holds its die's shadow; a 1 its own size reads off the centre, where the
   larger crop reads a 2 centred on it as surely, is that two, one of whose pips a glint hid; but a body less
   than a third of the frame's dice is a key's letter or a label's print, no die), in gray, in red, in the
   opponent colours a* and b*, and in redness (layouts of three pips or more): pips differ from their face in
   lightness or in hue, red pips, the commonest coloured ones, are bright in red at nearly full resolution,
   and on a blue die whose pale swirls outshine them in red, they alone are redder than gray. Only faces near
   the body's centre are its die's: a neighbour's face in the crop must not pass the die's own for a side
   face. A lone pip there may sit on a less even face than elsewhere (a marbled die showing 1): the body is
   evidence of a die; in gray, a light streak beside it may be glare (a glossy die reflects the window), which
   is no sign of clutter, and two pips link across a larger step of their face's shade (a metallic die's sheen
   darkens it from one side to the other, where in the whole frame such a step is the next die of another
   colour). There, pips are also looked for as maximally stable regions where the black-hat merged them into a
   blob that is no pip (a marbled face's darker stretches stand out nearly as much as its pips; a small die's
   pips blur into a bar). In a channel that reads nothing else on a body, a lone pip cut out of a larger blob
   (`vision.pips`' cores: a dark die's light pip joined to its glint) reads as a 1, which it never does in the
   whole frame, and so does a lone pip at the body's centre (within `CENTRED_SHARE` of a side: the centre is
   rough), where a 1's pip is, on a face more uneven still (a gold die's sheen). Lightness is read clipped
   from above at the face's level too: a dark die's bevel stands out from a pale tray as much as the corner
   pips beside it, which the black-hat then cuts with it as one blob, while below the face's own level only
   dark pips stand out (layouts of three pips or more count there: a darker swirl does too). A body no channel
   reads (pip polarity left open) is read last in its colour distance from its face, where a face's lighter
   swirl round a pale pip is no longer one blob with it. A body whose face's redder blobs in a* are one bar
   through its centre, a three's diagonal long, shows a three, and two rows side by side a six
   (`vision.smear`: JPEG ran the red pips of a small smoky die together), where no channel reads a face or
   only fewer pips (a six's four corners, whose gaps are widest). What they add is checked as in steps 6 and 7
   (a die seen low shows its front face as a body of its own, below the top face).
9. With a tray region, the regions left unreadable near its edge, and the ones, twos and threes read there
   smaller than a die, are read again in the whole frame: the region lies a little inside the tray's
   walls, and a die against a wall reaches past it.
10. All of this is done with dice resized to each of `AGREEING_DIE_PX` (a twentieth smaller and larger than
   `WORK_DIE_PX` too), and the dice most of the readings saw, valued as most read them, are the frame's
   (`vision.consensus`): where a pip lands on the pixel grid decides some thresholds, and a die read alike
   at two sizes is read for a reason that holds on the next photo.
   The middle size is read only when the smallest and the largest differ
   (`vision.consensus.agree_outer_first`).
   A calibrated reader reads these sizes too (`DiceReader.read`): the roll watcher's frames of still dice
   put every pip where the last one did, so they cannot outvote a size's misread. A camera's stream is read
   a size a frame, in turn, the sizes agreeing over the frames of still dice (`vision.stream`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from statistics import median
from typing import Any

import cv2
import numpy as np

from vision.body import (
    BODY_SHORT_SIDE,
    FAINT_CONFIDENCE,
    MIN_ALIKE,
    SIZE_WITNESSES,
    Bodies,
    body_contrast,
    dice_on_bodies,
    estimate_surface,
    find_bodies,
    on_bodies,
    on_body,
    sizes_agree,
    witnessed,
)
from vision.body_read import OVERLAP_SHARE, SMALLEST_SET, BodyReader
from vision.complete import read_faces
from vision.consensus import agree_outer_first
from vision.contrast import MIN_SPREAD, brightness_range, grain
from vision.die_size import DieSizer
from vision.faces import Face, measured_die, vote
from vision.frames import (
    MIN_SIDE,
    as_bgr,
    balanced,
    despeckled,
    exposed,
    frame_size,
    resize,
    shows_colour,
)
from vision.outline import outline_contrast
from vision.pips import pips_for_dice
from vision.profile import CalibrationProfile
from vision.reading import Die, Reading, Region
from vision.sides import drop_shaded_sides

# Tunable parameters (the calibration may override them through `profile.reader`): name -> default.
DEFAULT_PARAMS: dict[str, float] = {
    # Least pip-to-face brightness difference, as a share of the frame's brightness range (1st to 99th pct).
    "pip_contrast": 0.14,
    # Pip diameter as a share of the die side: converts pip sizes to die sizes and back.
    "pip_size": 0.14,
    # Least minor/major axis ratio of a pip: a top face seen up to ~55° off vertical is rounder; side faces
    # seen edge-on and glyphs are flatter.
    "pip_roundness": 0.55,
    # Least share of its moment ellipse a pip covers: a pip is a solid disc, a glyph on a key is strokes.
    "pip_fill": 0.85,
    # Furthest two pips of one face may be apart, as a share of the die side: a two's diagonal is 0.71 on the
    # standard layout and 0.85 with corner pips a fifth in from the edges, and a die size measured from other
    # faces' layouts (their side faces, in a slanted view) may be a few percent short of it.
    "link_distance": 0.88,
    # Largest size ratio of two pips on one face: a die's pips are one size (a one's may be larger, and is
    # alone), so a fleck or a glint half again smaller beside a one does not make it a two.
    "size_ratio": 1.55,
    # Mean misfit of the pip layout's normalised distances allowed against the canonical face (point symmetry
    # is checked besides, so a foreshortened face may misfit this much).
    "layout_tolerance": 0.15,
    # How uneven the face around a lone pip may be (in units of the pip's contrast) for it to read as a 1.
    "face_spread": 0.3,
    # How far the face around a lone pip must stand out from the surface around it, in units of how much
    # that surface varies by itself (`vision.body`): a die showing 1 has a body, a speck on the tray has not.
    "body_contrast": 2.0,
}
# Sane range of each parameter: what the calibration may search and what a profile may set.
PARAM_RANGES: dict[str, tuple[float, float]] = {
    "pip_contrast": (0.04, 0.4),
    "pip_size": (0.12, 0.28),
    "pip_roundness": (0.2, 0.8),
    "pip_fill": (0.5, 0.95),
    "link_distance": (0.72, 1.1),
    "size_ratio": (1.2, 2.5),
    "layout_tolerance": (0.03, 0.2),
    "face_spread": (0.2, 1.5),
    "body_contrast": (0.0, 8.0),
}

WORK_DIE_PX = 60.0  # die side after resizing: pips of ~8 px, whose shape is more than pixel noise
# A frame, or a die body's crop, is enlarged at most this much to bring its dice to WORK_DIE_PX: dice down to
# 20 px (pips of 3 px, the least that still shows a round blob) are read at the full working size, and smaller
# ones, which hold no more detail, cost no more time. Read at most twice enlarged, small dice were read at
# 40 to 60 px, where the pixel grid coarsens every shape test (diag, photos at 0.7 times their size:
# nell-byler 113 -> 122 and matteop65 372 -> 376 hands; at 0.5 times matteop65 362 -> 369; as taken
# nell-byler 140 -> 141).
MAX_ENLARGE = 3.0
# Without a die size from calibration, a frame is read with dice of each of these sizes and the readings
# agree (`vision.consensus`): where a pip falls on the pixel grid decides some readings.
AGREEING_DIE_PX = (57.0, 60.0, 63.0)
# Dice bodies are found on a copy 160 px short (`vision.body`); when the die size says dice are narrower
# than BODY_DIE_PX there (dice under 5% of the frame's height), they are looked for again on a copy where
# they are that wide: a blob of a few pixels has no edge, shape or area to tell a die by. There, a blob
# many dice long is no die (`vision.body.DIE_EXTENT`): a sixth of that copy is many dice.
BODY_DIE_PX = 8.0
# Before the die size is known: when the 160 px copy shows fewer than MIN_ALIKE bodies, they are looked for
# on copies twice as fine, each at most half the frame's short side, until one shows MIN_ALIKE or more
# (`_bodies`). Dice under 2% of a large frame's height (many dice in a Pi camera's still of a whole tray) are
# blobs of 3 px or less there, under the least area a die's blob has: then the pips' estimate, which may take
# whole dice for pips, has no bodies to overrule it, or only two blobs of heaped dice (nell-byler 095550 from
# 3x as far: two bodies of 57 px for dice of 30). A smaller frame's dice that small are too small to read at
# all. A finer copy sees a white die's pips as bodies too (matteop65 from 3x as far), and a patch of the
# frame that holds twelve of them as a tray's floor inside its wall: its rim is not kept, and its bodies
# count only when they are too small for the 160 px copy and larger than the pips of the bodies it saw.
RING_SHARE = 0.3  # radius of the face ring checked around a lone pip, as a share of the die side
# Two pips under this share of the frame's pips (`pip_size` of its die) are a pair of specks unless a die
# body or outline is round them. A still fine enough shows a tray's dust as dots spaced like a two's pips and
# a third to half their size (nell-byler as a Pi still: 0.40 to 0.46, read as three false twos), while
# white dice showing 2 on a white tray, with no body, have pips of 0.86 and more. A die of a smaller set,
# whose pips may be that small, has a body or an outline of its own.
SPECK_SHARE = 0.5
# A lone pip on a face the colour of the surface (a white die on a white tray) has a die round it when the
# square outline round it is this many times as steep, in the surface's own units (`vision.outline`), as a
# body must stand out from it in colour (`body_contrast`): a thin edge is a slighter cue than a whole face,
# and a side face's pip has its die's edges round it too. nell-byler's white ones on its pale tray measure
# 10 to 31; a side face's pip in matteop65 at half size (two_28) 4.7, specks on the tray 3.4 at most.
OUTLINE_SHARE = 3.0
BOX_MARGIN_DICE = 1.5  # a colour pass reads this many dice around the coloured dice
# A die whose centre is closer than this share of its square to the frame's edge is cut by it; a face of at
# least WHOLE_LAYOUT pips measures its own square, others the frame's die size (`_to_frame`).
CUT_SHARE = 0.45
WHOLE_LAYOUT = 4
# A die read this close to the tray region's edge (in dice) may have pips past it (`_read_at_walls`): its
# pips reach half a side from its centre, and the pips left inside the region lie up to 0.3 of a side inward.
WALL_REACH = 0.8
# What is left of a die cut at a straight edge reads as a one, or as a two (a four's side) or a three (a six's
# column) smaller than a die: such a layout spans 0.7 to 0.75 of a whole face's.
MAX_LEFTOVER = 3
LEFTOVER_SIZE = 0.85
BOX_EDGE_SHARE = 0.6  # faces nearer than this share of a die to the box's inner edge may be cut by it
NOISE_SHARE = 0.15  # pixel jitter above this share of the brightness range means static, not a scene
SPECKLED = "the frame is speckled with lone bright or dark pixels: check the camera and its cable"
# A pip stands at least this many times the pixel jitter (`vision.contrast.grain`) from its face: below it,
# the sensor noise of a dim frame makes pip-sized blobs by chance, and in a colour channel where the dice
# barely differ from the tray (red pips on a blue die on green felt), rows of them read as twos. JPEG photos
# have a jitter of 0 or 1 gray level and thresholds of 7 or more, so the rule changes none of them.
PIP_GRAIN = 3
# The pips tell another size than the dice bodies, `SIZE_WITNESSES` of them alike (`vision.body.witnessed`),
# when the bodies measure over twice or under half it.
SIZES_DIFFER = 2.0
# A 1 whose pip is this share of its body's side or more is a whole die taken for a pip. A 1's pip spans a
# fifth to a quarter of its body: of the ones read on bodies as taken, nell-byler's 201 of 202 span 0.25 or
# less (the other, 0.84, is a dark die read whole) and matteop65's 32 span 0.18 or less. A dark die read as
# the pip of a die many times its size spans 0.83 to 0.95 (the lone dark die of nell-byler 112554, 112556,
# 112600 and 112609 from 3x as far, whose pips and the tray's two screw heads measured a die of 200 px).
# Such a one witnesses the bodies' size as a die read on a body does (`SIZE_WITNESSES`).
WHOLE_DIE_PIP = 0.5


@dataclass(frozen=True)
class Lit:
    """A frame made 8-bit, rid of specks and exposed, with its tray region (`DiceReader.light`): what
    `DiceReader.prepare_lit` finds the dice bodies, pip threshold and die size in."""

    image: np.ndarray  # 8-bit BGR, exposed
    offset: tuple[int, int]  # where the tray region starts in it (x, y)
    tray: np.ndarray  # the tray region of `image` (all of it without a tray)
    gray: np.ndarray  # the tray region's lightness


@dataclass(frozen=True)
class Prepared(Lit):
    """A lit frame made ready to read (`DiceReader.prepare`): the same at every working size."""

    bodies: Bodies | None
    spread: float  # the brightness range pip thresholds are a share of
    threshold: float  # the contrast a pip needs in gray
    die_px: float  # the die side to read with, in frame pixels


class DiceReader:
    """Reads dice from frames; configured once by a calibration profile, then called for every frame."""

    def __init__(self, profile: CalibrationProfile | None = None, work_die_px: float | None = None) -> None:
        """`work_die_px`: read with dice this wide alone; by default each of `AGREEING_DIE_PX`, whose
        readings agree (`read`), with or without a profile that fixes the die size."""
        self.profile = profile or CalibrationProfile()
        self.work_die_px = work_die_px or WORK_DIE_PX
        alone = work_die_px is not None
        self._agreeing = [] if alone else [DiceReader(self.profile, size) for size in AGREEING_DIE_PX]
        self.params = {**DEFAULT_PARAMS}
        for name, value in self.profile.reader.items():
            if name in PARAM_RANGES:
                low, high = PARAM_RANGES[name]
                self.params[name] = float(min(max(value, low), high))
        self._sizer = DieSizer(self.params, self.profile.pip_polarity)
        self.body_reader = BodyReader(self.params, self.profile.pip_polarity, self._scale_for)

    def read(self, frame: Any) -> Reading:
        """Every die in `frame`, left to right. Never raises for a bad frame: `problem` says what is wrong.

        The readings at `AGREEING_DIE_PX` agree, also when a calibration fixed the die size: frames of
        still dice leave each pip where it fell on the pixel grid, so the roll watcher's frames agree on
        what one size misreads. Each photo calibrated on itself, read at one size and at these three:
        matteop65 384 and 385 hands right of 396, nell-byler 139 and 150 of the 197 that calibrate; wrong
        hands not asked about 4 and 1, 12 and 2 (hands asked about 12 and 24, 90 and 105). It costs a
        second reading (the middle size seldom); the camera loop reads one size a frame (`vision.stream`).
        `extras["die_px"]` is the die side read with, in frame pixels: measured by the pips (their diameter
        over `pip_size`) or the dice bodies, or the profile's. Auto-calibration keeps it as the profile's.
        """
        prepared = self.prepare(frame)
        if isinstance(prepared, Reading):
            return prepared
        if self._agreeing:
            # The smallest and largest sizes first: where they read the same dice alike, a third of the work
            # is saved.
            smallest, middle, largest = self._agreeing
            return agree_outer_first(
                smallest._read_prepared(prepared),
                largest._read_prepared(prepared),
                lambda: middle._read_prepared(prepared),
            )
        return self._read_prepared(prepared)

    @property
    def working_sizes(self) -> int:
        """How many working sizes this reader's `read` reads a frame at (`read_at_size`)."""
        return len(self._agreeing) or 1

    def read_at_size(self, prepared: Prepared, which: int) -> Reading:
        """The dice of a prepared frame (`prepare`) read at the `which`th working size alone (of
        `working_sizes`, smallest first): `vision.stream` reads a camera's frames so, one size each."""
        return (self._agreeing[which] if self._agreeing else self)._read_prepared(prepared)

    def prepare(self, frame: Any) -> Prepared | Reading:
        """What every working size reads alike (`Prepared`), or the `Reading` that says why there is
        nothing to read: the frame made 8-bit, rid of specks and exposed, its tray, dice bodies, pip
        threshold and die size. The readers at `AGREEING_DIE_PX` share this profile, so it is done once for
        all of them."""
        lit = self.light(frame)
        return lit if isinstance(lit, Reading) else self.prepare_lit(lit)

    def light(self, frame: Any) -> Lit | Reading:
        """`frame` made 8-bit, rid of specks and exposed, and cut to its tray (`Lit`), or the `Reading` that
        says why it cannot be: the first half of `prepare`, which a camera's stream looks at to tell
        whether the dice have moved (`vision.stream`) before it finds them."""
        image, problem = as_bgr(frame)
        if image is None:
            return Reading(frame_size=frame_size(frame), problem=problem)
        height, width = image.shape[:2]
        image = despeckled(image)
        if image is None:
            return Reading(frame_size=(width, height), problem=SPECKLED)
        image = exposed(balanced(image))
        x0, y0, tray = self._tray(image)
        if sliver := self._tray_problem(tray, min(height, width)):
            return Reading(frame_size=(width, height), problem=sliver)
        return Lit(image, (x0, y0), tray, cv2.cvtColor(tray, cv2.COLOR_BGR2GRAY))

    def prepare_lit(self, lit: Lit, still: Prepared | None = None) -> Prepared | Reading:
        """The second half of `prepare`: a lit frame's dice bodies, pip threshold and die size.

        `still` is a prepared frame of the same dice lying still (`vision.stream.alike`), whose bodies are
        this frame's too: they are where the dice lie, and finding them is a fifth of a camera frame's
        work (`pipkeeper bench-vision`'s calibrated camera stream at 640x480: 8.3 to 10.0 ms median a frame,
        6.8 to 7.5 with still frames sharing their run's first frame's bodies).
        """
        image, tray, gray = lit.image, lit.tray, lit.gray
        height, width = image.shape[:2]
        bodies = still.bodies if still is not None else _bodies(tray)
        spread = brightness_range(gray, bodies)
        if spread < MIN_SPREAD:
            return Reading(frame_size=(width, height), problem="the frame is blank (no contrast)")
        jitter = grain(gray)
        if jitter > NOISE_SHARE * spread:
            return Reading(frame_size=(width, height), problem="the frame is too noisy to read")
        threshold = self._pip_threshold(spread, jitter)
        die_px = self._die_px(gray, threshold, min(height, width), bodies)
        if die_px is None:
            die_px = self._body_px(bodies)  # pips too faint in gray (coloured pips): the bodies tell the size
        if die_px is None:
            return Reading(frame_size=(width, height), problem="no dice found", extras={"contrast": spread})
        body_die = _in_body_copy(die_px, min(gray.shape))
        if still is None and body_die < BODY_DIE_PX:
            bodies = find_bodies(tray, min(BODY_SHORT_SIDE * BODY_DIE_PX / body_die, min(gray.shape)), die_px)
        return Prepared(image, lit.offset, tray, gray, bodies, spread, threshold, die_px)

    def _tray_problem(self, tray: np.ndarray, short_side: int) -> str | None:
        """Why the profile's tray region (`tray`, cut from a frame `short_side` pixels short) cannot hold a
        die, or None: it is under `MIN_SIDE` pixels, or narrower than the profile's die. Its bounds only say
        that a corner comes before the other, so a slip on the admin page can leave a sliver of a frame, which
        nothing would be read on (and a die larger than it would shrink it to nothing)."""
        height, width = tray.shape[:2]
        die = (self.profile.die_size or 0.0) * short_side
        if min(height, width) >= max(MIN_SIDE, die):
            return None
        least = f"a die ({die:.0f} px)" if die > MIN_SIDE else f"{MIN_SIDE} px"
        return f"the tray region ({width}x{height} px) is narrower than {least}: set the tray again"

    def _body_px(self, bodies: Bodies | None) -> float | None:
        """The die side the dice `bodies` measure, in frame pixels, unless the profile fixes the die size."""
        return bodies.size if bodies is not None and self.profile.die_size is None else None

    def _read_prepared(self, prepared: Prepared) -> Reading:
        """The dice of a prepared frame (`prepare`), read with dice `work_die_px` wide."""
        gray, tray, bodies, threshold = prepared.gray, prepared.tray, prepared.bodies, prepared.threshold
        die_px, body_px = prepared.die_px, self._body_px(bodies)
        faces, scale, work_shape = self._read_at(gray, tray, die_px, threshold, bodies)
        if body_px is not None and witnessed(bodies) and not sizes_agree(bodies, die_px, SIZES_DIFFER):
            # Dark dice on a pale board can pass for the pips of one huge die, and a row of them for a three.
            # When the dice bodies tell another size, read at that size too and keep the reading with more
            # dice. When it replaces dice, it must read `SIZE_WITNESSES` of its own on bodies, and a die
            # within each die it replaces, as the dice taken for one huge die's pips are (`_accounts_for`):
            # bodies elsewhere are no evidence against a die's size, as the bodies miss a white die on pale
            # wood (matteop65 two_7 enlarged 2.5x: seven bits of a cable were bodies, at whose size the
            # cable read as ten dice and the die was lost). Nor when the pips of the dice it reads measure
            # dice nearer the pips' first estimate than the bodies' size (`_pips_measure`): the bodies were
            # those dice's pips. In a still fine enough, a white die's dark pips stand out from pale wood as
            # bodies do, and the dice read at their size have pips as large as those bodies (matteop65 at 5
            # times its resolution, 3280x2460: six_29's three sixes were read again there beside a side
            # face's pip as a false 1, and dice_12's two ones beside a false 2).
            retry = self._read_at(gray, tray, body_px, threshold, bodies)
            whole = _whole_dice(faces, bodies, scale)  # dice read as a pip: no die read, and a witness
            confirmed = not _dice_read(faces) or (
                dice_on_bodies(retry[0], bodies, retry[1]) + whole.sum() >= SIZE_WITNESSES
                and _accounts_for(retry[0], retry[1], faces, scale, whole)
                and not _nearer(
                    _pips_measure(retry[0], retry[1], self.params["pip_size"], body_px), die_px, body_px
                )
            )
            if confirmed and _dice_read(retry[0]) > _dice_read(faces) - whole.sum():
                (faces, scale, work_shape), die_px = retry, body_px
        # A die the frame or the tray's wall cuts is told by the size its readable neighbours measure, not
        # by their pips' size (large pips measure a die 1.4 times its face).
        measured = measured_die(faces, die_px * scale)
        dice, unreadable = _to_frame(faces, work_shape, scale, prepared.offset, measured)
        image = prepared.image
        if tray.shape != image.shape:
            x0, y0 = prepared.offset
            floor = (x0, y0, x0 + tray.shape[1], y0 + tray.shape[0])
            dice, unreadable = self._read_at_walls(image, floor, dice, unreadable, measured / scale)
        problem = None if dice or unreadable else "no dice found"
        extras = {"die_px": die_px, "scale": scale, "contrast": prepared.spread}
        height, width = image.shape[:2]
        return Reading(tuple(dice), tuple(unreadable), (width, height), problem, extras)

    def _read_at(
        self, gray: np.ndarray, tray: np.ndarray, die_px: float, threshold: float, bodies: Bodies | None
    ) -> tuple[list[Face], float, tuple[int, ...]]:
        """The faces read with dice `die_px` wide: (faces at work scale, work scale, work image shape).

        Gray first; then the colour channels around the dice that show colour, and the readings vote
        (white dice on a wooden table need no second look, red pips on blue dice do).
        """
        scale = self._scale_for(die_px)
        if abs(scale - 1.0) < 0.05:
            scale = 1.0
        work = gray if scale == 1.0 else resize(gray, scale)
        readings = [self._faces(work, die_px * scale, threshold)]
        coloured = _coloured(*_dice_in_view(readings[0], bodies, scale, die_px * scale), tray, scale)
        if coloured.size:
            box = _around(coloured, die_px * scale, work.shape)
            for channel in _colour_channels(tray):
                spread = brightness_range(channel, bodies)
                if spread >= MIN_SPREAD:
                    threshold = self._pip_threshold(spread, grain(channel))
                    readings.append(self._faces_in(channel, box, scale, die_px, threshold))
        faces = self._refuse_false_dice(vote(readings, die_px * scale), tray, die_px, scale, bodies)
        faces = drop_shaded_sides(faces, tray, die_px, scale)
        if bodies is not None:
            # After the refusal: a small die read as one pip of a big die is then a body with nothing on it.
            replaced, again = self.body_reader.read_again(faces, bodies, gray, tray, scale, die_px)
            if again:
                kept = [face for face in faces if id(face) not in replaced]
                faces = self._refuse_false_dice(kept + again, tray, die_px, scale, bodies)
                # A die's side face may stand out as a body of its own, and its crop reads its pips.
                faces = drop_shaded_sides(faces, tray, die_px, scale)
            # A glossy tray's rim mirrors the dice beside it: what it shows is no die, nor one to ask about.
            faces = [face for face in faces if not _on_rim(face, bodies, scale)]
        return faces, scale, work.shape

    def _pip_threshold(self, spread: float, grain: float) -> float:
        """The contrast a pip needs in an image with brightness range `spread` and pixel jitter `grain`: a
        share of the range (`pip_contrast`), but never within `PIP_GRAIN` times the jitter."""
        return max(self.params["pip_contrast"] * spread, PIP_GRAIN * grain)

    def _scale_for(self, die_px: float) -> float:
        """The resize that brings dice `die_px` wide to the working size: any shrink, but an enlargement of at
        most `MAX_ENLARGE` (smaller dice hold no more detail)."""
        return min(MAX_ENLARGE, self.work_die_px / die_px)

    def _read_at_walls(
        self,
        image: np.ndarray,
        floor: tuple[int, int, int, int],
        dice: list[Die],
        unreadable: list[Region],
        die_px: float,
    ) -> tuple[list[Die], list[Region]]:
        """`dice` and `unreadable` (frame pixels) with the dice against the tray's walls read whole.

        The tray region is measured on the floor a little inside the walls (their shadow darkens its edge), so
        a die lying against a wall reaches past the region: called cut by its edge, or read from the pips left
        inside it (a six's column as a three). In the whole frame it is whole, so it is read again in a crop
        of its own (`BodyReader.read_body`): every unreadable region within a die of the region's edge, and
        every die whose pips may reach past it (`WALL_REACH`). What is read there replaces a region, or a die
        read lower, when its centre lies on the `floor` (x0, y0, x1, y1) and the frame's own edge does not cut
        it. `die_px` is the die side the dice read measure (a leftover of a die is smaller).
        """
        height, width = image.shape[:2]
        x0, y0, x1, y1 = floor
        gray = None

        def read_again(center: tuple[float, float], reach: float) -> Die | None:
            nonlocal gray
            x, y = center
            at_wall = min(x - x0, y - y0, x1 - 1 - x, y1 - 1 - y) < reach * die_px
            if not at_wall or min(x, y, width - 1 - x, height - 1 - y) < CUT_SHARE * die_px:
                return None
            gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if gray is None else gray
            face = self.body_reader.read_body(gray, image, np.array(center), die_px)
            if face is None or not (x0 <= face.center[0] < x1 and y0 <= face.center[1] < y1):
                return None
            return Die(face.value, face.center, face.size, face.angle, face.confidence)

        kept, found = [], []
        for region in unreadable:
            whole = read_again(region.center, 1.0)
            if whole is None:
                kept.append(region)
            else:
                found.append(whole)
        for die in dice:
            leftover = die.value == 1 or (die.value <= MAX_LEFTOVER and die.size < LEFTOVER_SIZE * die_px)
            whole = read_again(die.center, WALL_REACH) if leftover else None
            found.append(whole if whole is not None and whole.value > die.value else die)
        return sorted(found, key=lambda die: die.center[0]), kept

    def _faces_in(
        self,
        channel: np.ndarray,
        box: tuple[int, int, int, int],
        scale: float,
        die_px: float,
        threshold: float,
    ) -> list[Face]:
        """Faces read in one channel within `box` (work pixels), in work coordinates.

        Faces near an edge of the box that is not the frame's edge are left out: a die cut by the box shows
        part of its face, and that part must not outvote the whole die read elsewhere.
        """
        x0, y0, x1, y1 = box
        inverse = 1.0 / scale
        crop = channel[
            int(y0 * inverse) : int(np.ceil(y1 * inverse)), int(x0 * inverse) : int(np.ceil(x1 * inverse))
        ]
        work = crop if scale == 1.0 else resize(crop, scale)
        die_work = die_px * scale
        height, width = channel.shape[0] * scale, channel.shape[1] * scale
        margin = BOX_EDGE_SHARE * die_work
        kept = []
        for face in self._faces(work, die_work, threshold):
            x, y = face.center[0] + x0, face.center[1] + y0
            inside = (
                (x0 == 0 or x - x0 >= margin)
                and (y0 == 0 or y - y0 >= margin)
                and (x1 >= width - 1 or x1 - x >= margin)
                and (y1 >= height - 1 or y1 - y >= margin)
            )
            if inside:
                kept.append(replace(face, center=(x, y)))
        return kept

    def _tray(self, image: np.ndarray) -> tuple[int, int, np.ndarray]:
        if self.profile.tray is None:
            return 0, 0, image
        height, width = image.shape[:2]
        fx0, fy0, fx1, fy1 = self.profile.tray
        x0, y0 = int(fx0 * width), int(fy0 * height)
        x1, y1 = max(x0 + 1, int(round(fx1 * width))), max(y0 + 1, int(round(fy1 * height)))
        return x0, y0, image[y0:y1, x0:x1]

    def _die_px(
        self, gray: np.ndarray, threshold: float, short_side: int, bodies: Bodies | None
    ) -> float | None:
        """Die side in frame pixels: the profile's, else what the pips measure (`vision.die_size`)."""
        if self.profile.die_size is not None:
            return self.profile.die_size * short_side
        return self._sizer.die_px(gray, threshold, short_side, bodies)

    def _faces(self, work: np.ndarray, die_px: float, threshold: float) -> list[Face]:
        """The faces read in one channel of the frame (`work`, a die `die_px` wide by its pips).

        Pips are linked into faces at the faces' size when a calibration measured it (`face_share`): dice
        with large pips measure more by their pips than by their faces, and pips linked at the larger size
        are linked a second time once `read_faces` has measured the faces.
        """
        pip = die_px * self.params["pip_size"]
        polarity = self.profile.pip_polarity
        pips = pips_for_dice(work, die_px, threshold, self.params, polarity, False, False, smear_pip=pip)
        faces_px = die_px * (self.profile.face_share or 1.0)
        return read_faces(pips, work, faces_px, self.params, focus=None)

    def _refuse_false_dice(
        self, faces: list[Face], tray: np.ndarray, die_px: float, scale: float, bodies: Bodies | None
    ) -> list[Face]:
        """Refuse ones and twos that are not dice: the wrong polarity, or (a lone pip, two specks) no body;
        and faces read faintly where no body is.

        Polarity: when the frame's dice have dark pips (`_dice_polarity`), one or two light dots smaller
        than their pips are letters on keys or glints, not dice showing 1 or 2; and the other way round. A
        die of another set showing 1 or 2 has pips as large as any (makers never make those smaller), or
        sits on a die body of its own (`bodies`): tiny pips measure too small by a pixel, while a key's
        letter or a glint has no body, or one under a third of a die (`SMALLEST_SET`): a light symbol on a
        dark keyboard stands out from the keys by itself (matteop65 three_25 as a Pi still). A lone pip must
        also sit on a body standing out from the surface, or inside a square outline centred on it
        (`OUTLINE_SHARE`): a speck on the tray has neither, while a white die on a white tray, which does not
        stand out in colour, shows its edge all round its pip. So must two pips under half the frame's pips
        (`SPECK_SHARE`): two specks of a tray's dust. And so must any face read with a confidence under
        `FAINT_CONFIDENCE`, its body standing out from the surface near it as well as from the frame's: grain
        on a wooden table round a plain tray is read faintly, and varies more than the tray.
        """
        weak = [face for face in faces if face.value in (1, 2)]
        faint = {id(face) for face in faces if face.value is not None and face.confidence < FAINT_CONFIDENCE}
        if not weak and not faint:
            return faces
        polarity, typical_pip = _dice_polarity(faces)
        refused = {
            id(face)
            for face in weak
            if polarity is not None
            and face.dark != polarity
            and face.pip < typical_pip
            and not on_body(face, bodies, scale, SMALLEST_SET * die_px)
        }
        speck = SPECK_SHARE * self.params["pip_size"] * die_px * scale
        bare = [
            face
            for face in faces
            if id(face) not in refused
            and (face.value == 1 or (face.value == 2 and face.pip < speck) or id(face) in faint)
        ]
        if bare:
            surface = estimate_surface(tray, die_px)
            radius = RING_SHARE * die_px
            bar = self.params["body_contrast"]
            for face in bare:
                center = (face.center[0] / scale, face.center[1] / scale)
                if (
                    body_contrast(surface, tray, center, radius, against_nearby=id(face) in faint) < bar
                    and outline_contrast(tray, center, face.pip / scale, die_px, WORK_DIE_PX)
                    < OUTLINE_SHARE * bar
                ):
                    refused.add(id(face))
        return [face for face in faces if id(face) not in refused]


def _bodies(image: np.ndarray) -> Bodies | None:
    """The dice bodies in `image`: those `find_bodies` sees on its 160 px copy; when that shows fewer than
    `MIN_ALIKE`, and none it resolves (`_bodies_resolved`), those of the first copy twice or four times as
    fine (at most half the frame's short side) that shows that many dice too small for the 160 px copy,
    without the top of a tray's wall (see the note after `BODY_DIE_PX`: dice under 2% of a large frame's
    height are too small a blob for the 160 px copy).

    Finer copies are only for dice too small for the 160 px copy. Where that copy sees bodies `BODY_DIE_PX`
    wide, a finer one also sees those dice's pips as bodies (matteop65 two_39 enlarged 2.5x: bodies of 21
    px for dice of 125), so it is not looked at. Beside smaller bodies, a finer copy's bodies no larger than
    their largest pips (the top of `pip_size`'s range) are their pips too (nell-byler 112645 enlarged 2.5x:
    bodies of 8 px beside two dice of 70). And bodies a finer copy finds that the 160 px copy would resolve,
    but did not see, are no dice too small for it: a die's side face beside its top face (matteop65
    three_36 enlarged 2.5x, read as a die showing 5)."""
    short_side = BODY_SHORT_SIDE
    usual = bodies = find_bodies(image)
    frame_side = min(image.shape[:2])
    if usual is not None and _bodies_resolved(usual, frame_side):
        return usual
    while (bodies is None or bodies.count < MIN_ALIKE) and 4 * short_side <= frame_side:
        short_side *= 2
        finer = find_bodies(image, short_side)
        if finer is None or finer.count < MIN_ALIKE or _bodies_resolved(finer, frame_side):
            continue
        if usual is None or finer.size > PARAM_RANGES["pip_size"][1] * usual.size:
            bodies = replace(finer, rim=None)
    return bodies


def _bodies_resolved(bodies: Bodies, frame_side: int) -> bool:
    """Whether the typical die of `bodies` (found in a frame `frame_side` pixels short) is `BODY_DIE_PX`
    wide or more in the 160 px copy: large enough for that copy to tell it as a body."""
    return _in_body_copy(bodies.size, frame_side) >= BODY_DIE_PX


def _in_body_copy(die: float, frame_side: int) -> float:
    """How wide dice `die` pixels wide in a frame `frame_side` pixels short are in the 160 px copy that
    bodies are first looked for on (`find_bodies`)."""
    return die * BODY_SHORT_SIDE / frame_side


def _pips_measure(faces: list[Face], scale: float, pip_size: float, expected: float) -> float:
    """The die side the pips of the read `faces` (work coordinates, `scale` work pixels per frame pixel)
    measure in frame pixels (their median diameter over `pip_size`, as the die-size estimate measures), or
    `expected` when none was read. Ones and twos count too: read at the size of a white die's pips taken
    for bodies, those pips are often read as ones."""
    pips = [face.pip for face in faces if face.value is not None and face.pip > 0]
    return float(median(pips)) / scale / pip_size if pips else expected


def _nearer(size: float, first: float, second: float) -> bool:
    """Whether `size` lies nearer `first` than `second` by ratio: die sizes differ by factors."""
    return abs(math.log(size / first)) < abs(math.log(size / second))


def _accounts_for(
    faces: list[Face], scale: float, earlier: list[Face], earlier_scale: float, whole: np.ndarray
) -> bool:
    """Whether `faces` (work coordinates at `scale`) read a die within every die `earlier` read (at
    `earlier_scale`) but those `whole` marks (`_whole_dice`): the dice taken for one huge die's pips are
    dice of their own inside it. A one whose pip is a whole die's body is that die, read or not: a smoky
    die's faint red pips may read nothing at its own size (nell-byler 095859: seven dark dice on a white
    board read as a one and a two of dice six times their size)."""
    centres = np.array([face.center for face in faces if face.value is not None]).reshape(-1, 2) / scale
    for face, is_whole in zip(earlier, whole, strict=True):
        if face.value is None or is_whole:
            continue
        gaps = np.hypot(*(centres - np.array(face.center) / earlier_scale).T)
        if not (gaps <= 0.5 * face.size / earlier_scale).any():
            return False
    return True


def _on_rim(face: Face, bodies: Bodies, scale: float) -> bool:
    """Whether `face` (work coordinates, `scale` work pixels per image pixel) lies on a tray's rim."""
    return bodies.on_rim((face.center[0] / scale, face.center[1] / scale))


def _whole_dice(faces: list[Face], bodies: Bodies, scale: float) -> np.ndarray:
    """Which of `faces` (work coordinates, `scale` work pixels per image pixel) are ones whose pip spans
    `WHOLE_DIE_PIP` of the side of the body it lies on or more: whole dice read as a pip of a larger die."""
    whole = np.zeros(len(faces), bool)
    ones = [index for index, face in enumerate(faces) if face.value == 1]
    if ones:
        centres = np.array([faces[index].center for index in ones]) / scale
        widest = np.array([faces[index].pip for index in ones])[:, None] / scale / WHOLE_DIE_PIP
        whole[ones] = on_bodies(centres, bodies, largest=widest)
    return whole


def _dice_polarity(faces: list[Face]) -> tuple[bool | None, float]:
    """(Whether the frame's dice have dark pips, their median pip diameter), or (None, 0) when unclear.

    Told by the faces of three or more pips, a layout no speck imitates. Without any (every die shows 1 or
    2), by the polarity that shows more pips: keys on a keyboard beside four dice showing 1 show two dots.
    A table of mixed dice shows layouts of both polarities, and nothing is refused for its polarity.
    """
    evidence = [face for face in faces if face.is_layout]
    if not evidence:
        read = [face for face in faces if face.value is not None]
        dark = sum(face.value for face in read if face.dark)
        light = sum(face.value for face in read if not face.dark)
        if dark == light:
            return None, 0.0
        evidence = [face for face in read if face.dark == (dark > light)]
    if len({face.dark for face in evidence}) != 1:
        return None, 0.0
    return evidence[0].dark, median(face.pip for face in evidence)


def _colour_channels(image: np.ndarray) -> list[np.ndarray]:
    """Red, green and blue: white pips on a red or purple die stand out in green, red pips in red."""
    return [image[:, :, 2], image[:, :, 1], image[:, :, 0]]


def _coloured(spots: np.ndarray, sizes: np.ndarray, tray: np.ndarray, scale: float) -> np.ndarray:
    """The spots (work pixels) whose die shows colour: on gray dice with gray pips, red and blue are gray."""
    if not spots.size:
        return spots
    keep = [shows_colour(tray, spot, size) for spot, size in zip(spots / scale, sizes / scale, strict=True)]
    return spots[np.array(keep, bool)]


def _dice_in_view(
    faces: list[Face], bodies: Bodies | None, scale: float, die_work: float
) -> tuple[np.ndarray, np.ndarray]:
    """Centres and sizes (work pixels) of the dice gray saw, readable or not, and of the die bodies it read
    nothing on. (No bodies at all means dice that look like the surface: white dice on a pale table.)
    """
    spots = [face.center for face in faces]
    sizes = [min(face.size, die_work) for face in faces]
    read = np.array(spots).reshape(-1, 2)
    for center in bodies.centers * scale if bodies is not None else []:
        if not read.size or np.hypot(*(read - center).T).min() >= OVERLAP_SHARE * die_work:
            spots.append(tuple(center))
            sizes.append(min(bodies.size * scale, die_work))
    return np.array(spots, float).reshape(-1, 2), np.array(sizes, float)


def _around(spots: np.ndarray, die_work: float, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The box (work pixels) holding every spot with a die and a half to spare, clipped to the frame."""
    height, width = shape[:2]
    low = np.maximum(spots.min(axis=0) - BOX_MARGIN_DICE * die_work, 0)
    high = np.minimum(spots.max(axis=0) + BOX_MARGIN_DICE * die_work, (width, height))
    return int(low[0]), int(low[1]), int(np.ceil(high[0])), int(np.ceil(high[1]))


def _dice_read(faces: list[Face]) -> int:
    """Faces read with a value: at the wrong size, pips are missed or whole dice pass for pips of one."""
    return sum(face.value is not None for face in faces)


def _to_frame(
    faces: list[Face], shape: tuple[int, ...], scale: float, offset: tuple[int, int], die_work: float
):
    """Convert work-scale faces to frame pixels; dice whose square reaches past the edge become regions.

    The square is the larger of the face's own layout and the expected die: what is left of a cut die
    can look like a smaller face (two pips of a five, one column of a six) that seems to fit inside the
    frame. A four, five or six is no such leftover (the two rows a cut leaves of a six are no four: see
    `vision.faces.SQUASH_SLACK`), so its own layout is its die's size: a die farther from a slanted camera
    than most is smaller than the expected die, and may lie close to the frame's far edge.
    """
    height, width = shape[:2]
    dice, unreadable = [], []
    for face in faces:
        x, y = face.center
        square = face.size if (face.value or 0) >= WHOLE_LAYOUT else max(face.size, die_work)
        center = ((x / scale) + offset[0], (y / scale) + offset[1])
        size = face.size / scale
        if face.value is None:
            unreadable.append(Region(center, size, "pips do not form a die face"))
        elif min(x, y, width - 1 - x, height - 1 - y) < CUT_SHARE * square:
            unreadable.append(Region(center, size, "cut by the frame edge"))
        else:
            dice.append(Die(face.value, center, size, face.angle, face.confidence))
    dice.sort(key=lambda die: die.center[0])
    return dice, unreadable

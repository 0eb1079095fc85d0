"""The roll watcher over frame sequences built from readings, with the clock passed in."""

import pytest

from vision.reading import ASK_BELOW, Die, Reading, Region
from vision.watcher import DiceChanged, DiceMoving, DiceSettled, DiceUnreadable, RollWatcher

FRAME = 1 / 30  # seconds between frames of a 30 fps camera
SIZE = 40.0  # die side in pixels


def hand(values, confidence=0.9, shift=(0.0, 0.0), spots=None):
    spots = spots or [(100 + 80 * i, 200) for i in range(len(values))]
    dice = tuple(
        Die(v, (x + shift[0], y + shift[1]), SIZE, 10.0, confidence)
        for v, (x, y) in zip(values, spots, strict=True)
    )
    return Reading(dice=dice, frame_size=(640, 480))


BLUR = Reading(unreadable=(Region((300, 200), SIZE, "blurred"),), frame_size=(640, 480))
NOTHING = Reading(frame_size=(640, 480), problem="no dice found")


class Clock:
    def __init__(self):
        self.now = 100.0

    def feed(self, watcher, readings, seconds_each=FRAME):
        events = []
        for reading in readings:
            events += watcher.update(reading, self.now)
            self.now += seconds_each
        return events


def tumbling(frames):
    """Dice in motion: every frame a different reading, some blurred."""
    sequence = []
    for i in range(frames):
        values = [(i + k) % 6 + 1 for k in range(5)]
        sequence.append(BLUR if i % 3 == 0 else hand(values, shift=(i * 15.0, i * 5.0)))
    return sequence


def settled(events):
    return [e for e in events if isinstance(e, DiceSettled)]


def test_move_then_settle_gives_exactly_one_event():
    watcher, clock = RollWatcher(), Clock()
    events = clock.feed(watcher, tumbling(20) + [hand([3, 3, 5, 6, 1])] * 30)
    assert events[0] == DiceMoving()
    assert [type(e) for e in events] == [DiceMoving, DiceSettled]
    assert events[1].values == [3, 3, 5, 6, 1]
    assert events[1].positions == [(100 + 80 * i, 200) for i in range(5)]
    assert not watcher.moving


def test_settles_only_after_still_seconds():
    watcher, clock = RollWatcher(still_seconds=0.3), Clock()
    clock.feed(watcher, tumbling(10))
    start = clock.now
    times = []
    for _ in range(30):
        if settled(watcher.update(hand([2, 2, 2, 2, 2]), clock.now)):
            times.append(clock.now - start)
        clock.now += FRAME
    assert len(times) == 1 and 0.3 <= times[0] < 0.3 + 2 * FRAME


def test_still_dice_give_no_second_event():
    watcher, clock = RollWatcher(), Clock()
    first = clock.feed(watcher, [hand([1, 2, 3, 4, 5])] * 20)
    later = clock.feed(watcher, [hand([1, 2, 3, 4, 5], shift=(2.0, -1.0))] * 200)
    assert len(settled(first)) == 1 and later == []


def test_hand_passing_over_still_dice_reports_no_new_roll():
    watcher, clock = RollWatcher(), Clock()
    clock.feed(watcher, [hand([1, 2, 3, 4, 5])] * 20)
    events = clock.feed(watcher, [BLUR] * 30 + [hand([1, 2, 3, 4, 5])] * 20)
    assert events == [DiceMoving()]


def test_a_single_odd_frame_is_forgiven_but_two_end_the_run():
    watcher, clock = RollWatcher(), Clock()
    clock.feed(watcher, [hand([6, 6, 6, 6, 6])] * 20)
    assert clock.feed(watcher, [hand([6, 6, 6, 6, 6]), NOTHING, hand([6, 6, 6, 6, 6])]) == []
    assert clock.feed(watcher, [NOTHING, NOTHING]) == [DiceMoving()]


def test_one_frame_flicker_does_not_settle_early():
    watcher, clock = RollWatcher(still_seconds=0.3, min_frames=3), Clock()
    motion = tumbling(60)
    flicker = motion[:30] + [hand([4, 4, 1, 2, 3])] * 2 + motion[30:]  # two lucky identical frames mid-throw
    assert settled(clock.feed(watcher, flicker)) == []


def test_a_reader_flipping_between_two_readings_never_settles():
    watcher, clock = RollWatcher(), Clock()
    assert settled(clock.feed(watcher, [hand([1, 2, 3, 4, 5]), BLUR] * 40)) == []


def test_few_frames_do_not_settle_even_after_the_still_time():
    watcher, clock = RollWatcher(still_seconds=0.3, min_frames=3), Clock()
    clock.feed(watcher, tumbling(5))
    events = clock.feed(watcher, [hand([5, 5, 5, 5, 5])] * 2, seconds_each=0.5)  # a 2 fps camera
    assert settled(events) == []
    assert len(settled(clock.feed(watcher, [hand([5, 5, 5, 5, 5])], seconds_each=0.5))) == 1


def test_a_second_roll_settles_again():
    watcher, clock = RollWatcher(), Clock()
    clock.feed(watcher, [hand([1, 1, 1, 1, 1])] * 20)
    events = clock.feed(watcher, tumbling(30) + [hand([2, 3, 4, 5, 6], shift=(20.0, 60.0))] * 20)
    assert [type(e) for e in events] == [DiceMoving, DiceSettled]
    assert events[1].values == [2, 3, 4, 5, 6]


def test_rolling_some_dice_while_others_are_held_is_a_roll():
    watcher, clock = RollWatcher(), Clock()
    clock.feed(watcher, [hand([6, 6, 6, 2, 3])] * 20)
    rerolled = hand([6, 6, 6, 5, 1], spots=[(100, 200), (180, 200), (260, 200), (400, 300), (500, 100)])
    events = clock.feed(watcher, [BLUR] * 30 + [rerolled] * 20)  # a second of motion
    assert [type(e) for e in events] == [DiceMoving, DiceSettled]


def test_a_nudge_is_a_change_not_a_roll():
    watcher, clock = RollWatcher(), Clock()
    clock.feed(watcher, [hand([6, 6, 6, 2, 3])] * 20)
    spots = [(100 + 80 * i, 200) for i in range(5)]
    nudged_spots = spots[:4] + [(spots[4][0] + 30, spots[4][1] + 10)]
    sliding = [hand([6, 6, 6, 2, 3], spots=spots[:4] + [(spots[4][0] + 10 * k, 200)]) for k in (1, 2, 3)]
    nudged = hand([6, 6, 6, 2, 4], spots=nudged_spots)  # the pushed die turned over from 3 to 4
    events = clock.feed(watcher, sliding + [nudged] * 20)
    assert [type(e) for e in events] == [DiceMoving, DiceChanged]
    assert events[1].values == [6, 6, 6, 2, 4]


def test_a_slow_change_of_one_die_is_a_roll():
    watcher, clock = RollWatcher(min_roll_seconds=0.6), Clock()
    clock.feed(watcher, [hand([6, 6, 6, 2, 3])] * 20)
    events = clock.feed(watcher, [BLUR] * 30 + [hand([6, 6, 6, 2, 4])] * 20)
    assert [type(e) for e in events] == [DiceMoving, DiceSettled]


def settle_confidence(frames, glitch_every=None, per_frame=0.7):
    """The confidence a hand read with `per_frame` confidence settles with, `frames` frames in the still time
    (one frame in `glitch_every` read as nothing)."""
    watcher, clock = RollWatcher(still_seconds=0.3), Clock()
    clock.feed(watcher, tumbling(5))
    events = []
    for i in range(60):
        reading = NOTHING if glitch_every and i % glitch_every == 1 else hand([1, 2, 3, 4, 5], per_frame)
        events += watcher.update(reading, clock.now)
        clock.now += 0.3 / (frames - 1)
    return settled(events)[0].confidence


def test_confidence_rises_with_agreement():
    few, many = settle_confidence(3), settle_confidence(12)
    glitchy = settle_confidence(12, glitch_every=5)
    assert 0.7 < few < many < 1.0
    assert glitchy < many


def test_agreement_never_lifts_a_doubtful_reading_over_the_line_the_game_asks_below():
    # Every frame of still dice repeats a doubtful die's doubt: the game must still warn about the roll.
    doubt = ASK_BELOW - 0.05
    settled_with = [settle_confidence(frames, per_frame=doubt) for frames in (3, 12, 30)]
    assert settled_with == pytest.approx([doubt] * 3)
    assert settle_confidence(12, glitch_every=5, per_frame=0.3) < 0.3
    assert settle_confidence(12, per_frame=ASK_BELOW) > ASK_BELOW


def test_empty_tray_and_unreadable_dice_never_settle():
    watcher, clock = RollWatcher(), Clock()
    assert settled(clock.feed(watcher, [NOTHING] * 30 + [BLUR] * 30)) == []
    cocked = Reading(dice=hand([1, 2]).dice, unreadable=BLUR.unreadable, frame_size=(640, 480))
    assert settled(clock.feed(watcher, [cocked] * 30)) == []


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        RollWatcher(min_frames=0)
    with pytest.raises(ValueError):
        RollWatcher(ask_seconds=-1.0)


def test_a_face_flickering_on_dice_at_rest_is_a_misread_not_motion():
    """One borderline pip read as 3 in some frames and 6 in others, on dice that never move."""
    watcher, clock = RollWatcher(still_seconds=0.1), Clock()
    assert [type(e) for e in clock.feed(watcher, tumbling(10) + [hand([6, 3, 2, 3, 5])] * 10)] == [
        DiceMoving,
        DiceSettled,
    ]
    misread = hand([6, 3, 2, 6, 5])
    flicker = ([misread] * 4 + [hand([6, 3, 2, 3, 5])] * 5) * 6
    assert clock.feed(watcher, flicker) == []
    assert not watcher.moving
    events = clock.feed(watcher, tumbling(10) + [hand([1, 1, 2, 3, 4])] * 10)  # a real throw still counts
    assert [type(e) for e in events] == [DiceMoving, DiceSettled]


def tipped(values=(3, 3, 5, 6), at=(420.0, 200.0)):
    """Dice at rest with one more die tipped against another: read as a region, never as a face."""
    readable = hand(list(values))
    return Reading(
        dice=readable.dice,
        unreadable=(Region(at, SIZE, "pips do not form a die face"),),
        frame_size=(640, 480),
    )


def unreadable(events):
    return [e for e in events if isinstance(e, DiceUnreadable)]


def test_a_tipped_die_lying_still_is_asked_about_once_after_ask_seconds():
    watcher, clock = RollWatcher(ask_seconds=1.5), Clock()
    clock.feed(watcher, tumbling(20))
    start, asked = clock.now, []
    for _ in range(150):  # five seconds of the same still view
        for event in watcher.update(tipped(), clock.now):
            asked.append((clock.now - start, event))
        clock.now += FRAME
    assert len(asked) == 1
    seconds, event = asked[0]
    assert 1.5 <= seconds < 1.5 + 2 * FRAME
    assert event == DiceUnreadable([3, 3, 5, 6], [(100 + 80 * i, 200) for i in range(4)], [(420.0, 200.0)])
    assert not watcher.moving  # asked: the table no longer shows the dice as moving

    straightened = clock.feed(watcher, [BLUR] * 3 + [hand([3, 3, 5, 6, 2])] * 20)  # a hand sets it flat
    assert [type(e) for e in straightened] == [DiceMoving, DiceSettled]
    assert straightened[1].values == [3, 3, 5, 6, 2]


def test_a_flicker_does_not_hide_the_tipped_die_nor_ask_twice():
    watcher, clock = RollWatcher(ask_seconds=1.0), Clock()
    clock.feed(watcher, tumbling(20))
    one_odd = ([tipped()] * 8 + [hand([3, 3, 5, 6, 4])]) * 10  # the reader reads the tipped die now and then
    assert [type(e) for e in clock.feed(watcher, one_odd)] == [DiceUnreadable]
    assert not watcher.moving

    two_odd = [hand([3, 3, 5, 6, 4])] * 2 + [tipped()] * 60  # the same view again after a longer flicker
    assert unreadable(clock.feed(watcher, two_odd)) == []
    assert not watcher.moving  # nothing moved, though two odd frames in a row said so for a moment


def test_regions_that_move_are_motion_and_never_asked_about():
    watcher, clock = RollWatcher(ask_seconds=1.0), Clock()
    clock.feed(watcher, [hand([1, 2, 3, 4, 5])] * 20)
    sliding = [tipped(at=(420.0 + 3 * i, 200.0)) for i in range(120)]  # a die pushed slowly across the tray
    assert clock.feed(watcher, sliding) == [DiceMoving()]
    assert watcher.moving


def test_a_view_asked_about_is_asked_about_again_after_dice_were_at_rest():
    watcher, clock = RollWatcher(ask_seconds=1.0), Clock()
    for last in (1, 2):  # tipped, then set flat, twice over (the next throw tips a die in the same place)
        events = clock.feed(watcher, tumbling(20) + [tipped()] * 40 + [hand([3, 3, 5, 6, last])] * 20)
        assert [type(e) for e in events] == [DiceMoving, DiceUnreadable, DiceSettled]
        assert events[2].values == [3, 3, 5, 6, last]

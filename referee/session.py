"""The session runner (a shell): source -> vision -> table plane -> referee -> sinks, with progress callbacks.

    vision = DetectorVision.load(catalogue=None)            # or OracleVision.load("round.frames.jsonl")
    with VideoSource("round.mp4") as source:
        samples = source.sample(session.sample_times(source.info))       # where to find the table plane
        result = Session(vision).run(source, samples=samples, video_out=writer, progress=bar.update)
    result.events, result.summary(), result.exit_code

The table plane is found first (:meth:`Session.find_geometry`): frames sampled over the video go through the
detector and the homography that makes every card a 59 x 91 mm rectangle is fitted; the cards lying there at
the very start (players' rows and piles) mark where the centre zone ends. A manual calibration replaces that.
Then every frame (every ``stride``-th for the detector; the others only annotated) is read, mapped to the table
plane and given to the :class:`~referee.tracker.Referee`.

Bad input loses nothing: an unreadable frame is passed on as ``None`` (time passes, nothing seen) and counted;
a video that breaks off ends the replay with what was decided so far (``exit_code`` 3); a video without
cards (4) or without a round end (5) says so, with everything else still written out.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import math
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

import cv2
import numpy as np

from referee.errors import CentreError
from referee.events import Event, IllegalPlay
from referee.session_arms import LandingArms
from referee.session_lines import ImageLineReader
from referee.session_result import Emitted, ExitCode, SessionResult
from referee.session_vision import OPENING, Box, DetectorVision, Found, OracleVision, Source, Vision
from referee.sightings import FrameSightings, card_quad
from referee.tracker import Phase, Referee, RefereeSettings
from referee.tracker.seats import SAME_PLACE_MM, SeatSorter
from vision.annotate import IllegalMark, OverlayState, StackMark, annotate
from vision.change import ChangeClock, ChangeGate, Region
from vision.detections import BACK, CardDetections
from vision.geometry import NoTableError, TableGeometry, centre_zone_from_seats, fit_from_cards
from vision.look_again import LookAgain
from vision.recognise.memo import ReadingMemo
from vision.sightings_adapter import to_sightings
from vision.sources import Frame, VideoInfo

__all__ = [
    "DetectorVision",
    "Emitted",
    "ExitCode",
    "OracleVision",
    "Session",
    "SessionResult",
    "SessionSettings",
    "Source",
    "Vision",
]

Image = np.ndarray
Progress = Callable[[int], None]

ILLEGAL_SHOWN_S = 3.0
THUMB_WIDTH = 180
MAX_THUMBS = 400
COUNT_EVERY_S = 1.0
"""During the end-of-round count a frame is read thoroughly (:mod:`vision.detect.thorough`, ten detector passes
for the spreads' small, fanned backs), and that reading stands for the frames of the next second: the spreads
lie still while they are counted, and the count settles over seconds (``settle_s``), not frames. Sample round
(truth 30 centre cards), centre cards counted: 9 in one pass a frame, 14 thorough every read frame (38 thorough
reads, 14.6 s on the loaded 2-core machine), 16 thorough once a second (5 reads, 2.5 s)."""
DOUBT_COUNT_EVERY_S = 0.5
"""While the centre only seems gathered (:data:`referee.tracker.referee_session.GATHER_DOUBT_S`), a thorough
reading stands this long: play may be going on, and a card played shows in the readings only once three of them
have read it (the tracker's vote; one reading a second could not show it before the doubt ran out: held-out look,
seed 116002, eight players, a y4 seen on its y2 once, 2 s into a doubt a check cloth boxed as backs had caused)."""
OPENING_TIMES = (0.0, 0.35, 0.7)
"""The frames the seats are read from, thoroughly: a hand stack cut by the picture's edge reads unsure, and two
readings that agree name its owner where one does not (seed 99000, four players: red-pink read at 0.39 and 0.37
in two frames, below the 0.5 one reading needs)."""
GATE_MARGIN_MM = 30.0
"""How far around the centre zone a change wakes the detector: a card read during play has its centre in the
zone, so anything that lands on it, uncovers it or takes it away changes pixels there. Wider margins took in the
players' rows beside the zone (sample round: frames read 49% at 30 mm, 57% at 91 mm, 64% for the zone's box)."""
SEAT_GLANCE_S = 0.5
"""How often, in play, the whole picture is read for the faces lying in front of the players (their rows and
piles), which tell whose card each centre card was (:mod:`referee.tracker.owners`): a card played vanishes from
its seat within a glance or two of landing."""
LOOK_MARGIN_MM = 70.0
"""How far around the centre zone the detector looks during play: a card counts when its centre is in the zone,
so it reaches at most half its diagonal (54 mm) beyond; a card cut by the edge of the part looked at is read as
a shorter box whose centre stays outside the zone. Looking only there reads a frame in about half the time with
two or four players (the zone and its margin: a third to a half of the picture)."""

# ------------------------------------------------------------------------------------------------ session


def gate_max_age(settings: RefereeSettings, fps: float) -> int:
    """The most frames one reading may stand for when the picture does not change (see :mod:`vision.change`):
    fewer than span the evidence the tracker's vote asks of a new top card, so a single reading (a misread)
    repeated over still frames can never win a vote on its own. At 30 fps and 0.15 s: 4 (0.1 s).

    >>> [gate_max_age(RefereeSettings(), fps) for fps in (30.0, 60.0, 15.0, 10.0)]  # 15, 10: stride 2, 3 at 30 fps
    [4, 9, 2, 1]
    """
    voting = settings.tracker.voting
    # ``lasted`` accepts a span half a frame short of ``min_span_s``: the repeats must stay under that.
    return max(1, math.ceil(voting.min_span_s * fps + 0.5 - 1e-9) - 1)


@dataclass(frozen=True)
class SessionSettings:
    """``stride``: read every k-th frame (the others are only annotated); ``stop_at``: the round's stop signal
    (seconds); ``geometry``: a manual calibration (None: found from the cards); ``sample_frames``: frames
    sampled to find the table plane."""

    stride: int = 1
    stop_at: float | None = None
    geometry: TableGeometry | None = None
    sample_frames: int = 16
    referee: RefereeSettings = field(default_factory=RefereeSettings)
    thumbnails: bool = True
    skip_still: bool = False
    """Read a frame only when the picture changed since the last reading (:mod:`vision.change`); otherwise the
    last reading stands for it."""
    remember: bool = True
    """With ``skip_still``: a card that lies still where it was read keeps its reading, so that a frame read
    reads only the cards that changed (:mod:`vision.recognise.memo`)."""
    overlap: bool = True
    """In play, find the next frames' cards (the detector, in a thread of its own) while this frame's are being
    recognised and refereed: the same readings and rulings as one frame at a time, in less time. The loop then
    takes each frame once the next ones have come (``ahead``): right for a recorded video, frames late for a
    live camera (the live service reads its frames itself, one at a time)."""
    ahead: int = 3
    """With ``overlap``: how many frames are planned, and their cards looked for, before their turn. A frame
    read after still ones is found while those are taken, so the recognition seldom waits for the detector: the
    sample round waited 3.2 s of 11 for it one frame ahead (the detector's 5.7 s come in bursts)."""
    look_again: bool = True
    """In play, read closer where a card came to rest and none was found (:mod:`vision.look_again`)."""
    players: tuple[str, ...] = ()
    """The players' backs, when told (``ligretto replay --players``): every one of them is scored, a seat the
    picture does not show included, and no other back is (see :class:`referee.tracker.Referee`'s ``backs``)."""


class Session:
    """Runs one source through vision and the referee (see the module docstring)."""

    def __init__(self, vision: Vision, settings: SessionSettings | None = None) -> None:
        self.vision = vision
        self.settings = settings or SessionSettings()
        self.opening: FrameSightings | None = None
        """The cards lying on the table before play (the first frame), on the table plane: the seats."""
        self.magnified: str | None = None
        """Why and how much the vision reads play magnified, when it does (see :meth:`find_geometry`)."""

    # ---- geometry

    def find_geometry(self, samples: Iterable[Frame], size: tuple[int, int]) -> TableGeometry | None:
        """The table plane from the cards in ``samples`` (None: no card in any of them); the vision then reads
        play magnified where the table's cards are small in its detector's input (:attr:`magnified`)."""
        if self.settings.geometry is not None:
            return self._fit_vision(self.settings.geometry, size)
        quads: list[np.ndarray] = []
        first: Any = None
        glances: list[Any] = []  # the opening's other frames: more readings of the seats' hand stacks
        frames = list(samples)
        # the opening frames are read thoroughly: the seats are learnt from them once, and one pass misses (or
        # takes for a face) a hand stack's back (seed 98000, two players: one of the two owners was lost)
        openings = [k == 0 or frame.t <= OPENING_TIMES[-1] + 1e-6 for k, frame in enumerate(frames)]

        def read(k: int) -> tuple[Any, Any]:
            return cast(tuple[Any, Any], self.vision.read(frames[k], thorough=OPENING if openings[k] else False))

        # two frames at a time: each reading is the detector and the recogniser's small networks, each on one thread
        with ThreadPoolExecutor(2, thread_name_prefix="plane") as pool:
            readings = list(pool.map(read, range(len(frames))))
        for opening, (detections, visible) in zip(openings, readings, strict=True):
            keep = detections.confidence >= 0.5
            if visible is not None:
                keep &= visible >= 0.9  # whole cards only: a half-covered quad is not a rectangle
            if first is None:  # the seats: every card found (the detector's scores are too low to sift them:
                # keeping >= 0.5 left 3 of the sample's 18 starting cards, all in one row, and a centre off by 250 mm)
                first = detections if visible is None else detections[visible >= 0.25]  # cut by the frame too
            elif opening:
                glances.append(detections[detections.kind == BACK])
            quads.extend(detections.corners[keep])
        if not quads:
            return None
        try:
            geometry = fit_from_cards(np.asarray(quads), size)
        except NoTableError:
            return None
        zones = centre_zone_from_seats(geometry, first.corners if first is not None else np.zeros((0, 4, 2)))
        geometry = geometry.with_zones(zones)
        if first is not None and len(first):
            self.opening = _opening(first, glances, geometry)
        return self._fit_vision(geometry, size)

    def _fit_vision(self, geometry: TableGeometry, size: tuple[int, int]) -> TableGeometry:
        """Magnifies the vision's reading of play to the table's cards (``DetectorVision.fit_to_cards``)."""
        fit = getattr(self.vision, "fit_to_cards", None)
        card = geometry.card_width_px()
        magnified = fit(card, size) if fit is not None else None
        if magnified is not None:
            self.magnified = (
                f"the cards are small in the picture ({card:.0f} px wide): play read at {magnified[1]} x "
                f"{magnified[0]}, slower"
            )
        return geometry

    def sample_times(self, info: VideoInfo) -> list[float]:
        """When to look for the table plane: the opening frames (what lies there before play) and spread over
        the video."""
        duration = info.duration or 60.0
        n = max(2, self.settings.sample_frames)
        opening = [t for t in OPENING_TIMES if t < duration]
        return [*opening, *[duration * (i + 0.5) / n for i in range(n)]]

    # ---- the frame loop

    def run(
        self,
        source: Source,
        *,
        frames: Iterable[Frame] | None = None,
        samples: Iterable[Frame] | None = None,
        video_out: Any = None,
        progress: Progress | None = None,
        pictures: bool = True,
    ) -> SessionResult:
        """Replays ``source`` (or the given ``frames`` of it); ``video_out`` is an open writer with ``write``.

        ``pictures=False``: the frames carry no images by design (the oracle's labels alone), so a frame without
        one is not unreadable."""
        start = time.perf_counter()
        info = source.info
        geometry = self.find_geometry(samples or (), info.size)
        found_s = time.perf_counter() - start
        result = SessionResult(info, self.vision.name, geometry)
        warning = getattr(self.vision, "warning", None)
        if warning:
            result.warnings.append(warning)
        if geometry is None:
            result.wall_s = time.perf_counter() - start
            return result
        result.timings["geometry_s"] = found_s
        if self.magnified is not None:
            result.warnings.append(self.magnified)
        with _opencv_on_one_thread():
            _Loop(self, result, geometry, video_out, progress, pictures).run(frames or source.frames())
        result.broken = source.broken  # its unreadable frames came through as frames without a picture: counted
        if result.unreadable:
            result.warnings.append(f"{result.unreadable} unreadable frames were skipped")
        result.wall_s = time.perf_counter() - start
        spent = sum(result.timings.get(k, 0.0) for k in ("geometry_s", "vision_s", "referee_s", "sinks_s"))
        result.timings["decode_and_rest_s"] = max(0.0, result.wall_s - spent)
        return result


@contextlib.contextmanager
def _opencv_on_one_thread() -> Iterator[None]:
    """OpenCV on the calling thread alone while the frame loop runs: the loop's own threads (the decoder, the
    detector beside the recognition, the video writer) already keep the cores busy, and OpenCV's pool splitting a
    resize over a core another thread holds waits for it (the sample round: 21.0 -> 19.9 CPU s). Put back after."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        yield
    finally:
        cv2.setNumThreads(threads)


def _opening(first: Any, glances: list[Any], geometry: TableGeometry) -> FrameSightings:
    """The cards lying on the table at the start (the first frame), with the backs read again at their places in
    the opening's other frames (see :data:`OPENING_TIMES`): each a vote for the owner of the place it lies at."""
    opening = to_sightings(first, geometry, t=0.0, frame=0)
    places = [s.centre for s in opening.sightings]
    again = [
        s
        for detections in glances
        for s in to_sightings(detections, geometry, t=0.0, frame=0).sightings
        if any(math.hypot(s.centre[0] - x, s.centre[1] - y) <= SAME_PLACE_MM for x, y in places)
    ]
    return replace(opening, sightings=(*opening.sightings, *again))


def _with_seats(
    settings: RefereeSettings,
    opening: FrameSightings | None,
    geometry: TableGeometry,
    size: tuple[int, int] | None = None,
) -> RefereeSettings:
    """The referee's settings with the seats learnt from the opening cards, so that the cards laid out after the
    round are sorted by seat (see :mod:`referee.tracker.seats`), and the picture's ``size`` (width, height) as an
    outline on the table; unchanged without opening cards or when a sorter is given."""
    if settings.sorter is not None or opening is None or not opening.sightings:
        return settings
    zone = geometry.zones.centre
    places = np.asarray([s.centre for s in opening.sightings], np.float64)
    middle = np.asarray(zone, np.float64).mean(axis=0) if zone else places.mean(axis=0)
    view = None
    if size is not None:
        w, h = size
        corners = np.array([(0.0, 0.0, 1.0), (w, 0.0, 1.0), (w, h, 1.0), (0.0, h, 1.0)]) @ geometry.image_to_table.T
        if (corners[:, 2] > 0).all():  # a picture that shows the horizon has no outline on the table
            view = tuple((float(x / z), float(y / z)) for x, y, z in corners)
    sorter = SeatSorter.from_opening(opening.sightings, (float(middle[0]), float(middle[1])), zone, view)
    return replace(settings, sorter=sorter)


class _Loop:
    """One pass over the frames; holds the referee and the bookkeeping for sinks and the report."""

    def __init__(
        self,
        session: Session,
        result: SessionResult,
        geometry: TableGeometry,
        video_out: Any,
        progress: Any,
        pictures: bool = True,
    ) -> None:
        self.pictures = pictures
        self.session = session
        self.settings = session.settings
        self.result = result
        self.geometry = geometry
        self.video_out = video_out
        self.progress = progress
        # the leftover lines are measured, and the centre fans read, in the latest picture (referee.session_lines)
        self.lines = ImageLineReader(geometry)
        referee_settings = _with_seats(session.settings.referee, session.opening, geometry, result.info.size)
        if referee_settings.line_reader is None:
            referee_settings = replace(referee_settings, line_reader=self.lines)
        if referee_settings.strip_reader is None:
            referee_settings = replace(referee_settings, strip_reader=self.lines.fan_inks)
        self.referee = Referee(referee_settings, backs=session.settings.players)
        self.stopped = False
        self._heights: dict[int, int] = {}
        # with a stride the tracker sees every k-th frame: one reading repeated spans k frames per repeat
        readings_per_s = result.info.fps / max(1, session.settings.stride)
        self.gate = ChangeGate(max_age=gate_max_age(session.settings.referee, readings_per_s))
        self.clock = ChangeClock()
        self.arms = LandingArms(geometry)
        # still cards keep their readings (vision.recognise.memo), as still frames keep theirs
        self.memo = ReadingMemo() if self.settings.skip_still and self.settings.remember else None
        zone = geometry.zones.centre
        self._zone_outline = tuple(map(tuple, geometry.to_image(np.asarray(zone)).tolist())) if zone else ()
        self.again = LookAgain(geometry.card_width_px(), region=self._zone_outline)
        self._last_reading: tuple[Any, Any] | None = None
        self._reading_planned = False  # a reading will have been made by the time the frames planned so far are
        self._count_reading: tuple[float, Any, Any] | None = None  # the last thorough reading: time, cards
        # while the gathering is in doubt: the last thorough reading, the count's or one between (DOUBT_COUNT_EVERY_S)
        self._doubt_reading: tuple[float, Any, Any] | None = None
        self._region: Region | None = None
        self._moved_memo: tuple[Any, Any, Any] | None = None
        self._look: Box | None = None
        self._glanced_t = -math.inf

    def run(self, frames: Iterable[Frame]) -> None:
        video = _InOrder(self._write_video) if self.video_out is not None else None
        try:
            self._each_frame(frames, video)
        except BaseException:
            if video is not None:
                video.close(quietly=True)
            raise
        if video is not None:
            video.close()
        self._record(self.arms.tell(self.referee), None)
        self._record(self.referee.finish(), None)
        self.result.warnings.extend(str(w) for w in self.referee.warnings)
        self.result.stacks = self._stacks()

    def _each_frame(self, frames: Iterable[Frame], video: _InOrder | None) -> None:
        """Each frame in order: the stop signal, its cards, the referee, the sinks. In play the next frames are
        planned and their detector started before this frame's cards are recognised (see :class:`_Plan`)."""
        result = self.result
        vision_s = referee_s = sink_s = 0.0
        overlap = self.settings.overlap and getattr(self.session.vision, "splits", False)
        pool = ThreadPoolExecutor(1, thread_name_prefix="detector") if overlap else None
        depth = max(1, self.settings.ahead) if pool is not None else 0
        following = iter(frames)
        ahead: collections.deque[_Plan] = collections.deque()  # planned before their turn, in order
        ticked: collections.deque[tuple[Frame, Any]] = collections.deque()  # ticked by the clock, plans undone
        frame: Frame | None
        after: Frame | None
        try:
            while True:
                made: _Plan | None = None
                clock: Any = None
                if ahead:
                    made = ahead.popleft()
                    frame = made.frame
                elif ticked:
                    frame, clock = ticked.popleft()
                else:
                    frame = next(following, None)
                if frame is None:
                    break
                result.frames_read += 1
                result.last_t = frame.t
                tick = time.perf_counter()
                events = self._stop_signal(frame)
                if made is not None:
                    plan = self._plan_for(frame, made, ahead, ticked)
                else:
                    plan = self._planned(frame, ticked=clock)
                while pool is not None and len(ahead) < depth and self._in_play():
                    if ticked:
                        after, after_clock = ticked.popleft()
                    elif (after := next(following, None)) is None:
                        break
                    else:
                        after_clock = None
                    # speculative: checked against the state when its turn comes
                    ahead.append(self._planned(after, pool, ticked=after_clock))
                sightings = self._sightings(plan)
                tock = time.perf_counter()
                if sightings is not False:
                    events += self._refereed(sightings, frame, self._counted_sightings(plan) if sightings else None)
                tack = time.perf_counter()
                self._record(events, frame)
                if video is not None and frame.image is not None:
                    video.put(frame.image, self._overlay(frame.t))
                vision_s += tock - tick
                referee_s += tack - tock
                sink_s += time.perf_counter() - tack
                if self.progress is not None:
                    self.progress(1)
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        result.timings.update(vision_s=vision_s, referee_s=referee_s, sinks_s=sink_s)

    def _refereed(self, sightings: Any, frame: Frame, counted: Any = None) -> list[Event]:
        """The referee's events for one frame (``counted``: the frame as the count reads it while the gathering is
        in doubt, see :meth:`Referee.update`). Should its board contradict itself (a bug: an illegal card to take
        back that it never held), the frame's rulings are lost with a warning, and the replay goes on: a round
        must not end in a traceback with nothing written (seed 99402, eight players, before its fix)."""
        if frame.image is not None:
            self.lines.image = frame.image
        try:
            events = self.referee.update(sightings, counted=counted)
        except CentreError as exc:
            warning = f"the referee lost track at {frame.t:.1f} s ({exc}); that frame's rulings were skipped"
            if warning not in self.result.warnings:
                self.result.warnings.append(warning)
            return []
        # the arms that put the cards down, once the frames after each landing are in (referee.session_arms)
        self.arms.note(events)
        return events + self.arms.tell(self.referee, frame.t)

    def _write_video(self, image: Image, state: OverlayState) -> None:
        if hasattr(self.video_out, "write_annotated"):
            self.video_out.write_annotated(image, state)
        else:
            self.video_out.write(annotate(image, state))

    def _stop_signal(self, frame: Frame) -> list[Event]:
        stop_at = self.settings.stop_at
        if stop_at is None or self.stopped or frame.t < stop_at:
            return []
        self.stopped = True
        return self.referee.stop(t=stop_at, frame=frame.index)

    def _state(self) -> tuple[Any, ...]:
        """What a frame's plan depends on besides the frames before it: the round's phase, whether the spreads are
        read for the count (from the moment the centre is seen gathered), and the seat watch."""
        return (self.referee.phase, self.referee.counts_spreads, self.referee.watches_seats)

    def _plan_for(
        self, frame: Frame, made: _Plan, ahead: collections.deque[_Plan], ticked: collections.deque[tuple[Frame, Any]]
    ) -> _Plan:
        """``frame``'s plan: the one ``made`` ahead if it still holds, else one made now. A plan made ahead on a
        state that has changed since is undone first, with every plan made after it (``ahead``): their detector's
        work dropped, the change gate and the glance clock put back as they were before the first of them; the
        frames they were for keep their change clock readings (they go first in ``ticked``, in order)."""
        if made.still_holds(self._state()):
            return made
        undone = [made, *ahead]
        ahead.clear()
        for stale in undone:
            stale.drop()
        self.gate, self._glanced_t, self._reading_planned = made.undo
        ticked.extendleft((stale.frame, stale.clock) for stale in reversed(undone[1:]))
        return self._planned(frame, ticked=made.clock)

    def _planned(self, frame: Frame, pool: ThreadPoolExecutor | None = None, ticked: Any = None) -> _Plan:
        """What to do with ``frame``: left out by the stride, unreadable, the count's last thorough reading, the
        last reading (a still frame), a glance at the whole table, or a reading. The change clock takes the frame
        here (``ticked``: it already has), the change gate decides, and a reading's detector starts (in ``pool``
        when given, to run beside the frame before's recognition)."""
        if frame.skipped or frame.index % max(1, self.settings.stride):
            return _Plan(frame, "skip")
        if frame.image is None and self.pictures:
            return _Plan(frame, "unreadable")
        if ticked is None and frame.image is not None:
            # in play the clock also watches the centre for cards lifted off piles (see ChangeClock)
            self.clock.tick(frame.image, frame.t, self._gate_region(frame.image), frame.half)
            if self.referee.watches_seats:
                self.arms.add(self.clock.reading())
        clock = ticked if ticked is not None else self.clock.reading()
        undo = (copy.copy(self.gate), self._glanced_t, self._reading_planned)
        counting = self.referee.counts_spreads
        made: dict[str, Any] = {"clock": clock, "state": self._state(), "undo": undo}
        due = counting and self._thorough_due(frame.t)
        if counting and not due:
            # a thorough reading stands for the next frames (only a vision with a thorough mode keeps one)
            return _Plan(frame, "counted", **made)
        region = self._gate_region(frame.image)
        # a reading for play alone while the gathering is in doubt leaves the gate as it was: the count's next reading
        # is gated against the picture of its last, not of this one
        gated = self._reading_planned and due != "doubt"
        still = gated and frame.image is not None and not self.gate.needs_reading(frame.image, region)
        if self._glance_due(frame):
            self._glanced_t = frame.t
            plan = _Plan(frame, "glance", keep=None, **made)  # a glance reads everything
        elif still:
            return _Plan(frame, "still", **made)
        else:
            # the end-of-round count needs every small, fanned card: several detector passes (see COUNT_EVERY_S)
            within = self._look_box(frame.image) if not counting else None
            counts = due != "doubt"  # a reading for play alone between the count's while the gathering is in doubt
            plan = _Plan(frame, "read", thorough=counting, within=within, keep=self._keep(), counts=counts, **made)
        if self.settings.skip_still and frame.image is not None and not self._reading_planned:
            self.gate.needs_reading(frame.image, region)  # the first reading is the gate's first reference
            self._reading_planned = True
        vision = self.session.vision
        if getattr(vision, "splits", False):
            find, options = cast(Any, vision).find, {"thorough": plan.thorough, "within": plan.within}
            args = (frame, plan.keep)
            plan.found = pool.submit(find, *args, **options) if pool is not None else find(*args, **options)
        return plan

    def _sightings(self, plan: _Plan) -> Any:
        """The frame's sightings, None for an unreadable frame, False for a frame left out by the stride."""
        frame = plan.frame
        if plan.what == "skip":
            return False
        if plan.what == "unreadable":
            self.result.unreadable += 1
            return None
        if plan.what == "counted":
            readings = [self._count_reading, self._doubt_reading if self._in_doubt() else None]
            latest = max((r for r in readings if r is not None), key=lambda reading: reading[0])
            return self._to_sightings(*latest[1:], plan)
        if plan.what == "still":
            assert self._last_reading is not None
            return self._to_sightings(*self._last_reading, plan)
        if plan.what == "glance":
            detections, visible = self._glance_at_seats(plan)
        else:
            detections, visible = self._read(plan)
            if plan.thorough and getattr(self.session.vision, "thorough", None) is not None:
                if plan.counts:
                    self._count_reading = (frame.t, detections, visible)
                if self._in_doubt():
                    self._doubt_reading = (frame.t, detections, visible)
        self.result.frames_seen += 1
        if self.settings.skip_still and frame.image is not None:
            self._last_reading = (detections, visible)
        return self._to_sightings(detections, visible, plan)

    def _thorough_due(self, t: float) -> bool | str:
        """Whether the frame at ``t`` is read thoroughly while the spreads are counted: the count's reading once
        a second (:data:`COUNT_EVERY_S`), True; while the gathering is in doubt, one more between
        (:data:`DOUBT_COUNT_EVERY_S`) for play alone, ``"doubt"``; else False (the last reading stands)."""
        if self._count_reading is None or t - self._count_reading[0] >= COUNT_EVERY_S:
            return True
        last = self._doubt_reading
        if self._in_doubt() and last is not None and t - last[0] >= DOUBT_COUNT_EVERY_S:
            return "doubt"
        return False

    def _in_doubt(self) -> bool:
        """The centre seen gathered, not yet said so (see :attr:`Referee.counts_spreads`)."""
        return self.referee.counts_spreads and self.referee.phase is Phase.PLAY

    def _counted_sightings(self, plan: _Plan) -> Any:
        """While the gathering is in doubt, the frame's sightings as the count reads them: its last thorough
        reading of its own, once a second (None: not in doubt, no such reading yet, or it is play's reading too)."""
        count, doubt = self._count_reading, self._doubt_reading
        if not self._in_doubt() or count is None or doubt is None or doubt[0] <= count[0]:
            return None
        return self._to_sightings(*count[1:], plan)

    def _read(self, plan: _Plan) -> tuple[Any, Any]:
        """The plan's cards with their identities: those found (started by :meth:`_planned`) recognised, or a
        vision's own reading (a glance reads every card, a reading in play those of the centre)."""
        vision = self.session.vision
        if plan.found is None:
            return vision.read(plan.frame, plan.keep, thorough=plan.thorough, within=plan.within)
        found = plan.found.result() if isinstance(plan.found, Future) else plan.found
        found = self._look_again(plan, found)
        clock = plan.clock if self.memo is not None else None
        return cast(Any, vision).recognise(plan.frame, found, self.memo, clock)  # a vision that splits its reading

    def _look_again(self, plan: _Plan, found: Any) -> Any:
        """``found`` with the cards closer looks find where a card came to rest in the centre and none was found
        (:mod:`vision.look_again`), in play's readings and glances alike (a glance's centre is the frame's
        reading: without the cards found closer, they would flicker out every half second)."""
        look = getattr(self.session.vision, "look_closer", None)
        if look is None or not self.settings.look_again or plan.thorough or not self._in_play():
            return found
        if plan.clock is None or plan.frame.image is None:
            return found
        frame, keep, card_px = plan.frame, self._keep(), self.again.card_px
        centre = found.detections[keep(found.detections)] if keep is not None else found.detections

        def closer(spots: Any) -> Any:
            self.result.closer_looks += len(spots)
            return look(frame, spots, keep, card_px)

        extra = self.again.cards(plan.clock, centre, frame.t, closer)
        return Found(CardDetections.concatenate([found.detections, extra])) if len(extra) else found

    def _glance_due(self, frame: Frame) -> bool:
        """Every :data:`SEAT_GLANCE_S` in play, when the referee would use it, a frame is read whole."""
        return self.referee.watches_seats and self._in_play() and frame.t - self._glanced_t >= SEAT_GLANCE_S

    def _glance_at_seats(self, plan: _Plan) -> tuple[Any, Any]:
        """The whole picture read at once: the cards lying in front of the players go to the referee, to tell whose
        card each centre card was and whose each hand stack is (:mod:`referee.tracker.owners`); the centre's
        cards (read at the scale a look at the centre alone reads them) are the frame's reading."""
        everything, visible = self._read(plan)
        centre = self._in_centre(everything)
        seats = everything[~centre]
        self.referee.see_seats(self._to_sightings(seats, None if visible is None else visible[~centre], plan))
        return everything[centre], None if visible is None else visible[centre]

    def _to_sightings(self, detections: Any, visible: Any, plan: _Plan) -> FrameSightings:
        frame = plan.frame
        still = moved = None
        if frame.image is not None and len(detections) and plan.clock is not None:
            still = plan.clock.since(detections.corners)
            moved = self._rearrangement(detections, plan.clock)
        return to_sightings(
            detections,
            self.geometry,
            t=frame.t,
            frame=frame.index,
            visible=visible,
            still_since=still,
            rearranged=moved,
        )

    def _rearrangement(self, detections: Any, clock: Any) -> Any:
        """The clock's word on when each card's picture came to rest rearranged; a still frame's cards (the last
        reading again) take the last word while the clock marked nothing new."""
        memo = self._moved_memo
        if memo is None or memo[0] is not detections or memo[1] is not clock.rearranged:
            memo = self._moved_memo = (detections, clock.rearranged, clock.rearrangement(detections.corners))
        return memo[2]

    def _look_box(self, image: Image | None) -> Box | None:
        """Where the detector looks during play: the box round the centre zone grown by
        :data:`LOOK_MARGIN_MM`, so every card :meth:`_keep` keeps lies wholly inside it; None (the whole picture)
        without a zone or once play is over."""
        if image is None or not self._in_play():
            return None
        if self._look is None:
            self._look = self._zone_grown_by(LOOK_MARGIN_MM).bounds(image.shape)
        return self._look

    def _gate_region(self, image: Image | None) -> Region | None:
        """Where a change wakes the detector: during play the centre zone and a card's length around it (only
        cards lying there are read, see :meth:`_keep`); otherwise (no zone, counting) the whole picture."""
        if image is None or not self._in_play():
            return None
        if self._region is None:
            self._region = self._zone_grown_by(GATE_MARGIN_MM)
        return self._region

    def _in_play(self) -> bool:
        """A centre zone is known and the round is not being counted."""
        return self.geometry.zones.centre is not None and not self._past_play()

    def _past_play(self) -> bool:
        """The centre seen gathered (in doubt too, see :attr:`Referee.counts_spreads`), counted or scored."""
        return self.referee.counts_spreads or self.referee.phase is Phase.SCORED

    def _zone_grown_by(self, margin_mm: float) -> Region:
        """The centre zone grown by ``margin_mm`` on the table plane, as a region of the picture."""
        zone = self.geometry.zones.centre
        assert zone is not None
        step = [(dx, dy) for dx in (-margin_mm, margin_mm) for dy in (-margin_mm, margin_mm)]
        grown = np.asarray(zone, np.float64)[:, None, :] + np.asarray(step)[None]
        return Region.around(self.geometry.to_image(grown.reshape(-1, 2)))

    def _keep(self) -> Any:
        """During play only the centre matters: cards outside the centre zone are not recognised (the players'
        rows would cost more than the stacks, and are glanced at now and then, see :meth:`_glance_at_seats`);
        once the centre is gathered, the leftovers count too."""
        if self.geometry.zones.centre is None or self._past_play():
            return None
        return self._in_centre

    def _in_centre(self, detections: Any) -> np.ndarray:
        zone = self.geometry.zones.centre
        assert zone is not None
        polygon = np.asarray(zone, np.float32).reshape(-1, 1, 2)
        centres = self.geometry.to_table(detections.corners.mean(axis=1)) if len(detections) else np.zeros((0, 2))
        inside = [cv2.pointPolygonTest(polygon, (float(x), float(y)), False) >= 0 for x, y in centres]
        return np.asarray(inside, bool)

    def _record(self, events: list[Event], frame: Frame | None) -> None:
        said_t = frame.t if frame is not None else self.result.last_t
        said_frame = frame.index if frame is not None else self.result.frames_read - 1
        for event in events:
            self.result.emitted.append(Emitted(event, said_t, said_frame))
            if frame is not None and frame.image is not None and self.settings.thumbnails:
                self._thumb(len(self.result.emitted) - 1, event, frame.image)
        if events:
            heights = {s.id: s.height for s in self.referee.centre.stacks}
            if heights != self._heights:
                self._heights = heights
                self.result.heights.append((said_t, dict(heights)))

    def _thumb(self, index: int, event: Event, image: Image) -> None:
        if len(self.result.thumbs) >= MAX_THUMBS:
            return
        h, w = image.shape[:2]
        at = self._image_point(event)
        if at is None:
            crop = image
        else:
            half = max(60, int(0.14 * w))
            x0, y0 = (
                int(np.clip(at[0] - half, 0, max(0, w - 2 * half))),
                int(np.clip(at[1] - half, 0, max(0, h - 2 * half))),
            )
            crop = image[y0 : y0 + 2 * half, x0 : x0 + 2 * half]
        scale = THUMB_WIDTH / max(1, crop.shape[1])
        small = cv2.resize(crop, (THUMB_WIDTH, max(1, round(crop.shape[0] * scale))), interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 70])
        if ok:
            self.result.thumbs[index] = data.tobytes()

    def _image_point(self, event: Event) -> tuple[float, float] | None:
        placement = getattr(event, "placement", None)
        if placement is not None:
            x, y = self.geometry.to_image([[placement.x, placement.y]])[0]
            return (float(x), float(y))
        for pile in self.referee.tracker.stacks:
            if self.referee.judge.stack_of(pile.id) == event.stack:
                x, y = self.geometry.to_image([pile.position])[0]
                return (float(x), float(y))
        return None

    def _overlay(self, t: float) -> OverlayState:
        centre = {s.id: s for s in self.referee.centre.stacks}
        marks = []
        for pile in self.referee.tracker.stacks:
            stack_id = self.referee.judge.stack_of(pile.id)
            if stack_id is None or stack_id not in centre:
                continue
            stack = centre[stack_id]
            quad = self.geometry.to_image(np.asarray(card_quad(pile.position, pile.angle)))
            marks.append(StackMark(stack_id, str(stack.top), stack.height, tuple(map(tuple, quad.tolist()))))
        illegal = []
        for emitted in reversed(self.result.emitted):
            if t - emitted.said_t > ILLEGAL_SHOWN_S:
                break
            if isinstance(emitted.event, IllegalPlay):
                at = self._image_point(emitted.event)
                if at is not None:
                    illegal.append(IllegalMark(str(emitted.event.card), emitted.event.reason, at))
        scored = self.referee.scored
        scores: tuple[tuple[str, int, int, int], ...] = ()
        if scored is not None:
            scores = tuple((b, scored.centre.get(b, 0), scored.leftover.get(b, 0), s) for b, s in scored.scores.items())
        return OverlayState(t, tuple(marks), tuple(illegal), str(self.referee.phase), scores, zone=self._zone_outline)

    def _stacks(self) -> list[dict[str, Any]]:
        out = []
        for stack in self.referee.centre.stacks:
            out.append(
                {
                    "id": stack.id,
                    "top": str(stack.top),
                    "height": stack.height,
                    "cards": [str(c.card) for c in stack.cards],
                    "owners": [self.referee.card_owners.get((stack.id, str(c.card))) for c in stack.cards],
                    "removed": stack.removed,
                }
            )
        return out


@dataclass
class _Plan:
    """What the frame loop does with one frame (see :meth:`_Loop._planned`); ``clock``: the change clock at this
    frame; for a glance or a reading, ``keep`` (which cards are recognised) and ``found`` (the cards found, a
    Future while they are being found in their thread).

    In play the next frame is planned before this one is refereed, and its detector started, so that it finds
    the next frame's cards while this frame's are being recognised. A plan depends on the referee's state
    (``state``: the phase, the seat watch): should that have changed by the frame's turn (the round stopped),
    the plan is dropped and made again, the change gate and the glance clock first put back as they were
    (``undo``). So the readings and rulings are those of one frame at a time."""

    frame: Frame
    what: Literal["skip", "unreadable", "counted", "still", "glance", "read"]
    clock: Any = None
    thorough: bool = False
    within: Box | None = None
    keep: Any = None
    counts: bool = True
    """A thorough reading the count stands on (else one for play alone while the gathering is in doubt)."""
    state: tuple[Any, ...] = ()
    undo: tuple[Any, ...] = ()
    found: Any = None

    def still_holds(self, state: tuple[Any, ...]) -> bool:
        """Whether a plan made before the frame's turn was made on the state the frame meets."""
        return not self.undo or self.state == state

    def drop(self) -> None:
        """Stops (or waits out) the detector's work for a plan that no longer holds."""
        if isinstance(self.found, Future) and not self.found.cancel():
            self.found.result()
        self.found = None


class _InOrder:
    """Calls ``work(*item)`` for each item put, in order, in a thread of its own: the annotated video (resize,
    overlay, H.264) costs about a third of what reading a frame does and needs nothing from the frames after,
    so it runs beside the detector (cv2 and FFmpeg let go of the GIL). An error in ``work`` is raised by the
    next :meth:`put` or by :meth:`close`; the items after it are dropped.

    >>> done = []
    >>> worker = _InOrder(lambda a, b: done.append(a + b))
    >>> worker.put(1, 2); worker.put(3, 4); worker.close()
    >>> done
    [3, 7]
    """

    def __init__(self, work: Callable[..., None], depth: int = 8) -> None:
        self._work = work
        self._items: queue.Queue[tuple[Any, ...] | None] = queue.Queue(depth)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._drain, name="annotated-video", daemon=True)
        self._thread.start()

    def put(self, *item: Any) -> None:
        self._raise()
        self._items.put(item)

    def close(self, *, quietly: bool = False) -> None:
        """Waits for the items put so far; raises an error of ``work`` unless ``quietly``."""
        self._items.put(None)
        self._thread.join()
        if not quietly:
            self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error

    def _drain(self) -> None:
        while (item := self._items.get()) is not None:
            if self._error is None:
                try:
                    self._work(*item)
                except BaseException as exc:  # handed to the frame loop, which raises it
                    self._error = exc

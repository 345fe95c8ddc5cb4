"""The live table: a background thread that reads frames at camera rate, referees the round in play, stores
every event the moment it happens and fans it out to the WebSocket viewers.

    table = LiveTable(FeedSpec("round.mp4", oracle=True), Store("ligretto.db"), Hub())
    table.start()                  # the pipeline thread
    table.start_round()            # a file source starts playing; a camera is refereed from now on
    table.stop_round()             # "Ligretto stop"
    table.count_round()            # score what the spreads show (or give the counts by hand)

Every command and every frame takes one lock, so the referee is only ever touched by one thread at a time;
a frame holds it for the few milliseconds the referee needs. Messages to viewers are plain JSON objects:
``{"kind": "event", "seq", "round", "session", "added", "epoch", "event"}`` for each event, where ``epoch`` is
the wall-clock time (epoch seconds) at which source time 0 was shown, so ``epoch + event.t`` is when the
frame that caused it was shown; and ``{"kind": "status", ...}`` when the session or round changes.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from referee.backs import BackDesign
from referee.errors import LigrettoError
from referee.events import Event, RoundScored, RoundStarted
from referee.scoring import RoundResult
from referee.service.feed import FeedSpec, NewestFrame, describe, paced, wall_timed
from referee.service.hub import Hub
from referee.service.overlay import overlay_state, picture
from referee.service.sheets import score_sheet
from referee.session import COUNT_EVERY_S, Session, SessionSettings
from referee.session_lines import ImageLineReader
from referee.sightings import FrameSightings
from referee.store import RoundRow, SessionRow, Store
from referee.tracker import Referee, RefereeSettings
from vision.geometry import TableGeometry
from vision.sightings_adapter import to_sightings
from vision.sources import Frame

GEOMETRY_EVERY = 15  # frames between tries to find the table plane on a live camera


class Unread(Enum):
    """Why a frame was not read for the referee."""

    NO_ROUND = "no round in play"
    NO_TABLE_YET = "a camera's table plane is still being looked for"


class ConflictError(LigrettoError):
    """An action that does not fit the table as it stands (a round already in play, none to stop...)."""


@dataclass(eq=False)
class LiveRound:
    row: RoundRow
    referee: Referee
    done: bool = False
    """Scored (or given up): the referee sees no more frames."""
    source_ended: bool = False


class FpsMeter:
    """Frames per second over the last ``window`` frames."""

    def __init__(self, window: int = 60) -> None:
        self.times: deque[float] = deque(maxlen=window)

    def tick(self) -> None:
        self.times.append(time.perf_counter())

    @property
    def fps(self) -> float:
        if len(self.times) < 2 or self.times[-1] <= self.times[0]:
            return 0.0
        return (len(self.times) - 1) / (self.times[-1] - self.times[0])


class LiveTable:
    """The live pipeline and the session it records into (see the module docstring)."""

    def __init__(
        self,
        spec: FeedSpec,
        store: Store,
        hub: Hub,
        *,
        rounds: int | None = 3,
        target: int | None = None,
        picture_fps: float = 8.0,
        referee: RefereeSettings | None = None,
    ) -> None:
        self.spec = spec
        self.store = store
        self.hub = hub
        self.vision = spec.load_vision()
        self.runner = Session(
            self.vision, SessionSettings(geometry=spec.calibration, referee=referee or RefereeSettings())
        )
        self.session: SessionRow = store.latest_session() or store.create_session(
            "Session 1", rounds=rounds, target=target, source=describe(spec)["name"]
        )
        self.round: LiveRound | None = None
        self.geometry: TableGeometry | None = spec.calibration
        self.lines = ImageLineReader(self.geometry)  # the count's lines of cards read in the latest picture
        self.meter = FpsMeter()
        self.picture_every_s = 1.0 / picture_fps if picture_fps > 0 else 0.0
        self.epoch: float | None = None
        self.t = 0.0
        self.frame_index = 0
        self.source_error: str | None = None
        self.frame_ms: deque[float] = deque(maxlen=300)
        self.lag_ms: deque[float] = deque(maxlen=300)
        """How late each frame was taken after it came (a file's own time; a camera's arrival)."""
        self.frames_taken = 0
        self._thorough_t = float("-inf")  # when the count last read a frame thoroughly
        self.dropped = 0
        """Frames the pipeline had no time for, since the server started."""
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._feed: NewestFrame[tuple[Frame, float]] | None = None
        self._latest: Frame | None = None
        self._jpeg: bytes | None = None
        self._jpeg_at = 0.0
        self._drawing = threading.Lock()

    # ------------------------------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="ligretto-live", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._closing.set()
        self._wake.set()
        feed = self._feed
        if feed is not None:
            feed.stop()  # the frame loop may be waiting for a frame that does not come
        if self._thread is not None:
            self._thread.join(timeout=5.0)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # ---------------------------------------------------------------------------------------- the thread

    def _run(self) -> None:
        while not self._closing.is_set():
            if self.spec.is_file and not self._round_wants_frames():
                self._wake.wait(0.2)
                self._wake.clear()
                continue
            try:
                source = self.spec.open()
            except LigrettoError as exc:
                self.source_error = str(exc)
                self._closing.wait(1.0)
                continue
            try:
                self._play(source)
            finally:
                source.close()
            self._source_ended()

    def _round_wants_frames(self) -> bool:
        with self._lock:
            return self.round is not None and not self.round.done and not self.round.source_ended

    def _play(self, source: Any) -> None:
        with self._lock:
            if self.spec.is_file or self.geometry is None:
                self.geometry = self.spec.geometry(self.runner, source) or self.geometry
                self.lines.geometry = self.geometry
        frames = source.frames() if self.spec.is_file else wall_timed(source.frames())
        speed = self.spec.speed if self.spec.is_file else 0.0  # a camera paces itself
        live = speed > 0 or not self.spec.is_file  # a file played as fast as it goes (tests) drops nothing
        feed = NewestFrame(paced(frames, speed)) if live else paced(frames, speed)
        self._feed = feed if isinstance(feed, NewestFrame) else None
        dropped_before = self.dropped
        try:
            for frame, epoch in feed:
                if self._closing.is_set():
                    return
                started = time.perf_counter()
                self._step(frame, epoch, due=epoch + frame.t / (speed or 1.0))
                self.frame_ms.append((time.perf_counter() - started) * 1000.0)
                self.dropped = dropped_before + (feed.dropped if isinstance(feed, NewestFrame) else 0)
                if self.spec.is_file and not self._round_wants_frames():
                    return  # a file plays for one round
        finally:
            if isinstance(feed, NewestFrame):
                feed.close()  # before the source is closed: the reader thread decodes from it
        self.source_error = getattr(source, "broken", None)

    def _step(self, frame: Frame, epoch: float, due: float) -> None:
        """One frame: read (outside the lock: only this thread uses the vision, and commands must not wait for a
        detector), then refereed and published under the lock. ``due``: when the frame was there to be taken."""
        picked = time.time()
        self.lag_ms.append((picked - due) * 1000.0)
        sightings = self._read(frame) if self._round_wants_frames() else Unread.NO_ROUND
        read = time.time()
        with self._lock:
            locked = time.time()
            self.t, self.frame_index, self.epoch = frame.t, frame.index, epoch
            self.meter.tick()
            self.frames_taken += 1
            if frame.image is not None:
                self._latest = frame
                self.lines.image = frame.image
            rnd = self.round
            if rnd is not None and not rnd.done and sightings is not Unread.NO_ROUND:
                events = [] if isinstance(sightings, Unread) else rnd.referee.update(sightings)
                ruled = time.time()
                timing = {"frame_t": frame.t, "due": due, "picked": picked, "read": read, "locked": locked}
                self._publish(rnd, events, {**timing, "ruled": ruled})

    def _read(self, frame: Frame) -> FrameSightings | Unread | None:
        """The frame's sightings (None: an unreadable frame)."""
        if frame.image is None:
            return None
        if self.geometry is None:
            if frame.index % GEOMETRY_EVERY == 0:
                self.geometry = self.runner.find_geometry([frame], (frame.image.shape[1], frame.image.shape[0]))
                self.lines.geometry = self.geometry
            if self.geometry is None:
                return Unread.NO_TABLE_YET
        detections, visible = self.vision.read(frame, thorough=self._counting_read(frame.t))
        return to_sightings(detections, self.geometry, t=frame.t, frame=frame.index, visible=visible)

    def _counting_read(self, t: float) -> bool:
        """Whether this frame is read thoroughly: once the centre is seen gathered (see
        :attr:`~referee.tracker.Referee.counts_spreads`) the spreads' small, fanned backs need several detector
        passes; they lie still, so one such reading a second (COUNT_EVERY_S) keeps the feed live."""
        rnd = self.round
        if rnd is None or not rnd.referee.counts_spreads or t - self._thorough_t < COUNT_EVERY_S:
            return False
        self._thorough_t = t
        return True

    def _source_ended(self) -> None:
        with self._lock:
            rnd = self.round
            if rnd is None or rnd.done:
                return
            if self.spec.is_file:
                rnd.source_ended = True
                self._publish(rnd, rnd.referee.finish())
                self._status("source_ended")

    # ------------------------------------------------------------------------------------------ publishing

    def _publish(self, rnd: LiveRound, events: list[Event], timing: dict[str, float] | None = None) -> None:
        for event in events:
            seq = self.store.add_event(rnd.row.id, event)
            stored = time.time()
            self.hub.publish(
                {
                    "kind": "event",
                    "seq": seq,
                    "session": self.session.id,
                    "round": rnd.row.number,
                    "added": time.time(),
                    "epoch": self.epoch,
                    "event": event.to_json(),
                    "timing": {**(timing or {}), "stored": stored},
                }
            )
            if isinstance(event, RoundScored):
                rnd.done = True

    def _status(self, change: str) -> None:
        self.hub.publish({"kind": "status", "change": change, "session": self.session.id, "added": time.time()})

    # -------------------------------------------------------------------------------------------- commands

    def start_round(self) -> RoundRow:
        with self._lock:
            rnd = self.round
            if rnd is not None and not rnd.done and not rnd.source_ended:
                raise ConflictError(f"round {rnd.row.number} is still in play: stop it and count it first")
            sheet = score_sheet(self.store, self.session)
            if sheet.complete:
                raise ConflictError("the match is over: start a new session for another match")
            row = self.store.start_round(self.session.id)
            backs = tuple(self.store.players(self.session.id))
            settings = self.runner.settings.referee
            if settings.line_reader is None:
                settings = replace(settings, line_reader=self.lines)
            if settings.strip_reader is None:
                settings = replace(settings, strip_reader=self.lines.fan_inks)
            self.round = LiveRound(row, Referee(settings, backs=backs, round=row.number))
            t, frame = (0.0, 0) if self.spec.is_file else (self.t, self.frame_index)
            if self.spec.is_file:
                self.epoch = time.time()
                self.meter = FpsMeter()  # a file starts playing now: the last round's frames and the pause between
            self._publish(self.round, [RoundStarted(t=t, frame=frame, round=row.number, backs=backs)])
            self._wake.set()
            return row

    def _current(self) -> LiveRound:
        if self.round is None:
            raise ConflictError("no round has been started")
        if self.round.done:
            raise ConflictError(f"round {self.round.row.number} is already scored")
        return self.round

    def stop_round(self) -> list[Event]:
        """'Ligretto stop': cards played from now on are illegal (``after_stop``). Stopping twice is harmless."""
        with self._lock:
            rnd = self._current()
            events = rnd.referee.stop(reason="signal")
            self._publish(rnd, events)
            return events

    def count_round(self, centre: dict[str, int] | None = None, leftover: dict[str, int] | None = None) -> Event:
        """Scores the round: from the counts given (by hand), or from what the camera saw of the spreads."""
        with self._lock:
            rnd = self._current()
            if not rnd.referee.centre.stopped:
                self._publish(rnd, rnd.referee.stop(reason="signal"))
            if centre is not None or leftover is not None:
                backs = tuple(self.store.players(self.session.id)) or None
                result = RoundResult.from_counts(rnd.row.number, centre or {}, leftover or {}, backs)
                events: list[Event] = [result.to_event(t=self.t, frame=self.frame_index)]
            else:
                events = rnd.referee.finish()
            scored = next((e for e in events if isinstance(e, RoundScored)), None)
            if scored is None:
                raise ConflictError(
                    "nothing to count yet: gather the centre, spread its cards face down by back, lay out the "
                    "Ligretto piles, or give the counts by hand"
                )
            self._publish(rnd, events)
            return scored

    def new_session(self, name: str, rounds: int | None, target: int | None) -> SessionRow:
        with self._lock:
            rnd = self.round
            if rnd is not None and not rnd.done and not rnd.source_ended:
                raise ConflictError(f"round {rnd.row.number} is still in play: count it before a new session")
            self.session = self.store.create_session(
                name, rounds=rounds, target=target, source=describe(self.spec)["name"]
            )
            self.round = None
            self._status("session")
            return self.session

    def set_player(self, back: str, name: str) -> None:
        BackDesign(id=back)  # the back id must be well formed (raises NotationError)
        self.store.set_player(self.session.id, back, name)
        self._status("players")

    def remove_player(self, back: str) -> bool:
        removed = self.store.remove_player(self.session.id, back)
        self._status("players")
        return removed

    # ----------------------------------------------------------------------------------------------- views

    def picture(self) -> bytes | None:
        """The latest frame with the referee's overlays (JPEG), drawn when a viewer asks, by the asking thread
        and outside the table's lock, at most ``picture_fps`` times a second (the frame loop never waits for a
        JPEG: drawn in the loop, it held up the frames behind it)."""
        now = time.time()
        if self._jpeg is not None and now - self._jpeg_at < self.picture_every_s:
            return self._jpeg
        if not self._drawing.acquire(blocking=False):  # another viewer is drawing it: the last one will do
            return self._jpeg
        try:
            with self._lock:
                frame, rnd = self._latest, self.round
                if frame is None or frame.image is None:
                    return self._jpeg
                state = overlay_state(rnd.referee if rnd is not None else None, self.geometry, frame.t)
            self._jpeg, self._jpeg_at = picture(frame.image, state), now
            return self._jpeg
        finally:
            self._drawing.release()

    def latest_frame(self) -> Frame | None:
        with self._lock:
            return self._latest

    def round_view(self) -> dict[str, Any] | None:
        with self._lock:
            rnd = self.round
            if rnd is None:
                return None
            referee = rnd.referee
            return {
                "number": rnd.row.number,
                "phase": "source ended" if rnd.source_ended and not rnd.done else str(referee.phase),
                "stopped": referee.centre.stopped,
                "done": rnd.done,
                "stacks": [
                    {"id": s.id, "top": str(s.top), "height": s.height, "cards": [str(c.card) for c in s.cards]}
                    for s in referee.centre.stacks
                ],
                "warnings": [str(w) for w in referee.warnings],
            }

    def pipeline_view(self) -> dict[str, Any]:
        """How the frame loop keeps up: frames per second, ms per frame, how late frames are taken after they
        come (the last 300 frames) and how many it had no time for."""
        lags = sorted(self.lag_ms)
        return {
            "running": self.running,
            "fps": round(self.meter.fps, 2),
            "frames": self.frames_taken,
            "dropped": self.dropped,
            "t": round(self.t, 3),
            "epoch": self.epoch,
            "frame_ms_p50": _quantile(self.frame_ms, 0.5),
            "lag_ms_p50": _quantile(lags, 0.5),
            "lag_ms_max": round(lags[-1], 2) if lags else None,
            "geometry": self.geometry is not None,
            "vision": self.vision.name,
            "source": describe(self.spec),
            "source_error": self.source_error,
            "viewers": self.hub.viewers,
        }


def _quantile(values: Any, q: float) -> float | None:
    """The ``q`` quantile of ``values`` (nearest rank, rounded to 0.01), None when empty.

    >>> _quantile([4.0, 1.0, 3.0, 2.0], 0.5), _quantile([], 0.5)
    (3.0, None)
    """
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2) if ordered else None

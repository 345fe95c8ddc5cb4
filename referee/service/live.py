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
from dataclasses import dataclass
from typing import Any

from referee.backs import BackDesign
from referee.errors import LigrettoError
from referee.events import Event, RoundScored, RoundStarted
from referee.scoring import RoundResult
from referee.service.feed import FeedSpec, describe, paced, wall_timed
from referee.service.hub import Hub
from referee.service.overlay import overlay_state, picture
from referee.service.sheets import score_sheet
from referee.session import Session, SessionSettings
from referee.store import RoundRow, SessionRow, Store
from referee.tracker import Referee, RefereeSettings
from vision.geometry import TableGeometry
from vision.sightings_adapter import to_sightings
from vision.sources import Frame

GEOMETRY_EVERY = 15  # frames between tries to find the table plane on a live camera
PICTURE_WANTED_S = 2.0  # keep encoding pictures this long after the page last asked for one


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
        self.count = 0

    def tick(self) -> None:
        self.times.append(time.perf_counter())
        self.count += 1

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
        self.meter = FpsMeter()
        self.picture_every_s = 1.0 / picture_fps if picture_fps > 0 else 0.0
        self.epoch: float | None = None
        self.t = 0.0
        self.frame_index = 0
        self.source_error: str | None = None
        self.frame_ms: deque[float] = deque(maxlen=300)
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._latest: Frame | None = None
        self._jpeg: bytes | None = None
        self._jpeg_at = 0.0
        self._picture_wanted_until = 0.0

    # ------------------------------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="ligretto-live", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._closing.set()
        self._wake.set()
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
        frames = source.frames() if self.spec.is_file else wall_timed(source.frames())
        speed = self.spec.speed if self.spec.is_file else 0.0  # a camera paces itself
        for frame, epoch in paced(frames, speed):
            if self._closing.is_set():
                return
            started = time.perf_counter()
            self._step(frame, epoch)
            self.frame_ms.append((time.perf_counter() - started) * 1000.0)
            if self.spec.is_file and not self._round_wants_frames():
                return  # a file plays for one round
        self.source_error = getattr(source, "broken", None)

    def _step(self, frame: Frame, epoch: float) -> None:
        with self._lock:
            self.t, self.frame_index, self.epoch = frame.t, frame.index, epoch
            self.meter.tick()
            if frame.image is not None:
                self._latest = frame
            rnd = self.round
            if rnd is not None and not rnd.done:
                self._publish(rnd, self._referee_step(rnd, frame))
            self._maybe_picture()

    def _referee_step(self, rnd: LiveRound, frame: Frame) -> list[Event]:
        if frame.image is None:
            return rnd.referee.update(None)
        if self.geometry is None:
            if frame.index % GEOMETRY_EVERY == 0:
                self.geometry = self.runner.find_geometry([frame], (frame.image.shape[1], frame.image.shape[0]))
            if self.geometry is None:
                return []
        detections, visible = self.vision.read(frame)
        sightings = to_sightings(detections, self.geometry, t=frame.t, frame=frame.index, visible=visible)
        return rnd.referee.update(sightings)

    def _source_ended(self) -> None:
        with self._lock:
            rnd = self.round
            if rnd is None or rnd.done:
                return
            if self.spec.is_file:
                rnd.source_ended = True
                self._publish(rnd, rnd.referee.finish())
                self._status("source_ended")

    def _maybe_picture(self) -> None:
        now = time.time()
        if now > self._picture_wanted_until or self._latest is None or self._latest.image is None:
            return
        if now - self._jpeg_at < self.picture_every_s:
            return
        referee = self.round.referee if self.round is not None else None
        self._jpeg = picture(self._latest.image, overlay_state(referee, self.geometry, self._latest.t))
        self._jpeg_at = now

    # ------------------------------------------------------------------------------------------ publishing

    def _publish(self, rnd: LiveRound, events: list[Event]) -> None:
        for event in events:
            seq = self.store.add_event(rnd.row.id, event)
            self.hub.publish(
                {
                    "kind": "event",
                    "seq": seq,
                    "session": self.session.id,
                    "round": rnd.row.number,
                    "added": time.time(),
                    "epoch": self.epoch,
                    "event": event.to_json(),
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
            self.round = LiveRound(row, Referee(self.runner.settings.referee, backs=backs, round=row.number))
            t, frame = (0.0, 0) if self.spec.is_file else (self.t, self.frame_index)
            if self.spec.is_file:
                self.epoch = time.time()
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
        """The latest annotated frame (JPEG); asking keeps the pipeline encoding pictures for a while."""
        self._picture_wanted_until = time.time() + PICTURE_WANTED_S
        return self._jpeg

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
        times = sorted(self.frame_ms)
        return {
            "running": self.running,
            "fps": round(self.meter.fps, 2),
            "frames": self.meter.count,
            "t": round(self.t, 3),
            "epoch": self.epoch,
            "frame_ms_p50": round(times[len(times) // 2], 2) if times else None,
            "geometry": self.geometry is not None,
            "vision": self.vision.name,
            "source": describe(self.spec),
            "source_error": self.source_error,
            "viewers": self.hub.viewers,
        }

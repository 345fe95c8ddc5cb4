"""What a replay decided and how it went: the events (with when each was said), counts, timings, exit code."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from referee.events import Event, RoundScored, RoundStopped
from vision.geometry import TableGeometry
from vision.sources import VideoInfo


class ExitCode(IntEnum):
    """What ``ligretto replay`` returns; also in ``summary.json`` as ``exit_code``."""

    OK = 0
    BAD_INPUT = 2
    VIDEO_BROKEN = 3
    NO_TABLE = 4
    NO_ROUND_END = 5


@dataclass(frozen=True)
class Emitted:
    """An event and the moment the referee could say it (the frame being read when it came out)."""

    event: Event
    said_t: float
    said_frame: int


@dataclass
class SessionResult:
    """What a replay decided, and how it went."""

    info: VideoInfo
    vision: str
    geometry: TableGeometry | None
    emitted: list[Emitted] = field(default_factory=list)
    frames_read: int = 0
    frames_seen: int = 0
    closer_looks: int = 0
    """Spots read again closer (:mod:`vision.look_again`): one detector pass each."""
    unreadable: int = 0
    broken: str | None = None
    wall_s: float = 0.0
    last_t: float = 0.0
    warnings: list[str] = field(default_factory=list)
    stacks: list[dict[str, Any]] = field(default_factory=list)
    thumbs: dict[int, bytes] = field(default_factory=dict)
    """Index in :attr:`emitted` -> a JPEG of the frame around the event."""
    heights: list[tuple[float, dict[int, int]]] = field(default_factory=list)
    """(t, {stack: height}) whenever a stack changed, for the report's plot."""
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def events(self) -> list[Event]:
        return [e.event for e in self.emitted]

    @property
    def scored(self) -> RoundScored | None:
        return next((e for e in reversed(self.events) if isinstance(e, RoundScored)), None)

    @property
    def stopped(self) -> RoundStopped | None:
        return next((e for e in self.events if isinstance(e, RoundStopped)), None)

    @property
    def exit_code(self) -> ExitCode:
        if self.broken is not None:
            return ExitCode.VIDEO_BROKEN
        if self.geometry is None:
            return ExitCode.NO_TABLE
        if self.scored is None:
            return ExitCode.NO_ROUND_END
        return ExitCode.OK

    @property
    def message(self) -> str:
        """One line for the user: what happened."""
        code = self.exit_code
        if code is ExitCode.VIDEO_BROKEN:
            return f"{self.broken}; what was decided up to {self.last_t:.1f} s is written out"
        if code is ExitCode.NO_TABLE:
            return "no cards found anywhere in the video: is the camera looking at a Ligretto table?"
        if code is ExitCode.NO_ROUND_END:
            if self.stopped is None:
                return (
                    f"the video ends during play at {self.last_t:.1f} s (no stop, no gathered centre): "
                    "the stacks so far are written out, no scores (use --stop-at SECONDS to stop the round)"
                )
            return "the round stopped but its spreads were never counted: no scores"
        scored = self.scored
        assert scored is not None
        return "round scored: " + ", ".join(f"{b} {s:+d}" for b, s in scored.scores.items())

    @property
    def speed(self) -> float:
        """Video seconds replayed per wall-clock second."""
        return self.last_t / self.wall_s if self.wall_s > 0 else 0.0

    def summary(self) -> dict[str, Any]:
        scored = self.scored
        counts: dict[str, Any] = {}
        if scored is not None:
            counts = {"centre": scored.centre, "leftover": scored.leftover}
        by_type: dict[str, int] = {}
        for event in self.events:
            by_type[event.type] = by_type.get(event.type, 0) + 1
        return {
            "status": self.exit_code.name.lower(),
            "exit_code": int(self.exit_code),
            "message": self.message,
            "vision": self.vision,
            "video": {
                "width": self.info.width,
                "height": self.info.height,
                "fps": round(self.info.fps, 3),
                "frames_declared": self.info.frames,
                "frames_read": self.frames_read,
                "frames_seen": self.frames_seen,
                "closer_looks": self.closer_looks,
                "unreadable_frames": self.unreadable,
                "broken": self.broken,
                "replayed_s": round(self.last_t, 3),
            },
            "geometry": self.geometry.to_json() if self.geometry is not None else None,
            "stacks": self.stacks,
            "counts": counts,
            "scores": scored.scores if scored is not None else {},
            "events": by_type,
            "warnings": self.warnings,
            "replay": {
                "wall_s": round(self.wall_s, 3),
                "speed_x_realtime": round(self.speed, 3),
                **{k: round(v, 3) for k, v in self.timings.items()},
            },
        }

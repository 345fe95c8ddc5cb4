"""Request and response bodies (Create / Update / Public), so that the OpenAPI schema documents the API."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, model_validator


class HealthPublic(BaseModel):
    status: str = Field(examples=["ok"])
    version: str
    pipeline: bool = Field(description="whether the live pipeline thread is running")
    schema_version: int


class SessionCreate(BaseModel):
    """A new match: a fixed number of ``rounds`` (official), a ``target`` total (house rule), or both."""

    name: str = Field(min_length=1, max_length=80, examples=["Friday night"])
    rounds: int | None = Field(default=3, ge=1, le=50)
    target: int | None = Field(default=None, ge=1, le=1000)

    @model_validator(mode="after")
    def _needs_an_end(self) -> SessionCreate:
        if self.rounds is None and self.target is None:
            raise ValueError("a match needs a number of rounds or a target score")
        return self


class SessionPublic(BaseModel):
    id: int
    name: str
    created: float
    source: str
    rounds: int | None
    target: int | None
    rounds_played: int = 0


class PlayerUpdate(BaseModel):
    name: str = Field(min_length=1, max_length=40, examples=["Ada"])


class PlayerCreate(PlayerUpdate):
    back: str = Field(min_length=1, max_length=40, examples=["red-red"], description="the back id of their set")


class PlayerPublic(BaseModel):
    back: str
    name: str


class CountCreate(BaseModel):
    """Counts by hand (cards per back in the centre, left in the Ligretto piles); leave both out to score what
    the camera saw of the spreads."""

    centre: dict[str, int] | None = Field(default=None, examples=[{"red-red": 12, "blue-blue": 9}])
    leftover: dict[str, int] | None = Field(default=None, examples=[{"blue-blue": 3}])


class RoundPublic(BaseModel):
    session: int
    number: int
    started: float
    stopped: float | None = None
    scored: float | None = None


class EventPublic(BaseModel):
    """A stored event: ``event`` is one line of the event log (see DESIGN.md)."""

    seq: int
    round: int
    added: float
    event: dict[str, Any]


class StackPublic(BaseModel):
    id: int
    top: str = Field(examples=["r5"])
    height: int
    cards: list[str]


class RoundState(BaseModel):
    number: int
    phase: str = Field(description="play, stopped, counting, scored or source ended")
    stopped: bool
    done: bool
    stacks: list[StackPublic]
    warnings: list[str]


class RoundScores(BaseModel):
    round: int
    scores: dict[str, int]
    centre: dict[str, int]
    leftover: dict[str, int]


class ScoreSheetPublic(BaseModel):
    session: int
    settings: dict[str, int | None]
    players: list[PlayerPublic]
    rounds: list[RoundScores]
    running_totals: list[dict[str, int]] = Field(description="totals after each round, for the chart")
    totals: dict[str, int]
    leaders: list[str]
    winners: list[str] = Field(description="empty until the match is over under its settings")
    complete: bool
    ended_by: str | None


class StatePublic(BaseModel):
    session: SessionPublic
    round: RoundState | None
    players: list[PlayerPublic]
    scores: ScoreSheetPublic
    pipeline: dict[str, Any]


class BackPublic(BaseModel):
    id: str
    label: str
    box: str
    symbol: str
    lettering: str
    enrolled: bool


class EnrolCreate(BaseModel):
    name: str = Field(min_length=1, max_length=40, examples=["Grandma's blue"])


class EnrolPublic(BaseModel):
    back: BackPublic
    consistency: float
    nearest_other: list[Any] | None = None


class ReplayPublic(BaseModel):
    id: str
    name: str
    status: str = Field(description="queued, running, done or failed")
    oracle: bool
    frames_done: int
    frames_total: int | None
    progress: float
    message: str
    summary: dict[str, Any] | None
    report: str | None
    created: float

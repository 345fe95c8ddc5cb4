from __future__ import annotations

from typing import Any

from fastapi import APIRouter, status

from referee.service.deps import ControlDep, TableDep
from referee.service.schemas import CountCreate, RoundPublic

router = APIRouter(prefix="/api/rounds", tags=["rounds"])


@router.post(
    "",
    response_model=RoundPublic,
    status_code=status.HTTP_201_CREATED,
    dependencies=[ControlDep],
    summary="Start the next round of the current session (a file source starts playing)",
    responses={409: {"description": "a round is still in play, or the match is over"}},
)
def start_round(table: TableDep) -> RoundPublic:
    row = table.start_round()
    return RoundPublic(session=row.session_id, number=row.number, started=row.started)


@router.post(
    "/current/stop",
    dependencies=[ControlDep],
    summary='"Ligretto stop": cards played from now on are illegal (after_stop)',
    responses={409: {"description": "no round in play"}},
)
def stop_round(table: TableDep) -> dict[str, Any]:
    events = table.stop_round()
    return {"events": [e.to_json() for e in events]}


@router.post(
    "/current/count",
    dependencies=[ControlDep],
    summary="Score the round: from the spreads the camera saw, or from counts given by hand",
    responses={409: {"description": "no round to count, or nothing counted yet"}},
)
def count_round(table: TableDep, body: CountCreate | None = None) -> dict[str, Any]:
    counts = body or CountCreate()
    scored = table.count_round(counts.centre, counts.leftover)
    return {"event": scored.to_json()}

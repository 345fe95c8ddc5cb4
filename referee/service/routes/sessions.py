from __future__ import annotations

from fastapi import APIRouter, status

from referee.service.deps import ControlDep, StoreDep, TableDep
from referee.service.routes.state import session_public
from referee.service.schemas import EventPublic, ScoreSheetPublic, SessionCreate, SessionPublic
from referee.service.sheets import sheet_json

router = APIRouter(prefix="/api/sessions", tags=["sessions"])


@router.get("", response_model=list[SessionPublic], summary="Session history, newest first")
def list_sessions(store: StoreDep) -> list[SessionPublic]:
    return [session_public(store, s) for s in store.sessions()]


@router.post(
    "",
    response_model=SessionPublic,
    status_code=status.HTTP_201_CREATED,
    dependencies=[ControlDep],
    summary="Start a new match (it becomes the current session)",
)
def create_session(body: SessionCreate, store: StoreDep, table: TableDep) -> SessionPublic:
    return session_public(store, table.new_session(body.name, body.rounds, body.target))


@router.get("/{session_id}", response_model=SessionPublic, summary="One session")
def read_session(session_id: int, store: StoreDep) -> SessionPublic:
    return session_public(store, store.session(session_id))


@router.get(
    "/{session_id}/scores",
    response_model=ScoreSheetPublic,
    summary="The score sheet: rounds, running totals, totals and winners under the match settings",
)
def read_scores(session_id: int, store: StoreDep) -> ScoreSheetPublic:
    return ScoreSheetPublic(**sheet_json(store, store.session(session_id)))


@router.get("/{session_id}/events", response_model=list[EventPublic], summary="The session's whole event log")
def read_events(session_id: int, store: StoreDep) -> list[EventPublic]:
    store.session(session_id)
    return [EventPublic(**e.to_json()) for e in store.events(session_id)]

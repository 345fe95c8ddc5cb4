from __future__ import annotations

from fastapi import APIRouter

from referee.service.deps import StoreDep, TableDep
from referee.service.schemas import PlayerPublic, RoundState, ScoreSheetPublic, SessionPublic, StatePublic
from referee.service.sheets import sheet_json
from referee.store import SessionRow, Store

router = APIRouter(prefix="/api", tags=["state"])


def session_public(store: Store, session: SessionRow) -> SessionPublic:
    played = sum(1 for r in store.rounds(session.id) if r.scored is not None)
    return SessionPublic(**session.__dict__, rounds_played=played)


@router.get(
    "/state",
    response_model=StatePublic,
    summary="Everything the page shows: the stacks, the round, the players and the score sheet",
)
def state(store: StoreDep, table: TableDep) -> StatePublic:
    session = table.session
    round_view = table.round_view()
    return StatePublic(
        session=session_public(store, session),
        round=RoundState(**round_view) if round_view is not None else None,
        players=[PlayerPublic(back=b, name=n) for b, n in store.players(session.id).items()],
        scores=ScoreSheetPublic(**sheet_json(store, session)),
        pipeline=table.pipeline_view(),
    )

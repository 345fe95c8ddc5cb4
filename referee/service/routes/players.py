from __future__ import annotations

from fastapi import APIRouter, HTTPException, status

from referee.service.deps import ControlDep, StoreDep, TableDep
from referee.service.schemas import PlayerCreate, PlayerPublic, PlayerUpdate

router = APIRouter(prefix="/api/players", tags=["players"])


@router.get("", response_model=list[PlayerPublic], summary="The current session's players and their backs")
def list_players(store: StoreDep, table: TableDep) -> list[PlayerPublic]:
    return [PlayerPublic(back=b, name=n) for b, n in store.players(table.session.id).items()]


@router.post(
    "",
    response_model=PlayerPublic,
    status_code=status.HTTP_201_CREATED,
    dependencies=[ControlDep],
    summary="Seat a player: bind their name to the back of their set",
)
def add_player(body: PlayerCreate, table: TableDep) -> PlayerPublic:
    table.set_player(body.back, body.name.strip())
    return PlayerPublic(back=body.back, name=body.name.strip())


@router.put("/{back}", response_model=PlayerPublic, dependencies=[ControlDep], summary="Rename a player")
def rename_player(back: str, body: PlayerUpdate, store: StoreDep, table: TableDep) -> PlayerPublic:
    if back not in store.players(table.session.id):
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no player with back {back}")
    table.set_player(back, body.name.strip())
    return PlayerPublic(back=back, name=body.name.strip())


@router.delete("/{back}", status_code=status.HTTP_204_NO_CONTENT, dependencies=[ControlDep], summary="Unseat a player")
def remove_player(back: str, table: TableDep) -> None:
    if not table.remove_player(back):
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no player with back {back}")

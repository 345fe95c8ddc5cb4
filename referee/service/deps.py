"""Dependencies as ``Annotated`` aliases: the settings, the store, the live table, the replay jobs, and the
token check every control or upload endpoint carries."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Query, Request, status

from referee.service.live import LiveTable
from referee.service.replays import ReplayJobs
from referee.service.settings import Settings
from referee.store import Store


def get_settings(request: Request) -> Settings:
    return request.app.state.settings


def get_store(request: Request) -> Store:
    return request.app.state.store


def get_table(request: Request) -> LiveTable:
    table = getattr(request.app.state, "table", None)
    if table is None:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, "the live pipeline is not running")
    return table


def get_jobs(request: Request) -> ReplayJobs:
    return request.app.state.jobs


SettingsDep = Annotated[Settings, Depends(get_settings)]
StoreDep = Annotated[Store, Depends(get_store)]
TableDep = Annotated[LiveTable, Depends(get_table)]
JobsDep = Annotated[ReplayJobs, Depends(get_jobs)]


def require_token(
    settings: SettingsDep,
    authorization: Annotated[str | None, Header()] = None,
    x_ligretto_token: Annotated[str | None, Header()] = None,
    token: Annotated[str | None, Query(description="the access token, for links that cannot send headers")] = None,
) -> None:
    """Control and upload endpoints: with a token configured, the request must carry it (``Authorization:
    Bearer TOKEN``, ``X-Ligretto-Token`` or ``?token=``)."""
    expected = settings.token
    if not expected:
        return
    given = x_ligretto_token or token
    if authorization and authorization.lower().startswith("bearer "):
        given = authorization[7:].strip()
    if not given or not secrets.compare_digest(given.encode(), expected.encode()):
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED, "a valid token is required", headers={"WWW-Authenticate": "Bearer"}
        )


ControlDep = Depends(require_token)

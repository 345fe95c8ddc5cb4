from __future__ import annotations

from fastapi import APIRouter, Request

from referee import __version__
from referee.service.deps import StoreDep
from referee.service.schemas import HealthPublic

router = APIRouter(prefix="/api", tags=["health"])


@router.get("/health", response_model=HealthPublic, summary="Is the service up, and the pipeline running?")
def health(request: Request, store: StoreDep) -> HealthPublic:
    table = getattr(request.app.state, "table", None)
    return HealthPublic(
        status="ok",
        version=__version__,
        pipeline=bool(table is not None and table.running),
        schema_version=store.schema_version,
    )

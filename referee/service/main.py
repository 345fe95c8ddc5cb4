"""Builds the app: ``create_app(settings)`` -> FastAPI, with the store, the live table and the replay queue.

    uvicorn.run(create_app(Settings(source="0")), host="127.0.0.1", port=8000)

The live table and the store are opened in the app's lifespan (so tests can build an app without a camera:
``Settings(run_pipeline=False)``, or inject their own through ``app.dependency_overrides``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

from fastapi import FastAPI, Request, Response, status
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from referee import __version__
from referee.errors import LigrettoError, NotationError, ScoringError, SetupError
from referee.service.feed import FeedSpec
from referee.service.hub import Hub
from referee.service.live import ConflictError, LiveTable
from referee.service.replays import ReplayJobs
from referee.service.routes import ROUTERS
from referee.service.settings import Settings
from referee.store import NotFoundError, Store
from referee.tracker import RefereeSettings

STATIC = Path(__file__).with_name("static")
DESCRIPTION = """The live Ligretto referee: the camera's picture, the centre stacks, illegal plays as they happen,
round controls, the score sheet across rounds, back enrolment, replays and exports.

**WebSocket `/api/events?since=SEQ`** streams the event log: first the current session's stored events after
`SEQ`, then each one as it happens: `{"kind": "event", "seq", "round", "session", "added", "epoch", "event"}`
(`event` is one line of the event log; `epoch + event.t` is the wall-clock time of the frame that caused it),
and `{"kind": "status", "change"}` when the session, round or players change.

Control and upload endpoints need the token (`Authorization: Bearer TOKEN`) when the server has one, which it
must when it listens beyond localhost."""


def _status_of(exc: LigrettoError) -> int:
    if isinstance(exc, ConflictError):
        return status.HTTP_409_CONFLICT
    if isinstance(exc, NotFoundError):
        return status.HTTP_404_NOT_FOUND
    if isinstance(exc, NotationError | SetupError | ScoringError):
        return status.HTTP_422_UNPROCESSABLE_CONTENT
    return status.HTTP_400_BAD_REQUEST


def build_table(settings: Settings, store: Store, hub: Hub) -> LiveTable:
    from referee.backs import Catalogue
    from vision.geometry import load_calibration

    spec = FeedSpec(
        settings.source,
        oracle=settings.oracle,
        speed=settings.speed,
        calibration=load_calibration(settings.calibration) if settings.calibration else None,
        catalogue=Catalogue.load_or_default(settings.catalogue_path) if settings.catalogue_path.is_file() else None,
    )
    spec.check()
    referee = RefereeSettings()
    voting = referee.tracker.voting
    if settings.vote_window_s is not None:
        voting = replace(voting, window_s=settings.vote_window_s)
    if settings.strict_span_s is not None:
        voting = replace(voting, strict_span_s=settings.strict_span_s)
    referee = replace(referee, tracker=replace(referee.tracker, voting=voting))
    return LiveTable(
        spec,
        store,
        hub,
        rounds=settings.rounds,
        target=settings.target,
        picture_fps=settings.picture_fps,
        referee=referee,
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    if not settings.local_only and not settings.token:
        raise SetupError(f"listening on {settings.host} makes the referee reachable from other machines: set a token")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        store = Store(settings.db)
        app.state.store, app.state.hub = store, Hub()
        app.state.jobs = ReplayJobs(settings.data_dir)
        if settings.run_pipeline:
            app.state.table = build_table(settings, store, app.state.hub)
            app.state.table.start()
        try:
            yield
        finally:
            if getattr(app.state, "table", None) is not None:
                app.state.table.close()
            app.state.jobs.close()
            store.close()

    app = FastAPI(title="Ligretto Referee", version=__version__, description=DESCRIPTION, lifespan=lifespan)
    app.state.settings = settings
    for router in ROUTERS:
        app.include_router(router)

    @app.exception_handler(LigrettoError)
    async def ligretto_error(request: Request, exc: LigrettoError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=_status_of(exc))

    @app.middleware("http")
    async def limit_uploads(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        """Refuses an oversized upload before reading it (the route checks the bytes too)."""
        if request.method == "POST" and request.url.path == "/api/replays":
            length = request.headers.get("content-length")
            if length is None:
                return JSONResponse({"detail": "uploads need a Content-Length"}, status.HTTP_411_LENGTH_REQUIRED)
            if not length.isdigit() or int(length) > (settings.max_upload_mb + settings.max_labels_mb + 1) << 20:
                return JSONResponse({"detail": "the upload is too large"}, status.HTTP_413_CONTENT_TOO_LARGE)
        return await call_next(request)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app

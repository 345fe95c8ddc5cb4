"""The event log, live over a WebSocket (``/api/events``) and as a list (``GET /api/events/log``)."""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect

from referee.service.deps import StoreDep, TableDep
from referee.service.schemas import EventPublic

router = APIRouter(prefix="/api", tags=["events"])


@router.get(
    "/events/log",
    response_model=list[EventPublic],
    summary="The current session's events after sequence number `since` (the WebSocket /api/events streams them)",
)
def event_log(store: StoreDep, table: TableDep, since: Annotated[int, Query(ge=0)] = 0) -> list[EventPublic]:
    return [EventPublic(**e.to_json()) for e in store.events(table.session.id, after=since)]


@router.websocket("/events")
async def events(websocket: WebSocket, since: int = 0) -> None:
    """Streams the current session's event log: first every stored event after ``since``, then each new one
    as it happens (``{"kind": "event", "seq", "round", "session", "added", "epoch", "event"}``), and
    ``{"kind": "status"}`` when the session, round or players change."""
    app = websocket.app
    store, table, hub = app.state.store, getattr(app.state, "table", None), app.state.hub
    await websocket.accept()
    subscriber = hub.subscribe()  # before reading the backlog, so nothing falls between the two
    closed = asyncio.create_task(_until_closed(websocket))
    try:
        last = 0  # the newest event sent from the backlog: live copies of it are skipped
        if table is not None:
            backlog = await asyncio.to_thread(store.events, table.session.id, after=since)
            for stored in backlog:
                await websocket.send_json({"kind": "event", "session": table.session.id, **stored.to_json()})
                last = stored.seq
        await websocket.send_json({"kind": "ready", "last": last})
        while not subscriber.lagging:
            message = await _next(subscriber.queue, closed)
            if message is None:
                return
            if message.get("kind") == "event":
                if message["seq"] <= last:
                    continue
                message = {**message, "timing": {**message["timing"], "sent": time.time()}}  # shared: copy
            await websocket.send_json(message)
        await websocket.close(code=1013, reason="too slow: reconnect with ?since=LAST")
    except WebSocketDisconnect:
        pass
    finally:
        closed.cancel()
        hub.unsubscribe(subscriber)


async def _until_closed(websocket: WebSocket) -> None:
    """Returns when the viewer goes away (viewers send nothing; anything they send is ignored)."""
    while (await websocket.receive())["type"] != "websocket.disconnect":
        pass


async def _next(queue: asyncio.Queue[dict[str, Any]], closed: asyncio.Task[None]) -> dict[str, Any] | None:
    """The next message, or None once the viewer has gone."""
    getter = asyncio.ensure_future(queue.get())
    done, _ = await asyncio.wait({getter, closed}, return_when=asyncio.FIRST_COMPLETED)
    if getter in done:
        return getter.result()
    getter.cancel()
    return None

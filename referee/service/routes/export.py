from __future__ import annotations

import csv
import io
import json
from typing import Any

from fastapi import APIRouter, Response

from referee.service.deps import StoreDep
from referee.service.routes.state import session_public
from referee.service.sheets import sheet_json

router = APIRouter(prefix="/api/sessions", tags=["export"])


def _cell(text: str) -> str:
    """A name as a spreadsheet shows it, never as a formula (CSV injection).

    >>> _cell("=1+1"), _cell("Ada")
    ("'=1+1", 'Ada')
    """
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@router.get(
    "/{session_id}/export.json",
    summary="The session as JSON: settings, players, score sheet and the whole event log",
)
def export_json(session_id: int, store: StoreDep) -> Response:
    session = store.session(session_id)
    body: dict[str, Any] = {
        "session": session_public(store, session).model_dump(),
        "scores": sheet_json(store, session),
        "events": [e.to_json() for e in store.events(session_id)],
    }
    return Response(
        json.dumps(body, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="ligretto-session-{session_id}.json"'},
    )


@router.get(
    "/{session_id}/export.csv",
    summary="The score sheet as CSV: one row per round and player, then the totals",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}}},
)
def export_csv(session_id: int, store: StoreDep) -> Response:
    sheet = sheet_json(store, store.session(session_id))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "back", "player", "centre", "leftover", "score"])
    names = {p["back"]: p["name"] for p in sheet["players"]}
    for rnd in sheet["rounds"]:
        for back, score in rnd["scores"].items():
            row = [
                rnd["round"],
                back,
                _cell(names.get(back, back)),
                rnd["centre"].get(back, 0),
                rnd["leftover"].get(back, 0),
            ]
            writer.writerow([*row, score])
    for back, total in sheet["totals"].items():
        writer.writerow(["total", back, _cell(names.get(back, back)), "", "", total])
    for back in sheet["winners"]:
        writer.writerow(["winner", back, _cell(names.get(back, back)), "", "", sheet["totals"][back]])
    return Response(
        out.getvalue(),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="ligretto-session-{session_id}.csv"'},
    )

"""The score sheet of a stored session, built by the referee's own visitor (no scoring logic here)."""

from __future__ import annotations

from typing import Any

from referee.errors import ScoringError
from referee.rules import RuleSettings
from referee.store import SessionRow, Store
from referee.visitors import ScoreSheet, ScoreSheetBuilder, replay


def match_settings(session: SessionRow) -> RuleSettings:
    return RuleSettings(rounds=session.rounds, target_score=session.target)


def score_sheet(store: Store, session: SessionRow) -> ScoreSheet:
    """Rounds, totals and winners under the session's match settings (fixed rounds and/or a target)."""
    events = [e.event for e in store.events(session.id) if e.event.type in ("round_started", "round_scored")]
    try:
        return replay(events, ScoreSheetBuilder(match_settings(session)))
    except ScoringError:  # rounds scored past the match's end (settings changed): show them all
        return replay(events, ScoreSheetBuilder())


def sheet_json(store: Store, session: SessionRow) -> dict[str, Any]:
    """The score sheet with players' names, running totals per round (for the chart) and the match settings."""
    sheet = score_sheet(store, session)
    players = store.players(session.id)
    backs = list(dict.fromkeys([*players, *sheet.backs]))
    running: list[dict[str, int]] = []
    totals = dict.fromkeys(backs, 0)
    for result in sheet.rounds:
        totals = {b: totals[b] + result.scores.get(b, 0) for b in backs}
        running.append(dict(totals))
    return {
        "session": session.id,
        "settings": {"rounds": session.rounds, "target": session.target},
        "players": [{"back": b, "name": players.get(b, b)} for b in backs],
        "rounds": [
            {"round": r.round, "scores": r.scores, "centre": r.centre, "leftover": r.leftover} for r in sheet.rounds
        ],
        "running_totals": running,
        "totals": {b: sheet.totals.get(b, 0) for b in backs},
        "leaders": list(sheet.leaders),
        "winners": list(sheet.winners),
        "complete": sheet.complete,
        "ended_by": sheet.outcome.reason if sheet.outcome is not None else None,
    }

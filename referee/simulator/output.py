"""Writing simulated rounds to disk: per round the event log and the trace (JSON Lines), and a summary.

``DIR/round-<k>.events.jsonl`` is the ground-truth event log, ``DIR/round-<k>.trace.jsonl`` the physical
trace (layout first, then every card move), ``DIR/summary.json`` the rounds (duration, end, counts,
scores, injected mistakes, final places) and the match (totals, winners).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.errors import InputFileError
from referee.events import write_events
from referee.simulator.result import RoundResult
from referee.simulator.series import MatchResult
from referee.simulator.settings import SimSettings


def prepare(out: Path) -> Path:
    """Creates the output folder; a path that is a file or cannot be created is a clear error."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputFileError(f"cannot create output folder {out}: {exc.strerror or exc}") from None
    return out


def write_round(result: RoundResult, out: Path) -> tuple[Path, Path]:
    """Writes the round's event log and trace; returns their paths."""
    events = out / f"round-{result.number}.events.jsonl"
    trace = out / f"round-{result.number}.trace.jsonl"
    with events.open("w", encoding="utf-8") as handle:
        write_events(result.events, handle)
    with trace.open("w", encoding="utf-8") as handle:
        for record in result.trace_json():
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return events, trace


def summary(match: MatchResult, settings: SimSettings) -> dict[str, Any]:
    """The content of ``summary.json``."""
    return {
        "players": len(match.backs),
        "backs": list(match.backs),
        "seed": match.seed,
        "settings": {
            "conflict_resolution": settings.rules.conflict_resolution.value,
            "short_hand": settings.rules.short_hand.value,
            "turn_over": settings.rules.turn_over,
            "advanced_row": settings.rules.advanced_row,
            "mistakes": settings.mistakes.to_json(),
        },
        "rounds": [{**r.summary(), "final": r.final} for r in match.rounds],
        "totals": match.outcome.totals,
        "winners": list(match.outcome.winners),
        "match_end": match.outcome.reason,
    }


def write_summary(match: MatchResult, settings: SimSettings, out: Path) -> Path:
    path = out / "summary.json"
    path.write_text(json.dumps(summary(match, settings), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path

"""``ligretto sheet``: the score sheet of an event log (rounds x backs, totals, winners)."""

from __future__ import annotations

import argparse
import itertools
import json

from referee.events import read_events
from referee.rules import RuleSettings
from referee.visitors import ScoreSheet, ScoreSheetBuilder, replay


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "sheet",
        help="print the score sheet of an event log",
        description="Reads the round_scored events of event logs (JSON Lines) and prints each back's score\n"
        "per round, the totals and the winners. Several logs are read as one match. Without --rounds\n"
        "or --target, the match is every round in the logs.",
        epilog="examples:\n"
        "  ligretto sheet out/events.jsonl --target 99\n"
        "  ligretto sheet out/round-*.events.jsonl --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("events", metavar="EVENTS.jsonl", nargs="+", help="event log(s), one JSON event per line")
    parser.add_argument("--rounds", type=int, help="the match lasts this many rounds")
    parser.add_argument("--target", type=int, help="the match ends when a total reaches this score")
    parser.add_argument("--json", action="store_true", help="print the sheet as one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = None
    if args.rounds is not None or args.target is not None:
        settings = RuleSettings(rounds=args.rounds, target_score=args.target)
    events = itertools.chain.from_iterable(read_events(path) for path in args.events)
    sheet = replay(events, ScoreSheetBuilder(settings))
    print(json.dumps(sheet.to_json()) if args.json else format_sheet(sheet))
    return 0


def format_sheet(sheet: ScoreSheet) -> str:
    """The sheet as a plain-text table: one row per round, one column per back, then totals and the result.

    >>> from referee.scoring import RoundResult
    >>> from referee.match import MatchOutcome
    >>> sheet = ScoreSheet(("red-red", "blue-blue"), (RoundResult(1, {"red-red": 9, "blue-blue": -4}),),
    ...                    {"red-red": 9, "blue-blue": -4}, ("red-red",), MatchOutcome(("red-red",), {}, 1, "rounds"))
    >>> print(format_sheet(sheet))
    round  red-red  blue-blue
    1            9         -4
    total        9         -4
    winner: red-red (after 1 round)
    """
    if not sheet.rounds:
        return "no round was scored in this log"
    header = ["round", *sheet.backs]
    rows = [[str(r.round), *(str(r.scores.get(b, 0)) for b in sheet.backs)] for r in sheet.rounds]
    rows.append(["total", *(str(sheet.totals[b]) for b in sheet.backs)])
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [_format_row(row, widths) for row in [header, *rows]]
    lines.append(_result_line(sheet))
    return "\n".join(line.rstrip() for line in lines)


def _result_line(sheet: ScoreSheet) -> str:
    if sheet.outcome is None:
        return f"match not over; leading: {', '.join(sheet.leaders)}"
    label = "winner" if len(sheet.winners) == 1 else "winners (tie)"
    played = sheet.outcome.rounds
    why = "target reached " if sheet.outcome.reason == "target" else ""
    return f"{label}: {', '.join(sheet.winners)} ({why}after {played} round{'s' if played != 1 else ''})"


def _format_row(row: list[str], widths: list[int]) -> str:
    """The round label left-aligned, the scores right-aligned so the digits line up."""
    cells = [row[0].ljust(widths[0]), *(cell.rjust(w) for cell, w in zip(row[1:], widths[1:], strict=True))]
    return "  ".join(cells)

"""``report.html``: a replay as one self-contained page (no files beside it, nothing fetched).

Sections: the verdict line, the score table, a plot of the stack heights over time (inline SVG), each stack's
history, and the timeline of every event with a thumbnail of the moment (JPEG as a data URI).

>>> from referee.events import CardPlayed, RoundScored
>>> from referee.cards import Card
>>> page = render_report({"message": "ok", "scores": {"red-red": 3}, "counts": {"centre": {"red-red": 3},
...     "leftover": {}}, "warnings": [], "stacks": []}, [(CardPlayed(t=1.0, stack=1, card=Card.parse("r2")), None)],
...     heights=[(1.0, {1: 2})], title="demo")
>>> "<table class=\\"scores\\">" in page and "r2" in page and "<svg" in page
True

A card whose player play showed is named in its stack's history:

>>> played = [(CardPlayed(t=1.0, stack=1, card=Card.parse("r2")), None)]
>>> "r2</span> (red-red)" in render_report({"stacks": [{"id": 1, "cards": ["r2"], "owners": ["red-red"]}]}, played)
True
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from typing import Any

from referee.events import Event, withdrawn_rulings

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}
h1{margin-bottom:.2em} .verdict{font-size:1.1em;margin:.5em 0 1.5em}
table{border-collapse:collapse;margin:.5em 0 1.5em} td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}
th{background:#f3f3f3} td.num{text-align:right} .illegal_play,.conflict{background:#fde8e8}
.ruling_withdrawn{background:#e8f4fd}
.round_stopped,.round_scored{background:#e8f0fd} .warn{color:#a33} img{display:block;max-width:240px}
.stack{margin:.3em 0} .card{display:inline-block;padding:0 .3em;margin:0 .1em;border-radius:3px;color:#fff}
.red{background:#c62828}.yellow{background:#d4a600}.green{background:#2e7d32}.blue{background:#1565c0}
"""


def render_report(
    summary: dict[str, Any],
    timeline: Sequence[tuple[Event, bytes | None]],
    *,
    heights: Sequence[tuple[float, dict[int, int]]] = (),
    title: str = "Ligretto replay",
) -> str:
    """The page for ``summary`` (``SessionResult.summary()``) and the events with their JPEG thumbnails."""
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f"<p class='verdict'>{_e(str(summary.get('message', '')))}</p>",
        _scores(summary),
        _warnings(summary.get("warnings", [])),
        "<h2>Stack heights over time</h2>",
        _plot(heights),
        "<h2>Stacks</h2>",
        _stacks(timeline, summary.get("stacks", [])),
        f"<h2>Timeline ({len(timeline)} events)</h2>",
        _timeline(timeline),
        "</body></html>",
    ]
    return "\n".join(parts)


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _scores(summary: dict[str, Any]) -> str:
    scores: dict[str, int] = summary.get("scores") or {}
    counts = summary.get("counts") or {}
    if not scores:
        return "<h2>Scores</h2><p>No scores: the round was not counted.</p>"
    rows = "".join(
        f"<tr><td>{_e(back)}</td><td class='num'>{counts.get('centre', {}).get(back, 0)}</td>"
        f"<td class='num'>{counts.get('leftover', {}).get(back, 0)}</td><td class='num'>{score:+d}</td></tr>"
        for back, score in sorted(scores.items(), key=lambda item: -item[1])
    )
    return (
        '<h2>Scores</h2><table class="scores"><tr><th>back</th><th>centre</th><th>left over</th>'
        f"<th>score</th></tr>{rows}</table>"
    )


def _warnings(warnings: Sequence[str]) -> str:
    if not warnings:
        return ""
    items = "".join(f"<li class='warn'>{_e(w)}</li>" for w in warnings)
    return f"<h2>Warnings</h2><ul>{items}</ul>"


def _card(event: Event) -> str:
    if event.card is None:
        return ""
    return f"<span class='card {event.card.colour.value}'>{_e(event.card)}</span>"


def _stacks(timeline: Sequence[tuple[Event, bytes | None]], stacks: Sequence[Mapping[str, Any]] = ()) -> str:
    """Each stack's history; a card whose player play showed (``stacks``' ``owners``) names them."""
    owner = {
        (stack.get("id"), card): who
        for stack in stacks
        for card, who in zip(stack.get("cards", []), stack.get("owners") or [], strict=False)
        if who
    }
    withdrawn = withdrawn_rulings(event for event, _ in timeline)
    history: dict[int, list[str]] = {}
    for event, _ in timeline:
        if event.stack is None or event.type not in ("stack_started", "card_played", "illegal_play", "conflict"):
            continue
        mark = "" if event.type in ("stack_started", "card_played") else f" ({event.type.replace('_', ' ')})"
        if withdrawn(event):
            mark = " (ruling withdrawn)"
        if not mark and (event.stack, str(event.card)) in owner:
            mark = f" ({owner[(event.stack, str(event.card))]})"
        history.setdefault(event.stack, []).append(f"{event.t:.1f}s {_card(event)}{_e(mark)}")
    if not history:
        return "<p>No stacks.</p>"
    return "".join(
        f"<div class='stack'><b>Stack {sid}</b>: {' &rarr; '.join(items)}</div>"
        for sid, items in sorted(history.items())
    )


def _timeline(timeline: Sequence[tuple[Event, bytes | None]]) -> str:
    rows = []
    for event, thumb in timeline:
        reason = getattr(event, "reason", "") or ""
        image = ""
        if thumb:
            image = f"<img alt='frame {event.frame}' src='data:image/jpeg;base64,{base64.b64encode(thumb).decode()}'>"
        rows.append(
            f"<tr class='{event.type}'><td class='num'>{event.t:.2f}</td><td class='num'>{event.frame}</td>"
            f"<td>{_e(event.type)}</td><td>{'' if event.stack is None else event.stack}</td><td>{_card(event)}</td>"
            f"<td>{_e(reason)}</td><td>{image}</td></tr>"
        )
    return (
        "<table class='timeline'><tr><th>t (s)</th><th>frame</th><th>event</th><th>stack</th><th>card</th>"
        f"<th>reason</th><th>moment</th></tr>{''.join(rows)}</table>"
    )


def _plot(heights: Sequence[tuple[float, dict[int, int]]], width: int = 900, height: int = 260) -> str:
    """Each stack's height as a step line over time; an inline SVG."""
    if not heights:
        return "<p>No stacks to plot.</p>"
    t_end = max(t for t, _ in heights) or 1.0
    margin = 36
    sx = (width - 2 * margin) / t_end
    sy = (height - 2 * margin) / 10.0
    stacks = sorted({s for _, h in heights for s in h})
    palette = ["#c62828", "#1565c0", "#2e7d32", "#d4a600", "#6a1b9a", "#00838f", "#ef6c00", "#4e342e"]
    lines = []
    for k, sid in enumerate(stacks):
        points, last = [], None
        for t, h in heights:
            value = h.get(sid)
            if value is None:
                continue
            x = margin + t * sx
            if last is not None:
                points.append(f"{x:.1f},{height - margin - last * sy:.1f}")
            points.append(f"{x:.1f},{height - margin - value * sy:.1f}")
            last = value
        if points:
            end_y = height - margin - (last or 0) * sy
            points.append(f"{width - margin:.1f},{end_y:.1f}")
            colour = palette[k % len(palette)]
            lines.append(
                f"<text x='{width - margin + 4}' y='{end_y + 4 - 9 * (k % 2):.1f}' font-size='10' "
                f"fill='{colour}'>#{sid}</text>"
            )
            lines.append(
                f"<polyline fill='none' stroke='{colour}' stroke-width='2' points='{' '.join(points)}'>"
                f"<title>stack {sid}</title></polyline>"
            )
    axes = (
        f"<line x1='{margin}' y1='{height - margin}' x2='{width - margin}' y2='{height - margin}' stroke='#333'/>"
        f"<line x1='{margin}' y1='{margin}' x2='{margin}' y2='{height - margin}' stroke='#333'/>"
        f"<text x='{margin}' y='{margin - 8}' font-size='12'>height (cards)</text>"
        f"<text x='{width - margin}' y='{height - 8}' font-size='12' text-anchor='end'>t = {t_end:.1f} s</text>"
        + "".join(
            f"<text x='{margin - 6}' y='{height - margin - v * sy + 4:.1f}' font-size='10' text-anchor='end'>{v}</text>"
            for v in (0, 5, 10)
        )
    )
    return f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}'>{axes}{''.join(lines)}</svg>"

"""Small scripted round videos with exact labels, for the replay tests (a shell: it draws pictures).

A :class:`~referee.tracker.synthetic.ScriptedTable` says where each card lies when; :func:`film` draws it from a
camera above the table as flat coloured cards into ``FILE.mp4`` and writes ``FILE.frames.jsonl`` (every card's
corners in pixels, the format of ``ligretto synth video``) and ``FILE.events.jsonl`` (the script's truth), so
``ligretto replay --oracle`` and ``ligretto eval-referee``'s scoring run on it in a second. The pictures are
plain (the oracle reads the labels); the real renderer is :mod:`vision.render.video`.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> paths = film(two_player_round(), folder / "round.mp4", until=2.0)
>>> sorted(p.name for p in folder.iterdir())
['round.events.jsonl', 'round.frames.jsonl', 'round.mp4']
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from referee.cards import Card
from referee.events import (
    CardPlayed,
    CardTakenBack,
    Event,
    IllegalPlay,
    RoundScored,
    RoundStarted,
    RoundStopped,
    StackStarted,
    write_events,
)
from referee.sightings import Sighting
from referee.tracker.synthetic import ScriptedTable
from vision.render.camera import Camera

SIZE = (480, 360)
COLOURS_BGR = {"red": (40, 40, 210), "yellow": (30, 200, 230), "green": (60, 160, 40), "blue": (200, 90, 30)}
BACKS = ("red-red", "blue-blue")
BACKS_BGR = {"red-red": (50, 50, 170), "blue-blue": (170, 60, 50)}
BACKGROUND_BGR = (70, 110, 60)


def face_grey(number: int) -> int:
    """A face's rim is drawn in a grey that says its number (the pictures are plain, but readable)."""
    return 100 + 15 * number


@dataclass
class ScriptedRound:
    """A scripted table and the events that are true of it."""

    table: ScriptedTable
    events: list[Event] = field(default_factory=list)
    end: float = 0.0


def camera(size: tuple[int, int] = SIZE) -> Camera:
    """Straight down from 1 m with a 0.8-width focal length: about 600 x 450 mm of table in view."""
    return Camera.looking_at((0.0, 0.0), 1000.0, 0.0, 0.8 * size[0], size)


def two_player_round(*, stop: bool = True, fps: float = 30.0) -> ScriptedRound:
    """Two players: two stacks, an illegal play taken back, the stop, the centre turned over and counted.

    Rows lie at the table edge from the start (they mark where the centre ends). Truth: red-red scores
    3 - 2 x 2 = -1 and blue-blue 2 - 0 = 2.
    """
    table = ScriptedTable(fps=fps)

    def at(t: float) -> int:
        return round(t * fps)

    row_cards = ("g7", "y3", "b9"), ("r8", "g2", "y6")
    for seat, y in enumerate((-190.0, 190.0)):
        for i, text in enumerate(row_cards[seat]):
            table.put(0.0, text, (-90.0 + 90.0 * i, y), angle=0.0 if y > 0 else 180.0)
    events: list[Event] = [RoundStarted(t=0.0, frame=0, backs=BACKS)]
    r1 = table.put(1.0, "r1", (-100.0, 0.0), angle=8.0)
    events.append(StackStarted(t=1.0, frame=at(1), stack=1, card=Card.parse("r1"), back="red-red"))
    r2 = table.put(2.0, "r2", (-98.0, 3.0), angle=-5.0)
    events.append(CardPlayed(t=2.0, frame=at(2), stack=1, card=Card.parse("r2"), back="blue-blue"))
    b1 = table.put(3.0, "b1", (100.0, 10.0), angle=15.0)
    events.append(StackStarted(t=3.0, frame=at(3), stack=2, card=Card.parse("b1"), back="red-red"))
    wrong = table.put(4.0, "r5", (-101.0, 1.0), angle=2.0)
    events.append(
        IllegalPlay(t=4.0, frame=at(4), stack=1, card=Card.parse("r5"), back="red-red", reason="wrong_number")
    )
    table.take(5.5, wrong)
    events.append(CardTakenBack(t=5.5, frame=at(5.5), stack=1, card=Card.parse("r5"), back="red-red"))
    b2 = table.put(6.0, "b2", (97.0, 12.0), angle=10.0)
    events.append(CardPlayed(t=6.0, frame=at(6), stack=2, card=Card.parse("b2"), back="blue-blue"))
    r3 = table.put(7.0, "r3", (-99.0, -2.0), angle=0.0)
    events.append(CardPlayed(t=7.0, frame=at(7), stack=1, card=Card.parse("r3"), back="red-red"))
    if not stop:
        return ScriptedRound(table, events, 9.0)
    events.append(RoundStopped(t=8.0, frame=at(8), reason="ligretto_stop", back="blue-blue"))
    for placed in (r1, r2, b1, wrong, b2, r3):
        if placed.present(9.0):
            table.take(9.0, placed)
    table.take_all(9.0)  # the rows are gathered too
    owners = ("red-red", "blue-blue", "red-red", "blue-blue", "red-red")
    for i, back in enumerate(owners):  # the centre cards turned over and spread by back
        table.put_back(9.5, back, (-140.0 + 70.0 * i, 0.0))
    for i in range(2):  # red-red's two leftover pile cards at the table edge
        table.put_back(9.5, "red-red", (-40.0 + 80.0 * i, 200.0))
    events.append(
        RoundScored(
            t=12.0,
            frame=at(12),
            centre={"red-red": 3, "blue-blue": 2},
            leftover={"red-red": 2, "blue-blue": 0},
            scores={"red-red": -1, "blue-blue": 2},
        )
    )
    return ScriptedRound(table, events, 16.0)


def film(
    script: ScriptedRound, out: Path, *, until: float | None = None, size: tuple[int, int] = SIZE
) -> dict[str, Path]:
    """Writes ``out`` (an MP4) with its ``.frames.jsonl`` and ``.events.jsonl``; returns the three paths."""
    from vision.render.video_writer import Mp4Writer

    end = script.end if until is None else until
    cam = camera(size)
    stem = out.with_suffix("")
    paths = {
        "video": out,
        "frames": stem.with_name(f"{stem.name}.frames.jsonl"),
        "events": stem.with_name(f"{stem.name}.events.jsonl"),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    with paths["events"].open("w", encoding="utf-8") as handle:
        write_events([e for e in script.events if e.t <= end], handle)
    with (
        Mp4Writer(out, size, script.table.fps) as writer,
        paths["frames"].open("w", encoding="utf-8") as labels,
    ):
        for frame in script.table.frames(until=end - 1e-6):
            assert frame is not None  # no noise: every frame is readable
            cards = [_label(s, cam) for s in frame.sightings]
            writer.write(_draw(cards, size))
            labels.write(json.dumps({"frame": frame.frame, "t": round(frame.t, 4), "cards": cards}) + "\n")
    return paths


def _label(sighting: Sighting, cam: Camera) -> dict[str, object]:
    corners = cam.project(np.asarray(sighting.quad, np.float64))
    card = sighting.card
    return {
        "kind": sighting.kind,
        "colour": card.colour.value if card is not None else None,
        "number": card.number if card is not None else None,
        "back": sighting.back,
        "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
        "visible": 1.0,
    }


def _draw(cards: list[dict[str, object]], size: tuple[int, int]) -> np.ndarray:
    image = np.full((size[1], size[0], 3), BACKGROUND_BGR, np.uint8)
    for card in cards:
        quad = np.asarray(card["corners"], np.float32).round().astype(np.int32)
        if card["kind"] == "back":
            cv2.fillPoly(image, [quad], BACKS_BGR.get(str(card["back"]), (120, 40, 40)))
            continue
        colour = COLOURS_BGR[str(card["colour"])]
        grey = face_grey(int(card["number"]))  # type: ignore[call-overload]
        cv2.fillPoly(image, [quad], (grey, grey, grey))
        if card["kind"] == "face":
            inner = quad.mean(axis=0) + (quad - quad.mean(axis=0)) * 0.7
            cv2.fillPoly(image, [inner.round().astype(np.int32)], colour)
    return image

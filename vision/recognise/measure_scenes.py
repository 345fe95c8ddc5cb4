"""The recogniser on held-out rendered scenes (``ligretto synth images --split heldout``), from true quads.

Every card of every scene is cut out of the picture through its true corners, disturbed the way a detector's
quad is (a few pixels of noise, and a face's corners turned by 180 degrees half the time, since a detector
cannot know which end of a face is up), then recognised. Faces are scored against their colour and number;
catalogue backs against the default catalogue; backs of random designs (which training never drew: other
seeds) after enrolling the four most frequent of them from 3 of their own crops each.

    python -m vision.recognise.measure_scenes datasets/generated/heldout
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.backs import BackDesign, Catalogue
from referee.cards import COLOURS
from vision.recognise.backs import BackEmbedder, BackMatcher, descriptor
from vision.recognise.evaluate import face_label, identity_report
from vision.recognise.faces import FaceReader
from vision.recognise.models import BACKS_MODEL, FACES_MODEL
from vision.recognise.recogniser import crops_of

CORNER_NOISE = 0.03  # of the card width: a detector's quad is off by about this much


@dataclass(frozen=True)
class SceneCards:
    crops: np.ndarray
    kind: list[str]
    truth: list[str]  # face notation (r7) or back id
    visible: np.ndarray
    width: np.ndarray


def load_cards(root: Path, min_visible: float = 0.3, seed: int = 0, limit: int | None = None) -> SceneCards:
    """Crops of all cards showing at least ``min_visible`` in the scenes under ``root``."""
    rng = np.random.default_rng(seed)
    crops, kinds, truth, visible, widths = [], [], [], [], []
    for path in sorted((root / "scenes").rglob("*.json"))[:limit]:
        scene = json.loads(path.read_text())
        image = cv2.imread(str(root / scene["image"]))
        cards = [c for c in scene["cards"] if c["visible"] >= min_visible]
        if image is None or not cards:
            continue
        quads = np.array([c["corners"] for c in cards], np.float32)
        width = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)
        error = np.maximum(1.0, CORNER_NOISE * width)[:, None, None]
        quads += rng.normal(0, 1, quads.shape).astype(np.float32) * error
        turn = rng.random(len(cards)) < 0.5
        quads[turn] = np.roll(quads[turn], 2, axis=1)
        crops.append(crops_of(np.asarray(image, np.uint8), quads))
        for card, w in zip(cards, width, strict=True):
            kinds.append(card["kind"])
            if card["kind"] == "face":
                truth.append(f"{COLOURS[[c.value for c in COLOURS].index(card['colour'])].letter}{card['number']}")
            else:
                truth.append(card["back"] or card["owner"])
            visible.append(card["visible"])
            widths.append(w)
    return SceneCards(np.concatenate(crops), kinds, truth, np.array(visible), np.array(widths))


def measure(root: Path, reader: FaceReader, embedder: BackEmbedder, limit: int | None = None) -> dict[str, Any]:
    cards = load_cards(root, limit=limit)
    kind = np.array(cards.kind)
    result: dict[str, Any] = {"scenes_root": str(root), "cards": len(kind)}
    faces = np.flatnonzero(kind == "face")
    reading = reader.read(cards.crops[faces])
    predicted = [face_label(int(c), int(n)) for c, n in zip(reading.colour, reading.number, strict=True)]
    for name, keep in (("visible>=0.6", cards.visible[faces] >= 0.6), ("visible0.3-0.6", cards.visible[faces] < 0.6)):
        truth = [cards.truth[i] for i, k in zip(faces, keep, strict=True) if k]
        report = identity_report(truth, [p for p, k in zip(predicted, keep, strict=True) if k])
        result[f"faces {name}"] = {
            "count": report.count,
            "accuracy": round(report.accuracy, 5),
            "six_nine": round(report.six_nine_confusion(), 5),
            "worst": report.worst(4),
        }
    result["faces called backs"] = round(float((reading.face < 0.5).mean()), 5)
    backs = [int(i) for i in np.flatnonzero(kind == "back")]
    defaults = Catalogue.default()
    catalogue_backs = [i for i in backs if cards.truth[i] in defaults]
    result["catalogue backs"] = _backs(BackMatcher(defaults, embedder), cards, catalogue_backs, list(defaults.ids))
    counts = Counter(cards.truth[i] for i in backs if cards.truth[i] not in defaults)
    chosen = [name for name, n in counts.most_common(4) if n >= 6]
    enrolled = defaults
    tests: list[int] = []
    for name in chosen:
        own = [i for i in backs if cards.truth[i] == name]
        clear = sorted(own, key=lambda i: -cards.visible[i])[:3]
        vectors = embedder.embed(cards.crops[clear])
        enrolled = enrolled.with_design(BackDesign(id=name, appearance=tuple(descriptor(v) for v in vectors)))
        tests.extend(i for i in own if i not in clear)
    matcher = BackMatcher(enrolled, embedder)
    result["enrolled random backs"] = {"designs": chosen, **_backs(matcher, cards, tests, list(enrolled.ids))}
    result["catalogue backs after enrolment"] = _backs(matcher, cards, catalogue_backs, list(enrolled.ids))
    return result


def _backs(matcher: BackMatcher, cards: SceneCards, index: list[int], labels: list[str]) -> dict[str, Any]:
    if not index:
        return {"count": 0}
    match = matcher.match(cards.crops[index])
    out: dict[str, Any] = {}
    visible = cards.visible[index]
    for bucket, keep in (("visible>=0.6", visible >= 0.6), ("visible0.3-0.6", visible < 0.6)):
        truth = [cards.truth[i] for i, k in zip(index, keep, strict=True) if k]
        report = identity_report(truth, [b for b, k in zip(match.back, keep, strict=True) if k], labels)
        out[bucket] = {"count": report.count, "accuracy": round(report.accuracy, 5),
                       "unknown": round(report.unknown_rate, 5), "worst": report.worst(4)}  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", type=Path, help="dataset folder written by 'ligretto synth images'")
    parser.add_argument("--limit", type=int, help="at most this many scenes")
    parser.add_argument("--faces-model", type=Path, default=FACES_MODEL)
    parser.add_argument("--backs-model", type=Path, default=BACKS_MODEL)
    args = parser.parse_args()
    reader, embedder = FaceReader(args.faces_model), BackEmbedder(args.backs_model)
    print(json.dumps(measure(args.root, reader, embedder, args.limit), indent=1))


if __name__ == "__main__":
    main()

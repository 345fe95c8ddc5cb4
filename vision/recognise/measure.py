"""The recogniser's acceptance figures on held-out rendered crops: ``python -m vision.recognise.measure``.

Held out means other seeds than training everywhere: other face styles and back print variations, other
table patches, light, occluders and camera draws (``HELD_OUT_SEED``), and for enrolment four back designs
that training never drew (``UNSEEN_BACK_SEEDS``). Prints one JSON object; ``--png DIR`` also writes the
confusion matrices.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from referee.backs import DEFAULT_BACKS, BackDesign, Catalogue
from referee.cards import FULL_SET
from vision.recognise.augment import CameraSettings
from vision.recognise.backs import BackEmbedder, BackMatcher, descriptor
from vision.recognise.data import (
    HELD_OUT_SEED,
    RENDER_HEIGHT,
    UNSEEN_BACK_SEEDS,
    Crops,
    back_looks,
    back_renders,
    card_label,
    default_back_looks,
    face_renders,
    photograph,
)
from vision.recognise.evaluate import face_label, identity_report
from vision.recognise.faces import FaceReader
from vision.recognise.models import BACKS_MODEL, FACES_MODEL
from vision.recognise.recogniser import crops_of

ENROL_PHOTO = CameraSettings(min_width=70, max_width=200, occlusion_p=0.0, corner_error=0.015, glare_p=0.2)
CARD_NAMES = [str(card) for card in FULL_SET]


def held_out_faces(count: int, seed: int = HELD_OUT_SEED) -> Crops:
    faces = face_renders(seed, 6)
    backs = back_renders(back_looks(range(seed * 1000, seed * 1000 + 8)), 1, seed)
    occluders = [art for _, art in faces[::2]] + [art for _, art in backs]
    return photograph(faces, count, np.random.default_rng([seed, 3]), occluders)


SMALL_FACE_STYLES = 24
SMALL_FACES = CameraSettings(min_width=30, max_width=60, occlusion_p=0.2, blur_p=0.5, detector_p=0.5, beneath_p=0.5)
"""How a referee's camera sees most faces: 30-60 px wide, often blurred, cut out through a detector's rough box,
lying on the card one lower (a stack)."""


WRONG_ON_A_STACK = replace(SMALL_FACES, beneath_p=1.0, beneath_other_p=1.0)
"""As :data:`SMALL_FACES`, every face lying on another face of the print: a wrong card slapped on a stack."""


def held_out_small_faces(count: int, seed: int = HELD_OUT_SEED + 1, camera: CameraSettings = SMALL_FACES) -> Crops:
    """Faces as a referee's camera sees them (:data:`SMALL_FACES`) in :data:`SMALL_FACE_STYLES` print styles
    neither training nor :func:`held_out_faces` draws: the six styles there say little about print styles."""
    faces = face_renders(seed, SMALL_FACE_STYLES)
    occluders = [art for _, art in faces[::7]]
    return photograph(faces, count, np.random.default_rng([seed, 3]), occluders, camera)


ROUND_STYLES = 12
"""The print styles the round videos draw from (``vision.render.video_look``: styles 0-11 of ``PrintedArt``)."""


def round_video_faces(per_style: int, seed: int = HELD_OUT_SEED + 2) -> Crops:
    """Faces as :func:`held_out_small_faces` sees them, in each print style of the referee's rendered rounds
    (``per_style`` crops each): what the recogniser misreads there the referee must vote away."""
    from vision.render.art import printed_style
    from vision.render.card_art import render_face

    parts = []
    for style in range(ROUND_STYLES):
        rng, printed = np.random.default_rng([seed, style]), printed_style(style)
        faces = [(card_label(card), render_face(card, RENDER_HEIGHT, rng, style=printed)) for card in FULL_SET]
        parts.append(photograph(faces, per_style, np.random.default_rng([seed, style, 3]), (), SMALL_FACES))
    return Crops.join(parts)


def measure_faces(reader: FaceReader, crops: Crops, png: Path | None = None) -> dict[str, Any]:
    reading = reader.read(crops.images)
    truth = [CARD_NAMES[int(label)] for label in crops.label]
    predicted = [face_label(int(c), int(n)) for c, n in zip(reading.colour, reading.number, strict=True)]
    result: dict[str, Any] = {}
    for name, keep in _buckets(crops).items():
        report = identity_report([t for t, k in zip(truth, keep, strict=True) if k],
                                 [p for p, k in zip(predicted, keep, strict=True) if k], CARD_NAMES)  # fmt: skip
        result[name] = {"count": report.count, "accuracy": round(report.accuracy, 5),
                        "six_nine": round(report.six_nine_confusion(), 5), "worst": report.worst(4)}  # fmt: skip
        if name == "visible>=0.6" and png is not None:
            report.save_png(png / "confusion-faces.png")
    result["face_head_says_face"] = round(float((reading.face > 0.5).mean()), 5)
    return result


def _buckets(crops: Crops) -> dict[str, np.ndarray]:
    width = crops.width if crops.width is not None else np.full(len(crops.label), 100.0)
    seen = crops.visible >= 0.6
    return {
        "visible>=0.6": seen,
        "visible<0.6": ~seen,
        "visible>=0.6,width>=40": seen & (width >= 40),
        "visible>=0.6,width<40": seen & (width < 40),
        "visible>=0.6,width40-80": seen & (width >= 40) & (width < 80),
        "visible>=0.6,width>=80": seen & (width >= 80),
    }


FANNED_PHOTO = CameraSettings(fanned_p=1.0, detector_p=0.6, occlusion_p=0.0)
"""Held-out back crops lying in a fan of their own back (see :func:`vision.recognise.augment.camera_crop`)."""
FANNED_MIXED_PHOTO = replace(FANNED_PHOTO, fan_mixed_p=0.5)
"""... and in a fan of mixed backs (each other card of the fan another back or a face half the time)."""


def measure_backs(
    embedder: BackEmbedder, count: int, seed: int = HELD_OUT_SEED, png: Path | None = None
) -> dict[str, Any]:
    """The 12 defaults matched against the default catalogue; then 4 unseen designs enrolled from 3 crops."""
    rng = np.random.default_rng([seed, 4])
    defaults = back_renders(default_back_looks(), 4, seed)
    catalogue = Catalogue.default()
    test = photograph(defaults, count, rng, _back_occluders(seed))
    default_ids = [d.id for d in DEFAULT_BACKS]
    plain = BackMatcher(catalogue, embedder)
    result = {"defaults": _back_accuracy(plain, test, default_ids, png)}

    unseen = back_renders(back_looks(UNSEEN_BACK_SEEDS), 4, seed)
    enrol_crops = photograph(unseen, 60, rng, settings=ENROL_PHOTO)
    enrolled = catalogue
    names = [f"unseen-{i}" for i in range(len(UNSEEN_BACK_SEEDS))]
    for i, name in enumerate(names):
        photos = enrol_crops.images[enrol_crops.label == i][:3]
        enrolled = enrolled.with_design(
            BackDesign(id=name, appearance=tuple(descriptor(v) for v in embedder.embed(photos)))
        )
    unseen_test = photograph(unseen, count, rng, _back_occluders(seed))
    matcher = BackMatcher(enrolled, embedder)
    result["enrolled_unseen"] = _back_accuracy(matcher, unseen_test, names, None)
    result["defaults_after_enrolment"] = _back_accuracy(matcher, test, default_ids, None)
    # last, so the draws above stay those of earlier measurements: the defaults in fans of their own back, as the
    # count's spreads lie (a strip of each card shows), cut out through detector-like boxes as in a replay
    fanned = photograph(defaults, count, rng, _back_occluders(seed), FANNED_PHOTO)
    result["defaults_fanned"] = _back_accuracy(plain, fanned, default_ids, None)
    # and in fans of every player's backs, as a stack fanned where it lay (half the other cards another back)
    covers = _back_occluders(seed) + [art for _, art in defaults]
    mixed = photograph(defaults, count, rng, covers, FANNED_MIXED_PHOTO)
    result["defaults_fanned_mixed"] = _back_accuracy(plain, mixed, default_ids, None)
    return result


def _back_occluders(seed: int) -> list[np.ndarray]:
    faces = face_renders(seed + 1, 1)
    return [art for _, art in faces]


def _back_accuracy(matcher: BackMatcher, crops: Crops, names: list[str], png: Path | None) -> dict[str, Any]:
    match = matcher.match(crops.images)
    truth = [names[int(label)] for label in crops.label]
    labels = list(matcher.design_ids)
    out: dict[str, Any] = {}
    for bucket, keep in (("visible>=0.6", crops.visible >= 0.6), ("all", np.ones(len(truth), bool))):
        report = identity_report([t for t, k in zip(truth, keep, strict=True) if k],
                                 [p for p, k in zip(match.back, keep, strict=True) if k], labels)  # fmt: skip
        out[bucket] = {"count": report.count, "accuracy": round(report.accuracy, 5),
                       "unknown": round(report.unknown_rate, 5), "worst": report.worst(4)}  # fmt: skip
        if png is not None and bucket == "visible>=0.6":
            report.save_png(png / "confusion-backs.png")
    return out


def measure_speed(reader: FaceReader, embedder: BackEmbedder, cards: int = 40, repeats: int = 50) -> dict[str, float]:
    """Median ms to rectify and read ``cards`` cards of a 1280x720 frame (all faces; all backs)."""
    rng = np.random.default_rng(0)
    frame = rng.integers(0, 255, (720, 1280, 3), np.uint8)
    corners = np.array([[[x, y], [x + 60, y], [x + 60, y + 92], [x, y + 92]] for x, y in
                        rng.uniform(0, 600, (cards, 2))], np.float32)  # fmt: skip
    timings: dict[str, list[float]] = {"rectify": [], "faces": [], "backs": []}
    for _ in range(repeats):
        started = time.perf_counter()
        crops = crops_of(frame, corners)
        timings["rectify"].append(time.perf_counter() - started)
        started = time.perf_counter()
        reader.read(crops)
        timings["faces"].append(time.perf_counter() - started)
        started = time.perf_counter()
        embedder.embed(crops)
        timings["backs"].append(time.perf_counter() - started)
    return {f"{name}_ms_per_{cards}": round(1000 * float(np.median(t)), 2) for name, t in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--faces", type=int, default=6000, help="held-out face crops (default: 6000)")
    parser.add_argument(
        "--small-faces", type=int, default=0, help="held-out faces 30-60 px wide in 24 other print styles (default: 0)"
    )
    parser.add_argument(
        "--wrong-on-stack", type=int, default=0, help="as --small-faces, each face lying on another (default: 0)"
    )
    parser.add_argument(
        "--round-faces", type=int, default=0, help="faces per print style of the rendered rounds (default: 0)"
    )
    parser.add_argument("--backs", type=int, default=3000, help="held-out back crops per test (default: 3000)")
    parser.add_argument("--faces-model", type=Path, default=FACES_MODEL)
    parser.add_argument("--backs-model", type=Path, default=BACKS_MODEL)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--png", type=Path, help="folder for the confusion-matrix pictures")
    args = parser.parse_args()
    if args.png:
        args.png.mkdir(parents=True, exist_ok=True)
    reader = FaceReader(args.faces_model, args.threads)
    embedder = BackEmbedder(args.backs_model, args.threads)
    result: dict[str, Any] = {}
    if args.faces:
        result["faces"] = measure_faces(reader, held_out_faces(args.faces), args.png)
    if args.small_faces:
        result["small_faces"] = measure_faces(reader, held_out_small_faces(args.small_faces))
    if args.wrong_on_stack:
        crops = held_out_small_faces(args.wrong_on_stack, camera=WRONG_ON_A_STACK)
        result["wrong_on_stack"] = measure_faces(reader, crops)
    if args.round_faces:
        result["round_faces"] = measure_faces(reader, round_video_faces(args.round_faces))
    if args.backs:
        result["backs"] = measure_backs(embedder, args.backs, png=args.png)
    result["speed"] = measure_speed(reader, embedder)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()

"""``ligretto detect``: the cards in still images, as JSON Lines (the contract in DESIGN.md) or a summary."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from referee.cli.detection_passes import add_pass_options, operating_conf, thorough_plan
from referee.errors import InputFileError, LigrettoError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "detect",
        help="find and identify the cards in images",
        description=(
            "Find every card in each image (faces and backs, as quadrilaterals) and identify it: a face's "
            "colour and number, a back's design from the catalogue. With --json, one JSON object per image "
            "per line: {image, width, height, cards: [{kind, colour, number, back, corners, confidence}]}; "
            "corners are image pixels, the card's own top-left first, clockwise. A still can afford several "
            "detector passes: by default each image is read thoroughly (the whole image, then zoomed-in "
            "windows, the boxes fused); --fast reads it in one pass, as a live camera does."
        ),
        epilog=(
            "Examples:\n"
            "  ligretto detect table.jpg\n"
            "  ligretto detect shots/*.png --json --catalogue my-backs.json > cards.jsonl\n"
            "  ligretto detect table.jpg --fast          # one detector pass"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE", help="image files (jpg, png, ...)")
    parser.add_argument("--json", action="store_true", help="one JSON object per image per line")
    parser.add_argument("--catalogue", type=Path, help="back catalogue file (default: the 12 default backs)")
    parser.add_argument(
        "--conf", type=float, help="minimum detection confidence (default: 0.4 in one pass, 0.35 thorough)"
    )
    parser.add_argument(
        "--backend", choices=("onnx", "ultralytics"), default="onnx", help="inference runtime (default: onnx)"
    )
    parser.add_argument("--model", type=Path, help="detector model (default: models/detector.onnx)")
    add_pass_options(parser, thorough_by_default=True)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    reader = _load_reader(args)
    if reader.warning:
        print(f"ligretto: warning: {reader.warning}", file=sys.stderr)
    failed = 0
    for path in args.images:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            failed += 1
            print(f"ligretto: error: {InputFileError(_unreadable(path))}", file=sys.stderr)
            continue
        reading = reader(image)
        cards = reading.detections.cards_json()
        if args.json:
            record = {"image": str(path), "width": image.shape[1], "height": image.shape[0], "cards": cards}
            print(json.dumps(record), flush=True)
        else:
            print(_summary(path, cards, reading.total_ms), flush=True)
    if failed:
        raise InputFileError(f"{failed} of {len(args.images)} images could not be read")
    return 0


def _load_reader(args: argparse.Namespace) -> Any:
    from referee.backs import Catalogue
    from vision.detect.pipeline import CardReader

    catalogue = Catalogue.load(args.catalogue) if args.catalogue else None
    try:
        plan = thorough_plan(args)
        return CardReader.load(args.backend, args.model, operating_conf(args, plan), catalogue, thorough=plan)
    except FileNotFoundError as exc:
        raise LigrettoError(str(exc)) from exc


def _unreadable(path: Path) -> str:
    if not path.exists():
        return f"cannot read image {path}: no such file"
    return f"cannot read image {path}: not an image format OpenCV can decode"


def _summary(path: Path, cards: list[dict[str, Any]], ms: float) -> str:
    """One line per image, then one per card: ``face red 7`` or ``back classic-red``."""
    kinds = Counter(card["kind"] for card in cards)
    lines = [f"{path}: {len(cards)} cards ({kinds['face']} faces, {kinds['back']} backs) in {ms:.0f} ms"]
    for card in cards:
        name = _card_name(card)
        x, y = (sum(c[i] for c in card["corners"]) / 4 for i in (0, 1))
        lines.append(f"  {card['kind']:4} {name:16} at ({x:.0f}, {y:.0f})  conf {card['confidence']:.2f}")
    return "\n".join(lines)


def _card_name(card: dict[str, Any]) -> str:
    if card["kind"] == "face":
        return f"{card['colour'] or '?'} {card['number'] or '?'}"
    return str(card["back"] or "?")

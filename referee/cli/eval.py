"""``ligretto eval``: detector and recogniser figures on rendered scenes with ground truth."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.cli.detection_passes import add_pass_options, operating_conf, thorough_plan
from referee.errors import InputFileError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="measure detection and recognition on a labelled directory of rendered scenes",
        description=(
            "Run the detector and recogniser on every image of a directory written by 'ligretto synth images' "
            "and compare with its labels (rotated IoU >= 0.5, same kind): mAP50-95, precision, recall by "
            "visible share (>=50%%, 25-50%%, <25%%) and by card width, face and back identity accuracy, the "
            "6/9 confusion rate and the time per stage. Writes per_image.csv and confusion.png into --out."
        ),
        epilog=(
            "Examples:\n"
            "  ligretto eval --data datasets/generated/heldout --out out/eval --limit 200\n"
            "  ligretto eval --data datasets/generated/heldout --limit 100 --no-recognise --zooms 1,2"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--data", type=Path, required=True, help="directory with images and JSON labels")
    parser.add_argument("--out", type=Path, default=Path("out/eval"), help="report directory (default: out/eval)")
    parser.add_argument("--limit", type=int, help="evaluate only the first N images (in name order)")
    parser.add_argument("--conf", type=float, help="operating confidence (default: 0.4 in one pass, 0.35 thorough)")
    parser.add_argument("--model", type=Path, help="detector model (default: models/detector.onnx)")
    parser.add_argument(
        "--backend", choices=("onnx", "ultralytics"), default="onnx", help="inference runtime (default: onnx)"
    )
    parser.add_argument("--catalogue", type=Path, help="back catalogue file (default: the 12 default backs)")
    parser.add_argument("--no-recognise", action="store_true", help="measure detection only")
    add_pass_options(parser, thorough_by_default=False)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from referee.backs import Catalogue
    from vision.detect.pipeline import CardReader
    from vision.evaluate import evaluate, table
    from vision.evaluate.run import CURVE_CONF

    plan = thorough_plan(args)
    if not args.data.is_dir():
        raise InputFileError(f"no directory {args.data}")
    catalogue = Catalogue.load(args.catalogue) if args.catalogue else None
    try:
        reader = CardReader.load(
            args.backend, args.model, CURVE_CONF, catalogue, recognise=not args.no_recognise, thorough=plan
        )
        if reader.warning:
            print(f"ligretto: warning: {reader.warning}", file=sys.stderr)
        conf = operating_conf(args, plan)
        summary = evaluate(args.data, args.out, args.limit, conf, reader, _progress)
    except FileNotFoundError as exc:
        raise InputFileError(str(exc)) from exc
    print(f"\r{' ' * 40}\r", end="", file=sys.stderr)
    passes = f"zooms {','.join(f'{z:g}' for z in plan.zooms)}{' + flips' if plan.flip else ''}" if plan else "one pass"
    print(f"data: {args.data}  conf: {conf}  backend: {args.backend}  detection: {passes}")
    print(table(summary))
    print(f"per-image CSV: {args.out / 'per_image.csv'}  confusion matrix: {args.out / 'confusion.png'}")
    return 0


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\revaluating {done}/{total}", end="", file=sys.stderr, flush=True)

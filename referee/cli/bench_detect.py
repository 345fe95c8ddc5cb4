"""``ligretto bench detect``: ms per frame and fps for detect + recognise, against ultralytics ``predict``."""

from __future__ import annotations

import argparse
from pathlib import Path

from referee.errors import InputFileError, SetupError

EPILOG = """\
example:
  ligretto bench detect --frames 30

renders N 1280x720 heldout table scenes with 30..60 findable cards (the same seeds every run), then prints
ms per frame (median, p90) and fps for detection (onnxruntime), recognition and both together, and the
same frames through ultralytics predict (models/detector.pt if present, else the ONNX file through
ultralytics) with the speed ratio."""


def register(targets: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = targets.add_parser(
        "detect",
        help="ms per 1280x720 frame for detect + recognise, and the ratio to ultralytics predict",
        description="Times the card detector and recogniser on rendered 1280x720 table frames with ~40 cards.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--frames", type=int, default=30, help="frames to time (default: 30)")
    parser.add_argument("--model", type=Path, help="detector ONNX model (default: models/detector.onnx)")
    parser.add_argument(
        "--baseline", type=Path, help="model for ultralytics predict (default: models/detector.pt, else the ONNX)"
    )
    parser.add_argument(
        "--data", type=Path, help="take the most crowded frames of a synth images folder instead of rendering"
    )
    parser.add_argument("--min-cards", type=int, default=25, help="with --data: findable cards per frame (25)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the ultralytics comparison")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.detect import DEFAULT_MODEL
    from vision.detect.bench import bench, frames_from, table_frames
    from vision.detect.pipeline import CardReader

    if args.frames < 1:
        raise SetupError(f"--frames must be at least 1, not {args.frames}")
    model = args.model or DEFAULT_MODEL
    try:
        reader = CardReader.load("onnx", model, conf=0.4)
    except FileNotFoundError as exc:
        raise InputFileError(str(exc)) from exc
    if reader.warning:
        print(f"warning: {reader.warning}")
    baseline = None
    if not args.no_baseline:
        pt = Path(model).with_suffix(".pt")
        baseline = args.baseline or (pt if pt.is_file() else Path(model))
    frames = frames_from(args.data, args.frames, args.min_cards) if args.data else table_frames(args.frames)
    if not frames.images:
        raise SetupError("no frame had enough findable cards: try --data DIR with a lower --min-cards")
    result = bench(frames, reader, baseline)
    cards = sum(frames.cards) / len(frames.cards)
    print(
        f"{len(frames.images)} frames {frames.images[0].shape[1]}x{frames.images[0].shape[0]} "
        f"(heldout seeds {min(frames.seeds)}..{max(frames.seeds)}), "
        f"{cards:.1f} findable cards per frame, {result.cards_found:.1f} found"
    )
    print(f"detect (onnxruntime)    {result.detect}")
    print(f"recognise               {result.recognise}")
    print(f"detect + recognise      {result.total}")
    if result.baseline is not None:
        print(f"ultralytics predict     {result.baseline}   ({result.baseline_name})")
        ratio = result.baseline.median / result.detect.median
        print(f"onnx detect is {ratio:.2f}x the speed of ultralytics predict (median ms ratio)")
    return 0

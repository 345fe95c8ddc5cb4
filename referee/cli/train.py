"""``ligretto train``: trains the project's models from rendered data, offline, on the CPU.

``ligretto train detector`` trains the card detector (YOLO OBB from scratch) and exports it to ONNX.
Other models add their own sub-command here.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from referee.errors import InputFileError, LigrettoError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train a model (detector, recogniser) on rendered data, offline",
        description="Train one of the project's models from scratch on rendered data. Nothing is downloaded.",
        epilog="Example: ligretto train detector --data datasets/generated/train/dataset.yaml --epochs 40",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(func=lambda args: _print_help(parser))
    models = parser.add_subparsers(title="models", metavar="MODEL")
    _register_detector(models)
    _register_recogniser(models)


def _print_help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


MODEL_YAML = Path(__file__).resolve().parents[2] / "vision" / "detect" / "models" / "yolo26p-obb.yaml"


def _register_detector(models: argparse._SubParsersAction) -> None:
    parser = models.add_parser(
        "detector",
        help="train the card detector (YOLO oriented boxes, faces and backs) and export it to ONNX",
        description=(
            "Train the card detector from scratch (a model yaml, never pretrained weights) on an ultralytics "
            "OBB dataset written by 'ligretto synth images', then export the best checkpoint to ONNX. "
            "Checkpoints go to runs/detector/NAME/weights/; --resume continues from last.pt."
        ),
        epilog=(
            "Examples:\n"
            "  ligretto train detector --data datasets/generated/train/dataset.yaml --epochs 30\n"
            "  ligretto train detector --data d.yaml --hours 1.2      # fit the schedule into a time budget\n"
            "  ligretto train detector --resume                        # after an interruption"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--data", type=Path, help="dataset yaml (ultralytics OBB format, classes face, back)")
    parser.add_argument("--epochs", type=int, default=30, help="training epochs (default: 30)")
    parser.add_argument("--hours", type=float, help="time budget in hours; the epochs are fitted to it")
    parser.add_argument("--imgsz", type=int, default=320, help="training image size (default: 320)")
    parser.add_argument("--batch", type=int, default=16, help="batch size (default: 16)")
    parser.add_argument("--lr", type=float, default=0.002, help="initial learning rate of AdamW (default: 0.002)")
    parser.add_argument(
        "--model", default=str(MODEL_YAML), help="model yaml (default: the shipped yolo26p-obb.yaml, a half-width n)"
    )
    parser.add_argument("--name", default="train", help="run name under runs/detector/ (default: train)")
    parser.add_argument("--no-cache", action="store_true", help="do not cache decoded images in RAM")
    parser.add_argument("--threads", type=int, help="torch threads (default: one per core)")
    parser.add_argument("--export-width", type=int, default=640, help="ONNX input width for 16:9 frames (default: 640)")
    parser.add_argument(
        "--tile", type=int, default=320, help="train on TILE px crops of each scene at its scale (default: 320; 0: off)"
    )
    parser.add_argument("--close-mosaic", type=int, default=2, help="final epochs without mosaic (default: 2)")
    parser.add_argument("--workers", type=int, default=2, help="data loading processes (default: 2)")
    parser.add_argument("--device", default="cpu", help="cpu, or a CUDA device index such as 0 (default: cpu)")
    parser.add_argument("--resume", action="store_true", help="resume the run NAME from its last checkpoint")
    parser.add_argument(
        "--out", type=Path, default=Path("models/detector.onnx"), help="ONNX file (default: models/detector.onnx)"
    )
    parser.set_defaults(func=_train_detector)


def _train_detector(args: argparse.Namespace) -> int:
    from vision.detect.train import TrainSettings, train_detector

    if args.data is None and not args.resume:
        raise LigrettoError("train detector needs --data DATASET.yaml (or --resume)")
    data = args.data
    if args.tile and not args.resume:
        from vision.detect.train import tiled_dataset

        data = tiled_dataset(args.data, args.tile)
    settings = TrainSettings(
        data=data or Path(),
        model=args.model,
        epochs=args.epochs,
        hours=args.hours,
        imgsz=args.imgsz,
        batch=args.batch,
        lr0=args.lr,
        run_name=args.name,
        cache=not args.no_cache,
        threads=args.threads,
        export_width=args.export_width,
        close_mosaic=args.close_mosaic,
        workers=args.workers,
        device=args.device,
        out=args.out,
    )
    try:
        result = train_detector(settings, resume=args.resume)
    except FileNotFoundError as exc:
        raise InputFileError(str(exc)) from exc
    print(f"checkpoint: {result.checkpoint}")
    print(f"onnx:       {result.onnx}")
    return 0


def _register_recogniser(models: argparse._SubParsersAction) -> None:
    parser = models.add_parser(
        "recogniser",
        help="train the face reader (colour, number) and the back embedding, and export them to ONNX",
        description=(
            "Train the recogniser's two small CNNs on crops of rendered cards photographed by a simulated camera "
            "(perspective, imprecise corners, 180-degree turns, occlusion, glare, blur, noise, JPEG). Crops are "
            "cached in .cache/recogniser/ and the networks checkpointed every epoch: rerunning the same command "
            "resumes. Writes OUT/recogniser-faces.onnx and OUT/recogniser-backs.onnx."
        ),
        epilog=(
            "Examples:\n"
            "  ligretto train recogniser                       # both parts, the shipped settings\n"
            "  ligretto train recogniser --part faces --epochs 4 --samples 8000\n"
            "  ligretto train recogniser --tiny --out /tmp/m   # seconds: checks the training path end to end"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--part", choices=("faces", "backs", "both"), default="both", help="what to train")
    parser.add_argument("--epochs", type=int, help="epochs (default: 12)")
    parser.add_argument("--samples", type=int, help="training crops per part (default: 48000)")
    parser.add_argument("--designs", type=int, help="random back designs learned besides the 12 defaults (400)")
    parser.add_argument("--seed", type=int, help="data seed (default: 1)")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for torch (default: 2)")
    parser.add_argument("--tiny", action="store_true", help="one epoch on 64 crops: a smoke test of the path")
    parser.add_argument("--out", type=Path, default=Path("models"), help="output folder (default: models)")
    parser.add_argument("--cache", type=Path, default=Path(".cache/recogniser"), help="crop and checkpoint cache")
    parser.set_defaults(func=_train_recogniser)


def _train_recogniser(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from vision.recognise.train import TrainConfig, tiny, train

    for part in ("faces", "backs") if args.part == "both" else (args.part,):
        config = replace(TrainConfig.for_part(part), threads=args.threads)
        overrides = {"epochs": args.epochs, "samples": args.samples, "designs": args.designs, "seed": args.seed}
        config = replace(config, **{k: v for k, v in overrides.items() if v is not None})
        if args.tiny:
            config = tiny(config)
        if config.epochs < 1 or config.samples < 1:
            raise LigrettoError("--epochs and --samples must be at least 1")
        train(config, args.out, cache=args.cache, log=lambda line: print(line, flush=True))
    return 0

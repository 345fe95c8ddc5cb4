"""``ligretto synth``: synthetic training and test data with exact ground truth, by seed.

``ligretto synth images`` renders random table scenes into an ultralytics OBB dataset with per-image JSON
labels and rectified card crops. Further kinds of data (``video``) are subcommands of their own: each is
registered by a function in ``SYNTH_COMMANDS``.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from pathlib import Path

from referee.cli.synth_video import register_video
from referee.errors import SetupError

DEFAULT_IMAGES_OUT = Path("datasets/generated/ligretto-obb")


def parse_size(text: str) -> tuple[int, int]:
    """``640`` (square) or ``1280x720`` -> (width, height), each 64..4096 pixels.

    >>> parse_size("640"), parse_size("1280x720")
    ((640, 640), (1280, 720))
    """
    match = re.fullmatch(r"\s*(\d+)\s*(?:[x,]\s*(\d+))?\s*", text)
    if match is None:
        raise SetupError(f"size {text!r} must be a number (640) or WIDTHxHEIGHT (1280x720)")
    width = int(match.group(1))
    height = int(match.group(2) or width)
    if not (64 <= width <= 4096 and 64 <= height <= 4096):
        raise SetupError(f"size {text!r} must be 64..4096 pixels a side")
    return width, height


def _images(args: argparse.Namespace) -> int:
    size = parse_size(args.size)
    if args.bench:
        from vision.render.bench import bench_images

        print(json.dumps(bench_images(args.n, size[0], args.workers), indent=1))
        return 0
    if args.n < 1:
        raise SetupError(f"--n must be at least 1, not {args.n}")
    if args.workers < 1:
        raise SetupError(f"--workers must be at least 1, not {args.workers}")
    if not 0.0 <= args.min_visible <= 1.0:
        raise SetupError(f"--min-visible must be 0..1, not {args.min_visible}")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SetupError(f"cannot create output folder {out}: {exc.strerror or exc}") from None
    from vision.render.dataset import build_dataset

    summary = build_dataset(out, args.n, args.seed, args.split, size, args.workers, args.min_visible, not args.quiet)
    print(
        f"wrote {summary.images} images, {summary.boxes} boxes, {summary.crops} crops to {out}"
        f" (dataset config: {out / 'dataset.yaml'})"
    )
    return 0


def _register_images(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "images",
        help="render random table scenes into an OBB dataset with labels and card crops",
        description=(
            "Render random table scenes (surfaces, light, camera, layouts, occluders) with exact ground truth: "
            "an ultralytics OBB dataset (images/, labels/), per-image JSON labels (scenes/) and rectified card "
            "crops with a CSV (crops/). Image i gets the seed SEED+i: the same seed always gives the same image."
        ),
        epilog=(
            "examples:\n"
            "  ligretto synth images --n 2000 --seed 0 --out datasets/generated/ligretto-obb\n"
            "  ligretto synth images --n 300 --seed 0 --split heldout --out datasets/generated/ligretto-obb\n"
            "  ligretto synth images --bench --n 200 --workers 2"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--n", type=int, default=100, help="number of images (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first image (default 0)")
    parser.add_argument("--out", default=str(DEFAULT_IMAGES_OUT), help=f"dataset folder (default {DEFAULT_IMAGES_OUT})")
    parser.add_argument("--size", default="640", help="output size: 640 or WIDTHxHEIGHT (default 640)")
    parser.add_argument(
        "--split",
        choices=("train", "val", "heldout"),
        default="train",
        help="train; val (same presets, other seeds); heldout (surfaces, lights, print styles training never sees)",
    )
    parser.add_argument("--workers", type=int, default=2, help="processes rendering in parallel (default 2)")
    parser.add_argument(
        "--min-visible", type=float, default=0.15, help="leave out of the OBB labels cards showing less (default 0.15)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--bench", action="store_true", help="measure images per second instead of writing data")
    parser.set_defaults(func=_images)


def _samples(args: argparse.Namespace) -> int:
    size = parse_size(args.size)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SetupError(f"cannot create output folder {out}: {exc.strerror or exc}") from None
    from vision.render.samples import write_contact_sheet, write_stills

    stills = write_stills(out / "stills", range(args.seed, args.seed + args.stills), size)
    sheet = out / "contact_sheet.png"
    nbytes = write_contact_sheet(sheet, range(args.seed, args.seed + 12), range(args.seed, args.seed + 4))
    print(f"wrote {len(stills)} stills with labels to {out / 'stills'} and {sheet} ({nbytes / 1e6:.2f} MB)")
    return 0


def _register_samples(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "samples",
        help="write still scenes with labels and a contact sheet of 16 scenes (the committed samples)",
        description=(
            "Write still scenes (JPEG + JSON labels) into OUT/stills and a contact sheet of 16 random scenes "
            "(12 training, 4 held-out) into OUT/contact_sheet.png, kept under 2 MB."
        ),
        epilog="example:\n  ligretto synth samples --out datasets/samples --seed 0",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--out", default="datasets/samples", help="folder (default datasets/samples)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--stills", type=int, default=10, help="number of stills (default 10)")
    parser.add_argument("--size", default="1280x720", help="still size (default 1280x720)")
    parser.set_defaults(func=_samples)


SYNTH_COMMANDS: tuple[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None], ...] = (
    _register_images,
    _register_samples,
    register_video,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "synth",
        help="render synthetic data with exact ground truth: still scenes, samples, round videos",
        description="Render synthetic data with exact ground truth, deterministic by seed.",
        epilog="example:\n  ligretto synth images --n 100 --seed 0 --out datasets/generated/ligretto-obb",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(title="kinds", metavar="KIND")
    for add in SYNTH_COMMANDS:
        add(sub)

    def _help(_args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    parser.set_defaults(func=_help)

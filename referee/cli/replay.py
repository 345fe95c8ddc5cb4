"""``ligretto replay``: a recorded round in, its account out (events, summary, annotated video, report)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.cli.players import HELP as PLAYERS_HELP
from referee.session import ExitCode

EXIT_CODES = """exit codes:
  0  the round was refereed and scored
  2  bad input: a file that cannot be read (video, calibration, catalogue), a bad option
  3  the video breaks off part-way (truncated or corrupt): what was decided up to there is written out
  4  no table found: not a single card in the video (outputs written, with no events)
  5  no round end: the video ends during play or before the spreads are counted; events so far and the
     stacks are written out, with no scores (use --stop-at SECONDS to stop the round at a time)"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="referee a recorded round: events, summary, annotated video and report",
        description="Replays a video of a Ligretto round through the whole pipeline (detector, recogniser,\n"
        "table plane, stack tracker, judge, end-of-round count) as fast as the machine allows, and writes\n"
        "into --out: events.jsonl (every ruling, JSON Lines), summary.json (final stacks, counts, scores,\n"
        "warnings), annotated.mp4 (H.264: stacks outlined with id and top card, illegal plays in red with the\n"
        "reason, scores at the end) and report.html (one self-contained page).\n\n"
        "The table plane is found from the cards themselves (each is 59 x 91 mm); --calibration gives it\n"
        'by hand instead: a JSON file {"image_points": [[x, y] x4], "table_points": [[x_mm, y_mm] x4]}.',
        epilog="examples:\n"
        "  ligretto replay datasets/samples/round.mp4 --out out/sample\n"
        "  ligretto replay game.mp4 --out out/game --stop-at 95.5 --calibration table.json\n"
        "  ligretto replay datasets/samples/round.mp4 --out out/oracle --oracle --no-video\n"
        "  ligretto replay datasets/samples/round.mp4 --out out/all --no-video --every-frame\n"
        "  ligretto replay datasets/samples/round.mp4 --out out/told --players blue-purple,green-green,red-red\n\n"
        + EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("video", metavar="VIDEO", type=Path, help="the recorded round (MP4 or any FFmpeg video)")
    parser.add_argument("--out", type=Path, required=True, help="folder for the outputs (created if needed)")
    parser.add_argument("--stop-at", type=float, metavar="SECONDS", help="the round stops at this video time")
    parser.add_argument("--catalogue", type=Path, help="back catalogue (JSON) with enrolled backs")
    parser.add_argument("--players", metavar="BACKS", help=PLAYERS_HELP)
    parser.add_argument("--calibration", type=Path, help="manual table calibration (4 points, JSON)")
    parser.add_argument("--no-video", action="store_true", help="do not write annotated.mp4 (faster)")
    parser.add_argument("--no-report", action="store_true", help="do not write report.html")
    parser.add_argument(
        "--stride", type=int, default=1, metavar="K", help="read every K-th frame (others only annotated); default 1"
    )
    parser.add_argument(
        "--every-frame",
        action="store_true",
        help="run the detector on every frame; by default a frame whose centre has not changed since the last\n"
        "reading reuses it (3 frames in a row at most): the detector reads about half the frames of a round,\n"
        "with the same plays found (measure both with: ligretto bench replay)",
    )
    parser.add_argument(
        "--skip-still",
        action="store_true",
        help="reuse the last reading on still frames in the oracle modes too (the detector does by default)",
    )
    parser.add_argument("--model", type=Path, help="detector model (default models/detector.onnx)")
    parser.add_argument(
        "--oracle",
        action="store_true",
        help="ORACLE MODE: read the cards from the video's ground truth (VIDEO.frames.jsonl, written by\n"
        "ligretto synth video) instead of the detector: measures the tracker and judge alone",
    )
    parser.add_argument(
        "--oracle-boxes",
        action="store_true",
        help="ORACLE BOXES: the ground truth's card outlines, read by the real recogniser (perfect detection)",
    )
    parser.add_argument(
        "--annotated-scale",
        type=float,
        default=0.5,
        help="annotated.mp4's size as a share of the video's (default 0.5)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from referee.backs import Catalogue
    from referee.cli.players import told_players
    from referee.errors import SetupError
    from referee.replay_files import ReplayOptions, replay_video
    from vision.geometry import load_calibration

    if args.stride < 1:
        raise SetupError(f"--stride must be at least 1, not {args.stride}")
    if not 0.1 <= args.annotated_scale <= 1.0:
        raise SetupError(f"--annotated-scale must lie in 0.1..1, not {args.annotated_scale}")
    catalogue = Catalogue.load_or_default(args.catalogue) if args.catalogue else None
    options = ReplayOptions(
        players=told_players(args.players, catalogue),
        stop_at=args.stop_at,
        geometry=load_calibration(args.calibration) if args.calibration else None,
        catalogue=catalogue,
        model=args.model,
        oracle=args.oracle,
        oracle_boxes=args.oracle_boxes,
        stride=args.stride,
        skip_still=not args.every_frame and (args.skip_still or not (args.oracle or args.oracle_boxes)),
        video=not args.no_video,
        report=not args.no_report,
        annotated_scale=args.annotated_scale,
    )
    bar = tqdm(unit="frame", desc="replay", disable=None, leave=False)

    def start(total: int | None) -> None:
        bar.total = total
        bar.refresh()

    try:
        result = replay_video(args.video, args.out, options, progress=bar.update, on_start=start)
    finally:
        bar.close()
    summary = result.summary()
    code = result.exit_code
    stream = sys.stdout if code is ExitCode.OK else sys.stderr
    prefix = "" if code is ExitCode.OK else "ligretto: error: "
    print(f"{prefix}{result.message}", file=stream)
    replay = summary["replay"]
    print(
        f"{summary['video']['frames_read']} frames ({summary['video']['replayed_s']:.1f} s of video) in "
        f"{replay['wall_s']:.1f} s: {replay['speed_x_realtime']:.2f}x real time ({result.vision}, "
        f"{summary['video']['frames_seen']} frames read, {summary['video']['closer_looks']} spots closer); "
        f"outputs in {args.out}",
        file=stream,
    )
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return int(code)

"""``ligretto synth video``: bots play a round and a camera films it, with exact ground truth per frame.

Registered under ``ligretto synth`` by :data:`referee.cli.synth.SYNTH_COMMANDS`. The simulator's options
(players, seed, mistakes, backs, rules) pass through; the video's own options choose the view, the size,
the speed (``--speed 2`` films the round at twice its pace) and where to cut (``--duration-limit``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from referee.cli.simulate import add_table_options
from referee.cli.simulate import backs_of as simulated_backs
from referee.errors import SetupError
from referee.rules import ConflictResolution, RuleSettings, ShortHand
from referee.simulator import BotProfile, Delay, MistakeRates, Round, RoundResult, SimSettings

if TYPE_CHECKING:
    from vision.render.video import VideoSettings

FAST_BOTS = BotProfile(
    think=Delay(0.55, 0.45, 0.2),
    flight=Delay(0.35, 0.25, 0.2),
    turn_over=Delay(0.5, 0.3, 0.25),
    refill=Delay(0.4, 0.3, 0.2),
    take_back=Delay(0.8, 0.3, 0.4),
)
"""Quick players (about twice the default pace): a 2-player round lasts about a minute."""

EPILOG = """\
examples:
  ligretto synth video --players 4 --seed 1 --out out/round.mp4
  ligretto synth video --players 2 --seed 4 --mistakes 0.02 --fast-bots --speed 1.5 --out out/quick.mp4
  ligretto synth video --players 6 --seed 2 --view table --duration-limit 20 --out out/table.mp4
  ligretto synth video --players 3 --seed 5 --speed 2 --tail 10 --out out/long-tail.mp4
  ligretto synth video --players 4 --seed 7 --look heldout --out out/new-table.mp4
  ligretto synth video --bench --frames 600

writes FILE.mp4 (H.264, browser-playable) and beside it FILE.events.jsonl (the ground-truth event log with
video times and frame numbers), FILE.frames.jsonl (per frame: every card's corners, identity, visible
fraction, for cards showing at least 2% of themselves) and FILE.trace.jsonl (the simulator's trace in video
time)."""


def register_video(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "video",
        help="film a simulated round: MP4 with per-frame card labels and the event log",
        description=(
            "Bots play one round of Ligretto (deterministic by seed) and a phone above the table films it: hands "
            "carry cards to the centre, stacks grow, the camera shakes a little, the exposure drifts; after the "
            "stop the centre cards are spread back up for counting and each player lays their Ligretto-pile "
            "leftovers in a line in front of them, back up too, and turns their hand face up onto their discard "
            "pile (so the only backs in view are the cards to count); the spreads then lie still for --tail seconds."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    game = parser.add_argument_group("the round (as in ligretto simulate)")
    game.add_argument("--players", type=int, help="number of players, 2..12 (default: 4, or one per --backs)")
    game.add_argument("--seed", type=int, default=0, help="seed of the round and of the look (default: 0)")
    game.add_argument("--mistakes", type=float, default=0.0, metavar="RATE", help="mistake rate 0..1 (default 0)")
    add_table_options(game)
    game.add_argument("--fast-bots", action="store_true", help="quick players (about twice the default pace)")
    film = parser.add_argument_group("the video")
    film.add_argument("--out", type=Path, metavar="FILE.mp4", help="the video to write (required unless --bench)")
    film.add_argument("--duration-limit", type=float, metavar="SECONDS", help="cut the video after this long")
    film.add_argument("--speed", type=float, default=1.0, help="time compression: 2 plays the round twice as fast")
    film.add_argument(
        "--tail",
        type=float,
        metavar="SECONDS",
        help="video seconds the final spreads lie still after the last move, at any --speed (default 6)",
    )
    film.add_argument("--view", choices=("centre", "table"), default="centre", help="what the camera frames")
    film.add_argument("--size", default="1280x720", help="frame size WIDTHxHEIGHT (default 1280x720)")
    film.add_argument("--fps", type=float, default=30.0, help="frames per second (default 30)")
    film.add_argument("--crf", type=int, default=23, help="H.264 quality, lower is better and bigger (default 23)")
    film.add_argument("--still", action="store_true", help="a camera on a stand: no shake")
    film.add_argument("--surface", help="table surface preset (default: drawn from the seed)")
    film.add_argument("--light", help="light preset (default: drawn from the seed)")
    film.add_argument(
        "--look",
        choices=("train", "heldout"),
        default="train",
        help="where the surface, light and face print style are drawn from: the presets the detector and "
        "recogniser were trained on (default), or those they never saw (heldout)",
    )
    film.add_argument("--workers", type=int, default=2, help="processes rendering frames (default 2)")
    film.add_argument("--quiet", action="store_true", help="no progress bar")
    film.add_argument("--bench", action="store_true", help="measure frames per second instead (4 players, 1280x720)")
    film.add_argument("--frames", type=int, default=600, help="frames to time with --bench (default 600)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from referee.cli.synth import parse_size
    from vision.render.lighting import LIGHT_PRESETS
    from vision.render.table import SURFACE_PRESETS
    from vision.render.video import VideoSettings

    if args.surface is not None and args.surface not in SURFACE_PRESETS:
        raise SetupError(f"unknown surface {args.surface!r}: expected one of {', '.join(SURFACE_PRESETS)}")
    if args.light is not None and args.light not in LIGHT_PRESETS:
        raise SetupError(f"unknown light {args.light!r}: expected one of {', '.join(LIGHT_PRESETS)}")
    if not 0.0 <= args.mistakes <= 1.0:
        raise SetupError(f"--mistakes must be a rate between 0 and 1, not {args.mistakes}")
    settings = VideoSettings(
        size=parse_size(args.size),
        fps=args.fps,
        time_scale=args.speed,
        view=args.view,
        duration_limit=args.duration_limit,
        seed=args.seed,
        workers=args.workers,
        crf=args.crf,
        shake_deg=0.0 if args.still else 0.12,
        surface=args.surface,
        light=args.light,
        look=args.look,
    )
    if args.tail is not None:  # the default lives in VideoSettings, which the parser does not import
        settings = replace(settings, tail_s=args.tail)
    settings.check()
    if args.bench:
        return _bench(args, settings)
    if args.out is None:
        raise SetupError("--out FILE.mp4 is required (or --bench)")
    if args.out.suffix.lower() != ".mp4":
        raise SetupError(f"--out must name an .mp4 file, not {args.out}")
    result = _play(args)
    return _film(result, args.out, settings, not args.quiet)


def _play(args: argparse.Namespace) -> RoundResult:
    rules = RuleSettings(
        conflict_resolution=ConflictResolution(args.conflict),
        short_hand=ShortHand(args.short_hand),
        advanced_row=args.advanced_row,
        turn_over=args.turn_over,
    )
    bots = FAST_BOTS if args.fast_bots else BotProfile()
    sim = SimSettings(rules=rules, bots=bots, mistakes=MistakeRates.uniform(args.mistakes))
    return Round(simulated_backs(args), seed=args.seed, settings=sim).play()


def _film(result: RoundResult, out: Path, settings: VideoSettings, show: bool) -> int:
    from tqdm import tqdm

    from vision.render.video import companion_paths, plan, render_round

    total = plan(result, settings).frames
    with tqdm(total=total, unit="frame", file=sys.stderr, disable=not show, leave=False) as bar:
        summary = render_round(result, out, settings, bar.update)
    paths = companion_paths(out)
    print(
        f"wrote {out} ({summary.frames} frames, {summary.seconds:.1f} s, {summary.bytes / 1e6:.1f} MB) in "
        f"{summary.wall_s:.1f} s ({summary.fps:.1f} frames/s); labels {paths['frames']}, events {paths['events']}"
    )
    return 0


def _bench(args: argparse.Namespace, settings: VideoSettings) -> int:
    from vision.render.video_bench import bench_video

    if args.frames < 1:
        raise SetupError(f"--frames must be at least 1, not {args.frames}")
    with tempfile.TemporaryDirectory() as folder:
        figures = bench_video(args.frames, replace(settings, duration_limit=None), Path(folder))
    print(json.dumps(figures, indent=1))
    return 0

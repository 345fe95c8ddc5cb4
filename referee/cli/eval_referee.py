"""``ligretto eval-referee``: simulated rounds rendered (or reused), replayed, and the referee scored against
the ground truth."""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

DEFAULT_OUT = Path("out/eval-referee")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "eval-referee",
        help="score the referee on rendered rounds against their ground truth",
        description="For each seed and player count, renders a simulated round video with its ground truth\n"
        "(ligretto synth video; reused when already in --out), replays it through the whole pipeline\n"
        "(detector, recogniser, table plane, tracker, judge, count) and compares with the truth: plays\n"
        "recovered (right stack, right card, within 0.5 s), illegal plays (and how soon they were said),\n"
        "conflicts, end-of-round counts and scores per player, and replay speed as a multiple of real time.\n"
        "Prints the figures and writes a per-round CSV (--out/rounds.csv) and, one JSON line each, everything\n"
        "the figures count against the referee (--out/misses.jsonl: plays, illegal plays and conflicts missed\n"
        "or said falsely, illegal plays said more than 0.5 s late, players counted wrong), where to look\n"
        "first when a figure falls short.\n\n"
        "--oracle replays the ground-truth card labels instead of the detector (ORACLE MODE): the tracker\n"
        "and judge alone, so their errors and the camera's can be told apart.",
        epilog="examples:\n"
        "  ligretto eval-referee --seeds 101-107 --players 2,4,8 --mistakes 0.05\n"
        "  ligretto eval-referee --seeds 1,2 --players 4 --oracle --out out/eval-oracle\n"
        "  ligretto eval-referee --seeds 97000-97000 --players 2,4,8 --fast-bots --every-frame\n"
        "  ligretto eval-referee --seeds 102000-102006 --players 4 --fast-bots --look heldout\n"
        "  ligretto eval-referee --seeds 103000-103006 --players 2,4 --fast-bots --backs drawn\n"
        "  ligretto eval-referee --seeds 107000-107006 --players 8 --fast-bots --view table",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seeds", default="1000-1006", help="seeds: a list 1,2,3 or a range 10-19 (default 1000-1006)")
    parser.add_argument("--players", default="2,4,8", help="player counts, e.g. 2,4,8 (default)")
    parser.add_argument("--mistakes", type=float, default=0.05, help="injected mistake rate (default 0.05)")
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"videos, replays and CSV (default {DEFAULT_OUT})"
    )
    parser.add_argument(
        "--oracle", action="store_true", help="ORACLE MODE: ground-truth labels instead of the detector"
    )
    parser.add_argument(
        "--oracle-boxes",
        action="store_true",
        help="ORACLE BOXES: ground-truth card outlines read by the real recogniser (perfect detection only)",
    )
    parser.add_argument("--model", type=Path, help="detector model (default models/detector.onnx)")
    parser.add_argument("--stride", type=int, default=1, metavar="K", help="read every K-th frame (default 1)")
    parser.add_argument(
        "--every-frame",
        action="store_true",
        help="run the detector on every frame; by default, as in replay, a still frame reuses the last reading\n"
        "(the oracle modes read every frame unless --skip-still)",
    )
    parser.add_argument(
        "--skip-still", action="store_true", help="reuse the last reading on still frames in the oracle modes too"
    )
    parser.add_argument("--speed", type=float, default=1.0, help="time compression of the rendered rounds (default 1)")
    parser.add_argument("--size", default="1280x720", help="video size WIDTHxHEIGHT (default 1280x720)")
    parser.add_argument("--fast-bots", action="store_true", help="quick players (shorter videos)")
    parser.add_argument(
        "--look",
        choices=("train", "heldout"),
        default="train",
        help="table surfaces, lights and face print styles of the rendered rounds: those the detector and recogniser "
        "were trained on (default), or those they never saw (heldout: how the referee fares on a new table)",
    )
    parser.add_argument(
        "--backs",
        choices=("first", "drawn"),
        default="first",
        help="which sets the players use: the catalogue's first (default: the red box, then the blue), or drawn "
        "by each round's seed (whole boxes in a drawn order, each box's sets shuffled: the green box's look-alikes "
        "of the red and blue ones too)",
    )
    parser.add_argument(
        "--view",
        choices=("centre", "table"),
        default="centre",
        help="what the rendered rounds' camera frames: the centre and the players' places, cards kept 40 px wide or "
        "more (default: a big table's farthest places leave the picture), or the whole table (smaller cards)",
    )
    parser.add_argument(
        "--tell-players",
        action="store_true",
        help="tell each replay who plays (the round's backs, as ligretto replay --players does): the referee when\n"
        "the table's sets are known (replays go to MODE-told/)",
    )
    parser.add_argument("--video", action="store_true", help="also write each replay's annotated.mp4 and report")
    parser.set_defaults(func=run)


def parse_seeds(text: str) -> list[int]:
    """``1,2,5`` or ``10-13``.

    >>> parse_seeds("10-12"), parse_seeds("3,1")
    ([10, 11, 12], [3, 1])
    """
    from referee.errors import SetupError

    try:
        if "-" in text.strip("-"):
            low, high = text.split("-", 1)
            return list(range(int(low), int(high) + 1))
        return [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise SetupError(f"seeds must be a list like 1,2,3 or a range like 10-19, not {text!r}") from None


def run(args: argparse.Namespace) -> int:
    from referee.errors import LigrettoError, SetupError
    from referee.referee_eval import Totals

    seeds = parse_seeds(args.seeds)
    try:
        players = [int(p) for p in args.players.split(",") if p.strip()]
    except ValueError:
        raise SetupError(f"--players must be a list like 2,4,8, not {args.players!r}") from None
    if not seeds or not players:
        raise SetupError("give at least one seed and one player count")
    mode = (
        "ORACLE (ground-truth labels, no detector)"
        if args.oracle
        else "ORACLE BOXES (ground-truth outlines, real recogniser)"
        if args.oracle_boxes
        else "detector + recogniser"
    )
    if args.look == "heldout":
        mode += ", tables never trained on (surfaces, lights, face print styles held out)"
    if args.backs == "drawn":
        mode += ", each round's sets drawn by its seed"
    if args.tell_players:
        mode += ", the players told (as ligretto replay --players)"
    print(f"eval-referee: {len(seeds) * len(players)} rounds, mode: {mode}", file=sys.stderr)
    rounds = []
    rows = []
    failed = []
    misses_path = args.out / "misses.jsonl"
    misses_path.unlink(missing_ok=True)
    for count in players:
        for seed in seeds:
            try:
                metrics, row, misses = _one(args, count, seed)
            except LigrettoError as exc:
                # one round that cannot be rendered or read costs that round, not those scored already
                failed.append(f"p{count} s{seed}")
                print(f"  p{count} s{seed}: not scored: {exc}", file=sys.stderr)
                continue
            rounds.append(metrics)
            rows.append(row)
            _write_csv(args.out / "rounds.csv", rows)  # as it goes: an evaluation cut short keeps its rounds
            _append_misses(misses_path, {"players": count, "seed": seed}, misses)
            print(_row_line(row), file=sys.stderr)
    if not rows:
        raise LigrettoError(f"no round could be scored ({', '.join(failed)})")
    totals = Totals(rounds)
    print(f"mode: {mode}")
    for line in totals.lines():
        print(line)
    speeds = [float(r["speed_x_realtime"]) for r in rows]
    wall = sum(float(r["wall_s"]) for r in rows)
    video = sum(float(r["video_s"]) for r in rows)
    print(
        f"replay speed:     {video / wall if wall else 0:.2f}x real time overall "
        f"(min {min(speeds):.2f}x) at {args.size}, stride {args.stride}{', skip still' if _skips_still(args) else ''}"
    )
    if len(players) > 1:
        print(f"  by players:     {_speeds_by_players(rows)}")
    print(f"per-round CSV:    {args.out / 'rounds.csv'}")
    print(f"misses:           {misses_path} (one JSON line each)")
    if failed:
        print(f"not scored:       {len(failed)} rounds ({', '.join(failed)}): see the messages above")
        return LigrettoError.exit_code
    return 0


def _skips_still(args: argparse.Namespace) -> bool:
    """Replay's default: the detector skips still frames; the oracle modes read every frame unless asked.

    >>> ns = argparse.Namespace
    >>> _skips_still(ns(every_frame=False, skip_still=False, oracle=False, oracle_boxes=False))
    True
    >>> _skips_still(ns(every_frame=True, skip_still=False, oracle=False, oracle_boxes=False))
    False
    >>> _skips_still(ns(every_frame=False, skip_still=False, oracle=True, oracle_boxes=False))
    False
    """
    return not args.every_frame and (args.skip_still or not (args.oracle or args.oracle_boxes))


def _one(args: argparse.Namespace, players: int, seed: int) -> tuple[Any, dict[str, Any], list[Any]]:
    from referee.events import read_events
    from referee.referee_eval import illegal_in_view, round_misses, score_round
    from referee.replay_files import ReplayOptions, replay_video
    from vision.oracle import truth_frames_path

    video = _rendered(args, players, seed)
    mode = "oracle" if args.oracle else "oracle-boxes" if args.oracle_boxes else "detector"
    truth = list(read_events(video.with_suffix("").with_name(video.stem + ".events.jsonl")))
    told = _told_players(truth) if args.tell_players else ()
    out = args.out / (f"{mode}-told" if args.tell_players else mode) / video.stem
    options = ReplayOptions(
        players=told,
        oracle=args.oracle,
        oracle_boxes=args.oracle_boxes,
        stride=args.stride,
        model=args.model,
        skip_still=_skips_still(args),
        video=args.video,
        report=args.video,
    )
    result = replay_video(video, out, options)
    said = [(e.event, e.said_t) for e in result.emitted]
    extra = {
        "players": players,
        "seed": seed,
        "mode": mode,
        "look": args.look,
        "backs": ",".join(drawn_backs(players, seed)) if args.backs == "drawn" else "first",
        "video_s": round(result.last_t, 2),
        "wall_s": round(result.wall_s, 2),
        "speed_x_realtime": round(result.speed, 3),
        "exit_code": int(result.exit_code),
        "players_told": int(bool(told)),
    }
    in_view = illegal_in_view(truth, _labelled_faces(truth_frames_path(video)))
    metrics = score_round(truth, said, extra=extra, in_view=in_view)
    return metrics, metrics.row(), round_misses(truth, said, in_view=in_view)


def _told_players(truth: Sequence[Any]) -> tuple[str, ...]:
    """The round's players' backs, from its ground truth's ``round_started`` event (what a table would tell)."""
    from referee.errors import InputFileError
    from referee.events import RoundStarted

    started = next((e for e in truth if isinstance(e, RoundStarted)), None)
    if started is None or not started.backs:
        raise InputFileError("--tell-players needs the round's backs: its ground truth has no round_started event")
    return tuple(started.backs)


def _labelled_faces(path: Path) -> Iterator[tuple[float, list[Any]]]:
    """Each frame's time and faces (card, owner, share showing) from a rendered round's ground truth."""
    import json

    from referee.cards import Card, Colour
    from referee.errors import InputFileError

    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            try:
                data = json.loads(line)
                faces = [
                    (Card(Colour(c["colour"]), int(c["number"])), c.get("owner"), float(c.get("visible", 1.0)))
                    for c in data["cards"]
                    if c.get("kind") == "face" and c.get("colour") and c.get("number")
                ]
            except (ValueError, KeyError, TypeError) as exc:
                raise InputFileError(f"{path} line {number}: not a frame of card labels ({exc})") from None
            yield float(data["t"]), faces


def drawn_backs(players: int, seed: int) -> list[str]:
    """The sets ``players`` use in the round of ``seed`` under ``--backs drawn``: tables play whole boxes, so the
    boxes come in an order drawn from the seed and each box's four sets in a drawn order, the players taking
    them in turn (five players: one box and one set of another).

    >>> drawn_backs(4, 7) == drawn_backs(4, 7), len(set(drawn_backs(8, 7)))
    (True, 8)
    >>> from referee.backs import default_boxes
    >>> len({default_boxes()[back] for back in drawn_backs(4, 7)})  # one whole box
    1
    """
    import random

    from referee.backs import default_boxes

    rng = random.Random(seed)
    boxes: dict[str, list[str]] = {}
    for design, box in default_boxes().items():
        boxes.setdefault(box, []).append(design)
    order = list(boxes)
    rng.shuffle(order)
    sets = []
    for box in order:
        designs = boxes[box]
        rng.shuffle(designs)
        sets += designs
    return sets[:players]


def round_name(
    players: int,
    seed: int,
    mistakes: float,
    speed: float,
    size: str,
    fast: bool,
    look: str = "train",
    backs: str = "first",
    view: str = "centre",
) -> str:
    """The file name (less its suffix) a rendered round is kept under in ``--out/videos``: every setting that
    changes its pictures, so a round is reused only where it is the one asked for.

    >>> round_name(4, 101000, 0.05, 1.0, "1280x720", True)
    'p4-s101000-m0.05-x1-1280x720-fast'
    >>> round_name(4, 101000, 0.05, 1.0, "1280x720", True, look="heldout", backs="drawn", view="table")
    'p4-s101000-m0.05-x1-1280x720-fast-heldout-drawn-table'
    """
    name = f"p{players}-s{seed}-m{mistakes:g}-x{speed:g}-{size}{'-fast' if fast else ''}"
    name = name if look == "train" else f"{name}-{look}"
    name = name if backs == "first" else f"{name}-{backs}"
    return name if view == "centre" else f"{name}-{view}"


def _rendered(args: argparse.Namespace, players: int, seed: int) -> Path:
    """The round's video, rendered with ``ligretto synth video`` unless it is already there."""
    from referee.cli.main import main
    from referee.errors import LigrettoError

    name = round_name(
        players, seed, args.mistakes, args.speed, args.size, args.fast_bots, args.look, args.backs, args.view
    )
    video = args.out / "videos" / f"{name}.mp4"
    companions = [video.with_name(f"{name}.{kind}.jsonl") for kind in ("events", "frames")]
    if video.is_file() and all(p.is_file() for p in companions):
        return video
    argv = ["synth", "video", "--players", str(players), "--seed", str(seed), "--mistakes", str(args.mistakes)]
    argv += ["--speed", str(args.speed), "--size", args.size, "--out", str(video), "--quiet"]
    if args.fast_bots:
        argv.append("--fast-bots")
    if args.look != "train":
        argv += ["--look", args.look]
    if args.backs == "drawn":
        argv += ["--backs", ",".join(drawn_backs(players, seed))]
    if args.view != "centre":
        argv += ["--view", args.view]
    code = main(argv)
    if code != 0:
        raise LigrettoError(f"rendering the round (players {players}, seed {seed}) failed with exit code {code}")
    return video


def _row_line(row: dict[str, Any]) -> str:
    return (
        f"  p{row['players']} s{row['seed']}: plays {row['plays_right']}/{row['plays_truth']} "
        f"(said {row['plays_said']}), illegal {row['illegal_right']}/{row['illegal_truth']} "
        f"(said {row['illegal_said']}), conflicts {row['conflicts_right']}/{row['conflicts_truth']}, "
        f"players exact {row['players_exact']}/{row['players']}, {row['speed_x_realtime']}x, exit {row['exit_code']}"
    )


def _speeds_by_players(rows: list[dict[str, Any]]) -> str:
    """Real-time multiples per player count (video seconds over wall seconds of its rounds).

    >>> _speeds_by_players([{"players": 2, "video_s": 60, "wall_s": 20}, {"players": 8, "video_s": 90, "wall_s": 75}])
    '2 players 3.00x, 8 players 1.20x'
    """
    video: dict[int, float] = {}
    wall: dict[int, float] = {}
    for row in rows:
        n = int(row["players"])
        video[n] = video.get(n, 0.0) + float(row["video_s"])
        wall[n] = wall.get(n, 0.0) + float(row["wall_s"])
    return ", ".join(f"{n} players {video[n] / wall[n]:.2f}x" for n in sorted(video) if wall[n] > 0)


def _append_misses(path: Path, round_: dict[str, Any], misses: list[Any]) -> None:
    """Adds one round's misses (:class:`referee.referee_eval.Miss`) to ``path``, one JSON line each."""
    import json

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        for miss in misses:
            handle.write(json.dumps({**round_, **miss.to_json()}) + "\n")


def _write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)

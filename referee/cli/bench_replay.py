"""``ligretto bench replay``: replay speed (a multiple of real time) of the default path against reading every
frame and against reading one frame at a time, on the same video in the same process, and whether the rulings
stayed the same."""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import SetupError

SAMPLE = Path("datasets/samples/round.mp4")
BASELINE = "every frame"
ONE_AT_A_TIME = "one frame at a time"
FORGETFUL = "still cards read again"
NO_CLOSER_LOOKS = "no closer looks"
DEFAULT = "default"
PATHS = {
    BASELINE: (False, True, True, True),
    FORGETFUL: (True, True, False, True),
    ONE_AT_A_TIME: (True, False, True, True),
    NO_CLOSER_LOOKS: (True, True, True, False),
    DEFAULT: (True, True, True, True),
}
"""The paths compared, by whether still frames reuse the last reading (``ligretto replay`` reads every frame
with ``--every-frame``), whether the next frame's detector runs beside this frame's recognition (the default;
one frame at a time is the same readings and rulings, in more time), whether a card lying still where it
was read keeps its reading (:mod:`vision.recognise.memo`; the default) and whether spots where a card came to
rest unfound are read closer (:mod:`vision.look_again`; the default)."""

EPILOG = """\
examples:
  ligretto bench replay
  ligretto bench replay datasets/samples/round.mp4 --repeat 3 --video

replays VIDEO (default: the sample round) with the real models, the five paths --repeat times each (in turn,
reversed every other time, so a load that drifts weighs on all alike): every frame read, still cards read again
at each reading, still frames reusing the last reading but one frame at a time, no closer looks where a card
came to rest unfound, and the default (still frames reuse, still cards keep their readings, the next frame's
detector runs beside this frame's recognition, and spots where a card came to rest unfound are read closer).
Prints per path: the real-time multiple as 'ligretto replay' prints it (the frame loop) and over the whole
replay (finding the table plane and writing the outputs too), CPU seconds, frames the detector read, and events;
then the default's speed against each other path, and how its rulings differ from theirs. With
VIDEO.events.jsonl beside the video (a rendered round's truth) it also scores each path's rulings."""


@dataclass(frozen=True)
class Run:
    """One replay: speeds, work and the rulings said."""

    loop_x: float
    whole_x: float
    cpu_s: float
    frames_read: int
    frames_seen: int
    said: tuple[tuple[Any, float], ...]


def register(targets: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = targets.add_parser(
        "replay",
        help="replay speed with the real models: the default path against every frame and one frame at a time",
        description="Times ligretto replay on one video with the real detector and recogniser, reading every frame,\n"
        "one frame at a time, and the default way, in one process.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "video", metavar="VIDEO", nargs="?", type=Path, default=SAMPLE, help=f"the video (default {SAMPLE})"
    )
    parser.add_argument("--repeat", type=int, default=1, help="replays per path (default 1)")
    parser.add_argument(
        "--video", dest="annotated", action="store_true", help="also write the annotated video, as replay does"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from referee.events import read_events
    from referee.replay_files import ReplayOptions
    from referee.session import DetectorVision

    if args.repeat < 1:
        raise SetupError(f"--repeat must be at least 1, not {args.repeat}")
    truth_file = args.video.with_name(args.video.stem + ".events.jsonl")
    truth = list(read_events(truth_file)) if truth_file.is_file() else None
    visions = {overlap: DetectorVision.load(overlap=overlap) for overlap in (False, True)}  # as replay loads them
    runs: dict[str, list[Run]] = {name: [] for name in PATHS}
    order = [name for i in range(args.repeat) for name in (list(PATHS) if i % 2 == 0 else list(PATHS)[::-1])]
    with tempfile.TemporaryDirectory() as folder:
        for name in order:
            skip_still, overlap, remember, look_again = PATHS[name]
            options = ReplayOptions(
                video=args.annotated,
                report=False,
                skip_still=skip_still,
                overlap=overlap,
                remember=remember,
                look_again=look_again,
            )
            runs[name].append(_replay(args.video, Path(folder), options, visions[overlap]))
    for name, done in runs.items():
        print(_line(name, done, truth))
    fast = max(r.loop_x for r in runs[DEFAULT])
    others = (BASELINE, FORGETFUL, ONE_AT_A_TIME, NO_CLOSER_LOOKS)
    for other in others:
        slow = max(r.loop_x for r in runs[other])
        print(f"default / {other}: {fast / slow:.2f}x the speed (best runs, frame loop)")
    for other in others:
        print(f"default against {other}: {_differences(runs[other][0].said, runs[DEFAULT][0].said)}")
    return 0


def _replay(video: Path, out: Path, options: Any, vision: Any) -> Run:
    from referee.replay_files import replay_video

    wall, cpu = time.perf_counter(), time.process_time()
    result = replay_video(video, out, options, vision=vision)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    said = tuple((e.event, e.said_t) for e in result.emitted)
    duration = max(result.last_t, 1e-9)
    return Run(result.speed, duration / wall, cpu, result.frames_read, result.frames_seen, said)


def _line(name: str, runs: list[Run], truth: Any) -> str:
    best = max(runs, key=lambda r: r.loop_x)
    text = (
        f"{name:29s} {best.loop_x:5.2f}x real time (whole replay {best.whole_x:5.2f}x), {best.cpu_s:5.1f} CPU s, "
        f"detector read {best.frames_seen} of {best.frames_read} frames, {len(best.said)} events"
    )
    if truth is not None:
        from referee.referee_eval import score_round

        m = score_round(truth, list(best.said))
        text += (
            f"; plays {m.plays.right}/{m.plays.truth} right ({m.plays.said} said), "
            f"illegal {m.illegal.right}/{m.illegal.truth} ({m.illegal.said} said, {m.in_time} in time)"
        )
    return text


def _differences(a: tuple[Any, ...], b: tuple[Any, ...]) -> str:
    """How the second path's rulings compare with the first's: the rulings only one path said, and how much
    later (or sooner) the second said the ones both said (the n-th ruling of a kind, stack and card matches the
    n-th; pairs more than a second apart are two different rulings, not one said late).

    >>> from referee.cards import Card
    >>> from referee.events import CardPlayed
    >>> played = CardPlayed(t=1.0, stack=1, card=Card.parse("r2"))
    >>> _differences(((played, 1.0),), ((played, 1.1),))
    'the same rulings; the ones both said, said +0.100..+0.100 s later'
    """
    first, second = _by_ruling(a), _by_ruling(b)
    shifts = [t2 - t1 for k in first.keys() & second.keys() for t1, t2 in zip(first[k], second[k], strict=False)]
    close = [s for s in shifts if abs(s) <= 1.0]
    only = sum(len(v) for v in first.values()) + sum(len(v) for v in second.values()) - 2 * len(close)
    text = "the same rulings" if only == 0 else f"{only} rulings said by one path only"
    soonest, latest = (min(close), max(close)) if close else (0.0, 0.0)
    return text + f"; the ones both said, said {soonest:+.3f}..{latest:+.3f} s later"


def _by_ruling(said: tuple[Any, ...]) -> dict[tuple[str, Any, str], list[float]]:
    out: dict[tuple[str, Any, str], list[float]] = {}
    for event, t in said:
        out.setdefault((event.type, event.stack, str(getattr(event, "card", ""))), []).append(t)
    return out

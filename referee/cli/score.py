"""``ligretto score``: the round's scores from still photos of the spreads (the centre, the leftovers)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from referee.cli.detection_passes import add_pass_options, operating_conf, thorough_plan
from referee.cli.players import HELP as PLAYERS_HELP
from referee.errors import LigrettoError


class NotATableError(LigrettoError):
    """A photo in which no card can be found."""

    exit_code = 4


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a round from photos of the centre spread and the leftover cards",
        description="Counts the face-down cards by back design in a photo of the centre spread (and in a photo\n"
        "of the leftover Ligretto-pile cards), and scores each back: centre - 2 x leftover.\n"
        'With --json prints {"centre": {back: n}, "leftover": {back: n}, "scores": {back: n},\n'
        '"warnings": [...]}.\n'
        "Each photo is read thoroughly (the whole photo, then zoomed-in windows, the boxes fused), which\n"
        "finds more of the small, overlapping cards of a spread; --fast reads it in one detector pass.\n\n"
        "exit codes: 0 scored; 2 a file that cannot be read; 4 no card found in a photo (not a table?)",
        epilog="examples:\n"
        "  ligretto score centre.jpg --leftover leftover.jpg\n"
        "  ligretto score centre.jpg --catalogue my-backs.json --json\n"
        "  ligretto score centre.jpg --leftover leftover.jpg --players red-red,red-pink,blue-blue\n"
        "  ligretto score centre.jpg --fast",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("centre", metavar="CENTRE_IMAGE", type=Path, help="photo of the centre cards, backs up")
    parser.add_argument("--leftover", metavar="IMAGE", type=Path, help="photo of the cards left in the Ligretto piles")
    parser.add_argument("--catalogue", type=Path, help="back catalogue (JSON) with enrolled backs")
    parser.add_argument("--players", metavar="BACKS", help=PLAYERS_HELP)
    parser.add_argument("--model", type=Path, help="detector model (default models/detector.onnx)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_pass_options(parser, thorough_by_default=True)
    parser.set_defaults(func=run)


def count_backs(detections: Any, *, what: str, min_confidence: float = 0.4) -> tuple[dict[str, int], list[str]]:
    """Cards per back design in one photo's detections, and warnings (faces up, backs not recognised).

    >>> from vision.detections import CardDetections, BACK, FACE
    >>> q = [[0, 0], [59, 0], [59, 91], [0, 91]]
    >>> dets = CardDetections.from_quads([q, q, q], [BACK, BACK, FACE], [0.9, 0.9, 0.9])
    >>> count_backs(dets.with_identity(back=["red-red", None, None]), what="centre")
    ({'red-red': 1}, ['centre: 1 card showed a back not in the catalogue', 'centre: 1 card lies face up (not counted)'])
    """
    from vision.detections import BACK

    counts: dict[str, int] = {}
    unknown = faces = 0
    for i in range(len(detections)):
        if float(detections.confidence[i]) < min_confidence:
            continue
        if int(detections.kind[i]) != BACK:
            faces += 1
            continue
        back = detections.back[i]
        if not back:
            unknown += 1
            continue
        counts[back] = counts.get(back, 0) + 1
    warnings = []
    if unknown:
        warnings.append(f"{what}: {unknown} card{'s' if unknown > 1 else ''} showed a back not in the catalogue")
    if faces:
        warnings.append(f"{what}: {faces} card{'s lie' if faces > 1 else ' lies'} face up (not counted)")
    return dict(sorted(counts.items())), warnings


def score_counts(centre: dict[str, int], leftover: dict[str, int], players: tuple[str, ...] = ()) -> dict[str, int]:
    """Per back: centre - 2 x leftover; each of the ``players`` told is scored, none of whose cards was seen too.

    >>> score_counts({"a": 10, "b": 4}, {"b": 3})
    {'a': 10, 'b': -2}
    >>> score_counts({"a": 10}, {}, players=("a", "c"))
    {'a': 10, 'c': 0}
    """
    backs = dict.fromkeys([*players, *centre, *leftover])
    return {b: centre.get(b, 0) - 2 * leftover.get(b, 0) for b in backs}


def run(args: argparse.Namespace) -> int:
    from referee.backs import Catalogue, in_play
    from referee.cli.players import told_players
    from referee.errors import InputFileError
    from referee.photo_lines import line_counts
    from vision.detect.pipeline import CardReader
    from vision.sources import read_image

    plan = thorough_plan(args)
    conf = operating_conf(args, plan)
    centre_image = read_image(args.centre)
    leftover_image = read_image(args.leftover) if args.leftover else None
    catalogue = Catalogue.load_or_default(args.catalogue) if args.catalogue else None
    players = told_players(args.players, catalogue)
    catalogue = in_play(catalogue, players)
    try:
        reader = CardReader.load(model=args.model, conf=conf, catalogue=catalogue, thorough=plan)
    except FileNotFoundError as exc:
        raise InputFileError(str(exc)) from None
    warnings = [reader.warning] if reader.warning else []
    centre_dets = reader(centre_image).detections
    if len(centre_dets) == 0:
        raise NotATableError(f"no card found in {args.centre}: is it a photo of the centre cards on a table?")
    centre, centre_warnings = count_backs(centre_dets, what="centre", min_confidence=conf)
    leftover: dict[str, int] = {}
    if leftover_image is not None:
        leftover_dets = reader(leftover_image).detections
        if len(leftover_dets) == 0:
            warnings.append(f"no card found in {args.leftover}: leftovers counted as none")
        boxed, more = count_backs(leftover_dets, what="leftover", min_confidence=conf)
        centre_warnings += more
        # each player's line measured in the picture where it can be (referee.photo_lines), else box by box
        leftover, measured = line_counts(leftover_image, leftover_dets, conf)
        if measured == 0:
            leftover = boxed
    result = {
        "centre": centre,
        "leftover": leftover,
        "scores": score_counts(centre, leftover, players),
        "warnings": warnings + centre_warnings,
    }
    print(json.dumps(result) if args.json else _text(result))
    return 0


def _text(result: dict[str, Any]) -> str:
    lines = [f"{'back':<18}{'centre':>7}{'left':>6}{'score':>7}"]
    for back, score in sorted(result["scores"].items(), key=lambda item: -item[1]):
        lines.append(f"{back:<18}{result['centre'].get(back, 0):>7}{result['leftover'].get(back, 0):>6}{score:>7}")
    lines += [f"warning: {w}" for w in result["warnings"]]
    return "\n".join(lines)

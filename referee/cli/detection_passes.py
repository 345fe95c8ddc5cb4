"""Options shared by the commands that read still images: one detector pass or a thorough reading.

Not a command itself (it is not in ``COMMAND_MODULES``): ``detect``, ``score`` and ``eval`` add these options.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from referee.errors import LigrettoError

ONE_PASS_CONF = 0.4
THOROUGH = "the whole image, then 2x2 windows at 1.5x zoom, each also mirrored: 10 passes fused"
"""vision.detect.thorough.STILLS_PLAN in words (spelt out here: importing vision would slow every command's start)."""


def add_pass_options(parser: argparse.ArgumentParser, *, thorough_by_default: bool) -> None:
    """``--fast``/``--thorough``, ``--zooms`` and ``--flip`` on ``parser``."""
    group = parser.add_mutually_exclusive_group()
    if thorough_by_default:
        group.add_argument(
            "--fast",
            dest="thorough",
            action="store_false",
            help=f"one detector pass over the whole image, as a live camera gets (default: thorough, {THOROUGH})",
        )
    else:
        group.add_argument(
            "--thorough",
            action="store_true",
            help=f"read each image thoroughly, {THOROUGH} (default: one pass)",
        )
    group.add_argument(
        "--zooms",
        metavar="Z[,Z...]",
        help="thorough reading at these zooms, multiples of the one-pass scale: 1 is the whole image in one pass, "
        "2 reads it in overlapping windows at twice the scale (3x3 windows on 1280x720)",
    )
    parser.add_argument("--flip", action="store_true", help="a thorough reading also reads every window mirrored")
    parser.set_defaults(thorough=thorough_by_default)


def operating_conf(args: argparse.Namespace, plan: Any) -> float:
    """``--conf`` if given, else the thorough plan's own (its fused votes run lower) or one pass's 0.4."""
    if getattr(args, "conf", None) is not None:
        return float(args.conf)
    return float(plan.conf) if plan is not None else ONE_PASS_CONF


def thorough_plan(args: argparse.Namespace) -> Any:
    """The :class:`vision.detect.thorough.ThoroughPlan` the options ask for, or None for one pass."""
    from vision.detect.thorough import STILLS_PLAN, ThoroughPlan

    if not (args.thorough or args.zooms or args.flip):
        return None
    if not args.zooms:
        return replace(STILLS_PLAN, flip=True) if args.flip else STILLS_PLAN
    try:
        return ThoroughPlan.parse(args.zooms, flip=args.flip)
    except ValueError as exc:
        raise LigrettoError(f"--zooms: {exc}") from None

"""The detection options of detect, score and eval: one pass or thorough, and the confidence each runs at."""

from __future__ import annotations

import argparse

import pytest

from referee.cli.detection_passes import add_pass_options, operating_conf, thorough_plan
from referee.cli.main import main
from referee.errors import LigrettoError
from vision.detect.thorough import STILLS_PLAN


def parsed(argv: list[str], *, thorough_by_default: bool) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--conf", type=float)
    add_pass_options(parser, thorough_by_default=thorough_by_default)
    return parser.parse_args(argv)


@pytest.mark.parametrize(
    ("argv", "thorough_by_default", "zooms", "flip", "conf"),
    [
        ([], True, STILLS_PLAN.zooms, STILLS_PLAN.flip, STILLS_PLAN.conf),  # detect, score
        (["--fast"], True, None, None, 0.4),
        ([], False, None, None, 0.4),  # eval
        (["--thorough"], False, STILLS_PLAN.zooms, STILLS_PLAN.flip, STILLS_PLAN.conf),
        (["--zooms", "1,2"], False, (1.0, 2.0), False, STILLS_PLAN.conf),
        (["--zooms", "1", "--flip"], True, (1.0,), True, STILLS_PLAN.conf),
        (["--fast", "--conf", "0.5"], True, None, None, 0.5),
        (["--zooms", "1,2", "--conf", "0.6"], True, (1.0, 2.0), False, 0.6),
    ],
)
def test_the_options_choose_the_passes_and_the_confidence(argv, thorough_by_default, zooms, flip, conf):
    args = parsed(argv, thorough_by_default=thorough_by_default)
    plan = thorough_plan(args)
    assert (plan.zooms if plan else None, plan.flip if plan else None) == (zooms, flip)
    assert operating_conf(args, plan) == conf


def test_fast_and_zooms_exclude_each_other():
    with pytest.raises(SystemExit):
        parsed(["--fast", "--zooms", "1,2"], thorough_by_default=True)


def test_a_bad_zoom_list_is_a_user_error():
    with pytest.raises(LigrettoError, match="--zooms: each zoom must lie between 1 and 4"):
        thorough_plan(parsed(["--zooms", "0.5"], thorough_by_default=False))


@pytest.mark.parametrize("command", [["detect", "x.jpg"], ["score", "x.jpg"], ["eval", "--data", "x"]])
def test_a_bad_zoom_list_is_one_line_from_every_command(command, capsys):
    assert main([*command, "--zooms", "1,two"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ligretto: error:") and "--zooms" in err and "\n" not in err


def test_the_help_says_what_the_thorough_plan_does():
    from referee.cli.detection_passes import THOROUGH

    assert STILLS_PLAN.zooms == (1.0, 1.5) and STILLS_PLAN.flip  # the words below, spelt out
    assert f"{STILLS_PLAN.passes(1280, 720)} passes" in THOROUGH and "1.5x zoom" in THOROUGH and "mirrored" in THOROUGH

"""``ligretto bench replay`` on a scripted clip, read by a colour-segmenting stand-in for the detector."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.scripted_clip import film, two_player_round
from referee.session import DetectorVision


def _split_reader():
    """The scripted clip's exact card finder in two steps (detector, recogniser), from the session's detector-path
    tests."""
    path = Path(__file__).parents[1] / "session" / "test_session_detector.py"
    spec = importlib.util.spec_from_file_location("session_detector_tests", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module.SplitReader()


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return film(two_player_round(), tmp_path_factory.mktemp("clip") / "round.mp4")["video"]


def test_bench_replay_prints_the_five_paths_their_ratios_and_whether_the_rulings_agree(clip, monkeypatch, capsys):
    reader = _split_reader()
    monkeypatch.setattr(DetectorVision, "load", classmethod(lambda cls, **kw: cls(reader)))
    assert main(["bench", "replay", str(clip)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("every frame") and "detector read 480 of 480 frames" in lines[0]
    assert lines[1].startswith("still cards read again") and "detector read 480 of" not in lines[1]
    assert lines[2].startswith("one frame at a time") and "detector read 480 of" not in lines[2]
    assert lines[3].startswith("no closer looks") and "detector read 480 of" not in lines[3]
    assert lines[4].startswith("default") and "detector read 480 of" not in lines[4]
    assert all("plays 5/5 right (5 said), illegal 1/1" in line for line in lines[:5])
    assert lines[5].startswith("default / every frame: ")
    assert lines[6].startswith("default / still cards read again: ")
    assert lines[7].startswith("default / one frame at a time: ")
    assert lines[8].startswith("default / no closer looks: ")
    # the same rulings, none said sooner, none more than 3 frames (0.1 s) later: the most frames one reading
    # stands for (the clip's numbers are faint grey rims, which the gate sees only when it reads again anyway)
    assert lines[9].startswith("default against every frame: the same rulings; the ones both said, said ")
    soonest, latest = (float(x) for x in lines[9].rsplit("said ", 1)[1].removesuffix(" s later").split(".."))
    assert 0.0 <= soonest <= latest <= 0.1 + 1e-6
    same = "the same rulings; the ones both said, said +0.000..+0.000 s later"
    # a card lying still keeps its reading: the clip's cards read the same either way
    assert lines[10] == f"default against still cards read again: {same}"
    # overlapping the frames changes when the work is done, never what is said or when
    assert lines[11] == f"default against one frame at a time: {same}"
    # the stand-in finds every card: nothing is left for a closer look to find
    assert lines[12] == f"default against no closer looks: {same}"


def test_bench_replay_needs_at_least_one_repeat(capsys):
    assert main(["bench", "replay", "--repeat", "0"]) == 2
    assert "--repeat must be at least 1" in capsys.readouterr().err

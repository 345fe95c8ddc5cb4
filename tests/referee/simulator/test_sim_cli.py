"""``ligretto simulate`` and ``ligretto bench simulate`` as a user runs them."""

import json

import pytest

from referee.cli.main import main
from referee.events import read_events
from referee.simulator import Round
from referee.simulator.audit import audit
from referee.simulator.mistakes import KINDS
from referee.visitors import ScoreSheetBuilder, replay


def test_simulate_writes_the_event_log_the_trace_and_a_summary_per_round(tmp_path, capsys):
    assert main(["simulate", "--players", "3", "--seed", "5", "--rounds", "2", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "round-1.events.jsonl",
        "round-1.trace.jsonl",
        "round-2.events.jsonl",
        "round-2.trace.jsonl",
        "summary.json",
    ]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["backs"] == ["red-red", "red-light-blue", "red-pink"]
    assert [r["round"] for r in summary["rounds"]] == [1, 2]
    first = summary["rounds"][0]
    assert first["end"]["reason"] in ("ligretto_stop", "deadlock") and first["duration"] > 0
    assert summary["totals"] == {b: sum(r["scores"][b] for r in summary["rounds"]) for b in summary["backs"]}
    assert summary["winners"] and all(
        summary["totals"][w] == max(summary["totals"].values()) for w in summary["winners"]
    )
    events = list(read_events(tmp_path / "round-1.events.jsonl"))
    assert audit(events).violations == ()
    assert replay(events, ScoreSheetBuilder()).rounds[0].scores == first["scores"]
    trace = [json.loads(line) for line in (tmp_path / "round-1.trace.jsonl").read_text().splitlines()]
    assert trace[0]["kind"] == "layout" and len(trace[0]["table"]["seats"]) == 3
    out = capsys.readouterr().out
    assert "round 1:" in out and "winner" in out


def test_simulated_round_one_is_the_round_of_the_seed(tmp_path):
    main(["simulate", "--players", "4", "--seed", "9", "--out", str(tmp_path)])
    written = [e.to_json() for e in read_events(tmp_path / "round-1.events.jsonl")]
    again = Round(("red-red", "red-light-blue", "red-pink", "red-black"), seed=9).play()
    assert written == [e.to_json() for e in again.events]


def test_simulate_takes_the_backs_and_the_rule_settings(tmp_path):
    args = ["simulate", "--backs", "green-green,blue-blue", "--conflict", "both_taken_back", "--short-hand"]
    args += ["reshuffle_first", "--turn-over", "2", "--advanced-row", "--mistakes", "0.05", "--out", str(tmp_path)]
    assert main(args) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["backs"] == ["green-green", "blue-blue"]
    assert summary["settings"]["conflict_resolution"] == "both_taken_back"
    assert summary["settings"]["turn_over"] == 2 and summary["settings"]["advanced_row"] is True
    assert summary["settings"]["mistakes"]["wrong_colour"] == pytest.approx(0.05 / 6)
    assert sum(summary["settings"]["mistakes"].values()) == pytest.approx(0.05)


@pytest.mark.parametrize(
    ("args", "rates"),
    [
        (["--mistakes", "0.06"], dict.fromkeys(KINDS, 0.01)),
        (["--mistake-rate", "wrong_colour=0.01"], {**dict.fromkeys(KINDS, 0.0), "wrong_colour": 0.01}),
        (
            ["--mistake-rate", "conflict=0.02,after_stop=0.01", "--mistake-rate", "stack_full=0.03"],
            {**dict.fromkeys(KINDS, 0.0), "conflict": 0.02, "after_stop": 0.01, "stack_full": 0.03},
        ),
        (["--mistakes", "0.06", "--mistake-rate", "not_a_one=0"], {**dict.fromkeys(KINDS, 0.01), "not_a_one": 0.0}),
    ],
)
def test_mistakes_split_evenly_and_mistake_rate_sets_one_kind(tmp_path, args, rates):
    assert main(["simulate", "--players", "2", *args, "--out", str(tmp_path)]) == 0
    written = json.loads((tmp_path / "summary.json").read_text())["settings"]["mistakes"]
    assert written == pytest.approx(rates)


@pytest.mark.parametrize(("pace", "low", "high"), [("fast", 20, 70), ("normal", 60, 140), ("slow", 100, 240)])
def test_pace_sets_how_fast_the_bots_play(tmp_path, pace, low, high):
    assert main(["simulate", "--players", "4", "--seed", "1", "--pace", pace, "--out", str(tmp_path)]) == 0
    assert low <= json.loads((tmp_path / "summary.json").read_text())["rounds"][0]["duration"] <= high


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "13"], "2 to 12 players, not 13"),
        (["--backs", "red-red,red-red"], "same back 'red-red'"),
        (["--backs", "red-red,no-such-back"], "unknown back 'no-such-back'"),
        (["--players", "3", "--backs", "red-red,blue-blue"], "--players 3 but 2 backs"),
        (["--mistakes", "1.5"], "--mistakes must be a rate between 0 and 0.5"),
        (["--mistake-rate", "wrong=0.1"], "unknown mistake kind 'wrong'"),
        (["--mistake-rate", "conflict=lots"], "'conflict=lots' needs a number"),
        (["--mistakes", "0.3", "--mistake-rate", "conflict=0.3"], "mistake rates add up to 0.55"),
        (["--rounds", "0"], "--rounds must be at least 1"),
        (["--catalogue", "absent.json"], "cannot read catalogue absent.json"),
    ],
)
def test_simulate_refuses_a_bad_table_with_one_clear_line(tmp_path, capsys, args, message):
    assert main(["simulate", *args, "--out", str(tmp_path / "out")]) != 0
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_simulate_plays_to_a_target_score_when_asked(tmp_path):
    assert main(["simulate", "--players", "3", "--seed", "2", "--target", "30", "--out", str(tmp_path)]) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["match_end"] == "target"
    assert max(summary["totals"].values()) >= 30
    assert len(list(tmp_path.glob("round-*.events.jsonl"))) == len(summary["rounds"])


def test_simulate_with_mistakes_says_how_many_the_judge_finds(tmp_path, capsys):
    assert main(["simulate", "--players", "4", "--seed", "3", "--mistakes", "0.05", "--out", str(tmp_path)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("mistakes injected"))
    summary = json.loads((tmp_path / "summary.json").read_text())
    injected = len(summary["rounds"][0]["mistakes"])
    landings = summary["rounds"][0]["landings"]
    assert line == (
        f"mistakes injected: {injected} of {landings} cards landing in the centre ({injected / landings:.1%});"
        " the judge, replaying the event logs, finds every one"
    )


def test_simulate_help_shows_an_example(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "ligretto simulate --players 4 --seed 1 --out" in capsys.readouterr().out


def test_bench_simulate_prints_rounds_per_second_for_4_and_12_players_and_their_ratio(capsys):
    assert main(["bench", "simulate", "--rounds", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(" 4 players:") and "rounds/s" in lines[0]
    assert lines[1].startswith("12 players:") and "rounds/s" in lines[1]
    assert lines[2].startswith("ratio 4/12 players (CPU):")


def test_bench_simulate_measures_the_bots_of_a_pace(capsys):
    assert main(["bench", "simulate", "--rounds", "2", "--pace", "fast"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "fast pace" in lines[0] and "fast pace" in lines[1]


def test_bench_without_a_target_lists_the_benchmarks(capsys):
    assert main(["bench"]) == 2
    assert "simulate" in capsys.readouterr().out

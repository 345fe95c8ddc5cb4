"""The session runner on a scripted round filmed into a real MP4, read through the oracle (exact labels)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from referee.events import IllegalPlay, RoundScored, read_events
from referee.referee_eval import score_round
from referee.scripted_clip import camera, film, two_player_round
from referee.session import ExitCode, OracleVision, Session, SessionSettings
from vision.geometry import TableGeometry
from vision.sources import Frame, VideoSource


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return film(two_player_round(), tmp_path_factory.mktemp("clip") / "round.mp4")


def _replay(clip: dict[str, Path], settings: SessionSettings | None = None, frames=None, **kwargs):
    vision = OracleVision.load(clip["frames"])
    with VideoSource(clip["video"]) as source:
        samples = list(vision.label_frames())[::10]
        return Session(vision, settings).run(source, frames=frames or source.frames(), samples=samples, **kwargs)


def test_the_oracle_replay_recovers_every_play_ruling_and_score(clip):
    result = _replay(clip)
    truth = list(read_events(clip["events"]))
    metrics = score_round(truth, [(e.event, e.said_t) for e in result.emitted])
    assert (metrics.plays.recall, metrics.plays.precision) == (1.0, 1.0)
    assert (metrics.illegal.recall, metrics.illegal.precision) == (1.0, 1.0)
    assert metrics.players_exact == metrics.players == 2
    assert all(latency <= 0.5 for latency in metrics.latencies)
    assert result.exit_code is ExitCode.OK and result.unreadable == 0


def test_the_table_plane_is_found_from_the_cards(clip):
    result = _replay(clip)
    truth = camera()
    assert result.geometry is not None and result.geometry.source == "cards"
    table = np.array([[-100.0, 0.0], [100.0, 10.0], [0.0, 190.0]])
    found = result.geometry.to_table(truth.project(table))
    distances = np.linalg.norm(found[:, None] - found[None], axis=-1)
    true_distances = np.linalg.norm(table[:, None] - table[None], axis=-1)
    assert distances == pytest.approx(true_distances, abs=1.0)
    assert result.geometry.zones.contains_centre((100.0, 10.0))
    assert not result.geometry.zones.contains_centre((0.0, 200.0))  # the leftovers lie outside the centre


def test_unreadable_frames_are_skipped_and_counted(clip):
    with VideoSource(clip["video"]) as source:
        frames = [f if f.index not in (33, 34, 71) else Frame(f.index, f.t, None) for f in source.frames()]
    result = _replay(clip, frames=frames)
    assert result.unreadable == 3
    assert isinstance(result.scored, RoundScored) and result.scored.scores == {"blue-blue": 2, "red-red": -1}


def test_a_manual_calibration_replaces_the_fit(clip):
    table = [(-200.0, -150.0), (200.0, -150.0), (200.0, 150.0), (-200.0, 150.0)]
    manual = TableGeometry.from_points(camera().project(np.array(table)), table, source="manual")
    result = _replay(clip, SessionSettings(geometry=manual))
    assert result.geometry is manual
    assert [e.event.placement.x for e in result.emitted if e.event.type == "stack_started"] == pytest.approx(
        [-100.0, 100.0], abs=0.5
    )


def test_the_stop_signal_makes_later_cards_after_stop(clip):
    result = _replay(clip, SessionSettings(stop_at=5.0))
    stop = result.stopped
    assert stop is not None and stop.reason == "signal" and stop.t == 5.0
    late = [e.event for e in result.emitted if isinstance(e.event, IllegalPlay) and e.event.t > 5.0]
    assert {(str(e.card), e.reason) for e in late} == {("b2", "after_stop"), ("r3", "after_stop")}


@pytest.mark.parametrize("stride", [2, 3])
def test_reading_every_kth_frame_still_recovers_the_plays(clip, stride):
    result = _replay(clip, SessionSettings(stride=stride))
    metrics = score_round(list(read_events(clip["events"])), [(e.event, e.said_t) for e in result.emitted])
    assert metrics.plays.recall == 1.0 and metrics.plays.precision == 1.0
    assert result.frames_seen == pytest.approx(result.frames_read / stride, abs=1)


def test_a_referee_that_contradicts_itself_on_one_frame_loses_that_frame_with_a_warning_not_the_round(
    clip, monkeypatch: pytest.MonkeyPatch
):
    from referee.errors import CentreError
    from referee.tracker.referee_session import Referee

    update = Referee.update

    def fails_once(self, frame, **kwargs):
        if frame is not None and frame.frame == 40:
            raise CentreError("there is no illegal r7 on stack 9 to take back")
        return update(self, frame, **kwargs)

    monkeypatch.setattr(Referee, "update", fails_once)
    result = _replay(clip)
    assert [w for w in result.warnings if "lost track" in w] == [
        "the referee lost track at 1.3 s (there is no illegal r7 on stack 9 to take back); that frame's rulings "
        "were skipped"
    ]
    assert isinstance(result.scored, RoundScored)

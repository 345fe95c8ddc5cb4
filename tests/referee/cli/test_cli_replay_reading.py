"""Which frames ``ligretto replay`` reads: still frames reuse the last reading with the detector by default."""

from __future__ import annotations

from pathlib import Path

import pytest

import referee.replay_files
from referee.cli.main import main
from referee.session import ExitCode, SessionResult
from vision.sources import VideoInfo


@pytest.mark.parametrize(
    ("flags", "skip_still"),
    [
        ([], True),  # the detector: a still centre reuses the last reading
        (["--every-frame"], False),
        (["--every-frame", "--skip-still"], False),  # reading every frame wins
        (["--oracle"], False),  # the labels cost nothing to read
        (["--oracle", "--skip-still"], True),
        (["--oracle-boxes"], False),
    ],
)
def test_replay_reads_still_frames_only_when_asked(monkeypatch, tmp_path, flags, skip_still):
    asked = []

    def fake_replay(video, out, options, **kwargs):
        asked.append(options.skip_still)
        result = SessionResult(VideoInfo(64, 48, 30.0, 1), "detector", None)
        assert result.exit_code is ExitCode.NO_TABLE
        return result

    monkeypatch.setattr(referee.replay_files, "replay_video", fake_replay)
    main(["replay", str(Path("clip.mp4")), "--out", str(tmp_path), *flags])
    assert asked == [skip_still]

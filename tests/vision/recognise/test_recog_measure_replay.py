"""The recogniser measured on a rendered round's frames against their truth, by how each face's fit turned out."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from vision.recognise.measure_replay import FITS, SAMPLE, lines, measure


def test_the_sample_rounds_faces_are_read_right_through_every_kind_of_fit(shipped_models: None) -> None:
    counts = measure([SAMPLE], every=100, quiet=True)
    assert counts["several cards|read"] > 0 and counts["one card|read"] > 0  # stacks and rows both in view
    read = sum(counts[f"{kind}|read"] for kind in FITS)
    wrong = sum(counts[f"{kind}|wrong"] for kind in FITS)
    assert wrong <= 0.02 * read
    assert lines(counts)[-2].startswith("          all: ")
    assert lines(counts)[-1].startswith("  cut by edge: ")


def test_a_video_without_its_truth_is_refused_with_the_file_named(shipped_models: None, tmp_path: Path) -> None:
    video = tmp_path / "round.mp4"
    shutil.copy(SAMPLE, video)
    with pytest.raises(SystemExit, match=r"round\.frames\.jsonl not found"):
        measure([video], quiet=True)

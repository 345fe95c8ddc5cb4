"""``ligretto detect`` with the shipped model: the JSON Lines contract and unreadable images."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli.main import main
from vision.detect import DEFAULT_MODEL

SAMPLES = Path(__file__).resolve().parents[3] / "datasets" / "samples" / "detector-heldout" / "images"
pytestmark = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped detector model yet")


def first_sample() -> Path:
    return sorted(SAMPLES.glob("*.jpg"))[0]


def test_detect_json_follows_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["detect", str(first_sample()), "--json"]) == 0
    (line,) = capsys.readouterr().out.strip().splitlines()
    record = json.loads(line)
    assert (record["image"], record["width"], record["height"]) == (str(first_sample()), 1280, 720)
    assert record["cards"], "the sample scene has cards"
    for card in record["cards"]:
        assert set(card) == {"kind", "colour", "number", "back", "corners", "confidence"}
        assert card["kind"] in ("face", "back")
        assert len(card["corners"]) == 4 and all(len(xy) == 2 for xy in card["corners"])
        assert 0.35 <= card["confidence"] <= 1.0  # thorough by default: the fused votes' operating confidence
        assert card["colour"] in (None, "red", "yellow", "green", "blue")
        assert card["number"] is None or 1 <= card["number"] <= 10


def test_an_unreadable_image_is_named_and_the_others_still_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a picture")
    code = main(["detect", str(broken), str(first_sample()), str(tmp_path / "missing.png"), "--json"])
    out, err = capsys.readouterr()
    assert code != 0
    assert len(out.strip().splitlines()) == 1
    assert f"cannot read image {broken}" in err
    assert "missing.png: no such file" in err
    assert "Traceback" not in err


def test_summary_without_json_names_each_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["detect", str(first_sample())]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert "cards (" in lines[0]
    assert all(line.startswith("  face") or line.startswith("  back") for line in lines[1:])


def test_a_model_file_that_is_not_onnx_gets_one_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkpoint = tmp_path / "best.pt"
    checkpoint.write_bytes(b"PK\x03\x04 not an onnx graph")
    assert main(["detect", str(first_sample()), "--model", str(checkpoint)]) != 0
    err = capsys.readouterr().err
    assert "is not an ONNX detector model" in err and "--backend ultralytics" in err
    assert "Traceback" not in err

"""The training path end to end: data, a resumable epoch, ONNX export that the runtime reads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from referee.cli.main import main
from vision.recognise.backs import BackEmbedder
from vision.recognise.faces import FaceReader
from vision.recognise.train import TrainConfig, tiny, train


def test_tiny_face_model_reads_a_batch_of_any_size(tiny_models: Path) -> None:
    reader = FaceReader(tiny_models / "recogniser-faces.onnx")
    reading = reader.read(np.zeros((3, 96, 64, 3), np.uint8))
    assert reading.colour.shape == reading.number.shape == reading.face.shape == (3,)
    assert set(reading.number.tolist()) <= set(range(1, 11))
    assert np.allclose(reading.colour_probabilities.sum(1), 1, atol=1e-4)
    assert len(reader.read(np.zeros((0, 96, 64, 3), np.uint8)).colour) == 0


def test_tiny_back_model_embeds_to_unit_vectors_the_same_either_way_up(tiny_models: Path) -> None:
    embedder = BackEmbedder(tiny_models / "recogniser-backs.onnx")
    crops = np.random.default_rng(0).integers(0, 255, (2, 96, 64, 3), np.uint8)
    vectors = embedder.embed(crops)
    turned = embedder.embed(np.ascontiguousarray(crops[:, ::-1, ::-1]))
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert np.allclose(vectors, turned, atol=1e-5)


def test_rerun_resumes_from_the_checkpoint(tmp_path: Path) -> None:
    lines: list[str] = []
    config = tiny(TrainConfig.for_part("faces"))
    train(config, tmp_path, cache=tmp_path / "cache", log=lines.append)
    train(config, tmp_path, cache=tmp_path / "cache", log=lines.append)
    assert any("resuming after epoch 1" in line for line in lines)
    assert sum("made 64 crops" in line for line in lines) == 1  # the crops were cached, not made twice


def test_cli_tiny_training_writes_both_models(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["train", "recogniser", "--tiny", "--out", str(tmp_path), "--cache", str(tmp_path / "c")])
    assert code == 0
    assert (tmp_path / "recogniser-faces.onnx").stat().st_size < 5_000_000
    assert (tmp_path / "recogniser-backs.onnx").exists()
    assert "recogniser-backs.onnx" in capsys.readouterr().out

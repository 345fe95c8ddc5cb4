"""Continuing an exported recogniser: its weights load back exactly, and a short run exports a usable model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from vision.recognise.backs import BackEmbedder
from vision.recognise.faces import FaceReader
from vision.recognise.finetune import FinetuneConfig, finetune, load_onnx
from vision.recognise.nets import BackNet, FaceNet
from vision.recognise.train import TrainConfig, tiny


def _crops(n: int = 4) -> np.ndarray:
    return np.random.default_rng(3).integers(0, 255, (n, 96, 64, 3), np.uint8)


def _torch_input(crops: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(crops.transpose(0, 3, 1, 2))).float()


def test_face_weights_loaded_from_onnx_give_the_exported_probabilities(tiny_models: Path) -> None:
    path = tiny_models / "recogniser-faces.onnx"
    net = load_onnx(FaceNet(probabilities=True), path).eval()
    with torch.no_grad():
        colour, number, face = net(_torch_input(_crops()))
    reading = FaceReader(path).read(_crops())
    assert np.allclose(colour.numpy(), reading.colour_probabilities, atol=1e-5)
    assert np.allclose(number.numpy(), reading.number_probabilities, atol=1e-5)
    assert np.allclose(face.numpy()[:, 0], reading.face, atol=1e-5)


def test_back_weights_loaded_from_onnx_give_the_exported_embedding(tiny_models: Path) -> None:
    path = tiny_models / "recogniser-backs.onnx"
    net = load_onnx(BackNet(3), path).eval()
    embedder = BackEmbedder(path)
    with torch.no_grad():
        vectors = net(_torch_input(_crops())).numpy()
    (exported,) = embedder.session.run(None, {embedder.input_name: _torch_input(_crops()).numpy()})
    assert np.allclose(vectors, exported, atol=1e-5)


@pytest.mark.parametrize("part", ["faces", "backs"])
def test_a_short_finetune_exports_a_model_the_runtime_reads(tiny_models: Path, tmp_path: Path, part: str) -> None:
    config = FinetuneConfig(part=part, epochs=1, extra=32, batch=16, styles=1, designs=2)
    lines: list[str] = []
    path = finetune(config, tiny_models / f"recogniser-{part}.onnx", tmp_path, tmp_path / "cache", lines.append,
                    first=tiny(TrainConfig.for_part(part)))  # fmt: skip
    assert path == tmp_path / f"recogniser-{part}.onnx"
    assert any("made 32 extra crops" in line for line in lines)
    load_onnx(FaceNet() if part == "faces" else BackNet(3), path)  # a fine-tuned model can be continued again
    if part == "faces":
        assert len(FaceReader(path).read(_crops()).colour) == 4
    else:
        assert np.allclose(np.linalg.norm(BackEmbedder(path).embed(_crops()), axis=1), 1, atol=1e-5)

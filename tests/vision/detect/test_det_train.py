"""The training path runs end to end, offline: 8 tiny images, 1 epoch at 160 px, export, ONNX inference."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detect.geometry import obb_to_quads
from vision.detect.onnx_detector import OnnxDetector
from vision.detect.train import TrainSettings, train_detector


def write_tiny_obb_dataset(root: Path, images: int = 8, size: int = 160) -> Path:
    """Coloured portrait rectangles (faces) and striped ones (backs) on grey, in ultralytics OBB layout."""
    rng = np.random.default_rng(7)
    for split in ("train", "val"):
        (root / "images" / split).mkdir(parents=True)
        (root / "labels" / split).mkdir(parents=True)
    for i in range(images):
        image = np.full((size, size, 3), 90, np.uint8)
        rows = []
        for kind in (0, 1):
            cx, cy = rng.uniform(40, size - 40, 2)
            quad = obb_to_quads([[cx, cy, 30, 46, rng.uniform(0, np.pi)]])[0]
            colour = (0, 0, 220) if kind == 0 else (240, 240, 240)
            cv2.fillConvexPoly(image, quad.astype(np.int32), colour)
            rows.append(f"{kind} " + " ".join(f"{v / size:.5f}" for v in quad.reshape(-1)))
        for split in ("train", "val"):
            cv2.imwrite(str(root / "images" / split / f"{i}.png"), image)
            (root / "labels" / split / f"{i}.txt").write_text("\n".join(rows) + "\n")
    yaml = root / "dataset.yaml"
    yaml.write_text(f"path: {root}\ntrain: images/train\nval: images/val\nnames:\n  0: face\n  1: back\n")
    return yaml


@pytest.mark.slow
def test_one_epoch_trains_exports_and_runs_in_onnxruntime(tmp_path: Path) -> None:
    data = write_tiny_obb_dataset(tmp_path / "data")
    settings = TrainSettings(
        data=data,
        epochs=1,
        imgsz=160,
        export_width=None,
        batch=8,
        workers=0,
        cache=False,
        runs_dir=tmp_path / "runs",
        out=tmp_path / "detector.onnx",
    )
    result = train_detector(settings)
    assert result.checkpoint.is_file()
    detector = OnnxDetector(result.onnx, conf=0.0)
    assert detector.input_size == (96, 160)
    detections = detector(cv2.imread(str(data.parent / "images" / "val" / "0.png")))
    assert detections.corners.shape[1:] == (4, 2)
    assert set(np.unique(detections.kind)) <= {0, 1}


def test_importing_ultralytics_through_the_adapter_sets_offline_mode() -> None:
    code = (
        "import os; from vision.detect.ultralytics_adapter import import_ultralytics, CACHE_DIR; "
        "import_ultralytics(); "
        "assert os.environ['YOLO_OFFLINE'] == '1'; "
        "assert os.environ['YOLO_CONFIG_DIR'] == str(CACHE_DIR); "
        "from ultralytics.utils import SETTINGS_FILE; "
        "assert str(SETTINGS_FILE).startswith(str(CACHE_DIR)), SETTINGS_FILE"
    )
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("YOLO_")}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


def test_training_runs_on_the_cpu_unless_a_device_is_named() -> None:
    on_cpu = TrainSettings(data=Path("d.yaml")).ultralytics_arguments()
    on_gpu = TrainSettings(data=Path("d.yaml"), device="0").ultralytics_arguments()
    assert (on_cpu["device"], on_gpu["device"]) == ("cpu", "0")


def test_the_train_command_passes_its_device_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import vision.detect.train as train
    from referee.cli.main import main

    seen: list[TrainSettings] = []

    def record(settings: TrainSettings, resume: bool = False) -> train.TrainResult:
        seen.append(settings)
        return train.TrainResult(checkpoint=tmp_path / "best.pt", onnx=tmp_path / "detector.onnx")

    monkeypatch.setattr(train, "train_detector", record)
    data = tmp_path / "data.yaml"
    data.write_text("path: .\n")
    assert main(["train", "detector", "--data", str(data), "--tile", "0", "--device", "0"]) == 0
    assert seen[0].device == "0"

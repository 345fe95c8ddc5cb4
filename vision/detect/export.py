"""Exporting a trained detector checkpoint to the ONNX file the runtime ships with, and checking it runs.

export_detector(Path("runs/detector/train/weights/best.pt"), Path("models/detector.onnx"), (384, 640))
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from vision.detect import ultralytics_adapter as yolo
from vision.detect.onnx_detector import OnnxDetector


def export_detector(checkpoint: Path, out: Path, imgsz: tuple[int, int], end2end: bool = True) -> Path:
    """Writes ``checkpoint`` as ONNX (nominal input ``imgsz`` = height, width) to ``out``; returns ``out``.

    The file is loaded back with onnxruntime and run once on a blank frame, so a broken export fails here
    rather than in the first ``ligretto detect``.
    """
    written = yolo.export_onnx(checkpoint, imgsz, end2end=end2end)
    out.parent.mkdir(parents=True, exist_ok=True)
    if written.resolve() != out.resolve():
        shutil.copyfile(written, out)
    detector = OnnxDetector(out)
    if detector.input_size != imgsz:
        raise RuntimeError(f"exported model has input {detector.input_size}, expected {imgsz}")
    detector(np.full((imgsz[0], imgsz[1], 3), 114, np.uint8))
    return out

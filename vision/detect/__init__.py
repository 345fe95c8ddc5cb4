"""The card detector: every card on the table as an oriented quad, face or back.

Inference runs through onnxruntime (:class:`OnnxDetector`, the default); ultralytics stays available as a
backend (:mod:`vision.detect.ultralytics_adapter`, the only module touching its objects). Training and
export live in :mod:`vision.detect.train` and :mod:`vision.detect.export`.

    detector = load_detector()                  # models/detector.onnx
    detections = detector(cv2.imread("table.jpg"))
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.detect.onnx_detector import DEFAULT_MODEL, Letterbox, OnnxDetector
from vision.detections import CardDetections

Detector = Callable[[npt.NDArray[np.uint8]], CardDetections]
BACKENDS = ("onnx", "ultralytics")

__all__ = ["BACKENDS", "DEFAULT_MODEL", "Detector", "Letterbox", "OnnxDetector", "load_detector"]


def load_detector(
    backend: str = "onnx", model: str | Path | None = None, conf: float = 0.4, threads: int | None = None
) -> Detector:
    """A detector callable (BGR image -> CardDetections) for ``backend``; ``threads``: onnxruntime's threads
    (None: one per core).

    The ultralytics backend reads a ``.pt`` checkpoint or the ONNX file itself (ultralytics runs ONNX too).
    """
    if backend == "onnx":
        return OnnxDetector(model or DEFAULT_MODEL, conf=conf, threads=threads)
    if backend == "ultralytics":
        from vision.detect.ultralytics_adapter import UltralyticsDetector

        path = Path(model or DEFAULT_MODEL)
        imgsz = OnnxDetector(path).input_size if path.suffix == ".onnx" else 640
        return UltralyticsDetector(path, conf=conf, imgsz=imgsz)
    raise ValueError(f"unknown detector backend {backend!r}: expected one of {', '.join(BACKENDS)}")

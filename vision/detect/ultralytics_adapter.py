"""The one module that touches ultralytics: offline set-up, training, ONNX export and prediction.

Nothing else in the project imports ultralytics or handles its objects; results are turned into
:class:`vision.detections.CardDetections` here (``from_ultralytics``), the way supervision's adapters work.
Ultralytics reads ``YOLO_OFFLINE`` and ``YOLO_CONFIG_DIR`` when it is first imported, so every entry point
goes through :func:`import_ultralytics`, which sets them first: no settings file in the home directory, no
download attempt (fonts, AMP check weights, hub) ever.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.detect.geometry import obb_to_quads
from vision.detections import CardDetections

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CACHE_DIR = PROJECT_ROOT / ".cache" / "ultralytics"


def import_ultralytics() -> ModuleType:
    """Imports ultralytics with its config directory in the project's git-ignored cache and offline mode on."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ.setdefault("YOLO_CONFIG_DIR", str(CACHE_DIR))
    import ultralytics

    return ultralytics


def new_or_checkpoint(model: str | Path) -> Any:
    """A YOLO model: built from a model yaml (random weights, never downloaded) or loaded from a local .pt."""
    yolo = import_ultralytics().YOLO
    text = str(model)
    if text.endswith(".pt") and not Path(text).is_file():
        raise FileNotFoundError(f"no checkpoint {text}: train one, or pass a model yaml such as yolo26n-obb.yaml")
    return yolo(text, task="obb")


def loader_keeping_trainer() -> type:
    """ultralytics' OBB trainer, except that it keeps the data-loading processes asked for on a CPU.

    ultralytics sets ``workers = 0`` on CPUs ("time dominated by inference"); for this small model on 320 px
    mosaics it is not: with the augmentation in the training process, one of the two cores sat idle
    (measured: load 1.05, 1.9 batches/s).
    """
    from ultralytics.models.yolo.obb import OBBTrainer

    class LoaderKeepingTrainer(OBBTrainer):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            overrides = kwargs.get("overrides") or (args[1] if len(args) > 1 else None) or {}
            if overrides.get("workers") is not None:
                self.args.workers = int(overrides["workers"])

    return LoaderKeepingTrainer


def train(model: str | Path, resume: bool, **settings: Any) -> Path:
    """Trains (or resumes) and returns the best checkpoint's path."""
    yolo = new_or_checkpoint(model)
    trainer = loader_keeping_trainer()
    if resume:
        yolo.train(resume=True, trainer=trainer)
    else:
        yolo.train(trainer=trainer, **settings)
    trainer = yolo.trainer
    best = Path(trainer.best)
    return best if best.is_file() else Path(trainer.last)


def export_onnx(checkpoint: Path, imgsz: tuple[int, int], end2end: bool = True, opset: int = 17) -> Path:
    """Exports ``checkpoint`` to ONNX for an input of (height, width), with dynamic axes (any multiple of the
    stride runs; :class:`~vision.detect.onnx_detector.OnnxDetector` reads part of a frame at the frame's scale
    through them, and the same numbers come out at the nominal size); returns the written file.

    ``end2end`` keeps YOLO26's NMS-free one-to-one head (output ``(1, 300, 7)``: box, score, class, angle),
    so the runtime needs no rotated NMS.
    """
    yolo = new_or_checkpoint(checkpoint)
    written = yolo.export(
        format="onnx", imgsz=list(imgsz), opset=opset, simplify=True, dynamic=True, nms=False if end2end else None
    )
    return Path(written)


class UltralyticsDetector:
    """Card detection through ultralytics ``predict`` (the reference the ONNX runtime is measured against)."""

    def __init__(self, weights: str | Path, conf: float = 0.4, imgsz: int | tuple[int, int] = 640) -> None:
        self.model = new_or_checkpoint(weights)
        self.conf = conf
        self.imgsz = imgsz

    def __call__(self, image: npt.NDArray[np.uint8]) -> CardDetections:
        """Detects the cards in one BGR image."""
        results = self.model.predict(image, conf=self.conf, imgsz=self.imgsz, verbose=False)
        return from_ultralytics(results[0])


def from_ultralytics(result: Any) -> CardDetections:
    """Converts one ultralytics OBB ``Results`` into CardDetections (identities unknown)."""
    obb = getattr(result, "obb", None)
    if obb is None or len(obb) == 0:
        return CardDetections.empty()
    xywhr = obb.xywhr.cpu().numpy()
    return CardDetections.from_quads(
        obb_to_quads(xywhr), kind=obb.cls.cpu().numpy().astype(np.int8), confidence=obb.conf.cpu().numpy()
    )

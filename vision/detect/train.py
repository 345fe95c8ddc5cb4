"""Training the card detector: YOLO OBB from scratch on rendered scenes, then ONNX into ``models/``.

One call does the whole job, and can be resumed from the last checkpoint if it is interrupted:

    result = train_detector(TrainSettings(data=Path("datasets/generated/train/dataset.yaml")))
    result.onnx  # models/detector.onnx

The model starts from a model yaml (random weights: nothing is downloaded) and trains with an explicit
optimizer and learning rate, because ``optimizer=auto`` picks a tiny rate for short runs. Mixed precision and
plots stay off: both would try to fetch files (AMP check weights, a font) on a machine without network.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

from vision.detect import ultralytics_adapter as yolo
from vision.detect.export import export_detector

RUNS_DIR = yolo.PROJECT_ROOT / "runs" / "detector"
DEFAULT_ONNX = yolo.PROJECT_ROOT / "models" / "detector.onnx"
MODEL_YAML = Path(__file__).resolve().parent / "models" / "yolo26p-obb.yaml"
FRAME_ASPECT = 720 / 1280  # the camera frames the detector is sized for


@dataclass(frozen=True)
class TrainSettings:
    """Everything a training run depends on; the defaults are the shipped model's."""

    data: Path
    model: str = str(MODEL_YAML)
    epochs: int = 60
    imgsz: int = 320  # tiles of scenes at the inference scale (see vision.detect.tiles)
    batch: int = 16
    hours: float | None = None  # a time budget: ultralytics then fits the epochs (and the LR schedule) into it
    optimizer: str = "AdamW"
    lr0: float = 0.002
    close_mosaic: int = 2
    workers: int = 2
    threads: int | None = None  # torch threads; None: one per core
    export_width: int | None = 640  # network input width of the ONNX file; None: imgsz (see export_size)
    cache: bool = True
    seed: int = 0
    device: str = "cpu"  # "cpu", or a CUDA device such as "0" where torch sees one
    run_name: str = "train"
    runs_dir: Path = RUNS_DIR
    out: Path = DEFAULT_ONNX

    @property
    def run_dir(self) -> Path:
        return self.runs_dir / self.run_name

    @property
    def last_checkpoint(self) -> Path:
        return self.run_dir / "weights" / "last.pt"

    @property
    def warm_start(self) -> bool:
        """Whether training continues from one of our own checkpoints rather than random weights."""
        return str(self.model).endswith(".pt")

    def export_size(self) -> tuple[int, int]:
        """Network input (height, width) for 16:9 frames, the height rounded up to the stride (32).

        Trained on tiles cut at the inference scale, the model runs on whole frames at ``export_width``.

        >>> TrainSettings(data=Path("d.yaml"), imgsz=320, export_width=640).export_size()
        (384, 640)
        >>> TrainSettings(data=Path("d.yaml"), imgsz=160, export_width=None).export_size()
        (96, 160)
        """
        width = self.export_width or self.imgsz
        return (math.ceil(width * FRAME_ASPECT / 32) * 32, width)

    def ultralytics_arguments(self) -> dict[str, object]:
        return {
            "data": str(self.data),
            "epochs": self.epochs,
            "imgsz": self.imgsz,
            "batch": self.batch,
            "time": self.hours,
            "optimizer": self.optimizer,
            "lr0": self.lr0,
            "close_mosaic": self.close_mosaic,
            # A warm start from our own checkpoint skips the warm-up: its bias LR ramp (0.1 down to lr0) would
            # first undo what the checkpoint learnt.
            "warmup_epochs": 0 if self.warm_start else 1,
            "workers": self.workers,
            "cache": "ram" if self.cache else False,
            "seed": self.seed,
            "project": str(self.runs_dir),
            "name": self.run_name,
            "exist_ok": True,
            "device": self.device,
            "amp": False,
            "plots": False,
            "deterministic": False,
            # From a yaml: random weights. From one of our own .pt checkpoints: keep its weights (ultralytics
            # discards them when pretrained=False, which made a "continue from stage 1" run start over).
            "pretrained": self.warm_start,
            "patience": 0,
            "verbose": True,
            # Top-down table views: any rotation and flip is a valid scene. Cards are already rendered at
            # every angle, so no extra rotation; a milder scale range keeps the smallest cards visible.
            "degrees": 0.0,
            "fliplr": 0.5,
            "flipud": 0.5,
            "scale": 0.3,
            "hsv_h": 0.01,
        }


def tiled_dataset(data: Path, tile: int, per_image: int = 1, seed: int = 0) -> Path:
    """Cuts the dataset of ``data`` (a yaml naming its root as ``path``) into ``tile`` px training tiles.

    The tiles go next to the source (``ROOT-tTILE``); returns their dataset yaml. See :mod:`vision.detect.tiles`.
    """
    import yaml

    from vision.detect.tiles import write_tiles

    config = yaml.safe_load(data.read_text(encoding="utf-8"))
    root = Path(config.get("path") or data.parent)
    out = root.parent / f"{root.name}-t{tile}"
    write_tiles(root, out, tile=tile, per_image=per_image, seed=seed)
    return out / "dataset.yaml"


@dataclass(frozen=True)
class TrainResult:
    checkpoint: Path
    onnx: Path


def train_detector(settings: TrainSettings, resume: bool = False) -> TrainResult:
    """Trains (or resumes) the detector, then exports the best checkpoint to ``settings.out``."""
    if resume and not settings.last_checkpoint.is_file():
        raise FileNotFoundError(f"nothing to resume: no checkpoint at {settings.last_checkpoint}")
    if not resume and not settings.data.is_file():
        raise FileNotFoundError(f"no dataset file {settings.data}: write one with 'ligretto synth images'")
    _set_threads(settings.threads or os.cpu_count() or 1)
    if resume:
        best = yolo.train(settings.last_checkpoint, resume=True)
    else:
        best = yolo.train(settings.model, resume=False, **settings.ultralytics_arguments())
    onnx = export_detector(best, settings.out, settings.export_size())
    return TrainResult(checkpoint=best, onnx=onnx)


def _set_threads(threads: int) -> None:
    # One per core by default; on a machine shared with other jobs, fewer threads avoid OpenMP workers
    # spinning at barriers while their siblings wait to be scheduled (measured: 1 thread trained faster
    # than 2 with the other helpers' jobs running).
    import torch

    torch.set_num_threads(threads)
    # ultralytics' select_device() resets torch to its own NUM_THREADS (cores - 1, so 1 on this machine) when
    # training starts; set its module global too, or the count asked for here is silently undone.
    from vision.detect.ultralytics_adapter import import_ultralytics

    import_ultralytics()
    from ultralytics.utils import torch_utils

    torch_utils.NUM_THREADS = threads

"""Training the recogniser's two networks on rendered crops, resumable, and exporting them to ONNX.

Crops are generated once per seed in chunks cached under ``.cache/recogniser/`` (git-ignored), so an
interrupted run picks up where it stopped; the network state is checkpointed after every epoch and a rerun
with the same settings resumes from it. ``ligretto train recogniser`` is the command line for this module.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional

from vision.recognise.augment import CameraSettings
from vision.recognise.backs import BackEmbedder, default_prototypes
from vision.recognise.data import (
    BACK_LABEL,
    TRAIN_BACK_DESIGNS,
    TRAIN_SEED,
    Crops,
    back_looks,
    back_renders,
    default_back_looks,
    face_renders,
    photograph,
)
from vision.recognise.nets import BackNet, FaceNet

CHUNK = 2000
Log = Callable[[str], None]


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides a trained model; two runs with equal configs make equal data."""

    part: str = "faces"  # "faces" or "backs"
    epochs: int = 12
    samples: int = 24000
    batch: int = 128
    learning_rate: float = 3e-3
    seed: int = TRAIN_SEED
    styles: int = 24  # face styles (faces) or renders per design (backs)
    designs: int = TRAIN_BACK_DESIGNS  # random back designs besides the 12 defaults (backs)
    threads: int = 2

    @classmethod
    def for_part(cls, part: str) -> TrainConfig:
        """The shipped settings of ``part``: backs need fewer renders per design (only wear and sheen vary)."""
        return cls(part=part) if part == "faces" else cls(part=part, styles=8)

    def key(self) -> str:
        """Names the cached data: only settings that change the data."""
        return f"{self.part}-s{self.seed}-n{self.styles}-d{self.designs if self.part == 'backs' else 0}"


def training_data(config: TrainConfig, cache: Path, log: Log = print) -> Crops:
    """The config's crops, generated chunk by chunk and cached (a rerun only makes the missing chunks)."""
    return cached_crops(
        cache,
        config.key(),
        config.samples,
        config.seed,
        lambda: _renders(config, log),
        CameraSettings(),
        log,
        config.part,
    )


def cached_crops(
    cache: Path,
    key: str,
    total: int,
    seed: int,
    renders: Callable[[], tuple[list, list]],
    camera: CameraSettings,
    log: Log,
    part: str,
    noun: str = "crops",
) -> Crops:
    """``total`` camera crops of ``renders()`` (made only if a chunk is missing), in chunks of ``CHUNK`` cached
    under ``cache`` as ``KEY-cINDEX-COUNT.npz``; chunk ``i`` draws from the generator seeded ``[seed, i, 5]``."""
    cache.mkdir(parents=True, exist_ok=True)
    chunks = []
    made: tuple[list, list] | None = None
    for index in range((total + CHUNK - 1) // CHUNK):
        count = min(CHUNK, total - index * CHUNK)
        path = cache / f"{key}-c{index}-{count}.npz"
        if not path.exists():
            made = made or renders()
            started = time.perf_counter()
            rng = np.random.default_rng([seed, index, 5])
            crops = photograph(made[0], count, rng, occluders=made[1], settings=camera)
            np.savez(path.with_suffix(".tmp.npz"), images=crops.images, label=crops.label, visible=crops.visible)
            path.with_suffix(".tmp.npz").replace(path)
            log(f"{part}: made {count} {noun} ({path.name}) in {time.perf_counter() - started:.0f} s")
        with np.load(path) as data:
            chunks.append(Crops(data["images"], data["label"], data["visible"]))
    return Crops.join(chunks)


def _renders(config: TrainConfig, log: Log) -> tuple[list, list]:
    """(labelled renders to photograph, occluder images) for the config's part."""
    started = time.perf_counter()
    if config.part == "faces":
        faces = face_renders(config.seed, config.styles)
        looks = default_back_looks() + back_looks(range(config.seed * 1000, config.seed * 1000 + 4 * config.styles))
        backs = [(BACK_LABEL, art) for _, art in back_renders(looks, 2, config.seed)]
        labelled, occluders = faces + backs, [art for _, art in faces[::3]] + [art for _, art in backs]
    else:
        looks = default_back_looks() + back_looks(range(config.designs))
        labelled = back_renders(looks, config.styles, config.seed)
        faces = face_renders(config.seed + 1, 1)
        occluders = [art for _, art in faces] + [art for _, art in labelled[:: config.styles * 4]]
    log(f"{config.part}: rendered {len(labelled)} cards in {time.perf_counter() - started:.0f} s")
    return labelled, occluders


def classes(config: TrainConfig) -> int:
    return 40 if config.part == "faces" else len(default_back_looks()) + config.designs


def train(config: TrainConfig, out_dir: Path, cache: Path = Path(".cache/recogniser"), log: Log = print) -> Path:
    """Trains (resuming a checkpoint of the same config) and exports ``recogniser-<part>.onnx`` to ``out_dir``."""
    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    data = training_data(config, cache, log)
    model: nn.Module = FaceNet() if config.part == "faces" else BackNet(classes(config))
    steps_per_epoch = max(1, len(data.label) // config.batch)
    optimiser = torch.optim.AdamW(model.parameters(), lr=config.learning_rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, config.learning_rate, total_steps=config.epochs * steps_per_epoch, pct_start=0.15
    )
    checkpoint = cache / f"{config.key()}-train.ckpt"
    first_epoch = _resume(checkpoint, config, model, optimiser, schedule, log)
    rng = np.random.default_rng([config.seed, 99])
    for epoch in range(first_epoch, config.epochs):
        started = time.perf_counter()
        loss, accuracy = _epoch(model, optimiser, schedule, data, config, rng, steps_per_epoch)
        log(
            f"{config.part}: epoch {epoch + 1}/{config.epochs} loss {loss:.4f} train accuracy {accuracy:.4f} "
            f"({time.perf_counter() - started:.0f} s)"
        )
        state = {"config": asdict(config), "epoch": epoch + 1, "model": model.state_dict(),
                 "optimiser": optimiser.state_dict(), "schedule": schedule.state_dict()}  # fmt: skip
        torch.save(state, checkpoint)
    return export(model, config, out_dir, log)


def _resume(checkpoint: Path, config: TrainConfig, model: nn.Module, optimiser, schedule, log: Log) -> int:
    if not checkpoint.exists():
        return 0
    state = torch.load(checkpoint, weights_only=False)
    if _settings(state["config"]) != _settings(asdict(config)):
        log(f"{config.part}: checkpoint {checkpoint.name} is for other settings; starting afresh")
        return 0
    model.load_state_dict(state["model"])
    optimiser.load_state_dict(state["optimiser"])
    schedule.load_state_dict(state["schedule"])
    log(f"{config.part}: resuming after epoch {state['epoch']}")
    return int(state["epoch"])


def _settings(config: dict[str, object]) -> dict[str, object]:
    """What must match to resume: everything but the thread count (which does not change the result)."""
    return {k: v for k, v in config.items() if k != "threads"}


def _epoch(model, optimiser, schedule, data: Crops, config: TrainConfig, rng, steps: int) -> tuple[float, float]:
    model.train()
    order = rng.permutation(len(data.label))
    total_loss, correct, seen = 0.0, 0, 0
    for step in range(steps):
        index = np.sort(order[step * config.batch : (step + 1) * config.batch])
        images = data.images[index]
        turn = rng.random(len(index)) < 0.5  # a 180 degree turn never changes who a card is
        images[turn] = images[turn, ::-1, ::-1]
        x = _jitter(torch.from_numpy(np.ascontiguousarray(images.transpose(0, 3, 1, 2))).float(), rng)
        y = torch.from_numpy(data.label[index])
        loss, hits = _loss(model, x, y)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        total_loss += loss.item() * len(index)
        correct += hits
        seen += len(index)
    return total_loss / max(1, seen), correct / max(1, seen)


def _jitter(x: torch.Tensor, rng: np.random.Generator) -> torch.Tensor:
    """Cheap extra variety on top of the cached crops: per-channel gain and a small shift, scale and turn."""
    n = x.shape[0]
    gain = torch.from_numpy(rng.uniform(0.8, 1.2, (n, 3, 1, 1)).astype(np.float32))
    angle = torch.from_numpy(rng.normal(0, 0.03, n).astype(np.float32))
    scale = torch.from_numpy(rng.uniform(0.93, 1.07, n).astype(np.float32))
    shift = torch.from_numpy(rng.normal(0, 0.03, (n, 2)).astype(np.float32))
    cos, sin = torch.cos(angle) * scale, torch.sin(angle) * scale
    theta = torch.stack([torch.stack([cos, -sin, shift[:, 0]], 1), torch.stack([sin, cos, shift[:, 1]], 1)], 1)
    grid = functional.affine_grid(theta, list(x.shape), align_corners=False)
    moved = functional.grid_sample(x, grid, padding_mode="border", align_corners=False)
    return (moved * gain).clamp(0, 255)


def _loss(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, int]:
    if isinstance(model, FaceNet):
        colour, number, kind = model(x)
        face = y >= 0
        loss = functional.cross_entropy(kind, (~face).long())
        if face.any():
            loss = loss + functional.cross_entropy(colour[face], y[face] // 10)
            loss = loss + functional.cross_entropy(number[face], y[face] % 10)
        right = torch.where(face, (colour.argmax(1) == y // 10) & (number.argmax(1) == y % 10), kind.argmax(1) == 1)
        return loss, int(right.sum())
    assert isinstance(model, BackNet)
    logits = model.cosine_logits(model(x), y)
    return functional.cross_entropy(logits, y), int((logits.argmax(1) == y).sum())


def export(
    model: nn.Module, config: TrainConfig, out_dir: Path, log: Log = print, note: Mapping[str, object] | None = None
) -> Path:
    """Writes the eval-mode network as ONNX with a dynamic batch size, plus a JSON note of its settings."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"recogniser-{config.part}.onnx"
    model.eval()
    if isinstance(model, FaceNet):
        exported: nn.Module = copy.deepcopy(model)  # a copy: a fine-tuned net's layers differ from a fresh one's
        exported.probabilities = True  # type: ignore[assignment]
        names = ["colour", "number", "face"]
    else:
        exported, names = model, ["embedding"]
    exported.eval()
    dummy = torch.zeros(2, 3, 96, 64)
    torch.onnx.export(
        exported, (dummy,), str(path), input_names=["crops"], output_names=names,
        dynamic_axes={"crops": {0: "n"}, **{name: {0: "n"} for name in names}}, opset_version=17, dynamo=False,
    )  # fmt: skip
    note = {"config": asdict(config), **(note or {})}
    if isinstance(model, BackNet):  # rendering the defaults' prototypes once here keeps start-up fast
        note["default_prototypes"] = default_prototypes(BackEmbedder(path, config.threads))
    path.with_suffix(".json").write_text(json.dumps(note) + "\n", encoding="utf-8")
    log(f"{config.part}: wrote {path} ({path.stat().st_size / 1e6:.2f} MB)")
    return path


def tiny(config: TrainConfig) -> TrainConfig:
    """A seconds-long version of ``config`` that still runs every step (for CI and tests)."""
    return replace(config, epochs=1, samples=64, batch=32, styles=1, designs=4)

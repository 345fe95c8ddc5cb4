"""Continuing the shipped recogniser from its ONNX weights on extra, harder crops: a longer training for a few
epochs more, without a checkpoint of the first run.

Why: the first networks stopped while still learning (backs: 68 % training accuracy over 412 designs) and the
held-out errors sit where training drew little: faces 40-60 px wide in print styles it never saw, and the
default backs, which made 12 of 412 classes, against each other. The extra crops add new face styles and
more small, blurred faces; for backs, the 12 default designs drawn half the time (their close pairs differ by
symbol and pattern only) and 200 more random designs, so the embedding keeps learning designs in general.

The exported ONNX has each batch norm folded into its convolution, so the network is rebuilt with a plain
per-channel bias in the batch norm's place (:func:`load_onnx`): the same function, trainable as it is.

    python -m vision.recognise.finetune --part backs --threads 1
"""

from __future__ import annotations

import argparse
import time
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn
from torch.nn import functional

from vision.recognise.augment import CameraSettings
from vision.recognise.data import (
    BACK_LABEL,
    TRAIN_BACK_DESIGNS,
    Crops,
    back_looks,
    back_renders,
    default_back_looks,
    face_renders,
)
from vision.recognise.models import MODELS_DIR
from vision.recognise.nets import BackNet, FaceNet
from vision.recognise.train import Log, TrainConfig, _epoch, cached_crops, export, training_data

EXTRA_SEED = 2  # the first extra crops' seed: neither training's (1) nor any evaluation's (555, 777, ...)
EXTRA_DESIGNS = 200  # random back designs besides training's: seeds 400..599, classes after training's 412


@dataclass(frozen=True)
class FinetuneConfig:
    part: str = "faces"
    epochs: int = 6
    extra: int = 12000  # extra crops on top of the first training's cached ones
    learning_rate: float = 1e-3
    batch: int = 128
    styles: int = 32  # new face styles (faces) or renders per default design (backs)
    default_share: float = 0.5  # backs: share of the extra crops that show one of the 12 default designs
    designs: int = EXTRA_DESIGNS  # backs: new random designs
    seed: int = EXTRA_SEED  # a second round continues the first on crops of another seed
    grain_p: float = 0.0  # share of extra crops with strong low-light sensor grain
    squash_p: float = 0.0  # share of extra crops seen from a low angle (foreshortened)
    detector_p: float = 0.0  # share of extra crops cut out through a rough detector-like box
    beneath_p: float = 0.0  # faces: share of extra crops lying on the card one lower, slapped askew (a stack)
    beneath_other_p: float = 0.0  # faces: of those, the share lying on any other face (a wrong card on a stack)
    fanned_p: float = 0.0  # backs: share of extra crops lying in a fan of their own back (only a strip shows)
    fan_mixed_p: float = 0.0  # backs: share of a fan's other cards that are other cards (a stack fanned in place)
    edge_p: float = 0.0  # share of extra crops cut by the picture's edge (a seat's row at the border)
    threads: int = 1

    def key(self) -> str:
        grain = f"-g{self.grain_p}" if self.grain_p else ""
        squash = f"-q{self.squash_p}" if self.squash_p else ""
        detector = f"-d{self.detector_p}" if self.detector_p else ""
        beneath = f"-b{self.beneath_p}" if self.beneath_p else ""
        beneath += f"o{self.beneath_other_p}" if self.beneath_other_p else ""
        fanned = f"-f{self.fanned_p}" if self.fanned_p else ""
        fanned += f"m{self.fan_mixed_p}" if self.fan_mixed_p else ""
        edge = f"-e{self.edge_p}" if self.edge_p else ""
        tail = f"{grain}{squash}{detector}{beneath}{fanned}{edge}"
        return f"extra-{self.part}-s{self.seed}-n{self.styles}-p{self.default_share}{tail}"

    def camera(self) -> CameraSettings:
        """Small faces are where faces fail: widths 22..130 px, blurred more often than in the first training."""
        if self.part == "faces":
            return CameraSettings(
                min_width=22,
                max_width=130,
                blur_p=0.55,
                grain_p=self.grain_p,
                squash_p=self.squash_p,
                detector_p=self.detector_p,
                beneath_p=self.beneath_p,
                beneath_other_p=self.beneath_other_p,
                edge_p=self.edge_p,
            )
        return CameraSettings(
            min_width=24,
            grain_p=self.grain_p,
            squash_p=self.squash_p,
            detector_p=self.detector_p,
            fanned_p=self.fanned_p,
            fan_mixed_p=self.fan_mixed_p,
            edge_p=self.edge_p,
        )


def load_onnx(model: nn.Module, path: Path) -> nn.Module:
    """``model`` (a FaceNet or BackNet) with the weights of the exported ``path``.

    Export folds each batch norm into its convolution, so every trunk block becomes a convolution with a
    bias (and no batch norm): the same function, trainable as it is, and exported again in the same form.
    """
    graph = onnx.load(str(path)).graph
    weights = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}
    trunk: nn.Module = model.trunk  # type: ignore[assignment]
    blocks = list(trunk.layers)  # type: ignore[arg-type]
    convs = [node for node in graph.node if node.op_type == "Conv"]
    if len(convs) != len(blocks):
        raise ValueError(f"{path}: {len(convs)} convolutions, the network has {len(blocks)}")
    for block, node in zip(blocks, convs, strict=True):
        old = block[0]
        block[0] = nn.Conv2d(old.in_channels, old.out_channels, 3, old.stride, 1, bias=True)
        block[1] = nn.Identity()
        block[0].weight.data.copy_(weights[node.input[1]])
        block[0].bias.data.copy_(_conv_bias(graph, node, weights).reshape(-1))
    state = model.state_dict()
    for name, value in weights.items():
        if name in state and state[name].shape == value.shape and not name.startswith("trunk."):
            state[name].copy_(value)
    return model


def _conv_bias(graph: onnx.GraphProto, conv: onnx.NodeProto, weights: dict[str, torch.Tensor]) -> torch.Tensor:
    """A convolution's bias: its third input, or the constant added right after it (a separate bias layer)."""
    if len(conv.input) > 2:
        return weights[conv.input[2]]
    for node in graph.node:
        if node.op_type == "Add" and conv.output[0] in node.input:
            return next(weights[name] for name in node.input if name in weights)
    raise ValueError(f"convolution {conv.name} has no bias")


def extra_data(config: FinetuneConfig, cache: Path, log: Log = print) -> Crops:
    """The extra crops, made chunk by chunk and cached like training's."""
    renders = partial(_extra_renders, config, log)
    return cached_crops(
        cache, config.key(), config.extra, config.seed, renders, config.camera(), log, config.part, "extra crops"
    )


def _extra_renders(config: FinetuneConfig, log: Log) -> tuple[list, list]:
    started = time.perf_counter()
    if config.part == "faces":
        faces = face_renders(config.seed, config.styles)
        looks = back_looks(range(config.seed * 1000, config.seed * 1000 + 48))
        backs = [(BACK_LABEL, art) for _, art in back_renders(looks, 1, config.seed)]
        labelled, occluders = faces + backs, [art for _, art in faces[::3]] + [art for _, art in backs]
    else:
        defaults = back_renders(default_back_looks(), config.styles, config.seed)
        first_new = len(default_back_looks()) + TRAIN_BACK_DESIGNS  # new designs get labels after training's
        others = [(first_new + i, art) for i, art in back_renders(back_looks(_new_designs(config)), 4, config.seed)]
        repeat = max(1, round(config.default_share / (1 - config.default_share) * len(others) / len(defaults)))
        labelled = defaults * repeat + others  # photograph() draws renders uniformly: repeats set the share
        faces = face_renders(config.seed + 1, 1)
        occluders = [art for _, art in faces] + [art for _, art in others[::8]] + [art for _, art in defaults[::4]]
    log(f"{config.part}: rendered {len(labelled)} extra cards in {time.perf_counter() - started:.0f} s")
    return labelled, occluders


def _new_designs(config: FinetuneConfig) -> range:
    return range(TRAIN_BACK_DESIGNS, TRAIN_BACK_DESIGNS + config.designs)


def finetune(
    config: FinetuneConfig,
    start: Path,
    out_dir: Path,
    cache: Path = Path(".cache/recogniser"),
    log: Log = print,
    first: TrainConfig | None = None,
) -> Path:
    """Continues ``start`` (an exported model) on ``first`` training's crops plus the extra ones (default: the
    shipped training's); exports to ``out_dir``."""
    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    first = replace(first or TrainConfig.for_part(config.part), threads=config.threads)
    data = Crops.join([training_data(first, cache, log), extra_data(config, cache, log)])
    classes = len(default_back_looks()) + TRAIN_BACK_DESIGNS + config.designs
    model = load_onnx(FaceNet() if config.part == "faces" else BackNet(classes), start)
    if isinstance(model, BackNet):
        _centre_class_weights(model, data)
    steps = max(1, len(data.label) // config.batch)
    optimiser = torch.optim.AdamW(model.parameters(), lr=config.learning_rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, config.learning_rate, total_steps=config.epochs * steps, pct_start=0.2
    )
    rng = np.random.default_rng([config.seed, 99])
    train_config = replace(first, batch=config.batch)
    for epoch in range(config.epochs):
        started = time.perf_counter()
        loss, accuracy = _epoch(model, optimiser, schedule, data, train_config, rng, steps)
        log(f"{config.part}: fine-tune epoch {epoch + 1}/{config.epochs} loss {loss:.4f} "
            f"train accuracy {accuracy:.4f} ({time.perf_counter() - started:.0f} s)")  # fmt: skip
        torch.save(model.state_dict(), cache / f"{config.key()}-finetune.pt")
    note = {"finetuned": {**asdict(config), "start": str(start)}}
    return export(model, first, out_dir, log, note)


@torch.no_grad()
def _centre_class_weights(model: BackNet, data: Crops) -> None:
    """Each design's cosine weight starts at the mean embedding of its crops (the ONNX file has no weights)."""
    model.eval()
    sums = torch.zeros_like(model.weights)
    for start in range(0, len(data.label), 512):
        images = torch.from_numpy(np.ascontiguousarray(data.images[start : start + 512].transpose(0, 3, 1, 2)))
        labels = torch.from_numpy(data.label[start : start + 512])
        sums.index_add_(0, labels, model(images.float()))
    model.weights.data.copy_(functional.normalize(sums, dim=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("faces", "backs"), required=True)
    parser.add_argument("--start", type=Path, help="exported model to continue (default: the shipped one)")
    parser.add_argument("--out", type=Path, default=Path(".cache/recogniser/finetuned"))
    parser.add_argument("--epochs", type=int, default=FinetuneConfig.epochs)
    parser.add_argument("--extra", type=int, default=FinetuneConfig.extra)
    parser.add_argument("--seed", type=int, default=EXTRA_SEED, help="seed of the extra crops")
    parser.add_argument("--grain", type=float, default=0.0, help="share of extra crops with strong sensor grain")
    parser.add_argument("--squash", type=float, default=0.0, help="share of extra crops seen from a low angle")
    parser.add_argument(
        "--detector", type=float, default=0.0, help="share of extra crops cut out through a rough detector-like box"
    )
    parser.add_argument(
        "--beneath", type=float, default=0.0, help="faces: share of extra crops lying on the card one lower (a stack)"
    )
    parser.add_argument(
        "--beneath-other", type=float, default=0.0, help="faces: of those, the share lying on any other face"
    )
    parser.add_argument(
        "--fanned", type=float, default=0.0, help="backs: share of extra crops lying in a fan of their own back"
    )
    parser.add_argument(
        "--fan-mixed", type=float, default=0.0, help="backs: share of a fan's other cards that are other cards"
    )
    parser.add_argument(
        "--edge", type=float, default=0.0, help="share of extra crops cut by the picture's edge (a row at the border)"
    )
    parser.add_argument(
        "--styles", type=int, default=FinetuneConfig.styles, help="new face styles (faces) or renders per default back"
    )
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    config = FinetuneConfig(part=args.part, epochs=args.epochs, extra=args.extra, seed=args.seed, styles=args.styles,
                            grain_p=args.grain, squash_p=args.squash, detector_p=args.detector,
                            beneath_p=args.beneath, beneath_other_p=args.beneath_other, fanned_p=args.fanned,
                            fan_mixed_p=args.fan_mixed,
                            edge_p=args.edge, threads=args.threads)  # fmt: skip
    finetune(config, args.start or MODELS_DIR / f"recogniser-{args.part}.onnx", args.out)


if __name__ == "__main__":
    main()

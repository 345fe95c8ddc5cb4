"""Training and test crops for the recogniser, made from the card art by seed.

Faces: every card of the set rendered in many random face styles (print variations), then photographed by
:func:`vision.recognise.augment.camera_crop`, partly covered by other cards or a hand. Backs: many random back
designs (``BackLook.random``), each a class, so the embedding learns what makes designs differ. Seeds keep
training and evaluation apart: training uses ``TRAIN_SEED``, evaluation ``HELD_OUT_SEED`` (other styles,
other table patches, other light), and the "never seen" back designs for enrolment tests come from
``UNSEEN_BACK_SEEDS``, which training never draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from referee.backs import DEFAULT_BACKS
from referee.cards import COLOURS, FULL_SET, Card
from vision.recognise.augment import DEFAULT_CAMERA, CameraSettings, camera_crop
from vision.rectify import CROP_HEIGHT, CROP_WIDTH

TRAIN_SEED = 1
HELD_OUT_SEED = 777
RENDER_HEIGHT = 200
TRAIN_BACK_DESIGNS = 400
UNSEEN_BACK_SEEDS = range(1_000_000, 1_000_004)
BACK_LABEL = -1  # a back among face-training crops: teaches the face network's face-or-back head

if TYPE_CHECKING:  # the art is imported lazily: rendering is only needed to make data
    from vision.render.back_art import BackLook

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Crops:
    """A batch of labelled crops; ``label`` is a card index into ``FULL_SET`` or a back design's class."""

    images: npt.NDArray[np.uint8]  # (N, 96, 64, 3)
    label: npt.NDArray[np.int64]
    visible: npt.NDArray[np.float32]
    width: npt.NDArray[np.float32] | None = None  # card width in the picture, px (None in old caches)

    @staticmethod
    def join(parts: Sequence[Crops]) -> Crops:
        widths = [p.width for p in parts]
        return Crops(
            np.concatenate([p.images for p in parts]),
            np.concatenate([p.label for p in parts]),
            np.concatenate([p.visible for p in parts]),
            None if any(w is None for w in widths) else np.concatenate(widths),  # type: ignore[arg-type]
        )

    def __getitem__(self, index: npt.NDArray[np.bool_] | npt.NDArray[np.intp]) -> Crops:
        width = None if self.width is None else self.width[index]
        return Crops(self.images[index], self.label[index], self.visible[index], width)


def card_label(card: Card) -> int:
    """The class index of a card: colour-major, as in ``FULL_SET``.

    >>> card_label(Card.parse("y10")), card_label(Card.parse("r1"))
    (19, 0)
    """
    return COLOURS.index(card.colour) * 10 + card.number - 1


def face_renders(seed: int, styles: int, height: int = RENDER_HEIGHT) -> list[tuple[int, Image]]:
    """Every card in ``styles`` random face styles: (label, BGRA) pairs."""
    from vision.render.card_art import FaceStyle, render_face

    rng = np.random.default_rng([seed, 11])
    renders: list[tuple[int, Image]] = []
    for _ in range(styles):
        style = FaceStyle.random(rng)
        renders.extend((card_label(card), render_face(card, height, rng, style=style)) for card in FULL_SET)
    return renders


def back_looks(seeds: Sequence[int]) -> list[BackLook]:
    """Random back designs, one per seed (a seed is a design: the same seed draws the same look)."""
    from vision.render.back_art import BackLook

    return [BackLook.random(np.random.default_rng([seed, 13])) for seed in seeds]


def default_back_looks() -> list[BackLook]:
    """The 12 catalogue backs' described looks, in ``DEFAULT_BACKS`` order."""
    from vision.render.back_art import BackLook

    return [BackLook.for_design(design) for design in DEFAULT_BACKS]


def back_renders(
    looks: Sequence[BackLook], per_look: int, seed: int, height: int = RENDER_HEIGHT
) -> list[tuple[int, Image]]:
    """``per_look`` renders (print variations) of each look: (look index, BGRA) pairs."""
    from vision.render.back_art import render_back

    rng = np.random.default_rng([seed, 17])
    return [(i, render_back(look, height, rng)) for i, look in enumerate(looks) for _ in range(per_look)]


def photograph(
    renders: Sequence[tuple[int, Image]],
    count: int,
    rng: np.random.Generator,
    occluders: Sequence[Image] = (),
    settings: CameraSettings = DEFAULT_CAMERA,
) -> Crops:
    """``count`` camera crops of renders drawn at random (balanced over labels by drawing renders uniformly). With
    ``settings.beneath_p``, a face may lie on the face one lower of its colour in the same print (a stack), or with
    ``settings.beneath_other_p`` of those on any other face of the print (a wrong card slapped on a stack)."""
    images = np.zeros((count, CROP_HEIGHT, CROP_WIDTH, 3), np.uint8)
    labels = np.zeros(count, np.int64)
    visible = np.zeros(count, np.float32)
    width = np.zeros(count, np.float32)
    below = _below(renders) if settings.beneath_p > 0 else {}
    for i in range(count):
        k = int(rng.integers(len(renders)))
        label, art = renders[k]
        beneath = renders[below[k]][1] if k in below else None
        if k in below and settings.beneath_other_p > 0 and rng.random() < settings.beneath_other_p:
            other = int(rng.integers(len(FULL_SET) - 1))
            other += other >= label  # any face of the print but this one
            beneath = renders[k - label + other][1]
        sample = camera_crop(art, rng, occluders, settings, beneath=beneath)
        images[i], labels[i], visible[i], width[i] = sample.crop, label, sample.visible, sample.width
    return Crops(images, labels, visible, width)


def _below(renders: Sequence[tuple[int, Image]]) -> dict[int, int]:
    """For each face render, the render of the card one lower of its colour in the same print (``face_renders``
    lays out each style as the 40 cards in order), or for a 1 the 2 (a 1 lies on the table, but a card of the
    same colour under a face is what matters)."""
    index = {}
    for k, (label, _) in enumerate(renders):
        if label < 0 or label >= len(FULL_SET):
            continue
        style_start = k - label
        if style_start < 0 or renders[style_start][0] != 0:
            continue
        lower = label - 1 if label % 10 else label + 1
        index[k] = style_start + lower
    return index

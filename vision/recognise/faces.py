"""Reading a face's colour and number from its rectified crop, in one onnxruntime call per batch.

The crop may be turned by 180 degrees (a face is point-symmetric, so the detector cannot know which end is
up); the network was trained on both, and tells a 6 from a 9 by where the upright digit sits.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.recognise.models import FACES_MODEL, open_session


@dataclass(frozen=True)
class FaceReading:
    """Per crop: colour index into ``referee.cards.COLOURS``, number 1..10, and their probabilities."""

    colour: npt.NDArray[np.int8]
    number: npt.NDArray[np.int8]
    confidence: npt.NDArray[np.float32]  # P(colour) * P(number)
    face: npt.NDArray[np.float32]  # P(the crop shows a face rather than a back)
    colour_probabilities: npt.NDArray[np.float32]  # (N, 4)
    number_probabilities: npt.NDArray[np.float32]  # (N, 10)

    def __getitem__(self, index: slice | npt.NDArray[np.bool_] | npt.NDArray[np.intp]) -> FaceReading:
        return FaceReading(*(getattr(self, f.name)[index] for f in fields(self)))

    def runner_up(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
        """Per crop, the second likeliest card as (colour index, number 1..10), shape (N, 2), and its joint
        probability: the reading's rival. The referee weighs it against the rules (a g5 read "g3", 0.78 against
        0.22, lands where a g5 is due and a g3 would be a mistake).

        >>> one = FaceReading(np.int8([0]), np.int8([3]), np.float32([0.7]), np.float32([1]),
        ...     np.float32([[1, 0, 0, 0]]), np.float32([[0, 0, 0.7, 0, 0.3, 0, 0, 0, 0, 0]]))
        >>> card, p = one.runner_up()
        >>> card.tolist(), [round(float(x), 2) for x in p]
        ([[0, 5]], [0.3])
        """
        joint = self.colour_probabilities[:, :, None] * self.number_probabilities[:, None, :]  # (N, colour, number)
        flat = joint.reshape(len(joint), -1).copy()
        rows = np.arange(len(flat))
        flat[rows, self.colour.astype(np.intp) * joint.shape[2] + self.number.astype(np.intp) - 1] = -1.0
        second = flat.argmax(axis=1)
        card = np.stack([second // joint.shape[2], second % joint.shape[2] + 1], axis=1).astype(np.int8)
        return card, np.maximum(flat[rows, second], 0.0).astype(np.float32)


def to_network_input(crops: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """(N, H, W, 3) uint8 BGR crops -> (N, 3, H, W) float32 pixel values, the networks' input layout.

    >>> to_network_input(np.zeros((2, 96, 64, 3), np.uint8)).shape
    (2, 3, 96, 64)
    """
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)


class FaceReader:
    """Loads the face model once; :meth:`read` labels a batch of crops.

    With ``both_ways`` each crop is also read turned by 180 degrees and the two answers averaged (a face
    reads the same either way up). Off by default: on held-out scenes it gains 0.28 % (99.00 -> 99.28 %, 5
    cards in 1,799, models/recogniser.md) for twice the time, and the face reader runs on every frame; the
    recogniser turns it on for the faces it does not find alone on a card-shaped outline (see ``Recogniser``).
    """

    def __init__(self, model: str | Path = FACES_MODEL, threads: int = 0, both_ways: bool = False) -> None:
        self.session = open_session(model, threads)
        self.input_name = self.session.get_inputs()[0].name
        self.both_ways = both_ways

    def read(self, crops: npt.NDArray[np.uint8], turned: npt.NDArray[np.bool_] | None = None) -> FaceReading:
        """``turned``: which crops are also read turned by 180 degrees, the two answers averaged (None: all of
        them with ``both_ways``, none without)."""
        if len(crops) == 0:
            return self.read(np.zeros((1, *crops.shape[1:]), np.uint8))[0:0]
        which = np.full(len(crops), self.both_ways) if turned is None else np.asarray(turned, bool)
        batch = np.concatenate([crops, crops[which][:, ::-1, ::-1]]) if which.any() else crops
        colour_p, number_p, face_p = self.session.run(None, {self.input_name: to_network_input(batch)})
        n = len(crops)
        if which.any():
            for p in (colour_p, number_p, face_p):
                p[:n][which] = (p[:n][which] + p[n:]) / 2
        return _reading(colour_p[:n], number_p[:n], face_p[:n, 0])


PROBABILITY_FLOOR = 1e-6
"""A network's probability is never taken as below this when readings are pooled: one crop's zero for the right
number (a crop cut through its digit) must not veto what the others read."""


def pooled(reading: FaceReading, owner: npt.NDArray[np.intp], n: int) -> FaceReading:
    """One reading per card 0..n-1 from the readings of several crops of it (``owner``: whose each crop is):
    the normalised geometric mean of their colour and number probabilities (a product of experts: crops that
    agree keep their sureness, one that disagrees makes the reading unsure rather than have its say), its
    likeliest colour and number, and their joint probability as its confidence.

    >>> two = FaceReading(np.zeros(2, np.int8), np.zeros(2, np.int8), np.zeros(2, np.float32), np.ones(2, np.float32),
    ...     np.float32([[1, 0, 0, 0], [1, 0, 0, 0]]), np.float32([[0, 0, 0.9, 0.1, 0, 0, 0, 0, 0, 0],
    ...                                                    [0, 0, 0.1, 0.1, 0, 0, 0, 0, 0, 0.8]]))
    >>> one = pooled(two, np.array([0, 0]), 1)
    >>> int(one.number[0]), round(float(one.confidence[0]), 2)
    (3, 0.75)
    """
    counts = np.maximum(np.bincount(owner, minlength=n), 1).astype(np.float32)

    def geometric(p: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        logs = np.zeros((n, *p.shape[1:]), np.float32)
        np.add.at(logs, owner, np.log(np.maximum(p, PROBABILITY_FLOOR)))
        mean = np.exp(logs / counts.reshape(-1, *([1] * (p.ndim - 1))))
        return (mean / mean.sum(axis=1, keepdims=True)).astype(np.float32)

    face = np.zeros(n, np.float32)
    np.add.at(face, owner, reading.face)
    return _reading(geometric(reading.colour_probabilities), geometric(reading.number_probabilities), face / counts)


def _reading(
    colour_p: npt.NDArray[np.float32], number_p: npt.NDArray[np.float32], face_p: npt.NDArray[np.float32]
) -> FaceReading:
    colour = colour_p.argmax(1)
    number = number_p.argmax(1)
    rows = np.arange(len(colour_p))
    confidence = colour_p[rows, colour] * number_p[rows, number]
    return FaceReading(
        colour=colour.astype(np.int8),
        number=(number + 1).astype(np.int8),
        confidence=confidence.astype(np.float32),
        face=face_p.astype(np.float32),
        colour_probabilities=colour_p.astype(np.float32),
        number_probabilities=number_p.astype(np.float32),
    )

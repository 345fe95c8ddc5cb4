"""The recogniser stage: detections in, the same detections with identities filled out.

All face crops go to the face network in one onnxruntime call and all back crops to the back network in
another, so 40 cards cost two calls per frame, not 40.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from referee.backs import Catalogue
from vision.detections import BACK, FACE, UNKNOWN_COLOUR, UNKNOWN_NUMBER, CardDetections
from vision.recognise.backs import BackEmbedder, BackMatcher
from vision.recognise.faces import FaceReader
from vision.recognise.models import BACKS_MODEL, FACES_MODEL
from vision.rectify import CROP_HEIGHT, CROP_WIDTH, rectify


def portrait(corners: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """The same quad, re-labelled if needed so its first edge (top) is a short side: the crop is portrait.

    >>> portrait([[0, 0], [90, 0], [90, 60], [0, 60]]).tolist()  # a landscape labelling turns by 90 degrees
    [[0.0, 60.0], [0.0, 0.0], [90.0, 0.0], [90.0, 60.0]]
    """
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    top = np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])
    side = np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])
    return np.roll(quad, 1, axis=0) if top > side else quad


def crops_of(image: npt.NDArray[np.uint8], corners: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    """(N, 96, 64, 3) rectified portrait crops of the quads ``corners`` (N, 4, 2) in a BGR ``image``."""
    out = np.zeros((len(corners), CROP_HEIGHT, CROP_WIDTH, 3), np.uint8)
    for i, quad in enumerate(corners):
        out[i] = rectify(image, portrait(quad), CROP_WIDTH, CROP_HEIGHT)
    return out


class Recogniser:
    """Loads the face and back models once; calling it fills colour, number and back of each detection."""

    def __init__(
        self,
        catalogue: Catalogue | None = None,
        faces_model: str | Path = FACES_MODEL,
        backs_model: str | Path = BACKS_MODEL,
        threads: int = 1,
    ) -> None:
        """``threads``: onnxruntime's threads per network (0: one per core). One by default: a frame's few small
        crops are read faster and for about half the CPU time without a thread pool (sample round, 5 and 30
        face crops per call: 2.1 -> 1.4 and 4.9 -> 3.0 ms CPU, the same readings), and the cores are left to
        the detector and the video decoder."""
        self.faces = FaceReader(faces_model, threads)
        self.embedder = BackEmbedder(backs_model, threads)
        self.backs = BackMatcher(catalogue if catalogue is not None else Catalogue.default(), self.embedder)

    def __call__(self, image: npt.NDArray[np.uint8], detections: CardDetections) -> CardDetections:
        if len(detections) == 0:
            return detections
        image = _bgr(image)
        colour = np.full(len(detections), UNKNOWN_COLOUR, np.int8)
        number = np.full(len(detections), UNKNOWN_NUMBER, np.int8)
        back = np.full(len(detections), None, dtype=object)
        confidence = np.zeros(len(detections), np.float32)
        faces = np.flatnonzero(detections.kind == FACE)
        if len(faces):
            reading = self.faces.read(crops_of(image, detections.corners[faces]))
            colour[faces], number[faces], confidence[faces] = reading.colour, reading.number, reading.confidence
        backs = np.flatnonzero(detections.kind == BACK)
        if len(backs):
            match = self.backs.match(crops_of(image, detections.corners[backs]))
            back[backs] = list(match.back)
            confidence[backs] = match.confidence
        return detections.with_identity(colour=colour, number=number, back=back, identity_confidence=confidence)


def _bgr(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    if image.ndim == 2:
        return np.repeat(image[..., None], 3, axis=2)
    return image[..., :3]

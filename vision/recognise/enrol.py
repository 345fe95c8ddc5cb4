"""Enrolling a back design from a few photos of it: no retraining, just stored descriptors.

Each photo must show exactly one back, ideally alone on a plain surface. The card is found by the detector
when one is given, else as the largest card-shaped outline; a photo that shows no card, several cards or a
face is refused with a message that says which photo and why, and nothing is saved unless every photo is
usable. The descriptors (one per photo) go into the catalogue under the given name; a name that exists
replaces that design's appearance, because the user's real back wins over any default rendering.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from referee.backs import BackDesign, Catalogue, back_id_from_name
from referee.errors import InputFileError, LigrettoError
from vision.detections import BACK, FACE, CardDetections
from vision.recognise.backs import BackEmbedder, BackMatcher, descriptor
from vision.recognise.faces import FaceReader
from vision.recognise.recogniser import crops_of

MAX_PHOTOS = 5
FACE_THRESHOLD = 0.5  # the face network's P(face) above which a crop is called a face
CARD_ASPECT = 59.0 / 91.0
Detector = Callable[[npt.NDArray[np.uint8]], CardDetections]


class EnrolmentError(LigrettoError):
    """A photo cannot be used to learn a back (no card, several cards, a face, unreadable)."""


@dataclass(frozen=True)
class FoundBack:
    photo: str
    corners: npt.NDArray[np.float32]
    crop: npt.NDArray[np.uint8]
    width_px: float


@dataclass(frozen=True)
class Enrolment:
    """What an enrolment learned: the new design, where it was saved, and how it relates to the others."""

    design: BackDesign
    catalogue: Catalogue
    path: Path
    replaced: bool
    found: tuple[FoundBack, ...]
    consistency: float  # lowest similarity between two of the photos (1.0 with one photo)
    nearest_other: tuple[str, float] | None  # the most similar other design in the catalogue


def read_photo(path: str | os.PathLike[str]) -> npt.NDArray[np.uint8]:
    if not Path(path).is_file():
        raise InputFileError(f"cannot read image {path}: no such file")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise InputFileError(f"cannot read image {path}: missing or not a picture")
    return np.asarray(image, np.uint8)


def card_quads(image: npt.NDArray[np.uint8], min_area: float = 0.01) -> list[npt.NDArray[np.float32]]:
    """Card-shaped outlines (portrait quads, clockwise from top-left), largest first.

    A card is a filled region with strong edges all round: edges are found in colour, closed, and each outer
    contour is kept if its minimum-area rectangle has a card's aspect and the contour fills that rectangle.
    """
    blurred = cv2.GaussianBlur(image, (5, 5), 0)
    edges = np.zeros(image.shape[:2], np.uint8)
    for channel in cv2.split(cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB)):
        edges |= np.asarray(cv2.Canny(channel, 30, 90), np.uint8)
    edges = np.asarray(cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)), np.uint8)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quads = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area * image.shape[0] * image.shape[1]:
            continue
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        short, long = sorted((w, h))
        if long == 0 or not 0.5 < short / long < 0.8 or area < 0.8 * w * h:
            continue
        quads.append((area, _portrait_box(np.asarray(cv2.boxPoints(((cx, cy), (w, h), angle)), np.float32))))
    return [quad for _, quad in sorted(quads, key=lambda q: -q[0])]


def _portrait_box(points: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Four box points ordered clockwise (in image coordinates) from a corner of a short side."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    quad = points[np.argsort(angles)]  # increasing angle = clockwise on screen (y down)
    if np.linalg.norm(quad[1] - quad[0]) > np.linalg.norm(quad[3] - quad[0]):
        quad = np.roll(quad, 1, axis=0)
    return quad.astype(np.float32)


def find_back(
    photo: str, image: npt.NDArray[np.uint8], faces: FaceReader, detector: Detector | None = None
) -> FoundBack:
    """The one back in ``image``, or an :class:`EnrolmentError` saying what the photo shows instead."""
    found = distinct_cards(detector(image)) if detector is not None else CardDetections.empty()
    if len(found):
        quads, face_count = list(found[found.kind == BACK].corners), int((found.kind == FACE).sum())
    else:  # no detector, or a close-up the detector (trained on table scenes) does not take for a card
        quads, face_count = card_quads(image), 0
    if not quads and face_count:
        raise EnrolmentError(f"{photo}: shows a face, not a back; turn the card over")
    if not quads:
        raise EnrolmentError(f"{photo}: no card found; put one back alone on a plain surface, fully in view")
    if len(quads) + face_count > 1:
        shown = f"{len(quads)} backs and {face_count} faces" if face_count else f"{len(quads)} cards"
        raise EnrolmentError(f"{photo}: shows {shown}; photograph one back alone")
    quads = [_sharpest(image, quads[0])]
    crop = crops_of(image, np.array(quads, np.float32))
    reading = faces.read(crop)
    if not len(found) and float(reading.face[0]) > FACE_THRESHOLD:
        raise EnrolmentError(f"{photo}: shows a face (looks like {_face_text(reading)}), not a back; turn it over")
    width = float(min(np.linalg.norm(quads[0][1] - quads[0][0]), np.linalg.norm(quads[0][3] - quads[0][0])))
    return FoundBack(photo, np.asarray(quads[0], np.float32), crop[0], width)


def distinct_cards(found: CardDetections) -> CardDetections:
    """One detection per card: a detection whose centre lies inside a more confident one is the same card.

    A detector trained on whole tables can box a close-up card several times over; that is one card, not many.
    """
    kept: list[int] = []
    for i in np.argsort(-found.confidence):
        centre = tuple(float(v) for v in found.corners[i].mean(axis=0))
        if all(cv2.pointPolygonTest(found.corners[k].reshape(-1, 1, 2), centre, False) < 0 for k in kept):
            kept.append(int(i))
    return found[np.array(sorted(kept), np.intp)]


def _sharpest(image: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The outline finder's quad for the card at ``quad`` when it sees one there (tighter on a close-up)."""
    centre = tuple(float(v) for v in np.asarray(quad).mean(axis=0))
    for outline in card_quads(image):
        if cv2.pointPolygonTest(outline.reshape(-1, 1, 2), centre, False) >= 0:
            return outline
    return np.asarray(quad, np.float32)


def _face_text(reading) -> str:
    from vision.recognise.evaluate import face_label

    return face_label(int(reading.colour[0]), int(reading.number[0])) or "a face"


def enrol(
    photos: Sequence[str | os.PathLike[str]],
    name: str,
    catalogue_path: str | os.PathLike[str],
    embedder: BackEmbedder,
    faces: FaceReader,
    detector: Detector | None = None,
) -> Enrolment:
    """Learns ``name`` from ``photos`` (1..5) and saves it into the catalogue file (created if missing)."""
    if not 1 <= len(photos) <= MAX_PHOTOS:
        raise EnrolmentError(f"give 1 to {MAX_PHOTOS} photos of the back, not {len(photos)}")
    back_id = back_id_from_name(name)
    found = tuple(find_back(str(p), read_photo(p), faces, detector) for p in photos)
    vectors = embedder.embed(np.array([f.crop for f in found], np.uint8))
    catalogue = Catalogue.load_or_default(catalogue_path)
    replaced = back_id in catalogue
    others = Catalogue(d for d in catalogue if d.id != back_id)
    nearest = _nearest_other(others, embedder, vectors)
    design = BackDesign(id=back_id, name=name.strip(), appearance=tuple(descriptor(v) for v in vectors))
    catalogue = catalogue.with_design(design)
    catalogue.save(catalogue_path)
    consistency = float((vectors @ vectors.T).min())
    return Enrolment(catalogue[back_id], catalogue, Path(catalogue_path), replaced, found, consistency, nearest)


def _nearest_other(
    others: Catalogue, embedder: BackEmbedder, vectors: npt.NDArray[np.float32]
) -> tuple[str, float] | None:
    if len(others) == 0:
        return None
    matcher = BackMatcher(others, embedder)
    if len(matcher.prototype_vectors) == 0:
        return None
    match = matcher.match_embeddings(vectors)
    best = int(np.argmax(match.similarity))
    similarity = vectors[best] @ matcher.prototype_vectors.T
    design = matcher.design_ids[int(matcher.prototype_design[int(np.argmax(similarity))])]
    return design, float(match.similarity[best])

"""Telling backs apart: an embedding per crop, matched against the prototypes of a catalogue.

The embedding network was trained on many random back designs, so it answers "which of these designs is
closest", not "is this one of the twelve pictures I was trained on". A catalogue design's prototypes are the
descriptors stored with it (``BackDesign.appearance``, one per enrolment photo); a default design that was
never enrolled gets prototypes rendered from its described look. An enrolled design replaces the default of
the same id, because the user's real back wins over any rendering.

A crop is embedded in both portrait orientations and the two are averaged, so a back reads the same whichever
way up it lies. A match needs a clear winner: a similarity floor and a margin over the runner-up design;
anything else is "unknown" (None), which counting treats as unreadable rather than guessing an owner.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from referee.backs import BackDesign, Catalogue
from vision.recognise.faces import to_network_input
from vision.recognise.models import BACKS_MODEL, open_session
from vision.rectify import CROP_HEIGHT, CROP_WIDTH

# Chosen on a tuning set of rendered crops (seed 555, not the reported held-out seeds): 32 prototypes per
# default design photographed like training crops without occlusion, a design scored by the mean of its most
# similar prototypes (3 of a default's 32, the best of an enrolled design's few photos: prototypes_to_average),
# and the floor/margin below. See models/recogniser.md.
MIN_SIMILARITY = 0.4
MIN_MARGIN = 0.02
TOP_K = 3
PROTOTYPES_PER_DEFAULT = 32
PROTOTYPE_SEED = 20261130


class BackEmbedder:
    """Loads the back model once; :meth:`embed` turns crops into unit vectors, orientation-free."""

    def __init__(self, model: str | Path = BACKS_MODEL, threads: int = 0) -> None:
        self.session = open_session(model, threads)
        self.input_name = self.session.get_inputs()[0].name
        self.dimension = int(self.session.get_outputs()[0].shape[1])
        self.default_prototypes = _stored_default_prototypes(Path(model).with_suffix(".json"), self.dimension)

    def embed(self, crops: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
        if len(crops) == 0:
            return np.zeros((0, self.dimension), np.float32)
        both = np.concatenate([crops, crops[:, ::-1, ::-1]])
        (vectors,) = self.session.run(None, {self.input_name: to_network_input(both)})
        summed = vectors[: len(crops)] + vectors[len(crops) :]
        return _unit(summed)


def _stored_default_prototypes(note: Path, dimension: int) -> dict[str, npt.NDArray[np.float32]]:
    """Prototypes of the default designs made when the model was exported (its JSON note), by back id.

    Rendering and photographing 32 crops per design takes seconds, so it is done once, not at every start.
    """
    try:
        data = json.loads(note.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    found = data.get("default_prototypes", {}) if isinstance(data, dict) else {}
    vectors = {k: np.asarray(v, np.float32).reshape(-1, len(v[0]) if v else 0) for k, v in found.items()}
    return {k: _unit(v) for k, v in vectors.items() if v.shape[1:] == (dimension,)}


def default_prototypes(embedder: BackEmbedder) -> dict[str, list[tuple[float, ...]]]:
    """Descriptors of the 12 default designs' rendered looks, for the model's JSON note."""
    from referee.backs import DEFAULT_BACKS

    return {d.id: [descriptor(v) for v in embedder.embed(rendered_prototype_crops(d))] for d in DEFAULT_BACKS}


def _unit(vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return (vectors / np.maximum(norms, 1e-8)).astype(np.float32)


def descriptor(vector: npt.NDArray[np.float32]) -> tuple[float, ...]:
    """An embedding as stored in a catalogue file (rounded: 4 decimals keep the file short and exact enough).

    >>> descriptor(np.array([0.123456, -1.0], np.float32))
    (0.1235, -1.0)
    """
    return tuple(round(float(x), 4) for x in vector)


@dataclass(frozen=True)
class BackMatch:
    """Per crop: the matched back id (None when unknown or ambiguous), its similarity and the margin, and the
    runner-up: the likeliest design of a box other than the first's (whether the first was accepted or not), or
    the second design where every design shares one box. Look-alike designs of different boxes (the red box's
    pink lettering, the green box's fuchsia and purple) trade places under a tinted light, and the table's other
    backs can tell which it was, while the first's own box-mates are its likeliest rivals but no help there."""

    back: tuple[str | None, ...]
    similarity: npt.NDArray[np.float32]
    margin: npt.NDArray[np.float32]
    confidence: npt.NDArray[np.float32]
    runner_up: tuple[str | None, ...]


class BackMatcher:
    """A catalogue's designs as prototype embeddings, and nearest-design matching with a margin."""

    def __init__(
        self,
        catalogue: Catalogue,
        embedder: BackEmbedder,
        min_similarity: float = MIN_SIMILARITY,
        min_margin: float = MIN_MARGIN,
        top_k: int = TOP_K,
    ) -> None:
        self.embedder = embedder
        self.min_similarity = min_similarity
        self.min_margin = min_margin
        self.top_k = top_k
        ids: list[str] = []
        vectors: list[npt.NDArray[np.float32]] = []
        for design in catalogue:
            prototypes = self.prototypes(design)
            ids.extend([design.id] * len(prototypes))
            vectors.extend(prototypes)
        self.design_ids: tuple[str, ...] = tuple(dict.fromkeys(ids))
        box_of = {design.id: design.box for design in catalogue}
        self.design_boxes: tuple[str, ...] = tuple(box_of[i] for i in self.design_ids)
        self.unusable: tuple[str, ...] = tuple(d.id for d in catalogue if d.id not in self.design_ids)
        self.prototype_design = np.array([self.design_ids.index(i) for i in ids], np.int64)
        self.prototype_vectors = np.array(vectors, np.float32).reshape(-1, embedder.dimension)

    def prototypes(self, design: BackDesign) -> list[npt.NDArray[np.float32]]:
        """Stored descriptors if the design was enrolled (with this model's size), else rendered ones.

        A default design's renders come from the model's JSON note when present (made at export).
        Only a described design (symbol and lettering known, like the 12 defaults) can be rendered; any other
        design without usable descriptors cannot be recognised and is listed in ``unusable``.
        """
        stored = [np.asarray(v, np.float32) for v in design.appearance if len(v) == self.embedder.dimension]
        if stored:
            return list(_unit(np.array(stored)))
        stored_defaults = getattr(self.embedder, "default_prototypes", {}).get(design.id)
        if stored_defaults is not None:
            return list(stored_defaults)
        crops = rendered_prototype_crops(design)
        return list(self.embedder.embed(crops)) if len(crops) else []

    def match(self, crops: npt.NDArray[np.uint8], floor_raise: float = 0.0) -> BackMatch:
        """``floor_raise``: a stricter similarity floor, for the best of several tries at one card (the best
        of three crops scores higher by chance)."""
        return self.match_embeddings(self.embedder.embed(crops), floor_raise)

    def match_embeddings(self, embeddings: npt.NDArray[np.float32], floor_raise: float = 0.0) -> BackMatch:
        n, designs = len(embeddings), len(self.design_ids)
        if n == 0 or designs == 0:
            zeros = np.zeros(n, np.float32)
            return BackMatch((None,) * n, zeros, zeros, zeros, (None,) * n)
        similarity = embeddings @ self.prototype_vectors.T  # (n, prototypes)
        per_design = np.full((n, designs), -1.0, np.float32)
        for d in range(designs):  # a design's score: the mean of its few most similar prototypes
            own = np.sort(similarity[:, self.prototype_design == d], axis=1)
            per_design[:, d] = own[:, -prototypes_to_average(own.shape[1], self.top_k) :].mean(axis=1)
        order = np.argsort(-per_design, axis=1)
        rows = np.arange(n)
        best = per_design[rows, order[:, 0]]
        second = per_design[rows, order[:, 1]] if designs > 1 else np.full(n, -1.0, np.float32)
        margin = best - second
        accepted = (best >= self.min_similarity + floor_raise) & (margin >= self.min_margin)
        backs = tuple(self.design_ids[int(order[i, 0])] if accepted[i] else None for i in range(n))
        confidence = np.where(accepted, np.clip(margin / 0.2, 0, 1) * np.clip(best, 0, 1), 0.0)
        runner_up = tuple(self._runner_up(order[i]) for i in range(n))
        return BackMatch(
            backs, best.astype(np.float32), margin.astype(np.float32), confidence.astype(np.float32), runner_up
        )

    def _runner_up(self, order: npt.NDArray[np.intp]) -> str | None:
        """The likeliest design of another box than the first's in ``order`` (designs, likeliest first), or the
        second where all share one box."""
        first = self.design_boxes[int(order[0])]
        others = [int(d) for d in order[1:] if self.design_boxes[int(d)] != first]
        if others:
            return self.design_ids[others[0]]
        return self.design_ids[int(order[1])] if len(order) > 1 else None


def prototypes_to_average(prototypes: int, top_k: int = TOP_K) -> int:
    """How many of a design's most similar prototypes make its score: one per ten, at most ``top_k``.

    An enrolled design has only its 1..5 photos; averaging all 3 of 3 would let its least typical photo pull
    every score down (enrolled backs then fell under the floor as unknown), while a default's 32 renders
    average their best 3.

    >>> prototypes_to_average(3), prototypes_to_average(12), prototypes_to_average(32)
    (1, 2, 3)
    """
    return max(1, min(top_k, -(-prototypes // 10)))


def rendered_prototype_crops(design: BackDesign, count: int = PROTOTYPES_PER_DEFAULT) -> npt.NDArray[np.uint8]:
    """Crops of a design's described look, photographed like training crops (no occlusion); empty if no known look."""
    from vision.recognise.augment import CameraSettings, camera_crop
    from vision.render.back_art import BackLook, render_back

    if "unknown" in (design.symbol, design.lettering):
        return np.zeros((0, CROP_HEIGHT, CROP_WIDTH, 3), np.uint8)
    try:
        look = BackLook.for_design(design)
    except (KeyError, ValueError, LookupError):
        return np.zeros((0, CROP_HEIGHT, CROP_WIDTH, 3), np.uint8)
    rng = np.random.default_rng([PROTOTYPE_SEED, *design.id.encode()])
    camera = CameraSettings(min_width=40, max_width=200, occlusion_p=0.0)
    crops = [camera_crop(render_back(look, 192, rng), rng, settings=camera).crop for _ in range(count)]
    return np.array(crops, np.uint8)


def enrolment_descriptors(
    embedder: BackEmbedder, crops: Sequence[npt.NDArray[np.uint8]]
) -> tuple[tuple[float, ...], ...]:
    """One stored descriptor per enrolment photo's crop."""
    return tuple(descriptor(v) for v in embedder.embed(np.array(crops, np.uint8)))

"""Scoring detections and identities against ground truth, image by image, into one summary.

:class:`Scorer` is fed one image at a time (``add``) with the detector's output at a low confidence (for
mAP, which needs the whole precision-recall curve) and the recognised detections at the operating
confidence (for recall, precision and identity accuracy); ``summary()`` gives the figures.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from referee.cards import COLOURS
from vision.detect.geometry import iou_matrix
from vision.detections import BACK, FACE, KIND_NAMES, CardDetections
from vision.evaluate.matching import IOU_THRESHOLDS, average_precision, greedy_match
from vision.evaluate.truth import Truth

MATCH_IOU = 0.5
# Cards showing less than this are not asked of the detector (the dataset exporter's own threshold): missing
# them costs nothing, and a detection on one is neither a hit nor a false positive (COCO's "ignore").
ASKED_VISIBLE = 0.15
VISIBILITY_BUCKETS: tuple[tuple[str, float, float], ...] = (
    (">=50%", 0.5, 1.01),
    ("25-50%", 0.25, 0.5),
    ("15-25%", ASKED_VISIBLE, 0.25),
    ("<15% (not asked)", 0.0, ASKED_VISIBLE),
)
WIDTH_BUCKETS: tuple[tuple[str, float, float], ...] = (
    ("<50px", 0.0, 50.0),
    ("50-80px", 50.0, 80.0),
    (">=80px", 80.0, 1e9),
)
IDENTITY_MIN_VISIBLE = 0.6  # the acceptance figures for faces and backs are on cards at least 60% visible
UNKNOWN = "?"


@dataclass(frozen=True)
class ImageRow:
    """One image's outcome: a row of the per-image CSV."""

    image: str
    cards: int
    detections: int
    true_positives: int
    false_positives: int
    missed: int
    missed_visible_50: int
    kind_errors: int
    face_errors: int
    back_errors: int
    detect_ms: float
    recognise_ms: float
    errors: str  # a short description of each mistake, ';' separated


@dataclass(frozen=True)
class Rate:
    """A count of successes out of a total, printed as a percentage."""

    hits: int
    total: int

    @property
    def value(self) -> float:
        return self.hits / self.total if self.total else float("nan")

    def __str__(self) -> str:
        return f"{100 * self.value:.2f}% ({self.hits}/{self.total})" if self.total else "n/a (0)"


@dataclass(frozen=True)
class Summary:
    images: int
    cards: int
    map50_95: float
    map50: float
    ap50_95_by_kind: dict[str, float]
    precision: Rate
    recall: Rate
    recall_by_visibility: dict[str, Rate]
    recall_by_width: dict[str, Rate]
    face_identity: Rate
    back_identity: Rate  # catalogue backs >= 60 % visible (a stranger's right answer is "unknown")
    back_identity_partly: Rate  # catalogue backs 15-60 % visible: fanned piles, mostly covered by their neighbour
    strangers_named: Rate  # backs of designs not in the catalogue that were taken for a catalogue back
    six_nine_confusion: Rate
    detect_ms: tuple[float, float]  # median, p90
    recognise_ms: tuple[float, float]
    face_pairs: list[tuple[str, str]] = field(repr=False)
    back_pairs: list[tuple[str, str]] = field(repr=False)


@dataclass
class _Curve:
    """Per class: every low-confidence prediction's score and, per IoU threshold, whether it was a hit."""

    scores: list[np.ndarray] = field(default_factory=list)
    hits: list[np.ndarray] = field(default_factory=list)  # each (n_pred, n_thresholds): 1 hit, 0 false, -1 ignored
    truths: int = 0


class Scorer:
    """Accumulates images; ``summary()`` computes the figures.

    ``catalogue``: the back ids the recogniser can name. A back of any other design (a stranger) is read right
    when it is read as unknown; None: every back's own id is the right answer.
    """

    def __init__(self, conf: float, catalogue: Collection[str] | None = None) -> None:
        self.conf = conf
        self.catalogue = None if catalogue is None else frozenset(catalogue)
        self.rows: list[ImageRow] = []
        self._curves = {kind: _Curve() for kind in (FACE, BACK)}
        self._found: list[np.ndarray] = []
        self._visible: list[np.ndarray] = []
        self._width: list[np.ndarray] = []
        self._tp = self._fp = 0
        self._face: list[tuple[str, str, float]] = []  # truth, prediction, visible
        self._back: list[tuple[str, str, float]] = []  # truth, prediction, visible
        self._ms: list[tuple[float, float]] = []

    def add(
        self, truth: Truth, candidates: CardDetections, recognised: CardDetections, detect_ms: float, rec_ms: float
    ) -> ImageRow:
        """Scores one image. ``recognised`` is ``candidates`` at confidence >= ``conf``, identities filled."""
        self._add_curves(truth, candidates)
        asked = truth.visible >= ASKED_VISIBLE
        ious = iou_matrix(recognised.corners, truth.corners)
        same_kind = recognised.kind[:, None] == truth.kind[None, :]
        matched = match_asked_first(ious, recognised.confidence, MATCH_IOU, asked, same_kind)
        any_kind = match_asked_first(ious, recognised.confidence, MATCH_IOU, asked)
        found = np.zeros(len(truth), bool)
        found[matched[matched >= 0]] = True
        self._found.append(found)
        self._visible.append(truth.visible)
        self._width.append(truth.width_px)
        hit = _on(matched, asked)
        tp, fp = int(hit.sum()), int((matched < 0).sum())
        self._tp += tp
        self._fp += fp
        errors = self._identity_errors(truth, recognised, np.where(hit, matched, -1))
        self._ms.append((detect_ms, rec_ms))
        missed = np.flatnonzero(~found & asked)
        errors += [f"missed {KIND_NAMES[truth.kind[m]]} ({truth.visible[m]:.0%} visible)" for m in missed]
        errors += [f"false {KIND_NAMES[recognised.kind[p]]}" for p in np.flatnonzero(matched < 0)]
        any_hit = _on(any_kind, asked)
        row = ImageRow(
            image=str(truth.image),
            cards=int(asked.sum()),
            detections=len(recognised),
            true_positives=tp,
            false_positives=fp,
            missed=len(missed),
            missed_visible_50=int((truth.visible[missed] >= 0.5).sum()),
            kind_errors=int(any_hit.sum()) - tp,
            face_errors=sum(e.startswith("face") for e in errors),
            back_errors=sum(e.startswith("back") for e in errors),
            detect_ms=round(detect_ms, 2),
            recognise_ms=round(rec_ms, 2),
            errors="; ".join(errors),
        )
        self.rows.append(row)
        return row

    def _add_curves(self, truth: Truth, candidates: CardDetections) -> None:
        ious = iou_matrix(candidates.corners, truth.corners)
        asked = truth.visible >= ASKED_VISIBLE
        for kind, curve in self._curves.items():
            preds = np.flatnonzero(candidates.kind == kind)
            truths = np.flatnonzero(truth.kind == kind)
            curve.truths += int(asked[truths].sum())
            sub = ious[np.ix_(preds, truths)]
            scores = candidates.confidence[preds]
            hits = np.stack([_outcome(sub, scores, t, asked[truths]) for t in IOU_THRESHOLDS], axis=1)
            curve.scores.append(scores)
            curve.hits.append(hits.reshape(len(preds), len(IOU_THRESHOLDS)))

    def _identity_errors(self, truth: Truth, recognised: CardDetections, matched: np.ndarray) -> list[str]:
        errors = []
        for p in np.flatnonzero(matched >= 0):
            t = matched[p]
            if truth.kind[t] == FACE:
                expected = _face_name(truth.colour[t], truth.number[t])
                got = _face_name(recognised.colour[p], recognised.number[p])
                self._face.append((expected, got, float(truth.visible[t])))
            else:
                expected, got = str(truth.back[t]), str(recognised.back[p] or UNKNOWN)
                self._back.append((expected, got, float(truth.visible[t])))
                if not self._in_catalogue(expected):
                    if got != UNKNOWN:
                        errors.append(f"back {expected} (not in the catalogue) read as {got}")
                    continue
            if expected != got:
                errors.append(f"{KIND_NAMES[truth.kind[t]]} {expected} read as {got}")
        return errors

    def _in_catalogue(self, back: str) -> bool:
        return self.catalogue is None or back in self.catalogue

    def summary(self) -> Summary:
        ap = {KIND_NAMES[k]: self._ap(c) for k, c in self._curves.items()}
        visible = _cat(self._visible, np.float32)
        asked = visible >= ASKED_VISIBLE
        found = _cat(self._found, bool)
        width = _cat(self._width, np.float32)
        faces = [(t, p) for t, p, v in self._face if v >= IDENTITY_MIN_VISIBLE]
        six_nine = [(t, p) for t, p in faces if _number(t) in (6, 9)]
        known = [(t, p, v) for t, p, v in self._back if self._in_catalogue(t)]
        strangers = [p for t, p, _ in self._back if not self._in_catalogue(t)]
        ms = np.asarray(self._ms).reshape(-1, 2)
        return Summary(
            images=len(self.rows),
            cards=int(asked.sum()),
            map50_95=float(np.nanmean([a.mean() for a in ap.values()])),
            map50=float(np.nanmean([a[0] for a in ap.values()])),
            ap50_95_by_kind={k: float(a.mean()) for k, a in ap.items()},
            precision=Rate(self._tp, self._tp + self._fp),
            recall=Rate(int(found[asked].sum()), int(asked.sum())),
            recall_by_visibility=_bucketed(found, visible, VISIBILITY_BUCKETS),
            recall_by_width=_bucketed(found[asked], width[asked], WIDTH_BUCKETS),
            face_identity=Rate(sum(t == p for t, p in faces), len(faces)),
            back_identity=_identity(known, lambda v: v >= IDENTITY_MIN_VISIBLE),
            back_identity_partly=_identity(known, lambda v: v < IDENTITY_MIN_VISIBLE),
            strangers_named=Rate(sum(p != UNKNOWN for p in strangers), len(strangers)),
            six_nine_confusion=Rate(sum(_number(p) == 15 - _number(t) for t, p in six_nine), len(six_nine)),
            detect_ms=_median_p90(ms[:, 0]),
            recognise_ms=_median_p90(ms[:, 1]),
            face_pairs=[(t, p) for t, p, _ in self._face],
            back_pairs=[(t, p) for t, p, _ in self._back],
        )

    @staticmethod
    def _ap(curve: _Curve) -> npt.NDArray[np.float64]:
        scores = np.concatenate(curve.scores) if curve.scores else np.zeros(0)
        hits = np.concatenate(curve.hits) if curve.hits else np.zeros((0, len(IOU_THRESHOLDS)), np.int8)
        ordered = hits[np.argsort(-scores, kind="stable")]
        return np.array([average_precision(h[h >= 0] == 1, curve.truths) for h in ordered.T])


def match_asked_first(
    ious: np.ndarray, scores: np.ndarray, threshold: float, asked: np.ndarray, allowed: np.ndarray | None = None
) -> np.ndarray:
    """Like ``greedy_match``, but predictions first compete for asked cards, and only the rest for hidden ones.

    In a stack, a detection overlaps the visible top card and the hidden cards under it; it belongs to the top.
    """
    allow = np.ones(ious.shape, bool) if allowed is None else allowed
    first = greedy_match(ious, scores, threshold, allow & asked[None, :])
    rest = np.flatnonzero(first < 0)
    second = greedy_match(ious[rest], scores[rest], threshold, allow[rest] & ~asked[None, :])
    first[rest] = second
    return first


def _outcome(ious: np.ndarray, scores: np.ndarray, threshold: float, asked: np.ndarray) -> np.ndarray:
    """Per prediction: 1 a hit on an asked card, -1 on a hidden one (ignored), 0 a false positive."""
    matched = match_asked_first(ious, scores, threshold, asked)
    hidden = _on(matched, ~asked)
    return np.where(matched < 0, 0, np.where(hidden, -1, 1)).astype(np.int8)


def _identity(readings: list[tuple[str, str, float]], visible: Callable[[float], bool]) -> Rate:
    """Right readings among ``(truth, prediction, visible share)`` whose visible share passes ``visible``."""
    chosen = [(t, p) for t, p, v in readings if visible(v)]
    return Rate(sum(t == p for t, p in chosen), len(chosen))


def _on(matched: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Per prediction: matched to a truth for which ``wanted`` holds."""
    out = np.zeros(len(matched), bool)
    hit = matched >= 0
    out[hit] = wanted[matched[hit]]
    return out


def _face_name(colour: int, number: int) -> str:
    """``r7``-style notation, ``?`` when unknown."""
    if not 0 <= colour < len(COLOURS) or number <= 0:
        return UNKNOWN
    return f"{COLOURS[colour].letter}{number}"


def _number(name: str) -> int:
    return int(name[1:]) if name != UNKNOWN else 0


def _bucketed(found: np.ndarray, value: np.ndarray, buckets: tuple[tuple[str, float, float], ...]) -> dict[str, Rate]:
    """Recall within each ``(name, low, high)`` range of ``value``."""
    rates = {}
    for name, low, high in buckets:
        mask = (value >= low) & (value < high)
        rates[name] = Rate(int(found[mask].sum()), int(mask.sum()))
    return rates


def _cat(parts: list[np.ndarray], dtype: type) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype)


def _median_p90(values: np.ndarray) -> tuple[float, float]:
    if not len(values):
        return (float("nan"), float("nan"))
    return (float(np.median(values)), float(np.percentile(values, 90)))

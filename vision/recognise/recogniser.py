"""The recogniser stage: detections in, the same detections with identities filled out.

The detector's boxes are rough, so a face is first read through the outline fitted to its colour (where one
is found; else its box) and a back through its box; a reading that is unsure is read again through a few
candidate quads (:func:`vision.recognise.quads.reading_candidates`) and the most confident reading wins. The
quad read through becomes the detection's corners. All face crops of a frame go to the face network in one
onnxruntime call and all back crops to the back network in another, and the unsure ones in one more call each:
40 cards cost two to four calls per frame, not 40 or 160. A face whose colour fit took two or more cards of a stack
is read through its box too, and through every candidate quad with the readings pooled where box and fit
disagree (one more call, when there is one); so is a face the picture's edge cuts, through the card continued
past the edge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from referee.backs import Catalogue
from vision.detections import BACK, FACE, UNKNOWN_COLOUR, UNKNOWN_NUMBER, CardDetections
from vision.recognise.backs import BackEmbedder, BackMatch, BackMatcher
from vision.recognise.faces import FaceReader, FaceReading, pooled
from vision.recognise.models import BACKS_MODEL, FACES_MODEL
from vision.recognise.quads import SURE_FACE, crops_of, labelled_like, past_the_edge, portrait, reading_candidates
from vision.recognise.refine import FaceFit, fit_face

__all__ = ["Recogniser", "crops_of", "portrait"]

# A back that matched no design through its own box is accepted through another candidate only above a floor
# this much higher: the best of three crops scores higher by chance. Tuning scenes (fine-tuned backs net):
# backs of designs in no catalogue named 13 -> 26 of 41 without it, 13 -> 16 with it; catalogue backs 15-60 %
# visible 38 -> 57 and 38 -> 44 of 133; >= 60 % visible 37 of 40 in every case.
SEARCHED_BACK_FLOOR_RAISE = 0.1
TEN = 10
# A face on a stack read as a 10 is read as another number when a quad holding the top card alone reads that
# number this surely (see Recogniser._pooled_over_stacks): a b8 lying across its b7, its two corner 8s side by
# side, read "8" at 0.85 through a card-shaped box and "10" through the rest; real 10s on their 9 read other
# numbers at 0.45 at most there (seeds 99700 and 99801, four players).
NOT_TEN = 0.8
Sure = npt.NDArray[np.bool_]
Quads = npt.NDArray[np.float32]
Quad = npt.NDArray[np.float32]
Reading = TypeVar("Reading", FaceReading, BackMatch)
Read = Callable[[npt.NDArray[np.uint8], bool], tuple[Any, npt.NDArray[np.float32], Sure]]


class Recogniser:
    """Loads the face and back models once; calling it fills colour, number and back of each detection."""

    def __init__(
        self,
        catalogue: Catalogue | None = None,
        faces_model: str | Path = FACES_MODEL,
        backs_model: str | Path = BACKS_MODEL,
        threads: int = 1,
        search: bool = True,
        both_ways: bool = True,
    ) -> None:
        """``threads``: onnxruntime's threads per network (0: one per core). One by default: a frame's few small
        crops are read faster and for about half the CPU time without a thread pool (sample round, 5 and 30
        face crops per call: 2.1 -> 1.4 and 4.9 -> 3.0 ms CPU, the same readings), and the cores are left to
        the detector and the video decoder.

        ``search``: read each detection through several candidate quads (a detector's rough box); off, each is
        read through its own quad only (true outlines, or a caller that has already fitted them).

        ``both_ways``: face crops are read as they lie and turned by 180 degrees, the two answers averaged
        (:class:`vision.recognise.faces.FaceReader`): a face reads the same either way up, and a net that misreads
        one way rarely misreads the other as surely. A face its colour fit found alone on a card-shaped outline
        is read one way only at first (it reads as surely so, at half the price); those without such a fit
        (blurred, half hidden, cut by the edge, on a stack of its colour) and every searched candidate are read
        both ways. Through the detector's boxes in five rendered rounds (36,922 still faces, every 7th frame,
        ``python -m vision.recognise.measure_replay``), faces read wrongly at 0.8 or surer, what the referee
        cannot vote away: one way 29 (22 without a fit, 3 through a one-card fit, 4 through a fit over several
        cards), all both ways 10 (10, 0, 0), as shipped 12 (10, 2, 0); rightly that surely 36,803, 36,802 and
        36,800. Both ways throughout cost the sample's replay 8 % of its speed, as shipped 3 %. A g9 on its g8
        read "g5" at 1.0 one way and "g9" at 0.7 the other was flagged as a wrong number (seed 114006, four
        players)."""
        self.faces = FaceReader(faces_model, threads, both_ways=both_ways)
        self.embedder = BackEmbedder(backs_model, threads)
        self.backs = BackMatcher(catalogue if catalogue is not None else Catalogue.default(), self.embedder)
        self.search = search

    def fits(self, image: npt.NDArray[np.uint8], detections: CardDetections) -> list[FaceFit | None]:
        """Each face's outline fitted to its colour (:func:`vision.recognise.refine.fit_face`; None for a back,
        a face without a card-like fit, or without ``search``): the first look at each card, which needs only
        the picture; made ahead, it is handed to :meth:`__call__` (``fits=``) by a caller that also studies the
        fits (:mod:`vision.recognise.measure_replay`). A replay makes them in :meth:`__call__`, for the cards
        the reading memo does not keep only (:meth:`referee.session_vision.DetectorVision.find`)."""
        if not self.search:
            return [None] * len(detections)
        image = _bgr(image)
        cards = zip(detections.corners, detections.kind, strict=True)
        return [fit_face(image, quad) if kind == FACE else None for quad, kind in cards]

    def __call__(
        self, image: npt.NDArray[np.uint8], detections: CardDetections, fits: list[FaceFit | None] | None = None
    ) -> CardDetections:
        """``fits``: the faces' colour fits already made (:meth:`fits`); None: made here."""
        if len(detections) == 0:
            return detections
        image = _bgr(image)
        if fits is None:
            fits = self.fits(image, detections)
        colour = np.full(len(detections), UNKNOWN_COLOUR, np.int8)
        number = np.full(len(detections), UNKNOWN_NUMBER, np.int8)
        back = np.full(len(detections), None, dtype=object)
        back_runner_up = np.full(len(detections), None, dtype=object)
        confidence = np.zeros(len(detections), np.float32)
        runner_up = np.tile(np.array([UNKNOWN_COLOUR, UNKNOWN_NUMBER], np.int8), (len(detections), 1))
        runner_up_confidence = np.zeros(len(detections), np.float32)
        corners = detections.corners.copy()
        faces = np.flatnonzero(detections.kind == FACE)
        if len(faces):
            face_fits = [fits[i] for i in faces]
            boxes = detections.corners[faces]
            stacked = np.array([fit is not None and not fit.one_card for fit in face_fits], bool)
            # a face its colour fit found alone on a card-shaped outline reads as surely one way up (see
            # both_ways); the others, and every searched candidate, are read both ways when both_ways is on
            turned = ~np.array([fit is not None and fit.one_card for fit in face_fits], bool) & self.faces.both_ways

            def read_faces(
                crops: npt.NDArray[np.uint8], searched: bool
            ) -> tuple[FaceReading, npt.NDArray[np.float32], Sure]:
                return self._read_faces(crops, searched, None if searched else turned)

            reading, corners[faces] = self._read(image, boxes, read_faces, face_fits, searched=~stacked)
            reading = self._pooled_over_stacks(image, boxes, face_fits, reading)
            reading = self._continued_past_the_edge(image, boxes, reading)
            colour[faces], number[faces], confidence[faces] = reading.colour, reading.number, reading.confidence
            runner_up[faces], runner_up_confidence[faces] = reading.runner_up()
        backs = np.flatnonzero(detections.kind == BACK)
        if len(backs):
            match, corners[backs] = self._read(image, detections.corners[backs], self._read_backs, [None] * len(backs))
            back[backs] = list(match.back)
            back_runner_up[backs] = list(match.runner_up)
            confidence[backs] = match.confidence
        corners = np.array([labelled_like(c, d) for c, d in zip(corners, detections.corners, strict=True)])
        found = detections.with_corners(corners)
        return found.with_identity(
            colour=colour,
            number=number,
            back=back,
            identity_confidence=confidence,
            runner_up=runner_up,
            runner_up_confidence=runner_up_confidence,
            back_runner_up=list(back_runner_up),
        )

    def _read_faces(
        self, crops: npt.NDArray[np.uint8], searched: bool, turned: npt.NDArray[np.bool_] | None = None
    ) -> tuple[FaceReading, npt.NDArray[np.float32], Sure]:
        reading = self.faces.read(crops, turned)
        return reading, reading.confidence, reading.confidence >= SURE_FACE

    def _read_backs(
        self, crops: npt.NDArray[np.uint8], searched: bool
    ) -> tuple[BackMatch, npt.NDArray[np.float32], Sure]:
        match = self.backs.match(crops, SEARCHED_BACK_FLOOR_RAISE if searched else 0.0)
        return match, match.similarity, np.array([b is not None for b in match.back], bool)

    def _pooled_over_stacks(
        self,
        image: npt.NDArray[np.uint8],
        boxes: Quads,
        fits: list[FaceFit | None],
        reading: FaceReading,
    ) -> FaceReading:
        """The faces whose colour fit took more than one card (:attr:`FaceFit.one_card` false: a stack's top and
        the cards of its colour under it) read again through the detector's box and its card-shaped twins: where
        the box reads what the fit read, surely, that stands (unsurely: the surest candidate, as for any face
        read unsurely); where they disagree, the readings through every candidate quad are pooled. Through the
        fit alone the digits of the cards below read as the top's, surely: a g5 on its g4 and g3 read "g3" at
        0.95-0.99, a y10 on its y9 "y8", a red 9 "10" at 0.99 where its box reads "9" at 1.0.

        Over 43,700 readings of still faces at least 60 % visible in six rendered rounds (seeds 100001-100005,
        every 5th frame), the 4,095 through such fits were wrong 94 times, 89 of them at 0.8 or surer, and right
        at 0.8 or surer 3,980 times; so, 24 wrong, 10 at 0.8, and 3,962 right at 0.8. Pooled wherever the
        reading was not sure and agreed: 24 wrong, 1 at 0.8, 3,932 right at 0.8, but a b10 read "b8" at 0.8
        through its fit and box, "b10" at 0.9-0.99 through a card-shaped box, stayed "b8" (seed 100004, four
        players: the b10 never played). Always pooled (:func:`vision.recognise.faces.pooled`): 25 wrong, 1 at
        0.8, 3,886 right at 0.8, but a g5 read "g5" through its box and fit, "g3" through a card-shaped box over
        the card below, came out "g3" (seed 100003, two players: played 8 s late). The arithmetic mean: 19
        wrong, 1,745 right at 0.8. One more network call, for those faces only; the fit stays the detection's
        quad (the stack's outline).

        A 10 gives way to another number a quad holding the top alone reads surely (:data:`NOT_TEN`): two corner
        digits side by side in a fit over two cards read as a 10 through most quads."""
        stacked = np.array([i for i, fit in enumerate(fits) if fit is not None and not fit.one_card], np.intp)
        if not self.search or not len(stacked):
            return reading
        owner, quads = _candidates([reading_candidates(boxes[i]) for i in stacked])
        around = self.faces.read(crops_of(image, quads))
        # the fit's own reading joins its card's candidates
        fit = reading[stacked]
        mean = pooled(_concatenated(around, fit), np.r_[owner, np.arange(len(stacked))], len(stacked))
        # where the detector's box reads what the fit reads, that stands, as sure as the surer of the two; read
        # unsurely by both, the surest candidate's reading (as any face read unsurely, see _read)
        box = _firsts(owner)
        agree = (around.colour[box] == fit.colour) & (around.number[box] == fit.number)
        sure = np.maximum(around.confidence[box], fit.confidence) >= SURE_FACE
        boxed = agree & sure & (around.confidence[box] > fit.confidence)
        best = _most_confident(owner, around.confidence, len(stacked))
        searched = agree & ~sure & (around.confidence[best] > fit.confidence)
        reading = _merged(reading, stacked[~agree], mean, np.flatnonzero(~agree))
        reading = _merged(reading, stacked[boxed], around, box[boxed])
        reading = _merged(reading, stacked[searched], around, best[searched])
        # a 10 holds only when no quad holding the top card alone reads another number fairly surely
        other = _most_confident(owner, np.where(around.number != TEN, around.confidence, -1.0), len(stacked))
        won = (reading.number[stacked] == TEN) & (around.number[other] != TEN) & (around.confidence[other] >= NOT_TEN)
        return _merged(reading, stacked[won], around, other[won]) if won.any() else reading

    def _continued_past_the_edge(self, image: npt.NDArray[np.uint8], boxes: Quads, reading: FaceReading) -> FaceReading:
        """The faces whose box lies along the picture's edge read again through the card continued past it
        (:func:`vision.recognise.quads.past_the_edge`) and through the box: the surest of the continued cards
        stands where it reads what the face was read as (as sure as the surer of the two) or reads surely
        (>= ``SURE_FACE``); otherwise all those readings are pooled into an unsure one.

        Through its box a card cut in half by the edge reads turned by a quarter, a 6 like a 9 (five rendered
        rounds, seeds 100250-100251, every 3rd frame, round-10 faces net: 4,707 readings of faces >= 60 %
        visible whose box lies along the edge, all seats' rows): wrong 542 -> 221, wrong at
        >= 0.8 95 -> 11, right at >= 0.8 3,851 -> 4,337. The surest continued card alone: 198, 25, 4,265;
        pooling all: 267, 1, 3,824. One more network call, for those faces only; the box stays the quad."""
        size = (image.shape[1], image.shape[0])
        continued = [past_the_edge(box, size) for box in boxes]
        cut = np.array([i for i, quads in enumerate(continued) if quads], np.intp)
        if not self.search or not len(cut):
            return reading
        owner, quads = _candidates([[boxes[i], *continued[i]] for i in cut])
        around = self.faces.read(crops_of(image, quads))
        beyond = around.confidence.copy()
        beyond[_firsts(owner)] = -1.0  # each face's first crop is its box: the best continued card is wanted
        best = _most_confident(owner, beyond, len(cut))
        now = reading[cut]
        agree = (around.colour[best] == now.colour) & (around.number[best] == now.number)
        surer = agree & (around.confidence[best] > now.confidence)
        sure = ~agree & (around.confidence[best] >= SURE_FACE)
        unsure = ~agree & ~sure
        reading = _merged(reading, cut[surer | sure], around, best[surer | sure])
        if unsure.any():
            mean = pooled(around, owner, len(cut))
            reading = _merged(reading, cut[unsure], mean, np.flatnonzero(unsure))
        return reading

    def _read(
        self,
        image: npt.NDArray[np.uint8],
        corners: npt.NDArray[np.float32],
        read: Read,
        fits: list[FaceFit | None],
        searched: npt.NDArray[np.bool_] | None = None,
    ) -> tuple[Any, Quads]:
        """Each quad's reading and the quad it was read through: its own (or its colour fit where ``fits`` has
        one, see :meth:`fits`), or when that reading is unsure and ``search`` is on, the best-scored of its
        candidates (all unsure ones in one more network call). ``searched``: which quads may be searched so
        (None: all; the faces on stacks are read through every candidate anyway, see
        :meth:`_pooled_over_stacks`)."""
        boxes = np.asarray(corners, np.float32)
        # Faces are first read through their colour fit where one is found (else their box): a box straddling a
        # stack's top and the edge of the card under it reads garbage, sometimes surely (sample round, every
        # frame: 11 -> 5 illegal plays said, truth 1), while the fit takes the stack's outline.
        chosen = np.array([box if fit is None else fit.quad for box, fit in zip(boxes, fits, strict=True)], np.float32)
        reading, _, sure = read(crops_of(image, chosen.reshape(-1, 4, 2)), False)
        unsure = np.flatnonzero(~sure if searched is None else ~sure & searched)
        if not self.search or len(unsure) == 0:
            return reading, chosen.reshape(-1, 4, 2)
        owner, quads = _candidates([reading_candidates(boxes[i], _quad(fits[i])) for i in unsure])
        second, score, _ = read(crops_of(image, quads), True)
        best = _most_confident(owner, score, len(unsure))
        chosen[unsure] = quads[best]
        return _merged(reading, unsure, second, best), chosen


def _quad(fit: FaceFit | None) -> Quad | None:
    return None if fit is None else fit.quad


def _candidates(per_detection: list[list[Quads]]) -> tuple[npt.NDArray[np.intp], Quads]:
    """(which detection each candidate belongs to, all candidate quads (M, 4, 2))."""
    owner = [i for i, found in enumerate(per_detection) for _ in found]
    quads = [quad for found in per_detection for quad in found]
    return np.array(owner, np.intp), np.array(quads, np.float32).reshape(-1, 4, 2)


def _firsts(owner: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """The index of each detection's first candidate (``owner`` as :func:`_candidates` makes it, grouped)."""
    return np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])


def _concatenated(first: FaceReading, second: FaceReading) -> FaceReading:
    return FaceReading(*(np.concatenate([getattr(first, f.name), getattr(second, f.name)]) for f in fields(first)))


def _merged(first: Reading, where: npt.NDArray[np.intp], second: Reading, taken: npt.NDArray[np.intp]) -> Reading:
    """``first`` (a FaceReading or BackMatch) with its entries ``where`` replaced by ``second``'s ``taken``."""
    values: dict[str, Any] = {}
    for field in fields(first):
        mine, theirs = getattr(first, field.name), getattr(second, field.name)
        merged = np.array(mine, dtype=object if isinstance(mine, tuple) else None)
        merged[where] = np.array(theirs, dtype=merged.dtype)[taken]
        values[field.name] = tuple(merged) if isinstance(mine, tuple) else merged
    return type(first)(**values)


def _most_confident(owner: npt.NDArray[np.intp], score: npt.NDArray[np.float32], n: int) -> npt.NDArray[np.intp]:
    """Per detection 0..n-1, the index of its candidate with the highest ``score`` (the first on a tie).

    >>> _most_confident(np.array([0, 0, 1, 1, 1]), np.array([0.2, 0.9, 0.5, 0.1, 0.5], np.float32), 2).tolist()
    [1, 2]
    """
    order = np.lexsort((-score, owner))  # by detection, then most confident first (stable: the first on a tie)
    first = np.flatnonzero(np.r_[True, owner[order][1:] != owner[order][:-1]])
    return order[first][:n]


def _bgr(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    if image.ndim == 2:
        return np.repeat(image[..., None], 3, axis=2)
    return image[..., :3]

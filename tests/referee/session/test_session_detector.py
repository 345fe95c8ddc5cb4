"""The detector path of the session (sampling by seeking, every frame decoded and read, stride) on a scripted clip.

The trained detector is not needed for this: the clip's cards are flat colours on green, so a few lines of
colour segmentation find them exactly; what is tested is the path from pixels to rulings around it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.events import read_events
from referee.referee_eval import score_round
from referee.scripted_clip import BACKGROUND_BGR, BACKS_BGR, COLOURS_BGR, face_grey, film, two_player_round
from referee.session import DetectorVision, ExitCode, Session, SessionSettings
from referee.session_vision import OPENING
from vision.detections import BACK, FACE, CardDetections
from vision.oracle import COLOUR_INDEX
from vision.sources import VideoSource


@dataclass(frozen=True)
class Reading:
    detections: CardDetections
    detect_ms: float = 0.0
    recognise_ms: float = 0.0


def flat_card_reader(image: np.ndarray) -> Reading:
    """Cards of the scripted clip: regions unlike the green cloth, named by their colours."""
    away = np.linalg.norm(image.astype(np.float32) - np.array(BACKGROUND_BGR, np.float32), axis=2) > 45
    mask = cv2.morphologyEx(away.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quads, kinds, colours, numbers = [], [], [], []
    backs: list[str | None] = []
    for contour in contours:
        if cv2.contourArea(contour) < 150:
            continue
        box = cv2.boxPoints(cv2.minAreaRect(contour))
        inside = np.zeros(mask.shape, np.uint8)
        cv2.fillPoly(inside, [contour], 1)
        rim = cv2.subtract(cv2.erode(inside, np.ones((3, 3), np.uint8)), cv2.erode(inside, np.ones((7, 7), np.uint8)))
        core = cv2.erode(inside, np.ones((11, 11), np.uint8))
        rim_bgr = np.median(image[rim > 0], axis=0)
        core_bgr = np.array(cv2.mean(image, core)[:3])
        quads.append(box)
        if np.ptp(rim_bgr) < 25:  # a grey rim: a face
            kinds.append(FACE)
            name = min(COLOURS_BGR, key=lambda c: np.linalg.norm(core_bgr - COLOURS_BGR[c]))
            colours.append(COLOUR_INDEX[name])
            numbers.append(int(np.argmin([abs(rim_bgr.mean() - face_grey(n)) for n in range(1, 11)])) + 1)
            backs.append(None)
        else:
            kinds.append(BACK)
            colours.append(-1)
            numbers.append(0)
            backs.append(min(BACKS_BGR, key=lambda b: np.linalg.norm(core_bgr - BACKS_BGR[b])))
    dets = CardDetections.from_quads(np.asarray(quads).reshape(-1, 4, 2), kinds, np.full(len(quads), 0.9))
    return Reading(
        dets.with_identity(colour=colours, number=numbers, back=backs, identity_confidence=[0.9] * len(quads))
    )


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return film(two_player_round(), tmp_path_factory.mktemp("clip") / "round.mp4")


@pytest.mark.parametrize("stride", [1, 2])
def test_the_detector_path_referees_the_round(clip, stride):
    session = Session(DetectorVision(flat_card_reader), SessionSettings(stride=stride))
    with VideoSource(clip["video"]) as source:
        samples = list(source.sample(session.sample_times(source.info)))
        # frames the stride leaves out are decoded without making their pictures
        frames = source.frames(need_picture=lambda index: index % stride == 0)
        result = session.run(source, samples=samples, frames=frames)
    assert result.unreadable == 0
    metrics = score_round(list(read_events(clip["events"])), [(e.event, e.said_t) for e in result.emitted])
    assert (metrics.plays.recall, metrics.plays.precision) == (1.0, 1.0)
    assert metrics.illegal.recall == 1.0
    assert result.exit_code is ExitCode.OK
    assert result.scored is not None and result.scored.scores == {"blue-blue": 2, "red-red": -1}
    assert result.frames_seen == pytest.approx(result.frames_read / stride, abs=1)


def test_still_frames_are_not_read_again_and_nothing_is_lost(clip):
    session = Session(DetectorVision(flat_card_reader), SessionSettings(skip_still=True))
    with VideoSource(clip["video"]) as source:
        result = session.run(source, samples=list(source.sample(session.sample_times(source.info))))
    metrics = score_round(list(read_events(clip["events"])), [(e.event, e.said_t) for e in result.emitted])
    assert (metrics.plays.recall, metrics.plays.precision, metrics.illegal.recall) == (1.0, 1.0, 1.0)
    assert result.scored is not None and result.scored.scores == {"blue-blue": 2, "red-red": -1}
    # a scripted table is still between its moves: read on its moves, and again every 4th frame (a reading may
    # stand for fewer frames than the tracker's vote spans, so one misread can never win a vote by repetition)
    assert result.frames_seen < 0.3 * result.frames_read


def test_only_the_cards_kept_are_recognised():
    class Reader:
        def __init__(self) -> None:
            self.seen: list[int] = []

        def detector(self, image):
            quads = [[[x, 0], [x + 59, 0], [x + 59, 91], [x, 91]] for x in (0, 100, 200)]
            return CardDetections.from_quads(quads, [FACE] * 3, [0.9] * 3)

        def recogniser(self, image, detections):
            self.seen.append(len(detections))
            return detections

    from vision.sources import Frame

    reader = Reader()
    found, _ = DetectorVision(reader).read(
        Frame(0, 0.0, np.zeros((120, 320, 3), np.uint8)), keep=lambda d: d.corners[:, 0, 0] < 150
    )
    assert len(found) == 2 and reader.seen == [2]


def test_the_opening_frames_the_seats_are_learnt_from_go_through_the_opening_plan_and_the_count_through_its_own():
    from vision.sources import Frame

    def one(name: str, used: list[str]):
        def detector(image):
            used.append(name)
            return CardDetections.from_quads([[[0, 0], [59, 0], [59, 91], [0, 91]]], [BACK], [0.9])

        return detector

    used: list[str] = []

    class Reader:
        detector = staticmethod(one("one pass", used))

        @staticmethod
        def recogniser(image, detections):
            return detections

    vision = DetectorVision(Reader(), thorough=one("counting", used), opening=one("opening", used))
    frame = Frame(0, 0.0, np.zeros((120, 320, 3), np.uint8))
    for thorough in (OPENING, True, False):
        vision.read(frame, thorough=thorough)
    assert used == ["opening", "counting", "one pass"]
    DetectorVision(Reader(), thorough=one("counting", used)).read(frame, thorough=OPENING)
    assert used[-1] == "counting"  # without a plan of its own the opening is read as thoroughly as the count


class SplitReader:
    """The flat-card reader in two steps, as the shipped reader works: a detector that finds the cards (their
    outlines only) and a recogniser that names them; it notes which thread ran each detection."""

    def __init__(self) -> None:
        self.threads: list[str] = []

    def detector(self, image: np.ndarray) -> CardDetections:
        self.threads.append(threading.current_thread().name)
        found = flat_card_reader(image).detections
        return CardDetections.from_quads(found.corners, found.kind, found.confidence)

    def recogniser(self, image: np.ndarray, detections: CardDetections) -> CardDetections:
        named = flat_card_reader(image).detections
        if not len(detections):
            return detections
        centres = named.corners.mean(axis=1)
        which = [int(np.argmin(np.linalg.norm(centres - quad.mean(axis=0), axis=1))) for quad in detections.corners]
        return detections.with_identity(
            colour=named.colour[which],
            number=named.number[which],
            back=list(named.back[which]),
            identity_confidence=named.identity_confidence[which],
        )


def rulings(video: Path, reader: SplitReader, settings: SessionSettings) -> list[tuple[str, float]]:
    """The rulings said replaying ``video`` with ``reader``, and when."""
    session = Session(DetectorVision(reader), settings)
    with VideoSource(video) as source:
        result = session.run(source, samples=list(source.sample(session.sample_times(source.info))))
    return [(e.event.to_json_line(), e.said_t) for e in result.emitted]


@pytest.mark.parametrize(("skip_still", "ahead"), [(False, 1), (True, 1), (True, 3), (True, 8)])
def test_the_next_frames_are_detected_beside_this_one_with_the_same_rulings(clip, skip_still, ahead):
    said, threads = {}, {}
    for overlap in (False, True):
        reader = SplitReader()
        settings = SessionSettings(skip_still=skip_still, overlap=overlap, ahead=ahead)
        said[overlap] = rulings(clip["video"], reader, settings)
        threads[overlap] = reader.threads
    assert said[True] == said[False]  # the round stops and is counted: plans made ahead are undone and made again
    assert any(t.startswith("detector") for t in threads[True])
    assert not any(t.startswith("detector") for t in threads[False])
    assert len(threads[True]) >= len(threads[False])  # a plan undone costs its detection once more at most


class CountingReader(SplitReader):
    """The split reader, counting the cards its recogniser reads."""

    def __init__(self) -> None:
        super().__init__()
        self.recognised = 0

    def recogniser(self, image: np.ndarray, detections: CardDetections) -> CardDetections:
        self.recognised += len(detections)
        return super().recogniser(image, detections)


def test_still_cards_keep_their_readings_with_the_same_rulings(clip):
    said, recognised = {}, {}
    for remember in (False, True):
        reader = CountingReader()
        said[remember] = rulings(clip["video"], reader, SessionSettings(skip_still=True, remember=remember))
        recognised[remember] = reader.recognised
    assert said[True] == said[False]
    # the stacks lie still between moves: most readings find every card where it was read
    assert recognised[True] < 0.5 * recognised[False]  # 170 of 576 when written


def test_play_is_read_magnified_where_the_tables_cards_are_small_in_the_detectors_input():
    from vision.detect import DEFAULT_MODEL
    from vision.detect.onnx_detector import OnnxDetector

    if not DEFAULT_MODEL.is_file():
        pytest.skip("no shipped detector model yet")

    class Reader:
        detector = OnnxDetector()
        recogniser = None

    vision = DetectorVision(Reader())
    assert vision.fit_to_cards(57.0, (1280, 720)) is None  # a two-player round's cards: read as they are
    assert vision.fit_to_cards(42.0, (1280, 720)) == (512, 864)  # a four-player round's: made 28 px wide
    assert Reader.detector.input_size == (512, 864)
    assert vision.fit_to_cards(35.0, (1280, 720)) == (640, 1024)  # a fifth farther off: from the input as exported
    assert DetectorVision(object()).fit_to_cards(35.0, (1280, 720)) is None  # a reader with no detector of its own


def test_once_the_table_plane_is_known_the_vision_is_fitted_to_its_cards_and_the_replay_says_so():
    from vision.geometry import TableGeometry

    class Vision:
        name = "stub"

        def __init__(self) -> None:
            self.asked: list[tuple[float, tuple[int, int]]] = []

        def fit_to_cards(self, card_px, size):
            self.asked.append((card_px, size))
            return (448, 736)

    plane = TableGeometry(np.diag([59.0 / 35.0, 59.0 / 35.0, 1.0]))  # cards 35 px wide
    vision = Vision()
    session = Session(vision, SessionSettings(geometry=plane))
    assert session.find_geometry([], (1280, 720)) is plane
    assert vision.asked == [(pytest.approx(35.0), (1280, 720))]
    assert session.magnified == "the cards are small in the picture (35 px wide): play read at 736 x 448, slower"


def test_a_spot_is_looked_at_alone_twice_as_close_and_its_cards_come_back_in_the_pictures_pixels():
    from vision.detect.onnx_detector import Letterbox

    class Detector:
        input_size, any_size = (384, 640), True

        def __init__(self) -> None:
            self.shapes: list[tuple[int, ...]] = []
            self.parts: list[tuple[int, int, int, int] | None] = []

        def __call__(self, image: np.ndarray, within: tuple[int, int, int, int] | None = None) -> CardDetections:
            self.shapes.append(image.shape)
            self.parts.append(within)
            x0, y0, x1, y1 = within or (0, 0, image.shape[1], image.shape[0])
            middle = np.array([(x0 + x1) / 2, (y0 + y1) / 2], np.float32)  # one card in the middle of what it read
            quad = middle + np.array([[-20, -30], [20, -30], [20, 30], [-20, 30]], np.float32)
            return CardDetections.from_quads(quad[None], np.array([FACE]), np.array([0.9], np.float32))

    class Reader:
        detector = Detector()
        recogniser = None

    assert Letterbox.fit(720, 1280, Detector.input_size).scale == 0.5
    frame = type("Frame", (), {"image": np.zeros((720, 1280, 3), np.uint8)})()
    found = DetectorVision(Reader()).look_closer(frame, [(900.0, 300.0), (50.0, 50.0)], None, card_px=40.0)
    # each spot read alone, in a window half the picture's width and height (twice the scale of the whole), of
    # which only the part two card widths round the spot goes through the network
    assert Reader.detector.shapes == [(384, 640, 3), (384, 640, 3)]
    assert Reader.detector.parts == [(240, 112, 400, 272), (0, 0, 130, 130)]
    assert found[0].corners.mean(axis=1).tolist() == [[900.0, 300.0]]
    assert found[1].corners.mean(axis=1).tolist() == [[65.0, 65.0]], "the window is held inside the picture"
    only_left = DetectorVision(Reader()).look_closer(
        frame, [(900.0, 300.0)], lambda cards: cards.corners.mean(axis=1)[:, 0] < 640, card_px=40.0
    )
    assert len(only_left[0]) == 0, "a card the frame would not keep (outside the centre) is not kept either"

"""Card detection on the CPU through onnxruntime: letterbox, one forward pass, oriented-box decoding.

The shipped model is YOLO26n-OBB exported end to end (NMS-free one-to-one head): its output is
``(1, K, 7)`` rows of ``cx, cy, w, h, score, class, angle`` in input pixels, best first. A model exported
with the raw head (``(1, 4 + classes + 1, anchors)``) also works; its boxes then go through rotated NMS.

    detector = OnnxDetector("models/detector.onnx")
    detections = detector(cv2.imread("table.jpg"))
"""

from __future__ import annotations

import ast
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import onnxruntime as ort

from referee.errors import InputFileError
from vision.detect.geometry import obb_to_quads, rotated_nms
from vision.detections import CardDetections

Image = npt.NDArray[np.uint8]
DEFAULT_MODEL = Path(__file__).resolve().parents[2] / "models" / "detector.onnx"
Box = tuple[int, int, int, int]
PAD_VALUE = 114  # ultralytics' letterbox grey, which the network saw around every training image


@dataclass(frozen=True)
class Letterbox:
    """How an image was fitted into the network input: ``input = image * scale + (left, top)``.

    >>> box = Letterbox.fit(720, 1280, (384, 640))
    >>> box.scale, box.left, box.top
    (0.5, 0, 12)
    """

    scale: float
    left: int
    top: int
    width: int
    height: int

    @classmethod
    def fit(cls, height: int, width: int, target: tuple[int, int]) -> Letterbox:
        scale = min(target[0] / height, target[1] / width)
        new_w, new_h = round(width * scale), round(height * scale)
        left = round((target[1] - new_w) / 2 - 0.1)
        top = round((target[0] - new_h) / 2 - 0.1)
        return cls(scale, left, top, new_w, new_h)

    def apply(self, image: Image, target: tuple[int, int]) -> Image:
        """The padded, resized image of the network's input size (resized straight into the padded frame)."""
        padded = np.full((*target, 3), PAD_VALUE, np.uint8)
        inside = padded[self.top : self.top + self.height, self.left : self.left + self.width]
        resized = cv2.resize(image, (self.width, self.height), dst=inside, interpolation=cv2.INTER_LINEAR)
        if resized is not inside and not np.shares_memory(resized, padded):  # OpenCV made its own array after all
            inside[...] = resized
        return padded

    def to_image(self, boxes: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Maps (N, 5) ``cx, cy, w, h, angle`` from input pixels back to image pixels."""
        out = boxes.copy()
        out[:, 0] = (boxes[:, 0] - self.left) / self.scale
        out[:, 1] = (boxes[:, 1] - self.top) / self.scale
        out[:, 2:4] = boxes[:, 2:4] / self.scale
        return out


class OnnxDetector:
    """Finds cards (faces and backs) as oriented quads in a BGR image."""

    def __init__(
        self,
        model: str | Path = DEFAULT_MODEL,
        conf: float = 0.4,
        iou: float = 0.5,
        threads: int | None = None,
    ) -> None:
        path = Path(model)
        if not path.is_file():
            raise FileNotFoundError(f"no detector model at {path}: run 'ligretto train detector' first")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or os.cpu_count() or 1
        options.inter_op_num_threads = 1
        # No busy-waiting between operators: on a CPU shared with other jobs, spinning threads wait for
        # descheduled siblings (measured on 2 cores under load: 40 ms per frame spinning, 23 ms without).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        try:
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own types, one per way a file can be wrong
            hint = " (an ultralytics checkpoint runs with --backend ultralytics)" if path.suffix == ".pt" else ""
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise InputFileError(f"{path} is not an ONNX detector model{hint}: {first}") from None
        self.input_name = self.session.get_inputs()[0].name
        meta = self.session.get_modelmeta().custom_metadata_map
        dims = self.session.get_inputs()[0].shape[2:4]
        self.any_size = not all(isinstance(d, int) for d in dims)
        """A model exported with dynamic axes: it reads a part of the frame (``within``) at the frame's scale."""
        nominal = ast.literal_eval(meta["imgsz"]) if self.any_size and "imgsz" in meta else dims
        self.input_size: tuple[int, int] = (int(nominal[0]), int(nominal[1]))
        self.nominal_size = self.input_size
        """The input size the model was exported at (see :meth:`magnify`)."""
        self.stride = int(meta.get("stride", 32))
        self.conf = conf
        self.iou = iou
        self.names: dict[int, str] = ast.literal_eval(meta["names"]) if "names" in meta else {0: "face", 1: "back"}

    def card_width_in_input(self, card_px: float, height: int, width: int) -> float:
        """How wide a card ``card_px`` wide in a ``height`` x ``width`` picture is in the network's nominal input
        (as exported, whatever :meth:`magnify` made of it since: a magnification is a multiple of that)."""
        if turned_for(height, width, self.nominal_size):
            height, width = width, height
        return card_px * Letterbox.fit(height, width, self.nominal_size).scale

    def magnify(self, factor: float) -> bool:
        """Reads every picture ``factor`` times larger than the model's nominal input (on the stride's grid), so
        that small cards come out as large as the cards it learnt from; False (nothing changed) for a model of
        fixed input size."""
        if not self.any_size:
            return False
        height, width = self.nominal_size
        self.input_size = (
            math.ceil(height * factor / self.stride) * self.stride,
            math.ceil(width * factor / self.stride) * self.stride,
        )
        return True

    def __call__(self, image: Image, within: Box | None = None) -> CardDetections:
        """Detects the cards in one BGR image (any size; letterboxed to the model's input).

        ``within`` (``x0, y0, x1, y1`` pixels): only the cards in that part of the picture matter. A model that
        takes any input size reads just that part, at the scale the whole picture would be read at, in less
        time (a third of the frame: about half the time); a fixed-size model reads the whole picture.

        A portrait picture (a phone held upright, a camera turned) is read turned a quarter, landscape like the
        network's input: letterboxed as it stands, its cards would shrink to a third (see :func:`read_turned`)."""
        if turned_for(image.shape[0], image.shape[1], self.input_size):
            return read_turned(self, image, within)
        box = Letterbox.fit(image.shape[0], image.shape[1], self.input_size)
        padded = box.apply(image, self.input_size)
        if within is None or not self.any_size:
            return self._detect(padded, box, (0, 0))
        # The part of the network input that holds ``within``, on the stride's grid: the network sees the very
        # pixels it would see in the whole frame's input, in the same places relative to its grid, so the cards
        # inside come out as the whole frame's reading finds them (a part cut anywhere else is read afresh).
        x0, y0, x1, y1 = within
        stride, (height, width) = self.stride, self.input_size
        u0 = max(0, math.floor((x0 * box.scale + box.left) / stride) * stride)
        v0 = max(0, math.floor((y0 * box.scale + box.top) / stride) * stride)
        u1 = min(width, math.ceil((x1 * box.scale + box.left) / stride) * stride)
        v1 = min(height, math.ceil((y1 * box.scale + box.top) / stride) * stride)
        if u1 <= u0 or v1 <= v0:
            return CardDetections.empty()
        return self._detect(padded[v0:v1, u0:u1], box, (u0, v0))

    def _detect(self, network_input: Image, box: Letterbox, origin: tuple[int, int]) -> CardDetections:
        """Runs the network on (part of) a letterboxed frame whose top-left corner lies at ``origin`` in the
        whole input; boxes come back in the frame's pixels."""
        output = self.session.run(None, {self.input_name: to_blob(network_input)})[0][0]
        boxes, scores, classes = self._decode(output)
        if not len(boxes):
            return CardDetections.empty()
        boxes[:, 0] += origin[0]
        boxes[:, 1] += origin[1]
        return CardDetections.from_quads(obb_to_quads(box.to_image(boxes)), kind=classes, confidence=scores)

    def _decode(self, output: npt.NDArray[np.float32]) -> Decoded:
        if output.ndim == 2 and output.shape[1] == 7:
            return decode_end2end(output, self.conf)
        return decode_raw(output, self.conf, self.iou)


SMALL_CARD_PX = 24.0
"""A card narrower than this in the network's input is read magnified (:func:`magnification`). The two-player
rounds' cards, 55-60 px wide in a 1280 x 720 frame, are 28-30 px there and read as they are. The four-player
rounds' cards, 41-44 px wide in the frame, are 21-22 px there: found, but not surely enough on tables training
never saw. Seeds 124000-124006, four players, held out: a blue check cloth in dim light lost 15 of 62 plays read
at 21 px (its blue and green cards never boxed), 3 at 28 px; illegal cards shown for a frame or two before the
hand took them back: 11 of 21 caught and none said falsely, against 5 caught and 4 said falsely."""
MAGNIFIED_CARD_PX = 28.0
"""How wide a small card is made in the network's input when magnified: about as wide as the two-player rounds'
cards, which it reads best. Made 30 px wide instead, the same rounds came out alike (plays 765 against 763 of 768
over seeds 123000-123006 and 124000-124006 at four players, illegal plays 14 against 15 caught, players exact 42
against 45 of 56) for 10 % more pixels."""
MAX_MAGNIFICATION = 2.0
"""At most this much larger (four times the detector's time): cards smaller still are beyond what it learnt."""


def magnification(card_in_input: float) -> float:
    """How much larger than nominal the network's input should be for cards ``card_in_input`` px wide in it: 1
    (as it is) unless they are narrower than :data:`SMALL_CARD_PX`, then enough to bring them to
    :data:`MAGNIFIED_CARD_PX`.

    >>> magnification(28.5), round(magnification(21.0), 3), magnification(10.0)
    (1.0, 1.333, 2.0)
    """
    if card_in_input <= 0 or card_in_input >= SMALL_CARD_PX:
        return 1.0
    return min(MAX_MAGNIFICATION, MAGNIFIED_CARD_PX / card_in_input)


def turned_for(height: int, width: int, input_size: tuple[int, int]) -> bool:
    """Whether a ``height`` x ``width`` picture is read turned a quarter: it is portrait and the network's input
    (height, width) landscape.

    >>> turned_for(1280, 720, (384, 640)), turned_for(720, 1280, (384, 640)), turned_for(640, 640, (384, 640))
    (True, False, False)
    """
    return height > width and input_size[1] > input_size[0]


def read_turned(
    detect: Callable[[Image, Box | None], CardDetections], image: Image, within: Box | None = None
) -> CardDetections:
    """``detect`` run on ``image`` turned a quarter clockwise, its cards put back in the picture's own pixels.

    Turned clockwise, a point ``(x, y)`` of a picture ``height`` pixels high goes to ``(height - y, x)``; the
    corners keep their order round each card (a turn is no mirror), so a card's top-left stays its top-left."""
    height = image.shape[0]
    turned = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    part = None if within is None else (height - within[3], within[0], height - within[1], within[2])
    found = detect(np.ascontiguousarray(turned, dtype=np.uint8), part)
    if not len(found):
        return found
    corners = found.corners.astype(np.float32)
    back = np.stack([corners[..., 1], height - corners[..., 0]], axis=-1)
    return found.with_corners(back)


def to_blob(image: Image) -> npt.NDArray[np.float32]:
    """A BGR ``(h, w, 3)`` image -> the network's ``(1, 3, h, w)`` RGB input in 0..1, as
    ``cv2.dnn.blobFromImage(image, 1 / 255, swapRB=True)`` makes it (the same numbers) in about 60% of its time:
    one plane at a time, each a contiguous copy.

    >>> image = np.arange(24, dtype=np.uint8).reshape(2, 4, 3)
    >>> bool(np.array_equal(to_blob(image), cv2.dnn.blobFromImage(image, 1 / 255.0, swapRB=True)))
    True
    """
    blob = np.empty((1, 3, *image.shape[:2]), np.float32)
    for plane, channel in enumerate(cv2.split(image)[::-1]):
        np.multiply(channel, np.float32(1 / 255.0), out=blob[0, plane], casting="unsafe")
    return blob


Decoded = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.int8]]


def decode_end2end(output: npt.NDArray[np.float32], conf: float) -> Decoded:
    """An NMS-free head's rows ``cx, cy, w, h, score, class, angle`` -> (boxes with angle, scores, classes).

    >>> boxes, scores, classes = decode_end2end(np.array([[5, 6, 2, 3, 0.9, 1, 0.1], [0, 0, 1, 1, 0.1, 0, 0]]), 0.5)
    >>> boxes.astype(float).round(2).tolist(), scores.astype(float).round(2).tolist(), classes.tolist()
    ([[5.0, 6.0, 2.0, 3.0, 0.1]], [0.9], [1])
    """
    rows = np.asarray(output, np.float32)
    rows = rows[rows[:, 4] >= conf]
    boxes = np.concatenate([rows[:, :4], rows[:, 6:7]], axis=1)
    return boxes, rows[:, 4], rows[:, 5].astype(np.int8)


def decode_raw(output: npt.NDArray[np.float32], conf: float, iou: float) -> Decoded:
    """A raw head's ``(4 + classes + 1, anchors)`` output -> boxes kept by rotated NMS, their scores and classes."""
    preds = np.asarray(output, np.float32).T
    class_scores = preds[:, 4:-1]
    scores = class_scores.max(axis=1)
    keep = scores >= conf
    preds, scores = preds[keep], scores[keep]
    classes = class_scores[keep].argmax(axis=1).astype(np.int8)
    boxes = np.concatenate([preds[:, :4], preds[:, -1:]], axis=1)
    kept = rotated_nms(obb_to_quads(boxes), scores, iou)
    return boxes[kept], scores[kept], classes[kept]

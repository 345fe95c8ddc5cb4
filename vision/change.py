"""Has the picture changed since the cards were last read? A cheap gate that spares the detector still frames.

Most frames of a round show the same cards as the frame before: between plays nothing on the table moves. The
gate compares a small grey thumbnail of each frame (80 x 45, a fraction of a millisecond) with the one taken
when the detector last ran; only when enough of it changed (a card landed, a hand moved) is the detector
needed again. ``max_age`` frames at most pass without a reading, so a slow change is never missed for long.

>>> import numpy as np
>>> gate = ChangeGate()
>>> still = np.full((360, 640, 3), 90, np.uint8)
>>> gate.needs_reading(still), gate.needs_reading(still.copy())
(True, False)
>>> moved = still.copy(); moved[100:160, 300:340] = 250     # a card came down
>>> gate.needs_reading(moved)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

THUMB_SIZE = (80, 45)
"""Small and blurred: a camera shake of a pixel or two at 720p, sensor noise and a dotted cloth stay below the
threshold, a card (40 px wide at 720p: 10 thumbnail pixels) does not."""


@dataclass
class ChangeGate:
    """``threshold``: grey levels a thumbnail pixel must change by; ``share``: the share of pixels that must
    change (0.15%: a card at the far side of a 720p frame covers about 0.3% of it); ``max_age``: readings
    at most this many frames apart whatever the gate says (a quarter second at 30 fps)."""

    threshold: int = 20
    share: float = 0.0015
    max_age: int = 8
    _reference: npt.NDArray[np.uint8] | None = field(default=None, repr=False)
    _age: int = 0

    def needs_reading(self, image: npt.NDArray[np.uint8]) -> bool:
        """True when the frame must go through the detector (and becomes the new reference)."""
        thumb = _thumb(image)
        self._age += 1
        if self._reference is not None and self._age < self.max_age:
            changed = np.count_nonzero(cv2.absdiff(thumb, self._reference) > self.threshold)
            if changed < self.share * thumb.size:
                return False
        self._reference, self._age = thumb, 0
        return True


def _thumb(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    small = cv2.resize(grey, THUMB_SIZE, interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(small, (5, 5), 0), np.uint8)

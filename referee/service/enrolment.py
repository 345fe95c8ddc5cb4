"""The back enrolment wizard's step: one card's back held up to the camera becomes a design in the catalogue.

The recogniser's own :func:`vision.recognise.enrol.enrol` does the work on the current frame, written to a
file named here (the user's name only becomes a back id through :func:`referee.backs.back_id_from_name`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import cv2

from referee.errors import InputFileError
from vision.sources import Frame


def enrol_from_frame(frame: Frame | None, name: str, catalogue: Path) -> Any:
    """Learns the back shown in ``frame`` under ``name``; returns the recogniser's ``Enrolment``."""
    if frame is None or frame.image is None:
        raise InputFileError("no camera picture yet: wait for the live picture, then hold one back to the camera")
    try:
        from vision.recognise.backs import BackEmbedder
        from vision.recognise.enrol import enrol
        from vision.recognise.faces import FaceReader
    except ImportError as exc:  # the recogniser is an optional part of the tree
        raise InputFileError(f"back enrolment is not available in this installation ({exc})") from None
    catalogue.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ligretto-enrol-") as folder:
        photo = Path(folder) / "camera.png"
        cv2.imwrite(str(photo), frame.image)
        return enrol([photo], name, catalogue, BackEmbedder(), FaceReader())

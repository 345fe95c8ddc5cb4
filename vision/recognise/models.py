"""Where the shipped recogniser models live and how they are opened (onnxruntime, CPU)."""

from __future__ import annotations

from pathlib import Path

import onnxruntime as ort

from referee.errors import InputFileError

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
FACES_MODEL = MODELS_DIR / "recogniser-faces.onnx"
BACKS_MODEL = MODELS_DIR / "recogniser-backs.onnx"


class ModelMissingError(InputFileError, FileNotFoundError):
    """A recogniser model file is missing (callers that can do without identities catch FileNotFoundError)."""


def open_session(path: str | Path, threads: int = 0) -> ort.InferenceSession:
    """An onnxruntime CPU session; a clear error if the model file is missing (retrain with one command)."""
    path = Path(path)
    if not path.is_file():
        raise ModelMissingError(f"recogniser model {path} not found: run 'ligretto train recogniser' to make it")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

"""Fixtures of the recogniser tests: the shipped models (or a skip) and tiny freshly trained ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.recognise.models import BACKS_MODEL, FACES_MODEL
from vision.recognise.train import TrainConfig, tiny, train


@pytest.fixture(scope="session")
def shipped_models() -> None:
    """Skips a test that needs the trained models when a checkout has not made them yet."""
    if not (FACES_MODEL.exists() and BACKS_MODEL.exists()):
        pytest.skip("recogniser models not trained yet (ligretto train recogniser)")


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both networks trained for one epoch on 64 crops: right shapes, meaningless answers."""
    out = tmp_path_factory.mktemp("models")
    for part in ("faces", "backs"):
        train(tiny(TrainConfig.for_part(part)), out, cache=out / "cache", log=lambda _line: None)
    return out

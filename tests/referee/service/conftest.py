"""Fixtures for the service tests: a scripted round filmed into a real MP4 (with its exact labels), and apps
built on it with the live pipeline playing the file as fast as it goes or at its own rate."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from referee.scripted_clip import film, two_player_round
from referee.service.main import create_app
from referee.service.settings import Settings


@pytest.fixture(scope="session")
def clip(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A two-player round: r1 r2 on stack 1, b1 b2 on stack 2, an illegal r5 at 4.0 s, r3, the centre gathered
    at 9 s and counted (red-red -1, blue-blue +2)."""
    return film(two_player_round(), tmp_path_factory.mktemp("clip") / "round.mp4")


@pytest.fixture
def make_client(tmp_path: Path, clip: dict[str, Path]) -> Iterator[Callable[..., TestClient]]:
    clients: list[TestClient] = []

    def make(**overrides: Any) -> TestClient:
        values: dict[str, Any] = {
            "source": str(clip["video"]),
            "oracle": True,
            "speed": 0.0,
            "db": tmp_path / "table.db",
            "data_dir": tmp_path / "data",
            **overrides,
        }
        client = TestClient(create_app(Settings(**values)))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def _wait_for(client: TestClient, check: Callable[[dict[str, Any]], bool], path: str = "/api/state") -> dict[str, Any]:
    """Polls ``path`` until ``check`` holds (the pipeline runs in its own thread); fails after 60 s."""
    deadline = time.monotonic() + 60.0
    while True:
        data = client.get(path).json()
        if check(data):
            return data
        assert time.monotonic() < deadline, f"gave up waiting; last answer: {data}"
        time.sleep(0.05)


def _seat_players(client: TestClient) -> None:
    for back, name in (("red-red", "Ada"), ("blue-blue", "Bob")):
        assert client.post("/api/players", json={"back": back, "name": name}).status_code == 201


@pytest.fixture
def wait_for() -> Callable[..., dict[str, Any]]:
    return _wait_for


@pytest.fixture
def seat_players() -> Callable[[TestClient], None]:
    return _seat_players

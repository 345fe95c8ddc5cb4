"""``ligretto serve`` killed with SIGKILL mid-round: restarted on the same database, it shows every event it
had published, and play goes on with the next round."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _until(check, what: str, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = check()
            if value:
                return value
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.1)


def test_a_server_killed_mid_round_loses_no_published_event(clip, tmp_path: Path, make_client) -> None:
    db, port = tmp_path / "table.db", _free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "referee.cli.main", "serve", "--source", str(clip["video"]), "--oracle"]
    server = subprocess.Popen([*command, "--port", str(port), "--db", str(db), "--data", str(tmp_path / "d")])
    try:
        _until(lambda: httpx.get(base + "/api/health").status_code == 200, "the server")
        assert httpx.post(base + "/api/rounds").status_code == 201

        def published() -> list:
            log = httpx.get(base + "/api/events/log").json()
            return log if any(e["event"]["type"] == "card_played" for e in log) else []

        seen = _until(published, "a card played")  # mid-round: the clip plays at its own rate
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
    finally:
        if server.poll() is None:
            server.kill()

    client = make_client(db=db)
    after = client.get("/api/sessions/1/events").json()
    assert after[: len(seen)] == seen
    state = client.get("/api/state").json()
    assert state["session"]["id"] == 1 and state["session"]["rounds_played"] == 0
    assert client.post("/api/rounds").json()["number"] == 2

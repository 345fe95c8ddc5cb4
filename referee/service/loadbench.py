"""The load benchmark behind ``ligretto serve-bench`` (a measurement, not a test).

A real server (``ligretto serve`` in a child process, so its CPU use is its own) plays a video file as the
camera; VIEWERS WebSocket clients and one picture poller (a page's live picture) connect on loopback; rounds
run back to back. Printed: the pipeline's frame rate against the video's, the latency from the frame that
caused each event (``epoch + t``) to its arrival at every viewer, split into the referee's evidence and the
rest: from the frame the referee ruled on (``timing.due``: when the camera had it) to arrival is the pipeline +
fan-out, and from the server's ``added`` to arrival the fan-out alone; the frames the pipeline took and dropped
(it always takes the newest) and the worst lag of a frame behind the camera; and the server's CPU use.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import InputFileError

LANDINGS = ("stack_started", "card_played", "illegal_play", "conflict")
"""Events dated by the frame where a card came down (a vanished stack is dated when last seen, long before)."""


@dataclass(frozen=True)
class BenchOptions:
    source: str
    oracle: bool
    viewers: int
    seconds: float
    port: int = 0
    json: bool = False


@dataclass
class Tally:
    latency_ms: list[float] = field(default_factory=list)
    after_ruling_ms: list[float] = field(default_factory=list)
    """From the frame the referee ruled on (when the camera had it) to the viewer: the pipeline + fan-out."""
    fanout_ms: list[float] = field(default_factory=list)
    messages: int = 0
    dropped: int = 0
    fps: list[float] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)
    """The pipeline's worst frame lag (how late a frame was taken after it came) in each poll's last 300."""
    frames: list[tuple[int, int]] = field(default_factory=list)
    """(frames taken, frames dropped) since the server started, at each poll."""
    pictures: int = 0
    rounds: int = 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (nearest rank) of ``values``; None when empty.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([], 95)
    (2.0, None)
    """
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))]


async def _viewer(url: str, tally: Tally, until: float) -> None:
    import websockets

    async with websockets.connect(url, max_queue=None) as ws:
        while time.time() < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.time()))
            except TimeoutError:
                break
            now = time.time()
            message = json.loads(raw)
            if message.get("kind") != "event":
                continue
            tally.messages += 1
            epoch = message.get("epoch")
            if epoch is not None and message["event"]["type"] in LANDINGS:
                tally.latency_ms.append((now - (epoch + message["event"]["t"])) * 1000.0)
            tally.fanout_ms.append((now - message["added"]) * 1000.0)
            due = message.get("timing", {}).get("due")
            if due is not None:
                tally.after_ruling_ms.append((now - due) * 1000.0)


async def _driver(base: str, tally: Tally, until: float) -> None:
    """Starts rounds back to back, polls the pipeline's frame rate and the live picture."""
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=10.0) as client:
        next_state = 0.0
        while time.time() < until:
            if time.time() >= next_state:
                state = (await client.get("/api/state")).json()
                next_state = time.time() + 1.0
                rnd = state["round"]
                if rnd is None or rnd["done"] or rnd["phase"] == "source ended":
                    if (await client.post("/api/rounds")).status_code == 201:
                        tally.rounds += 1
                elif state["pipeline"]["fps"] > 0 and state["pipeline"]["frames"] > 60:
                    tally.fps.append(state["pipeline"]["fps"])
                    if state["pipeline"].get("lag_ms_max") is not None:
                        tally.lag_ms.append(state["pipeline"]["lag_ms_max"])
                tally.frames.append((state["pipeline"]["frames"], state["pipeline"].get("dropped", 0)))
            if (await client.get("/api/picture.jpg")).status_code == 200:
                tally.pictures += 1
            await asyncio.sleep(0.15)


async def _measure(base: str, options: BenchOptions) -> Tally:
    tally = Tally()
    until = time.time() + options.seconds
    ws_url = base.replace("http://", "ws://") + "/api/events?since=999999999"
    tasks = [_viewer(ws_url, tally, until) for _ in range(options.viewers)]
    await asyncio.gather(_driver(base, tally, until), *tasks)
    return tally


def _wait_until_up(base: str, process: subprocess.Popen[bytes]) -> None:
    import httpx

    deadline = time.time() + 60.0
    while time.time() < deadline:
        if process.poll() is not None:
            raise InputFileError(f"the server exited with code {process.returncode} before it was up")
        try:
            if httpx.get(base + "/api/health", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise InputFileError("the server did not come up within 60 s")


def run_load_bench(options: BenchOptions) -> int:
    import psutil

    from referee.service.feed import FeedSpec

    spec = FeedSpec(options.source, oracle=options.oracle)
    spec.check()
    if not spec.is_file:
        raise InputFileError("serve-bench plays a video file as the camera: give --source FILE")
    from vision.sources import VideoSource

    with VideoSource(options.source) as source:
        camera_fps = source.info.fps
    port = options.port or _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="ligretto-bench-") as folder:
        command = [sys.executable, "-m", "referee.cli.main", "serve", "--source", options.source, "--port", str(port)]
        command += ["--db", str(Path(folder) / "bench.db"), "--data", folder, "--rounds", "1000"]
        command += ["--oracle"] if options.oracle else []
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            _wait_until_up(base, server)
            proc = psutil.Process(server.pid)
            cpu_before, wall_before = proc.cpu_times(), time.perf_counter()
            tally = asyncio.run(_measure(base, options))
            cpu_after, wall = proc.cpu_times(), time.perf_counter() - wall_before
        finally:
            server.terminate()
            server.wait(timeout=10)
    cpu_s = (cpu_after.user - cpu_before.user) + (cpu_after.system - cpu_before.system)
    figures = _figures(options, tally, camera_fps, cpu_s, wall)
    if options.json:
        print(json.dumps(figures))
    else:
        _print(figures)
    return 0


def _figures(options: BenchOptions, tally: Tally, camera_fps: float, cpu_s: float, wall: float) -> dict[str, Any]:
    def rounded(v: float | None) -> float | None:
        return round(v, 1) if v is not None else None

    return {
        "viewers": options.viewers,
        "seconds": round(wall, 1),
        "source": Path(options.source).name,
        "vision": "oracle" if options.oracle else "detector",
        "camera_fps": round(camera_fps, 2),
        "pipeline_fps_mean": rounded(statistics.fmean(tally.fps) if tally.fps else None),
        "pipeline_fps_min": rounded(min(tally.fps) if tally.fps else None),
        "rounds_started": tally.rounds,
        "frames_taken": tally.frames[-1][0] - tally.frames[0][0] if tally.frames else None,
        "frames_dropped": tally.frames[-1][1] - tally.frames[0][1] if tally.frames else None,
        "frame_lag_ms_max": rounded(max(tally.lag_ms) if tally.lag_ms else None),
        "event_messages_received": tally.messages,
        "latency_ms_from_frame": {q: rounded(percentile(tally.latency_ms, q)) for q in (50, 95, 99, 100)},
        "fanout_ms": {q: rounded(percentile(tally.fanout_ms, q)) for q in (50, 95, 99, 100)},
        "ruling_frame_to_viewer_ms": {q: rounded(percentile(tally.after_ruling_ms, q)) for q in (50, 95, 99, 100)},
        "pictures_polled": tally.pictures,
        "server_cpu_percent_of_one_core": round(100.0 * cpu_s / wall, 1) if wall > 0 else None,
        "machine_cores": os.cpu_count(),
    }


def _print(f: dict[str, Any]) -> None:
    lat, fan = f["latency_ms_from_frame"], f["fanout_ms"]
    print(f"load bench: {f['viewers']} WebSocket viewers + 1 picture poller for {f['seconds']} s on loopback")
    print(f"  source {f['source']} ({f['vision']}), camera {f['camera_fps']} fps, {f['rounds_started']} rounds")
    print(f"  pipeline fps: mean {f['pipeline_fps_mean']}, min {f['pipeline_fps_min']}")
    print(
        f"  frames taken {f['frames_taken']}, dropped (no time for them) {f['frames_dropped']}; "
        f"worst lag of a frame behind the camera {f['frame_lag_ms_max']} ms"
    )
    print(
        f"  card-down frame to viewer (ms): p50 {lat[50]}  p95 {lat[95]}  p99 {lat[99]}  max {lat[100]}"
        f"  ({f['event_messages_received']} deliveries)"
    )
    rul = f["ruling_frame_to_viewer_ms"]
    print(
        f"  ruling frame to viewer, pipeline + fan-out (ms): p50 {rul[50]}  p95 {rul[95]}  p99 {rul[99]}"
        f"  max {rul[100]}"
    )
    print(f"  fan-out alone, server to viewer (ms): p50 {fan[50]}  p95 {fan[95]}  p99 {fan[99]}  max {fan[100]}")
    print(f"  server CPU: {f['server_cpu_percent_of_one_core']} % of one core ({f['machine_cores']} cores)")
    print(f"  live pictures polled: {f['pictures_polled']}")

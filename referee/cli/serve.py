"""``ligretto serve``: the live referee as a web page; ``ligretto serve-bench``: its load benchmark."""

from __future__ import annotations

import argparse
from pathlib import Path

from referee.errors import SetupError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="the live referee in a web page: camera picture, stacks, alerts, rounds, score sheet",
        description="Reads frames live from a camera, a network stream or a video file (played at its own rate as\n"
        "a stand-in camera, from the moment a round starts), referees every round at camera rate, stores\n"
        "every event in an SQLite file as it happens, and serves the page at http://HOST:PORT/ (the API is\n"
        "documented at /docs). Binds to localhost unless told otherwise; any other --host needs --token,\n"
        "which every control and upload request must then carry (open the page as /?token=TOKEN).",
        epilog="examples:\n"
        "  ligretto serve --source 0                                  # the first webcam\n"
        "  ligretto serve --source rtsp://192.168.1.20:554/stream     # a phone or IP camera\n"
        "  ligretto serve --source datasets/samples/round.mp4 --oracle  # a rendered round, ground-truth cards\n"
        "  ligretto serve --host 0.0.0.0 --token s3cret --db table.db --rounds 5\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--source", default="0", help="camera index, stream URL (rtsp://, http://) or video file")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--db", type=Path, default=Path("ligretto.db"), help="SQLite file (default ligretto.db)")
    parser.add_argument("--data", type=Path, default=Path("ligretto-data"), help="folder for uploads and replays")
    parser.add_argument("--token", help="access token for control and upload endpoints (required off localhost)")
    parser.add_argument("--oracle", action="store_true", help="read the cards from FILE.frames.jsonl (rendered video)")
    parser.add_argument("--speed", type=float, default=1.0, help="playback speed of a file source (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds in a new match (default 3)")
    parser.add_argument("--target", type=int, help="target total that ends a new match (house rule)")
    parser.add_argument("--calibration", type=Path, help="manual table calibration (4 points, JSON)")
    parser.add_argument("--catalogue", type=Path, help="back catalogue (JSON); enrolled backs are added to it")
    parser.add_argument(
        "--vote-window",
        type=float,
        default=0.4,
        metavar="SECONDS",
        help="recent evidence a new top card is voted on (default 0.4; the replay's 0.5 alerts ~70 ms later)",
    )
    parser.set_defaults(func=run)

    bench = subparsers.add_parser(
        "serve-bench",
        help="load benchmark of the live service: WebSocket viewers while the pipeline keeps camera rate",
        description="Starts the service on a loopback port with a video file as the camera, connects VIEWERS\n"
        "WebSocket clients and one picture poller, starts rounds back to back for SECONDS, and prints the\n"
        "pipeline's frame rate against the video's, the latency from each event's frame to its arrival at\n"
        "the viewers (percentiles) and the server's CPU use. A measurement, not a test.",
        epilog="example:\n"
        "  ligretto serve-bench --viewers 20 --seconds 60 --source datasets/samples/round.mp4 --oracle\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench.add_argument("--source", default="datasets/samples/round.mp4", help="video file used as the camera")
    bench.add_argument("--oracle", action="store_true", help="read the cards from FILE.frames.jsonl")
    bench.add_argument("--viewers", type=int, default=20, help="WebSocket viewers (default 20)")
    bench.add_argument("--seconds", type=float, default=60.0, help="how long to measure (default 60)")
    bench.add_argument("--port", type=int, default=0, help="loopback port (default: a free one)")
    bench.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    bench.set_defaults(func=run_bench)


def settings_from(args: argparse.Namespace) -> object:
    from referee.service.settings import LOCAL_HOSTS, Settings

    if args.host not in LOCAL_HOSTS and not args.token:
        raise SetupError(f"--host {args.host} makes the referee reachable from other machines: give --token too")
    if not 1 <= args.port <= 65535:
        raise SetupError(f"--port must lie in 1..65535, not {args.port}")
    if args.speed < 0:
        raise SetupError(f"--speed must be 0 (as fast as possible) or positive, not {args.speed}")
    if args.vote_window is not None and not 0.1 <= args.vote_window <= 2.0:
        raise SetupError(f"--vote-window must lie in 0.1..2 seconds, not {args.vote_window}")
    if args.rounds < 1:
        raise SetupError(f"--rounds must be at least 1, not {args.rounds}")
    return Settings(
        source=args.source,
        oracle=args.oracle,
        speed=args.speed,
        host=args.host,
        port=args.port,
        db=args.db,
        data_dir=args.data,
        token=args.token,
        rounds=args.rounds,
        target=args.target,
        calibration=args.calibration,
        catalogue=args.catalogue,
        vote_window_s=args.vote_window,
    )


def run(args: argparse.Namespace) -> int:
    import cv2
    import uvicorn

    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)  # our one-line messages say what failed

    from referee.service.main import create_app
    from referee.service.settings import Settings

    settings = settings_from(args)
    assert isinstance(settings, Settings)
    _check_before_serving(settings)
    print(f"ligretto: serving http://{settings.host}:{settings.port}/ (API docs at /docs); Ctrl-C stops", flush=True)
    uvicorn.run(
        create_app(settings), host=settings.host, port=settings.port, log_level="warning", timeout_graceful_shutdown=3
    )
    return 0


def _check_before_serving(settings: object) -> None:
    """Opens the source and the database once so that a bad --source or --db fails with one clear line
    instead of a server that starts and then cannot work."""
    from referee.service.feed import FeedSpec
    from referee.service.settings import Settings
    from referee.store import Store

    assert isinstance(settings, Settings)
    Store(settings.db).close()
    spec = FeedSpec(settings.source, oracle=settings.oracle)
    spec.check()
    if not spec.oracle:
        spec.load_vision()  # the detector's model file (the oracle's labels were found by check())


def run_bench(args: argparse.Namespace) -> int:
    from referee.service.loadbench import BenchOptions, run_load_bench

    if args.viewers < 1 or args.seconds <= 0:
        raise SetupError("--viewers must be at least 1 and --seconds positive")
    return run_load_bench(BenchOptions(args.source, args.oracle, args.viewers, args.seconds, args.port, args.json))

"""The page in a real headless Chromium (Debian's /usr/bin/chromium through Playwright) against a real server
playing a filmed round as its camera: seat the players, start the round, see the illegal-play alert, stop the
round and read the final score sheet, on a phone-sized screen.

The alert must be painted within 300 ms of the frame where the illegal card is down (the clip's ground truth,
on the clock of the video source: the server's ``epoch`` + the card's time), on the scripted clip and on the
sample round. Where that time went, stage by stage, is printed (run with ``-s``), and named when the bound is
missed: seeing the card is most of it (a hand over the card as it lands, then the referee's vote of >= 3 sure
readings over 0.15 s).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.scripted_clip import film, two_player_round

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
ALERT_BUDGET_MS = 300.0
TAP_TARGET_PX = 44  # the smallest comfortable touch target (Apple's and Material's guidance)
ON_SCREEN = """el => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {
    inside: r.width > 0 && r.height > 0 && r.left >= -1 && r.top >= -1  // a pixel's slack for sub-pixel scrolling
      && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1,
    rect: [r.left, r.top, r.right, r.bottom], viewport: [innerWidth, innerHeight],
    onTop: hit !== null && (hit === el || el.contains(hit)), height: r.height,
    clipped: el.scrollWidth > el.clientWidth,
  };
}"""


def _need_browser() -> Any:
    """Playwright's sync API; skips with the reason when Chromium or Playwright is missing outside CI."""
    missing = []
    if not (Path(CHROMIUM).is_file() or shutil.which("chromium")):
        missing.append(f"Debian's chromium ({CHROMIUM}; apt-get install chromium)")
    try:
        from playwright import sync_api
    except ImportError:
        missing.append("playwright (pip install playwright)")
        sync_api = None
    if missing:
        reason = "browser test needs " + " and ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(f"{reason}: CI must run it")
        pytest.skip(reason)
    return sync_api


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return film(two_player_round(), tmp_path_factory.mktemp("browser") / "round.mp4")


def _serve(video: Path, folder: Path, *extra: str) -> Iterator[str]:
    import httpx

    port = _free_port()
    command = [sys.executable, "-m", "referee.cli.main", "serve", "--source", str(video), "--oracle"]
    command += ["--port", str(port), "--db", str(folder / "t.db"), "--data", str(folder / "d"), *extra]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        assert process.poll() is None, f"the server exited: {process.stderr.read() if process.stderr else ''}"
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.2)
    try:
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def server(clip: dict[str, Path], tmp_path: Path) -> Iterator[str]:
    _need_browser()
    yield from _serve(clip["video"], tmp_path, "--rounds", "1")


def _truth_illegal(clip: dict[str, Path]) -> dict[str, Any]:
    for line in clip["events"].read_text().splitlines():
        event = json.loads(line)
        if event["type"] == "illegal_play":
            return dict(event)
    raise AssertionError("the clip has no illegal play")


def first_shown_t(frames: Path, played: dict[str, Any], visible: float = 0.5) -> float:
    """Video time of the first frame, at or after ``played`` went down, that shows at least ``visible`` of the
    card (the player's hand may still cover it as it lands: no camera sees it before then)."""
    card = played["card"]
    for line in frames.read_text().splitlines():
        frame = json.loads(line)
        if frame["t"] < played["t"] - 1e-6:
            continue
        for seen in frame["cards"]:
            same = (seen.get("colour"), seen.get("number")) == (card["colour"], card["number"])
            if same and seen.get("owner") in (None, played.get("back")) and seen["visible"] >= visible:
                return float(frame["t"])
    raise AssertionError(f"the labels never show the {card} played at {played['t']} s")


STAGES = (
    ("the card under the player's hand: down -> first frame showing >= 50% of it", "card_down", "shown_t"),
    ("the referee's vote: that frame -> the frame it rules on (video time)", "shown_t", "due"),
    ("frame release: the frame's time -> the pipeline takes it", "due", "picked"),
    ("vision: the frame's cards read", "picked", "read"),
    ("waiting for the table's lock", "read", "locked"),
    ("referee's ruling on that frame", "locked", "ruled"),
    ("stored (SQLite commit)", "ruled", "stored"),
    ("hub -> event loop -> WebSocket send", "stored", "sent"),
    ("loopback + the browser's parse", "sent", "received"),
    ("page handler (DOM)", "received", "shown"),
    ("paint", "shown", "painted"),
)


def alert_stages(alert: dict[str, Any], card_down_t: float, shown_t: float) -> dict[str, float]:
    """Where the alert's time went, in ms per stage (see STAGES), and the total: from the frame where the card is
    down (``epoch + card_down_t``, on the video source's clock) to the alert painted on the page."""
    timing = alert["timing"]
    when = {**timing, **{k: alert[k] for k in ("received", "shown", "painted")}}
    when["card_down"] = alert["epoch"] + card_down_t
    when["shown_t"] = alert["epoch"] + shown_t
    when["due"] = alert["epoch"] + timing["frame_t"]  # a file plays at its own rate: the frame is there then
    stages = {name: (when[end] - when[start]) * 1000.0 for name, start, end in STAGES}
    stages["total"] = (when["painted"] - when["card_down"]) * 1000.0
    return stages


def report_stages(title: str, stages: dict[str, float]) -> str:
    lines = [f"{title}: alert painted {stages['total']:.0f} ms after the frame where the card is down"]
    lines += [f"  {ms:7.1f} ms  {name}" for name, ms in stages.items() if name != "total"]
    return "\n".join(lines)


def assert_within_budget(title: str, stages: dict[str, float]) -> None:
    """Prints the stages (``-s``) and holds the alert to the issue's bound, naming the stages when it fails."""
    report = report_stages(title, stages)
    print("\n" + report)
    assert stages["total"] <= ALERT_BUDGET_MS, f"over {ALERT_BUDGET_MS:.0f} ms:\n{report}"


def assert_usable_on_the_phone(page: Any, selector: str, *, tap: bool = False) -> None:
    """``selector`` can be brought fully on the phone's screen, nothing covers it, its content is not cut off
    sideways, and (``tap``) it is big enough to tap."""
    page.locator(selector).scroll_into_view_if_needed()
    box = page.eval_on_selector(selector, ON_SCREEN)
    assert box["inside"] and box["onTop"] and not box["clipped"], f"{selector} on a 390 x 844 screen: {box}"
    assert not tap or box["height"] >= TAP_TARGET_PX, f"{selector} is {box['height']} px tall: too small to tap"


def _phone_page(playwright: Any, url: str) -> tuple[Any, Any]:
    """Headless Chromium with the page at ``url`` on a phone-sized touch screen, its live feed connected."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(url + "/")
    page.wait_for_selector("#connection[data-state=open]")
    return browser, page


def _painted_alert(page: Any) -> dict[str, Any]:
    page.wait_for_function("window.ligretto.alerts.length > 0 && window.ligretto.alerts[0].painted !== undefined")
    return dict(page.evaluate("window.ligretto.alerts[0]"))


def test_a_round_on_a_phone_shows_the_alert_within_300_ms_then_the_final_score_sheet(
    server: str, clip: dict[str, Path]
) -> None:
    sync_api = _need_browser()
    with sync_api.sync_playwright() as playwright:
        browser, page = _phone_page(playwright, server)

        for back, name in (("red-red", "Ada"), ("blue-blue", "Bob")):
            page.select_option("#player-back", back)
            page.fill("#player-name", name)
            page.click("#player-form button[type=submit]")
            page.wait_for_selector(f"#player-list li[data-back={back}]")

        for control in ("#start-round", "#stop-round", "#count-round"):
            assert_usable_on_the_phone(page, control, tap=True)
        page.tap("#start-round")
        page.wait_for_selector("#alert:not([hidden])", timeout=30_000)
        assert page.inner_text("#alert-text") == "red 5 on stack 1"
        assert page.inner_text("#alert-detail") == "wrong number: should have been red 3"
        alert = _painted_alert(page)
        played = _truth_illegal(clip)
        stages = alert_stages(alert, played["t"], first_shown_t(clip["frames"], played))
        assert_within_budget("scripted clip", stages)
        assert page.eval_on_selector("#alert", ON_SCREEN)["inside"]  # where the eyes are, without scrolling
        assert_usable_on_the_phone(page, "#alert")
        assert_usable_on_the_phone(page, "#alert-dismiss", tap=True)

        page.tap("#alert-dismiss")
        page.wait_for_selector("#centre .stack[data-top=r3]", timeout=30_000)
        assert_usable_on_the_phone(page, "#stop-round", tap=True)
        page.tap("#stop-round")
        page.wait_for_selector("#winners[data-complete=true]", timeout=30_000)
        for part in ("#score-sheet", ".table-wrap", "#winners", "#chart"):
            assert_usable_on_the_phone(page, part)
        totals = page.eval_on_selector_all("#score-sheet tfoot td[data-back]", "cells => cells.map(c => c.textContent)")
        assert totals == ["-1", "2"]
        assert page.inner_text("#winners") == "Winner: Bob"
        assert page.eval_on_selector_all("#chart polyline", "lines => lines.length") == 2
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling
        browser.close()


SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "samples" / "round.mp4"


@pytest.fixture
def sample_server(tmp_path: Path) -> Iterator[str]:
    _need_browser()
    from referee.errors import InputFileError
    from vision.sources import VideoSource

    try:
        VideoSource(SAMPLE).close()
    except InputFileError as exc:
        pytest.skip(f"the sample round is not readable: {exc}")
    yield from _serve(SAMPLE, tmp_path)


def _truth(video: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in video.with_suffix(".events.jsonl").read_text().splitlines() if line.strip()]


def test_the_sample_round_alerts_within_300_ms_of_its_illegal_play_and_takes_counts_by_hand(sample_server: str) -> None:
    sync_api = _need_browser()
    truth = _truth(SAMPLE)
    illegal = next(e for e in truth if e["type"] == "illegal_play")
    scored = truth[-1]
    with sync_api.sync_playwright() as playwright:
        browser, page = _phone_page(playwright, sample_server)
        for back in truth[0]["backs"]:
            page.select_option("#player-back", back)
            page.fill("#player-name", back.split("-")[1].title())
            page.click("#player-form button[type=submit]")
            page.wait_for_selector(f"#player-list li[data-back={back}]")

        page.click("#start-round")
        page.wait_for_selector("#alert:not([hidden])", timeout=60_000)
        alert = _painted_alert(page)
        assert (alert["card"], alert["reason"]) == ("r2", illegal["reason"])
        stages = alert_stages(alert, illegal["t"], first_shown_t(SAMPLE.with_suffix(".frames.jsonl"), illegal))
        assert_within_budget("sample round", stages)

        page.click("#alert-dismiss")
        page.click("#manual-count summary")
        for back in truth[0]["backs"]:
            page.fill(f"input[name='centre:{back}']", str(scored["centre"].get(back, 0)))
            page.fill(f"input[name='leftover:{back}']", str(scored["leftover"].get(back, 0)))
        page.click("#count-form button[type=submit]")
        page.wait_for_selector("#score-sheet tbody tr[data-round='1']")
        totals = page.eval_on_selector_all(
            "#score-sheet tfoot td[data-back]",
            "cells => Object.fromEntries(cells.map(c => [c.dataset.back, +c.textContent]))",
        )
        assert totals == scored["scores"]
        browser.close()


def test_a_ruling_withdrawn_turns_the_alert_green_and_says_the_card_was_played_legally(server: str) -> None:
    # the referee's feed as the page receives it: an r2 "not a one", then that ruling withdrawn (the r2 was built
    # on: it lay on a 1 the camera never saw)
    sync_api = _need_browser()
    with sync_api.sync_playwright() as playwright:
        browser, page = _phone_page(playwright, server)
        page.wait_for_function("live === true")
        feed = """([type, extra]) => onMessage({kind: "event", seq: 90000 + (type === "illegal_play" ? 1 : 2),
            round: 1, epoch: 0, event: {t: 4.0, frame: 120, type, stack: null, card: {colour: "red", number: 2},
            ...extra}})"""
        page.evaluate(feed, ["illegal_play", {"reason": "not_a_one"}])
        assert page.inner_text("#alert-title") == "ILLEGAL PLAY"
        assert page.inner_text("#alert-text") == "red 2 in the centre"
        page.evaluate(feed, ["ruling_withdrawn", {"ruled": "not_a_one"}])
        assert page.inner_text("#alert-title") == "RULING WITHDRAWN"
        assert page.inner_text("#alert-text") == "red 2 was played legally after all"
        assert page.eval_on_selector("#alert", "el => el.hasAttribute('data-withdrawn') && !el.hidden")
        logged = page.eval_on_selector("#event-log li.ruling_withdrawn", "el => el.textContent")
        assert logged.endswith("not_a_one withdrawn")
        browser.close()

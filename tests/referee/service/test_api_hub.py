"""The fan-out behind the WebSocket: messages from the pipeline thread reach every viewer in order; a viewer
that cannot keep up is marked lagging instead of holding the pipeline back."""

from __future__ import annotations

import asyncio
import threading

from referee.service import hub as hub_module
from referee.service.hub import Hub


def test_messages_from_another_thread_reach_every_viewer_in_order() -> None:
    async def scenario() -> list[list[int]]:
        hub = Hub()
        viewers = [hub.subscribe() for _ in range(3)]
        sender = threading.Thread(target=lambda: [hub.publish({"seq": i}) for i in range(50)])
        sender.start()
        await asyncio.to_thread(sender.join)
        received = [[(await v.queue.get())["seq"] for _ in range(50)] for v in viewers]
        assert hub.viewers == 3
        return received

    assert asyncio.run(scenario()) == [list(range(50))] * 3


def test_a_viewer_that_falls_behind_is_marked_lagging_not_waited_for(monkeypatch) -> None:
    monkeypatch.setattr(hub_module, "QUEUE_SIZE", 5)

    async def scenario() -> tuple[bool, bool]:
        hub = Hub()
        slow, fast = hub.subscribe(), hub.subscribe()
        for i in range(8):
            hub.publish({"seq": i})
            await asyncio.sleep(0)  # the loop hands the message over
            while not fast.queue.empty():
                fast.queue.get_nowait()
        return slow.lagging, fast.lagging

    assert asyncio.run(scenario()) == (True, False)


def test_an_unsubscribed_viewer_gets_nothing_more() -> None:
    async def scenario() -> int:
        hub = Hub()
        viewer = hub.subscribe()
        hub.unsubscribe(viewer)
        hub.publish({"seq": 1})
        await asyncio.sleep(0)
        return viewer.queue.qsize()

    assert asyncio.run(scenario()) == 0

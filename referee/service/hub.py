"""Fan-out of live messages from the pipeline thread to WebSocket viewers (each an asyncio queue).

The pipeline thread must never wait for a slow viewer: a message is handed to the event loop with
``call_soon_threadsafe`` and a viewer whose queue is full is marked lagging and dropped by its handler (it
reconnects and catches up from the database).
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from typing import Any

QUEUE_SIZE = 2000


@dataclass(eq=False)
class Subscriber:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))
    lagging: bool = False

    def offer(self, message: dict[str, Any]) -> None:
        """Runs on the event loop: queue the message, or mark the viewer as lagging."""
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.lagging = True


class Hub:
    """Thread-safe publish to every subscriber."""

    def __init__(self) -> None:
        self._subscribers: set[Subscriber] = set()
        self._lock = threading.Lock()
        self.published = 0

    def subscribe(self) -> Subscriber:
        subscriber = Subscriber(asyncio.get_running_loop())
        with self._lock:
            self._subscribers.add(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            self._subscribers.discard(subscriber)

    @property
    def viewers(self) -> int:
        with self._lock:
            return len(self._subscribers)

    def publish(self, message: dict[str, Any]) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        self.published += 1
        for subscriber in subscribers:
            try:
                subscriber.loop.call_soon_threadsafe(subscriber.offer, message)
            except RuntimeError:  # its loop has closed: the viewer is gone
                self.unsubscribe(subscriber)

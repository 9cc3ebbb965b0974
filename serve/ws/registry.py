"""Who listens to what: the pure core of the Fanout actor (no I/O, no Ray)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

C = TypeVar("C", bound=Hashable)


class Registry(Generic[C]):
    """Topic -> connections and back. Every method is O(subscriptions of the one connection)."""

    def __init__(self) -> None:
        self._by_topic: dict[str, set[C]] = defaultdict(set)
        self._by_conn: dict[C, set[str]] = defaultdict(set)

    def subscribe(self, conn: C, topic: str) -> bool:
        """Add a subscription; True when the topic had no listener before (start listening upstream)."""
        first = topic not in self._by_topic
        self._by_topic[topic].add(conn)
        self._by_conn[conn].add(topic)
        return first

    def unsubscribe(self, conn: C, topic: str) -> bool:
        """Drop a subscription; True when the topic has no listener left (stop listening upstream)."""
        listeners = self._by_topic.get(topic)
        if listeners is None or conn not in listeners:
            return False
        listeners.discard(conn)
        self._by_conn[conn].discard(topic)
        if not listeners:
            del self._by_topic[topic]
            return True
        return False

    def drop(self, conn: C) -> list[str]:
        """Forget a connection; returns the topics left without listeners."""
        emptied = [t for t in list(self._by_conn.get(conn, ())) if self.unsubscribe(conn, t)]
        self._by_conn.pop(conn, None)
        return emptied

    def listeners(self, topic: str) -> Iterable[C]:
        return self._by_topic.get(topic, ())

    def topics(self, conn: C) -> set[str]:
        return set(self._by_conn.get(conn, ()))

    def count(self, conn: C) -> int:
        """How many topics ``conn`` listens to."""
        return len(self._by_conn.get(conn, ()))

    @property
    def topic_count(self) -> int:
        return len(self._by_topic)

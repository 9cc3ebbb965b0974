"""How every process of the exchange writes its log lines: the ``exchange`` commands, the dev chains, and
each actor and Serve app (``actors.runtime.freeze_startup_objects``), so a line in a Ray worker's file
or in the ``exchange up`` terminal says when it happened and who wrote it."""

from __future__ import annotations

import logging

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# Libraries that log every request they make at INFO: a chain watcher polls its node every second.
CHATTY = ("httpx", "httpcore")


def configure(level: int = logging.INFO) -> None:
    """Give the process's root logger a stream handler in ``LOG_FORMAT`` at ``level``, unless it has a
    handler already (a process whose host set up its logging keeps it). Without one a Ray worker logs
    through Python's last resort: warnings and errors only, with no time and no logger name."""
    logging.basicConfig(level=level, format=LOG_FORMAT)
    for name in CHATTY:
        logging.getLogger(name).setLevel(max(level, logging.WARNING))

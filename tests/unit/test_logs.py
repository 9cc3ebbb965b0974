"""Every process of the exchange writes log lines with their time, level and logger (``config.logs``):
a Ray worker has no handler of its own, and Python's last resort printed its warnings bare and
dropped its INFO lines (a pair's move, a scheduler's job). Each case runs in a fresh interpreter, as
a worker starts."""

from __future__ import annotations

import re
import subprocess
import sys

LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (INFO|WARNING) (\S+): (.*)$")


def _stderr(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    return done.stderr.splitlines()


def test_an_actor_logs_info_with_its_time_and_logger_and_not_every_http_request() -> None:
    lines = _stderr(
        "import logging\n"
        "from actors.runtime import freeze_startup_objects\n"
        "logging.getLogger('actors.pair.placement').info('before the start: dropped')\n"
        "freeze_startup_objects()\n"
        "logging.getLogger('actors.pair.placement').info('pair BTC/USDT moved')\n"
        "logging.getLogger('httpx').info('HTTP Request: POST http://node 200 OK')\n"
        "logging.getLogger('httpx').warning('HTTP retry')\n"
    )
    parsed = [LINE.match(line) for line in lines]
    assert all(parsed), lines
    assert [m.groups() for m in parsed if m] == [
        ("INFO", "actors.pair.placement", "pair BTC/USDT moved"),
        ("WARNING", "httpx", "HTTP retry"),
    ]


def test_a_process_whose_host_set_up_logging_keeps_its_handler() -> None:
    lines = _stderr(
        "import logging, sys\n"
        "logging.basicConfig(level=logging.WARNING, format='host: %(message)s', stream=sys.stderr)\n"
        "from config import logs\n"
        "logs.configure()\n"
        "logging.getLogger('x').info('not shown')\n"
        "logging.getLogger('x').warning('shown')\n"
    )
    assert lines == ["host: shown"]

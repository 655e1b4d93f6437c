"""Work functions for tests/test_batch.py's worker processes.

They live in their own small module so that a spawned worker imports only this file (not
pytest, hypothesis and the test module), which keeps each worker's start-up short.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

from chunkcli.errors import ChunkcliError


def name_or_hang(path: Path) -> str:
    """Hang with SIGALRM blocked, as MuPDF does inside C: only the parent can stop it."""
    if "hang" in path.name:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(60)
    return path.name


def name_or_crash(path: Path) -> str:
    if "crash" in path.name:
        faulthandler.disable()  # a forked worker inherits pytest's; keep its dump out of the log
        os.kill(os.getpid(), signal.SIGSEGV)
    return path.name


def name_or_soft_timeout(path: Path, timeout_s: float) -> str | ChunkcliError:
    from chunkcli.workers import time_limit

    try:
        with time_limit(timeout_s, path):
            if "slow" in path.name:
                time.sleep(30)
        return path.name
    except ChunkcliError as exc:
        return exc


def pages_or_fail(path: Path, result: object) -> int:
    """A `then` for map_conversions: the page count, or an exception for files named beta."""
    from chunkcli.model import ConvertResult

    if "beta" in path.name:
        raise ValueError("beta is not welcome")
    return len(result.pages) if isinstance(result, ConvertResult) else -1


def name_after_pages(path: Path, *, on_pages: Callable[[int, int], None]) -> str:
    """Reports as many pages done, one by one, as its name has characters before the dot."""
    for done in range(1, len(path.stem) + 1):
        on_pages(done, len(path.stem))
    return path.name


def sleep_after_ocr_pages(path: Path, *, on_pages: Callable[[int, int], None]) -> str:
    """Reports as many pages to OCR as its name's number, then sleeps 2 s."""
    on_pages(0, int(path.stem))
    time.sleep(2)
    return path.name

"""Worker processes that can be killed one at a time: items (files) + a work function -> one
(index, result, seconds) per item, in the order they finish.

A ProcessPoolExecutor cannot stop one runaway task, so this is a small pool of our own: each
worker is a process with a Pipe. While it works, a worker can also send how many pages of its
item are done (OCR pages, for a progress bar that counts pages). The work function runs its
own soft time limit (SIGALRM, see `time_limit` below); when a file holds MuPDF inside C past
that limit plus a grace period, the parent kills the worker and starts a fresh one. A worker
that crashes (a segfault in MuPDF) is replaced the same way, and the batch goes on.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Generic, TypeVar

from chunkcli.errors import ChunkcliError, ConversionTimeout

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import BaseContext
    from multiprocessing.process import BaseProcess

# Wall-clock seconds allowed for one PDF unless --timeout says otherwise (0 = no limit): long
# enough for a few hundred text pages on a slow machine, short enough that a file MuPDF hangs
# on does not hold a batch for long.
DEFAULT_TIMEOUT_S = 120.0
# Seconds each page that needs OCR adds to its file's limit unless --ocr-page-time says
# otherwise, so that OCR is not cut short by --timeout on a normal machine: Tesseract read the
# corpus' scan pages in OCR_PAGE_EVIDENCE; a page read again in other languages or as one
# column costs up to 4 readings. The allowance is shared by the file's pages (a slow page uses
# what fast ones left).
DEFAULT_OCR_PAGE_TIME_S = 20.0


@dataclass(frozen=True, slots=True)
class WorkerPool:
    """How a command's documents are worked on, built once from --jobs, --timeout and
    --ocr-page-time and passed whole down to the worker runner.

    `jobs`: worker processes (None: one per CPU; 1: in this process, simpler to debug, with no
    crash isolation and no hard kill). `timeout_s`: wall-clock seconds allowed per document
    (0: no limit), plus `ocr_page_time_s` for each of its pages that needs OCR."""

    jobs: int | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    ocr_page_time_s: float = DEFAULT_OCR_PAGE_TIME_S

    @property
    def processes(self) -> int:
        """How many worker processes run at once."""
        return self.jobs or os.cpu_count() or 1

    @property
    def in_process(self) -> bool:
        return self.jobs == 1

    def limit_s(self, ocr_pages: int = 0) -> float:
        """Seconds allowed for a document with `ocr_pages` pages to read by OCR (0: none)."""
        if self.timeout_s <= 0:
            return 0.0
        return self.timeout_s + self.ocr_page_time_s * ocr_pages

    def limit_text(self, ocr_pages: int = 0) -> str:
        """The limit in words, for the error of a document that ran out of it."""
        if not ocr_pages or self.ocr_page_time_s <= 0:
            return f"{self.timeout_s:g} s (--timeout)"
        return (
            f"{self.limit_s(ocr_pages):g} s (--timeout {self.timeout_s:g} + {ocr_pages} OCR "
            f"pages x --ocr-page-time {self.ocr_page_time_s:g})"
        )


# The work function's own alarm stops a runaway file at timeout_s, but only once MuPDF hands
# control back to Python (between pages). A worker still busy this much later is killed.
KILL_GRACE_S = 5.0
# How long a worker may take to exit after being told to stop, before it is killed.
SHUTDOWN_WAIT_S = 2.0
# prctl option from <linux/prctl.h>: the signal a process gets when its parent dies.
PR_SET_PDEATHSIG = 1

Item = TypeVar("Item")
Result = TypeVar("Result")
# (index into the input items, the work's result or the error that replaced it, seconds)
Finished = tuple[int, Result | ChunkcliError, float]
# The parent hears (index into the input items, pages of it done so far).
OnPages = Callable[[int, int], None]
# What a worker sends while it works: PAGES_DONE, the item's index, pages done so far, pages
# to do (the pages its OCR reads: each adds pool.ocr_page_time_s to the item's kill deadline).
PAGES_DONE = "pages"


def run_in_workers(
    items: Sequence[Item],
    work: Callable[..., Result],
    *,
    pool: WorkerPool,
    source_of: Callable[[Item], Path],
    on_pages: OnPages | None = None,
) -> Iterator[Finished[Result]]:
    """Run `work(item)` for every item in `pool.processes` processes; yield each result as it
    finishes (a worker still busy `pool.limit_s(pages to OCR)` + KILL_GRACE_S after it started
    is killed). With `on_pages`, the call is `work(item, on_pages=report)`, and `report(n, of)`
    in the worker reaches `on_pages(index, n)` here; `of`, the pages its OCR reads, moves the
    item's kill deadline.

    `work` must be picklable (a module-level function or a functools.partial of one), must
    catch its own errors, and take and return picklable values. `source_of` names an item's
    file in the error that replaces the result of a crashed or killed worker.
    pool.timeout_s <= 0: no kill deadline.
    """
    from multiprocessing import connection  # ~15 ms with socket: only when workers start

    context = _start_method()
    pending = deque(enumerate(items))
    reports = on_pages is not None
    count = min(pool.processes, len(items))
    workers: list[_Worker[Item, Result]] = [_Worker(context, work, reports) for _ in range(count)]
    try:
        while pending or any(w.busy for w in workers):
            for slot, worker in enumerate(workers):
                if not worker.busy and pending:
                    if not worker.process.is_alive():  # died while idle (the OOM killer?)
                        worker.stop()
                        workers[slot] = worker = _Worker(context, work, reports)
                    worker.assign(*pending.popleft())
            busy = [w for w in workers if w.busy]
            ready = connection.wait([w.conn for w in busy], _time_to_next_kill(busy, pool))
            for slot, worker in enumerate(workers):
                finished = _collect(worker, ready, pool, source_of, on_pages)
                if finished is not None:
                    yield finished
                    if worker.busy:  # it crashed or was killed: start a fresh one
                        workers[slot] = _Worker(context, work, reports)
    finally:
        for worker in workers:
            worker.stop()


class TimeLimit:
    """The running limit of one document in its worker: it moves once the document knows how
    many of its pages OCR must read (see time_limit)."""

    def __init__(self, pool: WorkerPool, armed: bool) -> None:
        self.pool, self.armed, self.ocr_pages = pool, armed, 0

    def allow_ocr_pages(self, ocr_pages: int) -> None:
        """The document has `ocr_pages` pages to OCR: pool.ocr_page_time_s more for each."""
        more = ocr_pages - self.ocr_pages
        if more <= 0:
            return
        self.ocr_pages = ocr_pages
        extra = self.pool.ocr_page_time_s * more
        if self.armed and extra > 0:
            left, _ = signal.getitimer(signal.ITIMER_REAL)
            if left > 0:  # 0: the alarm has gone off (its error is on its way)
                signal.setitimer(signal.ITIMER_REAL, left + extra)

    def reason(self, path: Path) -> str:
        return f"{path}: timed out after {self.pool.limit_text(self.ocr_pages)}"


@contextlib.contextmanager
def time_limit(limit: float | WorkerPool, path: Path) -> Iterator[TimeLimit]:
    """Raise ConversionTimeout in this thread once the pool's limit (or `limit` seconds) has
    passed (main thread only); the TimeLimit it gives can extend it for pages to OCR.

    Uses SIGALRM, so it is a no-op off the main thread, on platforms without setitimer, and
    for a limit <= 0.
    """
    pool = limit if isinstance(limit, WorkerPool) else WorkerPool(timeout_s=limit)
    usable = (
        pool.timeout_s > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    running = TimeLimit(pool, usable)
    if not usable:
        yield running
        return

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        raise ConversionTimeout(running.reason(path))

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, pool.timeout_s)
    try:
        yield running
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _start_method() -> BaseContext:
    """fork when it is safe, as it starts a worker in milliseconds; spawn otherwise.

    fork is safe on Linux while this process runs a single thread: a second thread (a progress
    bar) could hold a lock at the moment of the fork and deadlock the child. spawn starts a
    fresh interpreter that imports PyMuPDF again, about a second per worker.
    """
    import multiprocessing

    if sys.platform.startswith("linux") and threading.active_count() == 1:
        # A forked child flushes the streams it inherits: flush first, or output doubles.
        sys.stdout.flush()
        sys.stderr.flush()
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _worker_main(
    conn: Connection, work: Callable[..., object], parent_pid: int, reports: bool
) -> None:
    """A worker's loop: receive (index, item), send index as it begins, (PAGES_DONE, index, n)
    as its pages get done (when `reports`), then (index, result, seconds); None or a closed
    pipe stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler (a fork's copy)
    _die_with_parent(parent_pid)
    while True:
        try:
            task: tuple[int, object] | None = conn.recv()
        except (EOFError, OSError):  # the parent has gone
            return
        if task is None:
            return
        index, item = task
        conn.send(index)  # the parent's kill clock starts now, not while this process starts up
        started = time.perf_counter()
        if reports:
            result = work(item, on_pages=functools.partial(_send_pages, conn, index))
        else:
            result = work(item)
        conn.send((index, result, time.perf_counter() - started))


def _send_pages(conn: Connection, index: int, done: int, of: int) -> None:
    conn.send((PAGES_DONE, index, done, of))


def _die_with_parent(parent_pid: int) -> None:
    """Linux: ask the kernel to kill this worker when the parent dies (kill -9, OOM killer),
    so that no orphan goes on converting; elsewhere the closed pipe ends the loop."""
    if sys.platform.startswith("linux"):
        import ctypes  # in the worker only

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)


class _Worker(Generic[Item, Result]):
    """One worker process, the parent's end of its pipe, and the item it is busy with."""

    def __init__(self, context: BaseContext, work: Callable[..., Result], reports: bool) -> None:
        self.conn, child_conn = context.Pipe()
        self.process: BaseProcess = context.Process(  # type: ignore[attr-defined]
            target=_worker_main, args=(child_conn, work, os.getpid(), reports), daemon=True
        )
        self.process.start()
        child_conn.close()
        self.task: tuple[int, Item] | None = None
        self.started: float | None = None  # when the worker began the task (its first reply)
        self.ocr_pages = 0  # pages of the task that OCR reads: they move its kill deadline

    @property
    def busy(self) -> bool:
        return self.task is not None

    def assign(self, index: int, item: Item) -> None:
        self.task, self.started, self.ocr_pages = (index, item), None, 0
        # A worker that has just died cannot take the task: the pipe then reads as closed
        # and _collect reports the crash.
        with contextlib.suppress(OSError):
            self.conn.send(self.task)

    def kill(self) -> None:
        self.process.kill()
        self.process.join()
        self.conn.close()

    def stop(self) -> None:
        """End the worker: an idle one is asked to exit, a busy one (Ctrl-C) is killed."""
        if self.busy:
            self.process.kill()
        with contextlib.suppress(OSError, ValueError):  # the pipe may be closed already
            self.conn.send(None)
        self.process.join(SHUTDOWN_WAIT_S)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def _time_to_next_kill(busy: list[_Worker[Item, Result]], pool: WorkerPool) -> float | None:
    """Seconds until the earliest kill deadline; None (wait for ever) when there is no limit."""
    ends = [w.started + pool.limit_s(w.ocr_pages) for w in busy if w.started is not None]
    if pool.timeout_s <= 0 or not ends:
        return None
    return max(0.0, min(ends) + KILL_GRACE_S - time.monotonic())


def _collect(
    worker: _Worker[Item, Result],
    ready: Sequence[object],
    pool: WorkerPool,
    source_of: Callable[[Item], Path],
    on_pages: OnPages | None = None,
) -> Finished[Result] | None:
    """The worker's finished result, if any. A crashed or killed worker stays `busy`."""
    if worker.task is None:
        return None
    index, item = worker.task
    path = source_of(item)
    elapsed = time.monotonic() - worker.started if worker.started is not None else 0.0
    if worker.conn in ready:
        try:
            message: int | tuple[str, int, int, int] | Finished[Result] = worker.conn.recv()
        except (EOFError, OSError):
            worker.process.join()
            worker.conn.close()
            return index, _crash_error(path, worker.process.exitcode), elapsed
        if isinstance(message, int):  # the worker has begun the task
            worker.started = time.monotonic()
            return None
        if message[0] == PAGES_DONE:
            worker.ocr_pages = int(message[3])
            if on_pages is not None:
                on_pages(index, int(message[2]))
            return None
        worker.task = None
        return message  # type: ignore[return-value]
    limit_s = pool.limit_s(worker.ocr_pages)
    if worker.started is not None and limit_s > 0 and elapsed >= limit_s + KILL_GRACE_S:
        worker.kill()
        limit = pool.limit_text(worker.ocr_pages)
        reason = f"{path}: timed out after {limit}; its worker was killed"
        return index, ConversionTimeout(reason), elapsed
    return None


def _crash_error(path: Path, exitcode: int | None) -> ChunkcliError:
    if exitcode is not None and exitcode < 0:
        reason = f"killed by {signal.Signals(-exitcode).name}"
    else:
        reason = f"exit code {exitcode}"
    return ChunkcliError(f"{path}: the worker process converting it crashed ({reason})")

"""Batch conversion: finding PDFs, worker processes, time limits, crashes, atomic output,
deterministic results whatever --jobs is, and the summary."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from batch_work import name_or_crash, name_or_hang, name_or_soft_timeout, pages_or_fail
from hypothesis import given, settings
from hypothesis import strategies as st
from pdf_factory import make_pdf, wrapped_paragraph

from chunkcli import batch, workers
from chunkcli.batch import (
    BatchSummary,
    FileOutcome,
    convert_file,
    convert_many,
    find_pdfs,
    iter_conversions,
    map_conversions,
    page_ranges,
    summary_lines,
    time_limit,
)
from chunkcli.convert.pipeline import ConvertOptions
from chunkcli.errors import ChunkcliError, ConversionTimeout, UsageError
from chunkcli.files import OutputWriteError
from chunkcli.files import write_atomic as write_atomically
from chunkcli.model import ConvertResult, Document
from chunkcli.pagespec import parse_page_spec
from chunkcli.workers import WorkerPool

BODY = "Oak trees live for centuries and their acorns feed jays, squirrels and wild boar."
OPTIONS = ConvertOptions()


def pdf(path: Path, title: str, pages: int = 2) -> Path:
    return make_pdf(
        path, [wrapped_paragraph(72, 300, 400, f"{title} p{n}: {BODY}") for n in range(pages)]
    )


def touch(path: Path, data: bytes = b"") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


# --- find_pdfs ----------------------------------------------------------------------------------


def test_find_pdfs_mirrors_a_folder_sorted_and_skips_hidden(tmp_path: Path) -> None:
    for name in ("b.pdf", "a.PDF", "sub/c.pdf", "sub/deeper/d.pdf", ".hidden/e.pdf", "notes.txt",
                 ".f.pdf"):  # fmt: skip
        touch(tmp_path / "docs" / name)
    pairs = find_pdfs([tmp_path / "docs"])
    assert [str(out) for _, out in pairs] == ["a.md", "b.md", "sub/c.md", "sub/deeper/d.md"]
    assert pairs[2][0] == tmp_path / "docs" / "sub" / "c.pdf"


def test_find_pdfs_takes_named_files_whatever_their_suffix(tmp_path: Path) -> None:
    named = touch(tmp_path / "scan.bin")
    assert find_pdfs([named]) == [(named, Path("scan.md"))]


def test_find_pdfs_refuses_two_files_for_one_output(tmp_path: Path) -> None:
    first, second = touch(tmp_path / "x" / "r.pdf"), touch(tmp_path / "y" / "r.pdf")
    with pytest.raises(UsageError, match="would both be written to r.md"):
        find_pdfs([first, second])


def test_find_pdfs_drops_a_file_given_twice(tmp_path: Path) -> None:
    one = touch(tmp_path / "r.pdf")
    assert find_pdfs([one, tmp_path / "." / "r.pdf"]) == [(one, Path("r.md"))]


def test_find_pdfs_empty_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no PDF files"):
        find_pdfs([tmp_path])


# --- convert_many ---------------------------------------------------------------------------------


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    """Three good PDFs (one in a subfolder) and one JPEG named .pdf."""
    root = tmp_path / "in"
    pdf(root / "alpha.pdf", "Alpha", pages=3)
    pdf(root / "sub" / "beta.pdf", "Beta")
    touch(root / "broken.pdf", b"\xff\xd8\xff\xe0 not really a jpeg")
    pdf(root / "gamma.pdf", "Gamma")
    return root


def test_convert_many_writes_a_mirrored_tree_and_reports_in_input_order(
    corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    seen: list[str] = []
    summary = convert_many(
        find_pdfs([corpus]), out, OPTIONS, pool=WorkerPool(1, 60),
        on_progress=lambda outcome: seen.append(outcome.source.name),
    )  # fmt: skip
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.md")) == [
        "alpha.md", "gamma.md", "sub/beta.md"
    ]  # fmt: skip
    assert "Beta p1" in (out / "sub" / "beta.md").read_text()
    assert [o.source.name for o in summary.outcomes] == [
        "alpha.pdf", "broken.pdf", "gamma.pdf", "beta.pdf"
    ]  # fmt: skip
    assert sorted(seen) == sorted(o.source.name for o in summary.outcomes)
    assert (summary.files, summary.pages) == (4, 7)
    [failure] = summary.failures
    assert failure.output is None and failure.error is not None and "JPEG" in failure.error
    assert not (out / "broken.md").exists()


def test_failed_file_leaves_an_earlier_output_untouched(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    touch(out / "broken.md", b"from an earlier run\n")
    convert_many(find_pdfs([corpus]), out, OPTIONS, pool=WorkerPool(1, 60))
    assert (out / "broken.md").read_bytes() == b"from an earlier run\n"
    assert list(out.rglob("*.tmp")) == []


def test_output_is_identical_whatever_the_number_of_jobs(corpus: Path, tmp_path: Path) -> None:
    pairs = find_pdfs([corpus])
    one = convert_many(pairs, tmp_path / "one", OPTIONS, pool=WorkerPool(1, 60))
    two = convert_many(pairs, tmp_path / "two", OPTIONS, pool=WorkerPool(2, 60))
    for _, relative in pairs:
        first, second = tmp_path / "one" / relative, tmp_path / "two" / relative
        assert first.exists() == second.exists()
        assert not first.exists() or first.read_bytes() == second.read_bytes()
    strip = [(o.source, o.output and o.output.name, o.pages, o.error) for o in one.outcomes]
    assert strip == [(o.source, o.output and o.output.name, o.pages, o.error) for o in two.outcomes]


def test_unwritable_output_is_a_failure_not_a_crash(corpus: Path, tmp_path: Path) -> None:
    blocker = touch(tmp_path / "out")  # a file where the output folder should be
    pdfs = find_pdfs([corpus / "gamma.pdf"])
    summary = convert_many(pdfs, blocker, OPTIONS, pool=WorkerPool(1, 60))
    [failure] = summary.failures
    assert failure.error is not None and "cannot write" in failure.error


def test_dry_run_writes_nothing(corpus: Path, tmp_path: Path) -> None:
    summary = convert_many(find_pdfs([corpus]), None, OPTIONS, pool=WorkerPool(1, 60))
    assert summary.pages == 7
    assert all(o.output is None for o in summary.outcomes)


def test_convert_file_writes_or_returns_the_markdown(corpus: Path, tmp_path: Path) -> None:
    source = corpus / "gamma.pdf"
    outcome, markdown = convert_file(source, None, OPTIONS, pool=WorkerPool(2, 60))
    assert markdown is not None and "Gamma p1" in markdown
    assert outcome.output is None and outcome.pages == 2
    target = tmp_path / "x" / "gamma.md"
    outcome, nothing = convert_file(source, target, OPTIONS, pool=WorkerPool(2, 60))
    assert nothing is None and outcome.output == target
    assert target.read_text(encoding="utf-8") == markdown


def test_convert_file_raises_with_the_reason(corpus: Path) -> None:
    with pytest.raises(ChunkcliError, match="broken.pdf: not a PDF"):
        convert_file(corpus / "broken.pdf", None, OPTIONS, pool=WorkerPool(1))


def test_a_killed_worker_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "out" / "a.md"
    target.parent.mkdir()
    half_written = target.parent / ".a.md.x1y2.tmp"
    half_written.write_text("half")
    (target.parent / ".other.md.x1y2.tmp").write_text("another file's")
    outcome = batch._lost((Path("a.pdf"), target), ConversionTimeout("a.pdf: timed out"), 1.0)
    assert outcome.error == "a.pdf: timed out" and outcome.output is None
    assert [p.name for p in target.parent.iterdir()] == [".other.md.x1y2.tmp"]


# --- time limits --------------------------------------------------------------------------------


def test_time_limit_interrupts_python_code() -> None:
    started = time.monotonic()
    with pytest.raises(ConversionTimeout, match="slow.pdf: timed out after 0.2 s"):
        with time_limit(0.2, Path("slow.pdf")):
            time.sleep(5)
    assert time.monotonic() - started < 2
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # the alarm is cleared


def test_slow_file_times_out_and_the_batch_goes_on(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_convert = batch.convert_pdf

    def slow_on_alpha(path: Path, options: ConvertOptions, **_: object) -> ConvertResult:
        if path.name == "alpha.pdf":
            time.sleep(10)
        return real_convert(path, options)

    monkeypatch.setattr(batch, "convert_pdf", slow_on_alpha)
    summary = convert_many(find_pdfs([corpus]), None, OPTIONS, pool=WorkerPool(1, 0.3))
    errors = {o.source.name: o.error for o in summary.outcomes}
    assert errors["alpha.pdf"] is not None and "timed out after 0.3 s" in errors["alpha.pdf"]
    assert errors["gamma.pdf"] is None and errors["beta.pdf"] is None


def run(work: object, names: Sequence[str], timeout_s: float) -> dict[str, object]:
    paths = [Path(name) for name in names]
    finished = workers.run_in_workers(
        paths,
        work,
        pool=WorkerPool(2, timeout_s),
        source_of=Path,  # type: ignore[arg-type]
    )
    return {paths[index].name: result for index, result, _ in finished}


def test_worker_stuck_past_its_limit_is_killed_and_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(workers, "KILL_GRACE_S", 0.2)
    started = time.monotonic()
    results = run(name_or_hang, ["a.pdf", "hang.pdf", "b.pdf", "c.pdf", "d.pdf"], timeout_s=0.5)
    assert time.monotonic() - started < 30
    assert isinstance(results["hang.pdf"], ConversionTimeout)
    assert "hang.pdf: timed out after 0.5 s" in str(results["hang.pdf"])
    assert [results[n] for n in ("a.pdf", "b.pdf", "c.pdf", "d.pdf")] == [
        "a.pdf", "b.pdf", "c.pdf", "d.pdf"
    ]  # fmt: skip


def test_crashed_worker_is_reported_and_replaced() -> None:
    results = run(name_or_crash, ["a.pdf", "crash.pdf", "b.pdf", "c.pdf"], timeout_s=60)
    assert isinstance(results["crash.pdf"], ChunkcliError)
    assert "crash.pdf: the worker process converting it crashed (killed by SIGSEGV)" in str(
        results["crash.pdf"]
    )
    assert results["c.pdf"] == "c.pdf"


def test_soft_time_limit_inside_a_worker() -> None:
    work = functools.partial(name_or_soft_timeout, timeout_s=0.3)
    results = run(work, ["slow.pdf", "fast.pdf"], timeout_s=0.3)
    assert isinstance(results["slow.pdf"], ConversionTimeout)
    assert results["fast.pdf"] == "fast.pdf"


def test_workers_spawn_while_another_thread_runs() -> None:
    """With a second thread alive (a progress bar) workers are spawned, not forked."""
    import threading

    stop = threading.Event()
    helper = threading.Thread(target=stop.wait)
    helper.start()
    try:
        assert workers._start_method().get_start_method() == "spawn"
        results = run(name_or_crash, ["a.pdf", "crash.pdf", "b.pdf"], timeout_s=60)
    finally:
        stop.set()
        helper.join()
    assert results["a.pdf"] == "a.pdf" and results["b.pdf"] == "b.pdf"
    assert isinstance(results["crash.pdf"], ChunkcliError)


HANGING_BATCH = """
import sys
from pathlib import Path
sys.path[:0] = {paths!r}
from batch_work import name_or_hang
from chunkcli.workers import WorkerPool, run_in_workers
items = [Path("hang1.pdf"), Path("hang2.pdf")]
for _ in run_in_workers(items, name_or_hang, pool=WorkerPool(2, 0), source_of=Path):
    pass
"""


def child_pids(pid: int) -> list[int]:
    children = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in children.read_text().split()] if children.exists() else []


def alive(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split()[2] != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("how", ["ctrl-c", "kill -9"])
def test_stopping_the_parent_stops_its_workers(how: str) -> None:
    """Ctrl-C ends a batch at once; a parent killed outright takes its workers with it."""
    script = HANGING_BATCH.format(paths=[str(Path(__file__).parent), *sys.path])
    parent = subprocess.Popen(
        [sys.executable, "-c", script],
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 30
    while len(child_pids(parent.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers_seen = child_pids(parent.pid)
    assert len(workers_seen) == 2
    time.sleep(0.3)  # let both workers begin their (hanging) tasks
    stopped = time.monotonic()
    if how == "ctrl-c":
        os.killpg(parent.pid, signal.SIGINT)
    else:
        os.kill(parent.pid, signal.SIGKILL)
    parent.wait(timeout=10)
    assert time.monotonic() - stopped < workers.SHUTDOWN_WAIT_S  # busy workers are not waited for
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in workers_seen) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers_seen)


# --- iter_conversions -----------------------------------------------------------------------------


def test_iter_conversions_yields_in_input_order(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [Path(f"{n}.pdf") for n in range(5)]

    def reversed_completion(
        pdfs: Sequence[Path], work: object, pool: WorkerPool, source_of: object
    ) -> Iterator[tuple[int, ConvertResult | ChunkcliError, float]]:
        for index in reversed(range(len(pdfs))):
            yield index, ConvertResult(Document(str(pdfs[index]), ()), f"md {index}"), 0.0

    monkeypatch.setattr(batch, "_run_all", reversed_completion)
    got = [(path, result) for path, result in iter_conversions(paths, OPTIONS, pool=WorkerPool(2))]
    assert [path for path, _ in got] == paths
    assert [r.markdown for _, r in got if isinstance(r, ConvertResult)] == [
        f"md {n}" for n in range(5)
    ]


def test_iter_conversions_in_workers(corpus: Path) -> None:
    pdfs = [pdf_path for pdf_path, _ in find_pdfs([corpus])]
    got = list(iter_conversions(pdfs, OPTIONS, pool=WorkerPool(2, 60)))
    assert [path for path, _ in got] == pdfs
    assert isinstance(got[1][1], ChunkcliError) and "JPEG" in str(got[1][1])
    assert isinstance(got[0][1], ConvertResult) and "Alpha p2" in got[0][1].markdown


@pytest.mark.parametrize("jobs", [1, 2])
def test_map_conversions_runs_then_in_the_worker(corpus: Path, jobs: int) -> None:
    pdfs = [pdf_path for pdf_path, _ in find_pdfs([corpus])]
    got = dict(map_conversions(pdfs, OPTIONS, pages_or_fail, pool=WorkerPool(jobs, 60)))
    assert list(got) == pdfs
    assert got[corpus / "alpha.pdf"] == 3 and got[corpus / "broken.pdf"] == -1
    failure = got[corpus / "sub" / "beta.pdf"]
    assert isinstance(failure, ChunkcliError)
    assert str(failure) == f"{corpus / 'sub' / 'beta.pdf'}: ValueError: beta is not welcome"


# --- atomic writes --------------------------------------------------------------------------


def test_write_atomically_replaces_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "er" / "x.md"
    write_atomically(target, "first\n", make_parents=True)
    write_atomically(target, "second ✓\n")
    assert target.read_bytes() == "second ✓\n".encode()
    assert [p.name for p in target.parent.iterdir()] == ["x.md"]
    assert oct(target.stat().st_mode & 0o777) == oct(0o644 & ~_umask())


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def test_write_atomically_failure_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OutputWriteError, match="No space left on device"):
        write_atomically(tmp_path / "x.md", "text")
    assert list(tmp_path.iterdir()) == []


# --- the summary ----------------------------------------------------------------------------------


def test_page_ranges() -> None:
    assert page_ranges([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"
    assert page_ranges([4]) == "4"
    assert page_ranges([]) == ""


@settings(max_examples=60)
@given(st.lists(st.integers(min_value=1, max_value=300), min_size=1, max_size=40))
def test_page_ranges_round_trips_through_parse_page_spec(pages: list[int]) -> None:
    assert parse_page_spec(page_ranges(pages)) == tuple(sorted(set(pages)))


def test_summary_lines() -> None:
    outcomes = (
        FileOutcome(Path("a.pdf"), Path("out/a.md"), pages=10, blank=(2,), image_only=(4, 5, 6)),
        FileOutcome(Path("b.pdf"), None, error="b.pdf: encrypted: needs a password (--password)"),
        FileOutcome(Path("c.pdf"), Path("out/c.md"), pages=2, garbage=(1,), warnings=("c: w",)),
    )
    lines = summary_lines(BatchSummary(outcomes, seconds=2.0))
    assert lines == [
        "converted 2 of 3 PDFs: 12 pages in 2.0 s (6.0 pages/s)",
        "blank pages: 1: a.pdf p. 2",
        "pages with no text layer (no OCR): 3: a.pdf p. 4-6",
        "pages with an unreadable text layer: 1: c.pdf p. 1",
        "warnings: 1",
        "  c: w",
        "failed: 1",
        "  b.pdf: encrypted: needs a password (--password)",
    ]


def test_summary_lists_at_most_a_few_files_per_note() -> None:
    many = tuple(FileOutcome(Path(f"{n}.pdf"), None, pages=1, blank=(1,)) for n in range(13))
    [totals, blank] = summary_lines(BatchSummary(many, seconds=1.0))
    assert blank.endswith("; and 3 more files")
    assert totals.startswith("converted 13 of 13 PDFs: 13 pages")

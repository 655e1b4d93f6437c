"""Many PDFs at once: files and folders -> one Markdown file per PDF, converted in worker
processes with a time limit per file -> a summary of pages, odd pages and failures.

A failed file writes nothing: no partial output, and an output left by an earlier run stays as
it was (the summary and the exit code say that the file failed). Outcomes come back in input
order whatever order the workers finish in, so output and summary do not depend on --jobs.
The worker processes, and killing a runaway one, live in workers.py.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import glob
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from chunkcli import convert as convert_stage
from chunkcli.convert.options import ConvertOptions, ImageOptions
from chunkcli.errors import ChunkcliError, UsageError
from chunkcli.files import OutputWriteError, readable_text, walk_folder, write_atomic
from chunkcli.markdown_format import parse_provenance
from chunkcli.model import ConvertResult
from chunkcli.pagespec import format_page_ranges as page_ranges
from chunkcli.workers import OnPages, TimeLimit, WorkerPool, run_in_workers, time_limit

if TYPE_CHECKING:  # the OCR runner (and numpy) loads only when a page needs OCR
    from chunkcli.convert.ocr.read import PagesDone

# Summary lines about blank or scanned pages name at most this many files, then say "and N more".
MAX_FILES_LISTED = 10

WorkResult = ConvertResult | ChunkcliError
FileJob = tuple[Path, Path | None]  # a PDF and the Markdown file to write (None: write nothing)
Item = TypeVar("Item")
Result = TypeVar("Result")


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """What happened to one input PDF."""

    source: Path
    output: Path | None  # the Markdown written; None when failed or not writing
    pages: int = 0  # pages converted
    blank: tuple[int, ...] = ()
    image_only: tuple[int, ...] = ()
    garbage: tuple[int, ...] = ()
    damaged: tuple[int, ...] = ()  # pages MuPDF could not fully interpret
    ocr: tuple[int, ...] = ()  # pages whose text was read by OCR
    ocr_missing: str = ""  # why OCR did not run on pages that needed it (what to install)
    ocr_skipped: tuple[int, ...] = ()  # pages that needed OCR and were left unread (time)
    seconds: float = 0.0
    error: str | None = None  # one line naming the file and the reason
    warnings: tuple[str, ...] = ()  # lines naming the file: e.g. it was damaged and repaired

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True, slots=True)
class BatchSummary:
    """Every file's outcome, in input order, and the wall-clock time of the whole batch."""

    outcomes: tuple[FileOutcome, ...]
    seconds: float

    @property
    def files(self) -> int:
        return len(self.outcomes)

    @property
    def pages(self) -> int:
        return sum(o.pages for o in self.outcomes)

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0

    @property
    def incomplete(self) -> tuple[FileOutcome, ...]:
        """Files written with pages left unread by OCR for lack of time (exit 1: a page lost
        is never silent)."""
        return tuple(o for o in self.outcomes if o.ocr_skipped)

    @property
    def failures(self) -> tuple[FileOutcome, ...]:
        return tuple(o for o in self.outcomes if not o.ok)


# --- finding the inputs ---------------------------------------------------------------------


def find_pdfs(inputs: Sequence[Path]) -> list[tuple[Path, Path]]:
    """Every PDF under `inputs` paired with its output path (relative, `.md`), in a stable order.

    A folder is searched recursively (hidden entries skipped) and mirrored: `docs/a/b.pdf`
    given as `docs` becomes `a/b.md`. A file given by name is taken whatever its suffix and
    becomes `<stem>.md`. Raises UsageError when two PDFs would write the same output or when
    nothing is found.
    """
    pairs: list[tuple[Path, Path]] = []
    for item in inputs:
        if item.is_dir():
            found = walk_folder(item, pdfs_only=True)
            pairs.extend((pdf, pdf.relative_to(item).with_suffix(".md")) for pdf in found)
        else:
            pairs.append((item, Path(item.name).with_suffix(".md")))
    if not pairs:
        raise UsageError(f"no PDF files in: {', '.join(str(i) for i in inputs)}")
    return _without_duplicates(pairs)


def _without_duplicates(pairs: list[tuple[Path, Path]]) -> list[tuple[Path, Path]]:
    """Drop a PDF given twice; refuse two different PDFs that would write the same file."""
    by_output: dict[Path, Path] = {}
    unique: list[tuple[Path, Path]] = []
    for pdf, output in pairs:
        earlier = by_output.get(output)
        if earlier is None:
            by_output[output] = pdf
            unique.append((pdf, output))
        elif earlier.resolve() != pdf.resolve():
            raise UsageError(f"{earlier} and {pdf} would both be written to {output}")
    return unique


# --- converting one file with a time limit ----------------------------------------------------


def _with_ocr_deadline(options: ConvertOptions, pool: WorkerPool) -> ConvertOptions:
    """OCR learns when the time limit will stop this file (--timeout, plus --ocr-page-time for
    each page it reads), so that it starts no page it cannot finish (pages not reached are
    marked 'ocr skipped') instead of the whole file failing. Seen: j-bunpu2023 (14 pages to
    OCR) timed out whole at 120 s under load."""
    if pool.timeout_s <= 0 or options.ocr.deadline > 0:
        return options
    deadline = time.monotonic() + pool.timeout_s
    ocr = dataclasses.replace(options.ocr, deadline=deadline, page_time_s=pool.ocr_page_time_s)
    return dataclasses.replace(options, ocr=ocr)


def convert_pdf(
    pdf: Path | bytes,
    options: ConvertOptions,
    *,
    name: Path | None = None,
    on_ocr_pages: PagesDone | None = None,
) -> ConvertResult:
    """chunkcli.convert.convert_pdf, the stage loaded on the first call (tests replace this
    name to make a worker crash or hang)."""
    return convert_stage.convert_pdf(pdf, options, name=name, on_ocr_pages=on_ocr_pages)


def convert_with_time_limit(
    path: Path,
    options: ConvertOptions,
    pool: WorkerPool,
    *,
    data: bytes | None = None,
    on_pages: PagesDone | None = None,
) -> ConvertResult:
    """convert_pdf, stopped with ConversionTimeout once the pool's limit for it has passed
    (--timeout, grown by --ocr-page-time for each page OCR reads); with `data`, the PDF is
    those bytes and `path` only names it (a file read elsewhere, e.g. by Ray). `on_pages`
    hears how many pages OCR has read so far, and of how many (progress; a worker's parent
    moves its kill deadline by it).

    Raises UsageError when --pages selects none of the file's pages.
    """
    options = _with_ocr_deadline(options, pool)
    if options.source_name is None and readable_text(path.name) != path.name:
        # A file name that is not UTF-8 is named as \xNN in the provenance comment (issue 30).
        options = dataclasses.replace(options, source_name=readable_text(path.name))
    with time_limit(pool, path) as limit:
        told = functools.partial(_allowing_ocr_pages, limit, on_pages)
        if data is None:
            result = convert_pdf(path, options, on_ocr_pages=told)
        else:
            result = convert_pdf(data, options, name=path, on_ocr_pages=told)
    if options.pages is not None and not result.pages:
        count = result.document.page_count
        raise UsageError(f"{path}: --pages selects none of its {count} pages")
    return result


def _allowing_ocr_pages(
    limit: TimeLimit, on_pages: PagesDone | None, done: int, pages_to_read: int
) -> None:
    """OCR's progress: the file's limit grows with the pages it reads, then the caller hears."""
    limit.allow_ocr_pages(pages_to_read)
    if on_pages is not None:
        on_pages(done, pages_to_read)


def convert_one(
    path: Path, options: ConvertOptions, *, pool: WorkerPool = WorkerPool()
) -> ConvertResult:
    """Convert one file into a full ConvertResult (document and Markdown); every failure, a
    crash or hang of MuPDF too, is a ChunkcliError naming the file. A pool of jobs=1 converts
    in this process (no crash isolation, no hard kill)."""
    work = functools.partial(_convert_catching, options=options, pool=pool)
    [(_, result, _)] = list(_run_all([path], work, pool, _itself))
    if isinstance(result, ChunkcliError):
        raise result
    return result


def convert_file(
    pdf: Path,
    target: Path | None,
    options: ConvertOptions,
    *,
    pool: WorkerPool = WorkerPool(),
    on_pages: Callable[[Path, int], None] | None = None,
) -> tuple[FileOutcome, str | None]:
    """Convert one PDF (for the CLI): write `target` atomically, or, when `target` is None,
    return the Markdown. Raises ChunkcliError naming the file when it fails. `on_pages` as
    for convert_many."""
    if target is None:
        with tempfile.TemporaryDirectory(prefix="chunkcli-") as folder:
            outcome, _ = convert_file(
                pdf, Path(folder, "out.md"), options, pool=pool, on_pages=on_pages
            )
            markdown = Path(folder, "out.md").read_text(encoding="utf-8")
        return dataclasses.replace(outcome, output=None), markdown
    summary = convert_many(
        [(pdf, Path(target.name))], target.parent, options, pool=pool, on_pages=on_pages
    )
    [outcome] = summary.outcomes
    if outcome.error is not None:
        raise ChunkcliError(outcome.error)
    return outcome, None


def _convert_catching(
    path: Path,
    options: ConvertOptions,
    pool: WorkerPool,
    *,
    data: bytes | None = None,
    on_pages: PagesDone | None = None,
) -> WorkResult:
    """Any failure becomes a ChunkcliError naming the file, so one bad file cannot stop a batch.
    With `data`, the PDF is those bytes and `path` names it (see convert_with_time_limit)."""
    try:
        return convert_with_time_limit(path, options, pool, data=data, on_pages=on_pages)
    except ChunkcliError as exc:
        return exc
    except Exception as exc:  # noqa: BLE001 - a bug or a MuPDF error on one file, reported as such
        return ChunkcliError(f"{path}: conversion failed: {failure_reason(exc)}")


# MuPDF's messages start with its error code ("code=7: cycle in page tree"): no help to a person.
_MUPDF_CODE_RE = re.compile(r"^code=\d+:\s*")


def failure_reason(exc: Exception) -> str:
    """An unexpected error in words: MuPDF's own message without its code, on one line; other
    errors keep their type, which names the bug to report."""
    message = " ".join(str(exc).split())
    if type(exc).__module__.startswith("pymupdf") or _MUPDF_CODE_RE.match(message):
        return f"MuPDF cannot read it: {_MUPDF_CODE_RE.sub('', message)}"
    return f"{type(exc).__name__}: {message}"


convert_catching = _convert_catching  # for engines that hand a worker the bytes (distributed)


def _run_all(
    items: Sequence[Item],
    work: Callable[..., Result],
    pool: WorkerPool,
    source_of: Callable[[Item], Path],
    on_pages: OnPages | None = None,
) -> Iterator[tuple[int, Result | ChunkcliError, float]]:
    """(index, result, seconds) per item, in completion order; with `on_pages`, the call is
    `work(item, on_pages=report)` and what it reports, `report(n, of)`, reaches
    `on_pages(index, n)`.

    Worker processes (default: one per CPU) even for one file, so that a crash or a hang
    inside MuPDF costs only that file; jobs=1 converts in this process, simpler to debug.
    """
    if pool.in_process:
        for index, item in enumerate(items):
            started = time.perf_counter()
            if on_pages is None:
                result = work(item)
            else:
                result = work(item, on_pages=functools.partial(_in_process, on_pages, index))
            yield index, result, time.perf_counter() - started
        return
    # Biggest files first, so that one long file does not run alone at the end of the batch.
    order = sorted(range(len(items)), key=lambda i: (-_size_bytes(source_of(items[i])), i))
    queue = [items[i] for i in order]
    # Always told: a worker's report of the pages its OCR reads moves its kill deadline.
    told = _nobody if on_pages is None else on_pages
    moved = functools.partial(_reindexed, order, told)
    finished = run_in_workers(queue, work, pool=pool, source_of=source_of, on_pages=moved)
    for position, outcome, seconds in finished:
        yield order[position], outcome, seconds


def _reindexed(order: list[int], on_pages: OnPages, position: int, done: int) -> None:
    on_pages(order[position], done)


def _in_process(on_pages: OnPages, index: int, done: int, of: int) -> None:
    on_pages(index, done)


def _nobody(index: int, done: int) -> None:
    """No one listens to the progress (the worker runner still moves kill deadlines by it)."""


def _itself(path: Path) -> Path:
    return path


def _source(job: FileJob) -> Path:
    return job[0]


def pages_to_convert(pdf: Path, pages: tuple[int, ...] | None) -> int:
    """How many pages converting `pdf` covers, for a progress bar that counts pages (at least
    1; 1 when it cannot be opened here: its worker will say why)."""
    count = convert_stage.page_count_of(pdf)
    if pages is not None:
        count = sum(1 for number in pages if number <= count)
    return max(1, count)


def _size_bytes(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


# --- the public batch API -------------------------------------------------------------------


def iter_conversions(
    pdfs: Sequence[Path],
    options: ConvertOptions,
    *,
    pool: WorkerPool = WorkerPool(),
) -> Iterator[tuple[Path, ConvertResult | ChunkcliError]]:
    """Convert in memory, yielding (pdf, result or error) in input order (for `check`).

    Each whole document travels back from its worker (pickling costs about 2 ms a page);
    map_conversions avoids that when only a summary of each document is needed.
    """
    return map_conversions(pdfs, options, _keep_result, pool=pool)


def map_conversions(
    pdfs: Sequence[Path],
    options: ConvertOptions,
    then: Callable[[Path, WorkResult], Result],
    *,
    pool: WorkerPool = WorkerPool(),
) -> Iterator[tuple[Path, Result | ChunkcliError]]:
    """Convert each PDF and run `then(pdf, result or error)` in the same worker; yield
    (pdf, what `then` returned) in input order. `then` must be picklable (a module-level
    function or a functools.partial of one); an exception in it becomes a ChunkcliError."""
    work = functools.partial(_convert_then, options=options, pool=pool, then=then)
    waiting: dict[int, Result | ChunkcliError] = {}
    next_index = 0
    for index, outcome, _seconds in _run_all(pdfs, work, pool, _itself):
        waiting[index] = outcome
        while next_index in waiting:
            yield pdfs[next_index], waiting.pop(next_index)
            next_index += 1


def _convert_then(
    path: Path,
    options: ConvertOptions,
    pool: WorkerPool,
    then: Callable[[Path, WorkResult], Result],
    *,
    on_pages: PagesDone | None = None,
) -> Result | ChunkcliError:
    result = _convert_catching(path, options, pool, on_pages=on_pages)
    if options.images is not None and isinstance(result, ConvertResult):
        try:  # (split, check, sync: the figures' pictures beside whatever they write)
            write_images(Path(options.images.folder), result)
        except OutputWriteError as exc:
            return ChunkcliError(f"{path}: {exc}")
    try:
        return then(path, result)
    except ChunkcliError as exc:
        return exc
    except Exception as exc:  # noqa: BLE001 - one document's failure must not end the batch
        return ChunkcliError(f"{path}: {type(exc).__name__}: {exc}")


def _keep_result(path: Path, result: WorkResult) -> WorkResult:
    return result


def convert_many(
    pdfs: Sequence[tuple[Path, Path]],
    out_dir: Path | None,
    options: ConvertOptions,
    *,
    pool: WorkerPool = WorkerPool(),
    on_progress: Callable[[FileOutcome], None] | None = None,
    on_pages: Callable[[Path, int], None] | None = None,
) -> BatchSummary:
    """Convert each (pdf, relative output) pair from find_pdfs, writing `out_dir/relative`.

    `on_progress` sees each outcome as its file finishes; the summary lists them in input order.
    `on_pages(pdf, n)` hears, while a file is being read by OCR, how many of its pages are done.
    With `out_dir` None nothing is written (a dry run that still reports every page).
    """
    started = time.perf_counter()
    files = [(pdf, out_dir / relative if out_dir is not None else None) for pdf, relative in pdfs]
    work = functools.partial(_convert_and_write, options=options, pool=pool, out_dir=out_dir)
    outcomes: dict[int, FileOutcome] = {}
    named = None if on_pages is None else functools.partial(_named, pdfs, on_pages)
    for index, result, seconds in _run_all(files, work, pool, _source, named):
        if isinstance(result, ChunkcliError):  # its worker crashed or was killed
            result = _lost(files[index], result, seconds)
        outcomes[index] = result
        if on_progress is not None:
            on_progress(result)
    ordered = tuple(outcomes[i] for i in range(len(pdfs)))
    return BatchSummary(ordered, time.perf_counter() - started)


# The first line of a Markdown file is read to tell chunkcli's own (its provenance comment).
FIRST_LINE_BYTES = 4096


def stale_markdown(out_dir: Path, summary: BatchSummary) -> list[Path]:
    """Markdown files under `out_dir` that chunkcli wrote in an earlier run and this run did
    not: their PDF is gone from the inputs, or failed this time. Left there, `split out_dir`
    would index them as if current. Files without chunkcli's provenance line are not ours."""
    if not out_dir.is_dir():
        return []
    written = {o.output.resolve() for o in summary.outcomes if o.output is not None}
    stale = []
    for path in sorted(out_dir.rglob("*.md")):
        if path.is_file() and not path.is_symlink() and path.resolve() not in written:
            with path.open("rb") as handle:
                first = handle.read(FIRST_LINE_BYTES).decode("utf-8", "replace")
            if parse_provenance(first) is not None:
                stale.append(path)
    return stale


def _named(
    pdfs: Sequence[tuple[Path, Path]], on_pages: Callable[[Path, int], None], index: int, done: int
) -> None:
    on_pages(pdfs[index][0], done)


def _convert_and_write(
    job: FileJob,
    options: ConvertOptions,
    pool: WorkerPool,
    *,
    out_dir: Path | None = None,
    on_pages: PagesDone | None = None,
) -> FileOutcome:
    """In a worker: convert, write the figures' pictures and the Markdown, and send back
    only this small outcome (a pickled document costs about as much as a fifth of its
    conversion)."""
    pdf, target = job
    started = time.perf_counter()
    images_dir: Path | None = None
    if options.images is not None and target is not None:
        images_dir, options = _images_for(target, out_dir, options, options.images)
    result = _convert_catching(pdf, options, pool, on_pages=on_pages)
    if isinstance(result, ChunkcliError):
        return FileOutcome(pdf, None, seconds=time.perf_counter() - started, error=str(result))
    if target is not None:
        try:
            if images_dir is not None:
                write_images(images_dir, result)
            write_atomic(target, result.markdown, make_parents=True)
        except OutputWriteError as exc:
            error = f"{pdf}: {exc}"
            return FileOutcome(pdf, None, seconds=time.perf_counter() - started, error=error)
    return converted_outcome(pdf, target, result, time.perf_counter() - started)


def write_images(folder: Path, result: ConvertResult) -> None:
    """The figures' pictures of a conversion (--images) into `folder`, each atomically."""
    for name, png in result.images:
        write_atomic(folder / name, png, make_parents=True)


def _images_for(
    target: Path, out_dir: Path | None, options: ConvertOptions, images: ImageOptions
) -> tuple[Path, ConvertOptions]:
    """Where one document's pictures go (the images folder, mirroring the Markdown's place
    under `out_dir` in folder mode) and the options whose links point there from the
    Markdown's folder (or as given, for Markdown sent to stdout)."""
    folder = Path(images.folder)
    if out_dir is not None and target.parent != out_dir:
        with contextlib.suppress(ValueError):
            folder = folder / target.parent.relative_to(out_dir)
    link = images.link if images.link_as_given else os.path.relpath(folder, target.parent)
    link = Path(link).as_posix()
    return folder, dataclasses.replace(options, images=dataclasses.replace(images, link=link))


def converted_outcome(
    pdf: Path, target: Path | None, result: ConvertResult, seconds: float
) -> FileOutcome:
    """The outcome of a PDF that converted (and, when `target` is set, was written there)."""
    return FileOutcome(
        source=pdf,
        output=target,
        pages=len(result.pages),
        blank=result.blank_pages,
        image_only=result.image_only_pages,
        garbage=result.garbage_pages,
        damaged=result.damaged_pages,
        ocr=result.ocr_pages,
        ocr_missing=result.document.ocr_missing,
        ocr_skipped=result.ocr_skipped_pages,
        seconds=seconds,
        warnings=result.warnings,
    )


def _lost(job: FileJob, error: ChunkcliError, seconds: float) -> FileOutcome:
    """The outcome of a file whose worker died; a temporary file it was writing is removed."""
    pdf, target = job
    if target is not None and target.parent.is_dir():
        for stray in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
            stray.unlink(missing_ok=True)
    return FileOutcome(pdf, None, seconds=seconds, error=str(error))


# --- the summary as text ----------------------------------------------------------------------


def summary_lines(summary: BatchSummary) -> list[str]:
    """The end-of-batch report: totals, files with blank/scanned/garbled pages, then failures."""
    converted = summary.files - len(summary.failures)
    lines = [
        f"converted {converted} of {summary.files} PDFs: {summary.pages} pages "
        f"in {summary.seconds:.1f} s ({summary.pages_per_s:.1f} pages/s)"
    ]
    lines += _page_note(summary, lambda o: o.blank, "blank pages")
    lines += _page_note(summary, lambda o: o.ocr, "pages read by OCR")
    lines += _page_note(summary, lambda o: o.image_only, "pages with no text layer (no OCR)")
    lines += _page_note(summary, lambda o: o.garbage, "pages with an unreadable text layer")
    lines += _page_note(summary, lambda o: o.damaged, "damaged pages (content may be missing)")
    lines += _ocr_missing_note(summary)
    warnings = [warning for outcome in summary.outcomes for warning in outcome.warnings]
    if warnings:
        lines.append(f"warnings: {len(warnings)}")
        lines += [f"  {warning}" for warning in warnings]
    if summary.failures:
        lines.append(f"failed: {len(summary.failures)}")
        lines += [f"  {outcome.error}" for outcome in summary.failures]
    if summary.incomplete:
        lines.append(f"pages not read by OCR (time limit): {len(summary.incomplete)} files")
        lines += [f"  {ocr_skipped_error(outcome)}" for outcome in summary.incomplete]
    return lines


def ocr_skipped_error(outcome: FileOutcome) -> str:
    """The line that names a file whose pages OCR left unread, and what to do."""
    return (
        f"{outcome.source}: page {page_ranges(outcome.ocr_skipped)}: not read by OCR: the time "
        "limit ran out first (their markers say 'ocr skipped'); raise --timeout or "
        "--ocr-page-time, or give --timeout 0 for no limit"
    )


def _ocr_missing_note(summary: BatchSummary) -> list[str]:
    """Once per run, not once per file: OCR could not run (a set-up problem)."""
    reasons = sorted({o.ocr_missing for o in summary.outcomes if o.ocr_missing})
    files = sum(1 for o in summary.outcomes if o.ocr_missing)
    return [f"OCR did not run on {files} files: {reason}" for reason in reasons]


def _page_note(
    summary: BatchSummary, pages_of: Callable[[FileOutcome], tuple[int, ...]], label: str
) -> list[str]:
    hits = [(o.source, pages_of(o)) for o in summary.outcomes if pages_of(o)]
    if not hits:
        return []
    total = sum(len(pages) for _, pages in hits)
    listed = [f"{source} p. {page_ranges(pages)}" for source, pages in hits[:MAX_FILES_LISTED]]
    more = len(hits) - MAX_FILES_LISTED
    tail = f"; and {more} more files" if more > 0 else ""
    return [f"{label}: {total}: " + "; ".join(listed) + tail]


def page_warnings(outcome: FileOutcome) -> list[str]:
    """One line per kind of page that holds no usable text, for a single-file conversion."""
    notes = (
        (outcome.image_only, "no text layer (scanned? OCR found no text or did not run)"),
        (outcome.garbage, "an unreadable text layer (broken fonts)"),
        (outcome.damaged, "damaged: MuPDF could not read all of it (content may be missing)"),
    )
    pages = [f"{outcome.source}: page {page_ranges(p)}: {what}" for p, what in notes if p]
    missing = [f"{outcome.source}: OCR did not run: {outcome.ocr_missing}"] * bool(
        outcome.ocr_missing
    )
    return [*outcome.warnings, *missing, *pages]

"""What every command shares: the app, exit codes, shared options, error and progress output.

Every command shares the same conventions (README, "Exit codes"): '-' as input is standard
input, `-o -` is standard output, -q silences progress and summaries, and the same problem gives
the same exit code everywhere.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import signal
import sys
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, cast

import typer

from chunkcli import __version__
from chunkcli.check.options import CheckOptions
from chunkcli.cli.lean_import import install_lean_pymupdf, limit_blas_threads
from chunkcli.convert.ocr.options import ENGINES, OcrEngine, OcrMode, OcrOptions
from chunkcli.errors import ChunkcliError, UsageError
from chunkcli.files import OutputWriteError, readable_text, write_atomic
from chunkcli.pagespec import parse_page_spec
from chunkcli.split.options import MIN_MAX_TOKENS, SplitOptions
from chunkcli.workers import WorkerPool

# The CLI owns its process: PyMuPDF is imported without its layout model, numpy's OpenBLAS
# with one thread (lean_import.py).
install_lean_pymupdf()
limit_blas_threads()

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console

    from chunkcli.convert.options import ConvertOptions
    from chunkcli.model import InputFailure

    ProgressStep = Callable[[str], None]
    PageStep = Callable[[str, int], None]  # (what is being worked on, pages just done)

F = TypeVar("F", bound="Callable[..., Any]")

# Exit codes, the same in every command (README, "Exit codes").
EXIT_OK = 0
EXIT_FAILED = 1  # a document could not be read or converted, or (check) a document failed
EXIT_USAGE = 2  # a bad option value, a missing input, a folder with nothing to do
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)
EXIT_TERMINATED = 143  # SIGTERM (128 + SIGTERM): kill, systemd, a container stopping

# Every flag's default is its option field's default: the option classes are the one place a
# default is written. Their modules are light (the split and check packages load their
# machinery on first use), so `--help` does not pay for them.
SPLIT_DEFAULTS = SplitOptions()
CHECK_DEFAULTS = CheckOptions()
POOL_DEFAULTS = WorkerPool()
OCR_DEFAULTS = OcrOptions()

app = typer.Typer(
    name="chunkcli",
    help="Turn PDFs into GitHub-Flavored Markdown, then into retrieval-ready chunks, "
    "and check a corpus before indexing.\n\n"
    "Pipeline: chunkcli convert report.pdf | chunkcli split - > chunks.jsonl",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@functools.cache
def err_console() -> Console:
    """The console that errors, notes and progress bars go to. Made on first use: rich's
    console module costs 13 ms and 3 MB at start-up, and a quiet run that fails nothing
    never prints."""
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"chunkcli {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", callback=_print_version, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """Turn PDFs into GitHub-Flavored Markdown, then into retrieval-ready chunks, and check a
    corpus before indexing.

    Pipeline: chunkcli convert report.pdf | chunkcli split - > chunks.jsonl
    """


# --- shared options -------------------------------------------------------------------------

OutputOption = Annotated[
    str | None,
    typer.Option("--output", "-o", metavar="FILE|-", help="Write here (atomically); '-' = stdout."),
]
PagesOption = Annotated[
    str | None,
    typer.Option("--pages", metavar="SPEC", help="PDF pages, 1-based: 3, 3-7, 2- or 1,3-5."),
]
PasswordOption = Annotated[
    str | None, typer.Option("--password", metavar="TEXT", help="Password of encrypted PDFs.")
]
ModeOption = Annotated[
    str,
    typer.Option(
        "--mode",
        metavar="heading|laws|rows|qa|items|auto",
        help="heading: cut on headings (default). laws: one chunk per article "
        "(第N条, 제N조), TOC apart. rows: one chunk per table row as 'Column: value' "
        "lines. qa: one chunk per question with its answer. items: one chunk per dated "
        "entry (résumé job, log event, catalogue entry) with item_type and period fields. "
        "auto: laws when the document is mostly articles, items when it is mostly dated "
        "items, else heading. Example: --mode laws",
    ),
]
RowsPerChunkOption = Annotated[
    int,
    typer.Option(
        "--rows-per-chunk", min=1, metavar="N", help="rows mode: up to N table rows per chunk."
    ),
]
KeepHiddenTextOption = Annotated[
    bool,
    typer.Option(
        "--keep-hidden-text",
        help="Keep text a reader cannot see (invisible, the colour of its background, under "
        "1 pt); by default it is removed and each page says so.",
    ),
]
ImagesOption = Annotated[
    str | None,
    typer.Option(
        "--images",
        metavar="DIR",
        help="Write each figure's picture to DIR as a PNG (<document>-p<page>-<k>.png) and "
        "link it from its figure block (and the chunk's `images`); DIR is created. Without it "
        "nothing but the output is written.",
    ),
]
NoTablesOption = Annotated[
    bool, typer.Option("--no-tables", help="Skip table detection: faster, tables as text.")
]
TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout", min=0, metavar="SECONDS",
        help="Wall-clock seconds allowed to convert one PDF, plus --ocr-page-time for each "
        "of its pages read by OCR; 0 = no limit.",
    ),
]  # fmt: skip
OcrPageTimeOption = Annotated[
    float,
    typer.Option(
        "--ocr-page-time", min=0, metavar="SECONDS",
        help="Seconds each page read by OCR adds to its PDF's --timeout.",
    ),
]  # fmt: skip
JobsOption = Annotated[
    int | None,
    typer.Option(
        "--jobs", "-j", min=1, metavar="N",
        help="Worker processes for PDFs [default: CPUs]; 1 converts in this process.",
    ),
]  # fmt: skip
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", help="No progress, no summary: only errors.")
]
MaxTokensOption = Annotated[
    int, typer.Option("--max-tokens", metavar="N", help="Token limit of a chunk's text (>= 16).")
]


def require_max_tokens_floor(value: int) -> None:
    if value < MIN_MAX_TOKENS:
        raise UsageError(
            f"--max-tokens must be at least {MIN_MAX_TOKENS}, got {value}: a title and heading "
            "path alone take about that many tokens, so every chunk would be over the limit"
        )


def require_utf8(flag: str, *values: str | None) -> None:
    """A flag's value must be UTF-8 text: typed in a Latin-1 locale it reaches Python as lone
    surrogates, which no chunk id, JSON line or manifest can hold (a traceback until issue 30);
    a usage error (exit 2) naming the flag and showing the bad bytes as \\xNN."""
    for value in values:
        if value is not None and readable_text(value) != value:
            shown = "" if flag == "--password" else f": {readable_text(value)}"
            raise UsageError(f"{flag}: not UTF-8 text{shown}")


@contextlib.contextmanager
def reporting_errors() -> Iterator[None]:
    """A library error -> one line on stderr; exit 2 for usage errors, 1 for the rest."""
    try:
        yield
    except UsageError as exc:
        print_error(str(exc))
        raise typer.Exit(EXIT_USAGE) from None
    except ChunkcliError as exc:
        print_error(str(exc))
        raise typer.Exit(EXIT_FAILED) from None


def print_error(message: str) -> None:
    from rich.markup import escape

    # escape: a file named "report [final].pdf" must not be read as rich markup
    err_console().print(f"[red]error:[/red] {escape(message)}", markup=True, soft_wrap=True)


def print_note(message: str, quiet: bool = False) -> None:
    if not quiet:
        err_console().print(message, markup=False, soft_wrap=True, highlight=False)


T = TypeVar("T")


def print_warnings(documents: Iterator[T], quiet: bool) -> Iterator[T]:
    """The documents, each PDF's conversion warnings printed as it passes (as convert prints
    them): text a PDF lost is never silent in split either. (A map keeps no reference to the
    document it passed on, as a generator's loop variable would: split frees each document's
    text once it has what it needs of it.)"""

    def warned(document: T) -> T:
        for warning in getattr(document, "warnings", ()):
            print_note(f"warning: {warning}", quiet)
        return document

    return map(warned, documents)


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def plural(count: int, noun: str) -> str:
    """'1 document', '2 documents'."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def make_convert_options(
    pages: str | None, password: str | None, *, tables: bool = True
) -> ConvertOptions:
    from chunkcli.convert.options import ConvertOptions

    require_utf8("--password", password)
    selection = parse_page_spec(pages) if pages is not None else None  # UsageError: exit 2
    return ConvertOptions(pages=selection, password=password, tables=tables)


@dataclass(frozen=True, slots=True)
class ConvertFlags:
    """The conversion flags of every command that reads PDFs (convert, split, check, sync,
    eval), as typed: `options()` is the one place they become ConvertOptions."""

    pages: str | None = None
    password: str | None = None
    no_tables: bool = False
    ocr: str = OcrMode.AUTO.value
    ocr_lang: str = OCR_DEFAULTS.lang
    ocr_dpi: int = OCR_DEFAULTS.dpi
    ocr_engine: str = OCR_DEFAULTS.engine.value
    keep_hidden_text: bool = False
    images: str | None = None

    def options(self, *, ocr_jobs: int | None = 1) -> ConvertOptions:
        """ConvertOptions, every value checked (UsageError or BadParameter: exit 2).
        `ocr_jobs`: pages of one PDF read at once (None: one per CPU); 1 when the worker pool
        already runs several PDFs side by side."""
        options = make_convert_options(self.pages, self.password, tables=not self.no_tables)
        options = dataclasses.replace(options, keep_hidden_text=self.keep_hidden_text)
        if self.images is not None:
            from chunkcli.convert.options import ImageOptions

            require_utf8("--images", self.images)
            # Links as given (relative to where the command runs); convert points them from
            # each Markdown file's folder instead.
            images = ImageOptions(str(Path(self.images).absolute()), self.images, True)
            options = dataclasses.replace(options, images=images)
        return with_ocr(options, self.ocr, self.ocr_lang, self.ocr_dpi, ocr_jobs, self.ocr_engine)


def stdin_bytes(paths: list[str]) -> bytes | None:
    return sys.stdin.buffer.read() if "-" in paths else None


def write_output(output: str | None, text: str | Iterable[str]) -> None:
    """To stdout (None or '-'), else to a file, atomically; missing folders are created, as
    `convert -o DIR/` creates its output folder. Pieces (JSON Lines as they are made) are
    written as they come."""
    if output in (None, "-"):
        for piece in [text] if isinstance(text, str) else text:
            write_stdout(piece)
        return
    write_atomic(Path(output), text, make_parents=True)


def write_stdout(text: str) -> None:
    """UTF-8 whatever the locale; a reader that closes the pipe early (| head) is no error."""
    try:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.flush()
    except BrokenPipeError:
        _stdout_to_devnull()
    except OSError as exc:  # a full disk behind a redirection: one line and exit 1
        _stdout_to_devnull()
        raise OutputWriteError(f"stdout: cannot write: {exc.strerror or exc}") from None


def _stdout_to_devnull() -> None:
    """Point stdout at devnull so that the interpreter's final flush does not fail again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread as Ctrl-C's KeyboardInterrupt is, so that it unwinds
    the same way: temporary files removed, worker processes killed, one line, exit 143."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


def _stopped(exc: KeyboardInterrupt) -> tuple[str, int]:
    """The word and exit code of Ctrl-C (interrupted, 130) or SIGTERM (terminated, 143)."""
    if isinstance(exc, Terminated):
        return "terminated", EXIT_TERMINATED
    return "interrupted", EXIT_INTERRUPTED


def one_line_when_stopped(where: str) -> Callable[[F], F]:
    """A command that ends with one line on Ctrl-C (exit 130) and SIGTERM (exit 143), wherever
    it is stopped (`interruptible` inside it says how far it got): `where` says what the
    stop leaves behind. SIGTERM is handled only while the command runs."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def run(*args: object, **kwargs: object) -> object:
            in_main = threading.current_thread() is threading.main_thread()
            previous = signal.signal(signal.SIGTERM, _raise_terminated) if in_main else None
            try:
                return command(*args, **kwargs)
            except KeyboardInterrupt as exc:
                word, code = _stopped(exc)
                print_error(f"{word}: {where}")
                raise typer.Exit(code) from None
            finally:
                if previous is not None:
                    signal.signal(signal.SIGTERM, previous)

        return cast("F", run)

    return decorate


@contextlib.contextmanager
def interruptible(
    what: str, done: list[int], total: int, where: str | Callable[[], str]
) -> Iterator[None]:
    """Ctrl-C (or SIGTERM) -> one line saying how far the work got, and exit code 130 (143).
    `where` is said after it: text, or a function asked at that moment (what exists then)."""
    try:
        yield
    except KeyboardInterrupt as exc:
        word, code = _stopped(exc)
        said = where() if callable(where) else where
        print_error(f"{word}: {done[0]} of {plural(total, what)} finished; {said}")
        raise typer.Exit(code) from None


@contextlib.contextmanager
def progress_bar(label: str, total: int, quiet: bool) -> Iterator[ProgressStep]:
    """A transient bar on stderr when it is a terminal (and not -q); else nothing is drawn."""
    with page_progress_bar(label, total, quiet) as step:
        yield lambda name: step(name, 1)


def progress_drawn(quiet: bool) -> bool:
    """Whether a progress bar would be drawn (worth counting pages for)."""
    return not quiet and stderr_is_terminal()


@contextlib.contextmanager
def page_progress_bar(label: str, total: int, quiet: bool) -> Iterator[PageStep]:
    """progress_bar whose steps advance by a given count (pages)."""
    if not progress_drawn(quiet) or total < 2:
        yield lambda name, advance: None
        return
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.description}"))  # fmt: skip
    with Progress(*columns, console=err_console(), transient=True) as progress:
        task = progress.add_task("", total=total)
        yield lambda name, advance: progress.update(
            task, advance=advance, description=escape(name[:40])
        )


# --- OCR options (convert, check) ----------------------------------------------------------

OcrModeOption = Annotated[
    str,
    typer.Option(
        "--ocr",
        metavar="auto|never|force",
        help="OCR pages without a usable text layer (auto), none (never), or every page "
        "(force: scans with a bad hidden text layer).",
    ),
]
OcrLangOption = Annotated[
    str,
    typer.Option(
        "--ocr-lang",
        metavar="LANG",
        help="Tesseract language(s), e.g. jpn, jpn_vert, kor, eng, kor+eng. auto: the first "
        "scanned page decides among jpn, jpn_vert, kor, eng (most confident reading).",
    ),
]
OcrDpiOption = Annotated[
    int,
    typer.Option("--ocr-dpi", min=50, max=600, metavar="DPI", help="Resolution of OCR'd pages."),
]
OcrEngineOption = Annotated[
    str,
    typer.Option(
        "--ocr-engine",
        metavar="tesseract|rapidocr",
        help="OCR engine: tesseract (default) or rapidocr (pip install 'chunkcli[rapidocr]'; "
        "Japanese, Chinese, English, Latin scripts; no Korean).",
    ),
]
OcrMinConfidenceOption = Annotated[
    float,
    typer.Option(
        "--ocr-min-confidence",
        min=0.0,
        max=1.0,
        metavar="0..1",
        help="OCR pages below this mean word confidence are flagged (pages.ocr-low-confidence).",
    ),
]


FLAT_METADATA_HELP = (
    "No nested objects or nulls (for Chroma and other flat stores): split_config_version, "
    "split_max_tokens, ..., --meta keys at the top level, heading_path_text."
)
FlatMetadataOption = Annotated[bool, typer.Option("--flat-metadata", help=FLAT_METADATA_HELP)]


def exit_on_failures(failures: list[InputFailure], total: int, quiet: bool) -> None:
    if failures:
        print_note(f"failed: {len(failures)} of {plural(total, 'document')}", quiet or total == 1)
        raise typer.Exit(EXIT_FAILED)


def _require_tesseract_languages(lang: str) -> None:
    """A language Tesseract has no data for is a usage error naming the installed ones. When
    Tesseract itself is missing, conversion goes on: pages that need OCR are marked and the
    run says what to install (convert's own note)."""
    from chunkcli.convert.ocr.options import AUTO

    if lang == AUTO:  # (nothing to check: Tesseract is not run for its list)
        return
    from chunkcli.convert.ocr.tesseract import tesseract_languages

    installed = tesseract_languages(OCR_DEFAULTS.tesseract_cmd) - {"osd"}
    unknown = [part for part in lang.split("+") if part not in installed]
    if installed and unknown:
        raise typer.BadParameter(
            f"no Tesseract data for {'+'.join(unknown)}; installed: "
            f"{', '.join(sorted(installed))}", param_hint="--ocr-lang",
        )  # fmt: skip


def with_ocr(
    options: ConvertOptions, mode: str, lang: str, dpi: int, jobs: int | None, engine: str
) -> ConvertOptions:
    """--ocr* flags on top of the convert options; one file's pages are OCR'd by up to --jobs
    engine processes or threads (in folder mode the files run in parallel instead: jobs=1)."""

    try:
        ocr_mode = OcrMode(mode)
    except ValueError:
        raise typer.BadParameter(
            f"{mode!r} is not one of auto, never, force", param_hint="--ocr"
        ) from None
    if not lang.strip() or any(not part for part in lang.split("+")):
        raise typer.BadParameter(f"{lang!r} is no language list", param_hint="--ocr-lang")
    if engine not in ENGINES:
        raise typer.BadParameter(
            f"{engine!r} is not one of {', '.join(ENGINES)}", param_hint="--ocr-engine"
        )
    if engine == OcrEngine.TESSERACT and mode != OcrMode.NEVER:
        _require_tesseract_languages(lang)
    if engine == OcrEngine.RAPIDOCR:  # its module (and importlib.metadata) loads only when chosen
        from chunkcli.convert.ocr.rapidocr import unreadable_languages

        if unreadable_languages(lang):
            raise typer.BadParameter(
                f"RapidOCR's bundled model cannot read {unreadable_languages(lang)}: "
                "use --ocr-engine tesseract", param_hint="--ocr-lang",
            )  # fmt: skip
    ocr = OcrOptions(
        mode=ocr_mode, lang=lang, dpi=dpi, jobs=jobs or os.cpu_count() or 1,
        engine=OcrEngine(engine),
    )  # fmt: skip
    return dataclasses.replace(options, ocr=ocr)

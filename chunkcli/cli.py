"""The command line: parse options, call the library, print. No document logic lives here.

Every command shares the same conventions (README, "Exit codes"): '-' as input is standard
input, `-o -` is standard output, -q silences progress and summaries, and the same problem gives
the same exit code everywhere. Heavy modules (PyMuPDF above all) are imported inside the
commands, so that `--help` and Markdown-only work never pay for them.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from chunkcli import __version__, lean_import
from chunkcli.errors import ChunkcliError, UsageError

# The CLI owns its process: PyMuPDF is imported without its layout model (lean_import.py).
lean_import.install()

if TYPE_CHECKING:
    from chunkcli.batch import BatchSummary
    from chunkcli.check import CheckOptions, DocumentReport
    from chunkcli.inputs import InputFailure, ReadOptions
    from chunkcli.model import Chunk
    from chunkcli.pipeline import ConvertOptions

# Exit codes, the same in every command (README, "Exit codes").
EXIT_OK = 0
EXIT_FAILED = 1  # a document could not be read or converted, or (check) a document failed
EXIT_USAGE = 2  # a bad option value, a missing input, a folder with nothing to do
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)

# The option classes' defaults, as typer needs them when this module loads. Importing the
# classes here would import the split and check packages on every `--help`;
# tests/test_cli_common.py checks that every flag's default equals its option field's.
DEFAULT_TIMEOUT_S = 120.0  # ReadOptions.timeout_s
DEFAULT_MAX_TOKENS = 800  # SplitOptions.max_tokens, CheckOptions.max_tokens

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
err_console = Console(stderr=True, highlight=False)


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
TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout", min=0, metavar="SECONDS",
        help="Wall-clock seconds allowed to convert one PDF; 0 = no limit.",
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


def _require_max_tokens_floor(value: int) -> None:
    from chunkcli.split.options import MIN_MAX_TOKENS

    if value < MIN_MAX_TOKENS:
        raise UsageError(
            f"--max-tokens must be at least {MIN_MAX_TOKENS}, got {value}: a title and heading "
            "path alone take about that many tokens, so every chunk would be over the limit"
        )


@contextlib.contextmanager
def reporting_errors() -> Iterator[None]:
    """A library error -> one line on stderr; exit 2 for usage errors, 1 for the rest."""
    try:
        yield
    except UsageError as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_USAGE) from None
    except ChunkcliError as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_FAILED) from None


def _error(message: str) -> None:
    # escape: a file named "report [final].pdf" must not be read as rich markup
    err_console.print(f"[red]error:[/red] {escape(message)}", markup=True, soft_wrap=True)


def _note(message: str, quiet: bool = False) -> None:
    if not quiet:
        err_console.print(message, markup=False, soft_wrap=True, highlight=False)


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def plural(count: int, noun: str) -> str:
    """'1 document', '2 documents'."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def _convert_options(
    pages: str | None, password: str | None, *, tables: bool = True
) -> ConvertOptions:
    from chunkcli.pagespec import parse_page_spec
    from chunkcli.pipeline import ConvertOptions

    selection = parse_page_spec(pages) if pages is not None else None  # UsageError: exit 2
    return ConvertOptions(pages=selection, password=password, tables=tables)


def _stdin_bytes(paths: list[str]) -> bytes | None:
    return sys.stdin.buffer.read() if "-" in paths else None


def _write_output(output: str | None, text: str) -> None:
    """To stdout (None or '-'), else to a file, atomically."""
    if output in (None, "-"):
        _write_stdout(text)
        return
    from chunkcli.jsonl import write_atomic

    write_atomic(Path(output), text)


def _write_stdout(text: str) -> None:
    """UTF-8 whatever the locale; a reader that closes the pipe early (| head) is no error."""
    try:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.flush()
    except BrokenPipeError:
        import os

        # Point stdout at devnull so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


@contextlib.contextmanager
def interruptible(what: str, done: list[int], total: int, where: str) -> Iterator[None]:
    """Ctrl-C -> one line saying how far the work got, and exit code 130."""
    try:
        yield
    except KeyboardInterrupt:
        _error(f"interrupted: {done[0]} of {plural(total, what)} finished; {where}")
        raise typer.Exit(EXIT_INTERRUPTED) from None


@contextlib.contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """Python's cycle collector paused (the CLI owns its process; the library never does this).

    Splitting makes hundreds of thousands of small tuples that form no cycles; the collector
    walks them again and again, 5-10 % of split's time on 5 MB (bench/split_bench.py).
    Reference counting still frees everything; the collector resumes afterwards."""
    import gc

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


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
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.description}"))  # fmt: skip
    with Progress(*columns, console=err_console, transient=True) as progress:
        task = progress.add_task("", total=total)
        yield lambda name, advance: progress.update(
            task, advance=advance, description=escape(name[:40])
        )


if TYPE_CHECKING:
    from collections.abc import Callable

    ProgressStep = Callable[[str], None]
    PageStep = Callable[[str, int], None]  # (what is being worked on, pages just done)


# --- OCR options (convert, check) ----------------------------------------------------------

OcrModeOption = Annotated[
    str,
    typer.Option(
        "--ocr", metavar="auto|never|force",
        help="OCR pages without a usable text layer (auto), none (never), or every page "
        "(force: scans with a bad hidden text layer).",
    ),
]
OcrLangOption = Annotated[
    str,
    typer.Option(
        "--ocr-lang", metavar="LANG",
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
        "--ocr-engine", metavar="tesseract|rapidocr",
        help="OCR engine: tesseract (default) or rapidocr (pip install 'chunkcli[rapidocr]'; "
        "Japanese, Chinese, English, Latin scripts; no Korean).",
    ),
]
OcrMinConfidenceOption = Annotated[
    float,
    typer.Option(
        "--ocr-min-confidence", min=0.0, max=1.0, metavar="0..1",
        help="OCR pages below this mean word confidence are flagged (pages.ocr-low-confidence).",
    ),
]


def _with_ocr(  # noqa: PLR0913 - one parameter per --ocr* flag
    options: ConvertOptions, mode: str, lang: str, dpi: int, jobs: int | None, engine: str
) -> ConvertOptions:
    """--ocr* flags on top of the convert options; one file's pages are OCR'd by up to --jobs
    engine processes or threads (in folder mode the files run in parallel instead: jobs=1)."""
    import dataclasses
    import os

    from chunkcli.ocr import OcrMode, OcrOptions
    from chunkcli.ocr.options import ENGINES
    from chunkcli.ocr.rapidocr import ENGINE as RAPIDOCR
    from chunkcli.ocr.rapidocr import unreadable_languages

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
    if engine == RAPIDOCR and unreadable_languages(lang):
        raise typer.BadParameter(
            f"RapidOCR's bundled model cannot read {unreadable_languages(lang)}: "
            "use --ocr-engine tesseract", param_hint="--ocr-lang",
        )  # fmt: skip
    ocr = OcrOptions(
        mode=ocr_mode, lang=lang, dpi=dpi, jobs=jobs or os.cpu_count() or 1, engine=engine
    )
    return dataclasses.replace(options, ocr=ocr)


# --- convert -------------------------------------------------------------------------------


@app.command()
def convert(  # noqa: PLR0913 - one parameter per documented flag
    inputs: Annotated[
        list[str],
        typer.Argument(metavar="PDF|FOLDER|-", hidden=True, show_default=False),
    ],
    output: Annotated[
        str | None,
        typer.Option(
            "--output", "-o", metavar="FILE|DIR/|-",
            help="A .md file, '-' for stdout, or a folder (ends in '/' or exists). "
            "Default: stdout for one PDF.",
        ),
    ] = None,
    pages: PagesOption = None,
    password: PasswordOption = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT_S,
    jobs: JobsOption = None,
    no_tables: Annotated[
        bool, typer.Option("--no-tables", help="Skip table detection: faster, tables as text.")
    ] = False,
    quiet: QuietOption = False,
    engine: Annotated[str, ENGINE_OPTION] = "local",
    ray_address: Annotated[str | None, RAY_ADDRESS_OPTION] = None,
    ocr: OcrModeOption = "auto",
    ocr_lang: OcrLangOption = "auto",
    ocr_dpi: OcrDpiOption = 200,
    ocr_engine: OcrEngineOption = "tesseract",
) -> None:
    """Convert PDFs to GitHub-Flavored Markdown.

    PDF|FOLDER|-: PDF files, folders searched for PDFs recursively, or '-' for a PDF on stdin.

    One PDF is written to stdout, or to a file with -o. Folders, or several PDFs, need
    -o OUTDIR: every PDF becomes a .md file in a mirrored tree, converted in parallel, and a
    summary (pages, pages/s, blank and scanned pages, failures) goes to stderr.

    \b
    Examples:
      chunkcli convert report.pdf > report.md
      chunkcli convert report.pdf -o report.md --pages 3-7
      cat report.pdf | chunkcli convert - -o report.md
      chunkcli convert papers/ -o md/ --jobs 4 --timeout 60
      chunkcli convert papers/ -o md/ --engine ray --ray-address auto
      chunkcli convert scan.pdf --ocr-lang jpn --ocr-dpi 300 -o scan.md

    Pages without a text layer are read by OCR (Tesseract, or RapidOCR with --ocr-engine
    rapidocr); their page marker carries the confidence:
    <!-- page 3: ocr conf=0.91 engine=tesseract -->.

    A file that cannot be converted (not a PDF, damaged, encrypted, too slow) gets a one-line
    error naming it and exit code 1, and nothing is written for it; in a folder the other
    files still convert. Exit code 2: bad options or no input.
    """
    with reporting_errors():
        options = _convert_options(pages, password, tables=not no_tables)
    folder_mode = _is_folder_mode(inputs, output)
    options = _with_ocr(options, ocr, ocr_lang, ocr_dpi, 1 if folder_mode else jobs, ocr_engine)
    if _engine(engine, ray_address) == "ray":
        _convert_on_ray(inputs, _folder_output(output), options, jobs, timeout, ray_address)
    elif folder_mode:
        out_dir = _folder_output(output)
        _convert_folder(inputs, out_dir, options, jobs, timeout, quiet)
    elif inputs == ["-"]:
        _convert_stdin(output, options, jobs, timeout)
    else:
        _convert_file(Path(inputs[0]), output, options, timeout, jobs, quiet)


def _is_folder_mode(inputs: list[str], output: str | None) -> bool:
    """Several inputs, a folder input, or an output that names a folder."""
    if len(inputs) > 1 or (inputs[0] != "-" and Path(inputs[0]).is_dir()):
        return True
    return output not in (None, "-") and (output.endswith("/") or Path(output).is_dir())


def _folder_output(output: str | None) -> Path:
    if output in (None, "-"):
        raise typer.BadParameter(
            "converting a folder or several PDFs needs -o OUTDIR", param_hint="--output"
        )
    out_dir = Path(output)
    if out_dir.exists() and not out_dir.is_dir():
        raise typer.BadParameter(f"{out_dir} is a file, not a folder", param_hint="--output")
    return out_dir


def _convert_stdin(
    output: str | None, options: ConvertOptions, jobs: int | None, timeout: float
) -> None:
    """A PDF on standard input -> stdout or a file (named '-' in its provenance)."""
    from chunkcli.inputs import InputFailure, InputFile, ReadOptions, read_inputs

    stdin = sys.stdin.buffer.read()
    read = ReadOptions(convert=options, jobs=jobs, timeout_s=timeout)
    [document] = list(read_inputs([InputFile("-", is_pdf=True)], read, stdin))
    if isinstance(document, InputFailure):
        _error(document.error)
        raise typer.Exit(EXIT_FAILED)
    with reporting_errors():
        _write_output(output, document.markdown)


def _convert_file(  # noqa: PLR0913 - the command's options, passed on
    pdf: Path,
    output: str | None,
    options: ConvertOptions,
    timeout: float,
    jobs: int | None,
    quiet: bool,
) -> None:
    """One PDF -> stdout or a file; warnings about pages without text go to stderr.

    It is converted in a worker process (unless --jobs 1), so that a MuPDF crash or hang
    becomes a one-line error like any other."""
    from chunkcli.batch import convert_file, page_warnings

    if not pdf.exists():
        _error(f"{pdf}: no such file or folder")
        raise typer.Exit(EXIT_USAGE)
    target = None if output in (None, "-") else Path(output)
    if target is not None and target.resolve() == pdf.resolve():
        raise typer.BadParameter(f"{output} is the input PDF itself", param_hint="--output")
    counts = _page_counts([pdf], options, quiet)
    with reporting_errors(), page_progress_bar("pages", counts[pdf], quiet) as step:
        told = _PagesTold(counts, step)
        outcome, markdown = convert_file(
            pdf, target, options, jobs=jobs, timeout_s=timeout, on_pages=told.pages
        )
    for warning in page_warnings(outcome):
        _note(f"warning: {warning}", quiet)
    if markdown is not None:
        _write_stdout(markdown)


def _convert_folder(  # noqa: PLR0913 - the command's options, passed on
    inputs: list[str],
    out_dir: Path,
    options: ConvertOptions,
    jobs: int | None,
    timeout: float,
    quiet: bool,
) -> None:
    """Every PDF under `inputs` -> out_dir/<mirrored path>.md, a summary on stderr, exit 1 if
    any failed."""
    from chunkcli.batch import find_pdfs, summary_lines

    if "-" in inputs:
        raise typer.BadParameter("'-' (stdin) cannot be mixed with other inputs")
    with reporting_errors():
        pdfs = find_pdfs([Path(i) for i in inputs])
    done = [0]
    with interruptible("PDF", done, len(pdfs), f"their Markdown is in {out_dir}/"):
        summary = _run_batch(pdfs, out_dir, options, (jobs, timeout), quiet, done)
    for line in summary_lines(summary):
        _note(line, quiet)
    if summary.failures:
        if quiet:  # the failures are the one thing -q still reports
            for failure in summary.failures:
                _error(failure.error or "")
        raise typer.Exit(EXIT_FAILED)


def _run_batch(  # noqa: PLR0913 - the command's options, passed on
    pdfs: list[tuple[Path, Path]],
    out_dir: Path,
    options: ConvertOptions,
    pool: tuple[int | None, float],
    quiet: bool,
    done: list[int],
) -> BatchSummary:
    """convert_many, counting finished files (for Ctrl-C) and drawing progress in pages: a
    file's OCR pages as they are read, its other pages when it is done."""
    from chunkcli.batch import convert_many

    jobs, timeout = pool
    counts = _page_counts([pdf for pdf, _ in pdfs], options, quiet)
    with page_progress_bar("pages", sum(counts.values()), quiet) as step:
        told = _PagesTold(counts, step)

        def finished(outcome: object) -> None:
            done[0] += 1
            told.finished(getattr(outcome, "source", Path("")))

        return convert_many(
            pdfs, out_dir, options, jobs=jobs, timeout_s=timeout, on_progress=finished,
            on_pages=told.pages,
        )  # fmt: skip


def _page_counts(pdfs: list[Path], options: ConvertOptions, quiet: bool) -> dict[Path, int]:
    """Each file's pages when a bar is drawn (opening every file costs ~1 ms each); 1 each
    otherwise."""
    from chunkcli.batch import pages_to_convert

    if not progress_drawn(quiet):
        return dict.fromkeys(pdfs, 1)
    return {pdf: pages_to_convert(pdf, options.pages) for pdf in pdfs}


class _PagesTold:
    """Turns (file, pages done so far) reports and finished files into page steps."""

    def __init__(self, counts: dict[Path, int], step: PageStep) -> None:
        self.counts, self.step, self.told = counts, step, dict.fromkeys(counts, 0)

    def pages(self, pdf: Path, done: int) -> None:
        advance = min(done, self.counts.get(pdf, done)) - self.told.get(pdf, 0)
        if advance > 0:
            self.told[pdf] = self.told.get(pdf, 0) + advance
            self.step(f"{pdf.name}: OCR", advance)

    def finished(self, pdf: Path) -> None:
        advance = self.counts.get(pdf, 1) - self.told.get(pdf, 0)
        self.told[pdf] = self.counts.get(pdf, 1)
        self.step(pdf.name, max(0, advance))


# --- split ---------------------------------------------------------------------------------

FLAT_METADATA_HELP = (
    "No nested objects or nulls (for Chroma and other flat stores): split_config_version, "
    "split_max_tokens, ..., --meta keys at the top level, heading_path_text."
)
FlatMetadataOption = Annotated[bool, typer.Option("--flat-metadata", help=FLAT_METADATA_HELP)]


@app.command()
def split(  # noqa: PLR0913 - one parameter per documented flag
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH|-", hidden=True, show_default=False),
    ],
    output: OutputOption = None,
    max_tokens: MaxTokensOption = DEFAULT_MAX_TOKENS,
    min_tokens: Annotated[
        int,
        typer.Option(min=0, metavar="N", help="Merge small H3 parts of one H2 section (0 = off)."),
    ] = 0,
    overlap_sentences: Annotated[
        int,
        typer.Option(
            min=0, metavar="N", help="Sentences repeated between windows of one paragraph."
        ),
    ] = 1,
    encoding: Annotated[
        str, typer.Option(metavar="NAME", help="tiktoken encoding, loaded offline.")
    ] = "cl100k_base",
    title: Annotated[
        str | None, typer.Option(metavar="TEXT", help="Document title (default: first H1).")
    ] = None,
    doc_id: Annotated[
        str | None,
        typer.Option(metavar="ID", help="Document id (default: the path, relative to a folder "
                     "given; stdin: a hash of the source)."),
    ] = None,
    source: Annotated[
        str | None,
        typer.Option(metavar="NAME", help="The name chunks cite for stdin's document."),
    ] = None,
    meta: Annotated[
        list[str] | None,
        typer.Option(metavar="KEY=VALUE", help="Copied into every chunk's metadata; repeatable."),
    ] = None,
    split_on: Annotated[
        str, typer.Option(metavar="h2|h3", help="Always cut at h2 or at h3 headings.")
    ] = "h2",
    pages: PagesOption = None,
    password: PasswordOption = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT_S,
    jobs: JobsOption = None,
    quiet: QuietOption = False,
    flat_metadata: FlatMetadataOption = False,
    # --- split modes (issue 12) ---
    mode: Annotated[
        str,
        typer.Option(
            metavar="heading|laws|rows|qa|auto",
            help="heading: cut on headings (default). laws: one chunk per article "
            "(第N条, 제N조), TOC apart. rows: one chunk per table row as 'Column: value' "
            "lines. qa: one chunk per question with its answer. auto: laws when the "
            "document is mostly articles, else heading. Example: --mode laws",
        ),
    ] = "heading",
    rows_per_chunk: Annotated[
        int,
        typer.Option(min=1, metavar="N", help="rows mode: up to N table rows per chunk."),
    ] = 1,
    engine: Annotated[str, ENGINE_OPTION] = "local",
    ray_address: Annotated[str | None, RAY_ADDRESS_OPTION] = None,
    output_format: Annotated[str, SPLIT_FORMAT_OPTION] = "jsonl",
) -> None:
    """Split Markdown (or PDFs) into retrieval chunks: JSON Lines, one chunk per line.

    PATH|-: Markdown files, PDFs (converted first), folders of either, or '-' for stdin.

    Chunks cut at H2 (or H3) headings, carry the title and heading path in their prefix,
    never break a table (later parts repeat its header rows), and keep exact [start, end)
    offsets into the Markdown. PDFs are converted first, in worker processes.

    \b
    Examples:
      chunkcli split report.md -o chunks.jsonl --max-tokens 500
      chunkcli convert report.pdf | chunkcli split - > chunks.jsonl
      cat notes.md | chunkcli split - --source notes.md
      chunkcli split md/ -o chunks.jsonl --meta team=legal
      chunkcli split corpus/ --engine ray -o chunks.jsonl
      chunkcli split corpus/ --engine ray --format parquet -o s3://bucket/chunks/

    A file that cannot be read or converted gets a one-line error; the other files' chunks
    are still written and the exit code is 1. Exit code 2: bad options or no input.
    """
    from chunkcli.inputs import ReadOptions, find_inputs, read_inputs
    from chunkcli.jsonl import check_flat_metadata
    from chunkcli.split import SplitOptions
    from chunkcli.split.documents import split_documents
    from chunkcli.split.options import parse_meta

    on_ray = _engine(engine, ray_address) == "ray"
    if output_format != "jsonl" and not on_ray:
        raise typer.BadParameter("needs --engine ray", param_hint="--format")
    with reporting_errors():
        _require_max_tokens_floor(max_tokens)
        convert_options = _convert_options(pages, password)
        options = SplitOptions(
            max_tokens=max_tokens, min_tokens=min_tokens, overlap_sentences=overlap_sentences,
            encoding=encoding, title=title, doc_id=doc_id, metadata=parse_meta(meta or []),
            split_on=split_on,
            mode=mode, rows_per_chunk=rows_per_chunk,
        ).validated()  # fmt: skip
        if flat_metadata:
            check_flat_metadata(options.metadata, options.config())
        skip = Path(output) if output not in (None, "-") else None
        read = ReadOptions(convert_options, jobs, timeout, stdin_name=source)
        if on_ray:
            _split_on_ray(paths, output, options, read, (ray_address, output_format), quiet)
            return
        files = find_inputs(paths, skip=skip)
        documents = read_inputs(files, read, _stdin_bytes(paths))
        chunks, failures = _collect_chunks(split_documents(documents, options), len(files), quiet)
        wrote = len(failures) < len(files)  # nothing is written when every input failed
        if wrote:
            _write_chunks(output, chunks, flat_metadata)
    to_stdout = output in (None, "-")
    _note(f"wrote {plural(len(chunks), 'chunk')} to {output}", quiet or not wrote or to_stdout)
    _exit_on_failures(failures, len(files), quiet)


def _collect_chunks(
    results: Iterator[list[Chunk] | InputFailure], total: int, quiet: bool
) -> tuple[list[Chunk], list[InputFailure]]:
    """All chunks in input order, and the inputs that failed (each reported as it comes)."""
    from chunkcli.inputs import InputFailure

    chunks: list[Chunk] = []
    failures: list[InputFailure] = []
    done = [0]
    with interruptible("document", done, total, "nothing was written"), progress_bar(
        "splitting", total, quiet
    ) as step, cycle_collector_paused():
        for result in results:
            done[0] += 1
            if isinstance(result, InputFailure):
                failures.append(result)
                _error(result.error)
                step(result.path)
            else:
                chunks += result
                step(result[0].source if result else "")
    return chunks, failures


def _write_chunks(output: str | None, chunks: list[Chunk], flat: bool = False) -> None:
    from chunkcli.jsonl import chunks_to_jsonl

    _write_output(output, chunks_to_jsonl(chunks, flat=flat))


def _exit_on_failures(failures: list[InputFailure], total: int, quiet: bool) -> None:
    if failures:
        _note(f"failed: {len(failures)} of {plural(total, 'document')}", quiet or total == 1)
        raise typer.Exit(EXIT_FAILED)


# --- sync ----------------------------------------------------------------------------------

if TYPE_CHECKING:
    from chunkcli.sync import SyncPlan


@app.command()
def sync(  # noqa: PLR0913 - one parameter per documented flag
    corpus: Annotated[
        Path,
        typer.Argument(metavar="DIR", help="The corpus root: Markdown files or PDFs under it.",
                       show_default=False),
    ],
    manifest: Annotated[
        Path,
        typer.Option("--manifest", "-m", metavar="FILE",
                     help="SQLite manifest of what the index holds (created on the first run)."),
    ],
    output: Annotated[
        str,
        typer.Option("--output", "-o", metavar="FILE|-",
                     help="Changes as JSON Lines (written atomically); '-' for stdout."),
    ],
    max_tokens: Annotated[int, typer.Option(min=1, metavar="N", help="As for split.")] = 800,
    min_tokens: Annotated[int, typer.Option(min=0, metavar="N", help="As for split.")] = 0,
    overlap_sentences: Annotated[
        int, typer.Option(min=0, metavar="N", help="As for split.")
    ] = 1,
    encoding: Annotated[str, typer.Option(metavar="NAME", help="As for split.")] = "cl100k_base",
    split_on: Annotated[str, typer.Option(metavar="h2|h3", help="As for split.")] = "h2",
    meta: Annotated[
        list[str] | None,
        typer.Option(metavar="KEY=VALUE", help="Copied into every chunk; repeatable."),
    ] = None,
    password: PasswordOption = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT_S,
    jobs: JobsOption = None,
    quiet: QuietOption = False,
    flat_metadata: FlatMetadataOption = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the summary; write no file, no manifest.")
    ] = False,
    full: Annotated[
        bool, typer.Option("--full", help="Re-emit every chunk of every document (rebuild).")
    ] = False,
) -> None:
    """Re-index only what changed: upsert/delete lines for a vector store.

    Walks DIR, converts and splits only documents whose bytes or options changed since the
    manifest's last run, and writes one line per change: {"op": "upsert", <the chunk>} or
    {"op": "delete", "id": ..., "doc_id": ...}. Removed or renamed files delete their chunks;
    nothing changed writes an empty file. Document ids are paths relative to DIR. A document
    that fails to convert keeps its previous chunks (exit 1). Apply the changes file after each
    run: the next run overwrites it.

    \b
    Example:
      chunkcli sync docs/ --manifest index.db -o changes.jsonl --flat-metadata
    """
    from chunkcli.inputs import ReadOptions
    from chunkcli.jsonl import check_flat_metadata
    from chunkcli.split import SplitOptions
    from chunkcli.split.options import parse_meta
    from chunkcli.sync import SyncOptions, sync_corpus

    with reporting_errors():
        _require_max_tokens_floor(max_tokens)
        read = ReadOptions(_convert_options(None, password), jobs, timeout)
        split_options = SplitOptions(
            max_tokens=max_tokens, min_tokens=min_tokens, overlap_sentences=overlap_sentences,
            encoding=encoding, metadata=parse_meta(meta or []), split_on=split_on,
        ).validated()
        if flat_metadata:
            check_flat_metadata(split_options.metadata, split_options.config())
        options = SyncOptions(split_options, flat_metadata, full, read)
        result = sync_corpus(corpus, manifest, output, options, dry_run=dry_run)
    for failure in result.plan.failures:
        _error(f"{failure.error} (previous chunks kept)")
    _note(_sync_summary(result.plan, dry_run), quiet)
    if result.plan.failures:
        raise typer.Exit(EXIT_FAILED)


def _sync_summary(plan: SyncPlan, dry_run: bool) -> str:
    count, c = plural, plan.count
    head = "dry run: would write" if dry_run else "wrote"
    return (
        f"{count(len(plan.changes) - c('deleted'), 'document')}: {c('added')} added, "
        f"{c('changed')} changed, {c('unchanged')} unchanged, {c('deleted')} deleted, "
        f"{c('failed')} failed; {head} {count(plan.upserts, 'upsert')}, "
        f"{count(plan.deletes, 'delete')} ({plan.chunks} chunks indexed)"
    )


# --- --engine ray (convert and split on a Ray cluster) ---------------------------------------

ENGINE_OPTION = typer.Option(
    "--engine", metavar="local|ray",
    help="local: this machine's processes; ray: a Ray cluster (pip install 'chunkcli[ray]').",
)
RAY_ADDRESS_OPTION = typer.Option(
    "--ray-address", metavar="ADDRESS",
    help="With --engine ray: the cluster to join (auto, ray://host:10001, host:6379); "
    "default: start a local one with --jobs CPUs.",
)
SPLIT_FORMAT_OPTION = typer.Option(
    "--format", metavar="jsonl|parquet",
    help="parquet (--engine ray): -o DIR/ or a URI gets chunks/ and errors/ Parquet datasets.",
)
ENGINES = ("local", "ray")

if TYPE_CHECKING:
    from chunkcli.split import SplitOptions


def _engine(engine: str, ray_address: str | None) -> str:
    if engine not in ENGINES:
        raise typer.BadParameter("must be local or ray", param_hint="--engine")
    if ray_address is not None and engine != "ray":
        raise typer.BadParameter("needs --engine ray", param_hint="--ray-address")
    return engine


def _convert_on_ray(  # noqa: PLR0913 - the convert flags, passed on as they are
    inputs: list[str],
    out_dir: Path,
    options: ConvertOptions,
    jobs: int | None,
    timeout: float,
    ray_address: str | None,
) -> None:
    """Every PDF under `inputs` converted on Ray -> out_dir, the same files and summary as
    the local folder mode."""
    from chunkcli.batch import find_pdfs, summary_lines
    from chunkcli.distributed.ray_engine import RaySettings, convert_to_folder
    from chunkcli.distributed.rows import ConvertJob

    with reporting_errors():
        pdfs = find_pdfs([Path(i) for i in inputs])
        job = ConvertJob(options, timeout)
        summary = convert_to_folder(pdfs, out_dir, job, RaySettings(ray_address, jobs))
    for line in summary_lines(summary):
        err_console.print(line, markup=False, soft_wrap=True)
    if summary.failures:
        raise typer.Exit(1)


def _split_on_ray(  # noqa: PLR0913 - the split flags, passed on as they are
    paths: list[str],
    output: str | None,
    options: SplitOptions,
    read: ReadOptions,
    where: tuple[str | None, str],
    quiet: bool,
) -> None:
    """split --engine ray: the chunks of every input, JSON Lines identical to the local run's
    (or Parquet); a file that fails is one line on stderr and exit 1, the others' chunks are
    written."""
    from chunkcli.distributed.ray_engine import RaySettings, split_to_jsonl, split_to_parquet
    from chunkcli.distributed.rows import SplitJob
    from chunkcli.inputs import find_inputs

    ray_address, output_format = where
    if output_format not in ("jsonl", "parquet"):
        raise typer.BadParameter("must be jsonl or parquet", param_hint="--format")
    if output_format == "parquet" and output in (None, "-"):
        raise typer.BadParameter("--format parquet needs -o DIR/ or a URI", param_hint="--output")
    if "-" in paths:
        raise typer.BadParameter("--engine ray reads files, not stdin ('-')")
    skip = Path(output) if output not in (None, "-") and output_format == "jsonl" else None
    files = find_inputs(paths, skip=skip)
    job, settings = SplitJob(options, read), RaySettings(ray_address, read.jobs)
    if output_format == "parquet":
        errors = split_to_parquet(files, job, settings, str(output))
        written = f"wrote Parquet to {output}"
    else:
        outcome = split_to_jsonl(files, job, settings)
        errors, written = outcome.errors, f"wrote {plural(outcome.chunks, 'chunk')} to {output}"
        _write_output(output, outcome.jsonl)
    for error in errors:
        _error(error)
    _note(written, quiet or output in (None, "-"))
    if errors:
        raise typer.Exit(EXIT_FAILED)


# --- check ---------------------------------------------------------------------------------

CHECK_FORMATS = ("table", "json", "github")
CHECK_STATUS_STYLE = {"ok": "green", "warn": "yellow", "fail": "bold red"}
# The full table needs about this many columns; narrower terminals get one block per document.
CHECK_TABLE_MIN_WIDTH = 120
# Width assumed when stdout is not a terminal and COLUMNS is not set.
PIPE_WIDTH = 80


@app.command()
def check(  # noqa: PLR0913 - one parameter per documented flag
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH|-", hidden=True, show_default=False),
    ],
    output_format: Annotated[
        str,
        typer.Option(
            "--format", metavar="table|json|github", help="github: Actions annotations."
        ),
    ] = "table",
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
    output: OutputOption = None,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too.")] = False,
    max_tokens: MaxTokensOption = DEFAULT_MAX_TOKENS,
    min_chunk_tokens: Annotated[
        int, typer.Option(min=0, metavar="N", help="Chunks under this many tokens are crumbs.")
    ] = 8,
    boilerplate_share: Annotated[
        float,
        typer.Option(
            min=0.0, max=1.0, metavar="SHARE", help="A line on this share of pages is boilerplate."
        ),
    ] = 0.4,
    garbage_share: Annotated[
        float,
        typer.Option(
            min=0.0, max=1.0, metavar="SHARE",
            help="This share of unusable glyphs makes a page garbage.",
        ),
    ] = 0.1,
    deep: Annotated[
        bool,
        typer.Option(
            "--deep", help="PDFs: recount each table with pdfplumber (slow: ~10 table pages/s)."
        ),
    ] = False,
    password: PasswordOption = None,
    jobs: JobsOption = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT_S,
    quiet: QuietOption = False,
    # --- split modes (issue 12) ---
    mode: Annotated[
        str,
        typer.Option(
            metavar="heading|laws|auto",
            help="Split mode the chunks are judged with, as for split --mode; laws (or auto "
            "finding articles) also warns when articles are missing or out of sequence.",
        ),
    ] = "heading",
    ocr_min_confidence: OcrMinConfidenceOption = 0.75,
) -> None:
    """Lint PDFs or their Markdown before indexing: exit 1 when a document fails.

    PATH|-: PDFs, Markdown files, folders of either, or '-' for stdin (Markdown or PDF).

    PDFs are converted in memory (nothing is written). Prints one row per document, the
    reasons for each warn/fail, and a corpus summary; --json and --format github are for CI.

    \b
    Examples:
      chunkcli check docs/
      chunkcli check report.pdf --strict
      chunkcli check report.pdf --deep
      chunkcli check md/ --format github
      chunkcli convert report.pdf | chunkcli check -

    Exit codes: 0 nothing failed, 1 a document failed (--strict: or warned), 2 bad usage.
    """
    from chunkcli.check import CheckOptions

    fmt = _check_format(output_format, as_json)
    options = CheckOptions(
        max_tokens=max_tokens, strict=strict, min_chunk_tokens=min_chunk_tokens,
        boilerplate_share=boilerplate_share, garbage_share=garbage_share, mode=_check_mode(mode),
        ocr_min_confidence=ocr_min_confidence,
        deep=deep,
    )  # fmt: skip
    with reporting_errors():
        _require_max_tokens_floor(max_tokens)
        read = _read_options(password, jobs, timeout)
        reports = _run_checks(paths, options, read, quiet)
        _write_output(output, _check_text(reports, options, fmt, output))
    if any(report.status == "fail" for report in reports):
        raise typer.Exit(EXIT_FAILED)


def _read_options(password: str | None, jobs: int | None, timeout: float) -> ReadOptions:
    from chunkcli.inputs import ReadOptions

    convert_options = _convert_options(None, password)
    return ReadOptions(convert_options, jobs, timeout, keep_documents=True)


def _check_mode(mode: str) -> str:
    if mode not in ("heading", "laws", "auto"):
        raise typer.BadParameter("must be one of heading, laws, auto", param_hint="--mode")
    return mode


def _check_format(output_format: str, as_json: bool) -> str:
    if output_format not in CHECK_FORMATS:
        choices = ", ".join(CHECK_FORMATS)
        raise typer.BadParameter(f"must be one of {choices}", param_hint="--format")
    if as_json and output_format not in ("table", "json"):
        raise typer.BadParameter("--json and --format github exclude each other")
    return "json" if as_json else output_format


def _run_checks(
    paths: list[str], options: CheckOptions, read: ReadOptions, quiet: bool
) -> list[DocumentReport]:
    from chunkcli.check.corpus import check_documents
    from chunkcli.inputs import find_inputs, read_inputs

    files = find_inputs(paths)
    reports = check_documents(read_inputs(files, read, _stdin_bytes(paths)), options)
    collected: list[DocumentReport] = []
    done = [0]
    with interruptible("document", done, len(files), "no report was written"), progress_bar(
        "checking", len(files), quiet
    ) as step:
        for report in reports:
            collected.append(report)
            done[0] += 1
            step(Path(report.source).name)
    return collected


def _check_text(
    reports: list[DocumentReport], options: CheckOptions, fmt: str, output: str | None
) -> str:
    import json

    from chunkcli.check import corpus_to_dict, github_annotations

    if fmt == "json":
        return json.dumps(corpus_to_dict(reports, options), ensure_ascii=False, indent=2) + "\n"
    if fmt == "github":
        return "".join(line + "\n" for line in github_annotations(reports)) + (
            _check_summary_text(reports) + "\n"
        )
    return _check_table_text(reports, to_terminal=output in (None, "-") and sys.stdout.isatty())


def _check_table_text(reports: list[DocumentReport], to_terminal: bool) -> str:
    """The report as the terminal (or COLUMNS) is wide: a table, or a block per document."""
    import os

    width = None if to_terminal else int(os.environ.get("COLUMNS", PIPE_WIDTH))
    console = Console(
        highlight=False, width=width, record=True, file=io.StringIO(), force_terminal=to_terminal,
        color_system="auto" if to_terminal else None,
    )  # fmt: skip
    wide = console.width >= CHECK_TABLE_MIN_WIDTH
    if wide:
        console.print(_check_table(reports))
    else:
        for r in reports:
            console.print(_compact_row(r))
    for r in reports:
        for issue in (i for i in r.issues if i.severity != "ok"):
            style = CHECK_STATUS_STYLE[issue.severity]
            console.print(
                f"{escape(r.source)}: [{style}]{issue.severity}[/] {issue.code}: "
                f"{escape(issue.message)}",
                soft_wrap=wide,  # narrow: wrapped at words, not cut off by the terminal
            )
    console.print(escape(_check_summary_text(reports)), soft_wrap=wide)
    return console.export_text(styles=to_terminal)


def _check_table(reports: list[DocumentReport]) -> object:
    from rich.table import Table

    table = Table(show_lines=False, pad_edge=False)
    for name in ("document", "pages", "headings", "depth", "tables", "empty", "scanned",
                 "boilerplate", "chunks", "tokens", "status", "reasons"):  # fmt: skip
        left = name in ("document", "status", "reasons")
        table.add_column(name, justify="left" if left else "right", overflow="fold")
    for r in reports:
        table.add_row(
            escape(r.source), str(r.pages), _headings_cell(r.headings_by_level),
            str(r.max_heading_depth), str(r.tables), str(len(r.empty_pages)),
            str(len(r.scanned_pages)), str(r.boilerplate_lines), str(r.chunks),
            f"{r.tokens:,}", _status_cell(r.status), escape(_reasons(r)),
        )  # fmt: skip
    return table


def _compact_row(r: DocumentReport) -> str:
    """One document in two lines, for narrow terminals: status and name, then the figures."""
    figures = ", ".join([
        plural(r.pages, "page"), f"headings {_headings_cell(r.headings_by_level)}",
        plural(r.tables, "table"), f"{len(r.empty_pages)} empty", f"{len(r.scanned_pages)} scanned",
        plural(r.chunks, "chunk"), f"{r.tokens:,} tokens",
    ])  # fmt: skip
    reasons = _reasons(r)
    return f"{_status_cell(r.status)} {escape(r.source)}\n    {figures}" + (
        f"\n    {escape(reasons)}" if reasons else ""
    )


def _status_cell(status: str) -> str:
    return f"[{CHECK_STATUS_STYLE[status]}]{status}[/]"


def _reasons(r: DocumentReport) -> str:
    return ", ".join(dict.fromkeys(i.code for i in r.issues if i.severity != "ok"))


def _headings_cell(by_level: tuple[int, ...]) -> str:
    """'1·4·2' for one H1, four H2, two H3 (levels past the deepest used are left out)."""
    deepest = max((i for i, n in enumerate(by_level) if n), default=-1)
    return "·".join(str(n) for n in by_level[: deepest + 1]) or "-"


def _check_summary_text(reports: list[DocumentReport]) -> str:
    from chunkcli.check import summarize_corpus

    s = summarize_corpus(reports)
    text = (
        f"{plural(s.documents, 'document')}: {s.ok} ok, {s.warn} warn, {s.fail} fail\n"
        f"{plural(s.pages, 'page')} ({s.scanned_pages} scanned, {s.empty_pages} blank), "
        f"{plural(s.chunks, 'chunk')}, {plural(s.tokens, 'token')}"
    )
    if s.issue_documents:
        common = ", ".join(f"{code} ({n})" for code, n in s.issue_documents[:6])
        text += f"\nmost frequent findings (documents): {common}"
    return text


# --- eval ----------------------------------------------------------------------------------


@app.command("eval")
def eval_(  # noqa: PLR0913 - one parameter per documented flag
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="GOLD|DOC...",
            help="The gold file (JSON Lines; '-' = stdin, sources relative to the current "
            "folder); with --make-gold, the PDFs or Markdown files to draft it from.",
            show_default=False,
        ),
    ],
    config: Annotated[
        list[str] | None,
        typer.Option(
            "--config", "-c", metavar="NAME=\"OPTIONS\"",
            help="A split configuration to score, e.g. small=\"--max-tokens 300\"; repeatable "
            "(default: split's defaults, named default).",
        ),
    ] = None,
    k: Annotated[
        str, typer.Option("--k", metavar="K,K,...", help="Ranks to score at.")
    ] = "1,3,5,10",
    as_json: Annotated[bool, typer.Option("--json", help="JSON instead of Markdown.")] = False,
    output: OutputOption = None,
    embed: Annotated[
        str | None,
        typer.Option(
            metavar="MODULE:CALLABLE",
            help="Rank by your embedding function (list of texts -> list of vectors) "
            "instead of BM25; nothing is downloaded.",
        ),
    ] = None,
    timings: Annotated[
        bool, typer.Option(help="Report split and query latency (--no-timings: byte-identical).")
    ] = True,
    make_gold: Annotated[
        bool, typer.Option("--make-gold", help="Write a template gold file for DOC... instead.")
    ] = False,
    timeout: TimeoutOption = DEFAULT_TIMEOUT_S,
    jobs: JobsOption = None,
    quiet: QuietOption = False,
) -> None:
    """Score retrieval on gold answer spans and compare split configurations, offline.

    Each gold line is {"question", "source" (relative to the gold file), "answer" (a verbatim
    span of the converted Markdown) or "start"/"end", optional "page", "condition",
    "occurrence"}. Sources are converted once and split once per config; every chunk of every
    source is indexed with BM25 (Latin words, Japanese/Korean character bigrams).

    \b
    Examples:
      chunkcli eval gold.jsonl -c small="--max-tokens 300" -c large="--max-tokens 800"
      chunkcli eval --make-gold docs/*.pdf -o gold.jsonl

    Exit code 1: a source cannot be read or an answer is not found; 2: bad options or input.
    """
    from chunkcli.inputs import ReadOptions

    read = ReadOptions(jobs=jobs, timeout_s=timeout)
    failures: list[InputFailure] = []
    with reporting_errors():
        if make_gold:
            text = _draft_gold(paths, output, read, failures)
        else:
            text = _eval_report(paths, config or [], k, embed, read, as_json, timings)
        if len(failures) < len(paths):  # nothing is written when every document failed
            _write_output(output, text)
            _note(f"wrote {output}", quiet or output in (None, "-"))
    _exit_on_failures(failures, len(paths), quiet)


def _eval_report(  # noqa: PLR0913 - the command's options, passed on
    paths: list[str], configs: list[str], ks: str, embed: str | None, read: ReadOptions,
    as_json: bool, timings: bool,
) -> str:  # fmt: skip
    from chunkcli import evaluate

    if len(paths) != 1:
        raise UsageError(f"eval takes one gold file, got {len(paths)} (--make-gold takes many)")
    report = evaluate.run_eval(
        Path(paths[0]),
        evaluate.parse_configs(configs),
        evaluate.parse_ks(ks),
        _eval_retriever(embed),
        gold_text=_decoded_stdin() if paths[0] == "-" else None,
        read=read,
    )
    return (evaluate.to_json if as_json else evaluate.to_markdown)(report, timings)


def _decoded_stdin() -> str:
    from chunkcli.evaluate import GoldError

    try:
        return sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GoldError(f"<stdin>: not UTF-8 text (bad byte at offset {exc.start})") from None


def _draft_gold(
    paths: list[str], output: str | None, read: ReadOptions, failures: list[InputFailure]
) -> str:
    """The template gold file, its sources relative to where it is written; a document that
    cannot be read is reported (and added to `failures`), the others are still drafted."""
    import os

    from chunkcli.evaluate import make_gold
    from chunkcli.evaluate.sources import read_sources

    base = Path(output).parent if output not in (None, "-") else Path.cwd()
    files = [Path(p) for p in paths]
    drafted = []
    for path, result in zip(files, read_sources(files, read), strict=True):
        if isinstance(result, str):
            drafted.append((Path(os.path.relpath(path.resolve(), base.resolve())).as_posix(),
                            result))
        else:
            failures.append(result)
            _error(result.error)
    return make_gold(drafted)


if TYPE_CHECKING:
    from chunkcli.evaluate.run import RetrieverFactory


def _eval_retriever(embed: str | None) -> RetrieverFactory:
    from chunkcli.evaluate.retriever import Bm25Retriever, EmbeddingRetriever, load_embed

    if embed is None:
        return Bm25Retriever
    function = load_embed(embed)
    return lambda texts: EmbeddingRetriever(texts, function, embed)

"""The command line: parse options, call the library, print. No document logic lives here."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from chunkcli.errors import ChunkcliError

app = typer.Typer(
    name="chunkcli",
    help="Turn PDFs into GitHub-Flavored Markdown, then into retrieval-ready chunks, "
    "and check a corpus before indexing.\n\n"
    "Pipeline: chunkcli convert report.pdf | chunkcli split - > chunks.jsonl",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
err_console = Console(stderr=True, highlight=False)


@contextlib.contextmanager
def reporting_errors() -> Iterator[None]:
    """Turn a library error into one line on stderr and exit code 1."""
    try:
        yield
    except ChunkcliError as exc:
        # escape: a file named "report [final].pdf" must not be read as rich markup
        err_console.print(f"[red]error:[/red] {escape(str(exc))}", markup=True, soft_wrap=True)
        raise typer.Exit(1) from None


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


# --- OCR options (convert) -----------------------------------------------------------------

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


OcrMinConfidenceOption = Annotated[
    float,
    typer.Option(
        "--ocr-min-confidence", min=0.0, max=1.0, metavar="0..1",
        help="OCR pages below this mean word confidence are flagged (pages.ocr-low-confidence).",
    ),
]


def _ocr_options(mode: str, lang: str, dpi: int, jobs: int | None) -> OcrOptions:
    """--ocr* flags -> OcrOptions; one file's pages are OCR'd by up to --jobs processes
    (in folder mode the files run in parallel instead, jobs=1)."""
    import os

    from chunkcli.ocr import OcrMode, OcrOptions

    try:
        ocr_mode = OcrMode(mode)
    except ValueError:
        raise typer.BadParameter(
            f"{mode!r} is not one of auto, never, force", param_hint="--ocr"
        ) from None
    if not lang.strip() or any(not part for part in lang.split("+")):
        raise typer.BadParameter(f"{lang!r} is no language list", param_hint="--ocr-lang")
    return OcrOptions(mode=ocr_mode, lang=lang, dpi=dpi, jobs=jobs or os.cpu_count() or 1)


# --- convert -------------------------------------------------------------------------------

if TYPE_CHECKING:
    from chunkcli.batch import BatchSummary
    from chunkcli.ocr import OcrOptions
    from chunkcli.pipeline import ConvertOptions


@app.command()
def convert(  # noqa: PLR0913 - one parameter per documented flag
    inputs: Annotated[
        list[Path],
        typer.Argument(
            metavar="PDF_OR_FOLDER",
            help="PDF files, or folders searched for PDFs recursively.",
            show_default=False,
        ),
    ],
    output: Annotated[
        str | None,
        typer.Option(
            "--output", "-o", metavar="FILE|DIR/|-",
            help="A .md file, '-' for stdout, or a folder (ends in '/' or exists). "
            "Default: stdout for one PDF.",
        ),
    ] = None,
    pages: Annotated[
        str | None,
        typer.Option("--pages", metavar="SPEC", help="Pages to convert, 1-based: 3, 3-7 or 1,3-5."),
    ] = None,
    password: Annotated[
        str | None,
        typer.Option(metavar="TEXT", help="Password of an encrypted PDF (user or owner)."),
    ] = None,
    timeout: Annotated[
        float,
        typer.Option(
            min=0, metavar="SECONDS", help="Seconds allowed per PDF before it fails; 0 = no limit."
        ),
    ] = 120.0,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs", "-j", min=1, metavar="N",
            help="Worker processes [default: CPUs]; 1 converts in this process.",
        ),
    ] = None,
    no_tables: Annotated[
        bool, typer.Option("--no-tables", help="Skip table detection: faster, tables as text.")
    ] = False,
    ocr: OcrModeOption = "auto",
    ocr_lang: OcrLangOption = "auto",
    ocr_dpi: OcrDpiOption = 200,
) -> None:
    """Convert PDFs to GitHub-Flavored Markdown.

    One PDF is written to stdout, or to a file with -o. Folders, or several PDFs, need
    -o OUTDIR: every PDF becomes a .md file in a mirrored tree, converted in parallel, and a
    summary (pages, pages/s, blank and scanned pages, failures) goes to stderr.

    \b
    Examples:
      chunkcli convert report.pdf > report.md
      chunkcli convert report.pdf -o report.md --pages 3-7
      chunkcli convert locked.pdf --password s3cret -o locked.md
      chunkcli convert papers/ -o md/ --jobs 4 --timeout 60
      chunkcli convert report.pdf | chunkcli split - > chunks.jsonl
      chunkcli convert scan.pdf --ocr-lang jpn --ocr-dpi 300 -o scan.md

    Pages without a text layer are read by OCR (Tesseract); their page marker carries the
    confidence: <!-- page 3: ocr conf=0.91 engine=tesseract lang=jpn -->.

    A file that cannot be converted (not a PDF, damaged, encrypted, too slow) gets a one-line
    error naming it and exit code 1, and nothing is written for it; in a folder the other
    files still convert. Exit code 2 means bad options.
    """
    from chunkcli.pipeline import ConvertOptions

    folder_mode = _is_folder_mode(inputs, output)
    options = ConvertOptions(
        pages=_page_selection(pages), password=password, tables=not no_tables,
        ocr=_ocr_options(ocr, ocr_lang, ocr_dpi, 1 if folder_mode else jobs),
    )
    if folder_mode:
        out_dir = _folder_output(output)
        _convert_folder(inputs, out_dir, options, jobs, timeout)
    else:
        _convert_file(inputs[0], output, options, timeout, jobs)


def _page_selection(pages: str | None) -> tuple[int, ...] | None:
    from chunkcli.errors import UsageError
    from chunkcli.pagespec import parse_page_spec

    if pages is None:
        return None
    try:
        return parse_page_spec(pages)
    except UsageError as exc:
        raise typer.BadParameter(str(exc), param_hint="--pages") from None


def _is_folder_mode(inputs: list[Path], output: str | None) -> bool:
    """Several inputs, a folder input, or an output that names a folder."""
    if len(inputs) > 1 or inputs[0].is_dir():
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


def _convert_file(
    pdf: Path, output: str | None, options: ConvertOptions, timeout: float, jobs: int | None
) -> None:
    """One PDF -> stdout or a file; warnings about pages without text go to stderr.

    It is converted in a worker process (unless --jobs 1), so that a MuPDF crash or hang
    becomes a one-line error like any other."""
    from chunkcli.batch import convert_file, page_warnings

    target = None if output in (None, "-") else Path(output)
    if target is not None and target.resolve() == pdf.resolve():
        raise typer.BadParameter(f"{output} is the input PDF itself", param_hint="--output")
    with reporting_errors():
        outcome, markdown = convert_file(pdf, target, options, jobs=jobs, timeout_s=timeout)
    for warning in page_warnings(outcome):
        err_console.print(f"warning: {warning}", markup=False, soft_wrap=True)
    if markdown is not None:
        _write_stdout(markdown)


def _write_stdout(text: str) -> None:
    """UTF-8 whatever the locale; a reader that closes the pipe early (| head) is no error."""
    try:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.flush()
    except BrokenPipeError:
        import os

        # Point stdout at devnull so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _convert_folder(
    inputs: list[Path], out_dir: Path, options: ConvertOptions, jobs: int | None, timeout: float
) -> None:
    """Every PDF under `inputs` -> out_dir/<mirrored path>.md, a summary on stderr, exit 1 if
    any failed."""
    from chunkcli.batch import find_pdfs, summary_lines

    with reporting_errors():
        pdfs = find_pdfs(inputs)
        summary = _run_batch(pdfs, out_dir, options, jobs, timeout)
    for line in summary_lines(summary):
        err_console.print(line, markup=False, soft_wrap=True)
    if summary.failures:
        raise typer.Exit(1)


def _run_batch(
    pdfs: list[tuple[Path, Path]],
    out_dir: Path,
    options: ConvertOptions,
    jobs: int | None,
    timeout: float,
) -> BatchSummary:
    """convert_many, with a progress bar when stderr is a terminal."""
    from chunkcli.batch import convert_many

    if not stderr_is_terminal():
        return convert_many(pdfs, out_dir, options, jobs=jobs, timeout_s=timeout)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("converting"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.description}"))
    with Progress(*columns, console=err_console, transient=True) as progress:
        task = progress.add_task("", total=len(pdfs))
        return convert_many(
            pdfs, out_dir, options, jobs=jobs, timeout_s=timeout,
            on_progress=lambda outcome: progress.update(
                task, advance=1, description=escape(outcome.source.name[:40])
            ),
        )

# --- split ---------------------------------------------------------------------------------


@app.command()
def split(  # noqa: PLR0913 - one parameter per documented flag
    paths: Annotated[
        list[str],
        typer.Argument(help="Markdown files, PDFs (converted first), folders, or '-' for stdin."),
    ],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write JSON Lines here (atomically).")
    ] = None,
    max_tokens: Annotated[int, typer.Option(min=1, help="Token limit of a chunk's text.")] = 800,
    min_tokens: Annotated[
        int, typer.Option(min=0, help="Merge small H3 parts of one H2 section (0 = off).")
    ] = 0,
    overlap_sentences: Annotated[
        int, typer.Option(min=0, help="Sentences repeated between windows of one paragraph.")
    ] = 1,
    encoding: Annotated[str, typer.Option(help="tiktoken encoding, loaded offline.")] = (
        "cl100k_base"
    ),
    title: Annotated[str | None, typer.Option(help="Document title (default: first H1).")] = None,
    doc_id: Annotated[
        str | None, typer.Option(help="Document id (default: hash of the file).")
    ] = None,
    meta: Annotated[
        list[str] | None, typer.Option(help="KEY=VALUE copied into every chunk; repeatable.")
    ] = None,
    split_on: Annotated[str, typer.Option(help="Always cut at h2 or at h3 headings.")] = "h2",
    pages: Annotated[str | None, typer.Option(help="PDF pages to convert, e.g. 3-7,9.")] = None,
    password: Annotated[str | None, typer.Option(help="Password of encrypted PDFs.")] = None,
) -> None:
    """Split Markdown (or PDFs) into retrieval chunks: JSON Lines, one chunk per line."""
    from chunkcli.jsonl import chunks_to_jsonl, write_atomic
    from chunkcli.pagespec import parse_page_spec
    from chunkcli.split import SplitOptions
    from chunkcli.split.options import parse_meta
    from chunkcli.split.sources import ConvertSettings, split_sources

    with reporting_errors():
        options = SplitOptions(
            max_tokens=max_tokens,
            min_tokens=min_tokens,
            overlap_sentences=overlap_sentences,
            encoding=encoding,
            title=title,
            doc_id=doc_id,
            metadata=parse_meta(meta or []),
            split_on=split_on,
        )
        settings = ConvertSettings(parse_page_spec(pages) if pages else None, password)
        stdin = sys.stdin.buffer.read() if "-" in paths else None
        chunks = list(split_sources(paths, options, settings, skip=output, stdin=stdin))
        text = chunks_to_jsonl(chunks)
        if output is None:
            sys.stdout.buffer.write(text.encode("utf-8"))
            sys.stdout.flush()
            return
        write_atomic(output, text)
    err_console.print(f"wrote {len(chunks)} chunks to {output}", soft_wrap=True)


# --- check ---------------------------------------------------------------------------------

if TYPE_CHECKING:
    from chunkcli.check import CheckOptions, DocumentReport

CHECK_FORMATS = ("table", "json", "github")
CHECK_STATUS_STYLE = {"ok": "green", "warn": "yellow", "fail": "bold red"}


@app.command()
def check(  # noqa: PLR0913 - one parameter per documented flag
    paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="PATH",
            help="PDFs, Markdown files, or folders of either; '-' reads Markdown from stdin.",
            show_default=False,
        ),
    ],
    output_format: Annotated[
        str,
        typer.Option(
            "--format", metavar="table|json|github", help="github: Actions annotations."
        ),
    ] = "table",
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too.")] = False,
    max_tokens: Annotated[
        int, typer.Option(min=1, help="Chunk size limit, as for split.")
    ] = 800,
    min_chunk_tokens: Annotated[
        int, typer.Option(min=0, help="Chunks under this many tokens are crumbs.")
    ] = 8,
    boilerplate_share: Annotated[
        float,
        typer.Option(min=0.0, max=1.0, help="A line on this share of pages is boilerplate."),
    ] = 0.4,
    garbage_share: Annotated[
        float,
        typer.Option(min=0.0, max=1.0, help="This share of unusable glyphs makes a page garbage."),
    ] = 0.1,
    ocr_min_confidence: OcrMinConfidenceOption = 0.75,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, help="Worker processes for PDFs.")
    ] = None,
    timeout: Annotated[
        float, typer.Option(min=0, help="Seconds allowed to convert one PDF; 0 = no limit.")
    ] = 120.0,
) -> None:
    """Lint PDFs or their Markdown before indexing: exit 1 when a document fails.

    PDFs are converted in memory (nothing is written). Prints one row per document, the
    reasons for each warn/fail, and a corpus summary; --json and --format github are for CI.
    Exit codes: 0 nothing failed, 1 a document failed (--strict: or warned), 2 bad usage.
    """
    from chunkcli.check import CheckOptions

    fmt = _check_format(output_format, as_json)
    options = CheckOptions(
        max_tokens=max_tokens,
        strict=strict,
        min_chunk_tokens=min_chunk_tokens,
        boilerplate_share=boilerplate_share,
        garbage_share=garbage_share,
        ocr_min_confidence=ocr_min_confidence,
    )
    with reporting_errors():
        reports = _run_checks(paths, options, jobs, timeout)
    _print_check(reports, options, fmt)
    if any(report.status == "fail" for report in reports):
        raise typer.Exit(1)


def _check_format(output_format: str, as_json: bool) -> str:
    if output_format not in CHECK_FORMATS:
        choices = ", ".join(CHECK_FORMATS)
        raise typer.BadParameter(f"must be one of {choices}", param_hint="--format")
    if as_json and output_format not in ("table", "json"):
        raise typer.BadParameter("--json and --format github exclude each other")
    return "json" if as_json else output_format


def _run_checks(
    paths: list[Path], options: CheckOptions, jobs: int | None, timeout: float
) -> list[DocumentReport]:
    from chunkcli.check import check_markdown
    from chunkcli.check.corpus import check_paths, find_documents
    from chunkcli.errors import UsageError

    if [str(p) for p in paths] == ["-"]:
        return [check_markdown(sys.stdin.read(), options, source="-")]
    try:
        documents = find_documents(paths)
    except UsageError as exc:
        err_console.print(f"[red]error:[/red] {exc}", markup=True, soft_wrap=True)
        raise typer.Exit(2) from None
    reports = check_paths(documents, options, jobs=jobs, timeout_s=timeout)
    if not stderr_is_terminal():
        return list(reports)
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.description}"))  # the same bar as convert's
    with Progress(*columns, console=err_console, transient=True) as progress:
        task = progress.add_task("", total=len(documents))
        collected = []
        for report in reports:
            collected.append(report)
            name = escape(Path(report.source).name[:40])
            progress.update(task, advance=1, description=name)
    return collected


def _print_check(reports: list[DocumentReport], options: CheckOptions, fmt: str) -> None:
    import json

    from chunkcli.check import corpus_to_dict, github_annotations

    if fmt == "json":
        typer.echo(json.dumps(corpus_to_dict(reports, options), ensure_ascii=False, indent=2))
    elif fmt == "github":
        for line in github_annotations(reports):
            typer.echo(line)
        typer.echo(_check_summary_text(reports))
    else:
        _print_check_table(reports)


def _print_check_table(reports: list[DocumentReport]) -> None:
    from rich.markup import escape
    from rich.table import Table

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    table = Table(show_lines=False, pad_edge=False)
    for name in ("document", "pages", "headings", "depth", "tables", "empty", "scanned",
                 "boilerplate", "chunks", "tokens", "status", "reasons"):
        left = name in ("document", "status", "reasons")
        table.add_column(name, justify="left" if left else "right", overflow="fold")
    for r in reports:
        status = f"[{CHECK_STATUS_STYLE[r.status]}]{r.status}[/]"
        reasons = ", ".join(dict.fromkeys(i.code for i in r.issues if i.severity != "ok"))
        table.add_row(
            escape(r.source), str(r.pages), _headings_cell(r.headings_by_level),
            str(r.max_heading_depth), str(r.tables), str(len(r.empty_pages)),
            str(len(r.scanned_pages)), str(r.boilerplate_lines), str(r.chunks),
            f"{r.tokens:,}", status, escape(reasons),
        )
    console.print(table)
    for r in reports:
        for issue in (i for i in r.issues if i.severity != "ok"):
            style = CHECK_STATUS_STYLE[issue.severity]
            console.print(
                f"{escape(r.source)}: [{style}]{issue.severity}[/] {issue.code}: "
                f"{escape(issue.message)}",
                soft_wrap=True,
            )
    console.print(_check_summary_text(reports), soft_wrap=True)


def _headings_cell(by_level: tuple[int, ...]) -> str:
    """'1·4·2' for one H1, four H2, two H3 (levels past the deepest used are left out)."""
    deepest = max((i for i, n in enumerate(by_level) if n), default=-1)
    return "·".join(str(n) for n in by_level[: deepest + 1]) or "-"


def _check_summary_text(reports: list[DocumentReport]) -> str:
    from chunkcli.check import summarize_corpus

    s = summarize_corpus(reports)
    text = (
        f"{s.documents} documents: {s.ok} ok, {s.warn} warn, {s.fail} fail; {s.pages} pages "
        f"({s.scanned_pages} scanned, {s.empty_pages} blank), {s.chunks} chunks, "
        f"{s.tokens:,} tokens"
    )
    if s.issue_documents:
        common = ", ".join(f"{code} ({n})" for code, n in s.issue_documents[:6])
        text += f"\nmost frequent findings (documents): {common}"
    return text

"""`chunkcli check`: the pre-indexing report (table, JSON, GitHub annotations)."""

from __future__ import annotations

import functools
import io
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.cells import cell_len

from chunkcli.check.options import CheckOptions
from chunkcli.cli.common import (
    CHECK_DEFAULTS,
    EXIT_FAILED,
    OCR_DEFAULTS,
    POOL_DEFAULTS,
    ConvertFlags,
    JobsOption,
    KeepHiddenTextOption,
    MaxTokensOption,
    NoTablesOption,
    OcrDpiOption,
    OcrEngineOption,
    OcrLangOption,
    OcrMinConfidenceOption,
    OcrModeOption,
    OcrPageTimeOption,
    OutputOption,
    PagesOption,
    PasswordOption,
    QuietOption,
    TimeoutOption,
    app,
    interruptible,
    one_line_when_stopped,
    page_progress_bar,
    plural,
    print_note,
    progress_drawn,
    reporting_errors,
    require_max_tokens_floor,
    stdin_bytes,
    write_output,
)
from chunkcli.files import readable_text, readable_values
from chunkcli.split.options import SplitMode
from chunkcli.workers import WorkerPool

if TYPE_CHECKING:
    from chunkcli.check import CheckOptions, DocumentReport
    from chunkcli.inputs import InputFile, ReadOptions


class ReportFormat(StrEnum):
    """check --format: how the reports are written."""

    TABLE = "table"  # a table for a person
    JSON = "json"  # one JSON document (--json)
    GITHUB = "github"  # GitHub Actions annotations


CHECK_FORMATS = tuple(ReportFormat)
CHECK_STATUS_STYLE = {"ok": "green", "warn": "yellow", "fail": "bold red"}
# The full table needs about this many columns; narrower terminals get one block per document.
CHECK_TABLE_MIN_WIDTH = 120
# Width assumed when stdout is not a terminal and COLUMNS is not set.
PIPE_WIDTH = 80


@app.command()
@one_line_when_stopped("no report was written")
def check(  # noqa: PLR0913 - one parameter per documented flag
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH|-", hidden=True, show_default=False),
    ],
    output_format: Annotated[
        str,
        typer.Option("--format", metavar="table|json|github", help="github: Actions annotations."),
    ] = "table",
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
    output: OutputOption = None,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too.")] = False,
    max_tokens: MaxTokensOption = CHECK_DEFAULTS.max_tokens,
    min_chunk_tokens: Annotated[
        int, typer.Option(min=0, metavar="N", help="Chunks under this many tokens are crumbs.")
    ] = CHECK_DEFAULTS.min_chunk_tokens,
    boilerplate_share: Annotated[
        float,
        typer.Option(
            min=0.0, max=1.0, metavar="SHARE", help="A line on this share of pages is boilerplate."
        ),
    ] = CHECK_DEFAULTS.boilerplate_share,
    garbage_share: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=1.0,
            metavar="SHARE",
            help="This share of unusable glyphs makes a page garbage.",
        ),
    ] = CHECK_DEFAULTS.garbage_share,
    deep: Annotated[
        bool,
        typer.Option(
            "--deep", help="PDFs: recount each table with pdfplumber (slow: ~10 table pages/s)."
        ),
    ] = False,
    pages: PagesOption = None,
    password: PasswordOption = None,
    no_tables: NoTablesOption = False,
    keep_hidden_text: KeepHiddenTextOption = False,
    ocr: OcrModeOption = OCR_DEFAULTS.mode.value,
    ocr_lang: OcrLangOption = OCR_DEFAULTS.lang,
    ocr_dpi: OcrDpiOption = OCR_DEFAULTS.dpi,
    ocr_engine: OcrEngineOption = OCR_DEFAULTS.engine.value,
    jobs: JobsOption = None,
    timeout: TimeoutOption = POOL_DEFAULTS.timeout_s,
    ocr_page_time: OcrPageTimeOption = POOL_DEFAULTS.ocr_page_time_s,
    quiet: QuietOption = False,
    # --- split modes (issue 12) ---
    mode: Annotated[
        str,
        typer.Option(
            metavar="heading|laws|items|auto",
            help="Split mode the chunks are judged with, as for split --mode; laws (or auto "
            "finding articles) also warns when articles are missing or out of sequence, "
            "items (or auto finding items) when items have no period or sections no type.",
        ),
    ] = CHECK_DEFAULTS.mode,
    ocr_min_confidence: OcrMinConfidenceOption = CHECK_DEFAULTS.ocr_min_confidence,
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

    from chunkcli.inputs import ReadOptions

    fmt = _check_format(output_format, as_json)
    options = CheckOptions(
        max_tokens=max_tokens, strict=strict, min_chunk_tokens=min_chunk_tokens,
        boilerplate_share=boilerplate_share, garbage_share=garbage_share, mode=_check_mode(mode),
        ocr_min_confidence=ocr_min_confidence,
        deep=deep,
    )  # fmt: skip
    with reporting_errors():
        require_max_tokens_floor(max_tokens)
        flags = ConvertFlags(
            pages, password, no_tables, ocr, ocr_lang, ocr_dpi, ocr_engine, keep_hidden_text
        )
        read = ReadOptions(flags.options(), WorkerPool(jobs, timeout, ocr_page_time))
        reports = _run_checks(paths, options, read, quiet)
        if fmt == ReportFormat.TABLE:  # (JSON and annotations carry the path themselves)
            for report in reports:
                _name_unreadable(report)
        failed = any(report.status == "fail" for report in reports)
        if not (quiet and not failed and output in (None, "-")):  # -q: nothing on success
            # readable_text: a file name that is not UTF-8 is written as \xNN, as in chunk ids
            write_output(output, readable_text(_check_text(reports, options, fmt, output)))
    if failed:
        raise typer.Exit(EXIT_FAILED)


CHECK_MODES = (SplitMode.HEADING, SplitMode.LAWS, SplitMode.ITEMS, SplitMode.AUTO)


def _check_mode(mode: str) -> SplitMode:
    if mode not in CHECK_MODES:
        raise typer.BadParameter("must be one of heading, laws, items, auto", param_hint="--mode")
    return SplitMode(mode)


def _check_format(output_format: str, as_json: bool) -> ReportFormat:
    if output_format not in CHECK_FORMATS:
        choices = ", ".join(CHECK_FORMATS)
        raise typer.BadParameter(f"must be one of {choices}", param_hint="--format")
    if as_json and output_format not in (ReportFormat.TABLE, ReportFormat.JSON):
        raise typer.BadParameter("--json and --format github exclude each other")
    return ReportFormat.JSON if as_json else ReportFormat(output_format)


def _run_checks(
    paths: list[str], options: CheckOptions, read: ReadOptions, quiet: bool
) -> list[DocumentReport]:
    from chunkcli.check.corpus import check_input
    from chunkcli.inputs import find_inputs, read_inputs_through

    files = find_inputs(paths)
    # Each PDF is checked in the worker that converted it: its layout never crosses back.
    check_one = functools.partial(check_input, options=options)
    reports = read_inputs_through(files, check_one, read, stdin_bytes(paths))
    counts = _page_counts(files, read, quiet)
    collected: list[DocumentReport] = []
    done = [0]
    with (
        interruptible("document", done, len(files), "no report was written"),
        page_progress_bar("pages", sum(counts), quiet) as step,
    ):
        for report in reports:
            collected.append(report)
            step(Path(report.source).name, counts[done[0]] if done[0] < len(counts) else 1)
            done[0] += 1
    return collected


def _name_unreadable(report: DocumentReport) -> None:
    """A file that could not be read is named on stderr too, "path: reason", as every command
    names it (the table report's block shows the reason under the name)."""
    for issue in report.issues:
        if issue.code == "document.unreadable":
            named = issue.message.startswith(report.source)
            print_note(issue.message if named else f"{report.source}: {issue.message}")


def _page_counts(files: list[InputFile], read: ReadOptions, quiet: bool) -> list[int]:
    """Each input's pages, as convert's progress counts them, when a bar is drawn (a PDF's
    pages; a Markdown file counts 1); 1 each otherwise."""
    if not progress_drawn(quiet):
        return [1] * len(files)
    from chunkcli.batch import pages_to_convert

    pages = read.convert.pages if read.convert is not None else None
    return [
        pages_to_convert(Path(f.path), pages) if f.is_pdf and f.path != "-" else 1 for f in files
    ]


def _check_text(
    reports: list[DocumentReport], options: CheckOptions, fmt: ReportFormat, output: str | None
) -> str:

    import json

    from chunkcli.check.report import corpus_to_dict, github_annotations

    if fmt == ReportFormat.JSON:
        report = readable_values(corpus_to_dict(reports, options))
        return json.dumps(report, ensure_ascii=False, indent=2) + "\n"
    if fmt == ReportFormat.GITHUB:
        return "".join(line + "\n" for line in github_annotations(reports)) + (
            _check_summary_text(reports) + "\n"
        )
    return _check_table_text(reports, to_terminal=output in (None, "-") and sys.stdout.isatty())


def _check_table_text(reports: list[DocumentReport], to_terminal: bool) -> str:
    """The report as the terminal (or COLUMNS) is wide: a table, or a block per document (the
    same blocks in `-o FILE`, PIPE_WIDTH columns unless COLUMNS says otherwise)."""
    from rich.console import Console  # (rich's console loads only when a report is drawn)
    from rich.markup import escape

    width = None if to_terminal else int(os.environ.get("COLUMNS", PIPE_WIDTH))
    console = Console(
        highlight=False, width=width, record=True, file=io.StringIO(), force_terminal=to_terminal,
        color_system="auto" if to_terminal else None,
    )  # fmt: skip
    if console.width >= CHECK_TABLE_MIN_WIDTH:
        console.print(_check_table(reports))
        for r in reports:
            for line in _ocr_lines(r):
                console.print(f"{escape(r.source)}: {escape(line)}", soft_wrap=True)
            for issue in (i for i in r.issues if i.severity != "ok"):
                style = CHECK_STATUS_STYLE[issue.severity]
                console.print(
                    f"{escape(r.source)}: [{style}]{issue.severity}[/] {issue.code}: "
                    f"{escape(issue.message)}",
                    soft_wrap=True,
                )
        console.print(escape(_check_summary_text(reports)), soft_wrap=True)
    else:
        for r in reports:
            for line in _document_block(r, console.width):
                console.print(line, soft_wrap=True)  # (wrapped here, at words, never cut)
        for line in _check_summary_text(reports).split("\n"):
            for part in wrap_cells(line, console.width, "", "    "):
                console.print(escape(part), soft_wrap=True)
    return console.export_text(styles=to_terminal)


def _document_block(r: DocumentReport, width: int) -> list[str]:
    """One document for a narrow screen or a file: status and name (shortened from the left to
    fit one line), its figures, OCR pages, then each finding wrapped under it (rich markup)."""
    from rich.markup import escape

    name = shorten_left(r.source, width - len(r.status) - 1)
    lines = [f"{_status_cell(r.status)} {escape(name)}"]
    figures = ", ".join([
        plural(r.pages, "page"), f"headings {_headings_cell(r.headings_by_level)}",
        plural(r.tables, "table"), f"{len(r.empty_pages)} empty", f"{len(r.scanned_pages)} scanned",
        plural(r.chunks, "chunk"), f"{r.tokens:,} tokens",
    ])  # fmt: skip
    for text in [figures, *_ocr_lines(r)]:
        lines += [escape(part) for part in wrap_cells(text, width, "    ", "    ")]
    for issue in (i for i in r.issues if i.severity != "ok"):
        head = f"{issue.severity} {issue.code}: "
        parts = wrap_cells(head + issue.message, width, "    ", "      ")
        style = CHECK_STATUS_STYLE[issue.severity]
        first = parts[0][4:]  # (the severity gets its colour; the rest is escaped)
        lines.append(f"    [{style}]{issue.severity}[/]{escape(first[len(issue.severity) :])}")
        lines += [escape(part) for part in parts[1:]]
    return lines


def _ocr_lines(r: DocumentReport) -> list[str]:
    """The pages read by OCR with their confidence, and the pages OCR left unread."""
    lines = []
    if r.ocr_pages:
        pages = ", ".join(f"{page} ({conf:.2f})" for page, conf in r.ocr_pages)
        lines.append(f"OCR {plural(len(r.ocr_pages), 'page')} (confidence): {pages}")
    if r.ocr_skipped_pages:
        skipped = ", ".join(map(str, r.ocr_skipped_pages))
        lines.append(f"OCR skipped {plural(len(r.ocr_skipped_pages), 'page')}: {skipped}")
    return lines


def shorten_left(text: str, width: int) -> str:
    """`text` cut from the left to `width` terminal cells, "…" in front when cut (the end of
    a path names the file)."""
    if cell_len(text) <= width:
        return text
    kept = ""
    for char in reversed(text):
        if cell_len(kept) + cell_len(char) + 1 > max(width, 2):
            break
        kept = char + kept
    return "…" + kept


def wrap_cells(text: str, width: int, first_indent: str, indent: str) -> list[str]:
    """`text` broken at spaces into lines of at most `width` terminal cells (CJK counts 2);
    a word longer than a line is cut."""
    lines: list[str] = []
    line = first_indent
    for word in text.split(" "):
        while True:
            room = width - cell_len(line) - (0 if line.strip() == "" else 1)
            if cell_len(word) <= room:
                line = line + word if not line.strip() else f"{line} {word}"
                break
            if line.strip():
                lines.append(line)
                line = indent
                continue
            head = shorten_right(word, width - cell_len(line))
            lines.append(line + head)
            word, line = word[len(head) :], indent
            if not word:
                break
    if line.strip():
        lines.append(line)
    return lines or [first_indent]


def shorten_right(text: str, width: int) -> str:
    """The longest start of `text` that fits `width` cells (at least one character)."""
    kept = ""
    for char in text:
        if cell_len(kept + char) > width and kept:
            break
        kept += char
    return kept


def _check_table(reports: list[DocumentReport]) -> object:
    from rich.markup import escape
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


def _status_cell(status: str) -> str:
    return f"[{CHECK_STATUS_STYLE[status]}]{status}[/]"


def _reasons(r: DocumentReport) -> str:
    return ", ".join(dict.fromkeys(i.code for i in r.issues if i.severity != "ok"))


def _headings_cell(by_level: tuple[int, ...]) -> str:
    """'1·4·2' for one H1, four H2, two H3 (levels past the deepest used are left out)."""
    deepest = max((i for i, n in enumerate(by_level) if n), default=-1)
    return "·".join(str(n) for n in by_level[: deepest + 1]) or "-"


def _check_summary_text(reports: list[DocumentReport]) -> str:

    from chunkcli.check.report import summarize_corpus

    s = summarize_corpus(reports)
    ocr = f", {s.ocr_pages} OCR" + (
        f", {s.ocr_skipped_pages} OCR-skipped" if s.ocr_skipped_pages else ""
    )
    text = (
        f"{plural(s.documents, 'document')}: {s.ok} ok, {s.warn} warn, {s.fail} fail\n"
        f"{plural(s.pages, 'page')} ({s.scanned_pages} scanned{ocr}, {s.empty_pages} blank), "
        f"{plural(s.chunks, 'chunk')}, {plural(s.tokens, 'token')}"
    )
    if s.issue_documents:
        common = ", ".join(f"{code} ({n})" for code, n in s.issue_documents[:6])
        text += f"\nmost frequent findings (documents): {common}"
    return text

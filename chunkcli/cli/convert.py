"""`chunkcli convert`: PDFs -> Markdown (one file, a folder, or stdin)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from chunkcli.cli.common import (
    EXIT_FAILED,
    EXIT_USAGE,
    OCR_DEFAULTS,
    POOL_DEFAULTS,
    ConvertFlags,
    ImagesOption,
    JobsOption,
    KeepHiddenTextOption,
    NoTablesOption,
    OcrDpiOption,
    OcrEngineOption,
    OcrLangOption,
    OcrModeOption,
    OcrPageTimeOption,
    PagesOption,
    PasswordOption,
    QuietOption,
    TimeoutOption,
    app,
    interruptible,
    one_line_when_stopped,
    page_progress_bar,
    print_error,
    print_note,
    progress_drawn,
    reporting_errors,
    write_output,
    write_stdout,
)
from chunkcli.cli.engines import (
    ENGINE_OPTION,
    RAY_ADDRESS_OPTION,
    Engine,
    chosen_engine,
    convert_on_ray,
)
from chunkcli.model import InputFailure
from chunkcli.workers import WorkerPool

if TYPE_CHECKING:
    from chunkcli.batch import (
        BatchSummary,
    )
    from chunkcli.cli.common import PageStep
    from chunkcli.convert.options import ConvertOptions


@app.command()
@one_line_when_stopped("each file written so far is whole")
def convert(  # noqa: PLR0913 - one parameter per documented flag
    inputs: Annotated[
        list[str],
        typer.Argument(metavar="PDF|FOLDER|-", hidden=True, show_default=False),
    ],
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE|DIR/|-",
            help="A .md file, '-' for stdout, or a folder (ends in '/' or exists). "
            "Default: stdout for one PDF.",
        ),
    ] = None,
    pages: PagesOption = None,
    password: PasswordOption = None,
    timeout: TimeoutOption = POOL_DEFAULTS.timeout_s,
    ocr_page_time: OcrPageTimeOption = POOL_DEFAULTS.ocr_page_time_s,
    jobs: JobsOption = None,
    no_tables: NoTablesOption = False,
    keep_hidden_text: KeepHiddenTextOption = False,
    quiet: QuietOption = False,
    engine: Annotated[str, ENGINE_OPTION] = "local",
    ray_address: Annotated[str | None, RAY_ADDRESS_OPTION] = None,
    ocr: OcrModeOption = OCR_DEFAULTS.mode.value,
    ocr_lang: OcrLangOption = OCR_DEFAULTS.lang,
    ocr_dpi: OcrDpiOption = OCR_DEFAULTS.dpi,
    ocr_engine: OcrEngineOption = OCR_DEFAULTS.engine,
    images: ImagesOption = None,
    prune: Annotated[
        bool,
        typer.Option(
            "--prune",
            help="Folder mode: remove chunkcli Markdown in OUTDIR that this run did not write "
            "(its PDF is gone, failed, or was converted by another run into OUTDIR). Without "
            "it they are listed as warnings.",
        ),
    ] = False,
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
    folder_mode = _is_folder_mode(inputs, output)
    flags = ConvertFlags(
        pages, password, no_tables, ocr, ocr_lang, ocr_dpi, ocr_engine, keep_hidden_text, images
    )
    with reporting_errors():
        options = flags.options(ocr_jobs=1 if folder_mode else jobs)
    if options.images is not None and (folder_mode or output not in (None, "-")):
        import dataclasses

        # Written next to Markdown files: links from each file's folder (batch._images_for).
        relative = dataclasses.replace(options.images, link_as_given=False)
        options = dataclasses.replace(options, images=relative)
    pool = WorkerPool(jobs, timeout, ocr_page_time)
    on_ray = chosen_engine(engine, ray_address) == Engine.RAY
    if on_ray and images is not None:  # (the cluster's workers would draw them, not write them)
        raise typer.BadParameter("is not available with --engine ray", param_hint="--images")
    if on_ray:
        convert_on_ray(inputs, _folder_output(output), options, pool=pool, address=ray_address)
    elif folder_mode:
        out_dir = _folder_output(output)
        _convert_folder(inputs, out_dir, options, pool=pool, quiet=quiet, prune=prune)
    elif inputs == ["-"]:
        _convert_stdin(output, options, pool=pool)
    else:
        _convert_file(Path(inputs[0]), output, options, pool=pool, quiet=quiet)


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


def _convert_stdin(output: str | None, options: ConvertOptions, *, pool: WorkerPool) -> None:
    """A PDF on standard input -> stdout or a file (named '-' in its provenance)."""

    from chunkcli.inputs import InputFile, ReadOptions, read_inputs

    stdin = sys.stdin.buffer.read()
    read = ReadOptions(convert=options, pool=pool)
    [document] = list(read_inputs([InputFile("-", is_pdf=True)], read, stdin))
    if isinstance(document, InputFailure):
        print_error(document.error)
        raise typer.Exit(EXIT_FAILED)
    with reporting_errors():
        write_output(output, document.markdown)


def _convert_file(
    pdf: Path,
    output: str | None,
    options: ConvertOptions,
    *,
    pool: WorkerPool,
    quiet: bool,
) -> None:
    """One PDF -> stdout or a file; warnings about pages without text go to stderr.

    It is converted in a worker process (unless --jobs 1), so that a MuPDF crash or hang
    becomes a one-line error like any other."""

    from chunkcli.batch import convert_file, ocr_skipped_error, page_warnings

    if not pdf.exists():
        print_error(f"{pdf}: no such file or folder")
        raise typer.Exit(EXIT_USAGE)
    target = None if output in (None, "-") else Path(output)
    if target is not None and target.resolve() == pdf.resolve():
        raise typer.BadParameter(f"{output} is the input PDF itself", param_hint="--output")
    counts = _page_counts([pdf], options, quiet)
    with reporting_errors(), page_progress_bar("pages", counts[pdf], quiet) as step:
        told = _PagesTold(counts, step)
        outcome, markdown = convert_file(pdf, target, options, pool=pool, on_pages=told.pages)
    for warning in page_warnings(outcome):
        print_note(f"warning: {warning}", quiet)
    if markdown is not None:
        with reporting_errors():  # a full disk behind a redirection: one line, exit 1
            write_stdout(markdown)
    if outcome.ocr_skipped:  # written, but a page is missing its text: never silent
        print_error(ocr_skipped_error(outcome))
        raise typer.Exit(EXIT_FAILED)


def _convert_folder(
    inputs: list[str],
    out_dir: Path,
    options: ConvertOptions,
    *,
    pool: WorkerPool,
    quiet: bool,
    prune: bool = False,
) -> None:
    """Every PDF under `inputs` -> out_dir/<mirrored path>.md, a summary on stderr, exit 1 if
    any failed; Markdown of an earlier run that this one did not write is named (or removed
    with --prune)."""

    from chunkcli.batch import find_pdfs, ocr_skipped_error, summary_lines

    if "-" in inputs:
        raise typer.BadParameter("'-' (stdin) cannot be mixed with other inputs")
    with reporting_errors():
        pdfs = find_pdfs([Path(i) for i in inputs])
    tally = [0, 0]  # PDFs converted and written, PDFs failed: Ctrl-C's line counts them apart

    def where() -> str:
        # (the folder, not the tally: a worker may have written a file the tally has not seen)
        wrote = f"their Markdown is in {out_dir}/" if out_dir.is_dir() else "nothing was written"
        return f"{tally[1]} failed; {wrote}" if tally[1] else wrote

    with interruptible("PDF", tally, len(pdfs), where):
        summary = _run_batch(pdfs, out_dir, options, pool=pool, quiet=quiet, tally=tally)
    for line in summary_lines(summary):
        print_note(line, quiet)
    _report_stale(out_dir, summary, prune=prune, quiet=quiet)
    if summary.failures or summary.incomplete:
        if quiet:  # the failures are the one thing -q still reports
            for failure in summary.failures:
                print_error(failure.error or "")
            for outcome in summary.incomplete:
                print_error(ocr_skipped_error(outcome))
        raise typer.Exit(EXIT_FAILED)


def _report_stale(out_dir: Path, summary: BatchSummary, *, prune: bool, quiet: bool) -> None:
    """Name (or, with --prune, remove) the chunkcli Markdown this run did not write."""
    from chunkcli.batch import stale_markdown

    stale = stale_markdown(out_dir, summary)
    for path in stale:
        if prune:
            path.unlink(missing_ok=True)
            print_note(f"removed {path}: not written by this run", quiet)
        else:
            print_note(
                f"warning: {path}: from an earlier run (its PDF is not among this run's inputs, "
                "or failed); split and sync of the folder would index it (--prune removes it)",
                quiet,
            )


def _run_batch(
    pdfs: list[tuple[Path, Path]],
    out_dir: Path,
    options: ConvertOptions,
    *,
    pool: WorkerPool,
    quiet: bool,
    tally: list[int],
) -> BatchSummary:
    """convert_many, counting finished files (for Ctrl-C) and drawing progress in pages: a
    file's OCR pages as they are read, its other pages when it is done."""

    from chunkcli.batch import convert_many

    counts = _page_counts([pdf for pdf, _ in pdfs], options, quiet)
    with page_progress_bar("pages", sum(counts.values()), quiet) as step:
        told = _PagesTold(counts, step)

        def finished(outcome: object) -> None:
            tally[0 if getattr(outcome, "output", None) is not None else 1] += 1
            told.finished(getattr(outcome, "source", Path("")))

        return convert_many(
            pdfs, out_dir, options, pool=pool, on_progress=finished, on_pages=told.pages
        )


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

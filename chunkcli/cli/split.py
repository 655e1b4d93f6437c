"""`chunkcli split`: Markdown or PDFs -> JSON Lines chunks."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from chunkcli.cli.common import (
    OCR_DEFAULTS,
    POOL_DEFAULTS,
    SPLIT_DEFAULTS,
    ConvertFlags,
    FlatMetadataOption,
    ImagesOption,
    JobsOption,
    KeepHiddenTextOption,
    MaxTokensOption,
    ModeOption,
    NoTablesOption,
    OcrDpiOption,
    OcrEngineOption,
    OcrLangOption,
    OcrModeOption,
    OcrPageTimeOption,
    OutputOption,
    PagesOption,
    PasswordOption,
    QuietOption,
    RowsPerChunkOption,
    TimeoutOption,
    app,
    exit_on_failures,
    interruptible,
    one_line_when_stopped,
    plural,
    print_error,
    print_note,
    print_warnings,
    progress_bar,
    reporting_errors,
    require_max_tokens_floor,
    require_utf8,
    stdin_bytes,
    write_output,
)
from chunkcli.cli.engines import (
    ENGINE_OPTION,
    RAY_ADDRESS_OPTION,
    SPLIT_FORMAT_OPTION,
    Engine,
    SplitFormat,
    chosen_engine,
    split_format,
    split_on_ray,
)
from chunkcli.gcpause import cycle_collector_paused
from chunkcli.model import InputFailure
from chunkcli.split import SplitOptions
from chunkcli.split.options import SplitMode, parse_meta
from chunkcli.workers import WorkerPool

if TYPE_CHECKING:
    from chunkcli.model import Chunk, InputFailure

# Chunk lines are written in pieces of about this many characters: a write (and a flush on
# stdout) per line cost more than the lines, one piece per document held all its lines;
# pieces of 2^20 characters held 2 MB more than 2^18 at the peak of a 5 MB document, for no
# time (the lines and their join take 4 bytes a character past U+FFFF).
WRITE_BATCH_CHARS = 1 << 18


@app.command()
@one_line_when_stopped("the output file was not written")
def split(  # noqa: PLR0913 - one parameter per documented flag
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH|-", hidden=True, show_default=False),
    ],
    output: OutputOption = None,
    max_tokens: MaxTokensOption = SPLIT_DEFAULTS.max_tokens,
    min_tokens: Annotated[
        int,
        typer.Option(min=0, metavar="N", help="Merge small H3 parts of one H2 section (0 = off)."),
    ] = SPLIT_DEFAULTS.min_tokens,
    overlap_sentences: Annotated[
        int,
        typer.Option(
            min=0, metavar="N", help="Sentences repeated between windows of one paragraph."
        ),
    ] = SPLIT_DEFAULTS.overlap_sentences,
    encoding: Annotated[
        str, typer.Option(metavar="NAME", help="tiktoken encoding, loaded offline.")
    ] = SPLIT_DEFAULTS.encoding,
    title: Annotated[
        str | None, typer.Option(metavar="TEXT", help="Document title (default: first H1).")
    ] = None,
    doc_id: Annotated[
        str | None,
        typer.Option(
            metavar="ID",
            help="Document id (default: the path, relative to a folder "
            "given; stdin: a hash of the source).",
        ),
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
    ] = SPLIT_DEFAULTS.split_on,
    pages: PagesOption = None,
    password: PasswordOption = None,
    no_tables: NoTablesOption = False,
    images: ImagesOption = None,
    keep_hidden_text: KeepHiddenTextOption = False,
    ocr: OcrModeOption = OCR_DEFAULTS.mode.value,
    ocr_lang: OcrLangOption = OCR_DEFAULTS.lang,
    ocr_dpi: OcrDpiOption = OCR_DEFAULTS.dpi,
    ocr_engine: OcrEngineOption = OCR_DEFAULTS.engine.value,
    timeout: TimeoutOption = POOL_DEFAULTS.timeout_s,
    ocr_page_time: OcrPageTimeOption = POOL_DEFAULTS.ocr_page_time_s,
    jobs: JobsOption = None,
    quiet: QuietOption = False,
    flat_metadata: FlatMetadataOption = False,
    # --- split modes (issue 12) ---
    mode: ModeOption = SPLIT_DEFAULTS.mode,
    rows_per_chunk: RowsPerChunkOption = SPLIT_DEFAULTS.rows_per_chunk,
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
    from chunkcli.split.counting import load_for_counting_only
    from chunkcli.split.documents import chunk_streams

    on_ray = chosen_engine(engine, ray_address) == Engine.RAY
    if on_ray and images is not None:  # (the cluster's workers would draw them, not write them)
        raise typer.BadParameter("is not available with --engine ray", param_hint="--images")
    chunk_format = split_format(output_format)
    if chunk_format != SplitFormat.JSONL and not on_ray:
        raise typer.BadParameter("needs --engine ray", param_hint="--format")
    with reporting_errors():
        require_max_tokens_floor(max_tokens)
        for flag, values in (("--title", [title]), ("--doc-id", [doc_id]),
                             ("--source", [source]), ("--meta", meta or [])):  # fmt: skip
            require_utf8(flag, *values)
        flags = ConvertFlags(
            pages, password, no_tables, ocr, ocr_lang, ocr_dpi, ocr_engine, keep_hidden_text,
            images,
        )  # fmt: skip
        convert_options = flags.options()
        options = SplitOptions(
            max_tokens=max_tokens, min_tokens=min_tokens, overlap_sentences=overlap_sentences,
            encoding=encoding, title=title, doc_id=doc_id, metadata=parse_meta(meta or []),
            split_on=split_on,
            mode=SplitMode.parse(mode), rows_per_chunk=rows_per_chunk,
        ).validated()  # fmt: skip
        if flat_metadata:
            check_flat_metadata(options.metadata, options.config(options.mode))
        skip = Path(output) if output not in (None, "-") else None
        pool = WorkerPool(jobs, timeout, ocr_page_time)
        read = ReadOptions(convert_options, pool, stdin_name=source)
        if on_ray:
            split_on_ray(
                paths, output, options, read,
                address=ray_address, output_format=chunk_format, quiet=quiet,
            )  # fmt: skip
            return
        load_for_counting_only(options.encoding)  # (fails early when it is not offline)
        files = find_inputs(paths, skip=skip)
        documents = print_warnings(read_inputs(files, read, stdin_bytes(paths)), quiet)
        stream = _Stream(len(files), quiet, flat_metadata)
        _write_chunks(output, stream, chunk_streams(documents, options))
    wrote = len(stream.failures) < len(files)  # nothing is written when every input failed
    to_stdout = output in (None, "-")
    note = f"wrote {plural(stream.chunks, 'chunk')} to {output}"
    print_note(note, quiet or not wrote or to_stdout)
    exit_on_failures(stream.failures, len(files), quiet)


@dataclass(slots=True)
class _Stream:
    """The chunks' way to the output, as they are made: documents done, chunks written, and
    the inputs that failed (each reported as it comes)."""

    total: int
    quiet: bool
    flat: bool
    done: list[int] = field(default_factory=lambda: [0])
    chunks: int = 0
    failures: list[InputFailure] = field(default_factory=list)


class _NothingToWrite(Exception):
    """Every input failed: the output is left as it was."""


def _write_chunks(
    output: str | None, stream: _Stream, results: Iterator[Iterator[Chunk] | InputFailure]
) -> None:
    """JSON Lines written as each document is split (a file still appears only whole)."""
    to_file = output not in (None, "-")
    where = "nothing was written" if to_file else "the finished documents' chunks are on stdout"
    with (
        interruptible("document", stream.done, stream.total, where),
        contextlib.suppress(_NothingToWrite),
    ):
        write_output(output, _chunk_lines(results, stream))


def _chunk_lines(
    results: Iterator[Iterator[Chunk] | InputFailure], stream: _Stream
) -> Iterator[str]:
    """Each document's JSON Lines, in input order; raises _NothingToWrite at the end when
    every input failed."""
    from chunkcli.jsonl import chunk_lines

    with (
        progress_bar("splitting", stream.total, stream.quiet) as step,
        cycle_collector_paused(),
    ):
        for result in results:
            stream.done[0] += 1
            if isinstance(result, InputFailure):
                stream.failures.append(result)
                print_error(result.error)
                step(result.path)
            else:
                sources: list[str] = []
                yield from _batched(
                    chunk_lines(_counted(result, stream, sources), flat=stream.flat)
                )
                step(sources[0] if sources else "")
    if len(stream.failures) == stream.total:
        raise _NothingToWrite


def _counted(chunks: Iterator[Chunk], stream: _Stream, sources: list[str]) -> Iterator[Chunk]:
    """The chunks as they come, counted into `stream`; the first one's source into `sources`."""
    for chunk in chunks:
        if not sources:
            sources.append(chunk.source)
        stream.chunks += 1
        yield chunk


def _batched(lines: Iterator[str]) -> Iterator[str]:
    """The lines joined into pieces of about WRITE_BATCH_CHARS (one write and, on stdout,
    one flush each), the last piece when the lines end."""
    batch: list[str] = []
    size = 0
    for line in lines:
        batch.append(line)
        size += len(line)
        if size >= WRITE_BATCH_CHARS:
            yield "".join(batch)
            batch, size = [], 0
    if batch:
        yield "".join(batch)

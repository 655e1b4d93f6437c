"""One document's bytes -> its rows: the unit of work a distributed engine runs on a worker.

Pure functions with no engine in them (Ray, or anything else that hands a worker a file's
bytes and its name): bytes + name + options in, chunk rows or Markdown, or one error row,
out. Every error is a row naming the original path (never a temporary file), so a broken file
costs its own rows and never the job. Tested without Ray (tests/test_distributed_rows.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from chunkcli.batch import FileOutcome, convert_catching, converted_outcome
from chunkcli.convert.pipeline import ConvertOptions
from chunkcli.errors import ChunkcliError
from chunkcli.inputs import InputFile, ReadOptions, document_from_bytes
from chunkcli.model import Chunk, InputFailure
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.workers import WorkerPool


@dataclass(frozen=True, slots=True)
class SplitJob:
    """What `chunkcli split` does to each input: the split options, and how inputs are read
    (convert options for PDFs, --timeout per PDF; --jobs is the engine's)."""

    split: SplitOptions = SplitOptions()
    read: ReadOptions = ReadOptions()


@dataclass(frozen=True, slots=True)
class ConvertJob:
    """What `chunkcli convert` does to each PDF."""

    convert: ConvertOptions = ConvertOptions()
    pool: WorkerPool = WorkerPool()  # its time limit per PDF; the engine runs the workers


@dataclass(frozen=True, slots=True)
class ErrorRow:
    """A file that failed: its name as given and one line naming it and the reason."""

    source: str
    error: str


@dataclass(frozen=True, slots=True)
class ChunkRows:
    """A split file's chunks, in document order."""

    source: str
    chunks: tuple[Chunk, ...]


@dataclass(frozen=True, slots=True)
class MarkdownRow:
    """A converted PDF: its Markdown and what the convert summary reports about it."""

    source: str
    markdown: str
    outcome: FileOutcome  # pages, blank/scanned/garbled pages, seconds, warnings


def split_document(item: InputFile, data: bytes, job: SplitJob) -> ChunkRows | ErrorRow:
    """The chunks of `item` whose content is `data` (Markdown, or a PDF that is converted
    first under the time limit), exactly as `chunkcli split` makes them; or its error row."""
    document = document_from_bytes(item, data, job.read)
    if isinstance(document, InputFailure):
        return ErrorRow(item.path, document.error)
    try:
        chunks = split_markdown(
            document.markdown, job.split, source=document.source, source_sha256=document.sha256
        )
    except Exception as exc:  # noqa: BLE001 - one file's failure is its row, never the job's
        return ErrorRow(item.path, _error_line(item.path, exc))
    return ChunkRows(document.source, tuple(chunks))


def convert_document(source: str, data: bytes, job: ConvertJob) -> MarkdownRow | ErrorRow:
    """The Markdown of the PDF named `source` whose content is `data`, as `chunkcli convert`
    writes it; or its error row."""
    started = time.perf_counter()
    result = convert_catching(Path(source), job.convert, job.pool, data=data)
    if isinstance(result, ChunkcliError):
        return ErrorRow(source, str(result))
    outcome = converted_outcome(Path(source), None, result, time.perf_counter() - started)
    return MarkdownRow(source, result.markdown, outcome)


def _error_line(source: str, exc: Exception) -> str:
    """Library errors already name the file; anything else is a bug, named with its type."""
    if isinstance(exc, ChunkcliError):
        return str(exc)
    return f"{source}: split failed: {type(exc).__name__}: {exc}"

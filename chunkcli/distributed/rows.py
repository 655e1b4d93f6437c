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

from chunkcli.batch import DEFAULT_TIMEOUT_S, convert_with_time_limit
from chunkcli.errors import ChunkcliError
from chunkcli.model import Chunk
from chunkcli.pipeline import ConvertOptions
from chunkcli.source import damage_notes, forget_damage
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.split.sources import ConvertSettings, document_from_bytes
from chunkcli.workers import time_limit


@dataclass(frozen=True, slots=True)
class SplitJob:
    """What `chunkcli split` does to each input: the split options, the convert options for
    PDFs, and the seconds one file may take (conversion and split together; 0 = no limit)."""

    split: SplitOptions = SplitOptions()
    convert: ConvertSettings = ConvertSettings()
    timeout_s: float = DEFAULT_TIMEOUT_S


@dataclass(frozen=True, slots=True)
class ConvertJob:
    """What `chunkcli convert` does to each PDF."""

    convert: ConvertOptions = ConvertOptions()
    timeout_s: float = DEFAULT_TIMEOUT_S


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
    pages: int
    blank: tuple[int, ...]
    image_only: tuple[int, ...]
    garbage: tuple[int, ...]
    seconds: float
    warnings: tuple[str, ...]


def split_document(source: str, data: bytes, job: SplitJob) -> ChunkRows | ErrorRow:
    """The chunks of the file named `source` whose content is `data` (Markdown, or a PDF that
    is converted first), exactly as `chunkcli split source` makes them; or its error row."""
    try:
        with time_limit(job.timeout_s, Path(source)):
            document = document_from_bytes(source, data, job.convert)
            chunks = split_markdown(
                document.markdown, job.split, source=source, source_bytes=document.source_bytes
            )
    except Exception as exc:  # noqa: BLE001 - one file's failure is its row, never the job's
        return ErrorRow(source, _error_line(source, exc))
    return ChunkRows(source, tuple(chunks))


def convert_document(source: str, data: bytes, job: ConvertJob) -> MarkdownRow | ErrorRow:
    """The Markdown of the PDF named `source` whose content is `data`, as `chunkcli convert`
    writes it; or its error row."""
    started = time.perf_counter()
    try:
        forget_damage()
        result = convert_with_time_limit(Path(source), job.convert, job.timeout_s, data=data)
        warnings = damage_notes(source)
    except Exception as exc:  # noqa: BLE001 - one file's failure is its row, never the job's
        return ErrorRow(source, _error_line(source, exc))
    return MarkdownRow(
        source=source,
        markdown=result.markdown,
        pages=len(result.pages),
        blank=result.blank_pages,
        image_only=result.image_only_pages,
        garbage=result.garbage_pages,
        seconds=time.perf_counter() - started,
        warnings=warnings,
    )


def _error_line(source: str, exc: Exception) -> str:
    """Library errors already name the file; anything else is a bug or a MuPDF error, named
    the way the local batch names it."""
    if isinstance(exc, ChunkcliError):
        return str(exc)
    return f"{source}: conversion failed: {type(exc).__name__}: {exc}"

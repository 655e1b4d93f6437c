"""The one place eval reads its sources: PDFs (converted) or Markdown files -> their Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from chunkcli.errors import UsageError
from chunkcli.inputs import InputError, ReadOptions, find_inputs, read_inputs
from chunkcli.model import InputFailure


def read_sources(
    paths: Sequence[Path], read: ReadOptions | None = None
) -> list[str | InputFailure]:
    """The Markdown of each source, or why it could not be read, in order.

    Through the input layer, all sources in one call: PDFs are converted together in its
    worker pool (default convert options, its time limit), exactly as `chunkcli split FILE`
    reads them, so that eval scores the Markdown that split chunks.
    """
    folders = [p for p in paths if p.is_dir()]
    if folders:
        raise UsageError(f"{folders[0]}: a gold source must be a file, not a folder")
    documents = read_inputs(find_inputs([str(p) for p in paths]), read or ReadOptions())
    return [d if isinstance(d, InputFailure) else d.markdown for d in documents]


def load_sources(paths: Sequence[Path], read: ReadOptions | None = None) -> list[str]:
    """Like read_sources, but the first source that fails raises its one-line error."""
    markdowns: list[str] = []
    for result in read_sources(paths, read):
        if not isinstance(result, str):
            raise InputError(result.error)
        markdowns.append(result)
    return markdowns

"""The one place eval reads its sources: PDFs (converted) or Markdown files -> their Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from chunkcli.errors import UsageError

if TYPE_CHECKING:
    from chunkcli.inputs import ReadOptions


def load_sources(paths: Sequence[Path], read: ReadOptions | None = None) -> list[str]:
    """The Markdown of each gold source, in order; raises a ChunkcliError naming the file.

    Through the input layer, all sources in one call: PDFs are converted together in its
    worker pool (default convert options, its time limit), exactly as `chunkcli split FILE`
    reads them, so that eval scores the Markdown that split chunks.
    """
    from chunkcli.inputs import InputError, InputFailure, ReadOptions, find_inputs, read_inputs

    folders = [p for p in paths if p.is_dir()]
    if folders:
        raise UsageError(f"{folders[0]}: a gold source must be a file, not a folder")
    markdowns: list[str] = []
    for document in read_inputs(find_inputs([str(p) for p in paths]), read or ReadOptions()):
        if isinstance(document, InputFailure):
            raise InputError(document.error)
        markdowns.append(document.markdown)
    return markdowns

"""The one place eval reads its sources: PDFs (converted) or Markdown files -> their Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def load_sources(paths: Sequence[Path]) -> list[str]:
    """The Markdown of each gold source, in order; raises a ChunkcliError naming the file.

    All sources in one call, so that the input layer can convert the PDFs together in its worker
    pool. Through split's reader (a PDF with the default convert options), so that eval scores
    exactly the Markdown that `chunkcli split FILE` chunks.
    """
    from chunkcli.split.sources import read_source

    return [read_source(str(path)).markdown for path in paths]

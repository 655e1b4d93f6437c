"""The one place eval reads a source: a PDF (converted) or a Markdown file -> its Markdown."""

from __future__ import annotations

from pathlib import Path


def load_markdown(path: Path) -> str:
    """The Markdown of one gold source; raises a ChunkcliError naming the file.

    Through split's reader (which converts a PDF with the default convert options), so that eval
    scores exactly the Markdown that `chunkcli split FILE` chunks.
    """
    from chunkcli.split.sources import read_source

    return read_source(str(path)).markdown

"""convert: PDF -> GitHub-Flavored Markdown, its stages in pipeline order.

    source (open and validate) -> extract (pages of positioned lines; + ocr, tables)
    -> layout (ordered, labelled blocks) -> render (Markdown)

`pipeline.convert_pdf` composes them: read that first.

This face of the stage is the one place where it loads lazily: each name imports its module
on first use (`convert_pdf` the whole stage and PyMuPDF, 0.1-0.3 s of CPU), so that the input
layer and the batch runner import this package at the top while `chunkcli --help` and
Markdown-only work (`split notes.md`) never load PyMuPDF, and reading
`chunkcli.convert.ocr.options` (the CLI's defaults) does not build the layout settings.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chunkcli.convert.layout.settings import LayoutSettings
    from chunkcli.convert.options import ConvertOptions
    from chunkcli.convert.pipeline import convert_pdf
    from chunkcli.convert.source import page_count_of

__all__ = ["ConvertOptions", "LayoutSettings", "convert_pdf", "load_convert_stage", "page_count_of"]

_LAZY = {
    "ConvertOptions": "chunkcli.convert.options",
    "LayoutSettings": "chunkcli.convert.layout.settings",
    "convert_pdf": "chunkcli.convert.pipeline",
    "page_count_of": "chunkcli.convert.source",
}


def load_convert_stage() -> ModuleType:
    """Import the whole stage now (a worker process pays PyMuPDF's import before its first
    file, not during it)."""
    return importlib.import_module("chunkcli.convert.pipeline")


if not TYPE_CHECKING:  # mypy reads the imports above: a mistyped name stays an error

    def __getattr__(name: str) -> Any:
        module_name = _LAZY.get(name)
        if module_name is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module_name), name)

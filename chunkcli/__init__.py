"""chunkcli: PDF -> GitHub-Flavored Markdown -> retrieval chunks -> pre-indexing check.

The CLI calls exactly these functions; see README.md for a tour and docs/ for the reference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chunkcli.errors import ChunkcliError, ConversionTimeout, EncodingUnavailable, PdfOpenError
from chunkcli.model import (
    BBox,
    Block,
    BlockKind,
    Chunk,
    ChunkKind,
    ConvertResult,
    Document,
    Issue,
    Line,
    Page,
    PageStatus,
    Severity,
    Span,
)

__version__ = "0.1.0"

# Stage functions are imported lazily so that `import chunkcli` stays cheap and a user who
# only splits Markdown never loads PyMuPDF.
_LAZY = {
    "convert_pdf": "chunkcli.convert.pipeline",
    "ConvertOptions": "chunkcli.convert.pipeline",
    "split_markdown": "chunkcli.split",
    "SplitOptions": "chunkcli.split",
    "check_markdown": "chunkcli.check",
    "tiktoken_counter": "chunkcli.tokens",
}

if TYPE_CHECKING:
    from chunkcli.check import check_markdown
    from chunkcli.convert.pipeline import ConvertOptions, convert_pdf
    from chunkcli.split import SplitOptions, split_markdown
    from chunkcli.tokens import tiktoken_counter


if not TYPE_CHECKING:  # mypy reads the imports above: a mistyped name stays an error

    def __getattr__(name: str) -> Any:
        module_name = _LAZY.get(name)
        if module_name is None:
            raise AttributeError(f"module 'chunkcli' has no attribute {name!r}")
        import importlib

        return getattr(importlib.import_module(module_name), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "BBox",
    "Block",
    "BlockKind",
    "Chunk",
    "ChunkKind",
    "ChunkcliError",
    "ConversionTimeout",
    "ConvertOptions",
    "ConvertResult",
    "Document",
    "EncodingUnavailable",
    "Issue",
    "Line",
    "Page",
    "PageStatus",
    "PdfOpenError",
    "Severity",
    "Span",
    "SplitOptions",
    "check_markdown",
    "convert_pdf",
    "split_markdown",
    "tiktoken_counter",
]

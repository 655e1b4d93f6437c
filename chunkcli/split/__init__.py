"""split: Markdown -> retrieval chunks that cut on headings, carry their heading path, never
break a table, and keep exact offsets into the Markdown.

`split_markdown` (split/run.py) is loaded on first use: `from chunkcli.split import SplitOptions`
stays cheap (markdown-it and the token counter load with the splitter), so the CLI can take its
flags' defaults from SplitOptions without paying for the splitter on `--help`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from chunkcli.split.options import SPLIT_VERSION, SplitOptions

if TYPE_CHECKING:
    from chunkcli.split.run import default_doc_id, split_markdown

__all__ = ["SPLIT_VERSION", "SplitOptions", "default_doc_id", "split_markdown"]
_LAZY = frozenset({"split_markdown", "default_doc_id"})


if not TYPE_CHECKING:  # mypy reads the imports above: a mistyped name stays an error

    def __getattr__(name: str) -> object:
        if name in _LAZY:
            return getattr(import_module("chunkcli.split.run"), name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

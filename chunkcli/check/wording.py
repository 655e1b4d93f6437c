"""Small helpers that turn findings into the words of an Issue message."""

from __future__ import annotations

from collections.abc import Iterable

from chunkcli.pagespec import format_page_ranges as page_ranges

__all__ = ["examples", "page_ranges", "pages_phrase", "quote"]

# Messages quote document text; past this many characters the quote is cut with an ellipsis.
QUOTE_CHARS = 60
# Lists of examples in one message stop after this many, ending with "...".
MAX_EXAMPLES = 3


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """`text` in double quotes, on one line, cut to `limit` characters."""
    flat = " ".join(text.split())
    if len(flat) > limit:
        flat = flat[: limit - 1] + "…"
    return f'"{flat}"'


def pages_phrase(pages: Iterable[int]) -> str:
    """'page 3' or 'pages 3-5, 9'."""
    ordered = sorted(set(pages))
    label = "page" if len(ordered) == 1 else "pages"
    return f"{label} {page_ranges(ordered)}"


def examples(items: list[str], limit: int = MAX_EXAMPLES) -> str:
    """'a; b; c; ...' from the first `limit` items."""
    shown = "; ".join(items[:limit])
    return shown + ("; ..." if len(items) > limit else "")


def where(line: int | None, page: int | None) -> str:
    """'line 12, page 3' (either part left out when unknown)."""
    parts = []
    if line is not None:
        parts.append(f"line {line}")
    if page is not None:
        parts.append(f"page {page}")
    return ", ".join(parts)

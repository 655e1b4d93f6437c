"""Table pieces -> their captions: the short line directly above a table that names it.

A row found by a query should still say which table it is from, so table parts carry the
caption in their prefix (besides the heading path and the header row). A table continued on
the next page (convert writes one table per page, each under its page's marker, with the first
page's header: see chunkcli.convert.tables.merge) inherits the caption of the part it continues.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chunkcli.split.scan import Piece, PieceKind

# A caption names the table: a table word and a number or letter ("表3 部品在庫", "別表第1",
# "Table 3: Results", "Tab. A1", "표 2"). Sentences that merely precede a table are no caption.
CAPTION_RE = re.compile(
    r"[<\[【〔(（]?\s*(?:別表|図表|表|표|Table|TABLE|Tab\.)\s*(?:第\s*)?[0-9０-９A-Z一二三四五六七八九十IVX]"
)
# Markdown strong emphasis in a caption line ("**表3** 部品在庫") is not part of its name.
_EMPHASIS = re.compile(r"\*\*|__")


def table_caption(markdown: str, pieces: Sequence[Piece], k: int, max_chars: int) -> str:
    """The caption of the table pieces[k], one line of at most `max_chars` without Markdown
    emphasis, or "" (SplitSettings.caption_max_chars)."""
    while True:
        j = k - 1
        while j >= 0 and pieces[j].kind is PieceKind.MARKER:
            j -= 1
        if j < 0:
            return ""
        above = pieces[j]
        if above.kind is PieceKind.TABLE and j < k - 1 and _same_header(markdown, above, pieces[k]):
            k = j  # a continuation on the next page: the first part's caption
            continue
        if above.kind is not PieceKind.TEXT:
            return ""
        return _caption_text(markdown[above.start : above.end], max_chars)


def _caption_text(text: str, max_chars: int) -> str:
    line = _EMPHASIS.sub("", text.strip()).strip()
    if "\n" in line or len(line) > max_chars or not CAPTION_RE.match(line):
        return ""
    return line


def _same_header(markdown: str, first: Piece, other: Piece) -> bool:
    if not first.rows or not other.rows:
        return False
    return markdown[first.rows[0].start : first.rows[0].end].rstrip() == (
        markdown[other.rows[0].start : other.rows[0].end].rstrip()
    )

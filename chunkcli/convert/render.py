"""Ordered, labelled blocks -> GitHub-Flavored Markdown (pure).

A provenance comment names the PDF, and every page starts with a marker line
(`<!-- page N -->`), so that `split` can attribute chunks to the file and its pages from the
Markdown alone; `markdown_format` owns these spellings. Blocks are separated by one blank line;
the items of one list by a line break.
"""

from __future__ import annotations

import re

from chunkcli.convert.joining import hangul_word_prefixes, hyphenated_words, join_lines
from chunkcli.convert.layout.paragraphs import BULLET, ENUMERATOR
from chunkcli.markdown_format import (
    PageMarker,
    Provenance,
    escape_leading_syntax,
    format_page_marker,
    format_provenance,
    format_table,
)
from chunkcli.model import Block, BlockKind, Document, Page, PageStatus

# A paragraph this short with no letter or digit is decoration, not content.
ORNAMENT_MAX_CHARS = 3
# An item whose bullet starts this far right of the previous item's bullet is nested in it.
LIST_NEST_PT = 6.0
_ORDERED = re.compile(r"^\s*(\d{1,3})[.)]\s*")


def render_markdown(document: Document, provenance: Provenance | None = None) -> str:
    """The whole document as GFM text ending in exactly one newline, headed by `provenance`."""
    compounds = document_compounds(document)
    parts = [render_page(page, compounds) for page in document.pages]
    if provenance is not None:
        parts.insert(0, format_provenance(provenance))
    return "\n\n".join(p for p in parts if p).rstrip("\n") + "\n"


def document_compounds(document: Document) -> frozenset[str]:
    """Hyphenated words written inside lines anywhere in the document ("dual-encoder"), and
    the starts of the Korean words written inside lines (see convert/joining.py)."""
    words: set[str] = set()
    for page in document.pages:
        for block in page.blocks:
            for line in block.lines:
                if "-" in line.text:
                    words |= hyphenated_words(line.text.rstrip(" -\u2010"))
                words |= hangul_word_prefixes(line.text)
    return frozenset(words)


def page_marker(page: Page) -> str:
    """`<!-- page N -->`, with a note for blank, image-only, garbage, damaged and OCR pages."""
    if page.ocr is not None:
        return format_page_marker(
            PageMarker(page.number, PageStatus.OCR, page.ocr.confidence, page.ocr.engine)
        )
    hidden = page.hidden.runs if page.hidden is not None else 0
    marker = PageMarker(page.number, page.status, hidden_runs=hidden, ocr_skipped=page.ocr_skipped)
    return format_page_marker(marker)


def render_page(page: Page, compounds: frozenset[str] = frozenset()) -> str:
    pieces: list[str] = [page_marker(page)]
    nesting: list[tuple[float, int]] = []  # (bullet x, content indent) of open list levels
    for block in page.blocks:
        text = render_block(block, compounds)
        if not text:
            continue
        if block.kind == BlockKind.LIST_ITEM and nesting:
            text = _nest(text, block.bbox.x0, nesting)
            pieces.append("\n" + text)
        else:
            nesting = []
            pieces.append("\n\n" + text)
        if block.kind == BlockKind.LIST_ITEM:
            indent = len(text) - len(text.lstrip(" "))
            nesting.append((block.bbox.x0, indent + len(text.lstrip(" ").split(" ", 1)[0]) + 1))
    return pieces[0] + "".join(pieces[1:])


def _nest(text: str, x0: float, nesting: list[tuple[float, int]]) -> str:
    """Indent a list item under the open item whose bullet lies left of it (sub-bullets)."""
    while nesting and x0 <= nesting[-1][0] + LIST_NEST_PT:
        nesting.pop()  # back out to this item's own level
    return " " * nesting[-1][1] + text if nesting else text


def render_block(block: Block, compounds: frozenset[str] = frozenset()) -> str:
    if block.kind == BlockKind.FURNITURE:
        return ""
    if block.kind == BlockKind.TABLE:
        return format_table(block.cells, block.header_rows)
    text = join_lines([line.text for line in block.lines], compounds)
    if not text:
        return ""
    if block.kind == BlockKind.HEADING:
        return "#" * block.level + " " + text
    if block.kind == BlockKind.LIST_ITEM:
        return render_list_item(text)
    if block.kind == BlockKind.CODE:
        return "```\n" + "\n".join(line.text for line in block.lines) + "\n```"
    if len(text) <= ORNAMENT_MAX_CHARS and not any(c.isalnum() for c in text):
        return ""  # a stray ornament ("›", "◆") alone would become a crumb of a chunk
    return escape_leading_syntax(text)


def render_list_item(text: str) -> str:
    ordered = _ORDERED.match(text)
    if ordered:
        return f"{ordered.group(1)}. {text[ordered.end() :]}"
    bullet = BULLET.match(text)
    if bullet:
        return "- " + text[bullet.end() :].lstrip()
    if ENUMERATOR.match(text):
        return "- " + text
    return text

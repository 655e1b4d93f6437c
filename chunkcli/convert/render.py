"""Ordered, labelled blocks -> GitHub-Flavored Markdown (pure).

A provenance comment names the PDF, and every page starts with a marker line
(`<!-- page N -->`), so that `split` can attribute chunks to the file and its pages from the
Markdown alone; `markdown_format` owns these spellings. Blocks are separated by one blank line;
the items of one list by a line break. A trailer after the last page ties spans of each page's
Markdown to the boxes of the PDF lines they came from, for the chunks' `boxes`.
"""

from __future__ import annotations

import math
import re
from typing import TypeAlias

from chunkcli.convert.joining import hangul_word_prefixes, hyphenated_words, join_lines_at
from chunkcli.convert.layout.paragraphs import BULLET, ENUMERATOR
from chunkcli.markdown_format import (
    FigureBlock,
    PageBoxes,
    PageMarker,
    Provenance,
    escape_leading_syntax,
    format_figure,
    format_page_boxes,
    format_page_marker,
    format_provenance,
    format_table,
    page_crc,
)
from chunkcli.model import BBox, Block, BlockKind, Document, Figure, Page, PageStatus

# A span of a page's Markdown and the box its text came from: start, end, x0, y0, x1, y1.
Segment: TypeAlias = tuple[int, int, int, int, int, int]

# A paragraph this short with no letter or digit is decoration, not content.
ORNAMENT_MAX_CHARS = 3
# An item whose bullet starts this far right of the previous item's bullet is nested in it.
LIST_NEST_PT = 6.0
_ORDERED = re.compile(r"^\s*(\d{1,3})[.)]\s*")


def render_markdown(document: Document, provenance: Provenance | None = None) -> str:
    """The whole document as GFM text ending in exactly one newline, headed by `provenance`
    and followed by the boxes trailer (where each page's lines lie on the PDF page)."""
    compounds = document_compounds(document)
    rendered = [render_page_boxed(page, compounds) for page in document.pages]
    parts = [text for text, _ in rendered]
    if provenance is not None:
        parts.insert(0, format_provenance(provenance))
    trailer = [format_page_boxes(boxes) for _, boxes in rendered if boxes.segments]
    if trailer:
        parts.append("\n".join(trailer))
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
    return render_page_boxed(page, compounds)[0]


def render_page_boxed(page: Page, compounds: frozenset[str] = frozenset()) -> tuple[str, PageBoxes]:
    """The page's Markdown, and the box of every PDF line (table) as a span of that text."""
    pieces: list[str] = [page_marker(page)]
    offset = len(pieces[0])  # where the next piece starts in the page's text
    segments: list[Segment] = []
    nesting: list[tuple[float, int]] = []  # (bullet x, content indent) of open list levels
    for block in page.blocks:
        text, spans = render_block_at(block, compounds)
        if not text:
            continue
        if block.kind == BlockKind.LIST_ITEM and nesting:
            nested = _nest(text, block.bbox.x0, nesting)
            shift, text = len(nested) - len(text), nested
            pieces.append("\n" + text)
        else:
            shift = 0
            nesting = []
            pieces.append("\n\n" + text)
        begin = offset + len(pieces[-1]) - len(text) + shift
        segments += [(begin + a, begin + b, *_outward(box)) for a, b, box in spans]
        offset += len(pieces[-1])
        if block.kind == BlockKind.LIST_ITEM:
            indent = len(text) - len(text.lstrip(" "))
            nesting.append((block.bbox.x0, indent + len(text.lstrip(" ").split(" ", 1)[0]) + 1))
    page_text = pieces[0] + "".join(pieces[1:])
    return page_text, PageBoxes(page.number, page_crc(page_text), tuple(segments))


def _outward(box: BBox) -> tuple[int, int, int, int]:
    """The box in whole points, rounded outwards so that it still holds every glyph."""
    return (math.floor(box.x0), math.floor(box.top), math.ceil(box.x1), math.ceil(box.bottom))


def _nest(text: str, x0: float, nesting: list[tuple[float, int]]) -> str:
    """Indent a list item under the open item whose bullet lies left of it (sub-bullets)."""
    while nesting and x0 <= nesting[-1][0] + LIST_NEST_PT:
        nesting.pop()  # back out to this item's own level
    return " " * nesting[-1][1] + text if nesting else text


def render_block(block: Block, compounds: frozenset[str] = frozenset()) -> str:
    return render_block_at(block, compounds)[0]


def render_block_at(
    block: Block, compounds: frozenset[str] = frozenset()
) -> tuple[str, list[tuple[int, int, BBox]]]:
    """The block's Markdown, and (start, end, box) for each of its PDF lines that gave text
    (one for a table: its own box), offsets into that Markdown."""
    if block.kind == BlockKind.FURNITURE:
        return "", []
    if block.kind == BlockKind.TABLE:
        table = format_table(block.cells, block.header_rows)
        return table, [(0, len(table), block.bbox)] if table else []
    if block.kind == BlockKind.CODE:
        return _code_at(block)
    if block.kind == BlockKind.FIGURE and block.figure is not None:
        figure = format_figure(_figure_block(block.figure))
        return figure, [(0, len(figure), block.bbox)]
    joined, starts = join_lines_at([line.text for line in block.lines], compounds)
    if not joined:
        return "", []
    if block.kind == BlockKind.HEADING:
        text = "#" * block.level + " " + joined
    elif block.kind == BlockKind.LIST_ITEM:
        text = render_list_item(joined)
    elif len(joined) <= ORNAMENT_MAX_CHARS and not any(c.isalnum() for c in joined):
        return "", []  # a stray ornament ("›", "◆") alone would become a crumb of a chunk
    else:
        text = escape_leading_syntax(joined)
    # Rendering only rewrites the start (a heading's hashes, a bullet, an escape): the first
    # line takes it, the others move by the difference in length.
    shift = len(text) - len(joined)
    # Lines carried over from the next page get no box rather than one on the wrong page.
    on_page = len(block.lines) - block.carried
    owned = [(start, k) for k, start in enumerate(starts) if start >= 0]
    begins = [0] + [min(max(start + shift, 0), len(text)) for start, _ in owned[1:]]
    ends = [*begins[1:], len(text)]
    return text, [
        (a, b, block.lines[k].bbox)
        for a, b, (_, k) in zip(begins, ends, owned, strict=True)
        if b > a and k < on_page
    ]


def _figure_block(figure: Figure) -> FigureBlock:
    ocr = figure.ocr
    return FigureBlock(
        caption=figure.caption,
        image=figure.image,
        words=figure.words,
        ocr_confidence=ocr.confidence if ocr else None,
        ocr_engine=ocr.engine if ocr else None,
    )


def _code_at(block: Block) -> tuple[str, list[tuple[int, int, BBox]]]:
    spans, offset = [], len("```\n")
    for line in block.lines:
        spans.append((offset, offset + len(line.text), line.bbox))
        offset += len(line.text) + 1
    text = "```\n" + "\n".join(line.text for line in block.lines) + "\n```"
    return text, [span for span in spans if span[1] > span[0]]


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

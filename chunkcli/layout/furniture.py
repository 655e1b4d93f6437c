"""Running headers, footers and page numbers: find lines that repeat in the page margins.

A line is furniture when text of the same shape (digits ignored, so "Page 3 of 10" matches
"Page 4 of 10") sits at about the same height in the top or bottom band of several pages.
Counting ignores page parity, so odd/even alternating heads and per-chapter running heads
that last a few pages are found too. Documents too short to show repetition lose only what
position and shape tell: a lone page number alone on its row in a band, download stamps.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace

from chunkcli.model import Block, BlockKind, Page, PageStatus
from chunkcli.tables.text import CAPTION

# Bands where running heads live, as a share of the page height, measured at a line's
# centre (letterheads and slide banners reach further down than journal running heads).
TOP_BAND = 0.15
BOTTOM_BAND = 0.12
# A shape must repeat on at least this many pages (all pages of a two-page document),
# so a one-page document loses nothing.
MIN_REPEATS = 3
# Occurrences count as "the same place" when their tops are this close (points).
SAME_HEIGHT_PT = 6.0
# A lone page number ("12", "- 12 -", "xii", "12/40") in a band is furniture in any document
# of at least MIN_REPEATS pages once this share of text pages carries one.
PAGE_NUMBER_SHARE = 0.5

# A number with this many other texts on its row is a table cell (see _table_cell).
TABLE_ROW_NEIGHBOURS = 2
# The same text (not just shape) of at least this many characters in a band is furniture
# even when its height varies from page to page.
MIN_IDENTICAL_CHARS = 8
# Outside the bands, a line must sit at the same place on this share of at least this many
# pages, and only a few lines per document may qualify (more means a form or a template).
ANYWHERE_SHARE = 0.8
MIN_PAGES_ANYWHERE = 4
MAX_ANYWHERE_LINES = 12

# A running head at one height on at least this share of the text pages (and MIN_REPEATS of
# them), set smaller than the body text, is furniture even when its words change per chapter
# ("Chapter 5 · Maintenance History"); captions at the top of pages are set at body size.
RUNNING_SLOT_SHARE = 0.6
SMALLER_THAN_BODY_PT = 0.5
# Download stamps that publishers' sites add to every page, often sideways in the margin.
STAMP = re.compile(
    r"^\s*(?:this content )?(?:downloaded|retrieved) (?:from|by)\b|^\s*downloaded on\b",
    re.IGNORECASE,
)
# Numbered captions ("別表第1", "Table 3", "図2", tables.text.CAPTION) differ by their number:
# the number is part of their identity, so they never look like one repeated running head.

_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(
    r"^(?:page|p\.|페이지|ページ)?\s*[-–—(\[]?\s*(?:\d+|[ivxlcdm]+)\s*[-–—)\]]?"
    r"(?:\s*(?:/|of|de|von)\s*\d+)?\s*$",
    re.IGNORECASE,
)


def shape_of(text: str) -> str:
    """Text with digits replaced and spacing removed: the key repeated lines share
    (a numbered caption keeps its digits)."""
    joined = "".join(text.split()).lower()
    return joined if CAPTION.match(text) else _DIGITS.sub("#", joined)


def is_page_number(text: str) -> bool:
    return bool(_PAGE_NUMBER.match(text.strip()))


def strip_running_headers(
    pages: tuple[Page, ...], context: tuple[Page, ...] = ()
) -> tuple[Page, ...]:
    """Relabel repeated margin lines as FURNITURE blocks (render drops them).

    `context` holds pages outside a page selection: they count as evidence of repetition
    but are not returned.
    """
    text_pages = [p for p in pages + context if p.status == PageStatus.TEXT]
    furniture = _stamp_blocks(text_pages) | _page_number_blocks(text_pages)
    if len(text_pages) >= 2:
        repeats = min(MIN_REPEATS, len(text_pages))
        furniture |= (
            _repeated_margin_blocks(text_pages, repeats)
            | _running_head_slots(text_pages)
            | _repeated_anywhere_blocks(text_pages)
        )
    if not furniture:
        return pages
    return tuple(_relabel(page, furniture) for page in pages)


def _band_blocks(page: Page) -> list[Block]:
    top_limit = page.height * TOP_BAND
    bottom_limit = page.height * (1 - BOTTOM_BAND)
    return [
        b
        for b in page.blocks
        if b.kind == BlockKind.PARAGRAPH
        and (b.bbox.center_y <= top_limit or b.bbox.center_y >= bottom_limit)
    ]


def _repeated_margin_blocks(pages: list[Page], repeats: int) -> set[tuple[int, int]]:
    """(page, block id) of band lines that repeat on enough pages: the same shape at one
    height, or the very same longer text at any height of the band (form footers move)."""
    by_shape: dict[str, list[tuple[float, int, int]]] = defaultdict(list)
    by_text: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for page in pages:
        for block in _band_blocks(page):
            if is_page_number(block.text) and _table_cell(block, page):
                continue
            by_shape[shape_of(block.text)].append((block.bbox.top, page.number, id(block)))
            text = "".join(block.text.split())
            if len(text) >= MIN_IDENTICAL_CHARS:
                by_text[text].append((page.number, id(block)))
    found: set[tuple[int, int]] = set()
    for places in by_shape.values():
        for cluster in _height_clusters(places):
            if len({number for _, number, _ in cluster}) >= repeats:
                found.update((number, block_id) for _, number, block_id in cluster)
    for hits in by_text.values():
        if len({number for number, _ in hits}) >= repeats:
            found.update(hits)
    return found


def _repeated_anywhere_blocks(pages: list[Page]) -> set[tuple[int, int]]:
    """Lines at the very same place on nearly every page (a presenter's name on each slide).

    A filled-in form repeats most of its lines on every page; those are its content, so
    the rule stands down when pages repeat more than a few lines.
    """
    if len(pages) < MIN_PAGES_ANYWHERE:
        return set()
    places: dict[tuple[str, int, int], list[tuple[int, int]]] = defaultdict(list)
    for page in pages:
        for block in page.blocks:
            if block.kind == BlockKind.PARAGRAPH:
                key = (shape_of(block.text), round(block.bbox.top / SAME_HEIGHT_PT),
                       round(block.bbox.x0 / SAME_HEIGHT_PT))
                places[key].append((page.number, id(block)))
    needed = ANYWHERE_SHARE * len(pages)
    repeated = [hits for hits in places.values() if len({n for n, _ in hits}) >= needed]
    if len(repeated) > MAX_ANYWHERE_LINES:
        return set()
    return {hit for hits in repeated for hit in hits}


def _height_clusters(
    places: list[tuple[float, int, int]],
) -> list[list[tuple[float, int, int]]]:
    clusters: list[list[tuple[float, int, int]]] = []
    for place in sorted(places):
        if clusters and place[0] - clusters[-1][-1][0] <= SAME_HEIGHT_PT:
            clusters[-1].append(place)
        else:
            clusters.append([place])
    return clusters


def _stamp_blocks(pages: list[Page]) -> set[tuple[int, int]]:
    """'Downloaded from …' stamps anywhere on a page, upright or sideways, on any document."""
    return {
        (page.number, id(block))
        for page in pages
        for block in page.blocks
        if block.kind == BlockKind.PARAGRAPH and STAMP.match(block.text)
    }


def _running_head_slots(pages: list[Page]) -> set[tuple[int, int]]:
    """Top-band lines at one height and size, smaller than the body, on most pages."""
    body = _body_size(pages)
    slots: dict[float, list[tuple[float, int, int]]] = defaultdict(list)
    for page in pages:
        for block in _band_blocks(page):
            size = block.lines[0].size
            if block.bbox.center_y <= page.height * TOP_BAND and size < body - SMALLER_THAN_BODY_PT:
                if not CAPTION.match(block.text):
                    slots[size].append((block.bbox.top, page.number, id(block)))
    needed = max(MIN_REPEATS, RUNNING_SLOT_SHARE * len(pages))
    found: set[tuple[int, int]] = set()
    for places in slots.values():
        for cluster in _height_clusters(places):
            if len({number for _, number, _ in cluster}) >= needed:
                found.update((number, block_id) for _, number, block_id in cluster)
    return found


def _body_size(pages: list[Page]) -> float:
    weights: dict[float, int] = defaultdict(int)
    for page in pages:
        for block in page.blocks:
            if block.kind == BlockKind.PARAGRAPH:
                for line in block.lines:
                    weights[line.size] += len(line.text)
    return max(weights.items(), key=lambda kv: (kv[1], kv[0]))[0] if weights else 0.0


def _page_number_blocks(pages: list[Page]) -> set[tuple[int, int]]:
    """Lone page numbers in the bands; on a document too short to show repetition only those
    alone on their row of the page ("Page 1 of 1" centred in the footer)."""
    found: set[tuple[int, int]] = set()
    for page in pages:
        band = _band_blocks(page)
        for block in band:
            if not is_page_number(block.text) or _table_cell(block, page):
                continue
            if len(pages) >= MIN_REPEATS or _alone_on_row(block, page):
                found.add((page.number, id(block)))
    if len({number for number, _ in found}) < PAGE_NUMBER_SHARE * len(pages):
        return set()
    return found


def _table_cell(block: Block, page: Page) -> bool:
    """A number with at least TABLE_ROW_NEIGHBOURS other texts on its row is a cell of a
    table row ("7 | ライター | 52" at the top of a page a table runs on to), not a page number;
    a running head's page number shares its row with the head's title at most."""
    beside = sum(
        1 for other in page.blocks
        if other is not block and other.kind != BlockKind.TABLE
        and other.bbox.y_overlap(block.bbox) > 0.5 * min(other.bbox.height, block.bbox.height)
    )
    return beside >= TABLE_ROW_NEIGHBOURS


def _alone_on_row(block: Block, page: Page) -> bool:
    return not any(
        other is not block and other.bbox.y_overlap(block.bbox) > 0 for other in page.blocks
    )


def _relabel(page: Page, furniture: set[tuple[int, int]]) -> Page:
    blocks = tuple(
        replace(b, kind=BlockKind.FURNITURE) if (page.number, id(b)) in furniture else b
        for b in page.blocks
    )
    return replace(page, blocks=blocks)

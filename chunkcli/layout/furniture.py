"""Running headers, footers and page numbers: find lines that repeat in the page margins.

A line is furniture when text of the same shape (digits ignored, so "Page 3 of 10" matches
"Page 4 of 10") sits at about the same height in the top or bottom band of several pages.
Counting ignores page parity, so odd/even alternating heads and per-chapter running heads
that last a few pages are found too. Documents too short to show repetition keep everything.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace

from chunkcli.model import Block, BlockKind, Page, PageStatus

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

_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(
    r"^(?:page|p\.|페이지|ページ)?\s*[-–—(\[]?\s*(?:\d+|[ivxlcdm]+)\s*[-–—)\]]?"
    r"(?:\s*(?:/|of|de|von)\s*\d+)?\s*$",
    re.IGNORECASE,
)


def shape_of(text: str) -> str:
    """Text with digits replaced and spacing removed: the key repeated lines share."""
    return _DIGITS.sub("#", "".join(text.split())).lower()


def is_page_number(text: str) -> bool:
    return bool(_PAGE_NUMBER.match(text.strip()))


def strip_running_headers(pages: tuple[Page, ...]) -> tuple[Page, ...]:
    """Relabel repeated margin lines as FURNITURE blocks (render drops them)."""
    text_pages = [p for p in pages if p.status == PageStatus.TEXT]
    if len(text_pages) < 2:
        return pages
    repeats = min(MIN_REPEATS, len(text_pages))
    furniture = _repeated_margin_blocks(text_pages, repeats) | _page_number_blocks(text_pages)
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
    """(page, block index) of band lines whose shape repeats at one height on enough pages."""
    occurrences: dict[str, list[tuple[float, int, int]]] = defaultdict(list)
    for page in pages:
        for block in _band_blocks(page):
            occurrences[shape_of(block.text)].append((block.bbox.top, page.number, id(block)))
    found: set[tuple[int, int]] = set()
    for places in occurrences.values():
        for cluster in _height_clusters(places):
            if len({number for _, number, _ in cluster}) >= repeats:
                found.update((number, block_id) for _, number, block_id in cluster)
    return found


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


def _page_number_blocks(pages: list[Page]) -> set[tuple[int, int]]:
    found: set[tuple[int, int]] = set()
    for page in pages:
        for block in _band_blocks(page):
            if is_page_number(block.text):
                found.add((page.number, id(block)))
    if len({number for number, _ in found}) < PAGE_NUMBER_SHARE * len(pages):
        return set()
    return found


def _relabel(page: Page, furniture: set[tuple[int, int]]) -> Page:
    blocks = tuple(
        replace(b, kind=BlockKind.FURNITURE) if (page.number, id(b)) in furniture else b
        for b in page.blocks
    )
    return replace(page, blocks=blocks)

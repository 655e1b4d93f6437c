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
from collections.abc import Callable
from dataclasses import replace

from chunkcli.convert.layout.settings import FurnitureSettings
from chunkcli.convert.layout.sizes import typical_size
from chunkcli.convert.tables.text import CAPTION, is_numeric
from chunkcli.model import Block, BlockKind, Page, PageStatus

# Download stamps that publishers' sites add to every page, often sideways in the margin.
STAMP = re.compile(
    r"^\s*(?:this content )?(?:downloaded|retrieved) (?:from|by)\b|^\s*downloaded on\b",
    re.IGNORECASE,
)
# Numbered captions ("別表第1", "Table 3", "図2", tables.text.CAPTION) differ by their number:
# the number is part of their identity, so they never look like one repeated running head.

# Characters a rule set in type is made of (leaders, dashes, box-drawing lines, underscores).
RULE_MARKS = ".·・…‥_-‐‑–—―─━=~*＊＿－"
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
    pages: tuple[Page, ...],
    context: tuple[Page, ...] = (),
    settings: FurnitureSettings = FurnitureSettings(),
) -> tuple[Page, ...]:
    """Relabel repeated margin lines as FURNITURE blocks (render drops them).

    `context` holds pages outside a page selection: they count as evidence of repetition
    but are not returned.
    """
    text_pages = [p for p in pages + context if p.status == PageStatus.TEXT]
    s = settings
    bands = _Bands(s)  # each page's band lines, gathered once for the three readers below
    furniture = _stamp_blocks(text_pages, s) | _page_number_blocks(text_pages, bands, s)
    furniture |= _typed_rules(text_pages, s)
    if len(text_pages) >= 2:
        repeats = min(s.min_repeats, len(text_pages))
        furniture |= (
            _repeated_margin_blocks(text_pages, bands, repeats, s)
            | _running_head_slots(text_pages, bands, s)
            | _repeated_anywhere_blocks(text_pages, s)
        )
    if not furniture:
        return pages
    return tuple(_relabel(page, furniture) for page in pages)


def _band_blocks(page: Page, s: FurnitureSettings) -> list[Block]:
    top_limit = page.height * s.top_band
    bottom_limit = page.height * (1 - s.bottom_band)
    band = [
        b
        for b in page.blocks
        if b.kind == BlockKind.PARAGRAPH
        and ((middle := b.bbox.center_y) <= top_limit or middle >= bottom_limit)
    ]
    # (most pages: a band of upright lines on an upright page, told by the blocks' first lines)
    vertical = sum(1 for b in page.blocks if b.lines and b.lines[0].vertical)
    if band and 2 * vertical > len(page.blocks):
        columns = _vertical_columns_extent(page, s)
        if columns is not None:
            band = [b for b in band if not columns[0] < b.bbox.center_y < columns[1]]
    return band


def _vertical_columns_extent(page: Page, s: FurnitureSettings) -> tuple[float, float] | None:
    """The heights a 縦書き page's columns run between (None without long columns).

    Its columns start and end in the top and bottom bands, so the head of a column is no
    margin: an item's number there ("一", "(1)" set across the column) stands at one height
    page after page, as a running head would (saka1029-kokuji.pdf lost every item's number).
    Only what lies above or below the columns is in the page's margins.
    """
    columns = [
        line
        for b in page.blocks
        if b.kind == BlockKind.PARAGRAPH
        for line in b.lines
        if line.vertical and len(line.text) >= s.min_column_chars
    ]
    if not columns:
        return None
    return min(line.bbox.top for line in columns), max(line.bbox.bottom for line in columns)


class _Bands:
    """`_band_blocks` of each page, worked out on the first ask (three readers ask for every
    page: a pass over the corpus' pages cost ~35 ms, 2026-12-04)."""

    def __init__(self, s: FurnitureSettings) -> None:
        self.settings = s
        self._of: dict[int, list[Block]] = {}  # by id(page): the pages outlive this object

    def __call__(self, page: Page) -> list[Block]:
        found = self._of.get(id(page))
        if found is None:
            found = self._of[id(page)] = _band_blocks(page, self.settings)
        return found


def _repeated_margin_blocks(
    pages: list[Page], bands: _Bands, repeats: int, s: FurnitureSettings
) -> set[tuple[int, int]]:
    """(page, block id) of band lines that repeat on enough pages: the same shape at one
    height, or the very same longer text at any height of the band (form footers move)."""
    by_shape: dict[str, list[tuple[float, int, int]]] = defaultdict(list)
    by_text: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for page in pages:
        for block in bands(page):
            if is_page_number(block.text) and _table_cell(block, page, s):
                continue
            by_shape[shape_of(block.text)].append((block.bbox.top, page.number, id(block)))
            text = "".join(block.text.split())
            if len(text) >= s.min_identical_chars:
                by_text[text].append((page.number, id(block)))
    found: set[tuple[int, int]] = set()
    for places in by_shape.values():
        for cluster in _height_clusters(places, s.same_height_pt):
            if len({number for _, number, _ in cluster}) >= repeats:
                found.update((number, block_id) for _, number, block_id in cluster)
    for hits in by_text.values():
        if len({number for number, _ in hits}) >= repeats:
            found.update(hits)
    return found


def _repeated_anywhere_blocks(pages: list[Page], s: FurnitureSettings) -> set[tuple[int, int]]:
    """Lines at the very same place on nearly every page (a presenter's name on each slide).

    A filled-in form repeats most of its lines on every page; those are its content, so
    the rule stands down when pages repeat more than a few lines.
    """
    if len(pages) < s.min_pages_anywhere:
        return set()
    needed = s.anywhere_share * len(pages)
    # A shape repeats at a place only where some line sits on enough pages: the places are
    # counted first, and only the lines at those places are shaped (most places hold one line).
    at_place: dict[tuple[int, int], list[tuple[int, Block]]] = defaultdict(list)
    for page in pages:
        for block in page.blocks:
            if block.kind == BlockKind.PARAGRAPH:
                place = (
                    round(block.bbox.top / s.same_height_pt),
                    round(block.bbox.x0 / s.same_height_pt),
                )
                at_place[place].append((page.number, block))
    places: dict[tuple[str, int, int], list[tuple[int, int]]] = defaultdict(list)
    for place, blocks in at_place.items():
        if len({number for number, _ in blocks}) >= needed:
            for number, block in blocks:
                places[(shape_of(block.text), *place)].append((number, id(block)))
    repeated = [hits for hits in places.values() if len({n for n, _ in hits}) >= needed]
    if len(repeated) > s.max_anywhere_lines:
        return set()
    return {hit for hits in repeated for hit in hits}


def _height_clusters(
    places: list[tuple[float, int, int]], same_height_pt: float
) -> list[list[tuple[float, int, int]]]:
    clusters: list[list[tuple[float, int, int]]] = []
    for place in sorted(places):
        if clusters and place[0] - clusters[-1][-1][0] <= same_height_pt:
            clusters[-1].append(place)
        else:
            clusters.append([place])
    return clusters


def _stamp_blocks(pages: list[Page], s: FurnitureSettings) -> set[tuple[int, int]]:
    """'Downloaded from …' stamps anywhere on a page, upright or sideways, on any document,
    with the pieces set beside them on their row (the link and date after "Downloaded from")."""
    found: set[tuple[int, int]] = set()
    for page in pages:
        paragraphs = [b for b in page.blocks if b.kind == BlockKind.PARAGRAPH]
        for stamp in (b for b in paragraphs if STAMP.match(b.text)):
            found.update((page.number, id(b)) for b in _row_mates(stamp, paragraphs, s))
    return found


def _typed_rules(pages: list[Page], s: FurnitureSettings) -> set[tuple[int, int]]:
    """Rules set in type: a row of dots, dashes or underscores with no letter or digit
    (". . . . ." under an author line, "――――――" between sections) says nothing."""
    return {
        (page.number, id(block))
        for page in pages
        for block in page.blocks
        if block.kind == BlockKind.PARAGRAPH and _is_typed_rule(block.text, s.min_rule_marks)
    }


def _is_typed_rule(text: str, min_marks: int) -> bool:
    first = text.lstrip()[:1]  # (most lines open with a letter: no join and strip for them)
    if first and first not in RULE_MARKS:
        return False
    marks = "".join(text.split())
    return len(marks) >= min_marks and not marks.strip(RULE_MARKS)


def _row_mates(stamp: Block, blocks: list[Block], s: FurnitureSettings) -> list[Block]:
    """The stamp and the blocks that continue its row to the right, each within
    stamp_piece_gap_em of the last (a stamp is one line: upright stamps only)."""
    row = [stamp]
    if any(line.vertical for line in stamp.lines):
        return row
    beside = sorted((b for b in blocks if _may_be_piece(b, stamp, s)), key=lambda b: b.bbox.x0)
    for block in beside:
        if block.bbox.x0 - row[-1].bbox.x1 > s.stamp_piece_gap_em * stamp.lines[0].size:
            break
        row.append(block)
    return row


def _may_be_piece(block: Block, stamp: Block, s: FurnitureSettings) -> bool:
    """To the stamp's right, on its row, in its size."""
    if block is stamp or block.bbox.x0 < stamp.bbox.x0 or not block.lines:
        return False
    if abs(block.lines[0].size - stamp.lines[0].size) > s.stamp_size_tolerance_pt:
        return False
    lower = min(stamp.bbox.height, block.bbox.height)
    return block.bbox.y_overlap(stamp.bbox) >= s.stamp_row_overlap_share * lower


def _running_head_slots(
    pages: list[Page], bands: _Bands, s: FurnitureSettings
) -> set[tuple[int, int]]:
    """Top-band lines at one height and size, smaller than the body, on most pages."""
    body = typical_size(b for p in pages for b in p.blocks if b.kind == BlockKind.PARAGRAPH)
    slots: dict[float, list[tuple[float, int, int]]] = defaultdict(list)
    for page in pages:
        for block in bands(page):
            size = block.lines[0].size
            top = block.bbox.center_y <= page.height * s.top_band
            if top and size < body - s.smaller_than_body_pt:
                if not CAPTION.match(block.text):
                    slots[size].append((block.bbox.top, page.number, id(block)))
    needed = max(s.min_repeats, s.running_slot_share * len(pages))
    found: set[tuple[int, int]] = set()
    for places in slots.values():
        for cluster in _height_clusters(places, s.same_height_pt):
            if len({number for _, number, _ in cluster}) >= needed:
                found.update((number, block_id) for _, number, block_id in cluster)
    return found


def _page_number_blocks(
    pages: list[Page], bands: _Bands, s: FurnitureSettings
) -> set[tuple[int, int]]:
    """Lone page numbers in the bands (one sharing its row with text only on the row nearest
    the edge: see _outermost); on a document too short to show repetition only those alone on
    their row of the page ("Page 1 of 1" centred in the footer)."""
    found: set[tuple[int, int]] = set()
    for page in pages:
        numbers = [b for b in bands(page) if is_page_number(b.text) and not _table_cell(b, page, s)]
        if numbers:  # (stacks are looked for only on pages with a candidate)
            stacked = _stacked_numbers(page, s)
            numbers = [b for b in numbers if id(b) not in stacked]
        outermost = {id(b) for b in _outermost(numbers, page)}
        for block in numbers:
            alone = _alone_on_row(block, page)
            if (alone or id(block) in outermost) and (len(pages) >= s.min_repeats or alone):
                found.add((page.number, id(block)))
    if len({number for number, _ in found}) < s.page_number_share * len(pages):
        return set()
    return found


def _stacked_numbers(page: Page, s: FurnitureSettings) -> set[int]:
    """Ids of the number blocks in stacks (see FurnitureSettings.min_stack_numbers): runs of
    numbers aligned on their left or right edge, each close below the one before."""
    numbers = [
        b
        for b in page.blocks
        if b.kind == BlockKind.PARAGRAPH
        and len(b.lines) == 1  # (a one-line block's text is its line's: no join, no long scan)
        and len(b.lines[0].text) <= s.max_stack_number_chars
        and is_numeric(b.lines[0].text)
    ]
    stacked: set[int] = set()
    for edge in (lambda b: b.bbox.x0, lambda b: b.bbox.x1):
        for column in _aligned(numbers, edge, s.stack_align_pt):
            for run in _runs_down(column, s.stack_gap_lines):
                if len(run) >= s.min_stack_numbers:
                    stacked.update(id(b) for b in run)
    return stacked


def _aligned(
    blocks: list[Block], edge: Callable[[Block], float], tolerance: float
) -> list[list[Block]]:
    """Blocks grouped by `edge`, each group's neighbouring edges at most `tolerance` apart."""
    groups: list[list[Block]] = []
    for block in sorted(blocks, key=edge):
        if groups and edge(block) - edge(groups[-1][-1]) <= tolerance:
            groups[-1].append(block)
        else:
            groups.append([block])
    return groups


def _runs_down(column: list[Block], gap_lines: float) -> list[list[Block]]:
    """A column of blocks cut where the gap to the block above exceeds `gap_lines` heights."""
    runs: list[list[Block]] = []
    for block in sorted(column, key=lambda b: b.bbox.top):
        if runs and block.bbox.top - runs[-1][-1].bbox.bottom <= gap_lines * block.bbox.height:
            runs[-1].append(block)
        else:
            runs.append([block])
    return runs


def _outermost(numbers: list[Block], page: Page) -> list[Block]:
    """Of the numbers in one band, those on the row nearest the page's edge: a page has one page
    number per band (two on a spread, side by side); a number further in that shares its row
    with text is content (the page numbers of a contents list that starts high on its page,
    pymupdf-test-3820.pdf p. 4). One alone on its row stays a page number wherever it stands
    in the band (a journal's "199" above an archive's own "1": olmocr-hf_ff518…_pg2.pdf)."""
    middle = page.height / 2
    top = [b for b in numbers if b.bbox.center_y < middle]
    bottom = [b for b in numbers if b.bbox.center_y >= middle]
    kept = []
    if top:
        edge = min(b.bbox.top for b in top)
        kept += [b for b in top if b.bbox.top <= edge + b.bbox.height]
    if bottom:
        edge = max(b.bbox.bottom for b in bottom)
        kept += [b for b in bottom if b.bbox.bottom >= edge - b.bbox.height]
    return kept


def _table_cell(block: Block, page: Page, s: FurnitureSettings) -> bool:
    """A number with at least table_row_neighbours other texts on its row is a cell of a
    table row ("7 | ライター | 52" at the top of a page a table runs on to), not a page number;
    a running head's page number shares its row with the head's title at most."""
    box, height = block.bbox, block.bbox.height
    top, bottom = box.top, box.bottom
    beside = 0
    # (asked for every number in the bands, against every block of the page: stops once it
    # knows, and BBox.y_overlap and min() written out)
    for other in page.blocks:
        if beside >= s.table_row_neighbours:
            break
        if other is block or other.kind == BlockKind.TABLE:
            continue
        theirs = other.bbox
        low = top if top > theirs.top else theirs.top
        high = bottom if bottom < theirs.bottom else theirs.bottom
        overlap = high - low if high - low > 0.0 else 0.0
        their_height = theirs.bottom - theirs.top
        if overlap > 0.5 * (height if height < their_height else their_height):
            beside += 1
    return beside >= s.table_row_neighbours


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

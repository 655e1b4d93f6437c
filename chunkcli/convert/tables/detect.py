"""One PyMuPDF page + its Lines -> table Blocks.

The cheap gate: vector drawings (`get_cdrawings`, ~1,000 pages/s) give rules; only where rules
form a grid or a stack is a ruled table built (from the rules and the Lines we already have),
and text-only (unruled) detection only looks at runs of rows that split at wide gaps.

Which detector decides what, in this order (a later one never takes text an earlier one
placed in a table):
1. ruled grids (ruled.py): connected horizontal and vertical rules; columns from the rules
   plus text gutters, rows from the rules plus visual rows where a band holds several; a
   single ruled column of at least grid.MIN_LIST_ROWS short items is a one-column table;
2. rule stacks (ruled.py): three or more horizontal rules of one width (booktabs);
3. rule pairs (paired.py): a top and a bottom rule of one width, or a filled title bar and a
   bottom rule, around short aligned columns with no rule inside;
4. unruled tables (unruled.py): runs of closely spaced rows split at wide aligned gutters;
5. after extraction and page OCR, pictures of tables on text pages (extract/table_pictures.py):
   rules from the picture's pixels (raster.py) and its OCR words, through tables_from_rules.
PyMuPDF's `find_tables` decides nothing by default: on DP-Bench's public half (2026-12-03) it
cost 0.32-1.29 s CPU a page (median ~0.45, 20x the whole conversion) and scored TEDS 0.662
on the 22 table pages where these detectors score 0.814; on the three table pages they still
miss (an image of a table, a one-column list of boxes, a blank form) it found nothing usable.
It stays an opt-in fallback for a ruled grid our construction cannot read
(TableOptions.finder).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from chunkcli.convert.drawings import PageDrawings
from chunkcli.convert.tables.cells import (
    Cells,
    fill_cells,
    header_row_count,
    row_boundaries,
    tidy_cells,
)
from chunkcli.convert.tables.grid import (
    MIN_STACK_RULES,
    Grid,
    find_grids,
    is_table_frame,
    merge_stacked_grids,
    rule_coverage,
)
from chunkcli.convert.tables.paired import (
    cells_of_blank_form,
    cells_of_pair,
    has_title_type,
    rule_pairs,
)
from chunkcli.convert.tables.ruled import cells_of_grid
from chunkcli.convert.tables.rules import Matrix, Rule, rules_from_drawings
from chunkcli.convert.tables.text import (
    CAPTION,
    Piece,
    glue_currency,
    group_rows,
    is_numeric,
    pieces_of_lines,
)
from chunkcli.convert.tables.unruled import MIN_UNRULED_ROWS, UnruledTable, find_unruled
from chunkcli.model import BBox, Block, BlockKind, Line

if TYPE_CHECKING:
    import pymupdf

# A table needs at least this many rows (header included) and columns holding text.
MIN_ROWS = 2
MIN_COLUMNS = 2
# Extraction removes every Line whose centre lies within this distance of a table's box
# (convert/extract/pages.py, _inside_any); the same tolerance decides which Lines fill the cells.
LINE_TOLERANCE_PT = 1.0
# Bar charts draw bars as filled boxes with value labels: a "grid" whose cells are numbers and
# mostly empty (below this share filled). Real sparse tables carry words too.
CHART_MAX_FILL = 0.4
# Below this share of filled cells, a grid with no half-full row (HALF_ROW) is a drawing
# whose boxes hold scattered labels; tables and blank forms in the corpus have a full header
# row, and the sparsest of them are filled 0.18.
MIN_DIAGRAM_FILL = 0.2
HALF_ROW = 0.5
# A table row found between two grids (see _holds_one_row) has at most this many lines.
MAX_GAP_ROW_LINES = 3
# Pieces this many font sizes apart on one line are in different cells.
CELL_GAP_EM = 2.0
# A ruled grid drawing less than this share of its row and column lines is a diagram (boxes
# joined by connectors) or a sparse form; on the corpus tables measured 0.42-1.0, slide
# diagrams 0.36-0.41 (see grid.rule_coverage).
MIN_RULE_COVERAGE = 0.4
# Below this coverage a grid must have a full header row and text in every row and column of
# its lattice: on the corpus, diagrams (boxes and connectors, timelines) drew 0.41-0.59 of
# their lattice, tables 0.6-1.0 but one Gantt chart (0.42) that has both.
FULL_HEADER_COVERAGE = 0.6
# An unruled table with at least MIN_BOX_SIDES vertical rules of MIN_BOX_SIDE_PT (two rows of
# small type) inside its text, INSIDE_MARGIN_PT in from its edges, is text in drawn boxes.
MIN_BOX_SIDES = 2
MIN_BOX_SIDE_PT = 20.0
INSIDE_MARGIN_PT = 2.0
# Page numbers in a table of contents: arabic or lower-case roman.
ROMAN_OR_ARABIC = re.compile(r"\d{1,4}|[ivxlc]{1,7}")
# A cell longer than this in a table without vertical rules is a paragraph between two rules.
MAX_STACK_CELL_CHARS = 200
# A one-column ruled grid (grid.MIN_LIST_ROWS) is a boxed list when every box holds text of
# at most this median length (list items; DP-Bench's framework items: 28-52 characters) and
# its rules draw the whole lattice: paragraphs divided by rules, or boxes joined by
# connectors, are not.
MAX_LIST_CELL_CHARS = 80
MIN_LIST_COVERAGE = 0.9


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Which detectors run: ruled and unruled on, the slow finder fallback off."""

    ruled: bool = True  # grids and stacks built from vector rules
    unruled: bool = True  # column alignment alone, conservative
    # PyMuPDF's finder (~0.3-1.3 s a page) on the clip of a ruled grid our own construction
    # could not read. Off by default: on the corpus it was asked 17 times and never returned
    # a usable table; on DP-Bench it finds nothing on the table pages we miss (module doc).
    finder: bool = False


def detect_tables(
    page: pymupdf.Page,
    lines: Sequence[Line],
    page_number: int,
    options: TableOptions = TableOptions(),
    drawings: PageDrawings | None = None,
) -> list[Block]:
    """Table blocks on one page, top to bottom; `lines` are the page's extracted Lines;
    `drawings` its paths when another reader of the page may have read them already."""
    pieces = glue_currency(pieces_of_lines(lines))
    if not pieces:
        return []
    blocks: list[Block] = []
    rules: tuple[Rule, ...] = ()
    if options.ruled:
        reads = drawings or PageDrawings(page)  # (the page's box and rotation read once)
        rect = reads.rect
        page_box = BBox(0.0, 0.0, float(rect.width), float(rect.height))
        rules = rules_from_drawings(reads.paths, page_box, _rotation(page, reads.rotation))
        grids = _grids_of(rules, page_box, pieces, lines)
        blocks = _grid_blocks(page, grids, lines, page_number, options)
        for frame in rule_pairs(grids, rules):
            if not any(_overlaps(frame.bbox, b.bbox) for b in blocks):
                block = _paired_block(page, frame, lines, page_number)
                blocks.extend([block] if block is not None else [])
    if options.unruled:
        taken = _vertical_or_covered(lines, blocks)
        free = [p for p in pieces if p.line_index not in taken]
        for table in find_unruled(free):
            block = _unruled_block(table, lines, page_number)
            if block is None or _boxed_inside(_body_box(block.bbox, table), rules):
                continue
            if not any(_overlaps(block.bbox, b.bbox) for b in blocks):
                blocks.append(block)
    return sorted(blocks, key=lambda b: (b.bbox.top, b.bbox.x0))


def tables_from_rules(
    rules: Sequence[Rule], lines: Sequence[Line], page_number: int, page_box: BBox
) -> list[Block]:
    """Ruled tables from rules found elsewhere than in the page's drawings (the pixels of a
    picture of a table, see raster.py) and the Lines over them (its OCR words), built as the
    page's drawn grids are."""
    pieces = glue_currency(pieces_of_lines(lines))
    if not pieces:
        return []
    grids = _grids_of(rules, page_box, pieces, lines)
    return _grid_blocks(None, grids, lines, page_number, TableOptions(finder=False))


def _grids_of(
    rules: Sequence[Rule], page_box: BBox, pieces: Sequence[Piece], lines: Sequence[Line]
) -> list[Grid]:
    """The rules' grids and stacks, row groups joined, stacks cut at captions."""
    grids = merge_stacked_grids(find_grids(rules, page_box), _holds_one_row(pieces))
    return [part for grid in grids for part in cut_at_captions(grid, lines)]


def _grid_blocks(
    page: pymupdf.Page | None,
    grids: Sequence[Grid],
    lines: Sequence[Line],
    page_number: int,
    options: TableOptions,
) -> list[Block]:
    """A table block for each grid that frames a table and overlaps none taken before it."""
    blocks: list[Block] = []
    for grid in filter(is_table_frame, grids):
        if any(grid.bbox.x_overlap(b.bbox) and grid.bbox.y_overlap(b.bbox) for b in blocks):
            continue
        block = _ruled_block(page, grid, lines, page_number, options)
        if block is not None:
            blocks.append(block)
    return blocks


def cut_at_captions(grid: Grid, lines: Sequence[Line]) -> list[Grid]:
    """A stack of booktabs rules cut where a band starts with a caption ("Table 3: …"): two
    tables of one width set one above the other share a stack of rules, and the caption
    between them is no row of either."""
    if grid.ruled_columns or len(grid.ys) <= MIN_STACK_RULES:
        return [grid]
    parts: list[tuple[float, ...]] = []
    start = 0
    left, right = grid.xs[0], grid.xs[-1]
    # Lines across the grid's width by centre, read once for all its bands.
    across = [(ln.bbox.center_y, ln) for ln in lines if left <= ln.bbox.center_x <= right]
    for index in range(1, len(grid.ys) - 1):  # the first band is a header, never a caption
        top, bottom = grid.ys[index], grid.ys[index + 1]
        inside = [ln for y, ln in across if top <= y <= bottom]
        if inside and CAPTION.match(min(inside, key=lambda ln: ln.bbox.top).text):
            parts.append(grid.ys[start : index + 1])
            start = index + 1
    parts.append(grid.ys[start:])
    return [
        Grid(grid.xs, ys, tuple(r for r in grid.rules if ys[0] - 1 <= r.pos <= ys[-1] + 1), False)
        for ys in parts
        if len(ys) >= MIN_STACK_RULES
    ]


def _body_box(box: BBox, table: UnruledTable) -> BBox:
    """The table's box below its first row: a header row in shaded or drawn boxes (its
    cells' sides cross it) is a styled header, not text set in the boxes of a drawing."""
    first_bottom = max(p.bbox.bottom for p in table.rows[0])
    return BBox(box.x0, min(first_bottom, box.bottom), box.x1, box.bottom)


def _boxed_inside(box: BBox, rules: Sequence[Rule]) -> bool:
    """Vertical rules run through the text of an 'unruled' table: its cells sit in the boxes
    of a drawing (slides), since rules that made a table would have made it a ruled one."""
    inner = BBox(box.x0 + INSIDE_MARGIN_PT, box.top, box.x1 - INSIDE_MARGIN_PT, box.bottom)
    crossing = [
        r
        for r in rules
        if not r.horizontal
        and inner.x0 < r.pos < inner.x1
        and min(r.end, inner.bottom) - max(r.start, inner.top) >= MIN_BOX_SIDE_PT
    ]
    return len(crossing) >= MIN_BOX_SIDES


def _untyped(page: pymupdf.Page) -> Any:
    """PyMuPDF ships no type hints for these methods."""
    return page


def _rotation(page: pymupdf.Page, rotation: int) -> Matrix | None:
    if not rotation:
        return None
    m = _untyped(page).rotation_matrix
    return (float(m.a), float(m.b), float(m.c), float(m.d), float(m.e), float(m.f))


def _holds_one_row(pieces: Sequence[Piece]) -> Callable[[BBox], bool]:
    """A test for the gap between two grids: one table row (two or more cells, its label
    wrapped to at most MAX_GAP_ROW_LINES lines), not a caption or a paragraph."""

    def test(box: BBox) -> bool:
        inside = [p for p in pieces if box.contains_point(p.bbox.center_x, p.bbox.center_y)]
        rows = group_rows(inside)
        return 0 < len(rows) <= MAX_GAP_ROW_LINES and any(map(_has_cell_gap, rows))

    return test


def _has_cell_gap(row: Sequence[Piece]) -> bool:
    """Two pieces of the row at least CELL_GAP_EM font sizes apart: two cells, not one line."""
    return any(
        right.bbox.x0 - left.bbox.x1 >= CELL_GAP_EM * max(left.size, right.size)
        for left, right in zip(row, row[1:], strict=False)
    )


def _overlaps(a: BBox, b: BBox) -> bool:
    return a.x_overlap(b) > 0 and a.y_overlap(b) > 0


def _vertical_or_covered(lines: Sequence[Line], blocks: Sequence[Block]) -> set[int]:
    """Indices of the lines unruled tables leave alone: vertical ones and those a table
    found already covers (asked once a line, not once a piece)."""
    if not blocks:
        return {i for i, line in enumerate(lines) if line.vertical}
    return {i for i, line in enumerate(lines) if line.vertical or _covered(line, blocks)}


def _covered(line: Line, blocks: Sequence[Block]) -> bool:
    x, y = line.bbox.center_x, line.bbox.center_y
    return any(b.bbox.contains_point(x, y, tolerance=LINE_TOLERANCE_PT) for b in blocks)


def lines_inside(box: BBox, lines: Sequence[Line]) -> tuple[tuple[Line, ...], list[Piece]]:
    """The Lines whose centre lies in `box` (what extraction removes) and their pieces."""
    chosen = tuple(
        line
        for line in lines
        if box.contains_point(line.bbox.center_x, line.bbox.center_y, tolerance=LINE_TOLERANCE_PT)
    )
    return chosen, glue_currency(pieces_of_lines(chosen))


def _table_block(
    box: BBox, chosen: tuple[Line, ...], cells: Cells, page_number: int
) -> Block | None:
    if len(cells) < MIN_ROWS or len(cells[0]) < MIN_COLUMNS or _unrelated(cells):
        return None
    header_rows = header_row_count(cells)
    return Block(BlockKind.TABLE, chosen, box, page_number, cells=cells, header_rows=header_rows)


def _unrelated(cells: Cells) -> bool:
    """Texts no row relates: every row holds at most one (boxes of a diagram stacked, labels
    of a form), or a lattice filled below MIN_DIAGRAM_FILL where no row is half full (scattered
    labels of a drawing; a blank form still has its full header row)."""
    counts = [sum(1 for c in row if c) for row in cells]
    if max(counts) < MIN_COLUMNS:
        return True
    width = len(cells[0])
    sparse = sum(counts) < MIN_DIAGRAM_FILL * width * len(cells)
    return sparse and max(counts) < HALF_ROW * width


def _ruled_block(
    page: pymupdf.Page | None,
    grid: Grid,
    lines: Sequence[Line],
    page_number: int,
    options: TableOptions,
) -> Block | None:
    if grid.ruled_columns and rule_coverage(grid) < MIN_RULE_COVERAGE:
        return None
    chosen, pieces = lines_inside(grid.bbox, lines)
    if not pieces:
        return None
    cells = cells_of_grid(grid, pieces)
    if page is not None and options.finder and grid.ruled_columns and _ambiguous(cells):
        found = cells_from_finder(page, grid.bbox, pieces)
        cells = found if found else cells
    if _is_chart(cells) or (not grid.ruled_columns and _holds_paragraphs(cells)):
        return None
    if not grid.ruled_columns and has_title_type(pieces):
        return None  # a masthead between page rules, not a table
    if grid.ruled_columns and rule_coverage(grid) < FULL_HEADER_COVERAGE:
        if not _full_header(cells) or _lattice_has_gaps(grid, cells):
            return None  # a half-drawn lattice with gaps or no header: boxes and connectors
    if grid.ruled_columns and cells and len(cells[0]) == 1:
        return _list_block(grid, chosen, cells, page_number)
    return _table_block(grid.bbox, chosen, cells, page_number)


def _list_block(
    grid: Grid, chosen: tuple[Line, ...], cells: Cells, page_number: int
) -> Block | None:
    """A one-column grid as a one-column table: a boxed list whose every box holds a short
    item, drawn whole (see MAX_LIST_CELL_CHARS)."""
    texts = [row[0] for row in cells]
    boxed = len(grid.xs) == 2 and len(cells) == len(grid.ys) - 1
    if not boxed or not all(texts) or rule_coverage(grid) < MIN_LIST_COVERAGE:
        return None
    if statistics.median(map(len, texts)) > MAX_LIST_CELL_CHARS:
        return None
    return Block(BlockKind.TABLE, chosen, grid.bbox, page_number, cells=cells)


def _paired_block(
    page: pymupdf.Page, frame: Grid, lines: Sequence[Line], page_number: int
) -> Block | None:
    """A table between a top and a bottom rule (see paired.py)."""
    chosen, pieces = lines_inside(frame.bbox, lines)
    if not pieces:
        return None
    cells = cells_of_pair(frame, pieces) or cells_of_blank_form(
        frame, pieces, lambda row: _words_of_row(page, row)
    )
    if not cells or _is_chart(cells) or _is_contents(cells):
        return None
    return _table_block(frame.bbox, chosen, cells, page_number)


def _words_of_row(page: pymupdf.Page, row: Sequence[Piece]) -> list[Piece]:
    """The words of a row of pieces with their own boxes, as MuPDF places them (a piece's
    text is one span; words_of can only estimate where its words are)."""
    box = BBox(
        min(p.bbox.x0 for p in row),
        min(p.bbox.top for p in row),
        max(p.bbox.x1 for p in row),
        max(p.bbox.bottom for p in row),
    )
    found: list[Any] = _untyped(page).get_text("words", clip=(box.x0, box.top, box.x1, box.bottom))
    words: list[Piece] = []
    for x0, top, x1, bottom, text, *_ in found:
        word = BBox(float(x0), float(top), float(x1), float(bottom))
        owner = next((p for p in row if p.bbox.x0 - 1 <= word.center_x <= p.bbox.x1 + 1), row[0])
        words.append(Piece(str(text), word, owner.size, owner.bold, owner.line_index))
    return words


def _full_header(cells: Cells) -> bool:
    """The first row names every column (its corner cell may be empty)."""
    return all(cells[0][1:]) if cells else False


def _lattice_has_gaps(grid: Grid, cells: Cells) -> bool:
    """Some row or column of the rule lattice holds no text (tidy_cells dropped it): the
    space between the boxes of a drawing. A table's lattice rows and columns all hold text."""
    return len(cells) < len(grid.ys) - 1 or len(cells[0]) < len(grid.xs) - 1


def _is_chart(cells: Cells) -> bool:
    """Value labels over the bars of a chart: sparse cells holding nothing but numbers."""
    filled = [c for row in cells for c in row if c]
    total = sum(len(row) for row in cells)
    if not filled or len(filled) >= CHART_MAX_FILL * total:
        return False
    return all(is_numeric(c) for c in filled)


def _holds_paragraphs(cells: Cells) -> bool:
    """Rules above and below prose (page frames, boxed text) with columns only from text."""
    return any(len(c) > MAX_STACK_CELL_CHARS for row in cells for c in row)


def _ambiguous(cells: Cells) -> bool:
    """Our construction failed to give a table where rules drew one: ask the finder."""
    return len(cells) < MIN_ROWS or len(cells[0]) < MIN_COLUMNS


def cells_from_finder(page: pymupdf.Page, clip: BBox, pieces: Sequence[Piece]) -> Cells:
    """Cells from PyMuPDF's table finder run on `clip` only (slow: ~0.2 s per page)."""
    found: Any = _untyped(page).find_tables(clip=(clip.x0, clip.top, clip.x1, clip.bottom))
    tables = list(found.tables)
    if not tables:
        return ()
    table = max(tables, key=lambda t: len(t.cells))
    boxes = [c for c in table.cells if c is not None]
    xs = _collapsed([v for c in boxes for v in (c[0], c[2])])
    ys = _collapsed([v for c in boxes for v in (c[1], c[3])])
    if len(xs) < 2 or len(ys) < 2:
        return ()
    return tidy_cells(fill_cells(pieces, xs, ys, lambda x, y: True))


def _collapsed(values: list[float]) -> tuple[float, ...]:
    result: list[float] = []
    for value in sorted(values):
        if not result or value - result[-1] >= 2.0:
            result.append(value)
    return tuple(result)


def _unruled_block(table: UnruledTable, lines: Sequence[Line], page_number: int) -> Block | None:
    box = table.bbox
    chosen, pieces = lines_inside(box, lines)
    top, bottom = box.top, box.bottom
    ys = (top, *row_boundaries_all(pieces, top, bottom), bottom)
    grid = fill_cells(pieces, table.xs, ys, lambda x, y: False)
    cells = tidy_cells(grid, header_rows=table.header_rows)
    full_rows = sum(1 for row in cells if sum(1 for c in row if c) >= MIN_COLUMNS)
    if full_rows < MIN_UNRULED_ROWS or _is_chart(cells) or _is_contents(cells):
        return None
    return _table_block(box, chosen, cells, page_number)


def _is_contents(cells: Cells) -> bool:
    """A table of contents without leaders: titles, then page numbers that never go down."""
    if len(cells[0]) != MIN_COLUMNS:
        return False
    pages = [row[-1] for row in cells if row[-1]]
    if not all(ROMAN_OR_ARABIC.fullmatch(p) for p in pages):
        return False
    arabic = [int(p) for p in pages if p.isdigit()]
    return arabic == sorted(arabic)


def row_boundaries_all(pieces: Sequence[Piece], top: float, bottom: float) -> list[float]:
    """A cut between every two visual rows (unruled tables: each visual row is a row)."""
    return row_boundaries(pieces, top, bottom, xs=(), force=True)

"""--mode rows: every table row one chunk whose text lists `Column: value` lines.

The header names come from the table's header rows (a group title spanning empty cells to its
right names each of them: "2023 / Q1"). The body stays the row's exact Markdown slice; the
`Column: value` lines go into the prefix after the heading path, so `text` reads as a record
and `markdown[start:end] == body` still holds. `--rows-per-chunk N` packs up to N rows (all
within the limit) into one chunk. Text outside tables is split as in the heading mode; the
header lines and the headings right above a table are carried in every row's prefix instead.
"""

from __future__ import annotations

from chunkcli.markdown_format import split_cells
from chunkcli.model import ChunkKind
from chunkcli.split.layout import Layout
from chunkcli.split.plan import Plan, plan_range
from chunkcli.split.scan import Piece, PieceKind, Row
from chunkcli.split.segments import trim

GROUP_SEPARATOR = " / "


def plan_rows(layout: Layout) -> list[Plan]:
    """Row chunks for every table with rows; the text between tables as usual."""
    plans: list[Plan] = []
    pieces = layout.pieces
    run_start = 0
    for index, piece in enumerate(pieces):
        if piece.kind is not PieceKind.TABLE or len(piece.rows) < 2:
            continue
        last_content = index - 1
        while last_content >= run_start and not pieces[last_content].is_content:
            last_content -= 1
        plans += _text_plans(layout, run_start, last_content + 1)
        plans += _table_rows(layout, index, piece)
        run_start = index + 1
    plans += _text_plans(layout, run_start, len(pieces))
    return plans


def _text_plans(layout: Layout, lo: int, hi: int) -> list[Plan]:
    """The heading mode's plans of pieces[lo:hi], without chunks of format comments alone
    (the provenance comment over a table that opens the document)."""
    plans = plan_range(layout, lo, hi)
    return [p for p in plans if trim(layout.markdown, p.start, p.end) is not None]


def _table_rows(layout: Layout, index: int, piece: Piece) -> list[Plan]:
    markdown = layout.markdown
    # rows[0]: the header line, the delimiter line, then any further header rows announced
    # by the table's header-row comment (markdown_format).
    header = markdown[piece.rows[0].start : piece.rows[0].end].split("\n")
    names = column_names([cells_of(line) for i, line in enumerate(header) if i != 1 and line])
    path = layout.paths[index]
    path_prefix = layout.prefix(path)[0]
    per_chunk = layout.options.rows_per_chunk
    plans: list[Plan] = []
    rows = piece.rows[1:]
    i = 0
    while i < len(rows):
        j = i + 1
        plan = _rows_plan(layout, rows[i:j], names, path_prefix, index)
        while j < len(rows) and j - i < per_chunk:
            longer = _rows_plan(layout, rows[i : j + 1], names, path_prefix, index)
            if longer.oversize:
                break
            plan, j = longer, j + 1
        plans.append(plan)
        i = j
    return plans


def _rows_plan(
    layout: Layout, rows: tuple[Row, ...], names: list[str], path_prefix: str, index: int
) -> Plan:
    markdown = layout.markdown
    records = [
        record_lines(names, cells_of(markdown[row.start : row.end].split("\n", 1)[0]))
        for row in rows
    ]
    prefix = path_prefix + "\n\n".join(r for r in records if r) + "\n\n"
    start, end = rows[0].start, rows[-1].end
    tokens = layout.count_tokens(prefix + markdown[start:end])
    path = layout.paths[index]
    return Plan(start, end, ChunkKind.ROW, path, prefix, tokens, tokens > layout.max_tokens)


def cells_of(line: str) -> list[str]:
    """The cells of one pipe-table line as text: an escaped pipe is a pipe again."""
    return [" ".join(cell.replace("\\|", "|").split()) for cell in split_cells(line)]


def column_names(header_rows: list[list[str]]) -> list[str]:
    """One name per column from all header rows, top down: a group title names the empty cells
    to its right in its row (spanned columns), repeated names are said once."""
    width = max((len(row) for row in header_rows), default=0)
    filled: list[list[str]] = []
    for depth, row in enumerate(header_rows):
        cells = row + [""] * (width - len(row))
        if depth < len(header_rows) - 1:  # a group-title row: spans fill to the right
            for column in range(1, width):
                cells[column] = cells[column] or cells[column - 1]
        filled.append(cells)
    names = []
    for column in range(width):
        parts = [cells[column] for cells in filled if cells[column]]
        unique = list(dict.fromkeys(parts))
        names.append(GROUP_SEPARATOR.join(unique) or f"Column {column + 1}")
    return names


def record_lines(names: list[str], cells: list[str]) -> str:
    """`Column: value` lines for the non-empty cells of a row (extra cells are numbered)."""
    lines = []
    for column, value in enumerate(cells):
        if not value:
            continue
        name = names[column] if column < len(names) else f"Column {column + 1}"
        lines.append(f"{name}: {value}")
    return "\n".join(lines)

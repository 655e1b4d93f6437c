"""check: tables against the ruling lines drawn on their page (PDFs only)."""

from __future__ import annotations

from pathlib import Path

from pdf_factory import Rule, Text, grid_table, make_pdf

from chunkcli.check.rulings import check_table_rulings, filled_columns, ruled_columns
from chunkcli.convert.pipeline import convert_pdf
from chunkcli.model import (
    BBox,
    Block,
    BlockKind,
    Document,
    Line,
    Page,
    Severity,
    Span,
)

COLUMNS = (120.0, 120.0, 120.0)
ROWS = [["Model", "Voltage", "Current"], ["PS-100", "5", "2.0"], ["PS-200", "12", "1.5"]]
TABLE_X, TABLE_Y, ROW_HEIGHT = 72.0, 100.0, 20.0
TABLE_BOX = BBox(TABLE_X, TABLE_Y, TABLE_X + sum(COLUMNS), TABLE_Y + ROW_HEIGHT * len(ROWS))


def table_block(cells: list[list[str]]) -> Block:
    """A TABLE block over the grid, with one span per cell of ROWS at its real position."""
    lines = []
    for r, row in enumerate(ROWS):
        top = TABLE_Y + r * ROW_HEIGHT + 3
        spans = tuple(
            Span(text, BBox(TABLE_X + c * 120 + 3, top, TABLE_X + c * 120 + 40, top + 10))
            for c, text in enumerate(row)
        )
        lines.append(Line(spans, BBox.enclosing([s.bbox for s in spans])))
    return Block(
        BlockKind.TABLE,
        tuple(lines),
        TABLE_BOX,
        page=1,
        cells=tuple(tuple(row) for row in cells),
    )


def document_with(block: Block, path: Path) -> Document:
    return Document(str(path), (Page(1, 595, 842, (block,)),))


def ruled_pdf(tmp_path: Path) -> Path:
    return make_pdf(
        tmp_path / "grid.pdf", [grid_table(TABLE_X, TABLE_Y, COLUMNS, ROW_HEIGHT, ROWS)]
    )


def test_merged_columns_warn(tmp_path: Path) -> None:
    pdf = ruled_pdf(tmp_path)
    merged = [[f"{a} {b}", c] for a, b, c in ROWS]
    (issue,) = check_table_rulings(pdf, document_with(table_block(merged), pdf))
    assert issue.code == "table.columns-vs-rules" and issue.severity == Severity.WARN
    assert issue.page == 1 and "2 columns" in issue.message and "in 3" in issue.message


def test_matching_columns_pass(tmp_path: Path) -> None:
    pdf = ruled_pdf(tmp_path)
    assert check_table_rulings(pdf, document_with(table_block(ROWS), pdf)) == []


def test_more_columns_than_rules_is_normal(tmp_path: Path) -> None:
    # Only the outer frame and one separator are drawn: convert's 3 columns are not a finding.
    right = TABLE_X + sum(COLUMNS)
    bottom = TABLE_Y + ROW_HEIGHT * len(ROWS)
    items = [
        Rule(TABLE_X, TABLE_Y, right, TABLE_Y),
        Rule(TABLE_X, bottom, right, bottom),
        Rule(TABLE_X, TABLE_Y, TABLE_X, bottom),
        Rule(right, TABLE_Y, right, bottom),
        Rule(TABLE_X + 240, TABLE_Y, TABLE_X + 240, bottom),
        Text(80, 115, "Model"),
    ]
    pdf = make_pdf(tmp_path / "frame.pdf", [items])
    assert check_table_rulings(pdf, document_with(table_block(ROWS), pdf)) == []


def test_no_interior_rules_means_no_opinion() -> None:
    frame = [(TABLE_X, TABLE_Y, TABLE_BOX.bottom), (TABLE_BOX.x1, TABLE_Y, TABLE_BOX.bottom)]
    assert ruled_columns(frame, TABLE_BOX, [100.0, 200.0, 300.0]) is None


def test_empty_slivers_and_empty_columns_do_not_count() -> None:
    # Boundaries at 120 and 126 make an empty sliver; a logo column (72-120) holds no text.
    boundaries = [(x, TABLE_Y, TABLE_BOX.bottom) for x in (120.0, 126.0, 300.0)]
    assert ruled_columns(boundaries, TABLE_BOX, [200.0, 350.0]) == 2
    assert filled_columns([["", "a", "b"], ["", "c", ""]]) == 2


def test_convert_of_a_ruled_table_agrees_with_its_rules(tmp_path: Path) -> None:
    pdf = ruled_pdf(tmp_path)
    result = convert_pdf(pdf)
    tables = [b for b in result.document.pages[0].blocks if b.kind == BlockKind.TABLE]
    assert len(tables) == 1 and len(tables[0].cells[0]) == 3  # the check had something to judge
    assert check_table_rulings(pdf, result.document) == []


def test_unreadable_pdf_gives_no_opinion(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7 nothing else")
    assert check_table_rulings(broken, document_with(table_block(ROWS), broken)) == []


def test_a_table_nested_in_a_cell_does_not_add_columns() -> None:
    # Outer table: columns 72-172 and 172-432; a 3-column table nested in the lower half of
    # the right cell draws rules at 252 and 342 over half the outer table's height.
    box = BBox(72, 100, 432, 300)
    rules = [(172.0, 100.0, 300.0), (252.0, 200.0, 300.0), (342.0, 200.0, 300.0)]
    assert ruled_columns(rules, box, [100.0, 210.0, 300.0, 390.0]) == 2


def test_reopening_a_pdf_in_the_command_process_keeps_mupdf_quiet(tmp_path: Path) -> None:
    """check re-reads a PDF's rules in its own process: MuPDF's messages must not reach stdout
    (inside a --json report) however the process had them set."""
    import pymupdf

    from chunkcli.check.rulings import read_vertical_segments

    pdf = tmp_path / "cut.pdf"
    doc = pymupdf.open()
    doc.new_page().draw_line((72, 72), (72, 300))
    pdf.write_bytes(doc.tobytes()[:-40])  # cut short: MuPDF repairs it, and would say so
    pymupdf.TOOLS.mupdf_display_errors(True)
    pymupdf.TOOLS.mupdf_display_warnings(True)
    read_vertical_segments(pdf, [1])
    assert pymupdf.TOOLS.mupdf_display_errors() is False
    assert pymupdf.TOOLS.mupdf_display_warnings() is False

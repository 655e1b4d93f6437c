"""Table blocks of a converted PDF + the page's vector drawings -> Issues: tables with fewer
columns than the vertical ruling lines (or cell boxes) drawn across them separate: merged cells.

This is a second opinion on `convert`'s tables from the drawings alone, so it only speaks when the
drawings are clear: at least one interior vertical boundary running down most of the table.
It reads the PDF again (the one impure check), so it is called by the corpus runner, not by
`check_conversion`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from chunkcli.model import BBox, Block, BlockKind, Document, Issue, Severity

Segment = tuple[float, float, float]  # (x, top, bottom) of a vertical rule or box edge

# A filled rectangle at most this wide is a rule; a wider one contributes its two side edges.
RULE_MAX_THICKNESS_PT = 2.0
# Shorter vertical strokes are glyph parts or ticks, not rules.
MIN_SEGMENT_PT = 3.0
# Vertical strokes this close together are one boundary (double rules, box edges that touch).
SAME_X_PT = 2.5
# A boundary this close to the table's left or right edge is its outer border, not a column break.
EDGE_MARGIN_PT = 4.0
# A column boundary runs down at least this share of the table's height: the rules of a table
# nested in one cell, or of a side header spanning the lower rows, are not columns of the table
# (at 0.6, nested tables in Korean RFP forms made false alarms). A spanning title row can then
# hide a real boundary, which only makes the check silent.
MIN_COVERAGE = 0.9


def check_table_rulings(path: str | Path, document: Document) -> list[Issue]:
    """Column-count disagreements for every table block whose page has clear vertical rules."""
    tables = table_blocks(document)
    if not tables:
        return []
    segments_by_page = read_vertical_segments(path, sorted({b.page for b in tables}))
    issues: list[Issue] = []
    for block in tables:
        ruled = ruled_columns(segments_by_page.get(block.page, []), block.bbox, text_centers(block))
        found = filled_columns(block.cells)
        # Only fewer columns than the rules is a finding: many tables draw some separators and
        # leave others out (a header spanning two columns), so more columns than rules is normal.
        if ruled is not None and found and found < ruled:
            issues.append(
                Issue(
                    "table.columns-vs-rules",
                    Severity.WARN,
                    f"table on page {block.page}: convert found {found} columns with text but the "
                    f"ruling lines across it hold text in {ruled} (cells merged or split?)",
                    page=block.page,
                )
            )
    return issues


def read_vertical_segments(path: str | Path, pages: Sequence[int]) -> dict[int, list[Segment]]:
    """Vertical segments of the drawings on the given 1-based pages ({} when unreadable)."""
    import pymupdf

    # This runs in the command's own process: MuPDF's messages would reach stdout, inside a
    # --json report (issue 30). They are recorded, not printed.
    pymupdf.TOOLS.mupdf_display_errors(False)  # type: ignore[no-untyped-call]
    pymupdf.TOOLS.mupdf_display_warnings(False)  # type: ignore[no-untyped-call]
    try:
        doc = pymupdf.open(str(path))  # type: ignore[no-untyped-call]
    except Exception:  # noqa: BLE001 - an unreadable file was already reported by convert
        return {}
    with doc:
        if doc.needs_pass:
            return {}
        return {
            number: list(vertical_segments(doc[number - 1].get_drawings()))
            for number in pages
            if 1 <= number <= doc.page_count
        }


def vertical_segments(drawings: Iterable[dict[str, Any]]) -> Iterable[Segment]:
    for drawing in drawings:
        for item in drawing.get("items", ()):
            yield from _item_segments(item)


def _item_segments(item: tuple[Any, ...]) -> list[Segment]:
    kind = item[0]
    if kind == "l":
        (x0, y0), (x1, y1) = (item[1].x, item[1].y), (item[2].x, item[2].y)
        if abs(x0 - x1) <= 1.0 and abs(y1 - y0) >= MIN_SEGMENT_PT:
            return [((x0 + x1) / 2, min(y0, y1), max(y0, y1))]
        return []
    if kind in ("re", "qu"):
        rect = item[1] if kind == "re" else item[1].rect
        if rect.height < MIN_SEGMENT_PT:
            return []
        if rect.width <= RULE_MAX_THICKNESS_PT:
            return [((rect.x0 + rect.x1) / 2, rect.y0, rect.y1)]
        return [(rect.x0, rect.y0, rect.y1), (rect.x1, rect.y0, rect.y1)]
    return []


def text_centers(block: Block) -> list[float]:
    """Horizontal centres of the table's text spans."""
    return [span.bbox.center_x for line in block.lines for span in line.spans if span.text.strip()]


def filled_columns(cells: Sequence[Sequence[str]]) -> int:
    """Columns with text in at least one row (empty columns are not a disagreement)."""
    width = max((len(row) for row in cells), default=0)
    return sum(1 for j in range(width) if any(j < len(r) and r[j].strip() for r in cells))


def ruled_columns(segments: Sequence[Segment], box: BBox, centers: Sequence[float]) -> int | None:
    """Columns between the drawn boundaries inside `box` that hold text (`centers`); None
    without an interior boundary. Empty slivers (nested frames, logo cells) do not count."""
    inside = [
        (x, max(top, box.top), min(bottom, box.bottom))
        for x, top, bottom in segments
        if box.x0 + EDGE_MARGIN_PT < x < box.x1 - EDGE_MARGIN_PT
        and min(bottom, box.bottom) > max(top, box.top)
    ]
    boundaries = [
        group for group in _group_by_x(inside) if _coverage(group) >= MIN_COVERAGE * box.height
    ]
    if not boundaries or box.height <= 0:
        return None
    edges = [box.x0] + [group[0][0] for group in boundaries] + [box.x1]
    return sum(
        1
        for left, right in zip(edges, edges[1:], strict=False)
        if any(left <= x < right for x in centers)
    )


def _group_by_x(segments: list[Segment]) -> list[list[Segment]]:
    groups: list[list[Segment]] = []
    for segment in sorted(segments):
        if groups and segment[0] - groups[-1][-1][0] <= SAME_X_PT:
            groups[-1].append(segment)
        else:
            groups.append([segment])
    return groups


def _coverage(group: list[Segment]) -> float:
    """Length of the union of the segments' vertical extents."""
    covered, reach = 0.0, float("-inf")
    for _, top, bottom in sorted(group, key=lambda s: s[1]):
        start = max(top, reach)
        if bottom > start:
            covered += bottom - start
        reach = max(reach, bottom)
    return covered


def table_blocks(document: Document) -> list[Block]:
    return [b for page in document.pages for b in page.blocks if b.kind == BlockKind.TABLE]

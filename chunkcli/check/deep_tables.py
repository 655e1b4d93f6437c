"""Table blocks of a converted PDF + pdfplumber's own table finder -> Issues: tables whose column
or row count differs from an independent reading of the page.

pdfplumber reads about 10 pages/s here (MuPDF-based convert is far faster), so this runs only
with `--deep` and only on pages where convert found a table. It reads the PDF again, so, like
rulings.py, it is called by the corpus runner, not by `check_conversion`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from chunkcli.check.rulings import filled_columns, table_blocks
from chunkcli.model import BBox, Block, Issue, Severity

# pdfplumber's table and convert's table are one table when their boxes overlap by at least this
# share of the smaller box.
SAME_TABLE_OVERLAP = 0.5

Counts = tuple[BBox, int, int]  # (box, columns, rows) of one table found by pdfplumber


def check_deep_tables(path: str | Path, blocks: Sequence[Block]) -> list[Issue]:
    """Count disagreements for every table block that pdfplumber also finds."""
    if not blocks:
        return []
    found = plumber_tables(path, sorted({b.page for b in blocks}))
    issues: list[Issue] = []
    for block in blocks:
        other = matching(block.bbox, found.get(block.page, []))
        if other is None:
            continue
        columns, rows = filled_columns(block.cells), len(block.cells)
        if (columns, rows) == other[1:]:
            continue
        issues.append(
            Issue(
                "table.counts-differ",
                Severity.WARN,
                f"table on page {block.page}: convert found {columns} columns x {rows} rows, "
                f"pdfplumber {other[1]} x {other[2]}",
                page=block.page,
            )
        )
    return issues


def plumber_tables(path: str | Path, pages: Sequence[int]) -> dict[int, list[Counts]]:
    """Tables pdfplumber finds on the given 1-based pages ({} when the file cannot be read)."""
    import pdfplumber

    # pdfminer logs what it cannot parse (a damaged inline image) to stderr: a second opinion
    # says nothing when it cannot be had, so its own messages stay quiet too.
    logging.getLogger("pdfminer").setLevel(logging.CRITICAL)
    found: dict[int, list[Counts]] = {}
    try:
        with pdfplumber.open(str(path)) as pdf:
            for number in pages:
                if 1 <= number <= len(pdf.pages):
                    found[number] = page_tables(pdf.pages[number - 1])
    except Exception:  # noqa: BLE001 - a second opinion that cannot be had says nothing
        return {}
    return found


def page_tables(page: object) -> list[Counts]:
    counts: list[Counts] = []
    for table in page.find_tables():  # type: ignore[attr-defined]
        rows = [[cell or "" for cell in row] for row in table.extract()]
        x0, top, x1, bottom = table.bbox
        counts.append((BBox(x0, top, x1, bottom), filled_columns(rows), len(rows)))
    return counts


def matching(box: BBox, candidates: Sequence[Counts]) -> Counts | None:
    for candidate in candidates:
        other = candidate[0]
        width = min(box.x1, other.x1) - max(box.x0, other.x0)
        height = min(box.bottom, other.bottom) - max(box.top, other.top)
        smaller = min(box.width * box.height, other.width * other.height)
        overlap = max(0.0, width) * max(0.0, height)
        if smaller > 0 and overlap >= SAME_TABLE_OVERLAP * smaller:
            return candidate
    return None


__all__ = ["check_deep_tables", "table_blocks"]

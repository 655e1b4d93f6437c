"""GFM tables -> Issues: rows whose cell count differs from the header's, empty header rows."""

from __future__ import annotations

from chunkcli.check.scan import ScannedMarkdown, Table
from chunkcli.check.wording import where
from chunkcli.model import Issue, Severity


def check_tables(scan: ScannedMarkdown) -> list[Issue]:
    """Every table issue, one or two per faulty table, in document order."""
    issues: list[Issue] = []
    for table in scan.tables:
        issues.extend(cell_count_mismatch(table))
        issues.extend(empty_header(table))
    return issues


def cell_count_mismatch(table: Table) -> list[Issue]:
    expected = len(table.header.cells)
    place = where(table.line, table.page)
    if len(table.delimiter.cells) != expected:
        return [
            Issue(
                "table.delimiter-cells",
                Severity.FAIL,
                f"table at {place}: the header has {expected} cells but the delimiter row has "
                f"{len(table.delimiter.cells)} (renderers will not show it as a table)",
                line=table.line,
                page=table.page,
            )
        ]
    bad_rows = [row for row in table.rows if len(row.cells) != expected]
    if not bad_rows:
        return []
    first = bad_rows[0]
    return [
        Issue(
            "table.row-cells",
            Severity.FAIL,
            f"table at {place}: {len(bad_rows)} of {len(table.rows)} rows do not have the "
            f"header's {expected} cells (first: line {first.line} has {len(first.cells)})",
            line=table.line,
            page=table.page,
        )
    ]


def empty_header(table: Table) -> list[Issue]:
    if any(cell for cell in table.header.cells):
        return []
    return [
        Issue(
            "table.empty-header",
            Severity.WARN,
            f"table at {where(table.line, table.page)} has an empty header row: "
            "its columns have no names to retrieve by",
            line=table.line,
            page=table.page,
        )
    ]

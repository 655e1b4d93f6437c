"""A converted PDF's line boxes + its Markdown -> Issues: columns read across instead of down.

Two lines that sit side by side on the page (the same height, a gutter between them) belong to
different columns; found next to each other inside one Markdown paragraph, the columns were
interleaved line by line. This reads geometry, so it speaks only when check has the PDF; the
prose-based `reading-order.interrupted` covers Markdown from other tools.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from chunkcli.check.options import FindingLimits
from chunkcli.check.scan import ScannedMarkdown
from chunkcli.check.wording import examples, pages_phrase, quote
from chunkcli.model import Block, BlockKind, Document, Issue, Line, Severity

# Side by side: vertical overlap of at least this share of the shorter line ...
SAME_ROW_OVERLAP = 0.6
# ... and a horizontal gap of at least this many times the font size (a column gutter, not the
# space between two words of one line).
GUTTER_SIZES = 1.5
# Lines this short ("3", "Fig. 2") match by chance; only lines with this many characters count.
MIN_LINE_CHARS = 12
SKIPPED_KINDS = (BlockKind.TABLE, BlockKind.FURNITURE, BlockKind.CODE)


def check_columns(
    scan: ScannedMarkdown, document: Document, limits: FindingLimits = FindingLimits()
) -> list[Issue]:
    paragraphs: dict[int | None, list[str]] = defaultdict(list)
    for paragraph in scan.paragraphs:
        paragraphs[paragraph.page].append(" ".join(paragraph.text.split()))
    found: list[tuple[int, str, str]] = []
    for page in document.pages:
        texts = paragraphs.get(page.number, [])
        for left, right in side_by_side(page.blocks):
            a, b = flat(left), flat(right)
            if any(f"{a} {b}" in text or f"{b} {a}" in text for text in texts):
                found.append((page.number, a, b))
    if len(found) < limits.interleaved_warn:
        return []
    severity = Severity.FAIL if len(found) >= limits.interleaved_fail else Severity.WARN
    shown = [f"{quote(a, 25)} + {quote(b, 25)} (page {p})" for p, a, b in found]
    return [
        Issue(
            "reading-order.columns",
            severity,
            f"{len(found)} pairs of lines side by side on the page (columns) are adjacent in one "
            f"paragraph on {pages_phrase(p for p, _, _ in found)}: columns interleaved, e.g. "
            f"{examples(shown)}",
            page=found[0][0],
        )
    ]


def flat(line: Line) -> str:
    return " ".join(line.text.split())


def side_by_side(blocks: tuple[Block, ...]) -> Iterator[tuple[Line, Line]]:
    """(left, right) pairs of text lines in one row of the page with a gutter between them."""
    lines = [
        line
        for block in blocks
        if block.kind not in SKIPPED_KINDS
        for line in block.lines
        if not line.vertical and len(line.text.strip()) >= MIN_LINE_CHARS
    ]
    lines.sort(key=lambda line: (line.bbox.top, line.bbox.x0))
    for i, left in enumerate(lines):
        for right in lines[i + 1 :]:
            if right.bbox.top > left.bbox.bottom:
                break
            first, second = (left, right) if left.bbox.x0 <= right.bbox.x0 else (right, left)
            overlap = min(first.bbox.bottom, second.bbox.bottom) - max(
                first.bbox.top, second.bbox.top
            )
            shorter = min(first.bbox.height, second.bbox.height)
            gap = second.bbox.x0 - first.bbox.x1
            if (
                shorter > 0
                and overlap >= SAME_ROW_OVERLAP * shorter
                and (gap >= GUTTER_SIZES * max(first.size, second.size))
            ):
                yield first, second

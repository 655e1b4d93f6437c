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

# Side by side: vertical overlap of at least this share of the shorter line (columns set on
# different baseline grids overlap by 30-70 %; a reader that sorts lines by their tops reads
# them across all the same: the harness's injected interleaving; false pairs are kept out by the
# gutter test below) ...
SAME_ROW_OVERLAP = 0.3
# ... and a horizontal gap of at least this many times the font size (a column gutter, not the
# space between two words of one line: a word space is 0.25-0.5 em). DP-Bench's book pages set
# 11 pt type with 12 pt gutters (01030000000011-13); 1.5 missed them.
GUTTER_SIZES = 1.0
# Lines this short ("3", "Fig. 2") match by chance; only lines with this many characters count.
# (4 for one line of the pair was tried, 2026-12-04: an infobox's labels beside a paragraph,
# "House", "Father", were found, but so were words of the other column's text by chance,
# "cirrhosis" beside "are present." of "signs of cirrhosis are present", "대표발의)" beside a
# line of bills: 3 of 4 new clean false alarms.)
MIN_LINE_CHARS = 12
# A gutter is a white channel down the page: no other line runs across it (from before the end
# of the left-hand line to past the start of the right-hand one) within this many line heights
# above or below. Pieces of one line (a run-in head and its text, justified text split at wide
# spaces, a formula) have lines of their column running across just above or below; a second
# column has none (a left-hand line shorter than its column may end anywhere, so only the
# right edge is tested, and a right-hand column's own lines that start further left, a hanging
# indent or an index's main entry, start inside the gutter and do not cross it: the misses at
# 3 of seeds 1-20, two-column references and an index). Issue 25: a three-column register was
# flagged on correctly joined lines of one column; with this test the clean corpus
# conversions have no pair and 39 of 40 injected interleavings are found.
GUTTER_CLEAR_LINES = 2.0
# A column is a block of several lines: a pair of one-line blocks side by side is a legend, a
# label row or a form (a legend "ーーー Line : 1mm 以上" twice in a row was the one pair on the
# clean corpus conversions once the gutter test was in).
MIN_BLOCK_LINES = 2
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
        following = next_lines(page.blocks)
        for left, right in side_by_side(page.blocks):
            a, b = flat(left), flat(right)
            joined = [f"{x} {y}" for x, y in ((a, b), (b, a)) if y not in following.get(x, ())]
            if any(pair in text for pair in joined for text in texts):
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


def next_lines(blocks: tuple[Block, ...]) -> dict[str, set[str]]:
    """Each line's text -> the text of the line after it in its block: two lines side by side
    whose texts follow each other in one column ("Dvul, vulnerability dataset" over "1vul,
    vulnerability judge", a line the other column holds too) are adjacent in the Markdown by
    that column's own order, not by reading across."""
    following: dict[str, set[str]] = defaultdict(set)
    for block in blocks:
        for line, after in zip(block.lines, block.lines[1:], strict=False):
            following[flat(line)].add(flat(after))
    return following


def side_by_side(blocks: tuple[Block, ...]) -> Iterator[tuple[Line, Line]]:
    """(left, right) pairs of text lines in one row of the page with a gutter between them."""
    lines = [
        line
        for block in blocks
        if block.kind not in SKIPPED_KINDS and len(block.lines) >= MIN_BLOCK_LINES
        for line in block.lines
        if not line.vertical and len(line.text.strip()) >= MIN_LINE_CHARS
    ]
    every = [line for block in blocks for line in block.lines if not line.vertical]
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
                and gutter_is_clear(first, second, every)
            ):
                yield first, second


def gutter_is_clear(first: Line, second: Line, lines: list[Line]) -> bool:
    """Whether no line near `first` and `second` (GUTTER_CLEAR_LINES line heights above or
    below) runs across the gutter between them, from before the end of `first` to past the
    left edge of `second` (see GUTTER_CLEAR_LINES)."""
    reach = GUTTER_CLEAR_LINES * max(first.bbox.height, second.bbox.height)
    top = min(first.bbox.top, second.bbox.top) - reach
    bottom = max(first.bbox.bottom, second.bbox.bottom) + reach
    edge = second.bbox.x0
    return not any(
        line.bbox.bottom > top
        and line.bbox.top < bottom
        and line.bbox.x0 < first.bbox.x1 - 1.0
        and line.bbox.x1 > edge + 1.0
        for line in lines
    )

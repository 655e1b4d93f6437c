"""Lines repeated across many pages (or chunks) -> Issues: running headers, footers, legal notes.

Only paragraph lines count: repeated headings have their own check, and table rows and list items
repeat legitimately. Numbers are ignored when comparing, so "Page 3 of 9" matches "Page 4 of 9".
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from chunkcli.check.options import CheckOptions
from chunkcli.check.scan import LineKind, LineView, ScannedMarkdown
from chunkcli.check.wording import quote
from chunkcli.model import Chunk, Issue, Severity

DIGITS = re.compile(r"\d+")
MARKUP = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+|[*_`]")
# A line needs this many letters to count: shorter ones ("Yes", "N/A") repeat innocently.
MIN_LETTERS = 4
# Only the most repeated lines become issues; the report's count still covers them all.
MAX_ISSUES = 5
# With page markers, a header or footer left in the text sits among the first or last few lines
# of its page; a sentence repeated mid-page ("as set out in Annex 2.") is content.
PAGE_EDGE_LINES = 2


@dataclass(frozen=True, slots=True)
class BoilerplateFindings:
    lines: int  # distinct repeated lines found
    issues: tuple[Issue, ...]


def line_key(text: str) -> str:
    """A line compared loosely: list markers, emphasis, spacing and numbers ignored."""
    return DIGITS.sub("#", " ".join(MARKUP.sub("", text).split()))


def page_edge_rows(scan: ScannedMarkdown) -> set[int]:
    """Rows (in the index) of the first or last PAGE_EDGE_LINES content lines of each page."""
    lines, edge = scan.lines, PAGE_EDGE_LINES
    by_page: dict[int | None, list[int]] = defaultdict(list)
    pages, rows = lines.pages(), lines.rows
    for start, end in lines.marker_runs():  # (a page's first and last lines are its runs')
        run = rows[start:end]
        by_page[pages[start]] += run if len(run) <= 2 * edge else run[:edge] + run[-edge:]
    edges: set[int] = set()
    for page_rows in by_page.values():
        edges.update(page_rows[:edge] + page_rows[-edge:])
    return edges


def candidate_lines(scan: ScannedMarkdown) -> tuple[LineView, dict[str, list[int]]]:
    """The paragraph lines, and the positions among them of those with letters by line_key (at
    a page's edge, when there are pages): positions, not records, as every line may be one."""
    groups: dict[str, list[int]] = defaultdict(list)
    edges = page_edge_rows(scan) if scan.markers else None
    keys = KeyCache()
    # (list items repeat by design: "- Source: ECHA"; so do a figure's words: "Source: …")
    paragraph_lines = scan.outside_figures(scan.lines.only((LineKind.PARAGRAPH,)))
    texts = zip(paragraph_lines.rows, paragraph_lines.texts(), strict=True)
    for position, (row, text) in enumerate(texts):
        if edges is not None and row not in edges:
            continue
        key = keys[text]
        if key is not None:
            groups[key].append(position)
    return paragraph_lines, groups


class KeyCache(dict[str, str | None]):
    """line text -> its line_key, or None when it has too few letters to count; each distinct
    text keyed once (repeated lines are what this check is about), in __missing__ so that a
    text seen before costs one dictionary lookup."""

    def __missing__(self, text: str) -> str | None:
        key = line_key(text)
        self[text] = found = key if has_letters(key, MIN_LETTERS) else None
        return found


def has_letters(text: str, wanted: int) -> bool:
    """Whether `text` holds at least `wanted` letters (it stops at the last one needed)."""
    for char in text:
        if char.isalpha():
            wanted -= 1
            if wanted <= 0:
                return True
    return wanted <= 0


def check_boilerplate(
    scan: ScannedMarkdown, chunks: Sequence[Chunk], options: CheckOptions
) -> BoilerplateFindings:
    """Repeated lines, counted on distinct pages when the Markdown has page markers, else chunks."""
    lines, groups = candidate_lines(scan)
    if scan.markers:
        page = lines.page
        spread = {key: {page(at) or 0 for at in positions} for key, positions in groups.items()}
        unit, total = "pages", max(scan.text_page_count, len(set(scan.lines.pages())))
    else:
        spread = chunk_spread(set(groups), chunks)
        unit, total = "chunks", len(chunks)
    needed = max(options.boilerplate_min_repeats, options.boilerplate_share * total)
    repeated = [key for key, units in spread.items() if len(units) >= needed]
    repeated.sort(key=lambda key: (-len(spread[key]), groups[key][0]))
    firsts = {key: lines[groups[key][0]] for key in repeated[:MAX_ISSUES]}
    issues = [
        Issue(
            "boilerplate.repeated-line",
            Severity.WARN,
            f"line {quote(first.text)} repeats on {len(spread[key])} of {total} {unit}: "
            "a running header or footer left in the text?",
            line=first.number,
            page=first.page,
        )
        for key, first in firsts.items()
    ]
    return BoilerplateFindings(len(repeated), tuple(issues))


def chunk_spread(keys: set[str], chunks: Sequence[Chunk]) -> dict[str, set[int]]:
    spread: dict[str, set[int]] = defaultdict(set)
    line_keys = KeyCache()
    for index, chunk in enumerate(chunks):
        for text in set(chunk.body.splitlines()):  # a line repeated in a chunk counts once
            key = line_keys[text]
            if key in keys:
                spread[key].add(index)
    return spread

"""Headings -> Issues: none, flat, skipped levels, several H1, running heads left as headings."""

from __future__ import annotations

import itertools
import re
from array import array
from collections import Counter, defaultdict

from chunkcli.check.options import CheckOptions, FindingLimits
from chunkcli.check.scan import Headings, LineKind, ScannedMarkdown, TextLine
from chunkcli.check.wording import MAX_EXAMPLES, examples, page_ranges, quote
from chunkcli.model import Issue, Severity

# How long a document must be for a flat outline to matter, how many skipped levels warn and
# how often a running head must repeat: CheckOptions.limits (FindingLimits), with the evidence.
# A document whose content lines are at least this share table rows (a statistics sheet) is cut
# by table rows, each part repeating the header: it does not need headings.
MOSTLY_TABLES_SHARE = 0.5
# "2", "2.1", "2.1.3" at the start of a heading: its depth in the document's own numbering.
SECTION_NUMBER = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,3})*)\.?\s+\S")


def heading_key(text: str) -> str:
    """Heading text compared loosely: case and spacing ignored, numbers kept ('Article 3' and
    'Article 4' are different sections, not one running head)."""
    return " ".join(text.casefold().split())


# The checks read the headings' levels and texts (read once by the scan) where they can: a
# document of headings alone is 500,000 of them in 2 MB, and a record each is made only for
# those reported.


def count_by_level(headings: Headings) -> tuple[int, int, int, int, int, int]:
    counts = Counter(headings.levels)
    return (counts[1], counts[2], counts[3], counts[4], counts[5], counts[6])


def check_headings(scan: ScannedMarkdown, chunk_count: int, options: CheckOptions) -> list[Issue]:
    """Every heading issue of one document, in a stable order."""
    headings = scan.headings
    if not headings:
        needs_headings = chunk_count > 1 and not mostly_tables(scan)
        return [no_headings(chunk_count)] if needs_headings else []
    issues = flat_hierarchy(scan, chunk_count, options.limits)
    issues.extend(skipped_levels(headings, options.limits))
    issues.extend(several_h1(headings))
    issues.extend(repeated_headings(scan, chunk_count, options))
    return issues


def mostly_tables(scan: ScannedMarkdown) -> bool:
    """A document that is mostly table rows is split by rows, headings or not."""
    table_lines = scan.lines.count_kind(LineKind.TABLE)
    return table_lines >= MOSTLY_TABLES_SHARE * len(scan.lines)


def no_headings(chunk_count: int) -> Issue:
    return Issue(
        "headings.none",
        Severity.WARN,
        f"no headings: the splitter falls back to fixed-size windows ({chunk_count} chunks) "
        "and chunks carry no section path",
    )


def numbering_depths(headings: Headings) -> set[int]:
    found = (SECTION_NUMBER.match(text) for text in set(headings.texts))
    return {m.group(1).count(".") + 1 for m in found if m}


def flat_hierarchy(scan: ScannedMarkdown, chunk_count: int, limits: FindingLimits) -> list[Issue]:
    headings = scan.headings
    if len(set(headings.levels)) != 1:
        return []
    numbered = len(numbering_depths(headings)) > 1
    long_document = (
        scan.page_count >= limits.long_document_pages
        if scan.markers
        else chunk_count > limits.long_document_chunks
    )
    if not numbered and not (long_document and len(headings) >= limits.flat_min_headings):
        return []
    why = (
        "although their numbers nest (2 and 2.1)"
        if numbered
        else "in a long document (sections and subsections were not told apart)"
    )
    return [
        Issue(
            "headings.flat",
            Severity.WARN,
            f"flat hierarchy: all {len(headings)} headings are H{headings[0].level} {why}",
            line=headings[0].line,
            page=headings[0].page,
        )
    ]


def skipped_levels(headings: Headings, limits: FindingLimits) -> list[Issue]:
    levels, texts = headings.levels, headings.texts
    skips = [  # the row of each heading that skips a level, after the one before it
        row + 1
        for row, (before, after) in enumerate(zip(levels, levels[1:], strict=False))
        if after > before + 1
    ]
    if not skips:
        return []
    described = [
        f"H{levels[row - 1]} {quote(texts[row - 1], 30)} -> H{levels[row]} "
        f"{quote(texts[row], 30)} (line {headings[row].number})"
        for row in skips[: MAX_EXAMPLES + 1]  # (one more than shown: examples() adds "...")
    ]
    systematic = len(skips) >= limits.skipped_level_min
    first = headings[skips[0]]
    return [
        Issue(
            "headings.skipped-level",
            Severity.WARN if systematic else Severity.OK,
            f"{len(skips)} heading(s) skip a level: {examples(described)}",
            line=first.line,
            page=first.page,
        )
    ]


def several_h1(headings: Headings) -> list[Issue]:
    h1_count = headings.levels.count(1)
    if h1_count < 2:
        return []
    h1s: list[TextLine] = []
    row = headings.levels.find(1)
    while row >= 0 and len(h1s) < 5:
        h1s.append(headings[row])
        row = headings.levels.find(1, row + 1)
    lines = ", ".join(str(h.line) for h in h1s) + (", ..." if h1_count > 5 else "")
    return [
        Issue(
            "headings.several-h1",
            Severity.WARN,
            f"{h1_count} H1 headings (lines {lines}): expected one document title",
            line=h1s[1].line,
            page=h1s[1].page,
        )
    ]


def repeated_headings(
    scan: ScannedMarkdown, chunk_count: int, options: CheckOptions
) -> list[Issue]:
    """Headings on many pages (or, without page markers, in many chunks' worth of text)."""
    total = scan.text_page_count if scan.markers else chunk_count
    needed = max(options.limits.repeated_heading_min, options.boilerplate_share * total)
    issues: list[Issue] = []
    groups = frequent_headings(scan.headings, needed)
    headings = scan.headings
    for rows in sorted(groups.values(), key=lambda rows: (-len(rows), rows[0])):
        pages = {page for page in headings.pages(rows) if page is not None}
        spread = len(pages) if scan.markers else len(rows)
        if spread < needed:
            continue
        on_pages = f" on {len(pages)} of {total} pages ({page_ranges(pages)})" if pages else ""
        issues.append(
            Issue(
                "headings.repeated",
                Severity.WARN,
                f"heading {quote(headings[rows[0]].text)} appears {len(rows)} times{on_pages}: "
                "a running head left in the text?",
                line=headings[rows[0]].line,
                page=headings[rows[0]].page,
            )
        )
    return issues


def frequent_headings(headings: Headings, needed: float) -> dict[str, array[int]]:
    """The rows of each heading_key that occurs at least `needed` times (a heading repeats on
    no more pages than it occurs): each distinct text keyed once, the rest never grouped."""
    texts = headings.texts
    text_counts = Counter(texts)
    keys = {text: heading_key(text) for text in text_counts if text}
    key_counts: Counter[str] = Counter()
    for text, key in keys.items():
        key_counts[key] += text_counts[text]
    frequent = {text for text, key in keys.items() if key_counts[key] >= needed}
    # Rows in arrays, picked without a Python step per heading (a list of a row int each was
    # 36 bytes a heading: 9 times the input on 2 MB of `# h`).
    rows = itertools.compress(itertools.count(), map(frequent.__contains__, texts))
    if len({keys[text] for text in frequent}) == 1:  # (one running head: no grouping)
        return {keys[next(iter(frequent))]: array("q", rows)} if frequent else {}
    groups: dict[str, array[int]] = defaultdict(lambda: array("q"))
    for row in rows:
        groups[keys[texts[row]]].append(row)
    return groups

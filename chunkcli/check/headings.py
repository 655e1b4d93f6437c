"""Headings -> Issues: none, flat, skipped levels, several H1, running heads left as headings."""

from __future__ import annotations

from collections import Counter, defaultdict

from chunkcli.check.scan import Heading, ScannedMarkdown
from chunkcli.check.wording import examples, page_ranges, quote
from chunkcli.model import Issue, Severity

# A document that needs more than this many chunks is "long": without headings or with only one
# level the splitter cuts it into windows or equal siblings, and the heading path says nothing.
LONG_DOCUMENT_CHUNKS = 10
# ... or has at least this many pages.
LONG_DOCUMENT_PAGES = 10
# One level is "flat" only past a handful of headings: five H2s in a memo are a fine outline.
FLAT_MIN_HEADINGS = 6
# The same heading text this many times (on as many distinct pages, when pages are known) is a
# running head that became a heading: "Example" twice is normal, on 3+ pages it is not.
REPEATED_HEADING_MIN = 3


def heading_key(text: str) -> str:
    """Heading text compared loosely: case and spacing ignored, numbers kept ('Article 3' and
    'Article 4' are different sections, not one running head)."""
    return " ".join(text.casefold().split())


def count_by_level(headings: tuple[Heading, ...]) -> tuple[int, int, int, int, int, int]:
    counts = Counter(h.level for h in headings)
    return (counts[1], counts[2], counts[3], counts[4], counts[5], counts[6])


def check_headings(scan: ScannedMarkdown, chunk_count: int) -> list[Issue]:
    """Every heading issue of one document, in a stable order."""
    headings = scan.headings
    long_document = chunk_count > LONG_DOCUMENT_CHUNKS or scan.page_count >= LONG_DOCUMENT_PAGES
    issues: list[Issue] = []
    if not headings:
        if chunk_count > 1:
            issues.append(no_headings(chunk_count))
        return issues
    levels = {h.level for h in headings}
    if long_document and len(levels) == 1 and len(headings) >= FLAT_MIN_HEADINGS:
        issues.append(flat_hierarchy(headings))
    issues.extend(skipped_levels(headings))
    issues.extend(several_h1(headings))
    issues.extend(repeated_headings(headings, pages_known=bool(scan.markers)))
    return issues


def no_headings(chunk_count: int) -> Issue:
    return Issue(
        "headings.none",
        Severity.WARN,
        f"no headings: the splitter falls back to fixed-size windows ({chunk_count} chunks) "
        "and chunks carry no section path",
    )


def flat_hierarchy(headings: tuple[Heading, ...]) -> Issue:
    level = headings[0].level
    return Issue(
        "headings.flat",
        Severity.WARN,
        f"flat hierarchy: all {len(headings)} headings are H{level} in a long document "
        "(sections and subsections were not told apart)",
        line=headings[0].line,
        page=headings[0].page,
    )


def skipped_levels(headings: tuple[Heading, ...]) -> list[Issue]:
    skips = [
        (before, after)
        for before, after in zip(headings, headings[1:], strict=False)
        if after.level > before.level + 1
    ]
    if not skips:
        return []
    described = [
        f"H{a.level} {quote(a.text, 30)} -> H{b.level} {quote(b.text, 30)} (line {b.line})"
        for a, b in skips
    ]
    first = skips[0][1]
    return [
        Issue(
            "headings.skipped-level",
            Severity.WARN,
            f"{len(skips)} heading(s) skip a level: {examples(described)}",
            line=first.line,
            page=first.page,
        )
    ]


def several_h1(headings: tuple[Heading, ...]) -> list[Issue]:
    h1s = [h for h in headings if h.level == 1]
    if len(h1s) < 2:
        return []
    lines = ", ".join(str(h.line) for h in h1s[:5]) + (", ..." if len(h1s) > 5 else "")
    return [
        Issue(
            "headings.several-h1",
            Severity.WARN,
            f"{len(h1s)} H1 headings (lines {lines}): expected one document title",
            line=h1s[1].line,
            page=h1s[1].page,
        )
    ]


def repeated_headings(headings: tuple[Heading, ...], pages_known: bool) -> list[Issue]:
    groups: dict[str, list[Heading]] = defaultdict(list)
    for heading in headings:
        if heading.text:
            groups[heading_key(heading.text)].append(heading)
    issues: list[Issue] = []
    for group in sorted(groups.values(), key=lambda g: (-len(g), g[0].line)):
        pages = {h.page for h in group if h.page is not None}
        spread = len(pages) if pages_known else len(group)
        if len(group) < REPEATED_HEADING_MIN or spread < REPEATED_HEADING_MIN:
            continue
        on_pages = f" on pages {page_ranges(pages)}" if pages_known else ""
        issues.append(
            Issue(
                "headings.repeated",
                Severity.WARN,
                f"heading {quote(group[0].text)} appears {len(group)} times{on_pages}: "
                "a running head left in the text?",
                line=group[0].line,
                page=group[0].page,
            )
        )
    return issues

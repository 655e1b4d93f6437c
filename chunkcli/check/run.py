"""check_markdown / check_conversion: one document -> its DocumentReport.

Each check reads the scanned Markdown (and chunks, and page statuses when a PDF was converted)
and returns Issues; this module runs them in a fixed order and sums up the document.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from chunkcli.check.articles import check_articles
from chunkcli.check.boilerplate import check_boilerplate
from chunkcli.check.chunks import check_chunks
from chunkcli.check.columns import check_columns
from chunkcli.check.figures import check_figures
from chunkcli.check.heading_placement import check_heading_placement, check_heading_shapes
from chunkcli.check.headings import check_headings, count_by_level
from chunkcli.check.hidden_text import check_hidden_text
from chunkcli.check.items import check_items
from chunkcli.check.ocr import check_ocr, check_ocr_skipped
from chunkcli.check.options import CheckOptions
from chunkcli.check.pages import check_pages
from chunkcli.check.reading_order import check_reading_order
from chunkcli.check.report import (
    DocumentReport,
    apply_strictness,
    with_more_issues,
    worst,
)
from chunkcli.check.scan import ScannedMarkdown, scan_markdown
from chunkcli.check.table_headers import check_table_headers
from chunkcli.check.tables import check_tables
from chunkcli.check.titles import check_titles
from chunkcli.check.word_boundaries import check_word_boundaries
from chunkcli.gcpause import cycle_collector_paused
from chunkcli.markdown_format import (
    hidden_text_runs,
    ocr_confidences,
    ocr_skipped_pages,
    parse_boxes,
)
from chunkcli.model import BlockKind, Chunk, ConvertResult, PageStatus
from chunkcli.split.options import SplitMode, SplitOptions
from chunkcli.split.run import split_markdown

# A4 in square points: min_chars_per_page is meant for a page of about this size.
A4_AREA = 595.0 * 842.0


def check_markdown(
    markdown: str,
    options: CheckOptions = CheckOptions(),
    *,
    source: str = "",
    chunks: Sequence[Chunk] | None = None,
) -> DocumentReport:
    """Check Markdown alone; pages and their status come from `<!-- page N ... -->` markers.

    Without `chunks`, the Markdown is split as `chunkcli split` would (max_tokens from options).
    """
    # Split before the scan: the splitter's working records are freed before the scan's line
    # records exist, so peak memory is the larger of the two, not their sum.
    if chunks is None:
        chunks = make_chunks(markdown, options, source)
    # (see chunkcli.gcpause; 2 MB of page markers: 0.92-1.15 -> 0.78-0.89 s CPU, 2026-12-02)
    with cycle_collector_paused():
        scan = scan_markdown(markdown)
        statuses = {marker.number: marker.status for marker in scan.markers}
        return build_report(scan, statuses, chunks, source, options)


def check_conversion(
    result: ConvertResult, options: CheckOptions = CheckOptions()
) -> DocumentReport:
    """Check a converted PDF: page statuses from the conversion, the rest from its Markdown."""
    source = result.document.source
    chunks = make_chunks(result.markdown, options, source)  # first: see check_markdown
    statuses = {page.number: page.status for page in result.document.pages}
    with cycle_collector_paused():  # see chunkcli.gcpause
        scan = scan_markdown(result.markdown)
        report = build_report(scan, statuses, chunks, source, options, result)
        columns = check_columns(scan, result.document, options.limits)
    return with_more_issues(report, columns, options.strict)


def make_chunks(markdown: str, options: CheckOptions, source: str) -> list[Chunk]:
    """The chunks `chunkcli split` makes of this Markdown with the check's token limit."""
    split_options = SplitOptions(max_tokens=options.max_tokens, mode=options.mode)
    chunks: list[Chunk] = split_markdown(markdown, split_options, source=source)
    return chunks


def build_report(
    scan: ScannedMarkdown,
    statuses: Mapping[int, PageStatus],
    chunks: Sequence[Chunk],
    source: str,
    options: CheckOptions,
    converted: ConvertResult | None = None,
) -> DocumentReport:
    """Every check's issues on one document; `converted`, when the PDF was converted here,
    gives the pages' sizes and the hidden text removed, which the Markdown does not hold."""
    page_shares, hidden_sample, content_pages = _conversion_facts(converted)
    if content_pages is None:
        content_pages = written_pages(scan.text)
    pages = check_pages(scan, statuses, options, page_shares, content_pages)
    boilerplate = check_boilerplate(scan, chunks, options)
    confidences, skipped = ocr_confidences(scan.text), ocr_skipped_pages(scan.text)
    issues = (
        list(pages.issues)
        + check_ocr(confidences, len(statuses), options)
        + check_hidden_text(hidden_text_runs(scan.text), hidden_sample)
        + check_ocr_skipped(skipped)
        + check_headings(scan, len(chunks), options)
        + check_tables(scan)
        + check_figures(scan, options)
        + [issue for table in scan.tables for issue in check_table_headers(table)]
        + check_titles(scan, chunks)
        + check_heading_placement(scan)
        + check_heading_shapes(scan)
        + check_word_boundaries(scan, options.limits)
        + list(boilerplate.issues)
        + check_reading_order(scan, options.limits)
        + check_chunks(chunks, scan.text, options)
        + (check_articles(scan.text) if _split_as(SplitMode.LAWS, chunks, options) else [])
        + (check_items(chunks, scan.text) if _split_as(SplitMode.ITEMS, chunks, options) else [])
    )
    final = apply_strictness(issues, options.strict)
    return DocumentReport(
        source=source,
        pages=len(statuses),
        headings_by_level=count_by_level(scan.headings),
        max_heading_depth=max(scan.headings.levels, default=0),
        tables=len(scan.tables),
        empty_pages=pages.blank,
        scanned_pages=pages.scanned,
        garbage_pages=pages.garbage,
        boilerplate_lines=boilerplate.lines,
        chunks=len(chunks),
        tokens=sum(chunk.tokens for chunk in chunks),
        status=worst([issue.severity for issue in final]),
        issues=final,
        ocr_pages=tuple(sorted(confidences.items())),
        ocr_skipped_pages=tuple(sorted(skipped)),
    )


def _conversion_facts(
    converted: ConvertResult | None,
) -> tuple[dict[int, float] | None, str, frozenset[int] | None]:
    """Each page's area as a share of A4, the start of the first hidden text removed, and the
    pages with text other than running heads and page numbers."""
    if converted is None:
        return None, "", None
    shares = {p.number: min(1.0, p.width * p.height / A4_AREA) for p in converted.pages}
    sample = next((p.hidden.sample for p in converted.pages if p.hidden is not None), "")
    content = frozenset(
        page.number
        for page in converted.pages
        if any(
            block.kind != BlockKind.FURNITURE and any(line.text.strip() for line in block.lines)
            for block in page.blocks
        )
    )
    return shares, sample, content


def written_pages(markdown: str) -> frozenset[int] | None:
    """The pages convert wrote text on, as its boxes trailer lists them (one line for each page
    with text: a page whose only text was a running head or page number, dropped as furniture,
    has none); None without a trailer. (On the clean conversions of ../shared/corpus and
    DP-Bench the pages with text under their marker and those with a boxes line were the same,
    2,285 of 2,285 and 101 of 101.)"""
    trailer = parse_boxes(markdown)
    return None if trailer is None else frozenset(trailer.pages)


def _split_as(mode: SplitMode, chunks: Sequence[Chunk], options: CheckOptions) -> bool:
    """Whether the chunks were made by `mode` (auto records the mode it picked)."""
    if options.mode == mode:
        return True
    return bool(chunks) and chunks[0].split_config.get("mode") == mode

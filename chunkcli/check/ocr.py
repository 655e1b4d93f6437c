"""OCR pages -> Issues: pages read with low confidence, and documents that came mostly from OCR.

The confidences come from the page markers convert writes (`<!-- page 3: ocr conf=0.62 ... -->`),
so a converted PDF and its Markdown are judged alike.
"""

from __future__ import annotations

from collections.abc import Mapping

from chunkcli.check.options import CheckOptions
from chunkcli.check.wording import pages_phrase
from chunkcli.model import Issue, Severity


def check_ocr_skipped(skipped: Mapping[int, str]) -> list[Issue]:
    """A failure naming the pages that needed OCR and were left unread (a time limit ran out
    first): their text is missing from the index, and nothing else would say so."""
    if not skipped:
        return []
    pages = sorted(skipped)
    reasons = ", ".join(sorted(set(skipped.values())))
    return [
        Issue(
            "pages.ocr-skipped",
            Severity.FAIL,
            f"{pages_phrase(pages)} needed OCR and were not read ({reasons}): their text is "
            "missing; convert again with a higher --ocr-page-time or --timeout (0: no limit)",
            page=pages[0],
        )
    ]


def check_ocr(
    confidences: Mapping[int, float], page_count: int, options: CheckOptions
) -> list[Issue]:
    """A warning naming the pages below options.ocr_min_confidence; a note when most of the
    document's text came from OCR."""
    if not confidences:
        return []
    issues = []
    low = sorted(p for p, conf in confidences.items() if conf < options.ocr_min_confidence)
    if low:
        worst = min(low, key=lambda p: (confidences[p], p))
        issues.append(
            Issue(
                "pages.ocr-low-confidence",
                Severity.WARN,
                f"OCR confidence below {options.ocr_min_confidence:.2f} on {pages_phrase(low)} "
                f"(lowest {confidences[worst]:.2f} on page {worst}): the text may be wrong; "
                "rescan, or OCR at a higher --ocr-dpi or with the right --ocr-lang",
                page=low[0],
            )
        )
    if len(confidences) >= options.limits.mostly_ocr_share * max(page_count, 1):
        mean = sum(confidences.values()) / len(confidences)
        issues.append(
            Issue(
                "document.mostly-ocr",
                Severity.OK,
                f"{len(confidences)} of {page_count} pages came from OCR (mean confidence "
                f"{mean:.2f}): answers depend on the scan's quality",
                page=min(confidences),
            )
        )
    return issues

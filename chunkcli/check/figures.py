"""Figure blocks -> Issues: figures nothing can retrieve, figure words read with low OCR
confidence, and figure comments that bound no figure.

The figures come from the scan (check/scan.py reads them with the pairing split uses, so a
figure check reports is the block split keeps whole), their parts from markdown_format.
"""

from __future__ import annotations

from collections.abc import Sequence

from chunkcli.check.options import CheckOptions
from chunkcli.check.scan import Figure, FigureFault, ScannedMarkdown
from chunkcli.check.wording import examples, where
from chunkcli.model import Issue, Severity


def check_figures(scan: ScannedMarkdown, options: CheckOptions) -> list[Issue]:
    """One issue per kind of figure finding, each naming the figures (lines, pages)."""
    return (
        empty_figures(scan.figures)
        + low_confidence_figures(scan.figures, options.ocr_min_confidence)
        + broken_figures(scan.figure_faults)
    )


def empty_figures(figures: Sequence[Figure]) -> list[Issue]:
    """A warning for figures with neither caption nor words: a chunk holds only their image
    link, so no query finds them."""
    empty = [f for f in figures if not f.block.caption.strip() and not f.block.words.strip()]
    if not empty:
        return []
    first = empty[0]
    return [
        Issue(
            "figure.empty",
            Severity.WARN,
            f"figures with neither a caption nor words: {len(empty)} of {len(figures)} "
            f"({examples([where(f.line, f.page) for f in empty])}); no query can find them "
            "(convert reads a figure's words by OCR unless --ocr never)",
            line=first.line,
            page=first.page,
        )
    ]


def low_confidence_figures(figures: Sequence[Figure], threshold: float) -> list[Issue]:
    """A warning for figures whose words OCR read below `threshold` (the pages' threshold,
    --ocr-min-confidence), naming the lowest."""
    low = [
        f
        for f in figures
        if f.block.ocr_confidence is not None and f.block.ocr_confidence < threshold
    ]
    if not low:
        return []
    worst = min(low, key=lambda f: (f.block.ocr_confidence or 0.0, f.line))
    return [
        Issue(
            "figure.ocr-low-confidence",
            Severity.WARN,
            f"figures whose words OCR read with a confidence below {threshold:.2f}: {len(low)} "
            f"({examples([where(f.line, f.page) for f in low])}; lowest "
            f"{worst.block.ocr_confidence:.2f} at line {worst.line}): the words may be wrong",
            line=low[0].line,
            page=low[0].page,
        )
    ]


def broken_figures(faults: Sequence[FigureFault]) -> list[Issue]:
    """A warning for figure comments that bound no figure: split keeps no block whole there."""
    if not faults:
        return []

    def describe(fault: FigureFault) -> str:
        what = "a start with no end" if fault.opening else "an end with no start"
        return f"{what} at {where(fault.line, fault.page)}"

    return [
        Issue(
            "figure.malformed",
            Severity.WARN,
            f"figure comments that bound no figure: {len(faults)} "
            f"({examples([describe(f) for f in faults])}); a figure is `<!-- figure -->` to "
            "`<!-- /figure -->` with no heading between; the lines are split as ordinary text",
            line=faults[0].line,
            page=faults[0].page,
        )
    ]

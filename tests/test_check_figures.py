"""check and figure blocks: figures nothing finds, figure words OCR read badly, figure comments
that bound no figure; read with the pairing split uses, on Markdown written by hand."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkcli.check import CheckOptions, check_markdown
from chunkcli.check.scan import Figure, FigureFault, scan_markdown
from chunkcli.markdown_format import FigureBlock, format_figure
from chunkcli.model import ChunkKind, Issue, Severity
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.split.counting import counter_per_span
from chunkcli.split.kinds import BlockKind
from chunkcli.split.scan import scan_markdown as split_scan

EMPTY = format_figure(FigureBlock(image="images/a.png"))
LOW = format_figure(FigureBlock("Figure 2. Output", "", "blurry words", 0.41, "tesseract"))
GOOD = format_figure(FigureBlock("Figure 3. Input", "", "Pump Valve", 0.93, "tesseract"))
VECTOR = format_figure(FigureBlock("", "", "North South", None, None))
TEXT = "Pumps move water from the tank to the valve at a rated pressure of 3.5 bar.\n\n"
DOCUMENT = (
    "<!-- page 1 -->\n\n# Pumps\n\n"
    + TEXT
    + f"{EMPTY}\n\n{LOW}\n\n<!-- page 2 -->\n\n"
    + TEXT
    + f"{GOOD}\n\n{VECTOR}\n"
)


def figure_issues(markdown: str, **options: object) -> list[Issue]:
    report = check_markdown(markdown, CheckOptions(**options))  # type: ignore[arg-type]
    return [issue for issue in report.issues if issue.code.startswith("figure.")]


def test_the_scan_reads_every_figure_with_its_parts() -> None:
    scan = scan_markdown(DOCUMENT)
    assert scan.figures == (
        Figure(7, 11, 1, FigureBlock(image="images/a.png")),
        Figure(13, 21, 1, FigureBlock("Figure 2. Output", "", "blurry words", 0.41, "tesseract")),
        Figure(27, 35, 2, FigureBlock("Figure 3. Input", "", "Pump Valve", 0.93, "tesseract")),
        Figure(37, 43, 2, FigureBlock("", "", "North South")),
    )
    assert scan.figure_faults == ()


def test_a_figure_with_neither_caption_nor_words_and_low_confidence_words_warn() -> None:
    assert figure_issues(DOCUMENT) == [
        Issue(
            "figure.empty",
            Severity.WARN,
            "figures with neither a caption nor words: 1 of 4 (line 7, page 1); no query can "
            "find them (convert reads a figure's words by OCR unless --ocr never)",
            line=7,
            page=1,
        ),
        Issue(
            "figure.ocr-low-confidence",
            Severity.WARN,
            "figures whose words OCR read with a confidence below 0.75: 1 (line 13, page 1; "
            "lowest 0.41 at line 13): the words may be wrong",
            line=13,
            page=1,
        ),
    ]
    relaxed = figure_issues(DOCUMENT, ocr_min_confidence=0.4)
    assert [issue.code for issue in relaxed] == ["figure.empty"]


def test_figure_comments_that_bound_no_figure_are_reported_not_fatal() -> None:
    markdown = (
        "# Pumps\n\n<!-- figure -->\n\nFigure 1. Map\n\n## Valves\n\n"
        + TEXT
        + "<!-- /figure -->\n\n<!-- figure -->\n\nFigure 2\n"
    )
    scan = scan_markdown(markdown)
    assert scan.figures == ()
    assert scan.figure_faults == (
        FigureFault(3, None, True),
        FigureFault(11, None, False),
        FigureFault(13, None, True),
    )
    [issue] = figure_issues(markdown)
    assert issue.code == "figure.malformed" and issue.severity is Severity.WARN
    assert issue.line == 3 and issue.message.startswith(
        "figure comments that bound no figure: 3 (a start with no end at line 3; an end with "
        "no start at line 11; a start with no end at line 13)"
    )


def test_check_and_split_agree_on_what_is_a_figure() -> None:
    fenced = f"# Pumps\n\n```\n{EMPTY}\n```\n\n{TEXT}"
    assert scan_markdown(fenced).figures == () and figure_issues(fenced) == []
    chunks = split_markdown(DOCUMENT, SplitOptions(max_tokens=40))
    figures = [c for c in chunks if c.kind is ChunkKind.FIGURE]
    assert len(figures) == len(scan_markdown(DOCUMENT).figures) == 4
    assert [c.images for c in figures] == [("images/a.png",), (), (), ()]


def test_a_document_without_figures_has_no_figure_findings() -> None:
    assert scan_markdown(TEXT).figures == () and figure_issues("# Pumps\n\n" + TEXT) == []


_block = st.sampled_from(
    [
        "<!-- figure -->",
        "<!-- /figure -->",
        "<!-- figure words: text layer -->",
        "<!-- FIGURE  -->",
        "   <!-- /figure -->",
        "    <!-- figure -->",
        "\t<!-- /figure -->",
        "<!-- page 2 -->",
        "# Pumps",
        "## Valves",
        "Figure 1. A map",
        "![a map](img/a.png)",
        "North South 120 80",
        "- an item",
        "```\n<!-- figure -->\n```",
        "| a | b |\n| --- | --- |\n| 1 | 2 |",
        EMPTY,
        LOW,
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_block, max_size=14), st.sampled_from(["\n", "\n\n", "\n\n\n"]))
def test_split_and_check_find_the_same_figures(blocks: list[str], gap: str) -> None:
    markdown = gap.join(blocks) + "\n"
    scan = split_scan(markdown, counter_per_span(markdown, len))
    split_lines = [
        (markdown.count("\n", 0, piece.start) + 1, piece)
        for piece in scan.pieces
        if piece.kind is BlockKind.FIGURE
    ]
    checked = scan_markdown(markdown)
    assert [line for line, _ in split_lines] == [figure.line for figure in checked.figures]
    for (_, piece), figure in zip(split_lines, checked.figures, strict=True):
        body = markdown[piece.start : piece.end].rstrip()
        assert body.count("\n") + 1 == figure.end_line - figure.line + 1
    chunks = split_markdown(markdown, SplitOptions(max_tokens=30))
    assert all(markdown[c.start : c.end] == c.body for c in chunks)
    report_codes = {issue.code for issue in check_markdown(markdown).issues}
    assert ("figure.malformed" in report_codes) == bool(checked.figure_faults)


def test_a_figures_words_are_not_prose_for_boilerplate_and_reading_order() -> None:
    pages = []
    for page in range(1, 7):
        words = f"Revenue Cost\nQ1 Q2 Q3 Q4\n{page} {page + 1}\nSource: company data"
        figure = format_figure(FigureBlock(f"Figure {page}. Revenue", "", words, 0.9, "tesseract"))
        prose = f"Sales in region {'ABCDEF'[page - 1]} grew." + " Exports rose." * page
        pages.append(f"<!-- page {page} -->\n\n## Part {page}\n\n{prose}\n\n{figure}")
    markdown = "# Annual report\n\n" + "\n\n".join(pages) + "\n"
    scan = scan_markdown(markdown)
    assert len(scan.figures) == 6 and len(scan.paragraphs) == 6
    assert all(p.text.startswith("Sales in region") for p in scan.paragraphs)
    assert len(scan.outside_figures(scan.lines)) == 13  # the title, 6 headings, 6 paragraphs
    assert check_markdown(markdown).issues == ()
    plain = markdown.replace("<!-- figure -->", "").replace("<!-- /figure -->", "")
    assert [i.code for i in check_markdown(plain).issues] == ["boilerplate.repeated-line"]

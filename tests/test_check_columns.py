"""check on two-column PDFs: naive row-by-row reading warns, chunkcli's conversion does not."""

from __future__ import annotations

from pathlib import Path

import pymupdf
from pdf_factory import Text, make_pdf, wrapped_paragraph

from chunkcli.check import CheckOptions, check_conversion, check_markdown
from chunkcli.convert.pipeline import convert_pdf

LEFT_X, RIGHT_X, COLUMN_WIDTH = 56.0, 315.0, 225.0
ROW_TOPS = (120.0, 300.0, 480.0)


def column_texts(page: int) -> tuple[list[str], list[str]]:
    """Three paragraphs per column; the left column's last one runs on into the right column."""
    name = ["Alder", "Birch", "Cedar"][page]
    left = [
        f"{name} opened the meeting and welcomed the members of the board to the annual review.",
        f"The treasurer of {name} presented the accounts for the year and answered questions.",
        f"After a long discussion of the figures from {name} the board decided that the",
    ]
    right = [
        f"remaining funds of {name} would be spent on repairs to the roof of the old library.",
        f"Members of {name} then elected a new secretary by a show of hands without dissent.",
        f"The chair of {name} closed the meeting and thanked everyone for their hard work.",
    ]
    return left, right


def two_column_pdf(path: Path) -> Path:
    pages = []
    for page in range(3):
        left, right = column_texts(page)
        items: list[object] = [Text(LEFT_X, 70, f"Minutes part {page + 1}", size=16, bold=True)]
        for top, text in zip(ROW_TOPS, left, strict=True):
            items += wrapped_paragraph(LEFT_X, top, COLUMN_WIDTH, text)
        for top, text in zip(ROW_TOPS, right, strict=True):
            items += wrapped_paragraph(RIGHT_X, top, COLUMN_WIDTH, text)
        pages.append(items)
    return make_pdf(path, pages)  # type: ignore[arg-type]


def naive_markdown(path: Path) -> str:
    """Text blocks in top-to-bottom, left-to-right order: the two columns read row by row."""
    parts = []
    with pymupdf.open(str(path)) as doc:
        for number, page in enumerate(doc, 1):
            blocks = page.get_text("blocks", sort=True)
            texts = [" ".join(b[4].split()) for b in blocks if b[4].strip()]
            parts.append(f"<!-- page {number} -->\n\n" + "\n\n".join(texts))
    return "\n\n".join(parts) + "\n"


def test_columns_read_row_by_row_warn(tmp_path: Path) -> None:
    markdown = naive_markdown(two_column_pdf(tmp_path / "minutes.pdf"))
    report = check_markdown(markdown, CheckOptions(), source="naive.md", chunks=())
    (found,) = [i for i in report.issues if i.code == "reading-order.interrupted"]
    assert "3 paragraphs" in found.message and "decided that the" in found.message


def test_chunkcli_conversion_of_the_same_pdf_passes(tmp_path: Path) -> None:
    result = convert_pdf(two_column_pdf(tmp_path / "minutes.pdf"))
    report = check_conversion(result)
    assert not [i for i in report.issues if i.code.startswith("reading-order")], result.markdown

"""Regression tests for issue 15's failure classes; every input is built in a few lines."""

from __future__ import annotations

import math
from pathlib import Path

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bench.fuzz.rawpdf import build_pdf, simple_pdf, text_content
from chunkcli.batch import failure_reason
from chunkcli.check import check_markdown
from chunkcli.check.scan import scan_markdown as check_scan
from chunkcli.cli import app
from chunkcli.convert.extract.pages import MAX_GEOMETRY_PT, _span
from chunkcli.convert.pipeline import convert_pdf
from chunkcli.errors import PdfOpenError
from chunkcli.jsonl import chunks_to_jsonl, read_jsonl
from chunkcli.markdown_format import without_boxes
from chunkcli.model import PageStatus
from chunkcli.split import SplitOptions, split_markdown

HELLO = text_content([(72, 700, 12, "Hello world")])


def _body(markdown: str) -> str:
    markdown = without_boxes(markdown)
    """The Markdown after convert's provenance comment (its first line and a blank line)."""
    return markdown.split("\n", 2)[2] if markdown.startswith("<!-- chunkcli ") else markdown


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# --- class 2: read what can be read ---------------------------------------------------------


def test_count_larger_than_the_page_tree_keeps_the_real_page(tmp_path: Path) -> None:
    pdf = _write(tmp_path, "count.pdf", simple_pdf([HELLO], count=1000))
    result = convert_pdf(pdf)
    assert [p.status for p in result.pages] == [PageStatus.TEXT]
    assert _body(result.markdown) == "<!-- page 1 -->\n\nHello world\n"


def test_page_tree_that_contains_itself_is_a_worded_failure(tmp_path: Path) -> None:
    data = build_pdf(
        [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>"]
    )
    pdf = _write(tmp_path, "loop.pdf", data)
    with pytest.raises(PdfOpenError) as caught:
        convert_pdf(pdf)
    assert str(caught.value) == f"{pdf}: damaged: its only page cannot be loaded"


def test_non_finite_span_geometry_is_clamped() -> None:
    span = _span({"text": "Huge", "bbox": (72.0, -math.inf, math.nan, math.inf), "size": math.inf})
    assert span is not None
    assert (span.bbox.x0, span.bbox.top, span.bbox.x1, span.bbox.bottom) == (
        72.0,
        -MAX_GEOMETRY_PT,
        0.0,
        MAX_GEOMETRY_PT,
    )
    assert span.size == MAX_GEOMETRY_PT


def test_span_text_expands_ligatures_drops_soft_hyphens_and_keeps_others() -> None:
    box = (1, 2.5, 30, 12.0)  # ints too: geometry leaves extraction as floats
    span = _span({"text": "e\ufb03cient co\u00adop \u65e5\u672c", "bbox": box, "size": 10})
    assert span is not None
    assert span.text == "efficient coop \u65e5\u672c"
    assert [type(v) for v in (span.bbox.x0, span.bbox.x1, span.size)] == [float, float, float]
    assert _span({"text": "\u00ad", "bbox": box, "size": 10.0}) is None
    plain = _span({"text": "plain ASCII", "bbox": (1.0, 2.0, 3.0, 4.0), "size": 9.999})
    assert plain is not None
    assert (plain.text, plain.bbox.x0, plain.size) == ("plain ASCII", 1.0, 10.0)


def test_huge_font_size_converts_the_rest(tmp_path: Path) -> None:
    content = (
        b"BT /F1 12 Tf 1 0 0 1 72 700 Tm (Title) Tj /F1 99999999999999999999 Tf "
        b"99999999999999999999 0 0 99999999999999999999 72 600 Tm (Huge) Tj "
        b"/F1 12 Tf 1 0 0 1 72 500 Tm (Body text) Tj ET"
    )
    result = convert_pdf(_write(tmp_path, "huge.pdf", simple_pdf([content])))
    assert _body(result.markdown) == "<!-- page 1 -->\n\nTitle\n\nBody text\n"


def test_mupdf_errors_are_worded_without_their_code() -> None:
    import pymupdf

    data = build_pdf(
        [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>"]
    )
    with pytest.raises(pymupdf.mupdf.FzErrorBase) as caught:
        pymupdf.open(stream=data).load_page(0)
    assert failure_reason(caught.value) == "MuPDF cannot read it: cycle in page tree"
    assert failure_reason(KeyError("x")) == "KeyError: 'x'"


# --- class 4: a page MuPDF could not fully interpret is marked --------------------------------


@pytest.mark.parametrize(
    "data",
    [
        simple_pdf([HELLO], page_extra=b"/Foo " + b"<< /A " * 10000 + b">> " * 10000),
        simple_pdf([b"BT /F1 12 Tf 72 700 Td " + b"[" * 10000 + b"(x)" + b"]" * 10000 + b" TJ ET"]),
        simple_pdf([HELLO], page_extra=b"/UserUnit 0"),
    ],
    ids=["deep-dictionary", "deep-array-in-text", "user-unit-0"],
)
def test_damaged_page_is_marked(tmp_path: Path, data: bytes) -> None:
    result = convert_pdf(_write(tmp_path, "damaged.pdf", data))
    assert [p.status for p in result.pages] == [PageStatus.DAMAGED]
    assert _body(result.markdown) == "<!-- page 1: damaged (MuPDF could not read all of it) -->\n"


@pytest.mark.parametrize("image_filter", ["/DCTDecode", "/JBIG2Decode"])
def test_a_content_stream_declared_an_image_marks_its_page(
    tmp_path: Path, image_filter: str
) -> None:
    """MuPDF reads no word of it ("Can't open image only stream"): the page is damaged, and
    split of the PDF says so on stderr as convert does."""
    doc = pymupdf.open(stream=simple_pdf([HELLO]))
    for xref in doc[0].get_contents():
        doc.xref_set_key(xref, "Filter", image_filter)
    path = _write(tmp_path, "image-content.pdf", doc.tobytes())
    result = convert_pdf(path)
    assert _body(result.markdown) == "<!-- page 1: damaged (MuPDF could not read all of it) -->\n"
    split = CliRunner().invoke(app, ["split", str(path)])
    assert split.exit_code == 0
    assert (
        f"warning: {path}: page 1: damaged: MuPDF could not read all of it (content may be "
        "missing)" in " ".join(split.stderr.split())
    )


def test_a_page_too_large_to_draw_fails_only_itself(tmp_path: Path) -> None:
    """An image-only page with /UserUnit 75000 cannot be rendered for OCR ("Overly large
    image"): that page stays image-only with a note; the document converts."""
    doc = pymupdf.open(stream=simple_pdf([HELLO]))
    page = doc.new_page()
    pixmap = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 64, 64), False)
    pixmap.clear_with(200)
    page.insert_image(page.rect, pixmap=pixmap)
    doc.xref_set_key(page.xref, "UserUnit", "75000")
    path = _write(tmp_path, "huge.pdf", doc.tobytes())
    result = convert_pdf(path)
    assert [p.status for p in result.pages] == [PageStatus.TEXT, PageStatus.IMAGE_ONLY]
    assert result.warnings == (
        f"{path}: page 2: OCR failed: cannot render the page: Overly large image",
    )


def test_garbage_inline_image_keeps_the_text_and_marks_the_page(tmp_path: Path) -> None:
    image = b"\nq 100 0 0 100 0 0 cm BI /W 100 /H 100 /BPC 8 /CS /RGB /F /DCT ID \x00\x01x EI Q\n"
    data = simple_pdf([HELLO + image + text_content([(72, 600, 12, "After")])])
    result = convert_pdf(_write(tmp_path, "image.pdf", data))
    assert _body(result.markdown) == (
        "<!-- page 1: damaged (MuPDF could not read all of it) -->\n\nHello world\n\nAfter\n"
    )


def test_check_counts_damaged_pages() -> None:
    damaged_marker = "<!-- page 2: damaged (MuPDF could not read all of it) -->"
    markdown = f"<!-- page 1 -->\n\nSome text here.\n\n{damaged_marker}\n"
    report = check_markdown(markdown)
    damaged = [issue for issue in report.issues if issue.code == "pages.damaged"]
    assert [(i.page, i.severity.value) for i in damaged] == [(2, "warn")]


# --- class 5: pathological Markdown is linear (measured in bench/fuzz; here: the work done) ---


def _counted_chars(markdown: str, max_tokens: int = 64) -> int:
    """Characters split hands to its token counter: linear work counts each a few times."""
    from chunkcli.tokens import load_encoding

    encode = load_encoding("cl100k_base").encode_ordinary
    seen = [0]

    def count(text: str) -> int:
        seen[0] += len(text)
        return len(encode(text))

    split_markdown(markdown, SplitOptions(max_tokens=max_tokens), count_tokens=count)
    return seen[0]


def test_deeply_nested_list_is_counted_a_bounded_number_of_times() -> None:
    markdown = "".join("  " * k + f"- item {k}\n" for k in range(400))
    # The linear recount of every shrinking window read ~500x the text; now each window's
    # text is counted a logarithmic number of times.
    assert _counted_chars(markdown) < 30 * len(markdown)


def test_many_setext_headings_keep_every_heading() -> None:
    markdown = "Heading text\n===\n\n" * 2000
    scan = check_scan(markdown)
    assert len(scan.headings) == 2000
    assert scan.lines[0].text == "Heading text"
    assert len(scan.lines) == 2000


# --- class 6: JSON Lines round trip -----------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=200))
def test_jsonl_round_trip_with_arbitrary_text(text: str) -> None:
    chunks = split_markdown("# Title\n\n" + text + "\u2028\x85\x0b\x0c\u2029\n")
    assert read_jsonl(chunks_to_jsonl(chunks)) == chunks

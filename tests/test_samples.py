"""Golden tests: samples/*.pdf converts to samples/*.expected.md, byte for byte.

`make golden` (UPDATE_GOLDEN=1) rewrites the expected files from the converter's output; review
the diff before committing. The strict tests below check that each sample PDF really has the
properties it was built with, so a golden failure points at the converter, not the sample.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pymupdf
import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SAMPLES_DIR = REPO_ROOT / "samples"
SAMPLE_NAMES = (
    "two_column",
    "japanese_manual",
    "continued_table",
    "blank_and_scanned",
    "outline",
    "figures",
)
UPDATE_GOLDEN = os.environ.get("UPDATE_GOLDEN") == "1"


def sample(name: str) -> Path:
    return SAMPLES_DIR / f"{name}.pdf"


def sha256_of(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def page_lines(page: pymupdf.Page) -> list[dict[str, object]]:
    blocks = page.get_text("dict", sort=False)["blocks"]
    return [line for block in blocks for line in block.get("lines", [])]


def line_text(line: dict[str, object]) -> str:
    return "".join(str(span["text"]) for span in line["spans"])  # type: ignore[attr-defined]


# --- golden -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_sample_converts_to_expected_markdown(name: str) -> None:
    from chunkcli.convert.pipeline import convert_pdf

    expected_path = SAMPLES_DIR / f"{name}.expected.md"
    actual = convert_pdf(sample(name)).markdown
    if UPDATE_GOLDEN:
        expected_path.write_text(actual, encoding="utf-8")
        return
    expected = expected_path.read_text(encoding="utf-8")
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=f"{name}.expected.md",
            tofile=f"{name}: convert_pdf",
        )
        pytest.fail("".join(diff), pytrace=False)


def test_update_golden_is_off_in_ci() -> None:
    if os.environ.get("CI") == "true":
        assert not UPDATE_GOLDEN, "UPDATE_GOLDEN must not be set in CI"


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_expected_markdown_follows_the_format_rules(name: str) -> None:
    text = (SAMPLES_DIR / f"{name}.expected.md").read_text(encoding="utf-8")
    first, rest = text.split("\n\n", 1)
    assert first == f'<!-- chunkcli source="{name}.pdf" sha256="{sha256_of(sample(name))}" -->'
    assert rest.startswith("<!-- page 1")
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert "\n\n\n" not in text
    assert text.count("\n# ") == 1  # the title, once
    assert "\t" not in text and " \n" not in text


def test_make_samples_regenerates_identical_pdfs(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(SAMPLES_DIR / "make_samples.py"), str(tmp_path)],
        check=True,
        capture_output=True,
    )
    for name in SAMPLE_NAMES:
        regenerated = (tmp_path / f"{name}.pdf").read_bytes()
        assert regenerated == sample(name).read_bytes(), f"{name}.pdf differs: run make samples"


# --- what each sample was built with ------------------------------------------------------


def test_two_column_is_drawn_in_scrambled_order_with_furniture() -> None:
    with pymupdf.open(str(sample("two_column"))) as doc:
        assert doc.page_count == 3
        texts = [[line_text(ln) for ln in page_lines(page)] for page in doc]
    for number, lines in enumerate(texts, start=1):
        assert "Journal of Examples · Vol. 3" in lines
        assert f"Page {number} of 3" in lines
        # Drawn right column first, then footer, left column, header (and title on page 1).
        assert lines.index(f"Page {number} of 3") < lines.index("Journal of Examples · Vol. 3")
    first = texts[0]
    assert first[0] == "Many tools reach for a state-of-the-"
    assert first.index("Many tools reach for a state-of-the-") < first.index("1 Introduction")
    assert "step; the second is to keep the infor-" in first
    assert first[first.index("step; the second is to keep the infor-") + 1].startswith("mation ")
    assert any("ﬁ" in line for line in first)


def test_two_column_headings_are_bold_and_larger_than_body() -> None:
    with pymupdf.open(str(sample("two_column"))) as doc:
        spans = {
            line_text(ln): ln["spans"][0]  # type: ignore[index]
            for page in doc
            for ln in page_lines(page)
        }
    for heading, size in (("1 Introduction", 13), ("2 Method", 13), ("2.1 Data", 11.5)):
        assert spans[heading]["flags"] & pymupdf.TEXT_FONT_BOLD
        assert spans[heading]["size"] == pytest.approx(size, abs=0.1)
    assert spans["each. Every page carries the same header and a"]["size"] == pytest.approx(10)


def test_japanese_manual_has_embedded_cjk_text_that_round_trips() -> None:
    with pymupdf.open(str(sample("japanese_manual"))) as doc:
        assert doc.page_count == 2
        text = "".join(page.get_text() for page in doc)
        fonts = [font for page in doc for font in page.get_fonts()]
        lines = [line_text(ln) for page in doc for ln in page_lines(page)]
    assert all(font[1] != "n/a" for font in fonts)  # embedded, not the built-in "japan"
    assert any("Droid" in font[3] for font in fonts)
    for expected in ("第1章 概要", "第2章 使い方", "1.1 インストール", "- 1 -", "- 2 -"):
        assert expected in lines
    assert text.count("チャンクCLI マニュアル 第1版") == 2  # running header on both pages
    # Sentences wrap in mid-sentence: some line ends inside a sentence, not at 。
    assert any(not line.endswith("。") and len(line) > 20 for line in lines)
    assert sum(line.startswith("・") for line in lines) == 3
    assert [line[:3] for line in lines if line[:3] in ("1. ", "2. ", "3. ")] == [
        "1. ",
        "2. ",
        "3. ",
    ]


def test_continued_table_repeats_its_header_on_page_two() -> None:
    with pdfplumber.open(sample("continued_table")) as pdf:
        assert len(pdf.pages) == 2
        tables = [page.extract_tables() for page in pdf.pages]
    assert [len(t) for t in tables] == [1, 1]
    first, second = tables[0][0], tables[1][0]
    assert first[0] == second[0] == ["Model", "Voltage (V)", "Current (A)", "Notes"]
    assert ["PS-200", "12", "1.5", "AC|DC switchable"] in first
    assert ["PS-300", "12", "3.0", "Fan-cooled, wall\nmount"] in first
    assert len(first) == 7 and len(second) == 4


def test_blank_and_scanned_pages_are_what_they_say() -> None:
    with pymupdf.open(str(sample("blank_and_scanned"))) as doc:
        assert doc.page_count == 4
        texts = [page.get_text().strip() for page in doc]
        images = [len(page.get_images()) for page in doc]
        drawings = [len(page.get_drawings()) for page in doc]
    assert texts[0] and texts[3]
    assert texts[1] == "" and images[1] == 0 and drawings[1] == 0
    assert texts[2] == "" and images[2] == 1


def test_outline_gives_three_levels_and_headings_look_like_body_text() -> None:
    with pymupdf.open(str(sample("outline"))) as doc:
        toc = doc.get_toc()
        spans = {line_text(ln): ln["spans"][0] for page in doc for ln in page_lines(page)}  # type: ignore[index]
    assert {level for level, _, _ in toc} == {1, 2, 3}
    assert [1, "Part I General Provisions", 1] in toc
    assert [3, "Article 15", 1] in toc and [3, "第十五条", 2] in toc
    body = spans["This part applies to every department."]
    for _, title, _ in toc:
        assert spans[title]["flags"] & pymupdf.TEXT_FONT_BOLD, title
        assert spans[title]["size"] == pytest.approx(body["size"]), title
    assert not body["flags"] & pymupdf.TEXT_FONT_BOLD

"""End-to-end conversion of small generated PDFs: one test per promise of `convert`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from conftest import heading_lines

from chunkcli.convert.extract.pages import font_style
from chunkcli.convert.ocr import OcrMode, OcrOptions
from chunkcli.convert.pipeline import ConvertOptions, convert_pdf
from chunkcli.model import BlockKind, PageStatus
from tests.pdf_factory import (
    Image,
    Text,
    make_pdf,
    text_lines,
    vertical_column,
    wrap_text,
    wrapped_paragraph,
)

LOREM = (
    "Retrieval systems answer questions from documents only when the text they index keeps "
    "its reading order and its structure intact across every page of the source"
)


def convert(path: Path, **options: object) -> str:
    return convert_pdf(path, ConvertOptions(**options)).markdown  # type: ignore[arg-type]


def paragraphs(markdown: str) -> list[str]:
    return [p for p in markdown.split("\n\n") if p and not p.startswith("<!--")]


def two_column_page(page_no: int, pages: int, tag: str) -> list[Text]:
    left = wrapped_paragraph(50, 120, 230, f"Left {tag} begins. {LOREM}. Left {tag} ends.")
    right = wrapped_paragraph(310, 120, 230, f"Right {tag} begins. {LOREM}. Right {tag} ends.")
    header = Text(50, 40, "Journal of Examples · Vol. 3", size=9)
    footer = Text(270, 810, f"Page {page_no} of {pages}", size=9)
    # Drawn in scrambled order: footer, right column, header, left column.
    return [footer, *right, header, *left]  # type: ignore[list-item]


def test_two_columns_drawn_out_of_order_read_left_then_right(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "cols.pdf", [two_column_page(1, 1, "one")])
    text = convert(pdf)
    left_start, left_end = text.index("Left one begins"), text.index("Left one ends")
    right_start = text.index("Right one begins")
    assert left_start < left_end < right_start
    assert len(paragraphs(text)) == 2 + 1  # two columns + header (the lone footer is furniture)


def test_full_width_title_is_read_before_the_columns(tmp_path: Path) -> None:
    page = [
        *two_column_page(1, 1, "body"),
        Text(150, 80, "A Study of Reading Order", size=20, bold=True),
    ]
    text = convert(make_pdf(tmp_path / "title.pdf", [page]))
    assert text.index("# A Study of Reading Order") < text.index("Left body begins")


def test_running_headers_and_page_numbers_are_removed(tmp_path: Path) -> None:
    tags = ["alpha", "beta", "gamma", "delta"]
    pages = [two_column_page(n, 4, tag) for n, tag in enumerate(tags, start=1)]
    text = convert(make_pdf(tmp_path / "running.pdf", pages))
    assert "Journal of Examples" not in text
    assert not re.search(r"Page \d of 4", text)
    for n, tag in enumerate(tags, start=1):
        assert f"<!-- page {n} -->" in text and f"Left {tag} begins" in text


def test_one_page_document_keeps_its_header_but_not_its_page_number(tmp_path: Path) -> None:
    text = convert(make_pdf(tmp_path / "one.pdf", [two_column_page(1, 1, "p1")]))
    assert "Journal of Examples" in text and "Page 1 of 1" not in text


def test_two_page_document_loses_only_what_repeats_on_both_pages(tmp_path: Path) -> None:
    pages = [two_column_page(n, 2, f"p{n}") for n in range(1, 3)]
    pages[0].append(Text(50, 60, "Draft for review", size=9))
    text = convert(make_pdf(tmp_path / "two.pdf", pages))
    assert "Journal of Examples" not in text and "Page 2 of 2" not in text
    assert "Draft for review" in text


def test_body_text_near_the_top_is_kept(tmp_path: Path) -> None:
    openings = ["Sentences flow on.", "Another idea starts here.", "Tables follow later.", "Fin."]
    pages = []
    for n, opening in enumerate(openings, start=1):
        pages.append(
            [
                Text(50, 45, opening),
                *wrapped_paragraph(50, 120, 480, LOREM),
                Text(290, 810, str(n), size=9),
            ]
        )
    text = convert(make_pdf(tmp_path / "top.pdf", pages))
    for opening in openings:
        assert opening in text
    assert not re.search(r"^\d$", text, re.MULTILINE)


def test_page_markers_are_one_based_and_follow_page_selection(tmp_path: Path) -> None:
    pages = [[Text(50, 100, f"Content of page {n}.")] for n in range(1, 6)]
    pdf = make_pdf(tmp_path / "sel.pdf", pages)
    text = convert(pdf, pages=(2, 3, 4))
    assert re.findall(r"<!-- page (\d+) -->", text) == ["2", "3", "4"]
    assert "Content of page 1." not in text


def test_hyphenation_repaired_real_hyphens_and_ligatures_kept(tmp_path: Path) -> None:
    lines = ["The converter keeps infor-", "mation intact and uses state-of-the-", "art ﬁlters."]
    pdf = make_pdf(tmp_path / "hyph.pdf", [text_lines(50, 100, lines)])
    text = convert(pdf)
    assert "keeps information intact" in text
    assert "state-of-the-art filters." in text


def test_japanese_wrapped_lines_join_without_spaces(tmp_path: Path) -> None:
    sentence = (
        "電源を切ってから、カバーを外してください。作業の前に必ず電源プラグを抜いてください。"
    )
    lines = wrap_text(sentence, 150, 11, cjk=True)
    assert len(lines) >= 3
    items = [Text(50, 100 + i * 16, line, cjk=True) for i, line in enumerate(lines)]
    text = convert(make_pdf(tmp_path / "ja.pdf", [items]))
    assert sentence in text


def test_chapter_numbering_patterns_give_heading_levels(tmp_path: Path) -> None:
    page = [
        Text(50, 60, "取扱説明書", size=22, bold=True, cjk=True),
        Text(50, 110, "第1章 安全について", size=16, bold=True, cjk=True),
        Text(50, 140, "本書をよくお読みください。", cjk=True),
        Text(50, 180, "1.1 電源", size=13, bold=True, cjk=True),
        Text(50, 210, "電源を確認してください。", cjk=True),
        Text(50, 250, "第2章 使い方", size=16, bold=True, cjk=True),
        Text(50, 280, "ボタンを押します。", cjk=True),
    ]
    text = convert(make_pdf(tmp_path / "heads.pdf", [page]))
    assert re.findall(r"^(#+) (.*)$", text, re.MULTILINE) == [
        ("#", "取扱説明書"),
        ("##", "第1章 安全について"),
        ("###", "1.1 電源"),
        ("##", "第2章 使い方"),
    ]


def test_bold_body_size_text_is_a_heading_only_with_a_number(tmp_path: Path) -> None:
    page = [
        Text(50, 100, "第十五条", bold=True, cjk=True),
        Text(50, 120, "事業者は、次の措置を講じなければならない。", cjk=True),
        Text(50, 160, "Important note", bold=True),
        Text(50, 180, "This is body text after an emphasised line."),
    ]
    text = convert(make_pdf(tmp_path / "bold.pdf", [page]))
    assert heading_lines(text) == ["## 第十五条"]
    assert "Important note" in text


def test_japanese_numbered_headings_set_in_another_face_are_headings(tmp_path: Path) -> None:
    # Gothic headings over Mincho text, both 11 pt and regular (cloud_policy_20210910.pdf):
    # the face sets them apart as bold would; a numbered line in the text's face stays text.
    gothic, mincho = "MS-Gothic", "MS-Mincho"
    text = "本方針は、政府情報システムの整備及び管理に適用する。"
    page = [
        Text(50, 60, "１ はじめに", font=gothic, cjk=True),
        Text(50, 90, "１.１ 背景と目的", font=gothic, cjk=True),
        Text(50, 110, text, font=mincho, cjk=True),
        Text(50, 140, "1) 効率性の向上", font=gothic, cjk=True),
        Text(50, 160, text, font=mincho, cjk=True),
        Text(50, 190, "(1) 主なサービス利用者", font=mincho, cjk=True),
        Text(50, 210, text, font=mincho, cjk=True),
        Text(50, 230, text, font=mincho, cjk=True),
    ]
    markdown = convert(make_pdf(tmp_path / "faces.pdf", [page]))
    assert heading_lines(markdown) == [
        "## １ はじめに",
        "### １.１ 背景と目的",
        "#### 1) 効率性の向上",
    ]


def test_a_heading_filling_its_line_does_not_run_into_the_text_below(tmp_path: Path) -> None:
    # The Gothic heading is as wide as the Mincho lines below it: only the face ends it.
    heading = "３.５ Step3:IaaS/PaaS（パブリック・クラウド）の利用検討と利用方針の決定"
    text = "Step2 までの検討結果を踏まえ、SaaS の利用が困難な場合に検討する。"
    page = [
        Text(50, 60, heading, font="MS-Gothic", cjk=True),
        Text(61, 78, text, font="MS-Mincho", cjk=True),
        Text(50, 96, text + "続き", font="MS-Mincho", cjk=True),
        Text(50, 114, "終わり。", font="MS-Mincho", cjk=True),
    ]
    markdown = convert(make_pdf(tmp_path / "run-on.pdf", [page]))
    assert heading_lines(markdown) == [f"## {heading}"]
    assert f"\n{text}{text}続き終わり。\n" in markdown


def test_numbered_lines_that_name_no_section_stay_text(tmp_path: Path) -> None:
    # Each line is set apart from the serif text by weight or face, and opens with a number:
    # a running head (bold page number, light words) above the text, a chart's value label,
    # a footnote whose mark is smaller than its words, and a label no text follows.
    body = "The text of the section runs on for a while in the serif face of the book."
    page = [
        Text(50, 40, "8", font="hebo", size=10),
        Text(62, 40, "Encinas Franco and Laguna", font="helv", size=10),
        Text(50, 100, "2.1 Method", bold=True, size=10),
        *[Text(50, 120 + 14 * i, body, font="tiro", size=10) for i in range(4)],
        Text(50, 200, "34.5 % of respondents", bold=True, size=10),
        *[Text(50, 220 + 14 * i, body, font="tiro", size=10) for i in range(4)],
        Text(50, 300, "25 Consumption", bold=True, size=10),
        Text(50, 320, "Income", font="tiro", size=10),
        Text(50, 780, "12", font="helv", size=8),
        Text(60, 780, "IPA Security Center publications", font="helv", size=9),
    ]
    markdown = convert(make_pdf(tmp_path / "not-sections.pdf", [page]))
    assert heading_lines(markdown) == ["## 2.1 Method"]


def test_bold_lines_at_body_size_over_running_text_are_headings(tmp_path: Path) -> None:
    # DP-Bench's book pages: "IMPLEMENTATION" in bold at the body's 11 pt, its paragraph below.
    # Not headings: a bold caption, a bold label over another label, a run-in heading whose
    # paragraph goes on in the same line.
    prose = "Locally, we implemented a quick and free solution that reflects the limits"
    para = [prose, prose, prose.replace("limits", "limits of the system.")]

    def paragraph(top: float) -> list[Text]:
        return [Text(50, top + 15 * i, line, font="tiro", size=11) for i, line in enumerate(para)]

    page = [
        *paragraph(60),
        Text(50, 130, "IMPLEMENTATION", bold=True, size=11),
        *paragraph(150),
        Text(50, 220, "Figure 7.1: Landscape survey results", bold=True, size=11),
        *paragraph(240),
        Text(50, 310, "Mineral or colloid type", bold=True, size=11),
        Text(50, 325, "Kaolinite", font="tiro", size=11),
        Text(50, 340, "Montmorillonite", font="tiro", size=11),
        *paragraph(360),
        Text(50, 430, "Results.", bold=True, size=11),
        Text(95, 430, "The method works on all of the documents we tried.", font="tiro", size=11),
        *paragraph(445),
        *paragraph(520),
        *paragraph(580),
    ]
    markdown = convert(make_pdf(tmp_path / "bold-heads.pdf", [page]))
    assert heading_lines(markdown) == ["## IMPLEMENTATION"]


def test_a_contents_pages_entries_are_not_headings(tmp_path: Path) -> None:
    # A book's contents: part titles larger than the entries, page numbers apart, no leaders.
    page = [Text(50, 60, "Contents", size=24)]
    for part, top in (("Part I. Chapter One - Exploring Your Data", 110), ("Part II. Tests", 230)):
        page.append(Text(50, top, part, size=11))
        for i in range(1, 5):
            page.append(Text(60, top + 14 * i, f"Section {i}: Descriptive statistics", size=9))
            page.append(Text(400, top + 14 * i, str(3 * i), size=9))
    markdown = convert(make_pdf(tmp_path / "contents.pdf", [page]))
    assert heading_lines(markdown) == ["## Contents"]


def test_tex_bold_faces_are_bold() -> None:
    for name in ("CMBX12", "ABCDEF+CMBX10", "SFBX1200", "NimbusRomNo9L-Medi"):
        assert font_style(name)[0], name
    assert not any(font_style(name)[0] for name in ("CMR10", "CMMI10", "NimbusRomNo9L-Regu"))


def test_a_short_numbered_line_does_not_take_the_bold_run_in_line_below(tmp_path: Path) -> None:
    # A paper's subsection heading over a paragraph that opens with a bold run-in heading.
    text = "the models trained on each of the datasets in turn, with the same settings."
    page = [
        Text(50, 60, "4.3 Ablation Studies", bold=True, size=12),
        Text(50, 80, text, size=10),
        Text(50, 92, text, size=10),
        Text(50, 110, "4.3.1 Instruction Tuning", bold=True, size=10),
        Text(50, 124, "Ablation on the training datasets.", bold=True, size=10),
        Text(235, 124, "We present", size=10),
        Text(50, 136, text, size=10),
        Text(50, 148, text, size=10),
    ]
    markdown = convert(make_pdf(tmp_path / "run-in.pdf", [page]))
    assert heading_lines(markdown) == ["## 4.3 Ablation Studies", "### 4.3.1 Instruction Tuning"]


def test_a_caption_in_large_bold_type_is_not_a_heading(tmp_path: Path) -> None:
    text = "The clay suspension settles faster as the charge of the added cation grows."
    page = [
        Text(50, 60, "Activity 4. Determining CEC", bold=True, size=16),
        *[Text(50, 90 + 14 * i, text, size=10) for i in range(3)],
        Text(50, 150, "Table 13.2. Effect of cations on flocculation", bold=True, size=12),
        *[Text(50, 170 + 14 * i, text, size=10) for i in range(3)],
    ]
    markdown = convert(make_pdf(tmp_path / "caption.pdf", [page]))
    assert heading_lines(markdown) == ["# Activity 4. Determining CEC"]  # the title


def test_a_heading_that_opens_with_sources_is_still_a_heading(tmp_path: Path) -> None:
    text = "Controlling soil pH is vital to the optimal use and productivity of soils."
    page = [
        Text(50, 60, "Buffering Capacity", size=16),
        *[Text(50, 90 + 14 * i, text, size=10) for i in range(3)],
        Text(50, 150, "Sources of Soil Acidity", size=16),
        *[Text(50, 180 + 14 * i, text, size=10) for i in range(3)],
        Text(50, 240, "Source: Soil survey, 2019", size=16),
        *[Text(50, 270 + 14 * i, text, size=10) for i in range(3)],
    ]
    markdown = convert(make_pdf(tmp_path / "sources.pdf", [page]))
    assert heading_lines(markdown) == ["# Buffering Capacity", "## Sources of Soil Acidity"]


def test_a_cover_pages_title_is_its_title_however_little_else_it_holds(tmp_path: Path) -> None:
    # The title's three lines are a quarter of the page's characters: still a title, and the
    # date line below it is no heading; nor is a running title closed by its page number.
    page = [
        Text(50, 100, "Restrictions on Land Ownership", size=26, bold=True),
        Text(50, 132, "by Foreigners in Selected", size=26, bold=True),
        Text(50, 164, "Jurisdictions", size=26, bold=True),
        Text(50, 220, "June 2023", size=15),
        Text(50, 260, "LL File No. 2023-022255", size=11),
        Text(50, 400, "The Law Library of Congress, Global Legal Research Directorate", size=10.5),
        Text(50, 414, "(202) 707-5080 law@loc.gov http://www.law.gov", size=10.5),
        Text(50, 800, "Land Ownership Outlook 19", size=12, italic=True),
    ]
    markdown = convert(make_pdf(tmp_path / "cover.pdf", [page]))
    title = "Restrictions on Land Ownership by Foreigners in Selected Jurisdictions"
    assert heading_lines(markdown) == [f"# {title}"]


def test_outline_levels_are_used_when_they_match_the_text(tmp_path: Path) -> None:
    page = [
        Text(50, 80, "Overview", bold=True),
        Text(50, 100, "The overview paragraph."),
        Text(50, 140, "Details", bold=True),
        Text(50, 160, "The details paragraph."),
    ]
    outline = [(1, "Overview", 1), (2, "Details", 1)]
    text = convert(make_pdf(tmp_path / "toc.pdf", [page], outline=outline))
    assert heading_lines(text) == ["## Overview", "### Details"]


def test_bullets_and_numbered_items_become_lists(tmp_path: Path) -> None:
    page = [
        Text(50, 100, "Steps to follow:"),
        Text(60, 120, "1. Disconnect power."),
        Text(60, 136, "2. Remove the cover."),
        Text(60, 160, "• Keep screws safe"),
        Text(60, 176, "• Wear gloves"),
    ]
    text = convert(make_pdf(tmp_path / "lists.pdf", [page]))
    assert "1. Disconnect power.\n2. Remove the cover." in text
    assert "- Keep screws safe\n- Wear gloves" in text


def test_blank_image_only_and_garbage_pages_are_flagged(tmp_path: Path) -> None:
    pages = [
        [Text(50, 100, "First page text.")],
        [],
        [Image(50, 50, 500, 700, seed=3)],
        [],
    ]
    pdf = make_pdf(tmp_path / "empty.pdf", pages)
    # A text layer of NUL characters, as broken Type3 fonts produce (the factory drops NULs).
    with pymupdf.open(pdf) as doc:
        doc[3].insert_text((50, 100), "\x00" * 12, fontname="helv")
        doc.save(tmp_path / "garbage.pdf")
    result = convert_pdf(tmp_path / "garbage.pdf")
    assert result.blank_pages == (2,)
    assert result.image_only_pages == (3,)
    assert result.garbage_pages == (4,)
    assert "<!-- page 2: blank -->" in result.markdown
    assert "<!-- page 3: no text layer (image only) -->" in result.markdown
    assert "<!-- page 4: unusable text layer (treated as image only) -->" in result.markdown
    assert "\x00" not in result.markdown


def test_vertical_japanese_reads_columns_right_to_left(tmp_path: Path) -> None:
    columns = ["縦書きの文章は上から下へ", "読み、行は右から左へ進", "みます。"]
    items = [vertical_column(400 - i * 20, 100, text, size=14) for i, text in enumerate(columns)]
    result = convert_pdf(make_pdf(tmp_path / "tate.pdf", [items]))
    assert "縦書きの文章は上から下へ読み、行は右から左へ進みます。" in result.markdown
    assert "|" not in result.markdown


def test_conversion_is_deterministic(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "det.pdf", [two_column_page(n, 3, f"p{n}") for n in range(1, 4)])
    assert convert(pdf) == convert(pdf)


def test_result_exposes_ordered_blocks(tmp_path: Path) -> None:
    pdf = make_pdf(
        tmp_path / "blocks.pdf",
        [[Text(50, 60, "Title Here", size=20, bold=True), Text(50, 100, "Body text is longer.")]],
    )
    result = convert_pdf(pdf)
    kinds = [b.kind for b in result.pages[0].blocks]
    assert kinds == [BlockKind.HEADING, BlockKind.PARAGRAPH]
    assert result.pages[0].status == PageStatus.TEXT


@pytest.mark.parametrize("count", [1, 3])
def test_markdown_ends_with_one_newline(tmp_path: Path, count: int) -> None:
    pdf = make_pdf(tmp_path / "nl.pdf", [[Text(50, 100, "x y z")] for _ in range(count)])
    text = convert(pdf)
    assert text.endswith("\n") and not text.endswith("\n\n")


def test_a_page_that_fails_to_load_is_reported_not_fatal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import chunkcli.convert.extract.pages as extract

    words = ["Alpha opens.", "Beta follows.", "Gamma closes."]
    pdf = make_pdf(tmp_path / "bad.pdf", [[Text(50, 300, word)] for word in words])
    real = extract.extract_page

    def failing(
        page: pymupdf.Page, number: int, find_tables: bool = True, *, keep_hidden: bool = False
    ) -> object:
        if number == 2:
            raise RuntimeError("code=2: cannot parse content stream")
        return real(page, number, find_tables, keep_hidden=keep_hidden)

    monkeypatch.setattr(extract, "extract_page", failing)
    result = convert_pdf(pdf, ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER)))
    assert result.damaged_pages == (2,) and result.garbage_pages == ()
    assert "Alpha opens." in result.markdown and "Gamma closes." in result.markdown


def test_running_header_is_recognised_when_one_page_is_selected(tmp_path: Path) -> None:
    tags = ["alpha", "beta", "gamma", "delta", "epsilon"]
    pages = [two_column_page(n, 5, tag) for n, tag in enumerate(tags, start=1)]
    text = convert(make_pdf(tmp_path / "sel.pdf", pages), pages=(3,))
    assert "Left gamma begins" in text
    assert "Journal of Examples" not in text and "Page 3 of 5" not in text
    assert "alpha" not in text and "<!-- page 2 -->" not in text


def test_layout_thresholds_are_settings_reachable_from_convert_options(tmp_path: Path) -> None:
    """A head printed lower than the default top band (15 % of the page) is kept as text;
    widening the band through ConvertOptions.layout makes the same head furniture."""
    from dataclasses import replace

    from chunkcli.convert.layout.settings import FurnitureSettings, LayoutSettings

    head = "Annual Water Quality Statement"  # centre at ~17 % of an A4 page's height
    pages = [
        [Text(72, 145, head, size=9), Text(72, 300, f"Body text of page {n} says something.")]
        for n in (1, 2, 3)
    ]
    pdf = make_pdf(tmp_path / "heads.pdf", pages)
    default = convert_pdf(pdf).markdown
    wide = LayoutSettings(furniture=replace(FurnitureSettings(), top_band=0.2))
    widened = convert_pdf(pdf, ConvertOptions(layout=wide)).markdown
    assert default.count(head) == 3
    assert widened.count(head) == 0
    assert [line for line in widened.splitlines() if line.startswith("Body")] == [
        f"Body text of page {n} says something." for n in (1, 2, 3)
    ]


def test_dotted_rules_set_in_type_are_dropped(tmp_path: Path) -> None:
    """A rule drawn as a row of dots (". . . . .") carries no text: it is not a paragraph."""
    dots = " ".join(["."] * 60)
    pdf = make_pdf(
        tmp_path / "dots.pdf",
        [
            [
                Text(72, 100, "Corporate responsibility", size=18),
                Text(72, 130, dots),
                Text(72, 160, LOREM[:80]),
            ]
        ],
    )
    paragraphs = [line.lstrip("# ") for line in convert_pdf(pdf).markdown.splitlines()
                  if line and not line.startswith("<!--")]  # fmt: skip
    assert paragraphs == ["Corporate responsibility", LOREM[:80].strip()]


@pytest.mark.parametrize("enabled", [True, False])
def test_convert_pauses_the_cyclic_collector_and_restores_its_state(
    enabled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    from chunkcli.convert import pipeline

    seen: list[bool] = []
    real = pipeline.layout_document

    def layout(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "layout_document", layout)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        convert_pdf(Path(__file__).parent.parent / "samples" / "two_column.pdf")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False]


def test_a_damaged_page_is_marked_whatever_was_converted_before(tmp_path: Path) -> None:
    """MuPDF's warning log is process-wide: a worker that read a file with warnings before
    must still see this page's own damage (the output must not depend on --jobs)."""
    from chunkcli.convert.extract.pages import _extract_page_safely

    def broken(path: Path, words: str, junk: bytes) -> Path:
        doc = pymupdf.open()
        page = doc.new_page()
        page.insert_text((72, 72), words, fontsize=11)
        xref = page.get_contents()[0]
        doc.update_stream(xref, doc.xref_stream(xref) + junk)
        doc.save(str(path))
        return path

    bad = broken(tmp_path / "bad.pdf", "Hello there, reader.", b" [ (unterminated <<< /Foo ] }")
    missing = b"".join(b" /GS%d gs" % n for n in range(60))  # 60 different warnings
    noise = broken(tmp_path / "noise.pdf", "Noise.", missing)
    with pymupdf.open(bad) as doc:
        alone = _extract_page_safely(doc, 1, True)
    with pymupdf.open(noise) as earlier:  # a file read before, in the same process
        earlier[0].get_text()
    with pymupdf.open(bad) as doc:
        after = _extract_page_safely(doc, 1, True)
    assert alone.status == after.status == PageStatus.DAMAGED


def test_the_provenance_hash_is_of_the_bytes_converted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: a file replaced while it is converted is recorded with the hash of the bytes
    whose text the Markdown holds, so the next sync sees the new file as changed."""
    import hashlib

    import chunkcli.convert.pipeline as pipeline
    from chunkcli.markdown_format import parse_provenance

    pdf = make_pdf(tmp_path / "report.pdf", [[Text(50, 300, "The first version.")]])
    first = pdf.read_bytes()
    newer = make_pdf(tmp_path / "newer.pdf", [[Text(50, 300, "The second version.")]])
    real = pipeline.layout_document

    def replaced_meanwhile(*args: object, **kwargs: object) -> object:
        newer.replace(pdf)  # the file is swapped while its pages are being laid out
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "layout_document", replaced_meanwhile)
    result = convert_pdf(pdf)
    provenance = parse_provenance(result.markdown)
    assert "The first version." in result.markdown
    assert provenance is not None and provenance.sha256 == hashlib.sha256(first).hexdigest()


def _serif_column(top: float, lines: int, words: str = "the serif face") -> list[Text]:
    body = f"the text of the section runs on in {words} of it all"
    return [Text(50, top + 12 * i, body, font="tiro", size=9) for i in range(lines)]


def test_capitals_in_a_sans_face_over_serif_text_name_a_section(tmp_path: Path) -> None:
    # A section's name in the capitals of another face at nearly the body size, on two lines,
    # over the text (olmocr-multi_column_miss.pdf): it is a heading and does not run into the
    # first paragraph.
    page = [
        Text(50, 60, "CORPORATE SOCIAL RESPONSIBILITY:", font="helv", size=9.5),
        Text(50, 71, "THE CONTEXT", font="helv", size=9.5),
        *_serif_column(84, 4),
        Text(50, 140, "REFERENCES", font="helv", size=9.5),
        *_serif_column(154, 3),
    ]
    markdown = convert(make_pdf(tmp_path / "caps.pdf", [page]))
    assert heading_lines(markdown) == [
        "## CORPORATE SOCIAL RESPONSIBILITY: THE CONTEXT",
        "## REFERENCES",
    ]
    assert "\nthe text of the section runs on" in markdown


def test_capitals_that_name_no_section_stay_text(tmp_path: Path) -> None:
    # Code in capitals in a face of its own (not monospace), a contents entry ending in its
    # page number, and a line in capitals that stands on another page too (a running head
    # the furniture pass kept, at another height on each page) are not headings.
    def page(number: int, words: str) -> list[Text]:
        drop = 20 * number
        return [
            *_serif_column(60, 3, f"{words} and more"),
            Text(50, 100 + drop, "APPENDIX A. HOW TO CONTRIBUTE", font="helv", size=9.5),
            *_serif_column(114 + drop, 3, words),
            Text(50, 160 + drop, f"VERIFY_GROUP (CURRENT_USER, {number})", font="helv", size=9.5),
            *_serif_column(174 + drop, 3, f"the {words}"),
            Text(50, 220 + drop, f"PUZZLES {170 + number}", font="helv", size=9.5),
            *_serif_column(234 + drop, 3, f"all {words}"),
        ]

    pages = [page(1, "a serif face"), page(2, "another face")]
    markdown = convert(make_pdf(tmp_path / "caps-text.pdf", pages))
    assert heading_lines(markdown) == []
    assert "\nVERIFY_GROUP (CURRENT_USER, 1)\n" in markdown  # (its own paragraph)
    assert markdown.count("\nAPPENDIX A. HOW TO CONTRIBUTE\n") == 2

"""check's structural findings (issue #9): each on a generated document that has exactly that
defect, and on a clean counterpart that passes."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from pdf_factory import Text, grid_table, make_pdf, wrapped_paragraph

from chunkcli.check import CheckOptions, check_conversion, check_markdown
from chunkcli.check.deep_tables import check_deep_tables
from chunkcli.check.rulings import table_blocks
from chunkcli.convert.pipeline import convert_pdf
from chunkcli.model import ConvertResult, Issue, Severity

PROSE = (
    "The committee reviewed the annual figures and approved the budget for the coming year. "
    "Each department submitted its plan before the deadline."
)
NEW_CODES = (
    "headings.bad-title",
    "headings.hollow",
    "headings.mid-sentence",
    "table.data-header",
    "table.running-head-header",
    "table.collapsed-rows",
    "table.counts-differ",
    "text.glued-words",
    "text.hyphenated-words",
    "text.ideograph-variants",
    "reading-order.columns",
)


def found(markdown: str) -> list[Issue]:
    report = check_markdown(markdown, CheckOptions(), source="doc.md")
    return [i for i in report.issues if i.code in NEW_CODES]


def codes(markdown: str) -> list[str]:
    return [i.code for i in found(markdown)]


def sections(title: str, count: int = 3) -> str:
    body = "".join(f"## Part {n}\n\n{PROSE}\n\n" for n in range(1, count + 1))
    return f"# {title}\n\n{PROSE}\n\n{body}"


# --- 2 title and heading path ------------------------------------------------------------------


def test_bad_titles_fail_with_their_reason() -> None:
    reasons = {
        "12.5 %": "fewer than 3 letters",
        "44": "fewer than 3 letters",
        "表 3": "fewer than 3 letters",
        "Annual re\ufffdport": "U+FFFD or control characters",
        "Annual\x07report": "U+FFFD or control characters",
        "https://example.org/report.pdf": "URL or a source stamp",
        "Source: Statistics office": "URL or a source stamp",
        "Downloaded from example.org on 3 May": "URL or a source stamp",
    }
    for title, reason in reasons.items():
        (issue,) = found(sections(title))
        assert (issue.code, issue.severity, issue.line) == ("headings.bad-title", Severity.FAIL, 1)
        assert reason in issue.message, title


def test_real_titles_pass() -> None:
    titles = ("Annual report 2023", "IEEE 802.11 overview", "Q3 results", "目次", "목차")
    for title in titles:
        assert codes(sections(title)) == [], title


def hollow_document(own_text: str) -> str:
    parts = [f"# Report\n\n{PROSE}\n\n## a) the", own_text]
    parts += [f"### Topic {n}\n\n{PROSE} {PROSE}" for n in range(1, 7)]
    return "\n\n".join(p for p in parts if p) + "\n"


def test_heading_over_most_chunks_without_own_text_warns() -> None:
    options = CheckOptions(max_tokens=60)
    report = check_markdown(hollow_document(""), options, source="doc.md")
    (issue,) = [i for i in report.issues if i.code == "headings.hollow"]
    assert (issue.severity, issue.line) == (Severity.WARN, 5)
    assert '"a) the"' in issue.message


def test_heading_with_its_own_text_passes() -> None:
    options = CheckOptions(max_tokens=60)
    report = check_markdown(hollow_document(PROSE), options, source="doc.md")
    assert [i for i in report.issues if i.code == "headings.hollow"] == []


# --- 3 table headers ---------------------------------------------------------------------------

TABLE_BELOW = "| 2021-01-04 | 1,200 | 3.5 % |\n| 2021-01-05 | 1,350 | 3.9 % |\n"


def test_data_row_as_header_warns() -> None:
    markdown = f"# Prices\n\n| 2021-01-03 | 1,100 | 3.1 % |\n|---|---|---|\n{TABLE_BELOW}"
    (issue,) = found(markdown)
    assert (issue.code, issue.severity, issue.line) == ("table.data-header", Severity.WARN, 3)


def test_named_header_passes() -> None:
    assert codes(f"# Prices\n\n| Date | Volume | Rate |\n|---|---|---|\n{TABLE_BELOW}") == []


def data_header_codes(header: str, body: list[str]) -> list[str]:
    columns = header.count("|") - 1
    rows = "\n".join([header, "|" + "---|" * columns, *body])
    return codes(f"# Table\n\n{rows}\n")


def test_cell_types_of_data_headers() -> None:
    # Groups spaced after the comma (OCR) are amounts; a band of two percents is a percent.
    spaced = ["| 5 | | 3, 620 |", "| 6 | | 3, 464 |", "| 7 | | 3, 835 |"]
    assert data_header_codes("| 2023.4 | | 1 098 |", spaced) == ["table.data-header"]
    bands = ["| 입찰 | 70% 이상 ~ 100% 미만 | 1.8 |", "| 최근 | 40% 이상 ~ 70% 미만 | 1.6 |"]
    assert data_header_codes("| 대비 | 100% 이상 | 2.0 |", bands) == ["table.data-header"]
    # CAS numbers are codes, not dates: "7790-79-6" has no month 79.
    cas = [
        "| 160 | Cadmium fluoride | 232-222-0 | 7790-79-6 |",
        "| 159 | DOTE | 239-622-4 | 3846-71-7 |",
    ]
    assert data_header_codes("| 161 | UV-328 | 247-384-8 | 25973-55-1 |", cas) == [
        "table.data-header"
    ]


def test_values_with_intervals_and_footnote_marks_are_typed_by_their_value() -> None:
    assays = [
        "| Bio-RAD Monolisa HCV Ag-Ab ULTRA | 5 (525) | 28.6—95%a | 94.9% (89.9—99.8)b |",
        "| EIKEN Lumispot HCV Ag | 2 (235) | 97.5—98.1%a | ND |",
        "| Fujirebio Lumipulse Ortho HCV Ag | 1 (80) | 95% (90.2—99.8)b | ND |",
        "| Abbott ARCHITECT HCV Ag | 3 (310) | 88.1% (80.2—93.4) | 99.5% (98.9—99.8)c |",
    ]
    header = "| Ortho-Clinical Diagnostics Ortho ELISA-Ag | 5 (1—177) | 93.2% (81.6—97.7) | 99.2% |"
    assert data_header_codes(header, assays) == ["table.data-header"]
    named = "| Assay | Studies (participants) | Sensitivity (95% CI) | Specificity (95% CI) |"
    assert data_header_codes(named, assays) == []


def test_a_lone_year_in_a_header_is_a_number_and_a_series_names_columns() -> None:
    counts = ["| Boxer | 1201 | 33,157.3 |", "| Directory | 4103 | 20,500.79 |"]
    assert data_header_codes("| Handgun journalist | 2024 | 77,619.6 |", counts) == [
        "table.data-header"
    ]
    years = ["| Boxer | 1,201 | 3,157 |", "| Directory | 4,103 | 2,500 |"]
    assert data_header_codes("| Item | 2023 | 2024 |", years) == []
    # Fiscal years name columns too (2017年度, 2023년도), over amounts with units.
    fiscal = ["| 台風21号 | 台風19号 | ７月大雨 |", "| 1,217億円 | 5,826億円 | 1,055億円 |"]
    assert data_header_codes("| 2017年度 | 2019年度 | 2020年度 |", fiscal) == []
    assert (
        data_header_codes("| 구분 | 2022년도 | 2023년도 |", ["| 예산 | 1,200억원 | 1,350억원 |"])
        == []
    )


def test_a_sparse_column_below_neither_confirms_nor_denies_a_data_cell() -> None:
    legal = ["| 項 | ２号 | 手数料の料率 |", "| | ３号 | 支払総額 |", "| | ４号 | 極度額 |"]
    assert data_header_codes("| 1 | １号 | 商品代金等 |", legal) == ["table.data-header"]
    # ... but two sparse columns with one cell below each are too little to speak on (a form).
    form = ["| 13 | Enter the amount from Form | | |", "| | 1040NR, line 36 | 13 | |"]
    assert data_header_codes("| 12 | Add lines 9 through 11 | | 12 |", form) == []


def test_running_head_as_header_warns() -> None:
    markdown = f"# Prices\n\n| Page 44 | | |\n|---|---|---|\n{TABLE_BELOW}"
    assert codes(markdown) == ["table.running-head-header"]
    assert codes(f"# Prices\n\n| Pages read | Volume | Rate |\n|---|---|---|\n{TABLE_BELOW}") == []


def test_collapsed_rows_warn_and_a_real_single_row_passes() -> None:
    collapsed = "| Year | Cars | Vans |\n|---|---|---|\n| 2019 2020 2021 | 10 12 15 | 3 4 5 |\n"
    assert codes(f"# Fleet\n\n{collapsed}") == ["table.collapsed-rows"]
    single = "| Year | Cars | Vans |\n|---|---|---|\n| 2021 | 15 | 5 |\n"
    assert codes(f"# Fleet\n\n{single}") == []


def test_a_one_row_table_of_legal_prose_citing_articles_is_no_collapsed_table() -> None:
    old = "제15조(2050 탄소중립녹색성장 위원회의 설치) ① ∼ ④ (생 략) ⑤ 제1항에 따른 위원 3명"
    new = "제15조(2050 탄소중립녹색성장 위원회의 설치) ① ∼ ④ (현행과 같음) ⑤ 위원 5명"
    table = f"| 현 행 | 개 정 안 |\n|---|---|\n| {old} | {new} |\n"
    assert codes(f"# 신ㆍ구조문대비표\n\n{table}") == []


# --- 5 word boundaries -------------------------------------------------------------------------

GLUED = "대한민국정부는국민의안전을위하여최선을다하고있습니다"  # 25 syllables, no space
SPACED = "대한민국 정부는 국민의 안전을 위하여 최선을 다하고 있습니다"


def test_glued_korean_fails_and_spaced_korean_passes() -> None:
    glued = f"# 보고서\n\n<!-- page 1 -->\n\n{GLUED}.\n\n{GLUED}.\n\n{GLUED}.\n"
    (issue,) = found(glued)
    assert (issue.code, issue.severity, issue.line, issue.page) == (
        "text.glued-words", Severity.FAIL, 5, 1,
    )  # fmt: skip
    assert "3 Hangul runs" in issue.message and "page 1" in issue.message
    assert codes(glued.replace(GLUED, SPACED)) == []


COMPOUND = "지방탄소중립녹색성장위원회를"  # 14 syllables: the longest compound of the corpus


def test_one_long_korean_compound_per_page_passes() -> None:
    pages = "".join(f"<!-- page {n} -->\n\n{COMPOUND} {SPACED}.\n\n" for n in range(1, 4))
    assert codes(f"# 보고서\n\n{pages}") == []


def test_one_glued_korean_sentence_fails() -> None:
    """Issue 25: one long glued sentence is enough (it was 3 runs on a page)."""
    (issue,) = found(f"# 보고서\n\n<!-- page 1 -->\n\n{SPACED}. {GLUED}.\n")
    assert (issue.code, issue.severity, issue.line) == ("text.glued-words", Severity.FAIL, 5)
    assert "1 Hangul run without a space" in issue.message


SHORT_WORDS = "올해 모든 학교는 안전 교육을 두 번 이상 열고 그 결과를 알려야 합니다"


def glued_into_text(run: str) -> str:
    body = f"{SPACED}. {SHORT_WORDS}."
    return f"# 보고서\n\n<!-- page 1 -->\n\n{body} {body}\n\n{body} 그래서 {run} 열어야 합니다.\n"


def test_a_short_glued_sentence_fails_by_the_documents_own_spacing() -> None:
    """14 and 10 syllables, under the 15 a run needs alone: words the document writes apart,
    ending in the particles it ends words with (는, 을)."""
    for run in ("모든학교는안전교육을두번이상", "학교는안전교육을두번"):
        (issue,) = found(glued_into_text(run))
        assert (issue.code, issue.line) == ("text.glued-words", 7)
        assert f'"{run}"' in issue.message


def test_a_compound_as_long_passes_in_the_same_text() -> None:
    assert codes(glued_into_text(COMPOUND)) == []


def test_words_kept_hyphenated_warn() -> None:
    text = (
        "The ex-periment and the experiment differ. Ex-isting and existing rules apply. "
        "Use multi-ple or multiple copies."
    )
    (issue,) = found(f"# Notes\n\n{text}\n")
    assert (issue.code, issue.severity) == ("text.hyphenated-words", Severity.WARN)
    assert issue.message.startswith("3 words kept hyphenated")


def test_real_compounds_and_a_single_break_pass() -> None:
    compounds = "A well-known long-term plan, well known and long term: a follow-up to follow up."
    assert codes(f"# Notes\n\n{compounds}\n") == []
    one = "The ex-periment and the experiment differ."
    assert codes(f"# Notes\n\n{one}\n") == []


def test_a_word_broken_into_two_words_counts_beside_a_sure_break() -> None:
    """ "some-what" and "sum-mary" the list cannot tell from compounds (their halves are words
    as common as the joined word): in a paragraph with a sure break they are breaks too."""
    sure = "The ex-periment ran some-what late, as the sum-mary says."
    (issue,) = found(f"# Notes\n\n{sure}\n")
    assert issue.message.startswith("3 words kept hyphenated")
    apart = "The ex-periment ran late.\n\nIt was some-what late, as the sum-mary says."
    assert codes(f"# Notes\n\n{apart}\n") == []


def test_a_break_before_a_suffix_is_a_kept_hyphen() -> None:
    """ "ness" and "less" are words of the list, but no suffix English sets apart."""
    (issue,) = found("# Notes\n\nIts kind-ness was time-less.\n")
    assert issue.message.startswith("2 words kept hyphenated")


RADICAL_LINES = (
    "平成 29 年 1 \u2f49 20 \u2f47",  # 月 and 日 as OCR spaces them
    "(\u2f00) 総則",  # 一 as a list number
    "\u2f06",  # 二 alone: a section number
)


@pytest.mark.parametrize("line", RADICAL_LINES)
def test_a_kangxi_radical_set_apart_in_text_warns(line: str) -> None:
    (issue,) = found(f"# 規則\n\n{line}\n")
    assert (issue.code, issue.line) == ("text.ideograph-variants", 3)


def test_a_line_of_radicals_alone_passes() -> None:
    assert codes("# 部首\n\n\u2f00 \u2f01 \u2f02 \u2f03\n") == []


# --- 6 headings placed mid-sentence ------------------------------------------------------------


def test_heading_inside_a_sentence_warns() -> None:
    markdown = (
        f"# Report\n\n{PROSE}\n\nThe board decided that the\n\n## Annual Review\n\n"
        "remaining funds would be spent on repairs.\n"
    )
    (issue,) = found(markdown)
    assert (issue.code, issue.line) == ("headings.mid-sentence", 7)
    assert '"Annual Review"' in issue.message


def test_heading_between_sentences_passes() -> None:
    markdown = (
        f"# Report\n\n{PROSE}\n\nThe board decided.\n\n## Annual Review\n\n"
        "remaining funds would be spent on repairs.\n\nThe board met\n\n## Budget\n\nThe plan.\n"
    )
    assert codes(markdown) == []


# --- 1 reading order from geometry -------------------------------------------------------------

LEFT_X, RIGHT_X, WIDTH = 56.0, 315.0, 225.0


def two_column_pdf(path: Path, pages: int) -> Path:
    items_by_page = []
    for page in range(pages):
        left = f"Left column {page} text. " + PROSE * 2
        right = f"Right column {page} text. " + PROSE * 2
        items: list[object] = [Text(LEFT_X, 70, f"Minutes part {page + 1}", size=16, bold=True)]
        items += wrapped_paragraph(LEFT_X, 120, WIDTH, left)
        items += wrapped_paragraph(RIGHT_X, 120, WIDTH, right)
        items_by_page.append(items)
    return make_pdf(path, items_by_page)  # type: ignore[arg-type]


def row_by_row(result: ConvertResult, pages: set[int]) -> str:
    """The conversion's Markdown with the given pages read across both columns, row by row."""
    parts = []
    for page in result.document.pages:
        lines = [line for block in page.blocks if block.level == 0 for line in block.lines]
        if page.number in pages:
            lines.sort(key=lambda line: (round(line.bbox.top), line.bbox.x0))
        heading = f"## Minutes part {page.number}"
        parts.append(f"<!-- page {page.number} -->\n\n{heading}\n\n")
        parts.append(" ".join(line.text for line in lines) + "\n\n")
    return "# Minutes\n\n" + "".join(parts)


def column_issues(result: ConvertResult) -> list[Issue]:
    return [i for i in check_conversion(result).issues if i.code == "reading-order.columns"]


def test_interleaved_columns_warn_on_one_page_and_fail_on_many(tmp_path: Path) -> None:
    result = convert_pdf(two_column_pdf(tmp_path / "minutes.pdf", 3))
    (one,) = column_issues(ConvertResult(result.document, row_by_row(result, {2})))
    assert (one.severity, one.page) == (Severity.WARN, 2)
    assert "on page 2:" in one.message
    (many,) = column_issues(ConvertResult(result.document, row_by_row(result, {1, 2, 3})))
    assert (many.severity, many.page) == (Severity.FAIL, 1)
    assert "on pages 1-3:" in many.message


def test_columns_read_in_order_pass(tmp_path: Path) -> None:
    result = convert_pdf(two_column_pdf(tmp_path / "minutes.pdf", 3))
    assert column_issues(result) == []
    assert column_issues(ConvertResult(result.document, row_by_row(result, set()))) == []


def read_across(result: ConvertResult) -> ConvertResult:
    """The conversion with its one page read across, row by row, as one paragraph."""
    lines = [line for block in result.document.pages[0].blocks for line in block.lines]
    lines = [line for line in lines if line.size < 14]  # (not the title)
    lines.sort(key=lambda line: (round(line.bbox.top), line.bbox.x0))
    text = " ".join(line.text for line in lines)
    return ConvertResult(result.document, f"# Title\n\n<!-- page 1 -->\n\n{text}\n")


def test_prose_read_across_into_an_index_with_main_entries_warns(tmp_path: Path) -> None:
    """The index's main entries start left of its sub-entries, inside the gutter: they cross
    no gutter (they were taken for lines of one column running across it)."""
    items: list[object] = [Text(LEFT_X, 70, "Index", size=16, bold=True)]
    items += wrapped_paragraph(LEFT_X, 120, WIDTH, PROSE * 3, size=10)
    for n, main in enumerate(("patents:", "piracy:", "radio:", "remix:")):
        items.append(Text(RIGHT_X, 120 + 36 * n, main, size=10))
        for k, sub in enumerate(("duration of, 54–55, 242", "on film technology, 53–55")):
            items.append(Text(RIGHT_X + 12, 120 + 36 * n + 12 * (k + 1), sub, size=10))
    result = convert_pdf(make_pdf(tmp_path / "index.pdf", [items]))  # type: ignore[list-item]
    assert column_issues(result) == []
    (issue,) = column_issues(read_across(result))
    assert (issue.severity, issue.page) == (Severity.FAIL, 1)  # (10+ pairs)
    assert '+ "duration of, 54–55, 242"' in issue.message


def test_a_line_both_columns_hold_read_down_its_column_passes(tmp_path: Path) -> None:
    """ "Dvul, vulnerability dataset" over "1vul, vulnerability judge" in the right column,
    beside the left column's own "1vul, vulnerability judge": adjacent in the Markdown by the
    right column's order, not by reading across (odl-2408.02509v1's two algorithms)."""
    left = ("vul, validation dataset", "1vul, vulnerability judge", "nP, attack string pool size")
    right = ("n, number of elements to keep", "Dvul, vulnerability dataset")
    right += ("1vul, vulnerability judge",)
    items: list[object] = [Text(LEFT_X, 70, "Algorithms", size=16, bold=True)]
    items += wrapped_paragraph(LEFT_X, 100, WIDTH, PROSE, size=10)
    items += wrapped_paragraph(RIGHT_X, 100, WIDTH, PROSE, size=10)
    items += [Text(LEFT_X + 20, 180 + 12 * k, text, size=10) for k, text in enumerate(left)]
    items += [Text(RIGHT_X + 20, 180 + 12 * k, text, size=10) for k, text in enumerate(right)]
    result = convert_pdf(make_pdf(tmp_path / "algorithms.pdf", [items]))  # type: ignore[list-item]
    assert "Dvul, vulnerability dataset 1vul, vulnerability judge" in result.markdown
    assert column_issues(result) == []


# --- 4 table counts against pdfplumber ---------------------------------------------------------

ROWS = [["Model", "Voltage", "Current"], ["PS-100", "5", "2.0"], ["PS-200", "12", "1.5"]]


def test_table_counts_match_pdfplumber_or_warn(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "grid.pdf", [grid_table(72, 100, (120, 120, 120), 20, ROWS)])
    (block,) = table_blocks(convert_pdf(pdf).document)
    assert check_deep_tables(pdf, [block]) == []
    dropped = dataclasses.replace(block, cells=block.cells[:2])
    (issue,) = check_deep_tables(pdf, [dropped])
    assert (issue.code, issue.severity, issue.page) == ("table.counts-differ", Severity.WARN, 1)
    assert issue.message == ("table on page 1: convert found 3 columns x 2 rows, pdfplumber 3 x 3")


def split_codes(markdown: str) -> list[str]:
    report = check_markdown(markdown, CheckOptions(), source="doc.md")
    return [i.code for i in report.issues if i.code == "headings.split"]


def test_a_heading_that_leaves_a_bracket_open_is_split() -> None:
    body = "This paragraph is the body text of the section, long enough to be read as body text."
    head = "# Minutes\n\n## 44. 고용정책 기본법 일부개정법률안(정태호 의원"
    assert split_codes(f"{head}\n\n대표발의)(의안번호2124946)\n\n{body}\n") == ["headings.split"]
    # A closed heading followed by a short note in brackets (units) is no cut.
    assert split_codes(f"{head} 대표발의)\n\n(단위: 백만원)\n\n{body}\n") == []


KO_BODY = "가. 폐기방법 : 폐기물관리법에 명시된 경우 규정에 따라 내용물 및 용기를 폐기하시오."


def test_a_korean_heading_cut_between_words_is_split() -> None:
    head = "# 물질안전보건자료\n\n## 13. 폐기시"
    assert split_codes(f"{head}\n\n주의사항\n\n{KO_BODY}\n") == ["headings.split"]
    # The same short phrase as a label before a list, or on the next page, is no rest.
    assert split_codes(f"{head}\n\n주의사항\n\n- {KO_BODY}\n") == []
    page_break = f"{head}\n\n<!-- page 2 -->\n\n주의사항\n\n{KO_BODY}\n"
    assert split_codes(page_break) == []
    # A heading that ends a sentence is whole ("WHY?" over a label "手順").
    assert split_codes("# 手引き\n\n#### WHY?\n\n手順\n\nがあります。\n") == []


def test_a_rest_read_as_a_list_item_of_one_line_is_split() -> None:
    body = "Stock-based compensation expense is associated with RSUs, PSUs and our ESPP plans."
    head = "# Annual report\n\n## Note 3"
    item = "- Stock-Based Compensation"
    assert split_codes(f"{head}\n\n{item}\n\n{body}\n") == ["headings.split"]
    assert split_codes(f"{head}\n\n{item}\n- Option Awards\n\n{body}\n") == []


def test_an_article_number_alone_and_a_heading_ending_in_and_are_split() -> None:
    body = "이 계약서에 의한 개인정보 처리업무의 기간은 다음과 같다."
    assert split_codes(f"# 계약서\n\n#### 제4조\n\n(위탁업무 기간)\n\n{body}\n") == [
        "headings.split"
    ]
    text = "Figure 2 shows Earth and the Moon drawn to scale on the same diagram, far apart."
    earth = f"# Astronomy\n\n## Earth and\n\nMoon, Drawn to Scale.\n\n{text}\n"
    assert split_codes(earth) == ["headings.split"]
    # "もの" (a thing) ends a heading; the particle "の" leads on.
    thing = "# 手引き\n\n### 1.3 安全衛生活動により事業者が得られるもの\n\n"
    assert split_codes(f"{thing}一方で、プラスになる面が多数あります。\n") == []


def test_a_label_or_ordinal_mark_waiting_for_its_number_leads_on() -> None:
    body = "Section 5.1 sets out the linear model, its assumptions and how to write it up in full."
    chapter = "# Statistics\n\n## Part V. Chapter\n\nFive - Comparing Associations\n\n"
    assert split_codes(chapter + body + "\n") == ["headings.split"]
    text = "日本ベビーフード協議会は昭和35年に創立し、ベビーフードの安全性を追求してきました。"
    ordinal = "# 自主規格\n\n### ベビーフード自主規格第\n\nV 版発行にあたって\n\n"
    assert split_codes(ordinal + text + "\n") == ["headings.split"]
    chinese = "本公司成立于2020年，是一家专注于人工智能技术研究的高科技企业，总部位于北京。"
    assert split_codes(f"# 年度报告\n\n## 第一章 :\n\n公司概况\n\n{chinese}\n") == [
        "headings.split"
    ]


def test_a_title_case_rest_before_a_short_sentence_is_split() -> None:
    after = "## 6. Related\n\nWork\n\nWe now discuss works that are closely related to ours.\n"
    assert split_codes(f"# Paper\n\n{after}") == ["headings.split"]
    # A salutation before a letter's text, a label before a list, are no rests.
    letter = "### Berwick's Letter\n\nBerwick,\n\nWe need your eyes and ears in the village now.\n"
    assert split_codes(f"# Letters\n\n{letter}") == []
    assert split_codes("# Lab\n\n## III. Digests\n\nReagents:\n\n- Restriction digests\n") == []


def test_a_heading_whose_rest_makes_a_contents_entry_is_split() -> None:
    leaders = "·" * 12
    contents = f"## 목 차\n\n1. 사업 개요{leaders} 3\n\n3. 제안서 목차 및 작성방법{leaders} 32\n\n"
    head = "#### 제안서"
    table = "| 작성항목 | 작성방법 |\n| --- | --- |\n| Ⅰ. 제안 개요 | 사업 이해 |\n"
    assert split_codes(f"# 제안요청서\n\n{contents}{head}\n\n목차 및 작성방법\n\n{table}") == [
        "headings.split"
    ]
    assert split_codes(f"# 제안요청서\n\n{contents}{head}\n\n작성 요령\n\n{table}") == []


EN_BODY = "Check the tides beforehand and stay within the marked channels when you are out there."


def test_a_letter_spaced_heading_wrapped_is_split() -> None:
    assert split_codes(f"# Boats\n\n## H O W C A N Y O\n\nU H E L P ?\n\n{EN_BODY}\n") == [
        "headings.split"
    ]
    assert split_codes(f"# 확약서\n\n### 보 안\n\n확 약 서(대표자용)\n\n{KO_BODY}\n") == [
        "headings.split"
    ]
    assert split_codes(f"# 확약서\n\n### 보 안 확 약\n\n서(대표자용)\n\n{KO_BODY}\n") == [
        "headings.split"
    ]
    # A letter-spaced heading over a sentence of words is whole.
    assert split_codes(f"# Boats\n\n## H E L P\n\nUse the radio.\n\n{EN_BODY}\n") == []


def test_a_rest_opening_with_and_in_korean_or_japanese_is_split() -> None:
    table = (
        "| 1. 회 사 명 |  | 2. 대표자 |  |\n| --- | --- | --- | --- |\n| 3. 사업 분야 |  |  |  |\n"
    )
    assert split_codes(f"# 서식\n\n#### 일반현황\n\n및 연혁\n\n{table}") == ["headings.split"]
    assert split_codes(f"# 様式\n\n### 経営状況\n\n及び沿革\n\n{table}") == ["headings.split"]
    # The same rest without its conjunction is a label before a table (left alone).
    assert split_codes(f"# 서식\n\n#### 일반현황\n\n연혁\n\n{table}") == []


def test_a_heading_and_rest_said_together_elsewhere_are_split() -> None:
    head = "# 카드\n\n## 커피전문점·제과점·편의점 2%\n\n빅포인트 적립\n\n"
    said = "적립한도 없이 커피전문점·제과점·편의점 2% 빅포인트 적립\n\n"
    table = "| 업종 | 적립 대상 |\n| --- | --- |\n| 제과점 | 파리바게뜨, 뚜레쥬르 |\n"
    assert split_codes(head + said + table) == ["headings.split"]
    assert split_codes(head + "적립한도 없이 2% 적립\n\n" + table) == []
    # A contents entry without leaders ("The MuPDF C API 5") makes no page number a rest.
    contents = "# MuPDF\n\nThe MuPDF C API 5\n\n## The MuPDF C API\n\n5\n\nChapter 3\n"
    assert split_codes(contents) == []


def test_a_short_title_case_rest_in_lower_case_ending_a_sentence_is_split() -> None:
    text = "Figure 2 shows Earth and the Moon drawn to scale on the same diagram, far apart."
    assert split_codes(f"# Astronomy\n\n## Earth and Moon, Drawn\n\nto Scale.\n\n{text}\n") == [
        "headings.split"
    ]
    # A sentence from the page before under a running head is no rest of it, nor a line that
    # opens a block.
    code = "## CHAPTER 32. COLORSPACE INTERNALS\n\nenum fz_colorspace_type {\n\n"
    assert split_codes(f"# Book\n\n{code}{text}\n") == []
    assert split_codes(f"# Book\n\n## CHAPTER 27. IMAGES\n\nmemory usage.\n\n{text}\n") == []


def test_a_title_case_rest_with_a_bracketed_qualifier_is_split() -> None:
    body = "A What country issued your passport? M If you are claiming the benefits of a treaty."
    rest = "Information (If an item does not apply to you, enter “N/A.”)"
    assert split_codes(f"# Form\n\n## Other\n\n{rest}\n\n{body}\n") == ["headings.split"]
    # A qualifier alone after a heading is a subtitle set apart on purpose.
    assert split_codes(f"# Report\n\n## 3.3 Roles\n\n(Web Annex A)\n\n{body}\n") == []


def test_a_rest_ending_in_a_colon_as_the_documents_headings_do_is_split() -> None:
    body = "In most situations, your physician or supplier will submit your claim to Medicare."
    doc = f"# Medicare\n\n#### Part B\n\nServices:\n\n{body}\n\n#### Durable Equipment:\n\n{body}\n"
    doc += f"\n#### Vaccinations:\n\n{body}\n"
    assert split_codes(doc) == ["headings.split"]
    # Where headings do not end in colons, a title-case word with a colon is a label.
    assert split_codes(doc.replace("Equipment:", "Equipment")) == []  # (one is no style)


def test_a_korean_rest_before_an_enumerated_item_is_split() -> None:
    item = "가. 기능 요구사항(System Function Requirement)"
    assert split_codes(f"# 제안요청서\n\n### 3. 상세\n\n요구사항\n\n{item}\n") == ["headings.split"]
    assert split_codes("# 제안요청서\n\n### 3. 상세\n\n요구사항\n\n기능 요구사항\n") == []


def test_title_case_with_quotes_long_prepositions_and_dashed_numbers_is_split() -> None:
    """Title case as headings write it: a quoted word, a long preposition in lower case, a
    number ending in a dash, an abbreviation with stops."""
    body = "As you know from your reading and class discussion, clay minerals have layers."
    for head, rest in (
        ("The “Mineralogy”", "Method"),
        ("8 Choosing between Observer", "Models and Rejecting Participants"),
        ("02- Prepare", "Your Content"),
        ("Tax on Income Not Effectively Connected", "With a U.S. Trade or Business"),
        ("1.5. Migrant Workers More at Risk of COVID-19", "Infection"),  # (by the heading)
    ):
        assert split_codes(f"# Guide\n\n## {head}\n\n{rest}\n\n{body}\n") == ["headings.split"]
    # A title-case rest goes on in the case of the heading or of its last word: capitals after
    # a last word in capitals; not title case after a heading all in capitals.
    items = "- Print your name as shown on your Medicare card\n- Print your date of birth\n"
    caps = "# Form\n\n## Section 1 – PATIENT\n\nINFORMATION\n\n"
    assert split_codes(caps + items) == ["headings.split"]
    all_caps = "# Form\n\n## SECTION 1 – PATIENT\n\nPrint Your Name\n\n"
    assert split_codes(all_caps + items) == []


def test_a_slash_or_a_modal_verb_leads_on() -> None:
    """Leading on, the rest needs neither body text after it nor title case."""
    body = "Use the right tools, and learn the basics of tagging before you make the document."
    assert split_codes(f"# Talk\n\n## How to get Tagged /\n\nAccessible PDF\n\n{body}\n") == [
        "headings.split"
    ]
    flyer = "# Flyer\n\n#### WHAT YOU CAN\n\nDO\n\nCC0, 2022\n"
    assert split_codes(flyer) == ["headings.split"]
    assert split_codes(flyer.replace("CAN", "DO").replace("DO\n\nCC0", "TODAY\n\nCC0")) == []


def test_a_japanese_rest_opening_with_a_particle_or_an_iroha_number_is_split() -> None:
    body = "この規格は、ベビーフードに用いる容器における衛生基準を定めることを目的とする。"
    assert split_codes("# 資料\n\n## “Yigal”\n\nの出現頻度 (95年)\n\n時間\n") == ["headings.split"]
    assert split_codes(f"# 規格\n\n## ル .\n\nベビーフード容器包装の品質規格\n\n{body}\n") == [
        "headings.split"
    ]
    # A rest in kana that begins with the same kana is a word of its own ("はじめに").
    assert split_codes("# 資料\n\n## 第1部\n\nはじめに\n\n時間\n") == []


def test_a_caption_made_heading_is_promoted_not_split() -> None:
    body = "Results of the survey are shown below for every region in the study, year by year."
    report = check_markdown(f"# Survey\n\n## Figure 3: Results of the\n\nsurvey\n\n{body}\n")
    assert [i.code for i in report.issues if i.code.startswith("headings.")] == [
        "headings.promoted"
    ]


def all_codes(markdown: str) -> list[str]:
    return [issue.code for issue in check_markdown(markdown).issues]


def test_a_page_with_no_boxes_line_held_only_furniture_and_is_not_missing_text() -> None:
    """convert's boxes trailer lists the pages it wrote text on: a page missing from it held a
    running head or page number only; a page listed there with nothing under its marker lost
    its text after convert."""
    text = "This page holds a paragraph of body text, long enough to be a page of its own text."
    pages = (
        f"<!-- page 1 -->\n\n# Report\n\n{text}\n\n<!-- page 2 -->\n\n<!-- page 3 -->\n\n{text}\n"
    )
    boxes = "<!-- boxes page={} crc=00000000 0,10,72,72,500,90 -->"
    trailer = "\n" + "\n".join(boxes.format(n) for n in (1, 3)) + "\n"
    assert "pages.missing-text" not in all_codes(pages + trailer)
    lost = "\n" + "\n".join(boxes.format(n) for n in (1, 2, 3)) + "\n"
    assert "pages.missing-text" in all_codes(pages + lost)
    assert "pages.missing-text" in all_codes(pages)  # (no trailer: its neighbours have text)


def test_a_label_ending_in_a_colon_before_a_list_is_body_after_a_rest() -> None:
    after = "Reagents:\n\n- Restriction digests from Part II, on ice\n- 10x loading dye\n"
    assert split_codes(f"# Lab\n\n## III. Electrophorese\n\nDigests\n\n{after}") == [
        "headings.split"
    ]
    # A label before a line of text opens nothing.
    assert split_codes("# Lab\n\n## III. Electrophorese\n\nDigests\n\nReagents:\n\nDye\n") == []

"""check: each check on a generated document that has exactly that defect, and on clean ones.

Chunks are built by hand here (the chunk checks do not depend on how `split` cuts); the samples
test at the end runs the real splitter.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkcli.charclasses import LATIN1_LETTER
from chunkcli.charclasses import UNUSABLE_CHAR as BAD_CHAR
from chunkcli.check import (
    CheckOptions,
    DocumentReport,
    check_conversion,
    check_markdown,
    corpus_to_dict,
    github_annotations,
    report_to_dict,
    summarize_corpus,
    unreadable_report,
)
from chunkcli.check.pages import (
    garbage_share,
    is_bad_char,
    is_latin1_letter,
    spaced_cjk_share,
)
from chunkcli.check.scan import LineKind, scan_markdown
from chunkcli.check.wording import page_ranges
from chunkcli.markdown_format import split_cells
from chunkcli.model import (
    Chunk,
    ChunkKind,
    ConvertResult,
    Document,
    Page,
    PageStatus,
    Severity,
)

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

PROSE = (
    "The committee reviewed the annual figures and approved the budget for the coming year. "
    "Each department submitted its plan before the deadline."
)


NAMES = "Alder Birch Cedar Daisy Elm Fern Gorse Hazel Iris Juniper Kale Laurel".split()


def prose(n: int) -> str:
    """Two sentences that differ from every other prose(m) (so they never look like boilerplate)."""
    return f"{NAMES[n]} reviewed the annual figures and approved the budget. {NAMES[n]} agreed."


def chunk(body: str, tokens: int, *, start: int = 0, oversize: bool = False) -> Chunk:
    return Chunk(
        id=f"c{start}",
        doc_id="doc",
        source="t.md",
        source_sha256="",
        title="",
        heading_path=(),
        kind=ChunkKind.SECTION,
        prefix="",
        body=body,
        start=start,
        end=start + len(body),
        page_start=None,
        page_end=None,
        tokens=tokens,
        oversize=oversize,
    )


def run(markdown: str, chunks: Sequence[Chunk] = (), **options: object) -> DocumentReport:
    return check_markdown(markdown, CheckOptions(**options), source="t.md", chunks=chunks)  # type: ignore[arg-type]


def codes(report: DocumentReport) -> list[str]:
    return [issue.code for issue in report.issues]


def issue(report: DocumentReport, code: str):  # type: ignore[no-untyped-def]
    found = [i for i in report.issues if i.code == code]
    assert found, f"{code} not in {codes(report)}"
    return found[0]


def pages(*bodies: str) -> str:
    """Markdown with one `<!-- page N -->` marker before each body."""
    return "\n\n".join(f"<!-- page {n} -->\n\n{body}" for n, body in enumerate(bodies, 1)) + "\n"


VOCABULARY = (
    "river stone budget garden engine winter ledger harbor violin copper meadow signal "
    "lantern orchard thunder cabinet falcon saddle quarry timber velvet anchor pepper"
).split()


def many_chunks(count: int) -> list[Chunk]:
    """`count` chunks of 30 seeded-random words each: no two alike."""
    bodies = [" ".join(random.Random(i).choices(VOCABULARY, k=30)) for i in range(count)]
    return [chunk(body, 40, start=i) for i, body in enumerate(bodies)]


# --- scanning ---------------------------------------------------------------------------------


def test_scan_reads_headings_tables_markers_and_skips_code() -> None:
    markdown = (
        "<!-- page 1 -->\n\nTitle\n=====\n\n## Part *one* ##\n\n"
        "```\n# not a heading\n| a |\n```\n\n"
        "| a | b \\| c |\n|---|:-:|\n| 1 | 2 |\n\n<!-- page 2: no text layer (image only) -->\n"
    )
    scan = scan_markdown(markdown)
    assert [(h.level, h.text, h.line) for h in scan.headings] == [
        (1, "Title", 3),
        (2, "Part *one*", 6),
    ]
    assert len(scan.tables) == 1
    assert scan.tables[0].header.cells == ("a", "b \\| c")
    assert [(m.number, m.status) for m in scan.markers] == [
        (1, PageStatus.TEXT),
        (2, PageStatus.IMAGE_ONLY),
    ]
    assert [line.kind for line in scan.lines if line.text == "# not a heading"] == [LineKind.CODE]


def test_split_cells_keeps_escaped_pipes_and_empty_cells() -> None:
    assert split_cells("| a | | c\\|d |") == ("a", "", "c\\|d")
    assert split_cells("a | b") == ("a", "b")


def test_page_ranges() -> None:
    assert page_ranges([9, 1, 3, 4, 5]) == "1, 3-5, 9"


# --- headings ---------------------------------------------------------------------------------


def test_no_headings_warns_when_the_document_needs_several_chunks() -> None:
    report = run(PROSE + "\n", many_chunks(3))
    assert issue(report, "headings.none").severity == Severity.WARN
    assert report.status == Severity.WARN


def test_no_headings_is_fine_for_a_table_sheet() -> None:
    rows = "\n".join(f"| {NAMES[i % 12]} | {i} |" for i in range(40))
    markdown = f"Background checks by state.\n\n| State | Checks |\n| --- | --- |\n{rows}\n"
    assert "headings.none" not in codes(run(markdown, many_chunks(3)))


def test_no_headings_is_fine_for_a_single_chunk() -> None:
    assert codes(run(PROSE + "\n", many_chunks(1))) == []


def test_flat_hierarchy_in_a_long_document() -> None:
    markdown = "".join(f"## {NAMES[i]}\n\n{prose(i)}\n\n" for i in range(12))
    assert "headings.flat" in codes(run(markdown, many_chunks(41)))
    assert "headings.flat" not in codes(run(markdown, many_chunks(12)))  # short: fine by design


def test_flat_hierarchy_whose_numbers_nest() -> None:
    markdown = "".join(
        f"## {number} {NAMES[i]}\n\n{prose(i)}\n\n" for i, number in enumerate(["1", "1.1", "2"])
    )
    found = issue(run(markdown), "headings.flat")
    assert "numbers nest" in found.message and found.line == 1


def test_an_isolated_skipped_level_is_a_note_naming_heading_and_line() -> None:
    report = run(f"# Title\n\n{PROSE}\n\n### Detail\n\n{PROSE}\n")
    found = issue(report, "headings.skipped-level")
    assert found.line == 5 and '"Detail"' in found.message
    assert found.severity == Severity.OK and report.status == Severity.OK


def test_systematic_skipped_levels_warn() -> None:
    sections = "".join(
        f"## {NAMES[i]}\n\n{prose(i)}\n\n#### {NAMES[i]} detail\n\n{prose(i + 1)}\n\n"
        for i in range(3)
    )
    found = issue(run(f"# Title\n\n{sections}"), "headings.skipped-level")
    assert found.severity == Severity.WARN and "3 heading(s)" in found.message


def test_several_h1() -> None:
    report = run(f"# One\n\n{PROSE}\n\n# Two\n\n{PROSE}\n")
    assert issue(report, "headings.several-h1").line == 5


def test_running_head_left_as_heading() -> None:
    markdown = pages(*(f"## ACME Annual Report 2024\n\n{PROSE}" for _ in range(4)))
    found = issue(run(markdown), "headings.repeated")
    assert "4 times on 4 of 4 pages (1-4)" in found.message


def test_a_heading_repeated_on_two_pages_is_not_a_running_head() -> None:
    markdown = pages(f"# Doc\n\n## Example\n\n{PROSE}", f"## Example\n\n{PROSE}", PROSE)
    assert "headings.repeated" not in codes(run(markdown))


# --- tables -----------------------------------------------------------------------------------


def test_row_with_wrong_cell_count_fails_naming_line_and_page() -> None:
    markdown = pages(PROSE, f"# T\n\n{PROSE}\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 | 5 |")
    report = run(markdown)
    found = issue(report, "table.row-cells")
    assert found.severity == Severity.FAIL and report.status == Severity.FAIL
    assert found.page == 2
    assert found.line == 11
    assert "at line 11, page 2" in found.message and "line 14 has 3" in found.message


def test_escaped_pipe_is_not_a_cell_separator() -> None:
    markdown = f"# Title\n\n{PROSE}\n\n| a | b |\n| --- | --- |\n| 1 | x\\|y |\n"
    assert codes(run(markdown)) == []


def test_delimiter_row_with_wrong_cell_count_fails() -> None:
    markdown = f"# Title\n\n{PROSE}\n\n| a | b |\n| --- |\n| 1 | 2 |\n"
    assert issue(run(markdown), "table.delimiter-cells").severity == Severity.FAIL


def test_empty_header_row_warns() -> None:
    markdown = f"# T\n\n{PROSE}\n\n|  |  |\n| --- | --- |\n| 1 | 2 |\n"
    report = run(markdown)
    assert issue(report, "table.empty-header").severity == Severity.WARN
    assert report.tables == 1


# --- pages and garbage text -------------------------------------------------------------------


def test_scanned_pages_warn_and_are_named() -> None:
    markdown = (
        f"<!-- page 1 -->\n\n# Doc\n\n{PROSE} {PROSE}\n\n"
        "<!-- page 2: no text layer (image only) -->\n\n"
        "<!-- page 3: no text layer (image only) -->\n"
        f"\n<!-- page 4 -->\n\n{PROSE} {PROSE} {PROSE}\n"
    )
    report = run(markdown)
    found = issue(report, "pages.scanned")
    assert found.severity == Severity.WARN and "pages 2-3" in found.message
    assert report.scanned_pages == (2, 3) and report.pages == 4


def test_image_only_cover_is_a_note() -> None:
    markdown = "<!-- page 1: no text layer (image only) -->\n\n" + "".join(
        f"<!-- page {n} -->\n\n# Doc {n}\n\n{prose(n)} {prose(n + 1)}\n\n" for n in (2, 3)
    ).replace("# Doc 3", "## Doc 3")
    report = run(markdown)
    assert issue(report, "pages.image-cover").severity == Severity.OK
    assert report.status == Severity.OK and report.scanned_pages == (1,)


def test_blank_page_is_a_note_not_a_warning() -> None:
    markdown = f"<!-- page 1 -->\n\n# Doc\n\n{PROSE}\n\n<!-- page 2: blank -->\n"
    report = run(markdown)
    assert issue(report, "pages.blank").severity == Severity.OK
    assert report.status == Severity.OK and report.empty_pages == (2,)


def test_near_empty_text_pages_are_named_in_a_note() -> None:
    markdown = pages(f"# Doc\n\n{prose(0)}", "Fig. 2", f"## Part\n\n{prose(1)}")
    report = run(markdown)
    found = issue(report, "pages.near-empty")
    assert found.severity == Severity.OK and found.page == 2 and report.status == Severity.OK


def test_pages_emptied_into_a_continued_table_are_not_near_empty() -> None:
    rows = "\n".join(f"| {NAMES[i % 12]} | {i} |" for i in range(30))
    markdown = (
        f"<!-- page 1 -->\n\n# Doc\n\n{prose(0)}\n\n| Name | N |\n| --- | --- |\n{rows}\n\n"
        f"<!-- page 2 -->\n\n<!-- page 3 -->\n\n## End\n\n{prose(1)}\n"
    )
    assert "pages.near-empty" not in codes(run(markdown))


def test_unusable_text_layer_marker_fails() -> None:
    markdown = (
        f"<!-- page 1 -->\n\n# Doc\n\n{PROSE}\n\n"
        "<!-- page 2: unusable text layer (treated as image only) -->\n"
    )
    report = run(markdown)
    assert issue(report, "pages.garbage").severity == Severity.FAIL
    assert report.garbage_pages == (2,)


@pytest.mark.parametrize(
    "garbage",
    [
        "(cid:12)(cid:13)(cid:14) " * 12,
        "\ufffd\ufffd abc \ufffd\ufffd " * 10,
        "\ue001\ue002\ue003 word " * 10,
        "\x00\x00\x00\x00 " * 20,
    ],
    ids=["cid", "fffd", "private-use", "nul"],
)
def test_garbage_text_from_another_tool_fails(garbage: str) -> None:
    markdown = pages(f"# Doc\n\n{PROSE}", f"{garbage}\n\n{PROSE}")
    found = issue(run(markdown), "text.garbage")
    assert found.severity == Severity.FAIL and found.page == 2


@settings(max_examples=200, deadline=None)
@given(st.characters())
def test_regex_character_classes_match_their_predicates(char: str) -> None:
    assert bool(BAD_CHAR.match(char)) == is_bad_char(char)
    assert bool(LATIN1_LETTER.match(char)) == is_latin1_letter(char)


def test_latin1_mojibake_fails_but_french_passes() -> None:
    mojibake = "<2023~þj_V_öí¿ÿ=ÏýÖ ÃÃÂ¿Ã¿Ã½ ÏýÖ¿ÿ ñÏ1 öí¿ÿ ÃÂ¿Ã¿ Ã½Ã¿"
    found = issue(run(pages(f"# Doc\n\n{prose(0)}", mojibake)), "text.garbage")
    assert found.page == 2 and "mojibake" in found.message
    french = "# Été\n\nLe comité a étudié les dépenses de l'année et a approuvé le budget élevé."
    assert codes(run(french)) == []
    leaders = "\n\n".join(f"{n}. 사업 추진 개요와 배경 {'·' * 40} {n + 2}" for n in range(1, 9))
    assert codes(run(f"# 목차\n\n{leaders}")) == []  # table-of-contents leaders are not mojibake


def test_garbage_without_page_markers_names_the_text() -> None:
    found = issue(run("(cid:3)(cid:4)(cid:5)(cid:6) " * 30), "text.garbage")
    assert found.page is None and found.line == 1 and found.message.startswith("line 1: ")


def test_garbled_stretch_of_a_long_document_without_markers_is_found() -> None:
    clean = "\n\n".join(prose(n % 12) + f" Item {n}." for n in range(60))
    garbled = "\n\n".join("\ufffd\ufffd\ufffd abc \ufffd\ufffd " * 8 for _ in range(10))
    found = issue(run(f"# Doc\n\n{clean}\n\n{garbled}\n\n{clean}\n"), "text.garbage")
    assert found.page is None and found.line is not None and found.line > 60  # its window
    assert found.message.startswith("lines ")


def test_a_few_private_use_bullets_are_not_garbage() -> None:
    markdown = f"# Doc\n\n\ue000 {PROSE}\n\n\ue000 {PROSE}\n"
    assert garbage_share(markdown)[0] < 0.05
    assert codes(run(markdown)) == []


def test_spaced_cjk_fails_but_normal_japanese_and_korean_pass() -> None:
    spaced = " ".join("日本語の文章ですこれは試験の文章です。日本語の文章です")
    assert spaced_cjk_share(spaced) > 0.9
    found = issue(run(pages(f"# 文書\n\n{spaced}")), "text.spaced-cjk")
    assert found.severity == Severity.FAIL and found.page == 1
    japanese = "日本語の文章です。これは試験の文章です。行をつなぐときに空白を入れません。"
    korean = (
        "국회 환경노동위원회는 오늘 회의를 열고 법률안을 심사하였습니다. "
        "위원장은 의결을 선포하였습니다."
    )
    assert spaced_cjk_share(japanese) == 0.0
    assert spaced_cjk_share(korean) < 0.5
    assert codes(run(pages(f"# 文書\n\n{japanese}\n\n{korean}"))) == []


def test_almost_empty_document_fails() -> None:
    markdown = "<!-- page 1 -->\n\nFig. 1\n\n<!-- page 2 -->\n\n3\n\n<!-- page 3 -->\n"
    found = issue(run(markdown), "document.almost-empty")
    assert found.severity == Severity.FAIL and "over 3 pages" in found.message


def test_fully_scanned_document_fails_and_warns() -> None:
    markdown = "".join(f"<!-- page {n}: no text layer (image only) -->\n\n" for n in range(1, 4))
    report = run(markdown)
    assert {"pages.scanned", "document.almost-empty"} <= set(codes(report))
    assert report.status == Severity.FAIL


# --- boilerplate ------------------------------------------------------------------------------


def test_running_footer_repeated_on_pages_warns_with_line_and_count() -> None:
    markdown = pages(
        *(f"# Doc\n\n{prose(n)}\n\nACME Corp. Confidential - page {n} of 5" for n in range(1, 6))
    )
    report = run(markdown)
    found = issue(report, "boilerplate.repeated-line")
    assert "repeats on 5 of 5 pages" in found.message and "ACME Corp. Confidential" in found.message
    assert report.boilerplate_lines == 1


def test_a_sentence_repeated_mid_page_is_content_not_boilerplate() -> None:
    markdown = pages(
        *(
            f"# Doc {n}\n\n{prose(n)}\n\nThe rate is set out in Annex 2.\n\n"
            f"{prose(n + 4)}\n\n{prose(n + 8)}"
            for n in range(4)
        )
    )
    assert "boilerplate.repeated-line" not in codes(run(markdown))


def test_repeated_list_items_are_not_boilerplate() -> None:
    markdown = pages(
        *(f"# Doc\n\n{prose(n)}\n\n- Source: ECHA registration dossier" for n in range(4))
    )
    assert "boilerplate.repeated-line" not in codes(run(markdown))


def test_line_on_two_pages_is_not_boilerplate() -> None:
    markdown = pages(
        f"# Doc\n\nSee the appendix.\n\n{prose(1)}", f"See the appendix.\n\n{prose(2)}", prose(3)
    )
    assert "boilerplate.repeated-line" not in codes(run(markdown))


def test_boilerplate_across_chunks_without_page_markers() -> None:
    footer = "Copyright 2024 Example Ltd. All rights reserved."
    sections = [f"## Part {i}\n\n{PROSE}\n\n{footer}\n" for i in range(4)]
    markdown = "# Doc\n\n" + "\n".join(sections)
    chunks = [chunk(section, 60, start=i) for i, section in enumerate(sections)]
    assert "boilerplate.repeated-line" in codes(run(markdown, chunks))


# --- reading order ----------------------------------------------------------------------------


def test_interleaved_columns_warn_with_examples() -> None:
    left = ["The first column explains how the method", "Our data set was collected from the"]
    right = [
        "Results are shown in the second table of this paper.",
        "We thank the reviewers for their help with the draft.",
    ]
    body = "\n\n".join(
        f"{a}\n\n{b}\n\nworks on every page of the corpus."
        for a, b in zip(left * 2, right * 2, strict=True)
    )
    found = issue(run(pages(f"# Doc\n\n{body}")), "reading-order.interrupted")
    assert found.severity == Severity.WARN and "line" in found.message


def test_equations_footnote_marks_and_lists_do_not_look_interleaved() -> None:
    paragraphs = [
        "We define the loss of the model over the training set as",  # an equation follows
        "L = sum_i (y_i - f(x_i))^2 + 0.5 * 3.14",
        "where the sum runs over every example.",
        "You can always flip off the modem when you do not like it.1",  # a footnote mark
        "Pogue was skeptical of the core argument of the book in his review.",
        "and yet the book sold well in every country it reached.",
        "The attacker pre-processes the input, namely the prefix p and the suffix",
        "- s. To reduce the search space the attack uses a template.",  # a list continues it
        "The design of the template needs three decisions in all.",
        "time, short comments do not change the input much at all.",
    ]
    markdown = pages("# Doc\n\n" + "\n\n".join(paragraphs * 2))
    assert "reading-order.interrupted" not in codes(run(markdown))


def test_unjoined_hyphenation_warns() -> None:
    lines = "\n".join(
        f"The measure- \nments of sample {i} were care-\nfully recorded." for i in range(6)
    )
    assert "reading-order.broken-words" in codes(run(f"# Doc\n\n{lines}\n"))


def test_paragraph_continued_on_next_page_is_normal() -> None:
    markdown = pages(
        f"# Doc\n\n{PROSE}\n\nThe results of the survey are described in the following",
        "section of this report, together with the method.",
    )
    assert codes(run(markdown)) == []


# --- chunks -----------------------------------------------------------------------------------


def test_chunk_over_the_limit_fails_but_an_unbreakable_one_is_a_note() -> None:
    markdown = f"# Doc\n\n{PROSE}\n"
    over = run(markdown, [chunk(PROSE, 900)])
    assert issue(over, "chunks.over-limit").severity == Severity.FAIL
    unbreakable = run(markdown, [chunk(PROSE, 900, oversize=True)])
    assert issue(unbreakable, "chunks.unbreakable").severity == Severity.OK
    assert unbreakable.status == Severity.OK


def test_crumbs_warn() -> None:
    report = run(f"# Doc\n\n{PROSE}\n", [chunk(PROSE, 40), chunk("See above.", 3, start=50)])
    found = issue(report, "chunks.crumbs")
    assert "1 chunks" in found.message and '"See above."' in found.message


def test_near_duplicate_chunks_warn_and_distinct_ones_do_not() -> None:
    other = (
        "A completely different paragraph about rainfall in the northern valleys in spring. " * 2
    )
    copies = [chunk(PROSE, 40), chunk(other, 40, start=1), chunk(PROSE.upper() + " 2", 40, start=2)]
    found = issue(run(f"# Doc\n\n{PROSE}\n", copies), "chunks.near-duplicates")
    assert "chunk 3" in found.message and "chunk 1" in found.message
    assert "chunks.near-duplicates" not in codes(run(f"# Doc\n\n{PROSE}\n", copies[:2]))


def test_table_parts_that_differ_only_in_numbers_are_not_duplicates() -> None:
    header = "| Year | Holders | Shares |\n| --- | --- | --- |\n"
    parts = [
        header
        + "\n".join(f"| {2000 + i} | {i * 37 + start} | {i * 91 + start} |" for i in range(8))
        for start in (1000, 5000)
    ]
    chunks = [chunk(part, 120, start=n) for n, part in enumerate(parts)]
    assert "chunks.near-duplicates" not in codes(run(f"# Doc\n\n{PROSE}\n", chunks))


def test_report_counts_chunks_and_tokens() -> None:
    report = run(f"# Doc\n\n{PROSE}\n", [chunk(PROSE, 30), chunk(PROSE[::-1], 25, start=1)])
    assert (report.chunks, report.tokens) == (2, 55)


# --- strictness, conversions, reports ---------------------------------------------------------


def test_strict_turns_warnings_into_failures() -> None:
    markdown = f"# One\n\n{PROSE}\n\n# Two\n\n{PROSE}\n"
    assert run(markdown).status == Severity.WARN
    strict = run(markdown, strict=True)
    assert strict.status == Severity.FAIL
    assert all(i.severity == Severity.FAIL for i in strict.issues)


def test_check_conversion_takes_page_statuses_from_the_document() -> None:
    document = Document(
        "scan.pdf",
        (
            Page(1, 595, 842, (), PageStatus.TEXT),
            Page(2, 595, 842, (), PageStatus.IMAGE_ONLY),
            Page(3, 595, 842, (), PageStatus.GARBAGE),
        ),
    )
    markdown = f"<!-- page 1 -->\n\n# Doc\n\n{PROSE} {PROSE} {PROSE}\n"
    result = ConvertResult(document, markdown)
    report = check_conversion(result, CheckOptions())
    assert report.source == "scan.pdf" and report.pages == 3
    assert report.scanned_pages == (2,) and report.garbage_pages == (3,)
    assert {"pages.scanned", "pages.garbage"} <= set(codes(report))


def test_a_small_banner_page_is_not_expected_to_hold_a_page_of_text() -> None:
    markdown = "<!-- page 1 -->\n\n침하게흐린품이눈이올듯하더니눈은아니오고얼다가만비가추\n"
    banner = ConvertResult(Document("b.pdf", (Page(1, 450, 50, ()),)), markdown)
    a4 = ConvertResult(Document("a.pdf", (Page(1, 595, 842, ()),)), markdown)
    assert "document.almost-empty" not in codes(check_conversion(banner))
    assert "document.almost-empty" in codes(check_conversion(a4))


def test_report_json_has_the_documented_fields_and_is_deterministic() -> None:
    markdown = pages(f"# Doc\n\n{PROSE}\n\n| a | b |\n| - | - |\n| 1 |")
    first = report_to_dict(run(markdown))
    assert list(first) == [
        "source", "status", "pages", "headings_by_level", "max_heading_depth", "tables",
        "empty_pages", "scanned_pages", "garbage_pages", "boilerplate_lines", "chunks",
        "tokens", "ocr_pages", "ocr_skipped_pages", "issues",
    ]  # fmt: skip
    assert first["headings_by_level"] == [1, 0, 0, 0, 0, 0]
    assert first["issues"] == [
        {
            "code": "table.row-cells",
            "severity": "fail",
            "message": "table at line 7, page 1: 1 of 1 rows do not have the header's 2 cells "
            "(first: line 9 has 1)",
            "line": 7,
            "page": 1,
        }
    ]
    assert json.dumps(first) == json.dumps(report_to_dict(run(markdown)))


def test_corpus_summary_counts_statuses_and_codes() -> None:
    ok = run(f"# Doc\n\n{PROSE}\n")
    warn = run(f"# Alpha\n\n{PROSE}\n\n# Beta\n\n{PROSE}\n")
    fail = unreadable_report("bad.pdf", "bad.pdf: not a PDF")
    summary = summarize_corpus([ok, warn, fail])
    assert (summary.ok, summary.warn, summary.fail, summary.status) == (1, 1, 1, Severity.FAIL)
    assert dict(summary.issue_documents) == {"headings.several-h1": 1, "document.unreadable": 1}
    data = corpus_to_dict([ok], CheckOptions())
    assert data["schema_version"] == 1 and data["summary"]["status"] == "ok"  # type: ignore[index]


def test_github_annotations_escape_and_locate() -> None:
    report = check_markdown(
        f"# Alpha\n\n{PROSE}\n\n# B, 100%\n\n{PROSE}\n", source="docs/a,b.md", chunks=()
    )
    (line,) = github_annotations([report])
    assert line.startswith(
        "::warning file=docs/a%2Cb.md,line=5,title=chunkcli headings.several-h1::"
    )
    pdf = unreadable_report("x.pdf", "x.pdf: encrypted\nsecond line")
    assert github_annotations([pdf]) == [
        "::error file=x.pdf,title=chunkcli document.unreadable::x.pdf: encrypted%0Asecond line"
    ]


# --- clean documents: no false alarms ---------------------------------------------------------

WORDS = st.sampled_from(
    "data model table report section value system method result policy budget figure".split()
)
SENTENCE = st.lists(WORDS, min_size=4, max_size=12).map(lambda ws: " ".join(ws).capitalize() + ".")
PARAGRAPH = st.lists(SENTENCE, min_size=2, max_size=4).map(" ".join)


@st.composite
def clean_documents(draw: st.DrawFn) -> str:
    """An outline H1 > H2 > H3 with prose and well-formed tables, with page markers."""
    parts = ["<!-- page 1 -->", "# Handbook", prose(0) + " " + draw(PARAGRAPH)]
    for section in range(draw(st.integers(1, 4))):
        parts += [f"<!-- page {section + 2} -->", f"## Section {section + 1}"]
        parts.append(prose(section + 1) + " " + draw(PARAGRAPH))
        for sub in range(draw(st.integers(0, 2))):
            parts += [f"### Topic {section + 1}.{sub + 1}", draw(PARAGRAPH)]
        if draw(st.booleans()):
            columns = draw(st.integers(1, 4))
            rows = draw(st.lists(st.lists(WORDS, min_size=columns, max_size=columns), max_size=4))
            parts.append(
                "\n".join(
                    ["| " + " | ".join(f"h{c}" for c in range(columns)) + " |"]
                    + ["|" + " --- |" * columns]
                    + ["| " + " | ".join(row) + " |" for row in rows]
                )
            )
    return "\n\n".join(parts) + "\n"


@settings(max_examples=60, deadline=None)
@given(clean_documents())
def test_clean_generated_documents_pass_without_warnings(markdown: str) -> None:
    report = run(markdown, [chunk(markdown, 100)])
    assert report.status == Severity.OK, [i.message for i in report.issues]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gives_a_report_and_never_crashes(markdown: str) -> None:
    report = run(markdown)
    assert report.status in (Severity.OK, Severity.WARN, Severity.FAIL)
    assert report_to_dict(report) == report_to_dict(run(markdown))


def test_samples_are_clean_their_scanned_page_read_by_ocr() -> None:
    expected = sorted(SAMPLES.glob("*.expected.md"))
    if not expected:
        pytest.skip("no samples")
    for path in expected:
        report = check_markdown(path.read_text(encoding="utf-8"), source=path.name)
        non_ok = {i.code for i in report.issues if i.severity != Severity.OK}
        assert non_ok == set(), (path.name, [i.message for i in report.issues])


@settings(max_examples=25, deadline=None)
@given(clean_documents(), st.sampled_from([48, 96, 800]))
def test_split_output_passes_the_chunk_checks(markdown: str, max_tokens: int) -> None:
    """check as the oracle of split: real chunks of clean documents are within the limit."""
    report = check_markdown(markdown, CheckOptions(max_tokens=max_tokens), source="gen.md")
    assert "chunks.over-limit" not in codes(report), [i.message for i in report.issues]
    assert report.chunks >= 1 and report.tokens > 0


def test_the_check_library_imports_neither_rich_nor_typer() -> None:
    code = (
        "import sys, chunkcli.check, chunkcli.check.corpus, chunkcli.check.rulings; "
        "assert not {'rich', 'typer'} & set(sys.modules), sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_finding_limits_are_settings_of_check_options() -> None:
    """One skipped level is a note by default; CheckOptions.limits makes one enough to warn."""
    from dataclasses import replace

    from chunkcli.check.options import FindingLimits

    markdown = f"# Title\n\n{PROSE}\n\n### Detail\n\n{PROSE}\n"
    strict_levels = CheckOptions(limits=replace(FindingLimits(), skipped_level_min=1))
    default = issue(check_markdown(markdown), "headings.skipped-level")
    tuned = issue(check_markdown(markdown, strict_levels), "headings.skipped-level")
    assert (default.severity, tuned.severity) == (Severity.OK, Severity.WARN)

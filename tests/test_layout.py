"""Layout and rendering without PDFs: blocks built by a small factory, Markdown asserted."""

from __future__ import annotations

from collections.abc import Callable

from conftest import heading_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkcli.convert.extract.pages import is_garbage_text
from chunkcli.convert.extract.vertical import rebuild_vertical_lines
from chunkcli.convert.joining import join_lines
from chunkcli.convert.layout.document import layout_document
from chunkcli.convert.layout.furniture import is_page_number, shape_of, strip_running_headers
from chunkcli.convert.layout.headings import numbering_pattern
from chunkcli.convert.layout.order import order_blocks
from chunkcli.convert.layout.paragraphs import TOC_ENTRY, column_edges, group_paragraphs
from chunkcli.convert.render import render_list_item, render_markdown
from chunkcli.markdown_format import escape_leading_syntax
from chunkcli.markdown_format import format_table as render_table
from chunkcli.model import BBox, Block, BlockKind, Document, Line, OutlineEntry, Page, Span

CHAR_WIDTH = 0.5  # share of the font size one Latin character advances


def line(
    text: str,
    x: float,
    top: float,
    size: float = 10.0,
    bold: bool = False,
    width: float | None = None,
) -> Line:
    w = width if width is not None else len(text) * size * CHAR_WIDTH
    box = BBox(x, top, x + w, top + size)
    return Line((Span(text, box, size=size, bold=bold),), box)


def block(text: str, x: float, top: float, page: int = 1, **kw: object) -> Block:
    ln = line(text, x, top, **kw)  # type: ignore[arg-type]
    return Block(BlockKind.PARAGRAPH, (ln,), ln.bbox, page)


def texts(blocks: tuple[Block, ...]) -> list[str]:
    return [b.text for b in blocks]


def page(blocks: list[Block], number: int = 1) -> Page:
    return Page(number, 595, 842, tuple(blocks))


def markdown_of(pages: list[Page], outline: tuple[OutlineEntry, ...] = ()) -> str:
    return render_markdown(layout_document(Document("t.pdf", tuple(pages), outline)))


# --- reading order ---------------------------------------------------------------------------


def column_lines(x: float, top: float, tag: str, count: int = 6) -> list[Block]:
    return [
        block(f"{tag} line {i} of the column text here", x, top + i * 14, width=220)
        for i in range(count)
    ]


def test_two_columns_are_read_left_then_right_whatever_the_input_order() -> None:
    left = column_lines(50, 100, "left")
    right = column_lines(310, 100, "right")
    ordered = texts(order_blocks(tuple(right[::-1] + left[::-1])))
    assert ordered == [b.text for b in left + right]


def test_full_width_title_and_figure_caption_split_column_sections() -> None:
    title = block("A title that spans the whole page width", 50, 60, width=480)
    upper = column_lines(50, 100, "upL", 3) + column_lines(310, 100, "upR", 3)
    caption = block("Figure 1: a caption across both columns", 50, 200, width=480)
    lower = column_lines(50, 240, "loL", 3) + column_lines(310, 240, "loR", 3)
    ordered = texts(order_blocks(tuple(lower + [caption] + upper[::-1] + [title])))
    expected = [title] + upper + [caption] + lower
    assert ordered == [b.text for b in expected]


def test_three_columns() -> None:
    cols = [column_lines(x, 100, f"c{x}", 4) for x in (40, 220, 400)]
    for col in cols:
        col[:] = [
            Block(b.kind, b.lines, BBox(b.bbox.x0, b.bbox.top, b.bbox.x0 + 160, b.bbox.bottom), 1)
            for b in col
        ]
    flat = [b for col in cols for b in col]
    assert texts(order_blocks(tuple(flat[::-1]))) == [b.text for b in flat]


def test_bullets_beside_their_text_are_not_a_column() -> None:
    blocks = []
    for i in range(4):
        blocks += [block("•", 60, 100 + i * 14), block(f"item number {i} text", 75, 100 + i * 14)]
    merged = group_paragraphs(order_blocks(tuple(blocks)))
    assert [b.text.replace("\n", "") for b in merged] == [
        f"• item number {i} text" for i in range(4)
    ]
    assert all(b.kind == BlockKind.LIST_ITEM for b in merged)


def test_enumerators_beside_their_text_start_one_item_each() -> None:
    # Seen on a Japanese slide deck: "①" drawn at x=71, its text at x=107 on the same row; the
    # "②" line used to continue item ① because a mark alone on its line was no enumerator.
    texts = [
        "標準化対象事務に係る根拠法令の施行日",
        "標準化法に基づく省令の施行日",
        "標準準拠システムへの適合基準日",
    ]
    for marks in (["①", "②", "③"], ["1.", "2.", "3."], ["(1)", "(2)", "(3)"]):
        blocks = []
        for i, (mark, text) in enumerate(zip(marks, texts, strict=True)):
            blocks += [
                block(mark, 50, 100 + i * 14, width=12),
                block(text, 72, 100 + i * 14, width=400),
            ]
        merged = group_paragraphs(order_blocks(tuple(blocks)))
        assert [b.text.replace("\n", "") for b in merged] == [
            f"{mark} {text}" for mark, text in zip(marks, texts, strict=True)
        ]
        assert [b.kind for b in merged] == [BlockKind.LIST_ITEM] * 3


def test_an_item_number_alone_on_its_row_stays_a_line_of_its_own() -> None:
    # A number above a 縦書き column (saka1029-kokuji.pdf): nothing joins it on its row, and
    # the sentence before it does not swallow it either ("…すること。①").
    blocks = (
        block("常勤の歯科医師が配置され、次のいずれかに該当すること。", 50, 100, width=300),
        block("①", 50, 114, width=12),
    )
    merged = group_paragraphs(order_blocks(blocks))
    assert [(b.kind, b.text) for b in merged] == [
        (BlockKind.PARAGRAPH, "常勤の歯科医師が配置され、次のいずれかに該当すること。"),
        (BlockKind.PARAGRAPH, "①"),
    ]


# --- paragraphs -------------------------------------------------------------------------------


def vertical_block(text: str, right: float, top: float, size: float = 8.0) -> Block:
    box = BBox(right - size, top, right, top + len(text) * size)
    return Block(BlockKind.PARAGRAPH, (Line((Span(text, box, size=size),), box, True),), box, 1)


def test_vertical_lines_set_in_tiers_join_within_their_tier() -> None:
    # A gazette page (pdfminer-kampo.pdf): an upper tier of vertical lines 45 characters tall
    # and a lower tier 45 tall. Measured against the lower tier's foot every upper line was
    # short, and each line came out as a paragraph of its own.
    upper = [
        f"内閣は道路交通法の一部を改正する法律の一部の施行に伴い第{n}条の規定に基づき改正する"
        for n in "一二三四"
    ] + ["基づきこの政令を制定する道路交通法施行令の一部を次のように改正する第一条中改める。"]
    lower = [
        f"第{n}条中の字句を改め同条第五項中の字句を改める規定を置き附則の施行期日を定める。"
        for n in "二三四五六七"
    ]
    blocks = tuple(
        [vertical_block(text, 500 - 11 * i, 60) for i, text in enumerate(upper)]
        + [vertical_block(text, 500 - 11 * i, 60 + 48 * 8) for i, text in enumerate(lower)]
    )
    grouped = group_paragraphs(blocks)
    assert [len(b.lines) for b in grouped] == [5, 6]


def test_first_line_indent_and_hanging_indent_paragraphs() -> None:
    body = [
        block("    An indented first line of text that", 60, 100, width=230),
        block("continues at the margin of the column", 50, 114, width=240),
        block("and ends here.", 50, 128, width=60),
        block("1. A numbered item whose text runs on", 50, 142, width=240),
        block("to an indented second line right", 62, 156, width=228),
        block("2. The next item.", 50, 170, width=80),
    ]
    grouped = group_paragraphs(order_blocks(tuple(body)))
    assert [len(b.lines) for b in grouped] == [3, 2, 1]
    assert [b.kind for b in grouped][1:] == [BlockKind.LIST_ITEM, BlockKind.LIST_ITEM]


def numbered_entry(number: str, text: str, top: float, width: float) -> Block:
    """A reference entry whose number is drawn apart, the text starting at the hanging indent."""
    mark = BBox(50, top, 55, top + 10)
    box = BBox(62, top, 62 + width, top + 10)
    ln = Line((Span(number + " ", mark), Span(text, box)), mark.union(box))
    return Block(BlockKind.PARAGRAPH, (ln,), ln.bbox, 1)


def test_reference_entry_goes_on_under_its_number_after_a_short_line() -> None:
    """olmocr-multi_column_miss.pdf: "6 Mackay J ... World Health" / "Organization, 2002."
    (short first line, continuation at the hanging indent) was cut into two paragraphs."""
    body = [
        block("The list of references follows.", 50, 86, width=130),
        numbered_entry("5", "Chapman S. Extreme corporate makeover: tobacco and", 100, 228),
        block("the corruption of ethics. Globalink petition. http://", 62, 114, width=150),
        block("petition.globalink.org/view.php.", 62, 128, width=140),
        numbered_entry("6", "Mackay J, Eriksen M. The tobacco atlas. World Health", 142, 190),
        block("Organization, 2002.", 62, 156, width=80),
        block("    An indented first line starts a new paragraph here", 60, 170, width=230),
    ]
    assert texts(group_paragraphs(order_blocks(tuple(body)))) == [
        "The list of references follows.",
        "5 Chapman S. Extreme corporate makeover: tobacco and\nthe corruption of ethics. "
        "Globalink petition. http://\npetition.globalink.org/view.php.",
        "6 Mackay J, Eriksen M. The tobacco atlas. World Health\nOrganization, 2002.",
        "    An indented first line starts a new paragraph here",
    ]


def test_chart_axis_numbers_are_no_reference_entry() -> None:
    """A chart's tick labels ("0", "0.2 0.4 ...") over its axis label stay apart."""
    body = [
        block("Figure 3 shows the rate against the temperature.", 50, 72, width=240),
        block("The list of references follows.", 50, 86, width=130),
        numbered_entry("0", "0.2 0.4 0.6 0.8 1.0", 100, 80),
        block("Optimization temperature", 62, 114, width=100),
    ]
    assert texts(group_paragraphs(order_blocks(tuple(body)))) == [
        "Figure 3 shows the rate against the temperature.\nThe list of references follows.",
        "0 0.2 0.4 0.6 0.8 1.0",
        "Optimization temperature",
    ]


def test_extra_space_and_size_change_start_blocks() -> None:
    body = [
        block("Heading", 50, 80, size=16),
        block("First paragraph line that fills the column.", 50, 110, width=240),
        block("Second paragraph after a gap.", 50, 150, width=240),
    ]
    assert len(group_paragraphs(order_blocks(tuple(body)))) == 3


# --- running headers ------------------------------------------------------------------------


def test_running_header_page_numbers_and_chapter_heads_are_furniture() -> None:
    pages = []
    for n in range(1, 7):
        chapter = "Chapter One: Basics" if n <= 3 else "Chapter Two: Advanced"
        pages.append(
            page(
                [
                    block(chapter, 50, 30, n),
                    block(
                        f"Unique body text number {n * 7919} about topic {chr(64 + n)}", 50, 300, n
                    ),
                    block(f"- {n} -", 290, 800, n),
                ],
                n,
            )
        )
    stripped = strip_running_headers(tuple(pages))
    for p in stripped:
        kinds = [b.kind for b in p.blocks]
        assert kinds == [BlockKind.FURNITURE, BlockKind.PARAGRAPH, BlockKind.FURNITURE]


def test_one_page_document_loses_only_its_lone_page_number() -> None:
    pages = (page([block("Header", 50, 30), block("Body", 50, 300), block("1", 290, 800)]),)
    kinds = [b.kind for b in strip_running_headers(pages)[0].blocks]
    assert kinds == [BlockKind.PARAGRAPH, BlockKind.PARAGRAPH, BlockKind.FURNITURE]


def test_numbers_stacked_in_a_band_are_an_axis_not_page_numbers() -> None:
    # a chart's y axis from the top band down (right-aligned, 17 pt apart), a lone folio below
    ticks = [block(f"{value}", 113 + 6 * (len("140000") - len(f"{value}")), 90 + 17 * i)
             for i, value in enumerate(range(140000, -1, -20000))]  # fmt: skip
    axis_and_folio = (page([*ticks, block("Body text", 50, 400), block("19", 553, 800)]),)
    kinds = [b.kind for b in strip_running_headers(axis_and_folio)[0].blocks]
    assert kinds == [BlockKind.PARAGRAPH] * 9 + [BlockKind.FURNITURE]
    # two stacked numbers are still page numbers (a journal's folio over an archive's)
    two = (page([block("199", 290, 20), block("1", 290, 36), block("Body text", 50, 400)]),)
    kinds = [b.kind for b in strip_running_headers(two)[0].blocks]
    assert kinds == [BlockKind.FURNITURE, BlockKind.FURNITURE, BlockKind.PARAGRAPH]


def test_one_page_number_beside_other_text_on_its_row_is_kept() -> None:
    pages = (page([block("Total", 50, 800), block("1", 290, 800)]),)
    assert strip_running_headers(pages) == pages


def test_numbered_captions_keep_their_digits_in_the_shape() -> None:
    assert shape_of("別表第1") != shape_of("別表第2")
    assert shape_of("Table 3") != shape_of("Table 4")
    assert shape_of("Page 3 of 10") == shape_of("Page 4 of 10")


def test_shapes_and_page_numbers() -> None:
    assert shape_of("Page 3 of 10") == shape_of("Page 14 of 10")
    assert all(is_page_number(t) for t in ["3", "- 3 -", "Page 4", "12/40", "xii", "(7)"])
    assert not any(is_page_number(t) for t in ["3 apples", "Chapter 3", "第3章"])


# --- headings -------------------------------------------------------------------------------


def test_numbering_patterns() -> None:
    assert numbering_pattern("第3章 概要") == ("cjk", 1)
    assert numbering_pattern("第2款 雑則") == ("cjk", 3)
    assert numbering_pattern("第十五条") == ("cjk", 4)
    assert numbering_pattern("제2장 총칙") == ("ko", 1)
    assert numbering_pattern("제１절 목적") == ("ko", 2)
    assert numbering_pattern("제3관 보칙") == ("ko", 3)
    assert numbering_pattern("Article 15 Scope") == ("en", 3)
    assert numbering_pattern("2.1 Method") == ("num", 1)
    assert numbering_pattern("１ はじめに") == ("num", 0)
    assert numbering_pattern("１.１ 背景と目的") == ("num", 1)
    assert numbering_pattern("２．１．３ 手順") == ("num", 2)
    # Parenthesised numbers: one level below the dotted ones, never a bare "(1)".
    assert numbering_pattern("(1) Scope") == ("paren", 2)
    assert numbering_pattern("（１）概要") == ("paren", 2)
    assert numbering_pattern("1) 効率性の向上") == ("paren", 2)
    assert numbering_pattern("(1) the first") is None
    assert numbering_pattern("本文です。") is None


def test_heading_levels_from_size_when_unnumbered() -> None:
    body = "Body text that is long enough to be the most common size in the document."
    md = markdown_of(
        [
            page(
                [
                    block("Document Title", 50, 50, size=24),
                    block("Chapter heading", 50, 100, size=16),
                    block(body, 50, 130),
                    block("Section heading", 50, 170, size=13),
                    block(body, 50, 200),
                ]
            )
        ]
    )
    assert heading_lines(md) == ["# Document Title", "## Chapter heading", "### Section heading"]


def test_outline_levels_win_over_sizes() -> None:
    body = "Body text that is long enough to be the most common size in the document."
    md = markdown_of(
        [
            page(
                [
                    block("Intro", 50, 60, bold=True),
                    block(body, 50, 90),
                    block("Scope", 50, 130, bold=True),
                    block(body, 50, 160),
                ]
            )
        ],
        outline=(OutlineEntry(1, "Intro", 1), OutlineEntry(2, "Scope", 1)),
    )
    assert heading_lines(md) == ["## Intro", "### Scope"]


def title_line(spans: list[tuple[str, bool]], x: float, top: float, size: float = 14.35) -> Block:
    parts, left = [], x
    for text, bold in spans:
        box = BBox(left, top, left + len(text) * size * CHAR_WIDTH, top + size)
        parts.append(Span(text, box, size=size, bold=bold))
        left = box.x1
    ln = Line(tuple(parts), BBox(x, top, left, top + size))
    return Block(BlockKind.PARAGRAPH, (ln,), ln.bbox, 1)


def test_paper_title_on_two_lines_with_a_stamp_and_a_one_entry_outline_is_one_h1() -> None:
    # unstructured-copy-protected.pdf: the first title line opens with the name in typewriter
    # type (not bold), a 20 pt arXiv stamp stands sideways in the margin, and the outline's one
    # entry is the title while the metadata has none. It came out as "## LayoutParser: A
    # Unified Toolkit for Deep" with the second line as a paragraph.
    title = "LayoutParser: A Unified Toolkit for Deep Learning Based Document Image Analysis"
    body = "Body text that is long enough to be the most common size in the document."
    stamp = vertical_block("arXiv:2103.15348v2 [cs.CV] 21 Jun 2021", 37, 213, size=20)
    first = [("LayoutParser", False), (": A Unified Toolkit for Deep", True)]
    blocks = [
        title_line(first, 163, 115),
        title_line([("Learning Based Document Image Analysis", True)], 157, 133),
        block("1 Introduction", 50, 200, bold=True, size=12),
    ]
    blocks += [block(body, 50, 220 + 14 * i) for i in range(8)] + [stamp]
    md = markdown_of([page(blocks)], outline=(OutlineEntry(1, title, 1),))
    assert heading_lines(md) == [f"# {title}", "## 1 Introduction"]


def test_a_contents_heading_is_never_the_title() -> None:
    # olmocr-earnings.pdf: an EDGAR page opens with a bold "Table of Contents" link.
    body = "Body text that is long enough to be the most common size in the document."
    for opening, size in (("Table of Contents", 10.0), ("目 次", 18.0), ("Contents", 18.0)):
        blocks = [block(opening, 50, 60, bold=True, size=size)]
        blocks += [block(body, 50, 100 + 14 * i) for i in range(6)]
        md = markdown_of([page(blocks)])
        assert [h for h in heading_lines(md) if h.startswith("# ")] == [], opening


def test_a_cover_title_of_four_lines_is_one_h1() -> None:
    # pymupdf-test-3820.pdf: four lines of 25 pt on the cover; three were the most a heading
    # could take, and the document had no title.
    lines = [
        "TREATMENT OF ADOLESCENTS AND",
        "CHILDREN WITH CHRONIC HCV INFECTION,",
        "AND HCV SIMPLIFIED SERVICE DELIVERY",
        "AND DIAGNOSTICS",
    ]
    cover = [block(text, 36, 153 + 30 * i, size=25, bold=True) for i, text in enumerate(lines)]
    body = "Body text that is long enough to be the most common size in the document."
    inside = [block(body, 50, 60 + 14 * i) for i in range(12)]
    md = markdown_of([page(cover), page(inside, 2)])
    assert heading_lines(md) == ["# " + " ".join(lines)]


def test_contents_entries_with_tab_leaders_stay_one_line_each() -> None:
    # pymupdf-test-3820.pdf p. 4: "ACKNOWLEDGEMENTS\t" and its page number "vi" are two spans
    # on a row, the number far right; the entries ran together into one paragraph, and "vi"
    # (in the top band) was taken for the page's number although "iii" stands above it.
    entries = [
        ("ACKNOWLEDGEMENTS\t", "vi"),
        ("ABBREVIATIONS\t", "x"),
        ("GLOSSARY \t", "xii"),
        ("1.1 Objectives and scope\t", "1"),
        ("1.2 Related guidelines\t", "1"),
    ]
    blocks = [block("iii", 438, 7, size=8), block("CONTENTS", 36, 48, size=20, bold=True)]
    for i, (entry, number) in enumerate(entries):
        blocks += [
            block(entry, 36, 86 + 16 * i, width=150),
            block(number, 416 - 3 * len(number), 86 + 16 * i, width=3 * len(number)),
        ]
    body = "Body text that is long enough to be the most common size in the document."
    blocks += [block(body, 36, 300 + 14 * i) for i in range(8)]
    # Enough pages that page numbers count without standing alone on their row.
    later = [
        page([block(number, 438, 7, size=8)] + [block(body, 36, 300 + 14 * i) for i in range(8)], n)
        for n, number in ((2, "iv"), (3, "v"), (4, "vi"))
    ]
    paragraphs = [p.strip() for p in markdown_of([page(blocks), *later]).split("\n\n")]
    for entry, number in entries:
        assert f"{entry.strip()} {number}" in paragraphs


def test_a_centred_title_a_little_larger_than_the_text_is_the_title() -> None:
    # odl-2125318…hwp.pdf: a Korean bill's title, two centred lines of 15.9 pt over 14 pt text,
    # came out as two H2 and no title (a title needed 1.3 times the body size).
    body = "현행법은 기후위기 대응을 위해 국가 탄소중립 녹색성장 기본계획을 수립하도록 규정함."
    text = [block(body, 71, 386 + 32 * i, size=14) for i in range(10)]

    def title(x_of: Callable[[float], float]) -> list[Block]:
        lines = [("기후위기 대응을 위한 기본법", 79.0), ("일부개정법률안", 105.0)]
        return [
            block(t, x_of(len(t) * 15.9), top, size=15.9, width=len(t) * 15.9) for t, top in lines
        ]

    centred = markdown_of([page(title(lambda width: (595 - width) / 2) + text)])
    assert heading_lines(centred) == ["# 기후위기 대응을 위한 기본법 일부개정법률안"]
    flush_left = markdown_of([page(title(lambda width: 71.0) + text)])
    assert [h for h in heading_lines(flush_left) if h.startswith("# ")] == []


def test_cover_title_lines_set_two_lines_apart_are_one_title() -> None:
    # 000040369.pdf of the retrieval set: three centred lines of 28 pt, 54 pt apart (line
    # spacing 1.93); at most 0.8 em of space between them had been allowed.
    lines = ["自動車リユース部品", "利用マニュアル", "（文書版）"]
    cover = [
        block(t, (595 - 28 * len(t)) / 2, 382 + 54 * i, size=28, width=28 * len(t))
        for i, t in enumerate(lines)
    ]
    body = "本マニュアルは、自動車リユース部品の利用を促進するために作成したものである。"
    inside = [block(body, 50, 60 + 16 * i, size=10.5) for i in range(12)]
    md = markdown_of([page(cover), page(inside, 2)])
    assert heading_lines(md) == ["# 自動車リユース部品利用マニュアル（文書版）"]


# --- text and render ------------------------------------------------------------------------


def test_join_lines_cases() -> None:
    assert join_lines(["infor-", "mation"]) == "information"
    assert join_lines(["self-", "aware"]) == "self-aware"
    assert join_lines(["Lucene-", "BM25"]) == "Lucene-BM25"
    assert join_lines(["日本語の", "文章。"]) == "日本語の文章。"
    assert join_lines(["PDFを", "変換"]) == "PDFを変換"
    assert join_lines(["한국어", "문장"]) == "한국어 문장"
    assert join_lines(["  spaced   words ", "next"]) == "spaced words next"


CJK = st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x4FFF), min_size=1)


@settings(max_examples=60, deadline=None)
@given(st.lists(CJK, min_size=1, max_size=6))
def test_cjk_lines_join_with_nothing_lost_or_added(lines: list[str]) -> None:
    assert join_lines(lines) == "".join(lines)


WORDS = st.text(alphabet="abcdefghij", min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(WORDS, min_size=1, max_size=4), min_size=1, max_size=5))
def test_latin_lines_join_with_single_spaces(lines: list[list[str]]) -> None:
    raw = [" ".join(words) for words in lines]
    assert join_lines(raw) == " ".join(raw)


def test_render_table_escapes_pipes_and_pads_rows() -> None:
    assert render_table((("a", "b|c"), ("1",))) == "| a | b\\|c |\n| --- | --- |\n| 1 |  |"


def test_render_list_items_and_escapes() -> None:
    assert render_list_item("• item") == "- item"
    assert render_list_item("3) third") == "3. third"
    assert escape_leading_syntax("# not a heading") == "\\# not a heading"
    assert escape_leading_syntax("plain") == "plain"


def test_garbage_detection() -> None:
    assert is_garbage_text("\x00\x00\x00\x00 ab")
    assert is_garbage_text("(cid:12)(cid:13)(cid:14) x")
    assert is_garbage_text("\ue000\ue001\ue002 a")
    assert not is_garbage_text("Ordinary text, 日本語も。")


def test_vertical_glyphs_become_columns_read_right_to_left() -> None:
    glyphs = []
    for col, text in enumerate(["縦書きの文", "章を読む。"]):
        x = 300 - col * 20
        glyphs += [line(ch, x, 100 + i * 12, size=12, width=12) for i, ch in enumerate(text)]
    glyphs += [line(ch, 260, 100 + i * 12, size=12, width=12) for i, ch in enumerate("次の行")]
    rebuilt = rebuild_vertical_lines(glyphs)
    assert all(ln.vertical for ln in rebuilt)
    blocks = tuple(Block(BlockKind.PARAGRAPH, (ln,), ln.bbox, 1) for ln in rebuilt)
    assert texts(order_blocks(blocks)) == ["縦書きの文", "章を読む。", "次の行"]


def test_a_document_opening_with_one_bold_body_size_line_has_that_title() -> None:
    body = "Body text that is long enough to be the most common size in the document."
    md = markdown_of(
        [
            page(
                [
                    block("The Evolution of Tools", 50, 60, bold=True),
                    block(body, 50, 90),
                    block("Emphasis inside", 50, 130, bold=True),
                    block(body, 50, 160),
                ]
            )
        ]
    )
    assert md.count("\n# ") == 1 and "# The Evolution of Tools" in md
    assert "# Emphasis inside" not in md


def test_hyphen_kept_when_the_document_writes_the_compound_elsewhere() -> None:
    assert join_lines(["a dual-", "encoder model"], frozenset({"dual-encoder"})) == (
        "a dual-encoder model"
    )
    assert join_lines(["a dual-", "encoder model"]) == "a dual-encoder model"  # word list


def test_list_item_with_a_ragged_first_line_keeps_its_hanging_continuation() -> None:
    body = [
        block("* An item whose first line wraps early", 50, 100, width=180),
        block("and whose second line is longer than the first one", 57, 114, width=230),
        block("* Next item", 50, 128, width=60),
    ]
    grouped = group_paragraphs(order_blocks(tuple(body)))
    assert [len(b.lines) for b in grouped] == [2, 1]


def test_control_characters_are_dropped_from_text() -> None:
    assert join_lines(["* \x07item", "text"]) == "* item text"


def test_slide_footer_at_the_same_place_on_every_page_is_furniture() -> None:
    pages = [
        page(
            [
                block(f"Slide topic {chr(65 + n)} with its own words", 50, 200, n),
                block("Presenter Name, Member of the Association", 40, 600, n),
            ],
            n,
        )
        for n in range(1, 6)
    ]
    stripped = strip_running_headers(tuple(pages))
    assert all(
        [b.kind for b in p.blocks] == [BlockKind.PARAGRAPH, BlockKind.FURNITURE] for p in stripped
    )


def test_identical_margin_text_at_varying_heights_is_furniture() -> None:
    pages = [
        page(
            [
                block(f"Body {chr(65 + n)} text", 50, 300, n),
                block("Form 1040NR (2007)", 480, 760 + 5 * n, n),
            ],
            n,
        )
        for n in range(1, 4)
    ]
    stripped = strip_running_headers(tuple(pages))
    assert all(p.blocks[1].kind == BlockKind.FURNITURE for p in stripped)


def test_outline_matches_headings_printed_with_numbers_and_curly_quotes() -> None:
    body = "Body text that is long enough to be the most common size in the document."
    md = markdown_of(
        [
            page(
                [
                    block("1. Introduction", 50, 60, bold=True),
                    block(body, 50, 90),
                    block("1.1 Attacker\u2019s Goal", 50, 130, bold=True),
                    block(body, 50, 160),
                    block("Author Names Here", 50, 200, size=12),
                    block(body, 50, 230),
                ]
            )
        ],
        outline=(OutlineEntry(1, "Introduction", 1), OutlineEntry(2, "Attacker's Goal", 1)),
    )
    # "Author Names Here" is not in the outline: a level below its deepest
    assert heading_lines(md) == [
        "## 1. Introduction",
        "### 1.1 Attacker\u2019s Goal",
        "#### Author Names Here",
    ]


def test_sub_bullets_are_nested_under_their_item() -> None:
    items = [("● Leadership", 50), ("○ Chair: A", 70), ("○ Co-chair: B", 70), ("● Budget", 50)]
    blocks = [
        Block(
            BlockKind.LIST_ITEM,
            (line(t, x, 100 + i * 20, width=100),),
            BBox(x, 100 + i * 20, x + 100, 110 + i * 20),
            1,
        )
        for i, (t, x) in enumerate(items)
    ]
    md = render_markdown(Document("t.pdf", (page(blocks),)))
    assert "- Leadership\n  - Chair: A\n  - Co-chair: B\n- Budget" in md


def test_vertical_punctuation_overlapping_its_neighbour_stays_in_the_column() -> None:
    tops = [70, 78, 86, 100, 102.3, 110]  # "、" at 100 overlaps "道" at 102.3, as in 官報
    pairs = zip("内閣は、道路", tops, strict=True)
    glyphs = [line(ch, 519, top, size=8, width=8) for ch, top in pairs]
    glyphs += [line(ch, 500, 70 + i * 8, size=8, width=8) for i, ch in enumerate("次の行です")]
    glyphs += [line(ch, 481, 70 + i * 8, size=8, width=8) for i, ch in enumerate("三行目")]
    rebuilt = rebuild_vertical_lines(glyphs)
    assert sorted(ln.text for ln in rebuilt) == sorted(["内閣は、道路", "次の行です", "三行目"])


def test_vertical_tiers_are_read_top_down_each_right_to_left() -> None:
    def column(x: float, top: float, text: str) -> Block:
        box = BBox(x, top, x + 8, top + 8 * len(text))
        ln = Line((Span(text, box, size=8),), box, vertical=True)
        return Block(BlockKind.PARAGRAPH, (ln,), box, 1)

    upper = [column(500, 70, "上段の一行目"), column(490, 70, "上段の二行目")]
    lower = [column(500, 430, "下段の一行目"), column(490, 430, "下段の二行目")]
    ordered = order_blocks(tuple(lower[::-1] + upper[::-1]))
    assert texts(ordered) == ["上段の一行目", "上段の二行目", "下段の一行目", "下段の二行目"]


def test_a_chapter_label_ending_in_a_full_stop_is_a_heading() -> None:
    body = "Body text that is long enough to be the most common size in the document, surely."
    md = markdown_of(
        [
            page(
                [
                    block("CHAPTER 7.", 50, 60, bold=True),
                    block("Course marking drivers", 50, 80, size=14, bold=True),
                    *[block(body, 50, 110 + 14 * i) for i in range(4)],
                    block("It ends here.", 50, 180, bold=True),
                    *[block(body, 50, 200 + 14 * i) for i in range(4)],
                ]
            )
        ]
    )
    assert heading_lines(md) == ["## CHAPTER 7.", "# Course marking drivers"]


def test_full_width_numbering_and_toc_entries() -> None:
    assert numbering_pattern("１．割賦販売法の概要") == ("num", 0)
    body = "本文の文章です。十分に長い本文がここに続きます。" * 3
    md = markdown_of(
        [
            page(
                [
                    block("１．割賦販売法の概要", 50, 60, size=14, bold=True),
                    block(body, 50, 90),
                    block("２．後払信用の概要・・・・・・・・P6", 50, 130, size=14, bold=True),
                    block(body, 50, 160),
                ]
            )
        ]
    )
    assert heading_lines(md) == ["## １．割賦販売法の概要"]  # the ToC entry below is no heading


def test_drop_cap_joins_the_line_it_begins() -> None:
    from chunkcli.convert.extract.pages import attach_drop_caps

    cap = line("O", 166, 583, size=31.7, width=26)
    first = line("ver the past three decades", 193, 585, size=8.5)
    second = line("pressure from organisations", 193, 596, size=8.5)
    joined = attach_drop_caps([second, cap, first])
    assert sorted(ln.text for ln in joined) == [
        "Over the past three decades",
        "pressure from organisations",
    ]
    big_heading_letter = line("A", 50, 50, size=12)
    assert attach_drop_caps([big_heading_letter, first]) == [big_heading_letter, first]


def test_ocr_columns_with_overlapping_line_boxes_and_a_margin_mark() -> None:
    def tall(text: str, x: float, top: float) -> Block:
        box = BBox(x, top, x + 400, top + 42)  # OCR boxes taller than the 31 pt line pitch
        return Block(BlockKind.PARAGRAPH, (Line((Span(text, box, size=30),), box),), box, 1)

    title = tall("a centred title", 400, 300)
    left = [tall(f"left {i}", 127, 434 + i * 31) for i in range(6)]
    right = [tall(f"right {i}", 572, 434 + i * 31) for i in range(6)]
    mark = block("|", 1078, 600, width=4)
    ordered = texts(order_blocks(tuple([mark, title] + right + left)))
    assert ordered[:13] == ["a centred title"] + [f"left {i}" for i in range(6)] + [
        f"right {i}" for i in range(6)
    ]


def test_mojibake_from_a_wrong_tounicode_map_is_garbage() -> None:
    assert is_garbage_text("èÿ0bo wj u ~ þ ßÿ[ß÷] ërÿß _0 0u ÿìÿÿÿj u 1N|_ ~]ß{²Ìvsx|w}zt ÿÿ~Ñï")
    german = "Größe, Übung, Straße, Mädchen, schön und während der Prüfung für Lösungen."
    french = "Les élèves étudient à l'école française, où ils apprennent très bien."
    assert not is_garbage_text(german) and not is_garbage_text(french)


def test_a_sentence_cut_by_the_column_break_is_rejoined() -> None:
    left = [
        block(f"left column line {i} of running text that", 50, 100 + i * 14, width=220)
        for i in range(5)
    ]
    right = [
        block("continues here in the right column and", 310, 100, width=220),
        block("ends the sentence.", 310, 114, width=90),
        block("A new paragraph starts here and fills it", 310, 140, width=220),
        block("to the end.", 310, 154, width=60),
    ]
    grouped = group_paragraphs(order_blocks(tuple(left + right)))
    assert len(grouped) == 2
    assert grouped[0].text.endswith("ends the sentence.")


def test_centred_title_line_stays_apart_from_the_text_below() -> None:
    body = [
        block("A Centred Title", 250, 100, width=95),
        block("Body text starts at the margin and runs the full width of", 50, 114, width=480),
    ]
    assert len(group_paragraphs(order_blocks(tuple(body)))) == 2


def test_heading_levels_have_no_holes_and_ornaments_are_no_headings() -> None:
    from chunkcli.convert.layout.headings import _without_gaps

    assert _without_gaps({(0, 0): 1, (0, 1): 2, (0, 2): 4}) == {(0, 0): 1, (0, 1): 2, (0, 2): 3}
    body = "Body text that is long enough to be the most common size in the document."
    md = markdown_of(
        [
            page(
                [
                    block("❙❚❘❙❚❘❙❚❘", 50, 60, size=20),
                    block(body, 50, 90),
                    block("\ufffd\ufffd\ufffd\ufffd 1", 50, 130, size=20),
                    block(body, 50, 160),
                ]
            )
        ]
    )
    assert "#" not in md


def test_a_lone_ornament_is_not_a_paragraph() -> None:
    body = "Body text that is long enough to be the most common size in the document."
    md = markdown_of([page([block("›", 50, 60), block(body, 50, 100), block("42", 50, 140)])])
    assert "›" not in md and body in md and "\n42\n" in md


def test_a_stamp_set_in_pieces_goes_whole() -> None:
    """bmj.com sets "Downloaded from " and the link and date after it as separate blocks on
    one row: the pieces on the stamp's row go with it; text on other rows stays."""
    pieces = [block("Downloaded from", 136, 4, size=9), block("http://x.bmj.com/", 206, 4, size=9),
              block("on July 12, 2017 - Published by", 285, 4, size=9)]  # fmt: skip
    body = block("Advocacy in Action", 68, 17, size=9)
    far = block("on July 12, 2017 the board met.", 307, 400)  # a row-mate's words, another row
    stripped = strip_running_headers((page([*pieces, body, far]),))[0]
    assert [b.kind for b in stripped.blocks] == [BlockKind.FURNITURE] * 3 + [
        BlockKind.PARAGRAPH,
        BlockKind.PARAGRAPH,
    ]


def test_a_banner_below_a_column_section_heads_what_follows() -> None:
    """bmj.com: under two columns, a section banner in the left column's width leads into a
    full-width title: it is read after both columns, not between them."""
    left = column_lines(50, 100, "left", count=5)
    right = column_lines(310, 100, "right", count=7)
    banner = block("INDUSTRY WATCH", 60, 230, size=14)
    title = block("A full-width title that spans both of the columns above it", 50, 260,
                  size=18, width=480)  # fmt: skip
    ordered = texts(order_blocks(tuple(right + [title, banner] + left)))
    assert ordered == [b.text for b in left + right + [banner, title]]


def test_a_heading_in_a_longer_left_column_stays_in_its_column() -> None:
    """The same heading followed by more text of its own column is part of that column."""
    left = column_lines(50, 100, "left", count=5)
    right = column_lines(310, 100, "right", count=3)
    heading = block("Method", 50, 175, size=14)
    tail = column_lines(50, 195, "tail", count=2)
    ordered = texts(order_blocks(tuple(right + tail + [heading] + left)))
    assert ordered == [b.text for b in left + [heading] + tail + right]


def test_order_thresholds_are_settings() -> None:
    """Two columns 7 pt apart are columns at the default minimum gutter (5 pt) and one
    stream of rows when LayoutSettings.order asks for 10 pt."""
    from dataclasses import replace

    from chunkcli.convert.layout.settings import LayoutSettings, OrderSettings

    left = [block(f"left line {i} of the column text", 50, 100 + i * 14, width=200)
            for i in range(6)]  # fmt: skip
    right = [block(f"right line {i} of the column text", 257, 100 + i * 14, width=200)
             for i in range(6)]  # fmt: skip
    document = Document("t.pdf", (page(right + left),), ())
    narrow = LayoutSettings(order=replace(OrderSettings(), min_gutter_pt=10.0))
    by_default = layout_document(document).pages[0].blocks
    tuned = layout_document(document, settings=narrow).pages[0].blocks
    lines = [f"{side} line {i} of the column text" for side in ("left", "right") for i in range(6)]
    assert [line for b in by_default for line in b.text.split("\n")] == lines
    rows = [f"left line {i} of the column text right line {i} of the column text" for i in range(6)]
    assert [line for b in tuned for line in b.text.split("\n")] == rows


def test_a_body_line_beside_a_stamp_in_the_next_column_stays() -> None:
    """A stamp in the left column's head and body text of the right column on its row: the
    body line is in another size and across a gutter, so it is no piece of the stamp."""
    stamp = block("Downloaded from x.org", 50, 100, size=9)  # ends at x = 144.5
    body = block("The right column's text starts here and goes on.", 160, 100, size=10)
    stripped = strip_running_headers((page([stamp, body]),))[0]
    assert [b.kind for b in stripped.blocks] == [BlockKind.FURNITURE, BlockKind.PARAGRAPH]


def test_stacked_letters_in_a_side_margin_are_one_vertical_label() -> None:
    # 230829_main.pdf of the retrieval set: thumb-index tabs down the right edge, one glyph per
    # line ("概", "要", "・", "主", ... and "本", "文"), had been joined to the body lines beside
    # them ("ていく。 要") and into the headings ("## 要 Ⅰ．経済や…").
    def glyph(char: str, x: float, top: float) -> Line:
        box = BBox(x, top, x + 12, top + 15)
        return Line((Span(char, box, size=10.5),), box)

    body = [
        line(f"本文の{i}行目は事業者支援の取組を記述する。", 71, 100 + 18 * i, size=10.5, width=450)
        for i in range(20)
    ]
    tab = [glyph(c, 573, 113 + 8 * i) for i, c in enumerate("概要・主な")]
    tab += [glyph(c, 573, 233 + 24 * i) for i, c in enumerate("本文")]
    marks = [glyph("○", 300, 300 + 16 * i) for i in range(4)]  # a table column: stays
    dots = [glyph("・", 20, 300 + 10 * i) for i in range(4)]  # marks only: stay
    lines = rebuild_vertical_lines(body + tab + marks + dots)
    assert [ln.text for ln in lines if ln.vertical] == ["概要・主な", "本文"]
    assert sum(1 for ln in lines if ln.text in ("○", "・")) == 8
    assert len(lines) == len(body) + 2 + 8


def test_roman_numbered_chapters_share_a_level_whatever_their_size() -> None:
    # odl-제안요청서_수정__230524_1.pdf: chapter Ⅳ was set at 20 pt, the others at 21 pt; by size
    # it took a level of its own ("#### Ⅳ 제안서 작성요령" among "### Ⅰ …").
    body = "본 사업은 문서작성 기반의 웹기안기를 도입하는 사업으로 그 범위는 다음과 같다."
    pages = []
    for n, (chapter, size) in enumerate(
        (("Ⅰ 사업 개요", 21.0), ("Ⅱ 사업 추진계획", 21.0), ("Ⅳ 제안서 작성요령", 20.0)), start=1
    ):
        blocks = [block(chapter, 68, 82, size=size, bold=True)]
        blocks += [block(body, 57, 130 + 16 * i, size=11) for i in range(10)]
        pages.append(page(blocks, n))
    assert heading_lines(markdown_of(pages)) == [
        "## Ⅰ 사업 개요",
        "## Ⅱ 사업 추진계획",
        "## Ⅳ 제안서 작성요령",
    ]


def test_japanese_pieces_set_apart_on_one_row_keep_a_space() -> None:
    # 2024年版ものづくり白書 (gaiyo.pdf of the retrieval set): "経済産業省", "厚生労働省" and
    # "文部科学省" side by side on the cover came out as one word "経済産業省厚生労働省文部科学省".
    names = ["経済産業省", "厚生労働省", "文部科学省"]
    apart = tuple(block(n, 100 + 120 * i, 700, size=12, width=60) for i, n in enumerate(names))
    close = (
        block("第２章", 50, 100, size=12, width=36),
        block("就業動向", 88, 100, size=12, width=48),
    )
    assert [b.text for b in group_paragraphs(order_blocks(apart))] == [" ".join(names)]
    assert [b.text for b in group_paragraphs(order_blocks(close))] == ["第２章就業動向"]


def test_roman_chapters_rank_above_the_arabic_sections_they_hold() -> None:
    # Korean proposals number Ⅰ → 1. → 가.: with the roman family ranked after "num" the
    # chapters came out one level below their own sections.
    body = "본 사업은 문서작성 기반의 웹기안기를 도입하는 사업으로 그 범위는 다음과 같다."
    pages = []
    for n, (chapter, section) in enumerate(
        (("Ⅰ. 사업 개요", "1. 추진 배경"), ("Ⅱ. 추진 계획", "2. 추진 전략")), start=1
    ):
        blocks = [
            block(chapter, 68, 82, size=16, bold=True),
            block(section, 68, 120, size=13, bold=True),
        ]
        blocks += [block(body, 57, 150 + 16 * i, size=11) for i in range(10)]
        pages.append(page(blocks, n))
    assert heading_lines(markdown_of(pages)) == [
        "## Ⅰ. 사업 개요",
        "### 1. 추진 배경",
        "## Ⅱ. 추진 계획",
        "### 2. 추진 전략",
    ]


def test_centred_section_headings_at_one_size_are_no_title() -> None:
    body = "Body text that is long enough to be the most common size in the document."
    pages = []
    for n, name in enumerate(("Background", "Methods", "Results"), start=1):
        width = len(name) * 6.0
        blocks = [block(name, (595 - width) / 2, 60, size=12, width=width)]
        blocks += [block(body, 50, 90 + 14 * i) for i in range(10)]
        pages.append(page(blocks, n))
    # Centred at a heading's size on every page: the sections' style, so no title.
    assert heading_lines(markdown_of(pages)) == ["## Background", "## Methods", "## Results"]


def test_letter_spaced_japanese_stays_one_word_and_authors_are_no_chapters() -> None:
    letters = tuple(block(c, 100 + 40 * i, 100, size=20, width=20) for i, c in enumerate("報告書"))
    assert [b.text for b in group_paragraphs(order_blocks(letters))] == ["報告書"]
    assert numbering_pattern("X. Li, Y. Wang and Z. Chen") is None
    assert numbering_pattern("IV. Results") == ("roman", -1)


def test_a_tab_before_a_year_or_an_amount_is_no_contents_entry() -> None:
    assert [
        bool(TOC_ENTRY.search(t))
        for t in (
            "ACKNOWLEDGEMENTS\t vi",
            "1.2 Related guidelines\t 12",
            "Revenue\t2021",
            "Price\t1000",
        )
    ] == [True, True, False, False]


def test_a_short_vertical_column_is_not_cut_into_tiers() -> None:
    # Two short lines at the top and two further down: four lines are too few to be tiers
    # (cut into two, each pair's edges would make its lines "full").
    blocks = (
        vertical_block("縦書きの一行目。", 500, 60),
        vertical_block("短い行。", 489, 60),
        vertical_block("下から始まる行。", 478, 300),
        vertical_block("次の行。", 467, 300),
    )
    assert column_edges(blocks)[0].tiers == ()


def test_a_korean_item_mark_starts_a_paragraph_only_after_a_line_that_ended() -> None:
    # "다." is an item's mark after a short line, but the end of "합니다." after a full one.
    lines = [
        ("가. 외관 : 고체상의 금속 와이어", 160),
        ("나. 냄새 : 자료 없음", 120),
        ("다. 냄새 역치 : 자료 없음.", 140),
        ("그동안 우리 위원회는 여러 법안을 심사하였고 많은 성과를 거두었다고 생각합니", 400),
        ("다. 그런데 오늘은 위원님들이 참석하지 않았습니다.", 260),
    ]
    blocks = [block(text, 50, 100 + 16 * i, width=width) for i, (text, width) in enumerate(lines)]
    md = markdown_of([page(blocks)])
    paragraphs = [p for p in md.split("\n\n") if p and not p.startswith("<!--")]
    assert paragraphs == [
        "가. 외관 : 고체상의 금속 와이어",
        "나. 냄새 : 자료 없음",
        "다. 냄새 역치 : 자료 없음.",
        "그동안 우리 위원회는 여러 법안을 심사하였고 많은 성과를 거두었다고 생각합니 다. 그런데 "
        "오늘은 위원님들이 참석하지 않았습니다.",  # (the join's space: Hangul joins, test_text)
    ]

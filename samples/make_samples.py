r"""Regenerate the sample PDFs: `python samples/make_samples.py [OUT_DIR]` (default: samples/).

Each sample is described here as content (headings, paragraphs, lists, tables) placed on pages,
then drawn with tests/pdf_factory.py. The matching `<name>.expected.md` files are the hand-written
specification of what a correct converter outputs; keep them in step when content changes here.
Output is byte-identical as long as this script and PyMuPDF are unchanged.

The expected Markdown follows these rules: every page starts with `<!-- page N -->` (a blank page
is only `<!-- page N: blank -->`, an image-only page only `<!-- page N: no text layer (image
only) -->`); the title once as `#`, then `##`, `###`, `####` by level; blocks separated by one
blank line; paragraphs on one line (hyphenation repaired, real hyphens kept, ligatures expanded,
no space between CJK characters); no running headers, footers or page numbers; GFM pipe tables
with `\|` escaped. A table continued on the next page is ONE table (repeated header row dropped),
and the next page's marker comes after the whole table.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

SAMPLES_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(SAMPLES_DIR.parent / "tests"))

from pdf_factory import (  # noqa: E402 - the factory lives with the tests
    A4_HEIGHT,
    A4_WIDTH,
    LEADING,
    Image,
    Item,
    Rect,
    Text,
    grid_table,
    make_pdf,
    text_width,
    wrap_text,
)

BODY_SIZE = 10.0
# Extra space between paragraphs, as a fraction of the font size: a visible gap that is
# clearly larger than the line pitch, as typeset documents have.
PARAGRAPH_GAP = 0.8
MARGIN = 60.0


@dataclass(frozen=True)
class Heading:
    text: str
    size: float
    gap_before: float = 6.0


@dataclass(frozen=True)
class Para:
    """A paragraph given as pieces; each piece is wrapped on its own, so a piece that ends
    in "infor-" puts that hyphen at a line end."""

    pieces: tuple[str, ...]
    size: float = BODY_SIZE
    cjk: bool = False


@dataclass(frozen=True)
class ListItem:
    marker: str
    text: str
    size: float = BODY_SIZE
    cjk: bool = False
    indent: float = 16.0


Block = Heading | Para | ListItem


def para(*pieces: str, cjk: bool = False) -> Para:
    return Para(tuple(pieces), cjk=cjk)


def flow(x: float, top: float, width: float, blocks: Sequence[Block]) -> tuple[list[Item], float]:
    """Lay `blocks` out top-down in a column; return the items and the y below the last one."""
    items: list[Item] = []
    y = top
    for block in blocks:
        if isinstance(block, Heading):
            y += block.gap_before + block.size
            items.append(Text(x, y, block.text, size=block.size, bold=True))
            y += block.size * (LEADING - 1) + 4
        elif isinstance(block, Para):
            lines = [
                line
                for piece in block.pieces
                for line in wrap_text(piece, width, block.size, cjk=block.cjk)
            ]
            items.extend(_lines(x, y, lines, block.size))
            y += len(lines) * block.size * LEADING + block.size * PARAGRAPH_GAP
        else:
            lines = wrap_text(block.text, width - block.indent, block.size, cjk=block.cjk)
            items.append(Text(x, y + block.size, block.marker, size=block.size))
            items.extend(_lines(x + block.indent, y, lines, block.size))
            y += len(lines) * block.size * LEADING
    return items, y


def _lines(x: float, top: float, lines: Sequence[str], size: float) -> list[Item]:
    for line in lines:
        assert line == line.strip(), f"a wrapped line starts or ends with a space: {line!r}"
    return [
        Text(x, top + size + i * size * LEADING, line, size=size) for i, line in enumerate(lines)
    ]


def centered(y: float, text: str, size: float) -> Text:
    cjk = any(ord(ch) > 0x2E80 for ch in text)
    return Text((A4_WIDTH - text_width(text, size, cjk=cjk)) / 2, y, text, size=size)


# --- 1. two_column.pdf --------------------------------------------------------------------

COLUMN_WIDTH = 225.0
LEFT_X = MARGIN
RIGHT_X = A4_WIDTH - MARGIN - COLUMN_WIDTH
FULL_WIDTH = A4_WIDTH - 2 * MARGIN

TWO_COLUMN_TITLE = "Reading Order in Two-Column Documents"
TWO_COLUMN_ABSTRACT = para(
    "This short paper explains how a converter can recover the reading order of a page that is "
    "set in two columns. The text is synthetic: it exists so that tests can check column "
    "order, running headers and footers, hyphenation and ligatures."
)
TWO_COLUMN_PAGES: tuple[tuple[tuple[Block, ...], tuple[Block, ...]], ...] = (
    (
        (
            Heading("1 Introduction", 13),
            para(
                "Readers of scientific articles expect text to flow down the left column "
                "first and then down the right column. A converter that reads lines strictly "
                "from top to bottom mixes the two columns and garbles every sentence."
            ),
            para(
                "Extracting the text in the right order is the first step; the second is to "
                "keep the infor-",
                "mation about headings and paragraphs so that later stages can split the "
                "document into meaningful chunks.",
            ),
        ),
        (
            para(
                "Many tools reach for a state-of-the-",
                "art layout model at this point. We show that simple geometry is enough for "
                "clean born-digital files with a regular grid.",
            ),
            para(
                "We ﬁrst look at the gaps between columns, then at the running furniture that "
                "repeats on every page, such as headers and page numbers."
            ),
        ),
    ),
    (
        (
            Heading("2 Method", 13),
            para(
                "The method groups lines into blocks, assigns every block to a column by its "
                "horizontal position, and sorts the columns from left to right."
            ),
            Heading("2.1 Data", 11.5),
            para(
                "We used ﬁfty synthetic pages with two columns each. Every page carries the "
                "same header and a footer with its page number."
            ),
        ),
        (
            para(
                "Lines that span both columns, such as titles, are placed before the columns "
                "that start below them. Blocks that repeat at the same place on most pages "
                "are treated as furniture and dropped."
            ),
            para(
                "This rule is cheap to compute and does not depend on the language of the "
                "text, which matters for Japanese and Korean documents."
            ),
        ),
    ),
    (
        (
            Heading("3 Conclusion", 13),
            para(
                "Simple geometric rules recover the reading order of regular two-column "
                "pages without any trained model."
            ),
        ),
        (
            para(
                "Future work will handle pages whose columns change width halfway down, "
                "and figures that straddle both columns."
            ),
        ),
    ),
)
TWO_COLUMN_HEADER = "Journal of Examples · Vol. 3"


def two_column_pages() -> list[list[Item]]:
    """Columns, footer, header and title drawn in a scrambled order on purpose."""
    pages: list[list[Item]] = []
    page_count = len(TWO_COLUMN_PAGES)
    for index, (left_blocks, right_blocks) in enumerate(TWO_COLUMN_PAGES):
        top = 70.0
        front: list[Item] = []
        if index == 0:
            front.append(Text(LEFT_X, 110, TWO_COLUMN_TITLE, size=18, bold=True))
            abstract, top = flow(LEFT_X, 130, FULL_WIDTH, [TWO_COLUMN_ABSTRACT])
            front.extend(abstract)
        left, _ = flow(LEFT_X, top, COLUMN_WIDTH, left_blocks)
        right, _ = flow(RIGHT_X, top, COLUMN_WIDTH, right_blocks)
        footer = centered(A4_HEIGHT - 36, f"Page {index + 1} of {page_count}", 8)
        header = Text(LEFT_X, 40, TWO_COLUMN_HEADER, size=8, italic=True)
        pages.append([*right, footer, *left, header, *front])
    return pages


# --- 2. japanese_manual.pdf ---------------------------------------------------------------

JA_TITLE = "チャンクCLI 利用の手引き"
JA_HEADER = "チャンクCLI マニュアル 第1版"
JA_WIDTH = 300.0  # a narrow text column so that sentences wrap over several lines
JA_PAGES: tuple[tuple[Block, ...], ...] = (
    (
        Heading("第1章 概要", 15, gap_before=0),
        para(
            "このツールはPDFをマークダウンに変換し、検索用のチャンクに分割します。"
            "日本語の文書では行の途中で改行されることが多いため、行をつなぐときに余計な空白を"
            "入れないことが大切です。",
            cjk=True,
        ),
        Heading("1.1 インストール", 12),
        para("次の手順でインストールします。作業は数分で終わります。", cjk=True),
        ListItem("1.", "Pythonの3.11以降を用意します。", cjk=True),
        ListItem("2.", "仮想環境を作成して有効にします。", cjk=True),
        ListItem("3.", "パッケージをインストールします。", cjk=True),
    ),
    (
        Heading("第2章 使い方", 15, gap_before=0),
        para(
            "変換したいPDFを指定してコマンドを実行すると、同じ名前のマークダウンファイルが"
            "出力されます。ページ番号や柱は自動的に取り除かれます。",
            cjk=True,
        ),
        Heading("2.1 注意事項", 12),
        ListItem("・", "暗号化されたPDFにはパスワードが必要です。", cjk=True),
        ListItem(
            "・",
            "画像だけのページは文字を含まないため、変換結果にはそのページの印だけが残ります。",
            cjk=True,
        ),
        ListItem("・", "表は一つの表としてまとめて出力されます。", cjk=True),
    ),
)


def japanese_manual_pages() -> list[list[Item]]:
    pages: list[list[Item]] = []
    for index, blocks in enumerate(JA_PAGES):
        items: list[Item] = [Text(MARGIN, 40, JA_HEADER, size=8)]
        top = 80.0
        if index == 0:
            items.append(Text(MARGIN, 100, JA_TITLE, size=20, bold=True))
            top = 130.0
        body, _ = flow(MARGIN, top, JA_WIDTH, blocks)
        items.extend(body)
        items.append(centered(A4_HEIGHT - 36, f"- {index + 1} -", 9))
        pages.append(items)
    return pages


# --- 3. continued_table.pdf ---------------------------------------------------------------

TABLE_TITLE = "Power Supply Models"
TABLE_COLUMNS = (130.0, 90.0, 90.0, 150.0)
TABLE_HEADER = ("Model", "Voltage (V)", "Current (A)", "Notes")
TABLE_ROWS_PAGE_1 = (
    ("PS-100", "5", "2.0", "Desk use"),
    ("PS-200", "12", "1.5", "AC|DC switchable"),
    ("PS-300", "12", "3.0", "Fan-cooled, wall\nmount"),
    ("PS-400", "24", "2.5", "Industrial"),
    ("PS-500", "24", "5.0", "Rack mount"),
    ("PS-600", "48", "1.0", "PoE injector"),
)
TABLE_ROWS_PAGE_2 = (
    ("PS-700", "48", "2.5", "Telecom"),
    ("PS-800", "3.3", "4.0", "Low voltage"),
    ("PS-900", "9", "1.2", "Battery charger"),
)
TABLE_ROW_HEIGHT = 20.0
TABLE_TALL_ROW_HEIGHT = 34.0  # room for a cell wrapped over two lines


def _table_rows(rows: Sequence[Sequence[str]]) -> tuple[list[list[str]], list[float]]:
    cells = [list(TABLE_HEADER), *[list(r) for r in rows]]
    heights = [
        TABLE_TALL_ROW_HEIGHT if any("\n" in c for c in row) else TABLE_ROW_HEIGHT for row in cells
    ]
    return cells, heights


def continued_table_pages() -> list[list[Item]]:
    intro, top = flow(
        MARGIN,
        130,
        FULL_WIDTH,
        [
            para(
                "The table below lists every power supply in the current catalogue with its "
                "output voltage and maximum current. It continues on the next page."
            )
        ],
    )
    # Push the table down so that it runs off the bottom of page 1, as long tables do.
    table_top = max(top, 560.0)
    cells_1, heights_1 = _table_rows(TABLE_ROWS_PAGE_1)
    cells_2, heights_2 = _table_rows(TABLE_ROWS_PAGE_2)
    page_1: list[Item] = [
        Text(MARGIN, 100, TABLE_TITLE, size=18, bold=True),
        *intro,
        *grid_table(MARGIN, table_top, TABLE_COLUMNS, heights_1, cells_1),
    ]
    table_2 = grid_table(MARGIN, 72, TABLE_COLUMNS, heights_2, cells_2)
    after, _ = flow(
        MARGIN,
        72 + sum(heights_2) + 20,
        FULL_WIDTH,
        [
            para(
                "All models are tested at full load for two hours before they leave the "
                "factory. Contact support for datasheets."
            )
        ],
    )
    return [page_1, [*table_2, *after]]


# --- 4. blank_and_scanned.pdf -------------------------------------------------------------

SCAN_TITLE = "Archive Notes"
SCAN_TEXT = "This page was scanned.\nIt has pixels but no text layer."


def blank_and_scanned_pages() -> list[list[Item]]:
    first, _ = flow(
        MARGIN,
        130,
        FULL_WIDTH,
        [
            para(
                "The archive holds four pages. The second page is empty and the third page "
                "is a scanned image without any text layer."
            )
        ],
    )
    last, _ = flow(
        MARGIN,
        72,
        FULL_WIDTH,
        [para("The last page has text again, so conversion continues after the scan.")],
    )
    return [
        [Text(MARGIN, 100, SCAN_TITLE, size=18, bold=True), *first],
        [],
        [Image(MARGIN, 72, A4_WIDTH - MARGIN, 400, text=SCAN_TEXT)],
        last,
    ]


# --- 5. outline.pdf -----------------------------------------------------------------------

OUTLINE_TITLE = "Data Handling Regulations"
# (outline level, heading text, body paragraphs) per page; headings are bold body-size text.
OUTLINE_PAGES: tuple[tuple[tuple[int, str, tuple[Para, ...]], ...], ...] = (
    (
        (1, "Part I General Provisions", (para("This part applies to every department."),)),
        (
            2,
            "Chapter 1 Purpose",
            (para("These regulations set out how personal data is collected and stored."),),
        ),
        (
            3,
            "Article 15",
            (
                para(
                    "Personal data shall be deleted when it is no longer needed for the purpose "
                    "for which it was collected."
                ),
            ),
        ),
        (3, "Article 16", (para("Each department keeps a register of the data it holds."),)),
    ),
    (
        (1, "Part II Japanese Provisions", (para("The following articles are in Japanese."),)),
        (2, "第一章 総則", (para("この章は、規程全体に共通する事項を定める。", cjk=True),)),
        (
            3,
            "第十五条",
            (
                para(
                    "個人情報は、利用目的の達成に必要な範囲を超えて保存してはならない。"
                    "保存期間を過ぎた情報は速やかに消去する。",
                    cjk=True,
                ),
            ),
        ),
        (3, "第十六条", (para("各部署は、保有する情報の台帳を備える。", cjk=True),)),
    ),
)


def outline_pages() -> tuple[list[list[Item]], list[tuple[int, str, int]]]:
    pages: list[list[Item]] = []
    toc: list[tuple[int, str, int]] = []
    for index, sections in enumerate(OUTLINE_PAGES):
        items: list[Item] = []
        top = 72.0
        if index == 0:
            items.append(Text(MARGIN, 100, OUTLINE_TITLE, size=16, bold=True))
            top = 120.0
        for level, heading, paragraphs in sections:
            toc.append((level, heading, index + 1))
            blocks: list[Block] = [Heading(heading, BODY_SIZE), *paragraphs]
            body, top = flow(MARGIN, top, FULL_WIDTH, blocks)
            items.extend(body)
        pages.append(items)
    return pages, toc


# --- main ---------------------------------------------------------------------------------


# --- 6. figures.pdf -----------------------------------------------------------------------
# A report with a logo on every page (furniture, not a figure), a bar chart drawn as paths
# with text labels, and a picture of a chart's labels: both figures keep caption and words.

FIGURES_TITLE = "Quarterly Output Report"
FIGURE_PICTURE_TEXT = "Plant A 120 tons\nPlant B 85 tons\nPlant C 60 tons"


def _logo() -> Image:
    return Image(A4_WIDTH - MARGIN - 110, 30, A4_WIDTH - MARGIN, 140, seed=7)


def _bar_chart(top: float) -> list[Item]:
    """Three bars on an axis, their values above them and their names below."""
    items: list[Item] = [Rect(MARGIN + 40, top, MARGIN + 41, top + 120, fill_gray=0.0)]
    items.append(Rect(MARGIN + 40, top + 120, MARGIN + 360, top + 121, fill_gray=0.0))
    for k, (name, value) in enumerate((("North", 40), ("South", 75), ("West", 110))):
        x = MARGIN + 70 + k * 100
        items.append(Rect(x, top + 120 - value, x + 50, top + 120, fill_gray=0.4))
        items.append(Text(x + 15, top + 112 - value, str(value), size=9))
        items.append(Text(x + 10, top + 134, name, size=9))
    return items


def figures_pages() -> list[list[Item]]:
    intro, bottom = flow(
        MARGIN,
        190,
        FULL_WIDTH,
        [
            para(
                "Output rose in every region this quarter. The chart below gives the orders "
                "each region placed, in thousands of units."
            )
        ],
    )
    chart = _bar_chart(bottom + 20)
    caption = Text(MARGIN, bottom + 190, "Figure 1. Orders by region", size=BODY_SIZE)
    second, below = flow(
        MARGIN,
        190,
        FULL_WIDTH,
        [
            para(
                "Each plant reports its output in tons. The plants' own summary sheet is "
                "pasted below as a picture."
            )
        ],
    )
    picture = Image(MARGIN, below + 20, MARGIN + 300, below + 100, text=FIGURE_PICTURE_TEXT)
    picture_caption = Text(MARGIN, below + 118, "Figure 2. Output by plant", size=BODY_SIZE)
    last, _ = flow(
        MARGIN,
        190,
        FULL_WIDTH,
        [para("The next report follows at the end of the next quarter.")],
    )
    return [
        [_logo(), Text(MARGIN, 170, FIGURES_TITLE, size=18, bold=True), *intro, *chart, caption],
        [_logo(), *second, picture, picture_caption],
        [_logo(), *last],
    ]  # fmt: skip


def write_samples(out_dir: Path) -> list[Path]:
    """Write every sample PDF into `out_dir`; return their paths."""
    outline_content, toc = outline_pages()
    makers: dict[str, Callable[[Path], Path]] = {
        "two_column.pdf": lambda p: make_pdf(p, two_column_pages(), title=TWO_COLUMN_TITLE),
        "japanese_manual.pdf": lambda p: make_pdf(p, japanese_manual_pages(), title=JA_TITLE),
        "continued_table.pdf": lambda p: make_pdf(p, continued_table_pages(), title=TABLE_TITLE),
        "blank_and_scanned.pdf": lambda p: make_pdf(p, blank_and_scanned_pages()),
        "outline.pdf": lambda p: make_pdf(p, outline_content, outline=toc, title=OUTLINE_TITLE),
        "figures.pdf": lambda p: make_pdf(p, figures_pages(), title=FIGURES_TITLE),
    }
    return [make(out_dir / name) for name, make in makers.items()]


def main(argv: Sequence[str]) -> int:
    out_dir = Path(argv[1]) if len(argv) > 1 else SAMPLES_DIR
    for path in write_samples(out_dir):
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""split of converted tables: captions in table parts' prefixes, pages of continued tables."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from chunkcli.model import Chunk, ChunkKind
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.split.captions import table_caption
from chunkcli.split.counting import SpanCounter
from chunkcli.split.options import SplitSettings
from chunkcli.split.scan import scan_markdown
from chunkcli.tokens import tiktoken_counter

MAX_CHARS = SplitSettings().caption_max_chars

HEADER = "| 部品 | 在庫 |\n| --- | --- |\n"


def count_words(text: str) -> int:
    return len(text.split())


def split(markdown: str, max_tokens: int) -> list[Chunk]:
    return split_markdown(
        markdown, SplitOptions(max_tokens=max_tokens), source="doc.md", count_tokens=count_words
    )


def rows(first: int, last: int) -> str:
    return "".join(f"| ボルト {i} | {i} 個 |\n" for i in range(first, last))


def test_every_table_part_carries_the_caption_and_the_header() -> None:
    markdown = "## 在庫\n\n前置きの文。\n\n表3 部品在庫\n\n" + HEADER + rows(0, 30)
    chunks = split(markdown, max_tokens=40)
    parts = [c for c in chunks if c.kind is ChunkKind.TABLE_PART]
    assert len(parts) > 2
    assert parts[0].prefix == "doc › 在庫\n\n表3 部品在庫\n\n"
    assert {c.prefix for c in parts[1:]} == {"doc › 在庫\n\n表3 部品在庫\n\n" + HEADER}
    body_rows = [line for c in parts for line in c.body.splitlines() if "ボルト" in line]
    assert body_rows == rows(0, 30).splitlines()
    assert all(c.tokens == count_words(c.text) <= 40 for c in chunks)


def test_a_continued_table_keeps_the_caption_and_each_row_its_page() -> None:
    markdown = (
        "<!-- page 7 -->\n\n## 在庫\n\n**Table 3: Parts in stock**\n\n"
        + HEADER
        + rows(0, 12)
        + "\n<!-- page 8 -->\n\n"
        + HEADER
        + rows(12, 24)
        + "\n<!-- page 9 -->\n\n"
        + HEADER
        + rows(24, 30)
        + "\n後の文。\n"
    )
    chunks = split(markdown, max_tokens=40)
    for chunk in chunks:
        numbers = [int(line.split()[2]) for line in chunk.body.splitlines() if "ボルト" in line]
        pages = {7 + n // 12 for n in numbers}
        assert pages <= set(range(chunk.page_start or 0, (chunk.page_end or 0) + 1))
        if chunk.kind in (ChunkKind.TABLE_PART, ChunkKind.TABLE):
            assert chunk.prefix.startswith("doc › 在庫\n\nTable 3: Parts in stock\n\n")
    assert chunks[-1].body.endswith("後の文。\n") and chunks[-1].page_start == 9


@pytest.mark.parametrize(
    ("above", "caption"),
    [
        ("表3 部品在庫", "表3 部品在庫"),
        ("別表第1 手数料", "別表第1 手数料"),
        ("**Table 2.** Results", "Table 2. Results"),
        ("<표 4> 예산", "<표 4> 예산"),
        ("Tab. A1 Sizes", "Tab. A1 Sizes"),
        ("The table below lists the parts.", ""),
        ("表示の例", ""),
        ("表3 " + "長" * 90, ""),
        ("## 表3 見出し", ""),
    ],
)
def test_caption_is_a_short_line_naming_the_table(above: str, caption: str) -> None:
    markdown = above + "\n\n" + HEADER + rows(0, 2)
    scan = scan_markdown(markdown, _counter())
    table = next(k for k, p in enumerate(scan.pieces) if p.rows)
    assert table_caption(markdown, scan.pieces, table, MAX_CHARS) == caption


def test_a_table_after_another_table_with_another_header_has_no_inherited_caption() -> None:
    other = "| x | y |\n| --- | --- |\n| 1 | 2 |\n"
    markdown = "表1 A\n\n" + HEADER + rows(0, 2) + "\n<!-- page 2 -->\n\n" + other
    scan = scan_markdown(markdown, _counter())
    tables = [k for k, p in enumerate(scan.pieces) if p.rows]
    assert [table_caption(markdown, scan.pieces, k, MAX_CHARS) for k in tables] == ["表1 A", ""]


def test_caption_prefix_counts_are_exact_with_cl100k() -> None:
    count = tiktoken_counter("cl100k_base")
    markdown = "# 在庫\n\n表3 部品在庫\n\n" + HEADER + rows(0, 60)
    chunks = split_markdown(markdown, SplitOptions(max_tokens=80), source="doc.md")
    assert len(chunks) > 2
    assert all(c.tokens == count(c.text) <= 80 for c in chunks)


def _counter() -> SpanCounter:
    def counts(bounds: Sequence[int], boundable: Sequence[bool] = ()) -> list[int]:
        return [0] * (len(bounds) - 1)

    return counts

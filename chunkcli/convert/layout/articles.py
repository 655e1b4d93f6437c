"""Law articles: the caption set above an article belongs to that article's heading.

Japanese statutes set an article's caption in brackets on the line above its number:
"（使用の停止）" then "第二条　国土交通大臣は、…". When the number is a heading of its own
(set apart or in bold), the caption was left at the end of the article before, where it named
the wrong text and the heading path of every chunk of the article lacked it. The caption is
folded into the heading ("第二条（使用の停止）", as split's laws mode and e-Gov write it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chunkcli.convert.layout.numbering import KANJI_NUM
from chunkcli.model import BBox, Block, BlockKind, Page

# A heading that is only an article's number: 第二条, 第三十五条の十七の十五.
ARTICLE_NUMBER = re.compile(rf"第[{KANJI_NUM}]+条(?:の[{KANJI_NUM}]+)*")
# An article caption: one bracketed phrase on a line of its own (e-Gov's longest captions run
# to about 30 characters; 40 leaves room).
BRACKETED_CAPTION = re.compile(r"[（(][^（）()]{1,40}[）)]")


def attach_article_captions(pages: Sequence[Page]) -> tuple[Page, ...]:
    """Pages where each article-number heading carries the bracketed caption set right
    above it (the caption's paragraph is gone)."""
    return tuple(_attached(page) for page in pages)


def _attached(page: Page) -> Page:
    blocks: list[Block] = []
    for block in page.blocks:
        previous = blocks[-1] if blocks else None
        if previous is not None and _is_caption(previous) and _is_article_heading(block):
            lines = (*block.lines, *previous.lines)
            blocks[-1] = replace(
                block, lines=lines, bbox=BBox.enclosing([line.bbox for line in lines])
            )
        else:
            blocks.append(block)
    return replace(page, blocks=tuple(blocks)) if len(blocks) != len(page.blocks) else page


def _is_caption(block: Block) -> bool:
    return (
        block.kind == BlockKind.PARAGRAPH
        and len(block.lines) == 1
        and BRACKETED_CAPTION.fullmatch(block.lines[0].text.strip()) is not None
    )


def _is_article_heading(block: Block) -> bool:
    text = "".join(line.text for line in block.lines).strip()
    return block.kind == BlockKind.HEADING and ARTICLE_NUMBER.fullmatch(text) is not None

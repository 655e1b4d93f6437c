"""Sentences cut by a page break: completed on the page where they start.

A paragraph that stops mid-sentence at the foot of page N and goes on at the head of page N+1
(see `paragraphs.breaks_mid_sentence`) would come out as two paragraphs with a page marker
between them: "事業者が製品の安全性を確" | "保するために…", a word cut in two for every reader and
retriever. The words up to the end of that sentence move to the paragraph on page N (joined
as any wrapped line: no space between Japanese letters); the rest of the paragraph stays on
page N+1, under its own marker, so that only the end of one sentence is cited with the page
where it starts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chunkcli.charclasses import CLOSING_MARKS
from chunkcli.convert.layout.paragraphs import breaks_mid_sentence, column_edges, sentence_goes_on
from chunkcli.model import BBox, Block, Line, Page, Span

# The end of a sentence: a full stop with the closing quotes and brackets after it; a Latin
# stop only before a space or the end of the line ("3.5" goes on).
SENTENCE_STOP = re.compile(
    rf"[。！？．][{re.escape(CLOSING_MARKS)}]*|[.!?][{re.escape(CLOSING_MARKS)}]*(?=\s|$)"
)
# At most this many characters move back over a page break (about five lines of a Japanese
# A4 page; the longest sentence of the generated and corpus cases is under 150): a "sentence"
# that runs on further is a list or a table, not one cut sentence.
MAX_CARRY_CHARS = 240


def join_page_breaks(pages: Sequence[Page]) -> tuple[Page, ...]:
    """Pages where a sentence cut by each page break is completed on the page it starts on."""
    result = list(pages)
    for index in range(1, len(result)):
        before, after = result[index - 1], result[index]
        if after.number != before.number + 1:
            continue
        last, first = _last_body_block(before), _first_body_block(after)
        if last is None or first is None:
            continue
        head, tail = before.blocks[last], after.blocks[first]
        if sentence_goes_on(head, tail) is None:
            continue  # the cheap test first: column edges cost a pass over both pages
        if not breaks_mid_sentence(
            head,
            tail,
            column_edges(before.blocks).get(head.column),
            column_edges(after.blocks).get(tail.column),
        ):
            continue
        cut = _first_sentence(tail)
        if cut is None:
            continue
        carried, rest = cut
        # The joined block keeps its own box: the carried lines lie on the next page.
        joined = replace(head, lines=head.lines + carried, carried=len(carried))
        result[index - 1] = replace(before, blocks=_replaced(before.blocks, last, joined))
        kept = (
            (replace(tail, lines=rest, bbox=BBox.enclosing([ln.bbox for ln in rest])),)
            if (rest)
            else ()
        )
        result[index] = replace(
            after, blocks=after.blocks[:first] + kept + after.blocks[first + 1 :]
        )
    return tuple(result)


def _body_indices(page: Page) -> list[int]:
    """Blocks of the page body: not side notes (rotated margin text is read after the body)."""
    return [i for i, b in enumerate(page.blocks) if b.column >= 0]


def _last_body_block(page: Page) -> int | None:
    indices = _body_indices(page)
    return indices[-1] if indices else None


def _first_body_block(page: Page) -> int | None:
    indices = _body_indices(page)
    return indices[0] if indices else None


def _replaced(blocks: tuple[Block, ...], index: int, block: Block) -> tuple[Block, ...]:
    return blocks[:index] + (block,) + blocks[index + 1 :]


def _first_sentence(block: Block) -> tuple[tuple[Line, ...], tuple[Line, ...]] | None:
    """(lines up to the end of the block's first sentence, the lines after it), a line cut
    where the sentence ends inside it; None when no sentence ends within MAX_CARRY_CHARS."""
    seen = 0
    for index, line in enumerate(block.lines):
        stop = SENTENCE_STOP.search(line.text)
        if stop is None or seen + stop.end() > MAX_CARRY_CHARS:
            seen += len(line.text)
            if seen > MAX_CARRY_CHARS:
                return None
            continue
        if not line.text[stop.end() :].strip():
            return block.lines[: index + 1], block.lines[index + 1 :]
        head, tail = split_line(line, stop.end())
        return block.lines[:index] + (head,), (tail,) + block.lines[index + 1 :]
    return None


def split_line(line: Line, position: int) -> tuple[Line, Line]:
    """`line` cut before character `position` (0 < position < len(text)): a span across the
    cut is cut too, its box shared out by character count."""
    before: list[Span] = []
    after: list[Span] = []
    start = 0
    for span in line.spans:
        end = start + len(span.text)
        if end <= position:
            before.append(span)
        elif start >= position:
            after.append(span)
        else:
            left, right = _cut_span(span, position - start)
            before.append(left)
            after.append(right)
        start = end
    return _line(before, line), _line(after, line)


def _cut_span(span: Span, index: int) -> tuple[Span, Span]:
    box = span.bbox
    x = box.x0 + box.width * index / max(1, len(span.text))
    return (
        replace(span, text=span.text[:index], bbox=BBox(box.x0, box.top, x, box.bottom)),
        replace(span, text=span.text[index:], bbox=BBox(x, box.top, box.x1, box.bottom)),
    )


def _line(spans: list[Span], source: Line) -> Line:
    return Line(tuple(spans), BBox.enclosing([s.bbox for s in spans]), source.vertical)

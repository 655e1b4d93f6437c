"""Ordered lines -> paragraphs and list items.

Consecutive lines of one column join into a paragraph until something marks a new one:
extra vertical space, a change of font size or weight, a bullet or enumerator, a first-line
indent (including Japanese full-width-space indents), or a short previous line that ends a
sentence. Vertical (縦書き) columns use the same ideas turned by 90 degrees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from statistics import median

from chunkcli.charclasses import FULL_WIDTH_STOPS, KANA_HAN_RE, SENTENCE_END_CHARS, is_cjk
from chunkcli.convert.edges import high_decile, low_decile
from chunkcli.convert.layout.faces import face_changes
from chunkcli.convert.layout.numbering import KANJI_ITEM, numbering_pattern
from chunkcli.model import Block, BlockKind, Line, Span

# Bullet glyphs that mark an item even when text follows without a space ("●Purpose"; the
# second row: Wingdings bullets as chunkcli.convert.extract.symbols translates them),
# and ASCII marks that need a space after them ("- item", "* item").
BULLET = re.compile(
    r"^\s*(?:([•●○◦▪▫■□◆◇►▶・※\u2023\u2043\u2219❍❑❒❖➢◉⬧⧫⬥])\s*"
    r"|([*+\-–])(?:\s+|$|(?=[^\x00-\x7f])))"
)
# The mark is followed by a space, by non-ASCII text, or by nothing: a mark drawn apart from
# its text is a line of its own until the text on its row joins it ("①" at x=71, its text at
# x=107 on ja-rag-20231027_policies_local_governments_outline_02.pdf p. 6: without `$` the
# "②" line continued item ① and the two items came out as one).
ENUMERATOR = re.compile(
    r"^\s*(\d{1,3}[.)]|\(\d{1,3}\)|（\d{1,3}）|[a-zA-Z][.)](?=\s)|\([a-z]\)|[①-⑳]"
    r"|[(（][一二三四五六七八九十]+[)）]|[ア-ン][.．])(\s+|$|(?=[^\x00-\x7f\d.]))"
)
# A Korean item's mark ("가.", "나)"), which starts a paragraph only after a line that ended:
# "다." also ends most Korean sentences, and a full line's "…합니" goes on with "다. 그런데".
HANGUL_ITEM = re.compile(r"^\s*[가나다라마바사아자차카타파하][.)]\s+\S")
# BULLET or ENUMERATOR, in one pattern: every line is asked whether it opens an item.
LIST_ITEM_START = re.compile(f"(?:{BULLET.pattern})|(?:{ENUMERATOR.pattern})")
# A contents entry: its page number after leaders, or after a tab (a tab leader, drawn as a gap:
# pymupdf-test-3820.pdf's contents kept "ACKNOWLEDGEMENTS\t" and "vi" as two spans on a row).
# The tab form takes a page number of at most three digits or a roman one: "Revenue\t2021" in
# a tab-separated row is no contents entry.
TOC_ENTRY = re.compile(
    r"(\.{4,}|…{2,}|・{4,}|\s{2,}\.{2,})\s*(?:[PpＰ]\.?\s*)?[\d０-９ivxIVX]+\s*$"
    r"|\S\s*\t\s*(?:[\d０-９]{1,3}|[ivxlc]{1,6}|[IVXLC]{1,6})\s*$"
)
# What a contents entry's last visible character is (a decimal digit, as \d reads one, or
# a roman numeral's letter): lines that end otherwise are not searched.
ROMAN_LETTERS = frozenset("ivxlcIVXLC")
SENTENCE_END = SENTENCE_END_CHARS
# A line that is one full-width bracketed phrase after a Japanese full stop starts something
# new: the caption of the next law article ("（使用の停止）"), never the rest of a sentence.
# (Half-width brackets and other endings are left alone: Korean bill lists wrap
# "…대표발의)" / "(의안번호2126161)" inside one entry.)
BRACKETED_LINE = re.compile(r"（[^（）()]{1,40}）")
FULL_STOPS = ("。", "．")
# A span that is only an entry number ("6", "[6]", "6."), drawn apart from the entry's text
# (reference lists of journals: olmocr-multi_column_miss.pdf).
REFERENCE_NUMBER = re.compile(r"^\s*(?:\[\d{1,3}\]|\d{1,3}\.?)\s*$")
# Inside a Japanese sentence: a break after a comma, a middle dot or a long-vowel mark goes on.
CJK_INNER_MARKS = "、，・ー"
# A Japanese paragraph cut by a column or page break has filled at least this many lines of a
# column at least this many font sizes wide: labels of a diagram ("消費者", "販売業者等") stand
# in boxes of their own, one or two lines narrower than that (seen on the corpus's slides).
MIN_BROKEN_LINES = 2
MIN_BROKEN_LINE_EM = 10.0
# A Japanese sentence may go on with a quotation or a bracket.
CJK_OPENING_MARKS = "「『（(〔【"
# Extra space above a line beyond the page's usual leading, in font sizes, that starts a paragraph.
PARAGRAPH_GAP_EM = 0.45
# Font sizes that differ by more than this (points) belong to different blocks.
SIZE_CHANGE_PT = 0.8
# ... or by more than this share of the size (OCR text layers give each line its own size).
SIZE_CHANGE_SHARE = 0.1
# A line ending this many font sizes before its column's right edge is short.
SHORT_LINE_EM = 2.0
# Starts of lines within this many font sizes count as the same indent.
INDENT_EM = 0.5
# Japanese pieces of one row set at least this many font sizes apart are separate words: two
# names on a cover ("経済産業省" … "厚生労働省", gaiyo.pdf of the retrieval set) or an article
# number and its text; closer pieces are one run of text that MuPDF cut at a font change, and
# single letters set apart are one letter-spaced word ("報　告　書").
CJK_SPACED_GAP_EM = 1.0
# A second line may be indented this far past the first (hanging indent of an item).
HANGING_INDENT_EM = 4.0
# 縦書き tiers are cut where at most this share of the most lines standing at any height stand
# (pdfminer-kampo.pdf: 70 lines in the upper tier, 1-2 crossing into the lower one).
TIER_GAP_SHARE = 0.1
# ... and looked for only in a column of at least this many lines (a few lines of different
# lengths are no tiers; kampo's upper tier alone holds 70).
MIN_TIER_LINES = 10


@dataclass(frozen=True, slots=True)
class Column:
    """Edges of the lines of one column on one page, for indent and short-line tests."""

    left: float
    right: float
    leading: float
    # 縦書き set in tiers (段: a gazette's page holds two or more bands of vertical lines, one
    # above the other, pdfminer-kampo.pdf): each tier's own edges as (top, bottom, edges). Without
    # them every line of the upper tier ended short of the lower tier's foot, and each line of
    # a paragraph came out as a paragraph of its own.
    tiers: tuple[tuple[float, float, Column], ...] = ()


def group_paragraphs(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    """Merge ordered single-line blocks into paragraph and list-item blocks."""
    columns = column_edges(blocks)
    result: list[Block] = []
    for block in blocks:
        previous = result[-1] if result else None
        if (
            previous is not None
            and block.kind == BlockKind.PARAGRAPH
            and previous.kind in (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM)
            and previous.column == block.column
            and not block.lines[0].vertical
            and _same_row(previous.lines[-1], block.lines[0])
        ):
            # A line MuPDF split at a wide gap ("1" ... "Introduction", a run-in heading).
            result[-1] = _extend_last_line(previous, block.lines[0])
            if _is_bare_enumerator(previous):  # "①" drawn apart from its text: now an item
                result[-1] = replace(result[-1], kind=BlockKind.LIST_ITEM)
        elif (
            previous is not None
            and block.kind == BlockKind.PARAGRAPH
            and previous.kind in (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM)
            and continues(previous, block.lines[0], columns.get(block.column))
        ):
            result[-1] = _append(previous, block)
        elif (
            block.kind == BlockKind.PARAGRAPH
            and starts_list_item(block.lines[0].text)
            and not _is_bare_enumerator(block)
        ):
            result.append(replace(block, kind=BlockKind.LIST_ITEM))
        else:
            result.append(block)
    return tuple(_join_column_breaks(result, columns))


def _join_column_breaks(blocks: list[Block], columns: dict[int, Column]) -> list[Block]:
    """Rejoin a paragraph that a column break cut mid-sentence: the text stops without
    punctuation at the foot of a full column and goes on in lower case in the next one."""
    result: list[Block] = []
    for block in blocks:
        previous = result[-1] if result else None
        if previous is not None and _continues_in_next_column(previous, block, columns):
            result[-1] = _append(previous, block)
        else:
            result.append(block)
    return result


def _continues_in_next_column(block: Block, following: Block, columns: dict[int, Column]) -> bool:
    if block.column == following.column:
        return False
    return breaks_mid_sentence(
        block, following, columns.get(block.column), columns.get(following.column)
    )


def breaks_mid_sentence(
    block: Block, following: Block, column: Column | None, next_column: Column | None
) -> bool:
    """Whether the paragraph `block` stops mid-sentence at the foot of a full column and
    `following` goes on with that sentence at the head of the next column (or page): English
    that stops without punctuation and goes on in lower case; Japanese and Chinese that stop
    on a letter or a comma (not on 。．！？」) and go on with a letter, not indented, not with an
    item or article number."""
    kind = sentence_goes_on(block, following)
    if kind is None or column is None or _is_short(block.lines[-1], column):
        return False
    return kind == "latin" or not (
        next_column is not None and _is_indented(following.lines[0], next_column)
    )


def sentence_goes_on(block: Block, following: Block) -> str | None:
    """The text side of `breaks_mid_sentence` (no column edges needed, so callers test it
    first): "latin" or "cjk" when the text of `block` stops mid-sentence and `following`
    goes on with it, else None."""
    if (
        block.kind != BlockKind.PARAGRAPH
        or following.kind != BlockKind.PARAGRAPH
        or block.lines[-1].vertical
        or following.lines[0].vertical
    ):
        return None
    last, first = block.lines[-1], following.lines[0]
    if not _same_size(last, first):
        return None
    ending, opening = last.text.rstrip()[-1:], first.text.lstrip()[:1]
    if (ending.isalpha() or ending in ",-") and opening.isascii() and opening.islower():
        return "latin"
    cjk = (
        len(block.lines) >= MIN_BROKEN_LINES
        and last.bbox.width >= MIN_BROKEN_LINE_EM * _em(last)
        and last.bold == first.bold
        and _cjk_sentence_continues(last.text.rstrip(), first.text)
    )
    return "cjk" if cjk else None


def _cjk_sentence_continues(before: str, after: str) -> bool:
    """Japanese or Chinese text `before` a break stops mid-sentence and `after` goes on."""
    ending, opening = before[-1:], after[:1]
    if not ending or not opening or before.endswith(SENTENCE_END) or ending in FULL_WIDTH_STOPS:
        return False
    stops_on_letter = (
        bool(KANA_HAN_RE.match(ending))
        or ending in CJK_INNER_MARKS
        or (ending.isascii() and ending.isalnum() and KANA_HAN_RE.search(before) is not None)
    )
    goes_on = bool(KANA_HAN_RE.match(opening)) or opening in CJK_OPENING_MARKS
    return (
        stops_on_letter
        and goes_on
        and not starts_list_item(after)
        and numbering_pattern(after) is None
    )


def _is_indented(line: Line, column: Column) -> bool:
    return _start(line) > _edges_at(line, column).left + INDENT_EM * _em(line)


def starts_list_item(text: str) -> bool:
    return LIST_ITEM_START.match(text) is not None


def _is_bare_enumerator(block: Block) -> bool:
    """A paragraph that is only an item number ("①", "(1)"): an item once the text on its row
    joins it; alone (a number above a 縦書き column, saka1029-kokuji.pdf) it stays a line."""
    if block.kind != BlockKind.PARAGRAPH or len(block.lines) != 1:
        return False
    text = block.lines[0].text.strip()
    match = ENUMERATOR.match(text)
    return match is not None and match.end() == len(text)


def _extend_last_line(block: Block, line: Line) -> Block:
    last = block.lines[-1]
    left, right = last.text.rstrip()[-1:] or "a", line.text.lstrip()[:1] or "a"
    apart = line.bbox.x0 - last.bbox.x1 >= CJK_SPACED_GAP_EM * max(last.size, line.size)
    words = len(last.text.strip()) >= 2 and len(line.text.strip()) >= 2  # not "報" "告" "書"
    gap_needed = (apart and words) or not (is_cjk(left) and is_cjk(right))
    space = (Span(" ", last.bbox, size=last.size, bold=last.bold),) if gap_needed else ()
    joined = Line(last.spans + space + line.spans, last.bbox.union(line.bbox))
    return block.with_lines(block.lines[:-1] + (joined,), block.bbox.union(line.bbox))


def _append(block: Block, line_block: Block) -> Block:
    return block.with_lines(block.lines + line_block.lines, block.bbox.union(line_block.bbox))


def continues(block: Block, line: Line, column: Column | None) -> bool:
    """True when `line` continues the paragraph or list item `block`."""
    last = block.lines[-1]
    if column is None or line.vertical != last.vertical:
        return False
    if not _same_size(line, last) or line.bold != last.bold or face_changes(last, line):
        return False
    if starts_list_item(line.text) or line.text.startswith("\u3000"):
        return False
    if KANJI_ITEM.match(line.text):
        return False  # a notice's next item ("二　院内感染防止対策の基準")
    if HANGUL_ITEM.match(line.text) and (
        _is_short(last, column) or last.text.rstrip().endswith(SENTENCE_END)
    ):
        return False  # a Korean item ("다. 제조자/공급자/유통정보") after a line that ended
    if not _next_line_distance(last, line, column):
        return False
    if _is_short(last, column) and (
        line.vertical
        # a short numbered line on its own is a heading ("4.3.1 Instruction Tuning" over a
        # run-in "Ablation on the training datasets." in the same bold), unless the next line
        # hangs under its text (a numbered reference going on)
        or (
            len(block.lines) == 1
            and numbering_pattern(last.text) is not None
            and not _hangs_under_number(last, line)
        )
        or last.text.rstrip().endswith(SENTENCE_END)
        or is_cjk(last.text.rstrip()[-1])  # justified CJK: only a paragraph's last line is short
        # a line wholly in italic that fills at most half its column, over upright text, is
        # a line of its own: a CV's date line over the job's description, a run-in drug name
        # over its paragraph (an italic phrase wrapping at a line's end fills more)
        or (_all_italic(last) and not _all_italic(line) and _half_line(last, column))
        or (  # then an indent; list items indent their continuation lines (hanging)
            block.kind != BlockKind.LIST_ITEM
            and _start(line) > _start(block.lines[0]) + INDENT_EM * _em(line)
            and not _hangs_under_number(block.lines[0], line)
        )
    ):
        return False
    if is_toc_entry(last.text):
        return False  # each table-of-contents entry is its own line
    if last.text.rstrip().endswith(FULL_STOPS) and BRACKETED_LINE.fullmatch(line.text.strip()):
        return False  # a law article's caption "（使用の停止）" after the article before it
    return _indent_continues(block, line)


def is_toc_entry(text: str) -> bool:
    """A table-of-contents entry (TOC_ENTRY), searched for only in a line that ends in a
    digit or a roman numeral's letter: the search costs ~8 us on a long line, and it runs
    for nearly every line of every page."""
    stripped = text.rstrip()  # (str.isspace is what \s matches)
    if not stripped or not (stripped[-1].isdecimal() or stripped[-1] in ROMAN_LETTERS):
        return False
    return TOC_ENTRY.search(text) is not None


def _half_line(line: Line, column: Column) -> bool:
    edges = _edges_at(line, column)
    return not line.vertical and line.bbox.width <= (edges.right - edges.left) / 2


def _all_italic(line: Line) -> bool:
    visible = [span for span in line.spans if span.text.strip()]
    return bool(visible) and all(span.italic for span in visible)


def _hangs_under_number(first: Line, line: Line) -> bool:
    """True when `line` starts where the text after the bare number opening `first` starts:
    the hanging indent of a numbered entry ("6 Mackay J ... World Health" / "Organization,
    2002." in a reference list), not a paragraph's first-line indent."""
    if line.vertical or not REFERENCE_NUMBER.match(first.spans[0].text):
        return False
    after = [s for s in first.spans[1:] if s.text.strip()]
    if not after or not after[0].text.lstrip()[0].isalpha():
        return False  # "0 0.2 0.4" is a chart's axis, not a numbered entry
    return abs(_start(line) - after[0].bbox.x0) <= INDENT_EM * _em(line)


def _same_size(a: Line, b: Line) -> bool:
    # (max() written as its comparisons: this runs for every pair of lines a paragraph may join)
    larger = b.size if b.size > a.size else a.size
    allowed = SIZE_CHANGE_SHARE * larger
    if not allowed > SIZE_CHANGE_PT:
        allowed = SIZE_CHANGE_PT
    return abs(a.size - b.size) <= allowed


def _next_line_distance(last: Line, line: Line, column: Column) -> bool:
    """The line sits where the next line of the same paragraph would."""
    if line.vertical:  # columns of 縦書き advance right to left
        width = max(1.0, last.bbox.width)
        return -0.5 * width < last.bbox.x0 - line.bbox.x1 <= 2.5 * width
    gap = line.bbox.top - last.bbox.bottom
    return -0.5 * line.size <= gap <= column.leading + PARAGRAPH_GAP_EM * line.size


def _indent_continues(block: Block, line: Line) -> bool:
    """Indentation agrees with one paragraph: first-line indent or hanging indent.

    With a first-line indent the second line goes back to the margin; with a hanging
    indent (numbered items, legal text) the second line is indented. Later lines keep
    the second line's start; a line that leaves it starts a new paragraph.
    """
    em = _em(line)
    first = _start(block.lines[0])
    if len(block.lines) == 1:
        # Within a hanging or first-line indent of each other; more is a centred or
        # flush-right line (a title, a signature) standing alone.
        return abs(_start(line) - first) <= HANGING_INDENT_EM * em
    return abs(_start(line) - _start(block.lines[1])) <= INDENT_EM * em


def _start(line: Line) -> float:
    return line.bbox.top if line.vertical else line.bbox.x0


def _em(line: Line) -> float:
    return max(1.0, line.bbox.width if line.vertical else line.size)


def _same_row(last: Line, line: Line) -> bool:
    if not line.bbox.x0 >= last.bbox.x1 - 1:
        return False  # (asked first: the next line of a paragraph starts left of this one's end)
    overlap = last.bbox.y_overlap(line.bbox)
    shorter = min(last.bbox.height, line.bbox.height)
    return overlap > 0.5 * shorter


def _is_short(line: Line, column: Column) -> bool:
    end = line.bbox.bottom if line.vertical else line.bbox.x1
    return end < _edges_at(line, column).right - SHORT_LINE_EM * _em(line)


def _edges_at(line: Line, column: Column) -> Column:
    """The edges that hold for `line`: its tier's, when vertical text is set in tiers."""
    if line.vertical and column.tiers:
        middle = line.bbox.center_y
        for top, bottom, edges in column.tiers:
            if top <= middle <= bottom:
                return edges
    return column


def column_edges(blocks: tuple[Block, ...]) -> dict[int, Column]:
    """Left/right edges and usual leading of each column (top/bottom for vertical text)."""
    by_column: dict[int, list[Line]] = {}
    for block in blocks:
        if block.kind == BlockKind.PARAGRAPH:
            by_column.setdefault(block.column, []).extend(block.lines)
    return {column: _edges(lines) for column, lines in by_column.items()}


def _edges(lines: list[Line]) -> Column:
    if lines[0].vertical:
        tiers = _vertical_tiers(lines) if len(lines) >= MIN_TIER_LINES else ()
        return Column(*_vertical_edges(lines), 0.0, tiers if len(tiers) > 1 else ())
    lefts = sorted(line.bbox.x0 for line in lines)
    rights = sorted(line.bbox.x1 for line in lines)
    return Column(low_decile(lefts), high_decile(rights), _leading(lines))


def _vertical_edges(lines: list[Line]) -> tuple[float, float]:
    tops = sorted(line.bbox.top for line in lines)
    bottoms = sorted(line.bbox.bottom for line in lines)
    return low_decile(tops), high_decile(bottoms)


def _vertical_tiers(lines: list[Line]) -> tuple[tuple[float, float, Column], ...]:
    """Tiers of vertical lines, with their edges: the bands from top to bottom where many lines
    stand, cut where few do (a line or two of a table or a heading may cross between tiers)."""
    events = sorted(
        [(line.bbox.top, 1) for line in lines] + [(line.bbox.bottom, -1) for line in lines]
    )
    peak = covered = 0
    for _, step in events:
        covered += step
        peak = max(peak, covered)
    threshold = max(1, int(TIER_GAP_SHARE * peak))
    bands: list[tuple[float, float]] = []
    covered, band_top = 0, None
    for y, step in events:
        covered += step
        if covered > threshold and band_top is None:
            band_top = y
        elif covered <= threshold and band_top is not None:
            bands.append((band_top, y))
            band_top = None
    tiers = []
    for top, bottom in bands:
        inside = [line for line in lines if top <= line.bbox.center_y <= bottom]
        if inside:
            tiers.append((top, bottom, Column(*_vertical_edges(inside), 0.0)))
    return tuple(tiers)


def _leading(lines: list[Line]) -> float:
    """The usual blank space between consecutive lines of body text (points)."""
    gaps = [
        b.bbox.top - a.bbox.bottom
        for a, b in zip(lines, lines[1:], strict=False)
        if _same_size(a, b) and -2 < b.bbox.top - a.bbox.bottom < 1.5 * a.size
    ]
    return median(gaps) if gaps else 0.3 * median(line.size for line in lines)

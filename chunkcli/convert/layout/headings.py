"""Headings and their levels: outline first, then numbering patterns, then font size.

Levels are emitted consistently: the document title once as level 1, chapters 2, sections 3,
anything deeper 4. Bold text at body size becomes a heading only when it carries a
numbering pattern (第十五条, Article 15, 2.1) - bold body text is emphasis, not structure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace

from chunkcli.charclasses import SENTENCE_END_CHARS, count_unusable
from chunkcli.convert.layout.faces import body_face, capitals_only, set_apart
from chunkcli.convert.layout.numbering import KANJI_ITEM, KANJI_NUM, numbering_pattern
from chunkcli.convert.layout.paragraphs import BULLET, is_toc_entry
from chunkcli.convert.layout.settings import FurnitureSettings
from chunkcli.model import (
    BBox,
    Block,
    BlockKind,
    Document,
    Line,
    OutlineEntry,
    Page,
    bold_share,
)

# A heading is short: at most this many lines and characters.
MAX_HEADING_LINES = 3
# A cover's title in large type may take more lines (pymupdf-test-3820.pdf: four lines of 25 pt
# on a 453 pt wide page, 113 characters).
MAX_TITLE_LINES = 5
MAX_HEADING_CHARS = 120
# Larger than body text by this much (points and ratio) reads as a heading.
HEADING_SIZE_DELTA_PT = 1.0
HEADING_SIZE_RATIO = 1.1
# The title is on the first page, at least this much larger than body text.
TITLE_SIZE_RATIO = 1.3
# A block is centred when its middle lies within this share of the page width of the page's
# (the Korean bill's title lines: 297.5 and 297.0 on a 595 pt page, 0.1 %; a flush-left heading
# on an A4 page is 40 % off).
CENTRED_SHARE = 0.05
# A centred title at a heading's size may share its size with at most this many other headings
# on later pages (the Korean bill: its comparison table's title, "신ㆍ구조문대비표"); centred
# section headings in that size on page after page are the sections' style, not a title.
CENTRED_TITLE_SIZE_REUSE = 1
# A number standing as a value (an integer, a decimal, a percentage) in a heading's text, and
# how many of them make a line of values (an axis's ticks), not a heading.
DATA_NUMBER = re.compile(r"[-+]?[\d０-９]+(?:[.,．][\d０-９]+)*[%％]?")
PERCENT_APART = re.compile(r"(\d)\s+([%％])")
MAX_HEADING_NUMBERS = 3
# The lines of one title are set less than this many font sizes apart (line spacing up to 2.0;
# the generated and corpus covers use 1.2-1.5, the retrieval set's 000040369.pdf 1.93: three centred
# lines of 28 pt, 54 pt apart), overlapping by at most this much.
TITLE_LINE_GAP_EM = 1.0
TITLE_OVERLAP_EM = 0.3
# A title line that ends in a particle or conjunction no title ends with is continued by the
# line right below it even in a smaller type ("2020年の" at 32 pt over "スーパーマーケット動向"
# at 26 pt: a cover's designer sets the two halves in two sizes), when that type is still a
# heading's (HEADING_SIZE_RATIO over the body).
OPEN_PHRASE_ENDS = (
    "の",
    "と",
    "に",
    "や",
    "へ",
    "、",
    "・",
    "及び",
    "並びに",
    "における",
    "に関する",
    "による",
    "および",
)
# Use the outline when at least this share of its entries are found as lines on their page.
OUTLINE_MATCH_SHARE = 0.5
# Headings carry little of a document's text: a size class holding more than this share of
# all characters is running text (the big type of a slide deck), not a heading level.
HEADING_TEXT_SHARE = 0.2
# ... and so is a heading's size that a page's running text is set in, when that page has at
# least this many characters of it and they are at least this share of its text: pages that
# differ in type (retrieval-ja j-bunpu2023: five pages of 10.5 pt prose, fourteen scanned
# pages of tables and charts in 4.5-9 pt, whose characters make the body 5.5 pt) would
# otherwise make every short line of its prose pages a heading.
PAGE_BODY_MIN_CHARS = 400
PAGE_BODY_MIN_SHARE = 0.5
# Lines that name no section whatever their size: a figure or table label on its own, a
# source line ("Source: …", not "Sources of Soil Acidity") or download line, a date or
# revision line of a cover page ("2023年3月", "June 2023").
NOT_A_HEADING = re.compile(
    r"^(?:(?:fig(?:ure)?\.?|table|chart|graph|図|表)\s*[\d０-９]+[.:：]?\s*$"
    r"|(?:sources?\s*[:：]|出典|資料\s*[:：]|downloaded from\b|retrieved from\b)"
    r"|(?:rev(?:ision)?\.?|version|ver\.|改訂|改定)\s*[\d０-９]"
    r"|[\d０-９]{4}\s*年\s*(?:[（(][^）)]{1,12}[）)])?\s*[\d０-９]{1,2}\s*月(?:\s*[\d０-９]{1,2}\s*日)?"
    r"\s*(?:改訂|改定|版|発行)?\s*$"
    r"|(?:\d{1,2}\s+)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?"
    r"|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+"
    r"(?:\d{1,2},?\s+)?\d{4}\s*$)",
    re.IGNORECASE,
)
# A figure with a percent sign is data; at body size, a line holding one labels a chart.
PERCENT_FIGURE = re.compile(r"[\d０-９]\s*[%％]")
# A section's number is set as large as its title or larger (a chapter's "9" at 29.5 pt before
# 9.5 pt words); a number this much smaller than the words after it is a footnote's mark ("12"
# at 7.0 pt before "IPA セキュリティ関連…" at 7.9 pt).
FOOTNOTE_MARK_RATIO = 0.95
# Type smaller than the body by more than this is a note's or a running head's.
SMALLER_THAN_BODY_PT = 0.5
# A contents entry whose page number sits apart: its title ends in leaders ("3 保管 ………").
TRAILING_LEADERS = re.compile(r"(?:\.{4,}|…{2,}|・{4,}|‥{2,})\s*$")
# A contents list's heading names the list, never the document (an EDGAR filing's pages open
# with a "Table of Contents" link: olmocr-earnings.pdf had it as its title).
NOT_A_TITLE = re.compile(
    r"^\s*(?:table\s+of\s+contents|contents|目\s*次|목\s*차|차\s*례)\s*$", re.IGNORECASE
)
# A heading names something: it holds at least this many letters ("-2.85% -3.57%", "1" do not).
MIN_HEADING_LETTERS = 2
# A cover page (the title's page) carries at most this many characters of body-size text;
# its other large lines (a ministry, a company, a date) are cover lines, not chapters.
COVER_MAX_BODY_CHARS = 200
# A bare number and a space open a running head's line (its page number); a section number
# at the top of a page has a dot or a deeper number ("1. Shipping as a vector …").
PAGE_NUMBER_LEAD = re.compile(r"^[\d０-９]{1,4}\s")
# ... or closes it after the words of an unnumbered title.
PAGE_NUMBER_TAIL = re.compile(r"\D\s+[\d０-９]{1,4}$")
# A dot leader and the page number it leads to (". . . . 27", "…… 5", "・・・・ 3"); a page with
# this many of them is a table of contents, and its candidates ending in a page number are its
# entries (a manual's bold chapter entries "7 Memory Management and The Store 26").
CONTENTS_LEADER = re.compile(r"(?:[.．]\s?){4,}\s*[\d０-９]{1,4}|[…・]{2,}\s*[\d０-９]{1,4}")
MIN_CONTENTS_LEADERS = 3
# The text after a heading at body size holds at least this many letters ("可処分所得", a
# chart's label after "25 消費支出", does not; "本方針、標準ガイドライン群の一つとして位置付け
# られる。" under "１.３ 位置づけ" does).
MIN_FOLLOWING_LETTERS = 10
# Bold at body size names a section when it stands alone: at most this many lines and
# characters (DP-Bench: "IMPLEMENTATION", "THE TEXTBOOK'S DIFFERENT LEVELS OF RIGOR" in bold
# over serif text, 13 of its 107 documents with headings set them so) ...
MAX_BOLD_HEADING_LINES = 2
# Code in capitals, in a face of its own but not a monospace one, is no section name
# (docling-redp5110_sampled.pdf: "VERIFY_GROUP_FOR_USER (CURRENT_USER, 'MGR')",
# "ALTER TABLE BANK_SCHEMA.CUSTOMERS" in a sans face over serif text).
CODE_MARK = re.compile(r"[_=(){}\[\];<>/\\]")
MAX_BOLD_HEADING_CHARS = 80
# ... in a document whose bold lines carry at most this share of its body-size text (a form
# or a slide set in bold throughout marks nothing by it).
MAX_BOLD_TEXT_SHARE = 0.2
# ... and followed by running text: a sentence, or at least this many lines of at least
# this many characters each on average (a column of cells holds a word a line).
MIN_PROSE_LINES = 2
MIN_PROSE_LINE_CHARS = 20
# A caption names a figure or a table, whatever its size and weight (DP-Bench: "Table 15.6.
# Observations of Returns …", "Figure 4.2. Operating Capacity …" in larger bold type).
CAPTION_LEAD = re.compile(
    r"^(?:fig(?:ure)?s?|tables?|charts?|graphs?|diagrams?|exhibits?|plates?|maps?|photos?"
    r"|图|図|表|그림|표)"
    r"\s*\.?\s*[\d０-９IVX]",
    re.IGNORECASE,
)
# A chapter's or part's label alone may end in a full stop ("CHAPTER 7.", "Part II.").
CHAPTER_LABEL = re.compile(r"^(?:chapter|part|section)\s+[\dIVXLC]+\.$", re.IGNORECASE)
# Deepest Markdown heading level emitted.
MAX_LEVEL = 4


@dataclass(frozen=True, slots=True)
class _Candidate:
    page_index: int
    block_index: int
    text: str
    size: float
    pattern: tuple[str, int] | None


@dataclass(frozen=True)
class _Marks:
    """What sets a heading apart in this document, besides size and numbering."""

    bold: bool  # bold at body size marks headings (it is not the text's own weight)
    repeated: _RepeatedBlocks  # short blocks standing on more than one page: no section names


def label_headings(document: Document) -> Document:
    """Mark heading blocks and give each a level (1 = title, 2 = chapter, ...)."""
    document = replace(
        document,
        pages=tuple(
            replace(page, blocks=split_run_in_headings(page.blocks)) for page in document.pages
        ),
    )
    tallies = _SizeTallies()  # each page's characters by size, counted once
    body = body_font_size(document, tallies)
    if document.pages:
        first = document.pages[0]
        joined = replace(first, blocks=join_title_lines(first.blocks, body, first.width))
        document = replace(document, pages=(joined, *document.pages[1:]))
    candidates = _candidates(document, body, tallies)
    levels = _outline_levels(document, candidates, body) or {}
    remaining = [c for c in candidates if (c.page_index, c.block_index) not in levels]
    if 1 not in levels.values():
        title = _title(remaining, body, document) or _bold_opening_line(document, levels)
        if title is not None:
            levels[(title.page_index, title.block_index)] = 1
            remaining = [
                c
                for c in remaining
                if (c.page_index, c.block_index) != (title.page_index, title.block_index)
            ]
    outline_used = bool(levels) and max(levels.values()) > 1
    remaining = _without_cover_lines(document, remaining, levels, body)
    remaining = _without_masthead_lines(document, remaining, levels)
    extra = _pattern_and_size_levels(remaining, body)
    if outline_used:
        # The outline is authoritative: headings it does not list sit below its deepest level.
        deepest = min(MAX_LEVEL, max(levels.values()) + 1)
        extra = {key: max(level, deepest) for key, level in extra.items()}
    levels.update(extra)
    levels = _without_gaps(levels)
    pages = tuple(_apply(i, page, levels) for i, page in enumerate(document.pages))
    return replace(document, pages=pages)


def split_run_in_headings(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    """A paragraph that opens with a bold numbered heading running into plain text on the same
    line ("**2.1 Inspection intervals** Operators record …") becomes that heading line and the
    paragraph after it."""
    result: list[Block] = []
    for block in blocks:
        parts = _run_in_parts(block)
        result.extend(parts if parts else (block,))
    return tuple(result)


def _run_in_parts(block: Block) -> tuple[Block, Block] | None:
    if block.kind != BlockKind.PARAGRAPH or block.lines[0].vertical:
        return None
    if is_toc_entry(block.lines[0].text):
        return None  # a contents entry in bold ("Ⅰ．序編 ........ 1") names a heading elsewhere
    spans = block.lines[0].spans
    lead = 0
    while lead < len(spans) and (spans[lead].bold or not spans[lead].text.strip()):
        lead += 1
    head = "".join(s.text for s in spans[:lead]).strip()
    rest = spans[lead:]
    if not head or not "".join(s.text for s in rest).strip() or len(head) > MAX_HEADING_CHARS:
        return None
    if numbering_pattern(head) is None or head.endswith((",", "、", ";")):
        return None
    head_line = Line(spans[:lead], BBox.enclosing([s.bbox for s in spans[:lead]]))
    rest_line = Line(rest, BBox.enclosing([s.bbox for s in rest]))
    lines = (rest_line, *block.lines[1:])
    return (
        Block(BlockKind.PARAGRAPH, (head_line,), head_line.bbox, block.page, column=block.column),
        Block(
            BlockKind.PARAGRAPH,
            lines,
            BBox.enclosing([ln.bbox for ln in lines]),
            block.page,
            column=block.column,
        ),
    )


def join_title_lines(
    blocks: tuple[Block, ...], body: float, page_width: float = 0.0
) -> tuple[Block, ...]:
    """The first page's blocks with a title set on several lines as one block: consecutive
    lines in the page's largest type (at least TITLE_SIZE_RATIO times the body text), stacked
    less than TITLE_LINE_GAP_EM apart and overlapping horizontally. Paragraph grouping keeps
    them apart when the lines are centred far apart or the first one is short and ends in a
    colon or a Japanese letter ("消費生活用製品の" / "安全確保に関するガイドライン")."""
    # Sideways lines are no title (an arXiv stamp in the margin, 20 pt beside a 14 pt title).
    upright = [b for b in blocks if b.kind == BlockKind.PARAGRAPH and not b.lines[0].vertical]
    top = max((_block_size(b) for b in upright), default=0.0)
    in_top_type = [b for b in upright if _block_size(b) == top]
    if not _title_type(top, body, in_top_type, page_width):
        return blocks
    result: list[Block] = []
    for block in blocks:
        previous = result[-1] if result else None
        if previous is not None and _title_goes_on(previous, block, top, body):
            lines = previous.lines + block.lines
            result[-1] = replace(previous, lines=lines, bbox=previous.bbox.union(block.bbox))
        else:
            result.append(block)
    return tuple(result)


def _title_type(size: float, body: float, blocks: list[Block], page_width: float) -> bool:
    """Text in `size` can be a title: TITLE_SIZE_RATIO times the body, or a heading's size when
    every block in it is centred on the page (a Korean bill's 15.9 pt title over 14 pt text,
    odl-2125318…hwp.pdf: a centred title needs no more than that to stand out)."""
    if size >= body * TITLE_SIZE_RATIO:
        return True
    heading_size = size >= body + HEADING_SIZE_DELTA_PT and size >= body * HEADING_SIZE_RATIO
    return (
        heading_size
        and page_width > 0
        and bool(blocks)
        and all(abs(b.bbox.center_x - page_width / 2) <= CENTRED_SHARE * page_width for b in blocks)
    )


def _block_size(block: Block) -> float:
    return _size_class(max(line.size for line in block.lines))


def _title_goes_on(previous: Block, block: Block, size: float, body: float) -> bool:
    if (
        previous.kind != BlockKind.PARAGRAPH
        or block.kind != BlockKind.PARAGRAPH
        or any(line.vertical for line in previous.lines + block.lines)
        or any(_size_class(line.size) != size for line in previous.lines)
        or not _in_title_type(block, size, previous, body)
        or len(previous.lines) + len(block.lines) > MAX_TITLE_LINES
        or _mostly_bold(previous.lines[-1]) != _mostly_bold(block.lines[0])
    ):
        return False
    gap = block.bbox.top - previous.bbox.bottom
    return (
        -TITLE_OVERLAP_EM * size <= gap <= TITLE_LINE_GAP_EM * size
        and previous.bbox.x_overlap(block.bbox) > 0
        and not previous.text.rstrip().endswith((".", "。"))
        and numbering_pattern(block.text) is None
    )


def _in_title_type(block: Block, size: float, previous: Block, body: float) -> bool:
    """The block is set in the title's type, or in one smaller type still a heading's size
    when the title line above it ends in an open phrase (OPEN_PHRASE_ENDS)."""
    sizes = {_size_class(line.size) for line in block.lines}
    if sizes == {size}:
        return True
    if len(sizes) != 1 or not previous.text.rstrip().endswith(OPEN_PHRASE_ENDS):
        return False
    (smaller,) = sizes
    return smaller < size and smaller >= body * HEADING_SIZE_RATIO


def _mostly_bold(line: Line) -> bool:
    """More than half of the visible characters bold: a title line that opens with a name set
    in another face ("LayoutParser" in typewriter type, the rest bold:
    unstructured-copy-protected.pdf) is still set in the bold of the line below it."""
    return line.bold or bold_share(line.spans) > 0.5


def _without_cover_lines(
    document: Document,
    candidates: list[_Candidate],
    levels: dict[tuple[int, int], int],
    body: float,
) -> list[_Candidate]:
    """Drop size-only candidates of a cover page: the first of several pages, holding the
    title and almost no body text. Its ministry, company and date lines would otherwise head
    every chunk's path."""
    title_pages = {page for (page, _), level in levels.items() if level == 1}
    if title_pages != {0} or len(document.pages) < 2:  # a one-page document has no cover
        return candidates
    body_chars = sum(
        len(line.text)
        for block in document.pages[0].blocks
        if block.kind in (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM)
        for line in block.lines
        if abs(line.size - body) < HEADING_SIZE_DELTA_PT
    )
    if body_chars > COVER_MAX_BODY_CHARS:
        return candidates
    return [c for c in candidates if c.page_index != 0 or c.pattern is not None]


def _without_masthead_lines(
    document: Document,
    candidates: list[_Candidate],
    levels: dict[tuple[int, int], int],
) -> list[_Candidate]:
    """Drop size-only candidates of the title's first page that are masthead lines, not
    sections, even when body text follows on that page (assembly minutes, gazettes):
    - a line above the title (session, series, issue) heads nothing: it precedes the document;
    - a size no candidate beyond the first page shares (a publisher set letter-spaced beside
      the title) would parent every later chunk. A section size recurs on later pages.
    A one-page document keeps its first-page sizes: there they are its sections."""
    titles = [key for key, level in levels.items() if level == 1]
    if len(document.pages) < 2 or len(titles) != 1 or titles[0][0] != 0:
        return candidates
    title_block = titles[0][1]
    later_sizes = {_size_class(c.size) for c in candidates if c.page_index > 0}
    return [
        c
        for c in candidates
        if c.page_index != 0
        or c.pattern is not None
        or (c.block_index > title_block and _size_class(c.size) in later_sizes)
    ]


def _without_gaps(levels: dict[tuple[int, int], int]) -> dict[tuple[int, int], int]:
    """Close unused levels (## then ####) so the outline a splitter sees has no holes."""
    used = sorted({level for level in levels.values() if level > 1})
    renumber = {level: 2 + rank for rank, level in enumerate(used)}
    return {key: renumber.get(level, level) for key, level in levels.items()}


# The blocks of running text, whose sizes tell the body size.
TEXT_KINDS = (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM)
# The paragraphs' most common size is the body unless it carries less than this share of all
# the text, tables included (a table-only action plan: 14 pt titles over 11 pt tables).
MIN_BODY_SHARE = 0.1


def body_font_size(document: Document, tallies: _SizeTallies | None = None) -> float:
    """The font size carrying the most characters of running text: the body text. In a
    document whose text is nearly all in tables, the tables' size: there, the few lines
    outside them are titles and section labels, and a body taken from them hid the title."""
    tallies = tallies or _SizeTallies()
    weights = _characters_by_size(document, TEXT_KINDS, tallies)
    if not weights:
        return 10.0
    size, count = weights.most_common(1)[0]
    tables = _characters_by_size(document, (BlockKind.TABLE,), tallies)
    if count < MIN_BODY_SHARE * (weights.total() + tables.total()):
        return (weights + tables).most_common(1)[0][0]
    return size


def _characters_by_size(
    document: Document, kinds: tuple[BlockKind, ...], tallies: _SizeTallies
) -> Counter[float]:
    weights: Counter[float] = Counter()
    for page in document.pages:
        weights.update(tallies(page, kinds))
    return weights


class _SizeTallies:
    """`_page_characters_by_size` of each page, counted on the first ask: the body size, the
    sizes that carry the text and each page's own body size all ask for every page."""

    def __init__(self) -> None:
        # (the page is kept with its tally: an id names it only while it lives)
        self._of: dict[tuple[int, tuple[BlockKind, ...]], tuple[Page, Counter[float]]] = {}

    def __call__(self, page: Page, kinds: tuple[BlockKind, ...]) -> Counter[float]:
        found = self._of.get((id(page), kinds))
        if found is None or found[0] is not page:
            found = self._of[(id(page), kinds)] = (page, _page_characters_by_size(page, kinds))
        return found[1]


def _page_characters_by_size(page: Page, kinds: tuple[BlockKind, ...]) -> Counter[float]:
    # A plain dict and _size_class written out (this runs four times a page); the Counter
    # made from it keeps the sizes in the order they were met, as tallying into one would.
    weights: dict[float, int] = {}
    for block in page.blocks:
        if block.kind in kinds:
            for line in block.lines:
                size = round(line.size * 2) / 2
                weights[size] = weights.get(size, 0) + len(line.text)
    return Counter(weights)


def _size_class(size: float) -> float:
    return round(size * 2) / 2


def _candidates(document: Document, body: float, tallies: _SizeTallies) -> list[_Candidate]:
    found: list[_Candidate] = []
    text_sizes = _body_like_sizes(document, tallies) | _page_body_sizes(document, body, tallies)
    face = body_face(document, body)
    marks = _Marks(
        bold=_bold_share(document, body) <= MAX_BOLD_TEXT_SHARE,
        repeated=_RepeatedBlocks(document),
    )
    for page_index, page in enumerate(document.pages):
        contents_page: bool | None = None  # read only when a candidate ends in a number
        for block_index, block in enumerate(page.blocks):
            candidate = _candidate(block, body, face, marks, page_index, block_index)
            if candidate is None:
                continue
            if PAGE_NUMBER_TAIL.search(candidate.text):
                if contents_page is None:
                    contents_page = _is_contents_page(page)
                if contents_page:
                    continue  # a chapter's entry in a contents list ("7 Memory Management 26")
            size = _size_class(candidate.size)
            if candidate.pattern is None and size in text_sizes and size > body:
                continue  # slides: the large type is their text, not their headings
            if PAGE_NUMBER_LEAD.match(candidate.text) and _running_line(page, block_index, body):
                continue
            if (
                candidate.pattern is None
                and PAGE_NUMBER_TAIL.search(candidate.text)
                and _outermost_in_band(page, block)
            ):
                continue  # a running title and its page number ("ASEAN Migration Outlook 19")
            found.append(candidate)
    found = _without_contents_entries(found)
    keys = {(c.page_index, c.block_index) for c in found}
    return [
        c
        for c in found
        if c.size >= body + HEADING_SIZE_DELTA_PT
        or (
            _leads_to_text(document, c, keys)
            and (c.pattern is not None or _leads_to_prose(document, c, body))
        )
    ]


def _is_contents_page(page: Page) -> bool:
    """A page of a table of contents: at least MIN_CONTENTS_LEADERS dot leaders ending in a
    page number, wherever paragraph grouping put them."""
    found = 0
    for block in page.blocks:
        if block.kind in (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM):
            found += sum(1 for line in block.lines for _ in CONTENTS_LEADER.finditer(line.text))
            if found >= MIN_CONTENTS_LEADERS:
                return True
    return False


def _without_contents_entries(candidates: list[_Candidate]) -> list[_Candidate]:
    """Below a contents list's heading, its page's smaller candidates are the list's entries
    ("Part I. Chapter One - Exploring Your Data" at 10.8 pt under "Contents" at 24 pt); a
    candidate as large as that heading starts the next section."""
    result: list[_Candidate] = []
    contents: _Candidate | None = None
    for candidate in candidates:
        if contents is not None and candidate.page_index != contents.page_index:
            contents = None
        if NOT_A_TITLE.match(candidate.text):
            contents = candidate
        elif contents is not None and candidate.size < contents.size:
            continue
        else:
            contents = None
        result.append(candidate)
    return result


def _leads_to_prose(document: Document, candidate: _Candidate, body: float) -> bool:
    """Bold with no number is a heading only over running text: the next block is a list or
    a paragraph in regular type no larger than the heading, a whole sentence or lines of
    running text (a sidebar's bold 10.2 pt head over its 10.7 pt sentence is one; a table's
    bold column head over cells of one word each is not). Bold labels of a
    diagram, a form or an untabled grid ("暗号鍵", "大阪府豊中市豊南町東4-5-1") are followed by
    more labels and cells."""
    for _, block in _blocks_after(document, candidate.page_index, candidate.block_index):
        if block.kind == BlockKind.FURNITURE or not block.text.strip():
            continue
        if block.kind == BlockKind.LIST_ITEM:
            return True
        last = block.text.rstrip()
        lines = block.lines
        return (
            block.kind == BlockKind.PARAGRAPH
            and not any(line.bold for line in lines)
            and candidate.size >= max(line.size for line in lines) - SMALLER_THAN_BODY_PT
            and (
                last.endswith(SENTENCE_END_CHARS)
                or (
                    len(lines) >= MIN_PROSE_LINES
                    and sum(len(line.text.strip()) for line in lines)
                    >= MIN_PROSE_LINE_CHARS * len(lines)
                )
            )
        )
    return False


def _leads_to_text(
    document: Document, candidate: _Candidate, candidates: set[tuple[int, int]]
) -> bool:
    """A heading at body size (its evidence a number, a weight or a face) is followed by its
    text, maybe after the headings under it: a paragraph, a list or a table. Chart labels in
    a bold face are followed by more labels and figures ("34.7 役職等の昇進・昇格" / "36.3 ％")."""
    for key, block in _blocks_after(document, candidate.page_index, candidate.block_index):
        if key in candidates or _numbered_line(block):
            continue  # a heading under it ("4.2.1 概要" in the text face) comes first
        if block.kind == BlockKind.FURNITURE or not block.text.strip():
            continue
        if block.kind in (BlockKind.TABLE, BlockKind.FIGURE, BlockKind.LIST_ITEM, BlockKind.CODE):
            return True
        return sum(1 for c in block.text if c.isalpha()) >= MIN_FOLLOWING_LETTERS
    return False


def _numbered_line(block: Block) -> bool:
    """A line that opens with a heading's number, or a notice's item number (KANJI_ITEM: the
    first of a part's items, "一　通則" under "第五　病院の…", looked past for the part's text)."""
    text = block.text.strip()
    return (
        len(block.lines) == 1
        and len(text) <= MAX_HEADING_CHARS
        and (bool(numbering_pattern(text)) or KANJI_ITEM.match(text) is not None)
    )


def _blocks_after(
    document: Document, page_index: int, block_index: int
) -> Iterator[tuple[tuple[int, int], Block]]:
    """The blocks after one, in reading order, to the end of the next page."""
    for index in range(page_index, min(page_index + 2, len(document.pages))):
        start = block_index + 1 if index == page_index else 0
        for i, block in enumerate(document.pages[index].blocks[start:], start):
            yield (index, i), block


def _running_line(page: Page, block_index: int, body: float) -> bool:
    """A line above or below all other text of its page in the running-head bands, its bare
    number in front set apart from its words (in another face, or the whole line smaller than
    the text): a page number and a running title ("**8** Encinas Franco and Laguna" in a thin
    face over a book's page, "18 BOYOUNG CHAE, …" at 7.2 pt at its foot), not a section "8".
    A single-page document gives furniture stripping no repeats to see it by."""
    block = page.blocks[block_index]
    spans = [span for span in block.lines[0].spans if span.text.strip()]
    size = max(line.size for line in block.lines)
    if size >= body + HEADING_SIZE_DELTA_PT or len(spans) < 2:
        return False
    if size >= body - SMALLER_THAN_BODY_PT and spans[0].font == spans[1].font:
        return False  # a section's number is set in its words' face and the text's size
    return _outermost_in_band(page, block)


def _outermost_in_band(page: Page, block: Block) -> bool:
    """The block sits in the top or bottom running-head band, above or below all other text."""
    texts = [b for b in page.blocks if b.kind != BlockKind.HEADING and b.text.strip()]
    settings = FurnitureSettings()
    top = block.bbox.center_y <= page.height * settings.top_band
    bottom = block.bbox.center_y >= page.height * (1 - settings.bottom_band)
    return (top and all(b.bbox.top >= block.bbox.top for b in texts)) or (
        bottom and all(b.bbox.bottom <= block.bbox.bottom for b in texts)
    )


def _bold_share(document: Document, body: float) -> float:
    """The share of the text at body size that is set in bold lines."""
    bold = total = 0
    for page in document.pages:
        for block in page.blocks:
            if block.kind in (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM):
                for line in block.lines:
                    if _size_class(line.size) <= body:
                        total += len(line.text)
                        bold += len(line.text) if line.bold else 0
    return bold / total if total else 0.0


def _body_like_sizes(document: Document, tallies: _SizeTallies) -> set[float]:
    """Sizes that carry so much of the text that they cannot be headings; a size set in no
    more lines than a title takes is a title's, however little else a cover page holds
    (DP-Bench 085: a three-line title at 26 pt is a quarter of its page's characters)."""
    weights = _characters_by_size(document, TEXT_KINDS, tallies)
    lines: Counter[float] = Counter()
    for page in document.pages:
        for block in page.blocks:
            if block.kind in (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM):
                lines.update(_size_class(line.size) for line in block.lines)
    total = sum(weights.values())
    return {
        size
        for size, chars in weights.items()
        if chars > HEADING_TEXT_SHARE * total and lines[size] > MAX_TITLE_LINES
    }


def _page_body_sizes(document: Document, body: float, tallies: _SizeTallies) -> set[float]:
    """The sizes of pages' running text (_page_body_size) that are a heading's over the
    document's body: lines in them are that page's text, not headings by their size. A page
    body near the document's (11 pt prose beside 10.5 pt) leaves the bold and numbered lines
    in it alone (retrieval-ja index-11: its "①しょうゆ" section heads at 11 pt)."""
    sizes = {_page_body_size(page, tallies) for page in document.pages}
    return {
        size
        for size in sizes
        if size is not None
        and size >= body + HEADING_SIZE_DELTA_PT
        and size >= body * HEADING_SIZE_RATIO
    }


def _page_body_size(page: Page, tallies: _SizeTallies) -> float | None:
    """The size of the page's running text: the one carrying most of its paragraphs' and
    lists' characters, if it carries PAGE_BODY_MIN_CHARS and PAGE_BODY_MIN_SHARE of them."""
    weights = tallies(page, TEXT_KINDS)
    if not weights:
        return None
    size, chars = weights.most_common(1)[0]
    enough = chars >= PAGE_BODY_MIN_CHARS and chars >= PAGE_BODY_MIN_SHARE * weights.total()
    return size if enough else None


def _holds_data(text: str) -> bool:
    """Values, not a name: after any leading section number, the words that are numbers
    (integers, decimals, percentages) end the text with a decimal or percentage, or two of
    them hold one, or MAX_HEADING_NUMBERS or more stand in a row's words (a chart's axis
    "65 70 75 80"). Numbers inside words stay names ("【法第35条３の36～59】", "200/30 mg").
    On the three sets this took 4 chart lines off DP-Bench's headings and 26 value lines off
    retrieval-ja's (25) and the corpus' (1), and no heading that names a section."""
    words = PERCENT_APART.sub(r"\1", text).split()
    if numbering_pattern(text) is not None:
        words = words[1:]
    numbers = [w for w in words if DATA_NUMBER.fullmatch(w)]
    measured = [n for n in numbers if n[-1] in "%％" or re.search(r"[.,．][\d０-９]", n)]
    if measured and words[-1] == measured[-1]:
        return True
    return (len(numbers) >= 2 and bool(measured)) or len(numbers) >= MAX_HEADING_NUMBERS


def _candidate(
    block: Block,
    body: float,
    face: str,
    marks: _Marks,
    page_index: int,
    block_index: int,
) -> _Candidate | None:
    if block.kind not in (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM):
        return None
    if len(block.lines) > MAX_TITLE_LINES:  # the cheap tests first: most blocks are prose
        return None
    text = " ".join(line.text.strip() for line in block.lines).strip()
    if not text or len(text) > MAX_HEADING_CHARS or _unnumbered_column(block, text):
        return None
    if BULLET.match(text):
        return None  # a bulleted item stays an item, whatever its size (slides)
    letters = sum(map(str.isalpha, text))  # (no Python frame per character)
    if letters < MIN_HEADING_LETTERS or count_unusable(text) * 3 > len(text):
        return None  # figures, ornaments ("❙❚❘") and undecodable glyphs name no section
    if NOT_A_HEADING.match(text) or CAPTION_LEAD.match(text) or _holds_data(text):
        # a label, a date line, a caption ("Table 13.2. Effect of cations …"), a chart's
        # labels and values ("OCR-Precision 90.6", "大規模 20.3% 31.2%")
        return None
    size = max(line.size for line in block.lines)
    cover_title = page_index == 0 and size >= body * TITLE_SIZE_RATIO
    if len(block.lines) > (MAX_TITLE_LINES if cover_title else MAX_HEADING_LINES):
        return None
    larger = size >= body + HEADING_SIZE_DELTA_PT and size >= body * HEADING_SIZE_RATIO
    if not larger and (PERCENT_FIGURE.search(text) or _footnote_mark(block.lines[0])):
        return None  # a chart's label ("28.5 ％ 品質の向上"), a footnote ("12 IPA …")
    if text.endswith(("。", ",", "、", ";", "：")) or (
        text.endswith(".") and not larger and not CHAPTER_LABEL.match(text)
    ):
        return None  # a sentence, not a title ("CHAPTER 7." names one)
    if is_toc_entry(text) or TRAILING_LEADERS.search(text):
        return None  # a table-of-contents entry names a heading; it is not one
    apart = all(set_apart(line, face) for line in block.lines)
    pattern = _heading_number(text, apart, larger)
    bold_heading = marks.bold and _bold_heading(block, text)
    if (
        not larger
        and pattern is None
        and not bold_heading
        and not (apart and _caps_heading(block, marks.repeated))
    ):
        return None
    return _Candidate(page_index, block_index, text, size, pattern)


def _unnumbered_column(block: Block, text: str) -> bool:
    """A vertical line without a part's number (第一, 第三条, 제2장): 縦書き varies its size and
    face too rarely to mark a heading otherwise."""
    if not block.lines[0].vertical:
        return False
    pattern = numbering_pattern(text)
    return pattern is None or pattern[0] not in ("cjk", "ko")


def _bold_heading(block: Block, text: str) -> bool:
    """An unnumbered line at body size in bold, on its own: a short name that opens with a
    capital (or a letter without case). Every letter is bold: a paper's run-in
    heading ("**Ablation on merge methods.** From" …) is the start of its paragraph. Whether
    text follows is asked later."""
    return (
        len(block.lines) <= MAX_BOLD_HEADING_LINES
        and len(text) <= MAX_BOLD_HEADING_CHARS
        and all(span.bold for line in block.lines for span in line.spans if span.text.strip())
        and not text[0].islower()
        and not text.endswith("-")
    )


def _caps_heading(block: Block, repeated: _RepeatedBlocks) -> bool:
    """An unnumbered line or two at body size in capitals (its lines set apart from the body
    by their face, or bold: the caller asks): a section's name in the capitals of a sans face
    over serif text. Whether text follows is asked later, as for bold ones. Not a contents
    entry ("PUZZLES 175"), nor a line that stands on other pages too (a running head the
    furniture pass left: "APPENDIX A. HOW TO CONTRIBUTE TO MUPDF" atop each page of the
    appendix)."""
    text = block.text.strip()
    return (
        len(block.lines) <= MAX_BOLD_HEADING_LINES
        and len(text) <= MAX_BOLD_HEADING_CHARS
        and not any(span.monospace for line in block.lines for span in line.spans)
        and CODE_MARK.search(text) is None
        and capitals_only(text)
        and not text.endswith("-")
        and not text[-1].isdigit()
        and text not in repeated
    )


class _RepeatedBlocks:
    """The texts of blocks of one or two lines that stand on more than one page, gathered when
    first asked: only a heading in capitals asks (a document's short blocks cost 70 ms on
    DA-619p's 619 pages, 7 % of MuPDF's own text extraction there)."""

    def __init__(self, document: Document) -> None:
        self._document = document
        self._texts: frozenset[str] | None = None

    def __contains__(self, text: str) -> bool:
        if self._texts is None:
            self._texts = self._gather()
        return text in self._texts

    def _gather(self) -> frozenset[str]:
        pages_of: dict[str, set[int]] = {}
        for page in self._document.pages:
            for block in page.blocks:
                if len(block.lines) <= MAX_BOLD_HEADING_LINES:
                    pages_of.setdefault(block.text.strip(), set()).add(page.number)
        return frozenset(text for text, pages in pages_of.items() if len(pages) > 1)


def _footnote_mark(line: Line) -> bool:
    spans = [span for span in line.spans if span.text.strip()]
    return (
        len(spans) > 1
        and spans[0].text.strip().isdigit()
        and spans[0].size < FOOTNOTE_MARK_RATIO * spans[1].size
    )


def _heading_number(text: str, emphasised: bool, larger: bool) -> tuple[str, int] | None:
    """The numbering pattern of a heading candidate, if it counts as a section number.
    `emphasised`: bold, or set in another face than the body (a Gothic heading over Mincho)."""
    pattern = numbering_pattern(text)
    if (
        pattern is not None
        and pattern[0] in ("num", "roman", "paren")
        and not (emphasised or larger)
    ):
        return None  # "1 apple" in body text is a list or a sentence, not a section
    if (
        pattern is not None
        and pattern[0] != "num"
        and not (emphasised or larger or len(text) <= 40)
    ):
        return None
    return pattern


def _title(candidates: list[_Candidate], body: float, document: Document) -> _Candidate | None:
    first_page = [
        c
        for c in candidates
        if c.page_index == 0 and c.pattern is None and not NOT_A_TITLE.match(c.text)
    ]
    if not first_page:
        return None
    biggest = max(first_page, key=lambda c: (c.size, -c.block_index))
    largest_anywhere = max(c.size for c in candidates)
    page = document.pages[0]
    in_its_type = [page.blocks[c.block_index] for c in first_page if c.size == biggest.size]
    if not _title_type(biggest.size, body, in_its_type, page.width) or (
        biggest.size < largest_anywhere
    ):
        return None
    if (
        biggest.size < body * TITLE_SIZE_RATIO
        and sum(
            1
            for c in candidates
            if c.page_index > 0
            and _size_class(c.size) == _size_class(biggest.size)
            and _normal(c.text) not in _normal(biggest.text)
        )
        > CENTRED_TITLE_SIZE_REUSE
    ):
        return None  # a centred size that later headings share is the sections' style'
    return biggest


def _bold_opening_line(document: Document, levels: dict[tuple[int, int], int]) -> _Candidate | None:
    """A document that opens with one short bold line at body size: that line is its title."""
    if not document.pages or not document.pages[0].blocks:
        return None
    first = document.pages[0].blocks[0]
    text = first.text.strip()
    if (
        (0, 0) in levels
        or first.kind != BlockKind.PARAGRAPH
        or len(first.lines) > 2
        or not all(line.bold for line in first.lines)
        or len(text) > MAX_HEADING_CHARS
        or text.endswith(tuple(".。,、:;"))
        or numbering_pattern(text) is not None
        or NOT_A_TITLE.match(text)
    ):
        return None
    return _Candidate(0, 0, text, first.lines[0].size, None)


def _pattern_and_size_levels(
    candidates: list[_Candidate], body: float
) -> dict[tuple[int, int], int]:
    ranks = sorted({c.pattern for c in candidates if c.pattern is not None})
    pattern_level = {p: min(MAX_LEVEL, 2 + i) for i, p in enumerate(_by_family_rank(ranks))}
    sizes = sorted({round(c.size * 2) / 2 for c in candidates if c.pattern is None}, reverse=True)
    size_level = {s: min(MAX_LEVEL, 2 + i) for i, s in enumerate(sizes)}
    levels: dict[tuple[int, int], int] = {}
    for c in candidates:
        key = (c.page_index, c.block_index)
        if c.pattern is not None:
            levels[key] = pattern_level[c.pattern]
        else:
            levels[key] = size_level[round(c.size * 2) / 2]
    return levels


def _by_family_rank(patterns: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Order pattern kinds so that one family's ranks come out chapter-first."""
    return sorted(patterns, key=lambda p: (p[1], p[0]))


def _outline_levels(
    document: Document, candidates: list[_Candidate], body: float
) -> dict[tuple[int, int], int] | None:
    outline = [e for e in document.outline if e.page > 0]
    if not outline:
        return None
    page_index = {page.number: i for i, page in enumerate(document.pages)}
    found: dict[tuple[int, int], OutlineEntry] = {}
    keyed: dict[int, dict[str, int]] = {}  # each page's blocks by outline key, made once
    for entry in outline:
        index = page_index.get(entry.page)
        if index is None:
            continue
        if index not in keyed:
            keyed[index] = _outline_keys(document.pages[index])
        wanted = _outline_key(entry.title)
        block_index = keyed[index].get(wanted) if wanted else None
        if block_index is not None:
            found[(index, block_index)] = entry
    if len(found) < OUTLINE_MATCH_SHARE * len(outline):
        return None
    shift = _outline_shift(outline, document.metadata_title, found, candidates, body)
    return {key: min(MAX_LEVEL, max(1, e.level + shift)) for key, e in found.items()}


def _outline_shift(
    outline: list[OutlineEntry],
    title: str,
    found: dict[tuple[int, int], OutlineEntry],
    candidates: list[_Candidate],
    body: float,
) -> int:
    """Outline level 1 is the title when its one entry is the document title, else chapters.
    The title: the metadata's, or printed on the first page in title type (a paper whose
    outline is its title with no metadata title: unstructured-copy-protected.pdf)."""
    top = [e for e in outline if e.level == 1]
    if len(top) != 1:
        return 1
    if title and _normal(top[0].title) == _normal(title):
        return 0
    title_type = {
        (c.page_index, c.block_index)
        for c in candidates
        if c.page_index == 0 and c.size >= body * TITLE_SIZE_RATIO
    }
    return 0 if any(e is top[0] and key in title_type for key, e in found.items()) else 1


def _outline_keys(page: Page) -> dict[str, int]:
    """The first block of the page (of three lines or fewer, running text) with each outline
    key: where an outline entry of that key stands."""
    keys: dict[str, int] = {}
    for block_index, block in enumerate(page.blocks):
        if block.kind in (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM) and len(block.lines) <= 3:
            keys.setdefault(_outline_key(" ".join(line.text for line in block.lines)), block_index)
    return keys


def _normal(text: str) -> str:
    return "".join(text.split()).casefold()


# Outline titles and printed headings differ in numbering ("Introduction" vs "1. Introduction"),
# quotes and spacing; compare them without those.
_LEADING_NUMBER = re.compile(
    rf"^\s*(?:(?:chapter|section|part|article)\s+)?(?:[\d{KANJI_NUM}]+(?:[.\-][\d]+)*[.)]?|[IVX]+\.?)\s+",
    re.IGNORECASE,
)
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})


def _outline_key(text: str) -> str:
    return _normal(_LEADING_NUMBER.sub("", text.translate(_QUOTES), count=1))


def _apply(page_index: int, page: Page, levels: dict[tuple[int, int], int]) -> Page:
    blocks = tuple(
        replace(block, kind=BlockKind.HEADING, level=levels[(page_index, i)])
        if (page_index, i) in levels
        else block
        for i, block in enumerate(page.blocks)
    )
    return replace(page, blocks=blocks)

"""--mode items: semi-structured documents (résumés, CVs, incident logs, catalogues) as one
chunk per item, each with typed fields: `item_type`, `period_start`, `period_end`, `item_index`.

Inside each section the blocks (paragraphs, list items) are typed by what their first lines
hold: a date or period (periods.py) on a short line makes a DATED block; a short line without
one is a TITLE (an organisation or a job title); the rest are LIST items or TEXT. An item starts
at a block that opens one, and takes the following blocks until the next item starts:

- a DATED block opens an item, unless the open item has no period yet and no description (then
  the date is that item's period: `### Acme Corp` over `Mar 2021 - Present`);
- when the section's first item put its TITLE lines above its date (`Acme Corp` / `Mar 2021 -
  Present`), every later item starts at the TITLE lines just above its date too, and TITLE
  lines over a description after a described item open an item without a period;
- a TEXT block whose first line opens with a period (convert joined an entry's date line with
  its description) dates the entry heading above it, or opens an item under TITLE lines;
- an entry heading opens an item: a heading that holds a period or, below the cut level (H3
  and deeper with --split-on h2), has one in its first blocks or (a catalogue entry) has no
  heading under it; provided that nothing inside it opens items of its own (else it is a
  section, and its items are those).

An item line (item_period) is short, holds little besides its period, puts the period first,
last or between field separators, and is no sentence and no "as of" date.

A section (a heading that is no entry) names the path; its text before its first item is a
section chunk. The kind of a section comes from keyword scores over its heading (weighted) and
each item's text (ITEM_TYPE_KEYWORDS). Everything is one pass over the lines, two over a
candidate entry heading's blocks: linear in the document.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from chunkcli.model import ChunkKind, ItemFields
from chunkcli.split.layout import TITLE, Layout, Path
from chunkcli.split.lines import PieceLine
from chunkcli.split.periods import (
    AS_OF_AFTER_RE,
    AS_OF_BEFORE_RE,
    SENTENCE_PARTICLE_RE,
    Period,
    find_period,
)
from chunkcli.split.qa import has_text
from chunkcli.split.segments import Segment, cuts_within, text_share

# A line holding an item's period is short: the 48 item lines of the tests' fixtures and
# bench/items_eval.py's documents run 10-67 characters, with at most 48 besides the period;
# longer is prose (hard-wrapped report lines with a date inside run 60-100 characters, and
# hold 60-90 besides it, as in bench/RESULTS.md).
ITEM_LINE_MAX_CHARS = 100
# An organisation or job-title line above a date (short, no sentence end), and the most an
# item line holds besides its period.
TITLE_MAX_CHARS = 60
# The period of a block is looked for in its first lines only (title, role, period).
HEAD_LINES = 3
# At most this many TITLE blocks above a date move to the item the date opens.
TITLE_LOOKBACK = 2
# The section heading's keywords count this many times an item's own (the heading names the
# kind of every item under it; an item's text mentions other kinds in passing).
HEADING_WEIGHT = 3
SENTENCE_ENDS = ("。", ".", "．", "!", "?", "！", "？")
# An item line puts its period first, last, or between field separators: `2019年4月～ 株式会社`,
# `Acme Corp（2016年4月～2019年3月）`, `Engineer | Mar 2021 - Present | Acme`; prose has dates
# anywhere ("(93% in July 2020, 98% in October 2020, and 99%": a wrapped line of a report).
OPENING_MARKS = " \t\u3000(（[【「・·•■□●○◆◇▼▽▶★☆※"
CLOSING_MARKS = " \t\u3000)）]】」.。,、"
FIELD_SEPARATORS = ("|", "｜", "—", "–", "-", "/", ",", "、", ":", "：", "　")
# A label ending in a colon (`Key achievements:`) introduces what follows: no title.
TITLE_NEVER_ENDS = (*SENTENCE_ENDS, ":", "：")
LIST_ITEM_RE = re.compile(r" ?(?:[-*+]|\d{1,9}[.)])[ \t]")


class ItemType(StrEnum):
    WORK = "work"
    EDUCATION = "education"
    CERTIFICATION = "certification"
    SKILL = "skill"
    EVENT = "event"
    OTHER = "other"  # no keyword of any kind


# The one keyword table: Japanese, Korean, English. Latin keywords match whole words (lower
# case here, any case in the text); ties go to the kind listed first.
ITEM_TYPE_KEYWORDS: dict[ItemType, tuple[str, ...]] = {
    ItemType.WORK: (
        *("職歴", "職務経歴", "職務", "経歴", "勤務", "在籍", "入社", "株式会社", "有限会社"),
        *("担当", "業務", "プロジェクト", "配属", "退職"),
        *("경력", "근무", "재직", "입사", "퇴사", "주식회사", "담당", "업무", "프로젝트"),
        *("experience", "employment", "work", "career", "job", "professional", "project"),
        *("company", "inc", "corp", "ltd", "llc", "engineer", "developer", "manager", "intern"),
    ),
    ItemType.EDUCATION: (
        *("学歴", "大学", "大学院", "高校", "高等学校", "専門学校", "卒業", "入学", "学部"),
        *("学科", "修了", "専攻"),
        *("학력", "대학교", "대학원", "고등학교", "졸업", "입학", "전공", "학과"),
        *("education", "university", "college", "school", "degree", "bachelor", "master"),
        *("b.sc", "m.sc", "ph.d", "phd", "graduated", "academic"),
    ),
    ItemType.CERTIFICATION: (
        *("資格", "免許", "取得", "合格", "検定", "認定", "試験"),
        *("자격증", "자격", "면허", "취득", "합격", "검정"),
        *("certification", "certifications", "certificate", "certified", "license"),
        *("licence", "toeic", "ielts", "toefl", "aws"),
    ),
    ItemType.SKILL: (
        *("スキル", "技術", "言語", "使用技術", "技能", "開発環境", "ツール"),
        *("기술", "스킬", "보유기술", "언어", "개발환경", "툴"),
        *("skills", "skill", "technologies", "languages", "tools", "stack", "frameworks"),
    ),
    ItemType.EVENT: (
        *("障害", "インシデント", "事象", "発生", "復旧", "対応履歴", "影響", "原因"),
        *("장애", "사건", "사고", "발생", "복구", "영향", "원인"),
        *("incident", "incidents", "outage", "event", "events", "postmortem", "timeline"),
        *("alert", "resolved", "mitigated", "rca", "impact", "downtime", "failover", "failure"),
        *("latency", "degraded", "log"),
    ),
}


# Latin keywords are looked up word by word (one case-insensitive alternation of every keyword
# with look-arounds, tried at every position, was the slowest step of the mode).
LATIN_WORD_RE = re.compile(r"[A-Za-z]+(?:\.[A-Za-z]+)*")
KIND_OF_LATIN_WORD = {
    w: kind for kind, words in ITEM_TYPE_KEYWORDS.items() for w in words if w.isascii()
}
KIND_OF_CJK_WORD = {
    w: kind for kind, words in ITEM_TYPE_KEYWORDS.items() for w in words if not w.isascii()
}
# A plain alternation of literals, longest first (no flags, no look-around: re then tests the
# first character against a set at each position, 6x faster than str.count per keyword).
CJK_KEYWORDS_RE = re.compile("|".join(map(re.escape, sorted(KIND_OF_CJK_WORD, key=len)[::-1])))


class BlockKind(StrEnum):
    DATED = "dated"
    TITLE = "title"
    LIST = "list"
    TEXT = "text"


class Block(NamedTuple):
    start: int  # offset of its first line
    piece: int  # the piece it is in
    kind: BlockKind
    head_end: int  # DATED: the end of the line with the period (else the first line's end)
    lead: str  # the words of its lines up to head_end
    period: Period | None  # DATED: its item line's; TEXT: the period it opens with, if any


class Opener(NamedTuple):
    """Where an item starts: a DATED block (or the TITLE blocks above it) or an entry heading."""

    start: int
    head_end: int  # the item line(s): never cut from the item's first part
    lead: str  # their words, repeated in the prefix of every later part
    period: Period | None
    path_piece: int  # the piece whose heading path the item takes
    entry: bool  # an entry heading (its path is the section's around it)


class SectionStart(NamedTuple):
    """A heading that is no entry: it names the path of what follows."""

    start: int
    line_end: int
    piece: int


@dataclass(slots=True)
class _Heading:
    """A heading while the headings are judged (entry or section), one pass each way."""

    line: PieceLine
    level: int
    period: Period | None
    candidate: bool = False  # an entry heading if nothing inside it opens items
    holds_items: bool = False  # items (block openers or entries) under it
    opener: Opener | None = None  # as an entry: with the period found below it
    openers: tuple[Opener, ...] = ()  # block openers of its own span (as a section)


@dataclass(frozen=True, slots=True)
class ItemScan:
    """Where items and sections start, in order; the most items with a period that one
    section holds (--mode auto looks no further below its threshold)."""

    boundaries: tuple[Opener | SectionStart, ...]
    most_dated: int


def find_items(lines: list[PieceLine], layout: Layout, title_piece: int) -> ItemScan:
    """Entry headings, sections and the block openers inside sections, in document order."""
    cut_level = layout.options.cut_level
    headings: list[_Heading] = []
    spans: list[list[PieceLine]] = [[]]  # spans[0]: before the first heading
    for line in lines:
        if line.heading and line.piece != title_piece:
            level = layout.pieces[line.piece].level
            headings.append(_Heading(line, level, item_period(line.words)))
            spans.append([])
        elif not line.heading:
            spans[-1].append(line)
    lead_openers, _ = _block_openers(_blocks(layout.markdown, spans[0]), None)
    stack: list[_Heading] = []
    for index, heading in enumerate(headings):
        following = headings[index + 1] if index + 1 < len(headings) else None
        _judge_span(layout, heading, spans[index + 1], following, cut_level)
        while stack and stack[-1].level >= heading.level:
            _close(stack)
        stack.append(heading)
    while stack:
        _close(stack)
    return _ordered(lead_openers, headings)


def _judge_span(
    layout: Layout,
    heading: _Heading,
    span: list[PieceLine],
    following: _Heading | None,
    cut_level: int,
) -> None:
    """The block openers of a heading's own text, as an entry first, then as a section."""
    blocks = _blocks(layout.markdown, span)
    line = heading.line
    own = Opener(line.start, line.end, line.words, heading.period, line.piece, entry=True)
    inner, entry = _block_openers(blocks, own)
    leaf = following is None or following.level <= heading.level
    heading.opener = entry
    # A heading at or above the cut level is a section unless it holds a period itself
    # (`## Education` over one dated line is a section of one item).
    below_cut = heading.level > cut_level
    dated = heading.period is not None or (below_cut and entry is not None and entry.period)
    heading.candidate = entry is not None and bool(dated or (leaf and below_cut))
    if heading.candidate and not inner:
        return
    heading.openers = tuple(_block_openers(blocks, None)[0])
    heading.holds_items = bool(heading.openers)


def _close(stack: list[_Heading]) -> None:
    """The innermost open heading ends: an entry if it is a candidate with no items under it."""
    heading = stack.pop()
    is_entry = heading.candidate and not heading.holds_items
    if not is_entry:
        heading.candidate = False
    if stack and (is_entry or heading.holds_items):
        stack[-1].holds_items = True


def _ordered(lead: list[Opener], headings: list[_Heading]) -> ItemScan:
    """Boundaries in order; headings inside an entry are its text, not boundaries."""
    boundaries: list[Opener | SectionStart] = list(lead)
    entry_level = 0  # the level of the entry heading whose text we are in (0: none)
    dated = most = sum(1 for o in lead if o.period is not None)  # in the current section
    for heading in headings:
        if entry_level and heading.level > entry_level:
            continue
        entry_level = 0
        if heading.candidate and heading.opener is not None:
            boundaries.append(heading.opener)
            entry_level = heading.level
            dated += heading.opener.period is not None
        else:
            line = heading.line
            boundaries.append(SectionStart(line.start, line.end, line.piece))
            boundaries += heading.openers
            dated = sum(1 for o in heading.openers if o.period is not None)
        most = max(most, dated)
    return ItemScan(tuple(boundaries), most)


def item_period(words: str) -> Period | None:
    """The period of an item line: a short line with a date that is not inside a sentence."""
    if len(words) > ITEM_LINE_MAX_CHARS:
        return None
    period = find_period(words)
    if period is None or len(words) - (period.end - period.start) > TITLE_MAX_CHARS:
        return None  # besides its period an item line holds a title, not a wrapped sentence
    if SENTENCE_PARTICLE_RE.match(words, period.end):
        return None  # 2021年4月より、… / 2021년 4월에 …: a sentence that opens with a date
    single = period.start_iso == period.end_iso
    if single and (
        AS_OF_AFTER_RE.match(words, period.end) or AS_OF_BEFORE_RE.search(words, 0, period.start)
    ):
        return None  # 2024年4月1日現在: the date the document was written
    if period.start > 0 and words.endswith(SENTENCE_ENDS):
        return None  # a sentence mentioning a date
    before, after = words[: period.start], words[period.end :]
    first = not before.strip(OPENING_MARKS)
    last = not after.strip(CLOSING_MARKS)
    fielded = before.rstrip().endswith(FIELD_SEPARATORS) and after.lstrip().startswith(
        FIELD_SEPARATORS
    )
    if not (first or last or fielded):
        return None  # a date inside a wrapped line of prose: "(93% in July 2020, 98% in"
    return period


def _blocks(markdown: str, lines: list[PieceLine]) -> list[Block]:
    """The blocks of a run of lines: a new block at a new piece or a list item's line."""
    blocks: list[Block] = []
    group: list[PieceLine] = []
    count = 0  # lines in the group (only HEAD_LINES are kept)
    for line in lines:
        starts = not group or line.piece != group[0].piece or _is_list_item(markdown, line)
        if starts and group:
            blocks.append(_block(markdown, group, count))
            group, count = [], 0
        if len(group) < HEAD_LINES:
            group.append(line)
        count += 1
    if group:
        blocks.append(_block(markdown, group, count))
    return blocks


def _is_list_item(markdown: str, line: PieceLine) -> bool:
    return bool(LIST_ITEM_RE.match(markdown, line.start, line.end))


def _block(markdown: str, head: list[PieceLine], count: int) -> Block:
    first = head[0]
    for index, line in enumerate(head):
        if len(line.words) > ITEM_LINE_MAX_CHARS:
            break
        period = item_period(line.words)
        if period is not None:
            lead = " ".join(h.words for h in head[: index + 1])
            return Block(first.start, first.piece, BlockKind.DATED, line.end, lead, period)
    words = first.words
    if _is_list_item(markdown, first):
        kind = BlockKind.LIST
    elif count == 1 and len(words) <= TITLE_MAX_CHARS and not words.endswith(TITLE_NEVER_ENDS):
        kind = BlockKind.TITLE
    else:
        kind = BlockKind.TEXT
    period = _opening_period(words) if kind is BlockKind.TEXT else None
    lead = words[period.start : period.end] if period is not None else words
    return Block(first.start, first.piece, kind, first.end, lead, period)


def _opening_period(words: str) -> Period | None:
    """The period a description opens with (`Mar 2021 – Present Led the team …`: convert joined
    an entry's date line with its text); it dates an entry heading above, never opens an item."""
    head = words[:ITEM_LINE_MAX_CHARS]
    period = find_period(head)
    if period is None or head[: period.start].strip(OPENING_MARKS):
        return None
    if SENTENCE_PARTICLE_RE.match(head, period.end) or AS_OF_AFTER_RE.match(head, period.end):
        return None
    return period


def _block_openers(blocks: list[Block], entry: Opener | None) -> tuple[list[Opener], Opener | None]:
    """The items the blocks of one section open, and `entry` (an entry heading's own opener,
    inside which the blocks start) with the period a date just below it gives it."""
    openers: list[Opener] = []
    current, described = entry, False
    titles: list[Block] = []  # the TITLE blocks since the last other block
    titles_lead: bool | None = None  # the section's items put TITLE lines above their date
    for block in blocks:
        if block.kind is BlockKind.TITLE:
            titles = [*titles, block][-TITLE_LOOKBACK:]
            continue
        text = block.kind is not BlockKind.DATED
        if current is entry and entry is not None and entry.period is None and not described:
            if block.period is not None:  # the entry's date, on its own line or opening its text
                lead = " ".join([entry.lead, *(t.lead for t in titles), block.lead])
                current = entry = entry._replace(
                    head_end=block.head_end, lead=lead, period=block.period
                )
                described, titles = text, []
                continue
        # Text that opens with a period under title lines dates an item as a DATED block does
        # (convert joined the date line with the text: `Mar 2021 – Present Led the team …`).
        if text and (block.period is None or not titles):
            if titles_lead and titles and described and current is not entry:
                # Title lines over a description, where the items open with title lines: an
                # item whose date is missing (check's items.no-period names it).
                current = _opener(titles, None, block.piece)
                openers.append(current)
            described, titles = current is not None, []
            continue
        if titles_lead is None:
            titles_lead = bool(titles)
        current = _opener([*(titles if titles_lead else []), block], block.period, block.piece)
        openers.append(current)
        described, titles = text, []
    return openers, entry


def _opener(blocks: list[Block], period: Period | None, piece: int) -> Opener:
    """An item from its first blocks (title lines, then the dated block, if any)."""
    lead = " ".join(block.lead for block in blocks)
    return Opener(blocks[0].start, blocks[-1].head_end, lead, period, piece, entry=False)


def item_segments(
    layout: Layout, scan: ItemScan, cuts: tuple[tuple[int, ...], ...]
) -> list[Segment]:
    """The text before the first boundary, then a segment per item and per section with text
    of its own (a section heading with none glues onto what follows)."""
    markdown = layout.markdown
    base: Path = (TITLE,) if layout.names[TITLE] else ()
    bounds = scan.boundaries
    segments: list[Segment] = []
    first = bounds[0].start if bounds else len(markdown)
    pending: int | None = None
    if has_text(markdown[:first]):
        segments.append(
            Segment(
                0, first, ChunkKind.SECTION, ChunkKind.WINDOW, base, cuts_within(cuts, 0, first)
            )
        )
    elif first > 0:
        pending = 0
    starts = [bound.start for bound in bounds]
    ends = [*starts[1:], len(markdown)] if starts else []
    section_path = base
    index = 0
    for bound, start, end in zip(bounds, starts, ends, strict=True):
        glued = start if pending is None else pending
        if isinstance(bound, SectionStart):
            section_path = layout.paths[bound.piece]
            if not has_text(markdown[bound.line_end : end]):
                pending = glued
                continue
            own = cuts_within(cuts, bound.line_end, end)
            segments.append(
                Segment(glued, end, ChunkKind.SECTION, ChunkKind.WINDOW, section_path, own)
            )
        else:
            path = _item_path(layout, bound)
            fields = _fields(layout, bound, path, end, index)
            own = cuts_within(cuts, bound.head_end, end)
            segments.append(
                Segment(
                    glued,
                    end,
                    ChunkKind.ITEM,
                    ChunkKind.ITEM_PART,
                    path,
                    own,
                    bound.lead,
                    bound.head_end,
                    fields,
                )
            )
            index += 1
        pending = None
    if pending is not None:
        segments.append(
            Segment(pending, len(markdown), ChunkKind.SECTION, ChunkKind.WINDOW, section_path)
        )
    return segments


def _item_path(layout: Layout, opener: Opener) -> Path:
    """An entry heading's item takes the path of the section around the heading, a block's
    item the path of its block."""
    path = layout.paths[opener.path_piece]
    return path[:-1] if opener.entry else path


def _fields(layout: Layout, opener: Opener, path: Path, end: int, index: int) -> ItemFields:
    # The nearest heading names the section; an item under the title alone, the title.
    section = next((layout.names[e] for e in reversed(path) if e != TITLE), "")
    section = section or (layout.names[TITLE] if path else "")
    kind = item_type(section, layout.markdown[opener.start : end])
    period = opener.period
    if period is None:
        return ItemFields(kind, None, None, index)
    return ItemFields(kind, period.start_iso, period.end_iso, index)


def item_type(section_heading: str, text: str) -> str:
    """The kind with the highest keyword score (the heading's hits weighted); other on none.
    Ties go to the kind listed first in ITEM_TYPE_KEYWORDS."""
    scores = dict.fromkeys(ITEM_TYPE_KEYWORDS, 0)
    for weight, words in ((HEADING_WEIGHT, section_heading), (1, text)):
        for word in LATIN_WORD_RE.findall(words):
            kind = KIND_OF_LATIN_WORD.get(word.lower())
            if kind is not None:
                scores[kind] += weight
        for keyword in CJK_KEYWORDS_RE.findall(words):
            scores[KIND_OF_CJK_WORD[keyword]] += weight
    best = max(scores, key=scores.__getitem__)
    return str(best) if scores[best] else str(ItemType.OTHER)


def items_fit(segments: list[Segment], markdown: str, min_items: int, share: float) -> bool:
    """--mode auto: a section with at least `min_items` dated items of a known kind (a list of
    dated chart labels or of laws is no résumé or log), and items holding at least `share` of
    the text."""
    known = Counter(
        segment.path
        for segment in segments
        if segment.item is not None
        and segment.item.period_start is not None
        and segment.item.item_type != ItemType.OTHER
    )
    if max(known.values(), default=0) < min_items:
        return False
    inside = text_share(markdown, segments, ChunkKind.ITEM)
    return inside is not None and inside >= share

"""--mode laws: the article is the unit. Structure is recognised by pattern on the text lines,
whether or not convert made them headings:

- divisions: Japanese 第N編/章/節/款/目, Korean 제N편/장/절/관;
- articles: 第N条 (第N条の2), 제N조 (제N조의2), and ranges deleted together (第三条から第五条まで
  削除, 제3조부터 제5조까지 삭제); a caption line （目的） just above an article is its caption;
- 附則 / 부칙 (a section of its own: numbering restarts, divisions close);
- the table of contents 目次 / 차례 / 목차 (its own chunk, kind toc);
- paragraphs (項: ２, ① / 항: ①) and items (号: 一, (1) / 호: 1.): where a long article is cut.

Numerals may be ASCII, full-width or kanji (第十五条, 第１５条, 第15条). A label is structure only
at the start of a line and when followed by the end of the line, a space or a caption bracket:
cross-references ("第5条に定める", "제3조제1항에 따라", "第5条及び第6条") never are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from chunkcli.model import ChunkKind
from chunkcli.split.layout import TITLE, Layout, Path
from chunkcli.split.lines import NUMERAL, PieceLine, parse_numeral
from chunkcli.split.options import SplitSettings
from chunkcli.split.segments import Segment, cuts_within, text_share

SP = r"[ \t\u3000]*"  # PDF text often spaces CJK characters out: 第 1 条
JA_DIVISION_RANKS = {"編": 1, "章": 2, "節": 3, "款": 4, "目": 5}
KO_DIVISION_RANKS = {"편": 1, "장": 2, "절": 3, "관": 4}
DIVISION_RE = re.compile(
    rf"(?:第{SP}(?P<ja>{NUMERAL}){SP}(?P<ja_unit>[編章節款目])(?:{SP}の{SP}{NUMERAL})*"
    rf"|제{SP}(?P<ko>[0-9]+){SP}(?P<ko_unit>[편장절관])(?:{SP}의{SP}[0-9]+)?)"
)
ARTICLE_RE = re.compile(
    rf"(?:第{SP}(?P<ja>{NUMERAL}){SP}条(?:{SP}の{SP}(?P<ja_branch>{NUMERAL}))?(?:{SP}の{SP}{NUMERAL})*"
    rf"|제{SP}(?P<ko>[0-9]+){SP}조(?:{SP}의{SP}(?P<ko_branch>[0-9]+))?)"
)
# A notice (告示) numbers its items 第一, 第二, 第三の二 on a line of their own, with the item's
# caption on the next line: an article-level unit too.
NOTICE_ITEM_RE = re.compile(rf"第{SP}(?P<ja>{NUMERAL})(?:{SP}の{SP}(?P<ja_branch>{NUMERAL}))?")
NOTICE_CAPTION_MAX_CHARS = 30  # a caption line is short and is not a sentence
SENTENCE_ENDS = ("。", "．", ".", "、", "，", ",")
CAPTION_LINES_GLUED = 2  # a caption and its sub-caption at most
# 第三条から第五条まで削除 / 제3조부터 제5조까지 삭제: one line standing for several articles.
RANGE_RE = re.compile(
    rf"{SP}(?:から|乃至|ないし|[～〜－―]|부터|~){SP}"
    rf"(?:第{SP}(?P<ja>{NUMERAL}){SP}条|제{SP}(?P<ko>[0-9]+){SP}조)(?:{SP}(?:まで|까지))?"
    rf"{SP}(?:削除|삭제)"
)
# What may follow a structural label: the end, a caption bracket, or a space and then text
# that does not continue a cross-reference.
CAPTION_RE = re.compile(r"[（(][^（）()]{1,80}[）)]")  # 80: Korean captions run long
CROSS_REFERENCE_RE = re.compile(
    r"(?:及び|又は|並びに|若しくは|から|まで|乃至|ないし|に|の|を|は|が|で|と|、|，|,|・"
    r"|및|또는|내지|부터|까지|에|의|와|과|를|을|는|은|·)"
)
SUPPLEMENT_RE = re.compile(rf"(?:附{SP}則|부{SP}칙)(?P<rest>{SP}(?:[（(<〈].*)?)")
TOC_RE = re.compile(rf"目{SP}次|차{SP}례|목{SP}차")
CAPTION_LINE_RE = re.compile(r"[（(][^（）()]{1,40}[）)]")
# 項/항 (paragraph) and 号/호 (item) starts: where a long article may be cut.
PARAGRAPH_RE = re.compile(r"(?:[０-９]+|[2-9]|[1-9][0-9]+)[ \t\u3000]|[①-⑳㉑-㉟]")
ITEM_RE = re.compile(
    r"(?:[一二三四五六七八九十]+|[（(][0-9０-９一二三四五六七八九十]+[）)]|[0-9]+\.)[ \t\u3000]"
)
COMMENT_RE = re.compile(r"<!--.*?-->", re.S)
ATX_LINE_RE = re.compile(r"(?m)^ {0,3}#{1,6}(?:[ \t].*)?$")
# A division line is a short heading line (a sentence that starts with 第N章 is text).
DIVISION_MAX_CHARS = 60


PART_KINDS = {ChunkKind.ARTICLE: ChunkKind.ARTICLE_PART, ChunkKind.TOC: ChunkKind.TOC}


class LawKind(StrEnum):
    DIVISION = "division"
    ARTICLE = "article"
    SUPPLEMENT = "supplement"
    TOC = "toc"
    HEADING = "heading"  # a Markdown heading that is not law structure


@dataclass(frozen=True, slots=True)
class Mark:
    """A structural line: where its segment starts (a caption line above an article included)."""

    kind: LawKind
    start: int  # offset where the segment starts
    line: int  # offset of the structural line itself
    name: str  # as shown in heading_path: 第一章 総則, 第3条（管理責任者）, 附則
    rank: int = 0  # divisions: 編 1 ... 目 5; headings: the Markdown level
    number: int = 0  # articles
    branch: int = 0  # articles: 第3条の2 -> 2
    last: int = 0  # articles: the last number of a deleted range (else = number)
    piece: int = -1  # the heading piece, for Markdown headings


def classify(words: str) -> Mark | None:
    """The structure a line's words (markup stripped) start with, if any (offsets 0)."""
    article = ARTICLE_RE.match(words)
    if article and (_ends_label(words, article.end()) or RANGE_RE.match(words, article.end())):
        return _article(words, article)
    item = NOTICE_ITEM_RE.fullmatch(words)
    if item:
        return _article(words, item)
    division = DIVISION_RE.match(words)
    if division and len(words) <= DIVISION_MAX_CHARS and _ends_label(words, division.end()):
        unit = division.group("ja_unit") or division.group("ko_unit")
        rank = JA_DIVISION_RANKS.get(unit) or KO_DIVISION_RANKS[unit]
        return Mark(LawKind.DIVISION, 0, 0, " ".join(words.split()), rank=rank)
    supplement = SUPPLEMENT_RE.fullmatch(words)
    if supplement:
        label = "附則" if words.startswith("附") else "부칙"
        rest = " ".join(supplement.group("rest").split())
        return Mark(LawKind.SUPPLEMENT, 0, 0, f"{label} {rest}".strip())
    if TOC_RE.fullmatch(words):
        return Mark(LawKind.TOC, 0, 0, re.sub(r"\s", "", words))
    return None


def _ends_label(words: str, end: int) -> bool:
    rest = words[end:]
    if not rest or rest[0] in "（(":
        return True
    stripped = rest.lstrip(" \t\u3000")
    if len(stripped) == len(rest):  # glued to the next word: 第5条に, 제3조제1항
        return False
    return not CROSS_REFERENCE_RE.match(stripped)


def _article(words: str, match: re.Match[str]) -> Mark:
    groups = match.groupdict()
    ja = groups.get("ja")
    number = parse_numeral(ja) if ja else int(groups["ko"])
    branch_text = groups.get("ja_branch") or groups.get("ko_branch")
    branch = parse_numeral(branch_text) if branch_text else 0
    label = re.sub(r"\s", "", match.group())
    caption = CAPTION_RE.match(words, match.end())
    if match.re is NOTICE_ITEM_RE:
        return Mark(LawKind.ARTICLE, 0, 0, label, number=number, branch=branch, last=number)
    name = label + caption.group() if caption else label
    last = number
    deleted = RANGE_RE.match(words, match.end())
    if deleted:
        last_text = deleted.group("ja") or deleted.group("ko")
        last = parse_numeral(last_text)
        name = re.sub(r"\s", "", words)
    return Mark(LawKind.ARTICLE, 0, 0, name, number=number, branch=branch, last=last)


def find_marks(lines: list[PieceLine], layout: Layout, title_piece: int) -> list[Mark]:
    """The structural lines of the document in order (none inside a table of contents)."""
    raw = [_mark_of(line, layout) for line in lines]
    marks: list[Mark] = []
    index = 0
    while index < len(lines):
        mark = raw[index]
        if mark is None or mark.piece == title_piece and mark.kind is LawKind.HEADING:
            index += 1
            continue
        if mark.kind is LawKind.ARTICLE and index > 0 and _is_caption(lines[index - 1]):
            caption = lines[index - 1].words
            name = mark.name if "（" in mark.name or "(" in mark.name else mark.name + caption
            mark = _at(mark, lines[index - 1].start, lines[index].start, name)
        elif mark.kind is LawKind.ARTICLE and NOTICE_ITEM_RE.fullmatch(lines[index].words):
            name = mark.name + _notice_caption(lines, raw, index)
            mark = _at(mark, lines[index].start, lines[index].start, name)
        else:
            mark = _at(mark, lines[index].start, lines[index].start, mark.name)
        marks.append(mark)
        index = _toc_end(lines, raw, index) if mark.kind is LawKind.TOC else index + 1
    return marks


def _notice_caption(lines: list[PieceLine], raw: list[Mark | None], index: int) -> str:
    """' 届出の通則' when the line after a notice item (第一) is its short caption, else ''."""
    if index + 1 >= len(lines) or raw[index + 1] is not None:
        return ""
    words = lines[index + 1].words
    if len(words) > NOTICE_CAPTION_MAX_CHARS or any(ch in words for ch in "。、，"):
        return ""
    return " " + " ".join(words.split())


def _mark_of(line: PieceLine, layout: Layout) -> Mark | None:
    mark = classify(line.words)
    if mark is None and line.heading and not _is_caption(line):
        piece = layout.pieces[line.piece]
        return Mark(LawKind.HEADING, 0, 0, piece.heading, rank=piece.level, piece=line.piece)
    return mark


def _at(mark: Mark, start: int, line: int, name: str) -> Mark:
    return Mark(
        mark.kind, start, line, name, mark.rank, mark.number, mark.branch, mark.last, mark.piece
    )


def _is_caption(line: PieceLine) -> bool:
    return bool(CAPTION_LINE_RE.fullmatch(line.words))


def _toc_end(lines: list[PieceLine], raw: list[Mark | None], toc: int) -> int:
    """Index of the first line after the table of contents at `toc`: the TOC lists divisions
    (and 附則) up to the first article; the chain of divisions just above that article, each
    outer than the one below it (第一編, 第一章, 第一節), is the real structure again."""
    first_article = next(
        (i for i in range(toc + 1, len(lines)) if (m := raw[i]) and m.kind is LawKind.ARTICLE),
        None,
    )
    if first_article is None:
        heading = next((i for i in range(toc + 1, len(lines)) if lines[i].heading), None)
        return heading if heading is not None else len(lines)
    end = first_article
    if end - 1 > toc and _is_caption(lines[end - 1]):
        end -= 1
    inner_rank = 99
    while end - 1 > toc:
        mark = raw[end - 1]
        if mark is None or mark.kind is not LawKind.DIVISION or mark.rank >= inner_rank:
            break
        inner_rank = mark.rank
        end -= 1
    return end


@dataclass
class _PathState:
    """The open structure while walking the marks: headings, 附則, divisions."""

    base: Path  # (TITLE,), or () for a document without a title
    headings: list[tuple[int, int]]  # (level, path element)
    supplement: int | None = None
    divisions: list[tuple[int, int]] | None = None

    def path(self) -> Path:
        base = [*self.base, *(element for _, element in self.headings)]
        if self.supplement is not None:
            base.append(self.supplement)
        base += [element for _, element in self.divisions or []]
        return tuple(base)


def law_segments(
    layout: Layout, marks: list[Mark], cuts: tuple[tuple[int, ...], ...]
) -> tuple[list[Segment], dict[int, str]]:
    """Segments (the text before the first mark, then one per mark; marks with no text of
    their own glue onto the next segment) and the names of the new path elements."""
    markdown = layout.markdown
    names: dict[int, str] = {}
    state = _PathState(base=(TITLE,) if layout.names[TITLE] else (), headings=[], divisions=[])
    segments: list[Segment] = []
    pending: int | None = None  # start of heading-like marks waiting for their text
    first = marks[0].start if marks else len(markdown)
    if _content(markdown, 0, first, without_headings=True):
        segments.append(
            Segment(
                0,
                first,
                ChunkKind.SECTION,
                ChunkKind.WINDOW,
                state.path(),
                cuts_within(cuts, 0, first),
            )
        )
    elif first > 0:
        pending = 0  # only the title (or nothing) before the first mark: it glues on
    ends = [m.start for m in marks[1:]] + [len(markdown)] if marks else []
    for mark, end in zip(marks, ends, strict=True):
        element = mark.piece if mark.kind is LawKind.HEADING else len(layout.pieces) + mark.line
        names[element] = mark.name
        path = _advance(state, mark, element)
        start = mark.start if pending is None else pending
        line_end = markdown.find("\n", mark.line, end)
        has_text = line_end >= 0 and bool(_content(markdown, line_end, end))
        if mark.kind in (LawKind.ARTICLE, LawKind.TOC) or has_text:
            kind = _segment_kind(mark.kind)
            part = PART_KINDS.get(kind, ChunkKind.WINDOW)
            # Parts start after the mark's own line: labels and captions stay with its text.
            own_cuts = cuts_within(cuts, mark.line, end)
            segments.append(Segment(start, end, kind, part, path, own_cuts))
            pending = None
        elif pending is None:
            pending = mark.start
    if pending is not None:
        segments.append(
            Segment(
                pending,
                len(markdown),
                ChunkKind.SECTION,
                ChunkKind.WINDOW,
                state.path(),
                cuts_within(cuts, pending, len(markdown)),
            )
        )
    return segments, names


def _advance(state: _PathState, mark: Mark, element: int) -> Path:
    """Update the open structure with `mark`; the path of the mark's own segment."""
    divisions = state.divisions if state.divisions is not None else []
    if mark.kind is LawKind.HEADING:
        state.headings = [(lvl, e) for lvl, e in state.headings if lvl < mark.rank]
        state.headings.append((mark.rank, element))
        state.supplement, state.divisions = None, []
        return state.path()
    if mark.kind is LawKind.SUPPLEMENT:
        state.supplement, state.divisions = element, []
        return state.path()
    if mark.kind is LawKind.DIVISION:
        state.divisions = [(r, e) for r, e in divisions if r < mark.rank] + [(mark.rank, element)]
        return state.path()
    return (*state.path(), element)  # an article or the TOC: the deepest element


def _segment_kind(kind: LawKind) -> ChunkKind:
    if kind is LawKind.ARTICLE:
        return ChunkKind.ARTICLE
    if kind is LawKind.TOC:
        return ChunkKind.TOC
    return ChunkKind.SECTION


def _content(markdown: str, start: int, end: int, without_headings: bool = False) -> str:
    """markdown[start:end] without page markers (and ATX heading lines) and outer space."""
    text = COMMENT_RE.sub("", markdown[start:end])
    if without_headings:
        text = ATX_LINE_RE.sub("", text)
    return text.strip()


def article_cuts(
    markdown: str, lines: list[PieceLine], block_starts: list[int]
) -> tuple[tuple[int, ...], ...]:
    """Where a long article may be cut: before a 項/항, then a 号/호, then any line or block.
    A cut moves back over the short caption lines just above it (二十対一入院基本料の施設基準),
    so that a caption opens the part with its text instead of closing the part before."""
    paragraphs = [i for i, line in enumerate(lines) if PARAGRAPH_RE.match(line.words)]
    items = [i for i, line in enumerate(lines) if ITEM_RE.match(line.words)]
    every = range(len(lines))
    levels = [
        tuple(sorted({_before_captions(markdown, lines, i) for i in indices}))
        for indices in (paragraphs, items, every)
    ]
    levels[-1] = tuple(sorted(set(levels[-1]) | set(block_starts)))
    return tuple(levels)


def _before_captions(markdown: str, lines: list[PieceLine], index: int) -> int:
    """The start of lines[index], or of the caption lines right above it."""
    start = lines[index].start
    for _ in range(CAPTION_LINES_GLUED):
        if index == 0 or not _caption_like(lines[index - 1]):
            break
        if markdown[lines[index - 1].end : start].strip():
            break  # something else (a table, a marker) stands between
        index -= 1
        start = lines[index].start
    return start


def _caption_like(line: PieceLine) -> bool:
    words = line.words
    if len(words) > NOTICE_CAPTION_MAX_CHARS or words.endswith(SENTENCE_ENDS):
        return False
    return not (PARAGRAPH_RE.match(words) or ITEM_RE.match(words) or classify(words))


def merge_small_articles(layout: Layout, segments: list[Segment]) -> list[Segment]:
    """With --min-tokens, adjacent articles under one division merge while one of them is under
    that many tokens and the merged text fits the limit; the merged chunk's path stops at the
    division. Without it every article stays its own chunk (each is cited on its own)."""
    min_tokens = layout.options.min_tokens
    if not min_tokens:
        return segments
    merged: list[Segment] = []
    sizes: list[int] = []
    for segment in segments:
        size = _tokens(layout, segment.start, segment.end, segment.path)
        if merged and _mergeable(merged[-1], segment):
            last = merged[-1]
            parent = last.path[:-1] if last.path != segment.path[:-1] else last.path
            small = min(sizes[-1], size) < min_tokens
            if small and _tokens(layout, last.start, segment.end, parent) <= layout.max_tokens:
                cuts = tuple(
                    tuple(sorted({*a, segment.start, *b}))
                    for a, b in zip(last.cuts, segment.cuts, strict=True)
                )
                merged[-1] = Segment(
                    last.start, segment.end, ChunkKind.ARTICLE, ChunkKind.ARTICLE_PART, parent, cuts
                )
                sizes[-1] = _tokens(layout, last.start, segment.end, parent)
                continue
        merged.append(segment)
        sizes.append(size)
    return merged


def _mergeable(last: Segment, segment: Segment) -> bool:
    """Both articles (or a merged run of them) under the same division."""
    if last.kind is not ChunkKind.ARTICLE or segment.kind is not ChunkKind.ARTICLE:
        return False
    return last.path[:-1] == segment.path[:-1] or last.path == segment.path[:-1]


def _tokens(layout: Layout, start: int, end: int, path: Path) -> int:
    return layout.count_tokens(layout.prefix(path)[0] + layout.markdown[start:end])


def is_mostly_articles(
    marks: list[Mark], segments: list[Segment], markdown: str, settings: SplitSettings
) -> bool:
    """auto mode: at least auto_min_articles articles holding auto_article_share of the text."""
    articles = sum(1 for mark in marks if mark.kind is LawKind.ARTICLE)
    if articles < settings.auto_min_articles:
        return False
    share = text_share(markdown, segments, ChunkKind.ARTICLE)
    return share is not None and share >= settings.auto_article_share

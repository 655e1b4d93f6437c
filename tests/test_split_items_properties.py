"""Invariants of --mode items on generated résumés and logs (Japanese, Korean, English; five
layouts of an entry): offsets and counts exact, every item found with its period, its text in
the chunks of that item only (no item in two chunks, none merged, none apart from its
description), items in document order, at any token limit."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkcli.model import Chunk
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.split.lines import LEAD_MARKUP_RE, strip_markup
from chunkcli.tokens import tiktoken_counter
from tests.test_split_modes_properties import check_invariants

count = tiktoken_counter("cl100k_base")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SECTIONS = {
    "ja": ("職務経歴", "資格", "学歴"),
    "ko": ("경력사항", "자격증", "학력"),
    "en": ("Experience", "Certifications", "Education"),
}
ORGANISATIONS = {
    "ja": ("株式会社エービーシー", "有限会社ディーイー", "東京大学 工学部"),
    "ko": ("주식회사 가나다", "주식회사 라마바", "한국대학교 컴퓨터공학과"),
    "en": ("Acme Corp", "Beta Inc", "State University"),
}
SENTENCES = {
    "ja": (
        "ECサイトのバックエンド開発を担当した。",
        "在庫連携の改修を主導し、夜間バッチを短縮した。",
        "メンバー五名のチームを率いて新しい決済基盤を設計した。",
    ),
    "ko": (
        "전자상거래 플랫폼 백엔드 개발을 담당했다.",
        "결제 모듈을 재설계하여 오류를 줄였다.",
        "다섯 명의 팀을 이끌고 새 결제 기반을 설계했다.",
    ),
    "en": (
        "Built the billing service and its test suite.",
        "Moved the data warehouse to a managed store and cut its cost by a third.",
        "Led a team of five through the redesign of the payment platform.",
    ),
}
LAYOUTS = ("dated_heading", "heading_then_date", "date_first", "title_first", "list")


@dataclass(frozen=True)
class Item:
    start: int  # where the item's own text starts
    end: int  # where its text ends (the next item or section starts)
    period: tuple[str, str | None]


@dataclass(frozen=True)
class Document:
    markdown: str
    items: tuple[Item, ...]


def period_text(language: str, start: tuple[int, int], end: tuple[int, int] | None) -> str:
    def one(year: int, month: int) -> str:
        if language == "ja":
            return f"{year}年{month}月"
        if language == "ko":
            return f"{year}년 {month}월"
        return f"{('Jan', 'Mar', 'Jun', 'Sep', 'Nov')[month % 5]} {year}"

    now = {"ja": "現在", "ko": "현재", "en": "Present"}[language]
    separator = {"ja": "～", "ko": " ~ ", "en": " - "}[language]
    return one(*start) + separator + (one(*end) if end else now)


def iso(language: str, year: int, month: int) -> str:
    if language == "en":
        month = (1, 3, 6, 9, 11)[month % 5]
    return f"{year}-{month:02d}"


@st.composite
def resume(draw: st.DrawFn) -> Document:
    language = draw(st.sampled_from(tuple(SECTIONS)))
    parts = [draw(st.sampled_from(("# 職務経歴書\n\n", "# Curriculum Vitae\n\n", "")))]
    items: list[Item] = []

    def offset() -> int:
        return sum(len(p) for p in parts)

    for section in draw(st.lists(st.sampled_from(SECTIONS[language]), min_size=1, max_size=3)):
        parts.append(f"## {section}\n\n")
        layout = draw(st.sampled_from(LAYOUTS))
        for _ in range(draw(st.integers(1, 4))):
            year, month = draw(st.integers(1995, 2020)), draw(st.integers(1, 12))
            ongoing = draw(st.booleans())
            end = None if ongoing else (year + draw(st.integers(1, 4)), draw(st.integers(1, 12)))
            when = period_text(language, (year, month), end)
            org = draw(st.sampled_from(ORGANISATIONS[language]))
            start = offset()
            parts.append(entry(draw, language, layout, when, org))
            end_iso = None if end is None else iso(language, *end)
            items.append(Item(start, offset(), (iso(language, year, month), end_iso)))
    return Document("".join(parts), tuple(items))


def entry(draw: st.DrawFn, language: str, layout: str, when: str, org: str) -> str:
    sentences = SENTENCES[language]
    description = [
        draw(st.sampled_from(sentences)) * draw(st.integers(1, 8))
        for _ in range(draw(st.integers(0 if layout == "list" else 1, 3)))
    ]
    if draw(st.booleans()) and description:
        description[-1] = "\n".join(f"- {s}" for s in sentences)  # a list of achievements
    body = "".join(f"{d}\n\n" for d in description)
    if layout == "dated_heading":
        return f"### {org}（{when}）\n\n{body}"
    if layout == "heading_then_date":
        return f"### {org}\n\n{when}\n\n{body}"
    if layout == "date_first":
        return f"{when}　{org}\n\n{body}"
    if layout == "title_first":
        return f"**{org}**\n\n{when}\n\n{body}"
    return f"- {when} {org}\n\n"


def holders(markdown: str, chunks: list[Chunk], item: Item) -> list[Chunk]:
    """The chunks holding the item's text, each non-space offset in exactly one."""
    found: dict[int, Chunk] = {}
    for offset in range(item.start, item.end):
        if markdown[offset].isspace():
            continue
        holding = [c for c in chunks if c.start <= offset < c.end]
        assert len(holding) == 1, (offset, markdown[offset])
        found[id(holding[0])] = holding[0]
    return sorted(found.values(), key=lambda c: c.start)


@SETTINGS
@given(document=resume(), max_tokens=st.integers(80, 2000))
def test_every_item_is_found_whole_and_alone(document: Document, max_tokens: int) -> None:
    markdown = document.markdown
    chunks = split_markdown(markdown, SplitOptions(mode="items", max_tokens=max_tokens))  # type: ignore[arg-type]
    check_invariants(markdown, chunks, max_tokens)
    indices = []
    for item in document.items:
        held = holders(markdown, chunks, item)
        assert held
        fields = {c.item for c in held}
        assert len(fields) == 1 and None not in fields  # one item, no other chunk kind
        [found] = fields
        assert found is not None
        assert (found.period_start, found.period_end) == item.period
        indices.append(found.item_index)
        if len(held) > 1:  # an item over the limit: parts with its item line as context
            assert all(c.prefix.count("\n\n") >= 2 for c in held[1:])
    assert indices == list(range(len(document.items)))  # in order, none merged or missed
    item_chunks = [c for c in chunks if c.item is not None]
    assert [c.item.item_index for c in item_chunks if c.item] == sorted(
        c.item.item_index for c in item_chunks if c.item
    )


@SETTINGS
@given(document=resume())
def test_items_that_fit_are_one_chunk_each(document: Document) -> None:
    markdown = document.markdown
    chunks = split_markdown(markdown, SplitOptions(mode="items", max_tokens=8000))  # type: ignore[arg-type]
    check_invariants(markdown, chunks, 8000)
    items = [c for c in chunks if c.item is not None]
    assert len(items) == len(document.items)
    assert all(c.kind.value == "item" for c in items)
    for chunk, item in zip(items, document.items, strict=True):
        assert chunk.start <= item.start and item.end <= chunk.end + 2


LINE_POOL = (
    "# 職務経歴書",
    "## 職務経歴",
    "### 株式会社エービーシー（2016年4月～2019年3月）",
    "### Acme Corp",
    "#### Projects",
    "2019年4月～現在",
    "2019년 4월 ~ 2022년 3월 주식회사 가나다",
    "Mar 2021 - Present",
    "2024-02-14 Database failover",
    "**Senior Engineer**, Acme Corp",
    "- 2015年6月　基本情報技術者試験 合格",
    "- Led the platform team.",
    "  - nested 2020-01 item",
    "Built the billing service in Go.",
    "| a | b |\n|---|---|\n| 2019-04 | x |",
    "<!-- page 2 -->",
    "```\n2019-04 code\n```",
    "",
)


@SETTINGS
@given(
    lines=st.lists(st.sampled_from(LINE_POOL), max_size=40),
    max_tokens=st.integers(20, 400),
)
def test_any_mix_of_lines_keeps_offsets_and_item_order(lines: list[str], max_tokens: int) -> None:
    markdown = "\n".join(lines)
    chunks = split_markdown(markdown, SplitOptions(mode="items", max_tokens=max_tokens))  # type: ignore[arg-type]
    check_invariants(markdown, chunks, max_tokens)
    indices = [c.item.item_index for c in chunks if c.item is not None]
    assert indices == sorted(indices)  # in document order, parts of an item adjacent
    assert sorted(set(indices)) == list(range(len(set(indices))))


OLD_TRAIL_MARKUP_RE = re.compile(r"(?:\*\*|__)?[ \t]*#*[ \t]*$")


@SETTINGS
@given(raw=st.text(alphabet=" \t#*_>-+ab日", max_size=30))
def test_markup_is_cut_as_the_old_pattern_cut_it(raw: str) -> None:
    """lines.strip_markup cuts trailing markup with rstrip (the pattern was quadratic on long
    runs of spaces): the same words as before, for the items, laws and qa modes alike."""
    lead = LEAD_MARKUP_RE.match(raw)
    words = raw[lead.end() :] if lead else raw
    assert strip_markup(raw) == OLD_TRAIL_MARKUP_RE.sub("", words).strip()

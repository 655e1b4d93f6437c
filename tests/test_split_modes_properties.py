"""Invariants of --mode laws and --mode qa on generated Japanese and Korean documents: offsets
and token counts exact, every article's (every pair's) text in exactly one chunk, named after
that article, and cross-references never taken for structure."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkcli.model import Chunk
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.tokens import tiktoken_counter

count = tiktoken_counter("cl100k_base")
KANJI = "〇一二三四五六七八九"
JA_SENTENCES = (
    "事業者は、設備を点検しなければならない。",
    "管理責任者は記録を保存する。",
    "前項の規定は、委託先にも適用する。",
    "作業者は始業前に確認する。",
)
KO_SENTENCES = (
    "사업자는 시설을 점검하여야 한다.",
    "관리책임자는 기록을 보존한다.",
    "제1항은 위탁 사업장에도 적용한다.",
    "작업자는 시작 전에 확인한다.",
)
JA_REFERENCE = "第三条に定める場合を除く。"  # cross-references at a line start
KO_REFERENCE = "제3조제1항에 따라 점검한다."
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def kanji(number: int) -> str:
    tens, ones = divmod(number, 10)
    text = ("" if tens == 1 else KANJI[tens]) + "十" if tens else ""
    return text + (KANJI[ones] if ones else "")


def numeral(number: int, style: str) -> str:
    if style == "kanji":
        return kanji(number)
    if style == "full":
        return str(number).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    return str(number)


@dataclass(frozen=True)
class Article:
    name: str  # its heading_path element
    start: int
    end: int


@dataclass(frozen=True)
class LawDocument:
    markdown: str
    articles: tuple[Article, ...]


@st.composite
def law_document(draw: st.DrawFn) -> LawDocument:
    korean = draw(st.booleans())
    style = draw(st.sampled_from(("kanji", "full", "ascii")))
    sentences = KO_SENTENCES if korean else JA_SENTENCES
    parts: list[str] = [draw(st.sampled_from(("# 規程\n\n", "", "# 규정\n\n")))]
    articles: list[Article] = []
    number = 0

    def offset() -> int:
        return sum(len(p) for p in parts)

    for chapter in range(1, draw(st.integers(1, 3)) + 1):
        chapter_line = f"제{chapter}장 총칙" if korean else f"第{numeral(chapter, style)}章　総則"
        parts.append(chapter_line + "\n\n")
        for _ in range(draw(st.integers(1, 4))):
            number += 1
            start = offset()
            caption = draw(st.sampled_from(("", "目的", "定義")))
            if korean:
                label = f"제{number}조" + (f"({caption})" if caption else "")
                lines = [f"{label} {draw(st.sampled_from(sentences))}"]
            else:
                label = f"第{numeral(number, style)}条"
                lines = [f"（{caption}）"] if caption else []
                label += f"（{caption}）" if caption else ""
                lines.append(f"第{numeral(number, style)}条　{draw(st.sampled_from(sentences))}")
            for paragraph in range(2, draw(st.integers(1, 4)) + 1):
                mark = "①②③④"[paragraph - 1] + " " if korean else numeral(paragraph, "full") + "　"
                text = " ".join(draw(st.lists(st.sampled_from(sentences), min_size=1, max_size=6)))
                lines.append(mark + text)
                if draw(st.booleans()):  # a cross-reference at a line start
                    lines.append(KO_REFERENCE if korean else JA_REFERENCE)
            for item in range(1, draw(st.integers(0, 3)) + 1):
                lines.append(f"{item}. 기계" if korean else f"{KANJI[item]}　機械")
            parts.append("\n".join(lines) + "\n\n")
            articles.append(Article(label, start, offset()))
    return LawDocument("".join(parts), tuple(articles))


def check_invariants(markdown: str, chunks: list[Chunk], max_tokens: int) -> None:
    for chunk in chunks:
        assert markdown[chunk.start : chunk.end] == chunk.body
        assert chunk.text == chunk.prefix + chunk.body
        assert chunk.tokens == count(chunk.text)
        assert chunk.oversize == (chunk.tokens > max_tokens)
    spans = sorted((c.start, c.end) for c in chunks)
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))  # no overlap


def chunks_at(chunks: list[Chunk], offset: int) -> list[Chunk]:
    return [c for c in chunks if c.start <= offset < c.end]


@SETTINGS
@given(document=law_document(), max_tokens=st.integers(60, 600))
def test_every_article_in_exactly_one_chunk_or_its_own_parts(
    document: LawDocument, max_tokens: int
) -> None:
    markdown = document.markdown
    chunks = split_markdown(markdown, SplitOptions(mode="laws", max_tokens=max_tokens))
    check_invariants(markdown, chunks, max_tokens)
    for article in document.articles:
        holders = {
            id(c): c
            for offset in range(article.start, article.end)
            if not markdown[offset].isspace()
            for c in chunks_at(chunks, offset)
        }
        covered = all(
            len(chunks_at(chunks, offset)) == 1
            for offset in range(article.start, article.end)
            if not markdown[offset].isspace()
        )
        assert covered, article
        assert {c.heading_path[-1] for c in holders.values()} == {article.name}


@SETTINGS
@given(document=law_document())
def test_articles_that_fit_are_one_chunk_each_and_cross_references_are_not_articles(
    document: LawDocument,
) -> None:
    markdown = document.markdown
    chunks = split_markdown(markdown, SplitOptions(mode="laws", max_tokens=4000))
    check_invariants(markdown, chunks, 4000)
    articles = [c for c in chunks if c.kind.value == "article"]
    assert [c.heading_path[-1] for c in articles] == [a.name for a in document.articles]
    for chunk, article in zip(articles, document.articles, strict=True):
        assert chunk.start <= article.start and article.end <= chunk.end + 2


@st.composite
def faq_document(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    """Markdown and, per pair, (question offset, answer offset)."""
    parts = ["# FAQ\n\n"]
    pairs = []
    for index in range(1, draw(st.integers(1, 6)) + 1):
        question_marker, answer_marker = draw(
            st.sampled_from(
                (
                    ("Q:", "A:"),
                    ("Q.", "A."),
                    (f"Q{index}.", f"A{index}."),
                    ("問", "答"),
                    ("質問：", "回答："),
                    ("질문:", "답변:"),
                )
            )
        )
        start = sum(len(p) for p in parts)
        question = f"{question_marker} " + draw(st.sampled_from(("料金は？", "변경할 수 있나요?")))
        answer = " ".join(
            draw(st.lists(st.sampled_from(JA_SENTENCES + KO_SENTENCES), min_size=1, max_size=30))
        )
        text = f"{question}\n{answer_marker} {answer}\n\n"
        pairs.append((start, start + len(question) + 1))
        parts.append(text)
    return "".join(parts), pairs


@SETTINGS
@given(document=faq_document(), max_tokens=st.integers(60, 400))
def test_a_question_is_never_apart_from_its_answer(
    document: tuple[str, list[tuple[int, int]]], max_tokens: int
) -> None:
    markdown, pairs = document
    chunks = split_markdown(markdown, SplitOptions(mode="qa", max_tokens=max_tokens))
    check_invariants(markdown, chunks, max_tokens)
    for question, answer in pairs:
        [holder] = chunks_at(chunks, question)
        assert holder.start <= answer < holder.end  # the answer starts in the same chunk
        later = [
            c
            for c in chunks
            if c.start > holder.start
            and c.kind.value == "qa_part"
            and c.start < (next((q for q, _ in pairs if q > question), len(markdown)))
        ]
        question_line = markdown[question : answer - 1]
        assert all(question_line in c.prefix for c in later)

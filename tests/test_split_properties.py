"""Invariants of split_markdown on generated GFM with headings, tables, code, lists, figure
blocks, CJK text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkcli.markdown_format import FigureBlock, format_figure
from chunkcli.model import Chunk, ChunkKind
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.split.scan import PAGE_MARKER_RE
from chunkcli.tokens import tiktoken_counter

ENGLISH_WORDS = (
    "power",
    "disconnect",
    "the",
    "unit",
    "before",
    "service",
    "check",
    "valve",
    "pressure",
    "rated",
    "at",
    "bar",
    "3.5",
    "open",
    "close",
)
JAPANESE_PHRASES = ("電源を切る", "点検する", "バルブを開く", "圧力を確認", "作業の前に", "必ず")


@dataclass(frozen=True)
class Generated:
    markdown: str
    tables: tuple[tuple[int, int, int], ...]  # (start, end, header line count = 2) per table
    code: tuple[tuple[int, int], ...]  # (start, end) per code fence
    figures: tuple[tuple[int, int, FigureBlock], ...] = ()  # (start, end, parts) per figure


@st.composite
def english_sentence(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(ENGLISH_WORDS), min_size=1, max_size=14))
    words[0] = words[0].capitalize()
    return " ".join(words) + draw(st.sampled_from(".!?"))


@st.composite
def japanese_sentence(draw: st.DrawFn) -> str:
    phrases = draw(st.lists(st.sampled_from(JAPANESE_PHRASES), min_size=1, max_size=8))
    joiner = draw(st.sampled_from(("", "、")))
    return joiner.join(phrases) + draw(st.sampled_from("。！？"))


@st.composite
def paragraph(draw: st.DrawFn) -> str:
    sentence = st.one_of(english_sentence(), japanese_sentence())
    sentences = draw(st.lists(sentence, min_size=1, max_size=12))
    return "".join(s if i == 0 or s[0] > "\u3000" else " " + s for i, s in enumerate(sentences))


@st.composite
def table(draw: st.DrawFn) -> str:
    columns = draw(st.integers(1, 4))
    rows = draw(st.integers(0, 14))
    cell = st.sampled_from(ENGLISH_WORDS + JAPANESE_PHRASES)
    header = "| " + " | ".join(draw(cell) for _ in range(columns)) + " |"
    delimiter = "|" + "---|" * columns
    body = ["| " + " | ".join(draw(cell) for _ in range(columns)) + " |" for _ in range(rows)]
    return "\n".join([header, delimiter, *body])


@st.composite
def code_block(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.sampled_from(("x = 1", "call(unit)", "// note", "")), max_size=12))
    return "```\n" + "\n".join(lines) + "\n```"


@st.composite
def figure(draw: st.DrawFn) -> FigureBlock:
    caption = draw(st.sampled_from(("", "Figure 3. Pressure by valve", "図2 圧力")))
    image = draw(st.sampled_from(("", "images/doc-p1-1.png")))
    words = draw(st.one_of(st.just(""), paragraph(), st.lists(paragraph(), max_size=3)))
    words = words if isinstance(words, str) else "\n".join(words)
    ocr = draw(st.booleans()) and bool(words)
    return FigureBlock(caption, image, words, 0.5 if ocr else None, "tesseract" if ocr else None)


@st.composite
def bullet_list(draw: st.DrawFn) -> str:
    items = draw(st.lists(english_sentence(), min_size=1, max_size=5))
    return "\n".join("- " + item for item in items)


@st.composite
def heading(draw: st.DrawFn) -> str:
    level = draw(st.integers(1, 4))
    return "#" * level + " " + draw(st.sampled_from(("Safety", "Setup", "仕様", "Notes", "Use")))


@st.composite
def documents(draw: st.DrawFn) -> Generated:
    block = st.one_of(
        heading(),
        paragraph(),
        paragraph(),
        table(),
        code_block(),
        bullet_list(),
        st.integers(1, 9).map(lambda n: f"<!-- page {n} -->"),
        figure(),
    )
    blocks = draw(st.lists(block, max_size=18))
    separators = draw(
        st.lists(
            st.sampled_from(("\n\n", "\n\n\n", "\r\n\r\n")),
            min_size=len(blocks),
            max_size=len(blocks),
        )
    )
    parts: list[str] = []
    offset = 0
    tables, code, figures = [], [], []
    for block, separator in zip(blocks, separators, strict=True):
        text = format_figure(block) if isinstance(block, FigureBlock) else block
        if isinstance(block, FigureBlock):
            figures.append((offset, offset + len(text), block))
        if text.startswith("|"):
            tables.append((offset, offset + len(text), 2))
        if text.startswith("```"):
            code.append((offset, offset + len(text)))
        parts.append(text + separator)
        offset += len(text) + len(separator)
    return Generated("".join(parts), tuple(tables), tuple(code), tuple(figures))


HEADINGS_RE = re.compile(r"(?m)^ {0,3}#{1,6} .*$")
HEADING_LINE_RE = re.compile(r"(?:^|\n) {0,3}#{1,6} [^\n]*$")


def count_words(text: str) -> int:
    return len(text.split())


def split_words(generated: Generated, max_tokens: int, **kwargs: object) -> list[Chunk]:
    options = SplitOptions(max_tokens=max_tokens, **kwargs)  # type: ignore[arg-type]
    return split_markdown(generated.markdown, options, source="doc.md", count_tokens=count_words)


def uncovered_text(markdown: str, chunks: list[Chunk]) -> str:
    covered = bytearray(len(markdown))
    for chunk in chunks:
        covered[chunk.start : chunk.end] = b"\x01" * (chunk.end - chunk.start)
    missing = "".join(ch for ch, flag in zip(markdown, covered, strict=True) if not flag)
    return PAGE_MARKER_RE.sub("", missing).strip()


common = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@common
@given(documents(), st.integers(24, 120), st.sampled_from(["h2", "h3"]), st.integers(0, 2))
def test_offsets_prefix_coverage_and_limits(
    generated: Generated, max_tokens: int, split_on: str, overlap: int
) -> None:
    markdown = generated.markdown
    chunks = split_words(generated, max_tokens, split_on=split_on, overlap_sentences=overlap)
    for chunk in chunks:
        assert markdown[chunk.start : chunk.end] == chunk.body
        assert chunk.text == chunk.prefix + chunk.body
        assert chunk.body.strip(), "no empty chunk"
        assert chunk.tokens == count_words(chunk.text)
        assert chunk.oversize == (chunk.tokens > max_tokens)
        if chunk.oversize:  # only unbreakable blocks: code, a table row, a figure without words
            assert "```" in chunk.body or chunk.kind in (ChunkKind.TABLE_PART, ChunkKind.FIGURE)
    assert uncovered_text(markdown, chunks) == ""
    assert [c.start for c in chunks] == sorted(c.start for c in chunks)


@common
@given(documents(), st.integers(24, 120))
def test_tables_and_code_are_never_cut_except_into_header_repeating_parts(
    generated: Generated, max_tokens: int
) -> None:
    markdown = generated.markdown
    chunks = split_words(generated, max_tokens)
    for start, end in generated.code:
        holders = [c for c in chunks if c.start < end and c.end > start]
        assert len(holders) == 1 and holders[0].start <= start and holders[0].end >= end
    for start, end, _ in generated.tables:
        holders = [c for c in chunks if c.start < end and c.end > start]
        whole = [c for c in holders if c.start <= start and c.end >= end]
        if whole:
            assert holders == whole
            continue
        header = "\n".join(markdown[start:end].split("\n")[:2]) + "\n"
        assert all(c.kind is ChunkKind.TABLE_PART for c in holders)
        assert len({c.heading_path for c in holders}) == 1
        for part in holders[1:]:
            assert part.prefix.endswith("\n\n" + header)
            assert markdown[part.start - 1] == "\n" and part.body.startswith("|")
        rows = [ln.rstrip("\r") for c in holders for ln in c.body.split("\n") if ln[:1] == "|"]
        assert rows == markdown[start:end].split("\n"), "no row lost or duplicated"


@common
@given(documents(), st.integers(24, 120), st.sampled_from(["heading", "qa", "items", "laws"]))
def test_figures_are_never_cut_except_in_their_words_into_caption_repeating_parts(
    generated: Generated, max_tokens: int, mode: str
) -> None:
    markdown = generated.markdown
    chunks = split_words(generated, max_tokens, mode=mode)
    for start, end, block in generated.figures:
        holders = [c for c in chunks if c.start < end and c.end > start]
        assert all(c.images == ((block.image,) if block.image else ()) for c in holders)
        if mode != "heading":
            continue  # (the other modes cut a segment over the limit as its text)
        whole = [c for c in holders if c.start <= start and c.end >= end]
        if whole:
            assert holders == whole
            continue
        assert [c.kind for c in holders] == [ChunkKind.FIGURE_PART] * len(holders)
        assert holders[0].start <= start and holders[-1].end == end and len(holders) > 1
        repeated = {c.prefix for c in holders[1:]}
        assert len(repeated) == 1 and len({c.heading_path for c in holders}) == 1
        path_line = holders[0].prefix
        assert repeated in ({path_line}, {path_line + block.caption + "\n\n"})
        spans = [markdown[max(c.start, start) : min(c.end, end)] for c in holders]
        assert " ".join(spans).split() == markdown[start:end].split(), "no word lost or repeated"


@common
@given(documents(), st.integers(24, 120), st.integers(0, 2))
def test_headings_travel_with_text_and_overlap_stays_inside_paragraphs(
    generated: Generated, max_tokens: int, overlap: int
) -> None:
    chunks = split_words(generated, max_tokens, overlap_sentences=overlap)
    for chunk in chunks[:-1]:
        if HEADING_LINE_RE.search(chunk.body.rstrip()):  # only when headings fill the limit
            assert not PAGE_MARKER_RE.sub("", HEADINGS_RE.sub("", chunk.body)).strip()
    for before, after in zip(chunks, chunks[1:], strict=False):
        if after.start < before.end:
            assert overlap > 0
            assert before.kind is after.kind is ChunkKind.WINDOW
            assert "\n\n" not in generated.markdown[after.start : before.end]


@common
@given(documents(), st.integers(24, 120), st.integers(0, 60))
def test_min_tokens_never_merges_across_h2_and_ids_are_deterministic(
    generated: Generated, max_tokens: int, min_tokens: int
) -> None:
    min_tokens = min(min_tokens, max_tokens)
    first = split_words(generated, max_tokens, min_tokens=min_tokens)
    second = split_words(generated, max_tokens, min_tokens=min_tokens)
    assert first == second
    assert len({c.id for c in first}) == len(first)
    for chunk in first:
        for match in re.finditer(r"\n {0,3}#{1,2} ", chunk.body):
            before = PAGE_MARKER_RE.sub("", HEADINGS_RE.sub("", chunk.body[: match.start()]))
            assert not before.strip(), "an H1/H2 starts a chunk, after headings only"
        assert chunk.tokens <= max_tokens or chunk.oversize


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.integers(40, 200))
def test_cl100k_tokens_are_exact_and_within_the_limit(
    generated: Generated, max_tokens: int
) -> None:
    count = tiktoken_counter("cl100k_base")
    chunks = split_markdown(generated.markdown, SplitOptions(max_tokens=max_tokens))
    for chunk in chunks:
        assert chunk.tokens == count(chunk.text)
        assert chunk.tokens <= max_tokens or chunk.oversize
    assert uncovered_text(generated.markdown, chunks) == ""

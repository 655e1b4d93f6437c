"""The check's per-document measures computed in one pass give what the per-item loops gave.

(Issue 15, class 5: a loop over all lines per heading and over all chunks per heading made check
quadratic on documents of many headings; the speed itself is measured by
bench/fuzz/markdown_speed.py, not here.)
"""

from __future__ import annotations

import bisect
import re
from array import array
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkcli.charclasses import ASCII_WHITESPACE_CHARS, WHITESPACE_CHARS, count_whitespace
from chunkcli.check.boilerplate import has_letters
from chunkcli.check.chunks import (
    DEDUPLICATE_MIN_STARTS,
    SAMPLE_EVERY,
    SHINGLE_CHARS,
    line_locator,
    normal_text,
    shingle_sample,
)
from chunkcli.check.options import FindingLimits
from chunkcli.check.pages import WINDOW_CHARS, alnum_count, window_bounds
from chunkcli.check.reading_order import (
    BROKEN_WORD_END,
    CONTINUATION_START,
    DANGLING_END,
    DANGLING_MIN_WORDS,
    PROSE_MIN_LETTER_SHARE,
    SENTENCE_END,
    broken_words,
    continuation_on_page,
    find_interruptions,
    is_continuation,
)
from chunkcli.check.scan import (
    LineKind,
    LineView,
    Paragraph,
    ScannedMarkdown,
    scan_markdown,
)
from chunkcli.check.titles import own_text_chars, path_counts
from chunkcli.check.word_boundaries import (
    PROSE_KINDS,
    check_word_boundaries,
    glued_hangul,
    hyphenated_words,
)
from chunkcli.check.wording import examples, quote
from chunkcli.markdown_format import PAGE_MARKER_RE, ocr_confidences, parse_page_marker
from chunkcli.model import Issue, Severity
from chunkcli.split import split_markdown


def test_own_text_chars_counts_the_text_up_to_the_next_heading() -> None:
    markdown = "# Title\n\nabc\n\n## Empty\n\n## Part\n\n- item\n\nText\n===\n\nxy\n"
    scan = scan_markdown(markdown)
    assert [own_text_chars(scan, k) for k in range(len(scan.headings))] == [3, 0, 6, 2]


def test_path_counts_count_each_chunk_once_per_heading() -> None:
    chunk = split_markdown("# T\n\ntext\n")[0]
    paths = [("T", "A"), ("T", "A", "A"), ("T", "B")]
    chunks = [replace(chunk, heading_path=path) for path in paths]
    assert path_counts(chunks) == {"T": 3, "A": 2, "B": 1}


def _sample_one_by_one(text: str) -> frozenset[str]:
    """The definition: every shingle whose first code point is divisible by SAMPLE_EVERY."""
    normal = "".join(ch for ch in text.casefold() if ch.isalnum())
    return frozenset(
        normal[i : i + SHINGLE_CHARS]
        for i in range(len(normal) - SHINGLE_CHARS + 1)
        if ord(normal[i]) % SAMPLE_EVERY == 0
    )


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("abcdeXYZ01 ,日本語한국\U0001f600ß"), min_size=80))
def test_shingle_sample_takes_the_shingles_of_the_definition(text: str) -> None:
    if len("".join(ch for ch in text.casefold() if ch.isalnum())) >= 80:
        assert shingle_sample(text) == _sample_one_by_one(text)


def test_shingle_sample_reads_lone_surrogates() -> None:
    text = "a\ud800" * 100
    assert shingle_sample(text) == _sample_one_by_one(text)


def test_has_letters_stops_at_enough() -> None:
    assert [has_letters(text, 4) for text in ("ab1cd", "ab 12 c", "", "日本語です")] == [
        True,
        False,
        False,
        True,
    ]


CHECK_LINES = (
    "Plain text.",
    "1. one",
    "１. full-width",
    "\u3000indented",
    "\u3000",
    " ",
    "- item",
    "* item",
    "+ item",
    "# Heading",
    "Title",
    "===",
    "---",
    "> quote",
    "```",
    "~~~",
    "| a | b |",
    "|---|---|",
    "a | b",
    "<!-- page 2 -->",
    "<!-- note -->",
    "    code",
    "text with | pipe",
    "２０２４年",
    "\tTab",
    "\xa0nbsp",
    "*emph*",
    "",
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CHECK_LINES), max_size=30))
def test_scanner_fast_lines_read_as_the_full_tests(lines: list[str]) -> None:
    markdown = "\n".join(lines)
    assert scan_markdown(markdown) == scan_markdown(markdown, fast_lines=False)


def test_whitespace_chars_are_every_character_str_isspace_reads() -> None:
    assert set(WHITESPACE_CHARS) == {chr(i) for i in range(0x110000) if chr(i).isspace()}
    assert set(ASCII_WHITESPACE_CHARS) == {c for c in WHITESPACE_CHARS if c.isascii()}


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab1 \t\n\x1c\xa0\u3000\u2028é日(cid:7)_"), max_size=60))
def test_counts_without_lists_match_the_findall_counts(text: str) -> None:
    assert count_whitespace(text) == len(re.findall(r"\s", text))
    letters = len(re.findall(r"[^\W_]", re.sub(r"\(cid:\d+\)", "", text)))
    assert alnum_count(text) == letters
    assert alnum_count(text, 3) == letters if letters < 3 else alnum_count(text, 3) >= 3


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("abcXY01 ,._-\n"), min_size=80))
def test_shingle_sample_of_ascii_text_takes_the_shingles_of_the_definition(text: str) -> None:
    assert normal_text(text) == re.sub(r"[\W_]+", "", text.casefold())
    if len(normal_text(text)) >= 80:
        assert shingle_sample(text) == _sample_one_by_one(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab\n日\ud800"), max_size=40), st.integers(-2, 45))
def test_line_locator_counts_the_newlines_before_the_offset(text: str, offset: int) -> None:
    starts = [0] + [m.end() for m in re.finditer("\n", text)]  # the former list of line starts
    assert line_locator(text)(offset) == bisect.bisect_right(starts, offset)


WORD_LINES = (
    "ex-periment here",
    "experiment",
    "co-operate",
    "cooperate",
    "pre-defined",
    "re-use",
    "reuse",
    "# Heading ab-cd",
    "abcd",
    "> quoted ma-ny",
    "many",
    "- item xy-zz",
    "xyzz",
    "",
    "한국어를정말로띄어쓰기없이길게이어서쓴문장",
    "밀폐공간으로유입을방지할것",
    "밀폐 공간으로 유입을 방지할 것",
    "```",
    "code ab-cd",
    "Title-ish",
    "===",
    "| ta-ble | b |",
    "|---|---|",
    "<!-- page 2 -->",
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORD_LINES), max_size=40))
def test_word_boundaries_searched_in_the_markdown_first_find_what_the_lines_give(
    lines: list[str],
) -> None:
    scan = scan_markdown("\n".join(lines))
    limits = FindingLimits(hyphenated_min=2)
    rows = array("q", [line.number - 1 for line in scan.lines if line.kind in PROSE_KINDS])
    prose = LineView(scan.index, rows)
    assert list(prose) == list(scan.lines.only(PROSE_KINDS))
    expected = glued_hangul(prose) + hyphenated_words(prose, limits)
    assert check_word_boundaries(scan, limits) == expected


def _interruptions_by_position(scan: ScannedMarkdown) -> list[tuple[int, int]]:
    """The former find_interruptions: a dict of every line's position, paragraphs by line,
    word counts of whole texts, a list of visible characters."""

    def dangling(p: Paragraph) -> bool:
        text = p.text.rstrip()
        return len(text.split()) >= DANGLING_MIN_WORDS and bool(DANGLING_END.search(text))

    def prose(p: Paragraph) -> bool:
        text = p.text.strip()
        visible = [char for char in text if not char.isspace()]
        letters = sum(1 for char in visible if char.isalpha())
        return (
            len(text.split()) >= DANGLING_MIN_WORDS
            and letters >= PROSE_MIN_LETTER_SHARE * len(visible)
            and bool(SENTENCE_END.search(text))
        )

    position = {line.number: index for index, line in enumerate(scan.lines)}
    paragraph_at = {p.line: p for p in scan.paragraphs}
    found = []
    for index, paragraph in enumerate(scan.paragraphs[:-1]):
        if not dangling(paragraph):
            continue
        after = position[paragraph.lines[-1].number] + 1
        following = paragraph_at.get(scan.lines[after].number) if after < len(scan.lines) else None
        if following is None or following.page != paragraph.page:
            continue
        if is_continuation(following.text) or not prose(following):
            continue
        continuation = continuation_on_page(scan.paragraphs, index)
        if continuation is not None:
            found.append((paragraph.line, continuation.line))
    return found


READING_LINES = (
    "This paragraph stops in the middle of a long sentence and",
    "",
    "A complete paragraph of prose that ends a sentence properly here.",
    "",
    "continues the sentence that was cut off above it today",
    ">",
    "> quoted text goes on and",
    "- item",
    "# Heading",
    "Title",
    "===",
    "<!-- page 2 -->",
    "12 34 56 78 90 11.",
    "broken-",
    "word continues",
    "ex-",
    "ample text",
    "```",
    "| a | b |",
    "|---|---|",
    "\u3000",
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(READING_LINES), max_size=40))
def test_interruptions_found_by_bisection_are_those_of_the_position_dict(lines: list[str]) -> None:
    scan = scan_markdown("\n".join(lines))
    found = [(i.paragraph.line, i.continuation.line) for i in find_interruptions(scan)]
    assert found == _interruptions_by_position(scan)
    assert broken_words(scan.paragraphs, FindingLimits(broken_words_min=1)) == (
        _broken_words_one_regex_a_line(scan)
    )


def _broken_words_one_regex_a_line(scan: ScannedMarkdown) -> list[Issue]:
    found, first = [], None
    for paragraph in scan.paragraphs:
        for line, following in zip(paragraph.lines, paragraph.lines[1:], strict=False):
            end, start = line.text.rstrip(), following.text.lstrip()
            if BROKEN_WORD_END.search(end) and CONTINUATION_START.match(start):
                found.append(
                    f"{quote(end.split()[-1] + ' ' + start.split()[0], 40)} (line {line.number})"
                )
                first = first or (line.number, line.page)
    if not found or first is None:
        return []
    return [Issue("reading-order.broken-words", Severity.WARN,
                  f"{len(found)} words are broken across lines with a hyphen and were not joined: "
                  f"{examples(found)}", line=first[0], page=first[1])]  # fmt: skip


def test_shingle_sample_of_long_repetitive_text_deduplicates_to_the_definition() -> None:
    texts = ["x" * 6000, "ab日" * 3000, "".join(chr(0x61 + (i * i) % 23) for i in range(9000))]
    for text in texts:
        assert len(text) // SAMPLE_EVERY >= DEDUPLICATE_MIN_STARTS or text.startswith("ab")
        assert shingle_sample(text) == _sample_one_by_one(text)


def windows_one_by_one(texts: list[str]) -> list[tuple[int, int]]:
    """The definition: a window closes before the line that finds it at WINDOW_CHARS or more."""
    bounds, start, size = [], 0, 0
    for index, text in enumerate(texts):
        if size >= WINDOW_CHARS:
            bounds.append((start, index))
            start, size = index, 0
        size += len(text)
    return bounds + ([(start, len(texts))] if texts else [])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=2 * WINDOW_CHARS), max_size=40))
def test_windows_by_bisection_are_the_windows_of_the_definition(sizes: list[int]) -> None:
    texts = ["x" * size for size in sizes]
    assert window_bounds(texts) == windows_one_by_one(texts)


def _ocr_confidences_of_every_marker(markdown: str) -> dict[int, float]:
    found = {}
    for match in PAGE_MARKER_RE.finditer(markdown):
        marker = parse_page_marker(match.group(0))
        if marker is not None and marker.ocr_confidence is not None:
            found[marker.number] = marker.ocr_confidence
    return found


MARKER_PARTS = (
    "<!-- page 3 -->",
    "<!-- page 4: ocr conf=0.91 -->",
    "<!-- PAGE 5 : OCR confidence=0.5 -->",
    "<!-- page 6: blank -->",
    "<!-- page 7: ocr -->",
    "<!-- page 8:ocr conf=1 engine=x -->",
    "<!-- page 9: damaged, ocr conf=0.2 -->",
    "text",
    "\n",
    ">",
    " ",
    "<!-- page 1 (draft",
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(MARKER_PARTS), max_size=20))
def test_ocr_confidences_read_only_ocr_markers_as_every_marker_read(parts: list[str]) -> None:
    markdown = "".join(parts)
    assert ocr_confidences(markdown) == _ocr_confidences_of_every_marker(markdown)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CHECK_LINES), max_size=30))
def test_scanned_lines_agree_with_their_records(lines: list[str]) -> None:
    """Each heading is the line its row names; paragraphs are runs of paragraph lines; the
    records made in batches, one at a time and the texts alone say the same."""
    scan = scan_markdown("\n".join(lines))
    assert [scan.lines[row] for row in scan.heading_rows] == list(scan.headings)
    assert [scan.lines.kind(k) for k in range(len(scan.lines))] == [
        line.kind for line in scan.lines
    ]
    assert [line.text for line in scan.lines] == scan.lines.texts()
    assert list(scan.lines) == [scan.lines[k] for k in range(len(scan.lines))]
    for paragraph in scan.paragraphs:
        assert {line.kind for line in paragraph.lines} == {LineKind.PARAGRAPH}
        assert paragraph.last_line == paragraph.lines[-1].number

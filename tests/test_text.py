"""convert/joining.py: line joins (hyphenation decided with a word list, CJK and Hangul joins)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest

from chunkcli.charclasses import fold_ideograph_variants, is_cjk
from chunkcli.convert.extract.wordgaps import with_gap_spaces
from chunkcli.convert.joining import (
    clean_line,
    close_letter_spacing,
    hangul_word_prefixes,
    join_lines,
)
from chunkcli.convert.pipeline import convert_pdf
from chunkcli.markdown_format import without_boxes
from tests.pdf_factory import Text, make_pdf, remap_cjk_unicode, text_width


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["an ex-", "periment"], "an experiment"),
        (["multi-", "ple runs"], "multiple runs"),
        (["infor-", "mation"], "information"),
        (["tokeni-", "zation"], "tokenization"),  # rare word, halves are no words: joined
        (["self-", "aware"], "self-aware"),
        (["his ex-", "wife"], "his ex-wife"),
        (["state-of-the-", "art"], "state-of-the-art"),
        (["a dual-", "encoder model"], "a dual-encoder model"),
        (["an x-", "ray image"], "an x-ray image"),
        (["Lucene-", "BM25"], "Lucene-BM25"),
    ],
)
def test_end_of_line_hyphenation_is_decided_with_a_word_list(lines: list[str], joined: str) -> None:
    assert join_lines(lines) == joined


# --- Korean word spaces drawn only as glyph gaps, and line breaks inside Korean words ----------

SENTENCE = "대표할 수 있는 대통령령으로 정하는 사람을 위원으로 위촉한다"


def gap_spaced_line(y: float, sentence: str, size: float = 12.0) -> list[Text]:
    """Every word placed on its own, half a font size apart, with no space character (as HWP
    exports write Korean)."""
    x, items = 50.0, []
    for word in sentence.split():
        items.append(Text(x, y, word, size=size, cjk=True))
        x += text_width(word, size, cjk=True) + 0.5 * size
    return items


def test_korean_word_spaces_that_are_only_glyph_gaps_become_spaces(tmp_path: Path) -> None:
    items = [item for i in range(4) for item in gap_spaced_line(100 + 40 * i, SENTENCE)]
    pdf = make_pdf(tmp_path / "ko.pdf", [items])
    assert pymupdf.open(pdf)[0].get_text().splitlines()[0] == SENTENCE.replace(" ", "")
    markdown = without_boxes(convert_pdf(pdf).markdown)
    text = markdown[markdown.index("<!-- page 1 -->") :]  # after the provenance comment
    assert text == "<!-- page 1 -->\n\n" + "\n\n".join([SENTENCE] * 4) + "\n"


def test_one_gap_spaced_passage_on_a_page_with_spaces_gets_its_spaces(tmp_path: Path) -> None:
    """Most lines write their spaces; one line draws them only as gaps (a table cell, a passage
    pasted from another program): its run of syllables is longer than any word."""
    spaced = [Text(50, 100 + 40 * i, SENTENCE, size=12, cjk=True) for i in range(6)]
    items = [*spaced, *gap_spaced_line(400, SENTENCE)]
    markdown = without_boxes(convert_pdf(make_pdf(tmp_path / "ko.pdf", [items])).markdown)
    text = markdown[markdown.index("<!-- page 1 -->") :]
    assert text == "<!-- page 1 -->\n\n" + "\n\n".join([SENTENCE] * 7) + "\n"


def test_korean_text_with_its_own_spaces_is_left_alone(tmp_path: Path) -> None:
    lines = [Text(50, 100 + 40 * i, SENTENCE, size=12, cjk=True) for i in range(4)]
    markdown = without_boxes(convert_pdf(make_pdf(tmp_path / "ko.pdf", [lines])).markdown)
    text = markdown[markdown.index("<!-- page 1 -->") :]
    assert text == "<!-- page 1 -->\n\n" + "\n\n".join([SENTENCE] * 4) + "\n"


def test_a_break_inside_a_korean_word_the_document_writes_elsewhere_gets_no_space() -> None:
    words = hangul_word_prefixes("여성, 노동자, 중소상공인 등 다양한") | hangul_word_prefixes(
        "이 위원회가 탄소중립위원회 등을 구성"
    )
    joined = join_lines(["농어민, 중소상", "공인, 시민사회단체"], words)
    assert joined == "농어민, 중소상공인, 시민사회단체"
    assert join_lines(["제2기 탄소중립위원", "회가 출범"], words) == "제2기 탄소중립위원회가 출범"
    assert join_lines(["한국어", "문장"], words) == "한국어 문장"  # a break between words
    assert join_lines(["농어민, 중소상", "공인"]) == "농어민, 중소상 공인"  # no evidence: a space


def test_hangul_word_prefixes_leave_out_the_cut_edges_of_a_line() -> None:
    assert hangul_word_prefixes("중소상 공인이 등") == frozenset({"공인", "공인이"})
    assert hangul_word_prefixes("no Korean here") == frozenset()


def test_is_cjk_at_the_edges_of_the_no_space_ranges() -> None:
    chars = ["a", "é", "\u2e7f", "\u2e80", "\u3000", "日", "ｱ", "한", "\U00020000", "\U00040000"]
    assert [is_cjk(c) for c in chars] == [
        False,
        False,
        False,
        True,
        True,
        True,
        True,
        False,
        True,
        False,
    ]


# --- ideograph look-alikes from fonts' Unicode maps ---------------------------------------------


def test_radical_and_compatibility_look_alikes_fold_to_the_unified_ideograph() -> None:
    # Kangxi 用, radicals supplement 長 (no decomposition: Unicode's equivalent ideograph),
    # compatibility 利 (BMP) and 凵 (supplement plane): each one code point for one.
    assert fold_ideograph_variants("\u2f64\u2ed1\uf9dd\U0002f81d") == "用長利\u51f5"
    # 﨑 is a unified ideograph in the compatibility block; full-width forms are the text's own.
    assert fold_ideograph_variants("\ufa11 １２３（Ａ）") == "\ufa11 １２３（Ａ）"


def test_a_font_that_maps_ideographs_to_radicals_gives_the_ideographs(tmp_path: Path) -> None:
    line = Text(50, 100, "利用者の長期計画、１２３件", cjk=True)
    pdf = make_pdf(tmp_path / "kangxi.pdf", [[line]])
    remap_cjk_unicode(pdf, {"用": "\u2f64", "長": "\u2ed1", "利": "\uf9dd"})
    assert pymupdf.open(pdf)[0].get_text().strip() == "\uf9dd\u2f64者の\u2ed1期計画、１２３件"
    assert without_boxes(convert_pdf(pdf).markdown).endswith("\n利用者の長期計画、１２３件\n")


@pytest.mark.parametrize(
    ("text", "closed"),
    [
        ("経 済 産 業 省", "経済産業省"),  # a letterhead spread over a width
        ("## 調 査 の 概 要", "## 調査の概要"),
        ("本\u3000文", "本文"),
        ("世\u3000帯\u3000構\u3000造 世\u3000帯\u3000類\u3000型", "世帯構造 世帯類型"),  # two words
        ("太田 雄彦", "太田 雄彦"),  # words of two letters keep their space
        ("第２表 性・年齢階級", "第２表 性・年齢階級"),  # a number's word, then the next word
        ("第 1 章", "第 1 章"),
        ("대한 민국 의 법", "대한 민국 의 법"),  # Korean has one-syllable words
        ("H ACCP", "H ACCP"),
    ],
)
def test_letter_spaced_japanese_is_closed_up(text: str, closed: str) -> None:
    assert close_letter_spacing(text) == closed


def test_a_spaced_dot_leader_is_written_as_its_dots() -> None:
    assert clean_line("Foreword to the 2021 Edition. . . . . . . xi") == (
        "Foreword to the 2021 Edition....... xi"
    )
    assert clean_line("Id. . . at 5") == "Id. . . at 5"  # three spaced dots: an ellipsis


def test_the_word_list_is_read_as_wordfreq_reads_it() -> None:
    """zipf reads wordfreq's English list itself (without importing wordfreq): the same
    values as wordfreq for the words of the hyphenation decisions, other words and none,
    down to the least value those decisions ask about (rarer words read as none)."""
    import wordfreq

    from chunkcli.convert.joining import LEAST_ZIPF_ASKED, WORD_LIST, zipf

    words = ["experiment", "multiple", "information", "nonlinear", "antibody", "selfaware",
             "exwife", "xray", "dualencoder", "dual", "encoder", "ple", "tokenization", "the",
             "a", "zyzzyva", "qqqqzx", "aardvark", "supercalifragilistic"]  # fmt: skip
    listed = [wordfreq.zipf_frequency(w, "en", wordlist=WORD_LIST) for w in words]
    assert [zipf(w) for w in words] == [z if z >= LEAST_ZIPF_ASKED else 0.0 for z in listed]
    assert listed[:8] == [4.38, 4.92, 5.43, 3.27, 3.46, 0.0, 1.36, 2.42]  # (joining.py's evidence)
    assert (LEAST_ZIPF_ASKED, zipf("encoder"), zipf("ple"), zipf("xray")) == (2.5, 2.68, 2.69, 0.0)


def _raw_line(
    words: list[str], letter_gap: float, word_gap: float, size: float = 10.0
) -> dict[str, Any]:
    """A rawdict line: each word a span of glyphs `size` wide, `letter_gap` em apart inside a
    word and `word_gap` em apart between words."""
    spans, x = [], 50.0
    for word in words:
        chars = []
        for char in word:
            chars.append({"c": char, "bbox": (x, 100.0, x + size, 100.0 + size)})
            x += size + letter_gap * size
        x += (word_gap - letter_gap) * size
        spans.append({"size": size, "chars": chars, "text": word})
    return {"spans": spans}


def _spaced(line: dict[str, Any]) -> str:
    page = with_gap_spaces({"blocks": [{"lines": [line]}]})
    return "".join(span["text"] for span in page["blocks"][0]["lines"][0]["spans"])


def test_word_gaps_between_spans_become_spaces() -> None:
    # A National Assembly record cuts its lines into spans at the word gaps (0.58 em).
    assert _spaced(_raw_line(["노조를", "억압하고", "줄세우기에"], 0.0, 0.58)) == (
        "노조를 억압하고 줄세우기에"
    )


def test_word_gaps_are_measured_against_the_lines_letter_gap() -> None:
    # A condensed table cell: letters overlap by 0.18 em, words stand 0.23 em apart (under
    # GAP_EM, but 0.41 em wider than the letters' gap).
    assert _spaced(_raw_line(["문서", "본문으로", "작성한", "행정용어를"], -0.18, 0.23)) == (
        "문서 본문으로 작성한 행정용어를"
    )
    # A label spaced out letter by letter ("국 회 사 무 처") is one word.
    assert _spaced(_raw_line(list("국회사무처"), 0.5, 0.5)) == "국회사무처"

"""Right-to-left lines (extract/bidi.py): glyphs in visual order -> text in reading order."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from pdf_factory import RtlText, rtl_glyphs

from chunkcli.convert.extract.bidi import is_rtl_text, logical_line, resolved_levels, visual_rawdict
from chunkcli.model import BBox, Line, Span

BOX = BBox(0, 0, 100, 12)


def read(visual: str, rtl_page: bool = True) -> str:
    return logical_line(Line((Span(visual, BOX),), BOX), rtl_page).text


def visual_of(runs: tuple[tuple[str, bool], ...]) -> str:
    """The line as a renderer lays it out (tests/pdf_factory.py), read left to right."""
    return "".join(char for _, char in sorted(rtl_glyphs(RtlText(500, 100, runs))))


def test_arabic_word_reversed_back() -> None:
    assert read("ابحرم") == "مرحبا"


def test_digits_and_latin_stay_left_to_right_inside_arabic() -> None:
    runs = (
        ("سجل المشغلون ", True),
        ("1,250", False),
        (" عملية في عام ", True),
        ("2024", False),
        (" وفق معيار ", True),
        ("ISO 9001", False),
        (" المعتمد.", True),
    )
    visual = visual_of(runs)
    assert visual == ".دمتعملا ISO 9001 رايعم قفو 2024 ماع يف ةيلمع 1,250 نولغشملا لجس"
    assert read(visual) == "سجل المشغلون 1,250 عملية في عام 2024 وفق معيار ISO 9001 المعتمد."


def test_brackets_of_a_right_to_left_run_are_mirrored_back() -> None:
    runs = (("تفاصيل (انظر الجدول ", True), ("3", False), (")", True))
    assert read(visual_of(runs)) == "تفاصيل (انظر الجدول 3)"


def test_hebrew() -> None:
    runs = (("הצוות בדק ", True), ("12", False), (" יחידות.", True))
    assert read(visual_of(runs)) == "הצוות בדק 12 יחידות."


def test_arabic_word_inside_an_english_line_is_the_only_reversed_part() -> None:
    assert read("The word ابحرم means hello.", rtl_page=False) == "The word مرحبا means hello."


def test_line_of_both_directions_takes_the_page_direction() -> None:
    # "انظر Journal of Statistics": an Arabic sentence citing a journal on an Arabic page.
    visual = "Journal of Statistics رظنا"
    assert read(visual, rtl_page=True) == "انظر Journal of Statistics"
    assert read(visual, rtl_page=False) == "Journal of Statistics انظر"


def test_line_without_rtl_letters_is_the_same_object() -> None:
    line = Line((Span("Plain (text) 12", BOX),), BOX)
    assert logical_line(line, True) is line


def test_presentation_forms_become_letters() -> None:
    # ﻡﺭﺣﺒﺎ: the shaped glyph codes of "مرحبا" in visual order; ﻻ is lam + alef.
    assert read("\ufe8e\ufe92\ufea3\ufead\ufee1") == "مرحبا"
    assert read("\ufefb") == "لا"


def test_levels_of_a_mixed_line() -> None:
    # Arabic at level 1, the number at 2, the space between them at the paragraph's level 1.
    assert resolved_levels("12 با", True) == [2, 2, 1, 1, 1]
    assert resolved_levels("ab با", False) == [0, 0, 0, 1, 1]


def test_page_direction_counts_strong_letters() -> None:
    assert is_rtl_text("مرحبا بالعالم ABC 2024")
    assert not is_rtl_text("The word مرحبا means hello")
    assert not is_rtl_text("2024 ...")


def _char(c: str, x0: float, x1: float, span: dict[str, Any]) -> dict[str, Any]:
    return {"c": c, "bbox": (x0, 0.0, x1, 12.0), "origin": (x0, 10.0)}


def _rawdict(*lines: list[tuple[str, float, float]]) -> dict[str, Any]:
    style = {"font": "NotoNaskhArabic", "size": 12.0, "flags": 0}
    return {
        "blocks": [
            {
                "lines": [
                    {
                        "dir": (1.0, 0.0),
                        "spans": [dict(style, chars=[_char(c, a, b, style) for c, a, b in ln])],
                    }
                    for ln in lines
                ]
            }
        ]
    }


def _spans(page: dict[str, Any]) -> list[str]:
    return [s["text"] for b in page["blocks"] for ln in b["lines"] for s in ln["spans"]]


def test_ligature_letters_and_marks_keep_their_place() -> None:
    # As MuPDF spells them: lam-alef as lam (the glyph's box) and alef (no width at its right
    # edge), in MuPDF's own order; a fatha (U+064E) over the beh; glyphs out of visual order.
    page = _rawdict(
        [
            ("ا", 30.0, 30.0),
            ("ل", 22.0, 30.0),
            ("ع", 12.0, 22.0),
            ("\u064e", 4.0, 8.0),
            ("ب", 2.0, 12.0),
        ]
    )
    (visual,) = _spans(visual_rawdict(page))
    assert visual == "ب\u064eعال"
    assert read(visual) == "لاعب\u064e"


def test_pieces_of_one_baseline_are_joined_in_visual_order() -> None:
    # Drawn in reading order, MuPDF cuts the line at each jump left: "مر 2024" | " في".
    page = _rawdict(
        [
            ("م", 90.0, 100.0),
            ("ر", 80.0, 90.0),
            (" ", 76.0, 80.0),
            ("2", 60.0, 64.0),
            ("0", 64.0, 68.0),
            ("2", 68.0, 72.0),
            ("4", 72.0, 76.0),
        ],
        [(" ", 56.0, 60.0), ("ف", 50.0, 56.0), ("ي", 44.0, 50.0)],
    )
    assert "".join(_spans(visual_rawdict(page))) == "يف 2024 رم"
    assert read("يف 2024 رم") == "مر 2024 في"


ARABIC_WORDS = st.sampled_from(["مرحبا", "بالعالم", "في", "عام", "سجل", "الصيانة", "تقرير"])
LATIN = st.sampled_from(["ISO", "TC-200", "Tel Aviv", "ABC def", "ISO 9001"])
NUMBERS = st.sampled_from(["3", "2024", "1,250", "12.5"])


@given(
    st.lists(
        st.tuples(st.lists(ARABIC_WORDS, min_size=1, max_size=3), st.one_of(LATIN, NUMBERS)),
        min_size=1,
        max_size=4,
    ),
    st.lists(ARABIC_WORDS, min_size=1, max_size=2),
)
def test_any_arabic_line_with_latin_and_digits_reads_back(
    groups: list[tuple[list[str], str]], tail: list[str]
) -> None:
    runs: list[tuple[str, bool]] = []
    for words, ltr in groups:
        runs += [(("" if not runs else " ") + " ".join(words) + " ", True), (ltr, False)]
    runs.append((" " + " ".join(tail) + ".", True))
    assert read(visual_of(tuple(runs))) == "".join(text for text, _ in runs)

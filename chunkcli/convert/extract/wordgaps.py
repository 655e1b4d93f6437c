"""Word spaces that a PDF draws only as glyph gaps -> space characters (Korean HWP exports).

Korean separates words with spaces, but some producers (HWP exports to PDF) position every
syllable and write no space character: MuPDF then reads "대표할수있는대통령령으로" for
"대표할 수 있는 대통령령으로" (one real document lost 598 of its 2,848 spaces). A page whose Hangul
text has (nearly) no spaces is read again with character boxes, and a gap between two glyphs,
one of them Hangul, wider than GAP_EM font sizes becomes a space.
"""

from __future__ import annotations

import re
import statistics
from typing import Any

from chunkcli.charclasses import HANGUL_SYLLABLE_CLASS

HANGUL = re.compile(f"[{HANGUL_SYLLABLE_CLASS}]")
HANGUL_FIRST, HANGUL_LAST = HANGUL_SYLLABLE_CLASS.split("-")  # the range, for one character
SPACED_HANGUL = re.compile(f"[{HANGUL_SYLLABLE_CLASS}] [{HANGUL_SYLLABLE_CLASS}]")
# A page is read for gap spaces with at least this many Hangul syllables and fewer than this
# share of them followed by a space and another syllable. On the corpus: the two HWP exports
# 0.000; Korean documents that write their spaces 0.142-0.240 (first five pages).
MIN_HANGUL = 50
MAX_SPACED_SHARE = 0.03
# A run of this many Hangul syllables with no space is words glued together: the longest
# compound noun in the corpora has 14 syllables (check's glued-Hangul measure, the same
# evidence); on three corpus PDFs such runs hold words drawn 0.4-0.5 em apart.
GLUED_RUN = re.compile(f"[{HANGUL_SYLLABLE_CLASS}]{{15,}}")
# A gap between glyphs at least this many font sizes wider than the line's letter gap (the
# median gap) is a word space: on the HWP exports word gaps measure 0.49-0.54 em, gaps inside
# words -0.01 to 0.02 em; a condensed table cell of a proposal sets its letters -0.18 em apart
# and its words 0.23 em.
GAP_EM = 0.25


def page_text(page_dict: dict[str, Any]) -> str:
    """The text of every span of a `get_text("dict")` page, run together."""
    return "".join(  # (a list, not a generator: join makes one anyway)
        [
            span["text"]
            for block in page_dict["blocks"]
            for line in block.get("lines", ())
            for span in line["spans"]
        ]
    )


def lacks_word_spaces(text: str) -> bool:
    """Whether the Hangul text of a page (`page_text`) has (nearly) no word spaces, or holds
    a run of syllables longer than any Korean word (a table or a passage of the page written
    without its spaces, where the rest of the page has them)."""
    if text.isascii():
        return False  # (no Hangul: the page's text is not searched twice)
    syllables = len(HANGUL.findall(text))
    if syllables >= MIN_HANGUL and len(SPACED_HANGUL.findall(text)) < MAX_SPACED_SHARE * (
        syllables
    ):
        return True
    return GLUED_RUN.search(text) is not None


def with_gap_spaces(page_rawdict: dict[str, Any]) -> dict[str, Any]:
    """A `get_text("rawdict")` page with every span's `text` set from its characters, a space
    put into each word gap (the dict is changed in place and returned)."""
    for block in page_rawdict["blocks"]:
        for line in block.get("lines", ()):
            _space_line(line["spans"])
    return page_rawdict


def _space_line(spans: list[dict[str, Any]]) -> None:
    """Set each span's text, a space put where a gap next to Hangul is GAP_EM wider than the
    line's own letter gap (its median). Gaps are measured on the whole line: a line cut into
    spans at its word gaps ("노조를" "억압하고" …, a National Assembly record) ran its words
    together; a condensed line (a proposal's table: letters overlapping by 0.18 em, words
    0.23 em apart) was under an absolute threshold."""
    chars = [(char, float(span.get("size", 0.0))) for span in spans for char in span["chars"]]
    gaps = [
        _gap(left, right) / size
        for (left, size), (right, _) in zip(chars, chars[1:], strict=False)
        if size > 0 and _next_to_hangul(left, right)
    ]
    letter_gap = statistics.median_low(gaps) if gaps else 0.0
    previous: dict[str, Any] | None = None
    for span in spans:
        size = float(span.get("size", 0.0))
        pieces: list[str] = []
        for char in span["chars"]:
            if (
                previous is not None
                and _next_to_hangul(previous, char)
                and _gap(previous, char) >= (letter_gap + GAP_EM) * size
            ):
                pieces.append(" ")
            pieces.append(char["c"])
            previous = char
        span["text"] = "".join(pieces)


def _next_to_hangul(left: dict[str, Any], right: dict[str, Any]) -> bool:
    a, b = left["c"], right["c"]
    # (a[:1] in the syllable range is what HANGUL.match(a) finds, without a regex call)
    return not (a.isspace() or b.isspace()) and (_is_syllable(a) or _is_syllable(b))


def _is_syllable(text: str) -> bool:
    """`text` starts with a Hangul syllable (HANGUL.match)."""
    return HANGUL_FIRST <= text[:1] <= HANGUL_LAST


def _gap(left: dict[str, Any], right: dict[str, Any]) -> float:
    return float(right["bbox"][0]) - float(left["bbox"][2])

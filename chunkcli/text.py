"""Joining wrapped lines into paragraph text: CJK-aware, hyphenation repaired.

What is normalised: line breaks inside a paragraph (joined), end-of-line hyphenation
("infor-" + "mation"), runs of spaces inside a line (one space), ligatures (done at extraction).
What is kept verbatim: every other character, including real hyphens, full-width punctuation
and full-width spaces inside a line.
"""

from __future__ import annotations

import re

from chunkcli.charclasses import is_cjk

# Words that keep their hyphen even at a line end because the hyphen is part of the word.
_KEEP_HYPHEN_PREFIXES = frozenset(
    {"e", "x", "self", "non", "co", "well", "state", "high", "low", "long", "short", "real",
     "multi", "cross", "anti", "semi", "all", "ex"}
)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_SPACES = re.compile(r"[ \t\u00a0]+")
_HYPHEN_END = re.compile(r"([A-Za-z]+)[-\u2010]$")
_LEADING_WORD = re.compile(r"[A-Za-z]+")
_COMPOUND = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z]+)+\b")


def clean_line(text: str) -> str:
    """One line's text: control characters dropped, outer whitespace removed, inner space
    runs collapsed."""
    return _SPACES.sub(" ", _CONTROL.sub("", text).strip(" \t\u00a0\r\n"))


def join_lines(lines: list[str], compounds: frozenset[str] = frozenset()) -> str:
    """Join the wrapped lines of one paragraph into a single line of text.

    `compounds` holds lower-case hyphenated words seen inside lines of the document
    ("dual-encoder"); a break after such a word's hyphen keeps the hyphen.
    """
    pieces: list[str] = []
    for raw in lines:
        line = clean_line(raw)
        if not line:
            continue
        if pieces:
            pieces[-1], joiner = _joint(pieces[-1], line, compounds)
            pieces.append(joiner)
        pieces.append(line)
    return "".join(pieces)


def _joint(left: str, right: str, compounds: frozenset[str]) -> tuple[str, str]:
    """(left, possibly without its hyphen; what goes between left and right)."""
    last, first = left[-1], right[0]
    if last == "\u3000" or first == "\u3000":
        return left, ""
    if is_cjk(last) or is_cjk(first):
        # Japanese and Chinese put no space at a break, also next to Latin words or digits.
        return left, ""
    match = _HYPHEN_END.search(left[-64:])
    if match and first.islower():
        word = match.group(1)
        following = _LEADING_WORD.match(right)
        compound = f"{word}-{following.group(0) if following else ''}".lower()
        if word.lower() in _KEEP_HYPHEN_PREFIXES or compound in compounds:
            return left, ""  # "self-" + "aware", "dual-" + "encoder" seen elsewhere
        if _hyphenated_compound(left[-64:]):
            return left, ""  # "state-of-the-" + "art": the hyphen is real
        return left[:-1], ""
    if last in "-\u2010/":
        return left, ""  # "Lucene-" + "BM25", "and/" + "or": no space after a joiner
    return left, " "


def hyphenated_words(text: str) -> frozenset[str]:
    """Lower-case hyphenated compounds that occur inside `text` (not at a line end)."""
    return frozenset(m.group(0).lower() for m in _COMPOUND.finditer(text))


def _hyphenated_compound(left: str) -> bool:
    """'state-of-the-' : the word before the break already contains hyphens."""
    word = left.rsplit(" ", 1)[-1]
    return word.count("-") + word.count("\u2010") > 1

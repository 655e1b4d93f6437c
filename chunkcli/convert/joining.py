"""Joining wrapped lines into paragraph text: CJK-aware, hyphenation repaired.

What is normalised: line breaks inside a paragraph (joined), end-of-line hyphenation
("infor-" + "mation"; decided with wordfreq's English word list), runs of spaces inside a line
(one space), ligatures (done at extraction).
What is kept verbatim: every other character, including real hyphens, full-width punctuation
and full-width spaces inside a line.
"""

from __future__ import annotations

import functools
import math
import re
from pathlib import Path

from chunkcli.charclasses import HANGUL_SYLLABLE_CLASS, is_cjk

# End-of-line hyphenation is decided with wordfreq's English list (Zipf scale: log10 of uses per
# billion words; the data ships inside the wheel, nothing is downloaded). The joined form at or
# above JOINED_WORD_MIN_ZIPF is a word, so the hyphen was the typesetter's: experiment 4.38,
# multiple 4.92, information 5.43, nonlinear 3.27, antibody 3.46. Below it, when both halves are
# words (PART_WORD_MIN_ZIPF) the hyphen is the author's: selfaware 0, exwife 1.36, xray 2.42,
# dualencoder 0 (dual 4.28, encoder 2.68; "ple" of multi-ple is 2.69 but its joined form wins).
# Else ("tokeni-zation": halves no words) the word is just rare and is joined.
JOINED_WORD_MIN_ZIPF = 3.0
PART_WORD_MIN_ZIPF = 2.5
WORD_LIST = "large"  # "small" lacks encoder, ple, tokenization: it cannot tell these apart
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_SPACES = re.compile(r"[ \t\u00a0]+")
_HYPHEN_END = re.compile(r"([A-Za-z]+)[-\u2010]$")
_LEADING_WORD = re.compile(r"[A-Za-z]+")
_COMPOUND = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z]+)+\b")
# Korean words (runs of Hangul syllables). Lines of some documents break inside a word
# ("중소상" + "공인"); a break is joined without a space when the fragment before it plus the
# next syllable starts a word the document writes inside a line (see hangul_word_prefixes).
_HANGUL_RUN = re.compile(f"[{HANGUL_SYLLABLE_CLASS}]+")
_HANGUL_END = re.compile(f"[{HANGUL_SYLLABLE_CLASS}]+$")
# A kanji or kana letter (not punctuation, not Hangul), and two or more of them set singly,
# one and the same space apart, with no letter or digit right before or after the run: a
# letter-spaced word ("第２表 性" is a number's word and the next word; "世　帯 類　型" two words).
_JA_LETTER = "\u3041-\u3096\u30a1-\u30fa\u30fc\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD_CHAR = f"{_JA_LETTER}0-9A-Za-z\uff10-\uff19\uff21-\uff3a\uff41-\uff5a"
_LETTER_SPACED = re.compile(
    f"(?<![{_WORD_CHAR}])[{_JA_LETTER}]([ \u3000])[{_JA_LETTER}](?:\\1[{_JA_LETTER}])*"
    f"(?![{_WORD_CHAR}])"
)
# A dot leader set with a space after each dot (". . . . . 13"), written as the dots alone
# ("..... 13") as most typesetters do: the same leader in half the characters (on DP-Bench's
# contents page the spaced form doubled every entry's length).
_SPACED_LEADER = re.compile(r"(?:\. ){4,}\.")
_SPACE_CHARS = re.compile("[ \u3000]")


def clean_line(text: str) -> str:
    """One line's text: control characters dropped, outer whitespace removed, inner space
    runs collapsed, letter-spaced Japanese closed up."""
    # (both substitutions only where they can change something: this runs for every line)
    line = (text if text.isprintable() else _CONTROL.sub("", text)).strip(" \t\u00a0\r\n")
    if "  " in line or "\t" in line or "\u00a0" in line:
        line = _SPACES.sub(" ", line)
    if ". ." in line:
        line = _SPACED_LEADER.sub(lambda m: m.group().replace(" ", ""), line)
    return close_letter_spacing(line)


def close_letter_spacing(text: str) -> str:
    """Single kanji or kana each set one space apart ("経 済 産 業 省", "本\u3000文": letter
    spacing that centres a short heading over a width, 均等割り付け) written as the word they
    are. Words of two or more letters keep their spaces ("太田 雄彦"); Hangul keeps its word
    spaces (Korean has one-syllable words)."""
    if text.isascii() or (" " not in text and "\u3000" not in text):
        return text  # (most lines: no kanji or kana, or nothing set apart)
    return _LETTER_SPACED.sub(lambda m: _SPACE_CHARS.sub("", m.group()), text)


def join_lines(lines: list[str], compounds: frozenset[str] = frozenset()) -> str:
    """Join the wrapped lines of one paragraph into a single line of text.

    `compounds` holds what the document writes inside lines: lower-case hyphenated words
    ("dual-encoder"; a break after such a word's hyphen keeps the hyphen) and the starts of
    Korean words (a break between Hangul that continues one of them gets no space).
    """
    return join_lines_at(lines, compounds)[0]


def join_lines_at(
    lines: list[str], compounds: frozenset[str] = frozenset()
) -> tuple[str, list[int]]:
    """`join_lines`, and where each line's text starts in the result (a line with no text
    starts at -1): the boxes of a paragraph's lines are tied to its text."""
    pieces: list[str] = []
    ends: list[int] = []  # the index in `pieces` after each line's own piece; 0: none
    for raw in lines:
        line = clean_line(raw)
        if line:
            if pieces:
                pieces[-1], joiner = _joint(pieces[-1], line, compounds)
                pieces.append(joiner)
            pieces.append(line)
        ends.append(len(pieces) if line else 0)
    lengths = [len(piece) for piece in pieces]
    total, sums = 0, [0]
    for length in lengths:
        total += length
        sums.append(total)
    # A line starts after its joiner: at the start of its own piece (the previous line's end
    # includes the space or hyphen repair between them).
    starts = [sums[end - 1] if end else -1 for end in ends]
    return "".join(pieces), starts


def _joint(left: str, right: str, compounds: frozenset[str]) -> tuple[str, str]:
    """(left, possibly without its hyphen; what goes between left and right)."""
    last, first = left[-1], right[0]
    if last == "\u3000" or first == "\u3000":
        return left, ""
    if is_cjk(last) or is_cjk(first):
        # Japanese and Chinese put no space at a break, also next to Latin words or digits.
        return left, ""
    fragment = _HANGUL_END.search(left[-32:]) if _HANGUL_RUN.match(first) else None
    if fragment and fragment.group(0) + first in compounds:
        return left, ""  # "중소상" + "공인": the break is inside a word
    # (a cleaned line never ends in a newline, before which `$` would also match)
    match = _HYPHEN_END.search(left[-64:]) if last in "-\u2010" else None
    if match and first.islower():
        word = match.group(1)
        following = _LEADING_WORD.match(right)
        compound = f"{word}-{following.group(0) if following else ''}".lower()
        if compound in compounds or _hyphenated_compound(left[-64:]):
            return left, ""  # "dual-encoder" seen elsewhere, "state-of-the-" + "art"
        if following and _keeps_hyphen(word.lower(), following.group(0).lower()):
            return left, ""  # "self-" + "aware", "ex-" + "wife"
        return left[:-1], ""
    if last in "-\u2010/":
        return left, ""  # "Lucene-" + "BM25", "and/" + "or": no space after a joiner
    return left, " "


def _keeps_hyphen(first: str, second: str) -> bool:
    """Whether "first-" + "second" at a line break is a hyphenated compound (see WORD_LIST)."""
    if zipf(first + second) >= JOINED_WORD_MIN_ZIPF:
        return False
    return zipf(first) >= PART_WORD_MIN_ZIPF and zipf(second) >= PART_WORD_MIN_ZIPF


@functools.lru_cache(maxsize=4096)
def zipf(word: str) -> float:
    """wordfreq's English Zipf frequency of a lower-case word of ASCII letters, for words at
    least as frequent as LEAST_ZIPF_ASKED (0.0: rarer, or not in the list):
    wordfreq.zipf_frequency(word, "en", wordlist=WORD_LIST), whose words of ASCII letters are
    tokens as they are. Its list is read on first use, which only documents with Latin
    end-of-line hyphens need: read here from wordfreq's data file, 0.09 CPU s against 0.19
    through wordfreq, which imports its tokenizers' modules too (2026-12-04)."""
    band = _english_bands().get(word)
    return 0.0 if band is None else _band_zipf(band)


# The least Zipf frequency the hyphenation decisions tell from none (_keeps_hyphen compares
# with these two only): the words rarer than it, 268k of the list's 321k (Zipf 2.5 is band
# 650 of 800), are not read, nor hashed into the table (0.1 of a document's CPU s, 2026-12-04).
LEAST_ZIPF_ASKED = min(JOINED_WORD_MIN_ZIPF, PART_WORD_MIN_ZIPF)


def _band_zipf(band: int) -> float:
    """The Zipf frequency of a word in band `band` of the list (wordfreq's frequency of a
    word of one token, rounded as wordfreq rounds it: the same values, tests/test_joining)."""
    freq = 1.0 / (1.0 / 10 ** (-band / 100))  # centibels, then one token's 1/f summed
    leading_zeroes = math.floor(-math.log(freq, 10))
    return round(math.log(round(freq, leading_zeroes + 3), 10) + 9, 2)


@functools.lru_cache(maxsize=1)
def _english_bands() -> dict[str, int]:
    """Each word of wordfreq's English WORD_LIST list down to LEAST_ZIPF_ASKED: its frequency
    band (0: the most frequent; a band is a centibel). The list is a gzipped msgpack array: a
    header, then one array of words per band, read (and decompressed) only as far as needed."""
    import gzip
    import importlib.util

    import msgpack  # wordfreq's own dependency

    spec = importlib.util.find_spec("wordfreq")  # found, not imported
    assert spec is not None and spec.submodule_search_locations
    folder = Path(spec.submodule_search_locations[0], "data")
    words: dict[str, int] = {}
    with gzip.open(folder / f"{WORD_LIST}_en.msgpack.gz", "rb") as packed:
        unpacker = msgpack.Unpacker(packed, raw=False)
        bands = unpacker.read_array_header() - 1
        header = unpacker.unpack()
        if header != {"format": "cB", "version": 1}:
            raise ValueError(f"wordfreq's English list has an unknown format: {header!r}")
        for band in range(bands):
            if _band_zipf(band) < LEAST_ZIPF_ASKED:  # (the rarer bands only fall further)
                break
            words.update(dict.fromkeys(unpacker.unpack(), band))
    return words


def hangul_word_prefixes(text: str) -> frozenset[str]:
    """The starts (two syllables or more) of the Korean words inside one line of text; the
    line's first and last word are left out, as a line break may have cut them."""
    if text.isascii() or not _HANGUL_RUN.search(text):
        return frozenset()
    words = _HANGUL_RUN.findall(" ".join(text.split()[1:-1]))
    return frozenset(word[:end] for word in words for end in range(2, len(word) + 1))


def hyphenated_words(text: str) -> frozenset[str]:
    """Lower-case hyphenated compounds that occur inside `text` (not at a line end)."""
    return frozenset(m.group(0).lower() for m in _COMPOUND.finditer(text))


def _hyphenated_compound(left: str) -> bool:
    """'state-of-the-' : the word before the break already contains hyphens."""
    word = left.rsplit(" ", 1)[-1]
    return word.count("-") + word.count("\u2010") > 1

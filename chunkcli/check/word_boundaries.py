"""Text lines -> Issues: Korean words glued together, English words left hyphenated.

Both break the tokens a retriever matches on: a 20-syllable Hangul run is no word anyone
searches for, and `ex-periment` is not `experiment`. Spaced CJK (the opposite) is in pages.py.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict

from chunkcli.charclasses import HANGUL_SYLLABLE_CLASS
from chunkcli.check.options import FindingLimits
from chunkcli.check.scan import LineKind, LineView, ScannedMarkdown, TextLine
from chunkcli.check.wording import examples, pages_phrase, quote
from chunkcli.model import Issue, Severity

# Korean words (with their particles) are rarely longer than about 8 syllables; a run of this
# many without a space is several words glued together ...
# (Syllables only: the compatibility jamo "ㆍ" is the Korean interpunct of word lists,
# 심각도ㆍ전파력ㆍ격리수준ㆍ신고시기 in docling-normal_4pages.pdf, a clean list, not a run.)
# A comma or full stop with no space after it does not part words either ("대학등록금,대중교통,
# 택시" is four words glued): the syllables on both sides count as one run.
GLUED_HANGUL_RUN = re.compile(f"[{HANGUL_SYLLABLE_CLASS}](?:[,.]?[{HANGUL_SYLLABLE_CLASS}]){{14,}}")
# One such run is enough (a glued sentence; FindingLimits.glued_runs_per_page is kept for runs
# that the sentence rule would not take). Evidence, the Hangul runs of the clean conversions of
# ../shared/corpus and DP-Bench (2026-12-03): the longest compound nouns hold 10-14 syllables
# (중증급성호흡기증후군 10, 지방탄소중립녹색성장위원회를 14); every run of 15+ is words glued in
# the PDF's own text layer (헌법재판소장으로부터헌법소원심판 16, 추정가격의상당가격해당입찰가격 15,
# a novel's line of 27 in a font test), none a single word.
GLUED_HANGUL_SENTENCE = GLUED_HANGUL_RUN
# A two-part hyphenated word (not inside a longer chain such as state-of-the-art).
HYPHENATED = re.compile(r"(?<![-\w])([A-Za-z]{2,})-([a-z]{2,})(?![-\w])")
# Kept line-end hyphen, decided per occurrence with wordfreq's English list (Zipf scale): the
# joined form is a word (as convert decides when it joins lines: chunkcli/convert/joining.py) ...
JOINED_WORD_MIN_ZIPF = 3.0
# ... and more common than the rarer half by this margin: a compound's halves are words as
# common as the joined spelling (web-site +0.35, e-mail -0.04, on-line -0.30, co-operate -0.71,
# non-linear -0.85), a broken word's are fragments (de-fined +0.86, import-ant +1.58,
# experi-ment +2.38, infor-mation +3.90). Measured with wordfreq "large", 2026-12-03.
JOINED_MARGIN_ZIPF = 0.5
# A rarer joined word counts too when a half is no word at all (not in the list): borrowi-ngs
# (borrowings 2.77), pneumoco-ccal (2.24); compounds' halves are words or prefixes that the list
# holds (pre, bio, non, co, x). Joined forms below this are unknown: no evidence either way.
RARE_JOINED_MIN_ZIPF = 1.0
WORD_LIST = "large"  # "small" lacks encoder, ple, tokenization
# Kangxi radicals and the CJK radicals supplement: look-alikes of ideographs that some fonts map
# their glyphs to ("⽤" for "用"); a reader types, and a retriever matches, the ideograph.
# (convert folds them: chunkcli.charclasses.fold_ideograph_variants.) One next to a letter or a
# digit is enough ("使⽤", "11⽉4⽇"): radicals stand alone in dictionaries and radical lists,
# next to spaces, punctuation or each other, never inside words.
RADICAL = "[\u2e80-\u2eff\u2f00-\u2fdf]"
RADICAL_IN_TEXT = re.compile(f"(?<=\\w){RADICAL}|{RADICAL}(?=\\w)")
PROSE_KINDS = (LineKind.PARAGRAPH, LineKind.LIST, LineKind.HEADING, LineKind.TABLE)


def check_word_boundaries(
    scan: ScannedMarkdown, limits: FindingLimits = FindingLimits()
) -> list[Issue]:
    # Each line's text is a part of a Markdown line between non-word characters (or such parts
    # joined by spaces), so a run or form in a line is in the Markdown too: without one there
    # (or with too few distinct forms), no line needs reading.
    if scan.text.isascii():
        glued = radicals = False
    else:
        glued = bool(GLUED_HANGUL_RUN.search(scan.text))
        radicals = bool(RADICAL_IN_TEXT.search(scan.text))
    hyphenated = distinct_matches(HYPHENATED, scan.text, limits.hyphenated_min)
    if not (glued or hyphenated or radicals):
        return []
    prose = scan.lines.only(PROSE_KINDS)
    return (
        (glued_hangul(prose, limits) if glued else [])
        + (hyphenated_words(prose, limits) if hyphenated else [])
        + (radical_letters(prose) if radicals else [])
    )


def radical_letters(lines: LineView) -> list[Issue]:
    """Kangxi radicals (and supplement radicals) written inside CJK text, among `lines`."""
    found: list[tuple[TextLine, str]] = []
    for line in lines:
        match = RADICAL_IN_TEXT.search(line.text)
        if match:
            found.append((line, match.group(0)))
    if not found:
        return []
    first = found[0][0]
    shown = [f"{quote(char)} (U+{ord(char):04X}, line {line.number})" for line, char in found]
    return [
        Issue(
            "text.ideograph-variants",
            Severity.WARN,
            f"Kangxi radicals instead of ideographs on {len(found)} line(s) (a font's glyph "
            f"mapping; searches for the ideograph miss them): {examples(shown)}",
            line=first.number,
            page=first.page,
        )
    ]


def distinct_matches(pattern: re.Pattern[str], text: str, wanted: int) -> bool:
    """Whether `pattern` matches at least `wanted` distinct strings in `text`."""
    seen: set[str] = set()
    for match in pattern.finditer(text):
        seen.add(match.group(0))
        if len(seen) >= wanted:
            return True
    return len(seen) >= wanted


def glued_hangul(lines: LineView, limits: FindingLimits) -> list[Issue]:
    """Pages with many Hangul runs too long to be one word, among `lines`."""
    texts = lines.texts()
    if not GLUED_HANGUL_RUN.search("\n".join(texts)):
        return []  # (one search of the whole text instead of one per line, mostly)
    runs: dict[int | None, list[tuple[int, str]]] = defaultdict(list)  # page -> (position, run)
    for position, line in enumerate(lines):
        found_here = GLUED_HANGUL_RUN.findall(line.text)
        if found_here:
            runs[line.page].extend((position, run) for run in found_here)
    bad = {
        page: found
        for page, found in runs.items()
        if len(found) >= limits.glued_runs_per_page
        or any(GLUED_HANGUL_SENTENCE.fullmatch(run) for _, run in found)
    }
    if not bad:
        return []
    first_line = lines[min(found[0][0] for found in bad.values())]
    shown = [quote(run, 30) for found in bad.values() for _, run in found]
    pages = [page for page in bad if page is not None]
    on = f" on {pages_phrase(pages)}" if pages else ""
    return [
        Issue(
            "text.glued-words",
            Severity.FAIL,
            f"Korean words glued together{on}: {runs_phrase(sum(map(len, bad.values())))} of "
            f"15+ syllables without a space (first at line {first_line.number}), e.g. "
            f"{examples(shown)}",
            line=first_line.number,
            page=first_line.page,
        )
    ]


@functools.lru_cache(maxsize=8192)
def zipf(word: str) -> float:
    """wordfreq's English Zipf frequency of a lower-case word (0.0: not in the list); wordfreq
    is imported on first use (its list costs ~0.5 s), by documents with hyphenated words only."""
    import wordfreq

    return float(wordfreq.zipf_frequency(word, "en", wordlist=WORD_LIST))


def is_kept_hyphen(left: str, right: str) -> bool:
    """Whether `left-right` is one word broken at a former line end (see JOINED_MARGIN_ZIPF)."""
    joined = zipf(left + right)
    rarer_half = min(zipf(left), zipf(right))
    if joined >= JOINED_WORD_MIN_ZIPF and joined - rarer_half >= JOINED_MARGIN_ZIPF:
        return True
    return joined >= RARE_JOINED_MIN_ZIPF and rarer_half == 0.0


def runs_phrase(count: int) -> str:
    return f"{count} Hangul run" + ("" if count == 1 else "s")


def hyphenated_words(lines: LineView, limits: FindingLimits) -> list[Issue]:
    """Words kept hyphenated at former line ends, each occurrence judged by wordfreq."""
    found: dict[str, TextLine] = {}  # form -> its first line
    verdicts: dict[str, bool] = {}
    for line in lines:
        if "-" not in line.text:
            continue
        for match in HYPHENATED.finditer(line.text):
            form = match.group(0)
            if form not in verdicts:
                left, right = match.group(1).casefold(), match.group(2).casefold()
                verdicts[form] = is_kept_hyphen(left, right)
            if verdicts[form]:
                found.setdefault(form, line)
    if len(found) < limits.hyphenated_min:
        return []
    first = min(found.values(), key=lambda line: line.number)
    shown = [f"{quote(form)} (line {line.number})" for form, line in found.items()]
    return [
        Issue(
            "text.hyphenated-words",
            Severity.WARN,
            f"{len(found)} words kept hyphenated at former line ends (the joined word is far "
            f"more common than its halves): {examples(shown)}",
            line=first.number,
            page=first.page,
        )
    ]

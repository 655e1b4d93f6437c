"""Text lines -> Issues: Korean words glued together, English words left hyphenated.

Both break the tokens a retriever matches on: a 20-syllable Hangul run is no word anyone
searches for, and `ex-periment` is not `experiment`. Spaced CJK (the opposite) is in pages.py.
"""

from __future__ import annotations

import re
from collections import defaultdict

from chunkcli.charclasses import HANGUL_CLASS
from chunkcli.check.options import FindingLimits
from chunkcli.check.scan import LineKind, LineView, ScannedMarkdown, TextLine
from chunkcli.check.wording import examples, pages_phrase, quote
from chunkcli.model import Issue, Severity

# Korean words (with their particles) are rarely longer than about 8 syllables; a run of this
# many without a space is several words glued together.
GLUED_HANGUL_RUN = re.compile(f"[{HANGUL_CLASS}]{{15,}}")
# ... found FindingLimits.glued_runs_per_page times on one page.
HYPHENATED = re.compile(r"\b([A-Za-z]{2,})-([a-z]{2,})\b")
WORD = re.compile(r"[A-Za-z]+")
# Neither half may be a word of the document: `pre-defined`, `blood-borne` next to `predefined`
# are spelling variants (false alarms on pymupdf-test-3820.pdf with only one half unknown).
# Warned from FindingLimits.hyphenated_min distinct hyphenated forms.
PROSE_KINDS = (LineKind.PARAGRAPH, LineKind.LIST, LineKind.HEADING, LineKind.TABLE)


def check_word_boundaries(
    scan: ScannedMarkdown, limits: FindingLimits = FindingLimits()
) -> list[Issue]:
    # Each line's text is a part of a Markdown line between non-word characters (or such parts
    # joined by spaces), so a run or form in a line is in the Markdown too: without one there
    # (or with too few distinct forms), no line needs reading.
    glued = not scan.text.isascii() and bool(GLUED_HANGUL_RUN.search(scan.text))
    hyphenated = distinct_matches(HYPHENATED, scan.text, limits.hyphenated_min)
    if not (glued or hyphenated):
        return []
    prose = scan.lines.only(PROSE_KINDS)
    return (glued_hangul(prose, limits) if glued else []) + (
        hyphenated_words(prose, limits) if hyphenated else []
    )


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
    bad = {page: found for page, found in runs.items() if len(found) >= limits.glued_runs_per_page}
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
            f"Korean words glued together{on}: {sum(map(len, bad.values()))} Hangul runs of 15+ "
            f"syllables without a space (first at line {first_line.number}), e.g. "
            f"{examples(shown)}",
            line=first_line.number,
            page=first_line.page,
        )
    ]


def hyphenated_words(lines: LineView, limits: FindingLimits) -> list[Issue]:
    """Hyphenated forms whose joined word the document holds, among `lines`."""
    # The document's own words, its hyphenated forms left out (their halves are no evidence).
    # (Read as one text: \\b sees a newline as it sees the end of a line; casefold after
    # findall, since casefolding can make letters of A-Z out of other characters.)
    text = "\n".join(lines.texts())
    vocabulary = set(map(str.casefold, WORD.findall(HYPHENATED.sub(" ", text))))
    del text
    found: dict[str, TextLine] = {}  # form -> its first line
    for line in lines:
        if "-" not in line.text:
            continue
        for match in HYPHENATED.finditer(line.text):
            left, right = match.group(1).casefold(), match.group(2).casefold()
            if left + right in vocabulary and left not in vocabulary and right not in vocabulary:
                found.setdefault(match.group(0), line)
    if len(found) < limits.hyphenated_min:
        return []
    first = min(found.values(), key=lambda line: line.number)
    shown = [f"{quote(form)} (line {line.number})" for form, line in found.items()]
    return [
        Issue(
            "text.hyphenated-words",
            Severity.WARN,
            f"{len(found)} words kept hyphenated although the document has them joined: "
            f"{examples(shown)}",
            line=first.number,
            page=first.page,
        )
    ]

"""Paragraphs -> Issues: signs that columns were interleaved or lines were not joined.

Two heuristics, both reported as warnings with examples:
- a paragraph stops mid-sentence, the next one on the page is a complete paragraph that does not
  continue it, and another one on the same page starts in lowercase: columns were interleaved;
- words broken with a hyphen at the end of a line and continued in lowercase on the next one:
  the converter did not join hyphenated lines, so the halves are indexed as two tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chunkcli.charclasses import count_whitespace
from chunkcli.check.options import FindingLimits
from chunkcli.check.scan import Paragraph, ScannedMarkdown
from chunkcli.check.wording import examples, quote
from chunkcli.model import Issue, Severity

# Ends mid-sentence: a Latin letter or a hyphen. Not a digit (footnote marks: "modem.1"; table
# numbers) and not a comma or colon (they introduce block quotes and lists).
DANGLING_END = re.compile(r"[A-Za-z\-]$")
CONTINUATION_START = re.compile(r"^[a-z]")
BROKEN_WORD_END = re.compile(r"[A-Za-z]{2}-$")
LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
# Ends a sentence, footnote marks and closing quotes allowed after the punctuation.
SENTENCE_END = re.compile(r"[.!?。！？][\"'”’)\]]*\d{0,3}$")
# Short fragments (captions, labels) end without punctuation innocently.
DANGLING_MIN_WORDS = 6
# A paragraph of another column is prose: mostly letters (not an equation or a row of numbers).
PROSE_MIN_LETTER_SHARE = 0.7
# A continuation has a few words (a lone "xiii" is a page number, not the rest of a sentence).
CONTINUATION_MIN_WORDS = 3
# The continuation is looked for among this many following paragraphs (about a page's worth).
CONTINUATION_LOOKAHEAD = 12


@dataclass(frozen=True, slots=True)
class Interruption:
    paragraph: Paragraph
    continuation: Paragraph


def check_reading_order(
    scan: ScannedMarkdown, limits: FindingLimits = FindingLimits()
) -> list[Issue]:
    """Reading-order warnings for one document (at most one per heuristic)."""
    return interrupted_paragraphs(scan, limits) + broken_words(scan.paragraphs, limits)


def has_words(text: str, wanted: int) -> bool:
    """len(text.split()) >= wanted, without splitting all of a long text."""
    return len(text.split(None, wanted - 1)) >= wanted


def is_dangling(paragraph: Paragraph) -> bool:
    # The paragraph's text ends as its last line does, when that has any text: judge that
    # before joining a long paragraph.
    last = paragraph.last_text.strip()
    if last and not DANGLING_END.search(last):
        return False
    text = paragraph.text.rstrip()
    return has_words(text, DANGLING_MIN_WORDS) and bool(DANGLING_END.search(text))


def is_continuation(text: str) -> bool:
    body = LIST_MARKER.sub("", text).lstrip()
    return bool(CONTINUATION_START.match(body)) and has_words(body, CONTINUATION_MIN_WORDS)


def is_complete_prose(paragraph: Paragraph) -> bool:
    """A whole paragraph of sentences: enough words, mostly letters, ends a sentence."""
    text = paragraph.text.strip()
    if not (has_words(text, DANGLING_MIN_WORDS) and SENTENCE_END.search(text)):
        return False  # (the cheap tests first: counting letters reads every character)
    visible = len(text) - count_whitespace(text)
    letters = sum(1 for char in text if char.isalpha())  # no space is a letter
    return letters >= PROSE_MIN_LETTER_SHARE * visible


def find_interruptions(scan: ScannedMarkdown) -> list[Interruption]:
    """Dangling paragraphs, then a complete paragraph of prose, then the continuation."""
    found: list[Interruption] = []
    for index, paragraph in enumerate(scan.paragraphs[:-1]):
        if not is_dangling(paragraph):
            continue
        # The next paragraph must start at the line after this one's last (positions in the
        # scan's lines: anything between is a list, table or heading).
        following = scan.paragraphs[index + 1]
        if following.start != paragraph.stop:
            continue
        if following.page != paragraph.page:
            continue  # a list, table or heading comes next, or the page ends: not prose in between
        if is_continuation(following.text) or not is_complete_prose(following):
            continue
        continuation = continuation_on_page(scan.paragraphs, index)
        if continuation is not None:
            found.append(Interruption(paragraph, continuation))
    return found


def continuation_on_page(paragraphs: tuple[Paragraph, ...], index: int) -> Paragraph | None:
    """A paragraph on the same page that starts like the continuation of paragraphs[index]:
    looked for further down first, then further up (rows of two columns read left-right put
    the top of the right column before the bottom of the left one)."""
    page = paragraphs[index].page
    below = paragraphs[index + 2 : index + 2 + CONTINUATION_LOOKAHEAD]
    above = paragraphs[max(0, index - CONTINUATION_LOOKAHEAD) : index][::-1]
    for candidates in (below, above):
        for paragraph in candidates:
            if paragraph.page != page:
                break
            if is_continuation(paragraph.text):
                return paragraph
    return None


def interrupted_paragraphs(scan: ScannedMarkdown, limits: FindingLimits) -> list[Issue]:
    found = find_interruptions(scan)
    if len(found) < limits.interrupted_min or (
        len(found) < limits.interrupted_share * len(scan.paragraphs)
    ):
        return []
    described = [
        f"line {i.paragraph.line} ends {quote(i.paragraph.text[-30:], 32)}, "
        f"continued at line {i.continuation.line}?"
        for i in found
    ]
    first = found[0].paragraph
    return [
        Issue(
            "reading-order.interrupted",
            Severity.WARN,
            f"{len(found)} paragraphs stop mid-sentence and seem to continue further down the page "
            f"(interleaved columns?): {examples(described)}",
            line=first.line,
            page=first.page,
        )
    ]


def broken_words(paragraphs: tuple[Paragraph, ...], limits: FindingLimits) -> list[Issue]:
    found: list[str] = []
    first: tuple[int, int | None] | None = None
    for paragraph in paragraphs:
        if not paragraph.holds("-"):
            continue
        texts = paragraph.texts  # (a record is made only for a line with a broken word)
        for row in range(len(texts) - 1):
            # (what BROKEN_WORD_END needs, without a regex or a new string per line)
            if "-" not in texts[row]:
                continue
            end = texts[row].rstrip()
            if not end.endswith("-"):
                continue
            start = texts[row + 1].lstrip()
            if BROKEN_WORD_END.search(end) and CONTINUATION_START.match(start):
                line = paragraph.scan_lines[paragraph.start + row]
                word = quote(end.split()[-1] + " " + start.split()[0], 40)
                found.append(f"{word} (line {line.number})")
                first = first or (line.number, line.page)
    if len(found) < limits.broken_words_min or first is None:
        return []
    return [
        Issue(
            "reading-order.broken-words",
            Severity.WARN,
            f"{len(found)} words are broken across lines with a hyphen and were not joined: "
            f"{examples(found)}",
            line=first[0],
            page=first[1],
        )
    ]

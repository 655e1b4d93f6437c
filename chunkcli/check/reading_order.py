"""Paragraphs -> Issues: signs that columns were interleaved or lines were not joined.

Two heuristics, both reported as warnings with examples:
- a paragraph stops mid-sentence, the next one on the page does not continue it, but a later
  one on the same page starts in lowercase: text from another column was put in between;
- words broken with a hyphen at the end of a line and continued in lowercase on the next one:
  the converter did not join hyphenated lines, so the halves are indexed as two tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chunkcli.check.scan import Paragraph, ScannedMarkdown
from chunkcli.check.wording import examples, quote
from chunkcli.model import Issue, Severity

# Ends mid-sentence: a Latin letter, digit, comma or hyphen (no . ! ? : ; or closing quote).
DANGLING_END = re.compile(r"[A-Za-z0-9,\-]$")
CONTINUATION_START = re.compile(r"^[a-z]")
BROKEN_WORD_END = re.compile(r"[A-Za-z]{2}-$")
# Short fragments (captions, labels) end without punctuation innocently.
DANGLING_MIN_WORDS = 6
# Reported from this many interrupted paragraphs, and at least this share of all paragraphs:
# one figure placed mid-paragraph is normal; a pattern across the document is not.
INTERRUPTED_MIN = 3
INTERRUPTED_SHARE = 0.05
# Reported from this many hyphen-broken words (a few compound words end lines legitimately).
BROKEN_WORDS_MIN = 5


@dataclass(frozen=True, slots=True)
class Interruption:
    paragraph: Paragraph
    continuation: Paragraph


def check_reading_order(scan: ScannedMarkdown) -> list[Issue]:
    """Reading-order warnings for one document (at most one per heuristic)."""
    return interrupted_paragraphs(scan.paragraphs) + broken_words(scan.paragraphs)


def is_dangling(paragraph: Paragraph) -> bool:
    text = paragraph.text.rstrip()
    return len(text.split()) >= DANGLING_MIN_WORDS and bool(DANGLING_END.search(text))


def is_continuation(paragraph: Paragraph) -> bool:
    return bool(CONTINUATION_START.match(paragraph.text.lstrip()))


def find_interruptions(paragraphs: tuple[Paragraph, ...]) -> list[Interruption]:
    found: list[Interruption] = []
    for index, paragraph in enumerate(paragraphs[:-1]):
        following = paragraphs[index + 1]
        if not is_dangling(paragraph) or following.page != paragraph.page:
            continue
        if is_continuation(following):
            continue  # continued right away: a split paragraph, not a reading-order problem
        later = [
            p for p in paragraphs[index + 2 :] if p.page == paragraph.page and is_continuation(p)
        ]
        if later:
            found.append(Interruption(paragraph, later[0]))
    return found


def interrupted_paragraphs(paragraphs: tuple[Paragraph, ...]) -> list[Issue]:
    found = find_interruptions(paragraphs)
    if len(found) < INTERRUPTED_MIN or len(found) < INTERRUPTED_SHARE * len(paragraphs):
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


def broken_words(paragraphs: tuple[Paragraph, ...]) -> list[Issue]:
    found: list[str] = []
    first: tuple[int, int | None] | None = None
    for paragraph in paragraphs:
        for line, following in zip(paragraph.lines, paragraph.lines[1:], strict=False):
            end, start = line.text.rstrip(), following.text.lstrip()
            if BROKEN_WORD_END.search(end) and CONTINUATION_START.match(start):
                found.append(
                    f"{quote(end.split()[-1] + ' ' + start.split()[0], 40)} (line {line.number})"
                )
                first = first or (line.number, line.page)
    if len(found) < BROKEN_WORDS_MIN or first is None:
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

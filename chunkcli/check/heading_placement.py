"""Headings -> Issues: a heading dropped into the middle of a sentence.

When the text before a heading stops without sentence punctuation and the text after it goes on
in lower case, the heading is a running head or a margin label placed inside a sentence: the
sentence is cut in two chunks, each under a wrong heading path.
"""

from __future__ import annotations

import re

from chunkcli.charclasses import SENTENCE_END_CHARS
from chunkcli.check.scan import LineKind, LineView, ScannedMarkdown, TextLine
from chunkcli.check.wording import examples, quote
from chunkcli.model import Issue, Severity

# The text before goes on: it ends in a letter, a comma or a hyphen.
OPEN_END = re.compile(r"[A-Za-z,\-]$")
LOWER_START = re.compile(r"^[a-z]")
# Reported from this many: each one cuts a sentence, so one is already worth a warning.
MID_SENTENCE_MIN = 1


def check_heading_placement(scan: ScannedMarkdown) -> list[Issue]:
    if not scan.headings:
        return []
    found: list[TextLine] = []
    lines = scan.lines
    between_paragraphs = (LineKind.PARAGRAPH, LineKind.HEADING, LineKind.PARAGRAPH)
    for start in lines.find_sequence(between_paragraphs):  # (records only around those)
        before, heading, after = lines[start : start + 3]
        text = before.text.rstrip()
        if text.endswith(SENTENCE_END_CHARS) or not OPEN_END.search(text):
            continue
        if LOWER_START.match(after.text.lstrip()):
            found.append(heading)
    if len(found) < MID_SENTENCE_MIN:
        return []
    shown = [f"{quote(h.text, 40)} (line {h.number})" for h in found]
    return [
        Issue(
            "headings.mid-sentence",
            Severity.WARN,
            f"{len(found)} heading(s) placed in the middle of a sentence (the text before does "
            f"not end it, the text after goes on in lower case): {examples(shown)}",
            line=found[0].number,
            page=found[0].page,
        )
    ]


# --- headings cut from their words, and lines that are no headings ----------------------------

# A heading that is only a section number ("3.2", "IV.", "제3장" is not one: it has words).
BARE_NUMBER = re.compile(
    r"^(?:\(?\d{1,3}(?:\.\d{1,3})*[.)]?|\(?[IVXLC]{1,6}[.)]?|[\u2160-\u217f][.)]?"
    r"|\(?[a-z][.)]|[가-하][.)])$"
)
# A heading that ends leading on to more: an article, preposition or conjunction, or a comma,
# hyphen or ampersand; in Korean, Japanese and Chinese a case particle or an attributive that
# needs its noun (위한, における). Words that also end nouns (과: 결과, 의: 회의, 的: 目的) are
# left out.
OPEN_HEADING_END = re.compile(
    r"(?:[,\-–&]|\b(?:of|the|and|or|to|in|for|with|on|a|an|by|from|at|as|into|via|about)"
    r"|(?:을|를|에서|으로|및|위한|대한|관한|통한|따른|의한|향한)"
    r"|(?:における|に関する|による|ための|への|での|の)|(?:关于|与|及))$",
    re.I,
)
# Brackets a heading can open and leave for the next line to close ("44. 고용정책 기본법
# 일부개정법률안(정태호 의원" + "대표발의)", "（利用者支払可能" + "延滞率見込額・極度額）"): a
# heading with more of them opened than closed leads on (harness: 2 of the 22 split headings
# missed, no new clean alarm).
OPENING_BRACKETS = "([（【「『〈《［"
CLOSING_BRACKETS = ")]）】」』〉》］"
# Continues: starts in lower case or with the punctuation that joins on ("- Stock-Based").
CONTINUED_START = re.compile(r"^(?:[a-z]|[-–,;:)])")
# A word of a title-case phrase: capitalised, a short function word, or a number ("Word
# Processing Tools", "Status of Business"; capitals too: "LEVELS OF RIGOR"). (Matched word by
# word: one pattern over the whole phrase backtracked for seconds on long lines.)
TITLE_CASE_WORD = re.compile(r"[A-Z][\w'’-]*|[a-z]{1,3}|[A-Z]{1,3}|\d[\w.]*")
# The rest of a cut heading is a short line without a sentence end: at most this many words
# (headings run 2-15 words; a sentence of text after a heading is longer or ends with a stop:
# 8 words missed "II. Set Up" + "the Restriction Digests of the “Suspect” and “Evidence” DNA").
SPLIT_TAIL_MAX_WORDS = 12
SPLIT_TAIL_MAX_CHARS = 100
# Body text: a line after the rest longer than this, or a list or table (a contents list under
# "Contents" is short lines after short lines).
BODY_MIN_CHARS = 80
SENTENCE_STOPS = tuple(".!?。！？")
# A caption: a figure/table label and its number, in the languages convert reads.
CAPTION = re.compile(
    r"^(?:fig(?:ure)?\.?|table|chart|graph|exhibit|plate|그림|표|図|表|图)\s*"
    r"[A-Z]?\d{1,3}(?:[.\-]\d{1,3})*\s*[.:：]?(?:\s|$)",
    re.I,
)
# A contents entry: leaders (dots, middle dots, ellipses) before a page number at the end.
CONTENTS_ENTRY = re.compile(r"(?:[.·・…‥]\s*){2,}\d{1,4}$")


def check_heading_shapes(scan: ScannedMarkdown) -> list[Issue]:
    """Headings cut from their words (headings.split), and captions or contents entries made
    headings (headings.promoted)."""
    if not scan.headings:
        return []
    return split_headings(scan) + promoted_headings(scan)


def split_headings(scan: ScannedMarkdown) -> list[Issue]:
    found: list[TextLine] = []
    lines = scan.lines
    for start in lines.find_sequence((LineKind.HEADING, LineKind.PARAGRAPH)):
        heading, tail = lines[start : start + 2]
        if heading.level < 2:
            continue  # a title is followed by its authors or subtitle
        text, rest = heading.text.strip(), tail.text.strip()
        if len(rest) > SPLIT_TAIL_MAX_CHARS or len(rest.split()) > SPLIT_TAIL_MAX_WORDS:
            continue
        if rest.endswith(SENTENCE_STOPS):
            continue
        if is_cut(text, rest, body_after(lines, start + 2)):
            found.append(heading)
    if not found:
        return []
    shown = [f"{quote(h.text, 30)} (line {h.number})" for h in found]
    return [
        Issue(
            "headings.split",
            Severity.WARN,
            f"{len(found)} heading(s) cut from their words (a bare number, or a heading that "
            f"leads on, then a short line that continues it): {examples(shown)}",
            line=found[0].number,
            page=found[0].page,
        )
    ]


def body_after(lines: LineView, position: int) -> bool:
    """Whether the line at `position` is body text: a long paragraph line, a list or a table."""
    if position >= len(lines):
        return False
    line = lines[position]
    return line.kind != LineKind.PARAGRAPH or len(line.text) > BODY_MIN_CHARS


def is_cut(text: str, rest: str, body_follows: bool) -> bool:
    """Whether heading `text` and the short line `rest` after it are one heading cut in two:
    the heading is a bare number or leads on, the rest continues it, or (with body text after
    the rest) both are in title case, or both in capitals: a title-case line of a few words
    with no stop is no sentence of text. (Short lines followed by more short lines, as a
    contents list under "Contents", are left alone: they were most of the false alarms on the
    clean corpus conversions without that condition.)"""
    if BARE_NUMBER.match(text) or OPEN_HEADING_END.search(text) or CONTINUED_START.match(rest):
        return True
    if leaves_open(text):
        return True
    return (
        body_follows
        and any(ch.islower() for ch in text) == any(ch.islower() for ch in rest)
        and is_title_case(text)
        and is_title_case(rest)
        and any(w[:1].isupper() for w in rest.split())
    )


def leaves_open(text: str) -> bool:
    """Whether `text` opens more brackets than it closes."""
    opened = sum(text.count(ch) for ch in OPENING_BRACKETS)
    return opened > sum(text.count(ch) for ch in CLOSING_BRACKETS)


def is_title_case(text: str) -> bool:
    words = text.split()
    return bool(words) and all(TITLE_CASE_WORD.fullmatch(word) for word in words)


def promoted_headings(scan: ScannedMarkdown) -> list[Issue]:
    found = [
        heading
        for heading, text in zip(scan.headings, scan.headings.texts, strict=True)
        if CAPTION.match(text.strip()) or CONTENTS_ENTRY.search(text.strip())
    ]
    if not found:
        return []
    shown = [f"{quote(h.text, 40)} (line {h.number})" for h in found]
    return [
        Issue(
            "headings.promoted",
            Severity.WARN,
            f"{len(found)} caption(s) or contents entries made heading(s): they open sections "
            f"of the chunks that hold nothing of theirs: {examples(shown)}",
            line=found[0].number,
            page=found[0].page,
        )
    ]

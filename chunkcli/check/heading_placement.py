"""Headings -> Issues: a heading dropped into the middle of a sentence.

When the text before a heading stops without sentence punctuation and the text after it goes on
in lower case, the heading is a running head or a margin label placed inside a sentence: the
sentence is cut in two chunks, each under a wrong heading path.
"""

from __future__ import annotations

import re

from chunkcli.charclasses import SENTENCE_END_CHARS
from chunkcli.check.scan import LineKind, ScannedMarkdown, TextLine
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

"""`--make-gold`: documents -> a template gold file for a person to edit.

One line per section (a heading with text under it): the section's first sentence as the
candidate answer, the page it is on, and a placeholder question that names the section. Every
line is a valid gold line as written (the sentence is verbatim, with `occurrence` when it occurs
more than once), so the template runs through `chunkcli eval` before anyone edits it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from chunkcli.evaluate.gold import find_all
from chunkcli.markdown_format import parse_page_marker
from chunkcli.split.units import SENTENCE_END_RE

_HEADING = re.compile(r"#{1,6}\s+(.*?)\s*#*\s*")
_LIST_MARKER = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
MIN_ANSWER_CHARS = 8  # shorter first sentences ("Yes.") make poor answers: take more
# A candidate with fewer letters than this is a date, a byline or a number ("2020.3.30.",
# "김 창 호*" on a Korean brief in the corpus): the section's next line is tried instead.
MIN_ANSWER_LETTERS = 6


@dataclass(frozen=True, slots=True)
class Candidate:
    heading: str
    sentence: str
    start: int  # where the sentence starts in the Markdown
    page: int | None


def candidates(markdown: str) -> Iterator[Candidate]:
    """Each section's first sentence of prose (not a table, code, comment or heading)."""
    heading: str | None = None
    page: int | None = None
    offset = 0
    for line in markdown.splitlines(keepends=True):
        line_start, offset = offset, offset + len(line)
        text = line.strip()
        marker = parse_page_marker(text)
        if marker is not None:
            page = marker.number
            continue
        found = _HEADING.fullmatch(text)
        if found:
            heading = found.group(1)
            continue
        if heading is None or not text or text[0] in "|<`>":
            continue
        sentence = _first_sentence(_LIST_MARKER.sub("", text, count=1))
        if sum(c.isalpha() for c in sentence) >= MIN_ANSWER_LETTERS:
            yield Candidate(heading, sentence, line_start + line.index(sentence), page)
            heading = None


def _first_sentence(text: str) -> str:
    """Up to the first sentence end (split's definition) that leaves MIN_ANSWER_CHARS, not at a
    digit's period: Korean and Japanese dates are written "2020. 3. 11." (a corpus brief)."""
    for end in SENTENCE_END_RE.finditer(text):
        if end.start() > 0 and text[end.start() - 1].isdigit():
            continue
        if end.end() >= MIN_ANSWER_CHARS:
            return text[: end.end()].strip()
    return text.strip()


def make_gold(documents: Sequence[tuple[str, str]]) -> str:
    """(source as the gold file names it, its Markdown) pairs -> gold JSON Lines."""
    lines = []
    for source, markdown in documents:
        for candidate in candidates(markdown):
            record: dict[str, object] = {
                "question": f"TODO: a question answered by the answer below "
                f"(section: {candidate.heading})",
                "source": source,
                "answer": candidate.sentence,
            }
            places = find_all(markdown, candidate.sentence)
            if len(places) > 1:
                record["occurrence"] = [p.start for p in places].index(candidate.start) + 1
            if candidate.page is not None:
                record["page"] = candidate.page
            lines.append(json.dumps(record, ensure_ascii=False))
    return "".join(line + "\n" for line in lines)

"""Gold files: one JSON object per line -> questions with their answer located in the Markdown.

A line has `question`, `source` (a PDF or Markdown path relative to the gold file) and the answer
either as `answer` (a verbatim span of the converted Markdown; `occurrence` N picks the Nth
place when it occurs more than once) or as `start`/`end` offsets into that Markdown. Optional:
`id` (default `q` + line number), `page` (the 1-based page that answers it), `condition` (a
second verbatim span that must be retrieved too, e.g. the exception to a rule, with its own
`condition_occurrence`). Other keys are kept for people (notes) and ignored.

A span copied from a PDF viewer often has line breaks where the Markdown has a space: when the
exact text is not found, any run of whitespace in it matches any run of whitespace.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass
from typing import Any

from chunkcli.errors import ChunkcliError


class GoldError(ChunkcliError):
    """A gold line that cannot be read or whose answer cannot be located."""


@dataclass(frozen=True, slots=True)
class TextSpan:
    """Half-open character offsets into one source's Markdown."""

    start: int
    end: int

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class GoldLine:
    """One gold line as written: the answer not yet located."""

    line: int  # 1-based line in the gold file
    id: str
    question: str
    source: str
    fields: dict[str, Any]


@dataclass(frozen=True, slots=True)
class GoldQuestion:
    id: str
    question: str
    source: str  # as written in the gold file
    answer: TextSpan
    condition: TextSpan | None
    page: int | None


def parse_gold(text: str, name: str) -> list[GoldLine]:
    """The gold lines of a file's text (blank lines skipped); raises GoldError naming the line."""
    lines: list[GoldLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.strip():
            lines.append(_parse_line(raw, f"{name}:{number}", number))
    if not lines:
        raise GoldError(f"{name}: no gold questions")
    ids = [line.id for line in lines]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise GoldError(f"{name}: question id {repeated[0]!r} is used more than once")
    return lines


def _parse_line(raw: str, where: str, number: int) -> GoldLine:
    try:
        fields = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise GoldError(f"{where}: not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(fields, dict):
        raise GoldError(f"{where}: expected a JSON object")
    for key in ("question", "source"):
        if not isinstance(fields.get(key), str) or not fields[key].strip():
            raise GoldError(f"{where}: needs a non-empty string {key!r}")
    # "./a.pdf" and "a.pdf" are one source: read once, indexed once.
    source = posixpath.normpath(fields["source"])
    return GoldLine(number, str(fields.get("id", f"q{number}")), fields["question"], source, fields)


def locate(gold: GoldLine, markdown: str, where: str) -> GoldQuestion:
    """The question with its spans found in `markdown`; raises GoldError naming the question."""
    label = f"{where}:{gold.line}: question {gold.question!r}"
    fields = gold.fields
    if "answer" in fields:
        answer = _find_span(
            markdown, fields["answer"], fields.get("occurrence"), label, "answer", gold.source
        )
    elif "start" in fields and "end" in fields:
        answer = _offsets(fields["start"], fields["end"], len(markdown), label)
    else:
        raise GoldError(f"{label}: needs 'answer' or 'start' and 'end'")
    condition = None
    if "condition" in fields:
        condition = _find_span(
            markdown,
            fields["condition"],
            fields.get("condition_occurrence"),
            label,
            "condition",
            gold.source,
        )
    page = fields.get("page")
    if page is not None and (not isinstance(page, int) or isinstance(page, bool) or page < 1):
        raise GoldError(f"{label}: 'page' must be a page number >= 1, got {page!r}")
    return GoldQuestion(gold.id, gold.question, gold.source, answer, condition, page)


def _find_span(
    markdown: str, needle: object, occurrence: object, label: str, key: str, source: str
) -> TextSpan:
    if not isinstance(needle, str) or not needle.strip():
        raise GoldError(f"{label}: {key!r} must be a non-empty string")
    found = find_all(markdown, needle)
    if not found:
        raise GoldError(f"{label}: {key} {_short(needle)!r} not found in {source}")
    if occurrence is None:
        if len(found) > 1:
            raise GoldError(
                f"{label}: {key} found {len(found)} times; "
                f'add "{"occurrence" if key == "answer" else "condition_occurrence"}": '
                f"1..{len(found)}"
            )
        return found[0]
    if not isinstance(occurrence, int) or isinstance(occurrence, bool):
        raise GoldError(f"{label}: occurrence must be a whole number, got {occurrence!r}")
    if not 1 <= occurrence <= len(found):
        raise GoldError(f"{label}: {key} occurs {len(found)} times, not {occurrence}")
    return found[occurrence - 1]


def find_all(markdown: str, needle: str) -> list[TextSpan]:
    """Every place of `needle` (overlapping ones too), exact first, else whitespace-tolerant."""
    needle = needle.strip()
    found: list[TextSpan] = []
    at = markdown.find(needle)
    while at >= 0:
        found.append(TextSpan(at, at + len(needle)))
        at = markdown.find(needle, at + 1)
    if found:
        return found
    pattern = r"\s+".join(re.escape(part) for part in needle.split())
    # A lookahead with a group: overlapping places are found too, as with the exact search.
    return [TextSpan(m.start(1), m.end(1)) for m in re.finditer(f"(?=({pattern}))", markdown)]


def _offsets(start: object, end: object, length: int, label: str) -> TextSpan:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
        raise GoldError(f"{label}: 'start' and 'end' must be whole numbers")
    assert isinstance(start, int) and isinstance(end, int)
    if not 0 <= start < end <= length:
        raise GoldError(
            f"{label}: 'start'/'end' {start}..{end} not inside the Markdown (0..{length})"
        )
    return TextSpan(start, end)


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"

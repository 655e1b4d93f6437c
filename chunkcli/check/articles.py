"""Article numbering -> Issues, for documents split with `--mode laws`: an article missing
(第3条 then 第5条) or out of sequence (第5条 then 第3条) usually means a page lost in conversion
or a cross-reference taken for an article, and either way the chunks cite the wrong article.

Numbering restarts at every 附則/부칙. 第3条の2 may follow 第3条 (or 第3条の1); a range deleted
together (第三条から第五条まで削除) counts as all its numbers.
"""

from __future__ import annotations

from chunkcli.check.chunks import line_locator
from chunkcli.check.wording import examples
from chunkcli.model import Issue, Severity
from chunkcli.split.laws import LawKind, Mark
from chunkcli.split.modes import find_articles


def check_articles(markdown: str) -> list[Issue]:
    """One warning listing the articles missing or out of sequence, or nothing."""
    line_of = line_locator(markdown)
    problems: list[tuple[int, str]] = []  # (offset, description)
    previous: Mark | None = None
    for mark in find_articles(markdown):
        if mark.kind is LawKind.SUPPLEMENT:
            previous = None  # numbering restarts
            continue
        if mark.kind is not LawKind.ARTICLE:
            continue
        problem = _sequence_problem(previous, mark)
        if problem:
            problems.append((mark.line, f"{problem} (line {line_of(mark.line)})"))
        previous = mark
    if not problems:
        return []
    return [
        Issue(
            "laws.article-sequence",
            Severity.WARN,
            f"{len(problems)} {'article' if len(problems) == 1 else 'articles'} out of "
            "sequence or missing: " + examples([text for _, text in problems]),
            line=line_of(problems[0][0]),
        )
    ]


def _sequence_problem(previous: Mark | None, mark: Mark) -> str | None:
    last = previous.last if previous is not None else 0
    branch = previous.branch if previous is not None and previous.number == last else 0
    if mark.branch:
        if mark.number == last and mark.branch > branch:
            return None
        if mark.number == last + 1:
            return f"{_label(mark, mark.number)} missing before {mark.name}"
    elif mark.number == last + 1:
        return None
    if mark.number > last + 1:
        gap = _label(mark, last + 1)
        if mark.number > last + 2:
            gap += f"-{_label(mark, mark.number - 1)}"
        return f"{gap} missing before {mark.name}"
    after = previous.name if previous is not None else "the start"
    return f"{mark.name} after {after}"


def _label(mark: Mark, number: int) -> str:
    """An article number written in the style of `mark`: 第4条, 제4조, 第4 (a notice item)."""
    if mark.name.startswith("제"):
        return f"제{number}조"
    return f"第{number}条" if "条" in mark.name else f"第{number}"

"""--mode qa: one chunk per question with its answer.

A question starts at a line that opens with a question marker (Q: Q. Q1 問 問1 質問 질문
Question:) or at a Markdown heading ending in ? or ？; its answer is everything up to the next
question or heading (answer markers A: 答 回答 답변 need not be there). Headings that are not
questions are sections: they close the question before them and name the path. A long answer is
cut between blocks, then lines, then sentences, with the question repeated in every later
part's prefix, so a question never sits in one chunk and its answer in another.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from chunkcli.model import ChunkKind
from chunkcli.split.layout import TITLE, Layout, Path
from chunkcli.split.lines import PieceLine
from chunkcli.split.segments import Segment, cuts_within

NUMBER = r"[0-9０-９]+"
SEPARATOR = r"[ \t\u3000]*[:：.．、)）]"
QUESTION_RE = re.compile(
    rf"(?:Q(?:[ \t]*{NUMBER})?{SEPARATOR}|Q[ \t]*{NUMBER}(?=[ \t\u3000])"
    rf"|問(?:[ \t]*(?:{NUMBER}|[一二三四五六七八九十]+))?(?:{SEPARATOR}|[ \t\u3000])"
    rf"|質問(?:[ \t]*{NUMBER})?(?:{SEPARATOR}|[ \t\u3000])"
    rf"|질문(?:[ \t]*{NUMBER})?(?:{SEPARATOR}|[ \t\u3000])"
    rf"|Question(?:[ \t]*{NUMBER})?{SEPARATOR})",
    re.IGNORECASE,
)
ANSWER_RE = re.compile(
    rf"(?:A(?:[ \t]*{NUMBER})?{SEPARATOR}|A[ \t]*{NUMBER}(?=[ \t\u3000])"
    rf"|答え?(?:{SEPARATOR}|[ \t\u3000])|回答(?:{SEPARATOR}|[ \t\u3000])"
    rf"|답변?(?:{SEPARATOR}|[ \t\u3000])|Answer{SEPARATOR})",
    re.IGNORECASE,
)
QUESTION_ENDS = ("?", "？")
ATX_OR_COMMENT_RE = re.compile(r"(?m)^ {0,3}#{1,6}(?:[ \t].*)?$|<!--[\s\S]*?-->")


@dataclass(frozen=True, slots=True)
class Question:
    start: int  # the question's first line
    lead_end: int  # where the question's own text ends (its answer starts)
    heading: bool  # a question heading (it is in the path; no lead repeated)
    level: int = 0  # heading level of a question heading or a section heading
    piece: int = -1
    section: bool = False  # a heading that is not a question


def find_questions(lines: Sequence[PieceLine], layout: Layout, title_piece: int) -> list[Question]:
    """Question starts and section headings, in order."""
    found: list[Question] = []
    for index, line in enumerate(lines):
        if line.heading:
            if line.piece == title_piece:
                continue
            piece = layout.pieces[line.piece]
            question = line.words.endswith(QUESTION_ENDS) or bool(QUESTION_RE.match(line.words))
            found.append(
                Question(
                    line.start, line.end, question, piece.level, line.piece, section=not question
                )
            )
        elif QUESTION_RE.match(line.words):
            found.append(Question(line.start, _lead_end(lines, index), heading=False))
    return found


def _lead_end(lines: Sequence[PieceLine], index: int) -> int:
    """The question runs on over the lines of its block until an answer marker."""
    end = lines[index].end
    # By position, not over a slice: a slice copies the rest of the list for every question
    # (2 MB of `Q:` lines took minutes).
    for position in range(index + 1, len(lines)):
        line = lines[position]
        if line.piece != lines[index].piece or ANSWER_RE.match(line.words) or line.heading:
            break
        if QUESTION_RE.match(line.words):
            break
        end = line.end
    return end


def qa_segments(
    layout: Layout, questions: list[Question], cuts: tuple[tuple[int, ...], ...]
) -> list[Segment]:
    """The text before the first question or heading, then one segment per question (with
    its answer) and per section heading with text of its own (else it glues onward)."""
    markdown = layout.markdown
    base: Path = (TITLE,) if layout.names[TITLE] else ()
    sections: list[tuple[int, int]] = []  # open section headings: (level, piece)
    segments: list[Segment] = []
    pending: int | None = None
    first = questions[0].start if questions else len(markdown)
    if has_text(markdown[:first]):
        segments.append(
            Segment(
                0, first, ChunkKind.SECTION, ChunkKind.WINDOW, base, cuts_within(cuts, 0, first)
            )
        )
    elif first > 0:
        pending = 0  # only the title (or nothing) before the first question: it glues on
    ends = [q.start for q in questions[1:]] + [len(markdown)] if questions else []
    for question, end in zip(questions, ends, strict=True):
        start = question.start if pending is None else pending
        if question.section or question.heading:
            sections = [(lvl, p) for lvl, p in sections if lvl < question.level]
            sections.append((question.level, question.piece))
        path = (*base, *(p for _, p in sections))
        if question.section and not markdown[question.lead_end : end].strip():
            pending = start if pending is None else pending
            continue
        pending = None
        lead = "" if question.heading else markdown[question.start : question.lead_end].strip()
        # A part never starts inside the question: the first part holds it and some answer.
        answer_cuts = cuts_within(cuts, question.lead_end, end)
        if question.section:
            segments.append(
                Segment(start, end, ChunkKind.SECTION, ChunkKind.WINDOW, path, answer_cuts)
            )
        else:
            segments.append(
                Segment(
                    start,
                    end,
                    ChunkKind.QA,
                    ChunkKind.QA_PART,
                    path,
                    answer_cuts,
                    lead,
                    head_end=question.lead_end,
                )
            )
        if question.heading:  # the answer below a question heading ends at the next heading
            sections.pop()
    if pending is not None:
        path = (*base, *(p for _, p in sections))
        segments.append(Segment(pending, len(markdown), ChunkKind.SECTION, ChunkKind.WINDOW, path))
    return segments


def has_text(text: str) -> bool:
    """Text besides ATX headings and HTML comments (page markers)."""
    return bool(ATX_OR_COMMENT_RE.sub("", text).strip())


def qa_cuts(lines: list[PieceLine], block_starts: list[int]) -> tuple[tuple[int, ...], ...]:
    """Where a long answer may be cut: between blocks, then between lines."""
    blocks = tuple(sorted(set(block_starts)))
    any_line = tuple(sorted({line.start for line in lines} | set(block_starts)))
    return blocks, any_line

"""Scoring one question's ranked chunks against its gold spans, and averaging over questions.

All span arithmetic is on the chunks' `start`/`end` offsets into their source's Markdown (the
body; a prefix is a repeated heading path or table header, not new text of the source).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chunkcli.evaluate.gold import GoldQuestion, TextSpan
from chunkcli.model import Chunk


@dataclass(frozen=True, slots=True)
class QuestionScore:
    """One question under one config; the tuples hold one value per k, in `ks` order."""

    rank: int | None  # 1-based rank of the first chunk holding the whole answer; None: not in top
    has_condition: bool
    condition_rank: int | None  # rank by which answer and condition are both held; None: not
    page_correct: bool | None  # the top chunk is from the source and covers `page`; None: no page
    recall: tuple[float, ...]  # share of the answer's characters inside the merged top-k spans
    precision: tuple[float, ...]  # share of the top-k characters that are answer
    iou: tuple[float, ...]  # answer ∩ top-k over answer ∪ top-k, in characters
    tokens: tuple[int, ...]  # tokens of the top-k chunk texts together


def score_question(
    question: GoldQuestion, ranked: Sequence[Chunk], ks: Sequence[int]
) -> QuestionScore:
    """`ranked` are the top max(ks) chunks, best first."""
    rank = _first_holding(question.source, question.answer, ranked)
    condition_rank = None
    if question.condition is not None:
        held = _first_holding(question.source, question.condition, ranked)
        condition_rank = None if rank is None or held is None else max(rank, held)
    overlaps = [_overlap(question, ranked[:k]) for k in ks]
    gold_chars = len(question.answer)
    return QuestionScore(
        rank=rank,
        has_condition=question.condition is not None,
        condition_rank=condition_rank,
        page_correct=_page_correct(question, ranked[0] if ranked else None),
        recall=tuple(covered / gold_chars for covered, _ in overlaps),
        precision=tuple(covered / total if total else 0.0 for covered, total in overlaps),
        iou=tuple(covered / (gold_chars + total - covered) for covered, total in overlaps),
        tokens=tuple(sum(c.tokens for c in ranked[:k]) for k in ks),
    )


def _first_holding(source: str, span: TextSpan, ranked: Sequence[Chunk]) -> int | None:
    for rank, chunk in enumerate(ranked, start=1):
        if chunk.source == source and chunk.start <= span.start and span.end <= chunk.end:
            return rank
    return None


def _overlap(question: GoldQuestion, top: Sequence[Chunk]) -> tuple[int, int]:
    """(answer characters covered, characters retrieved) with the top chunks merged per source:
    overlapping chunks (windows with a repeated sentence) count their shared text once."""
    covered = total = 0
    for source in sorted({c.source for c in top}):
        for start, end in merge_spans([(c.start, c.end) for c in top if c.source == source]):
            total += end - start
            if source == question.source:
                covered += max(0, min(end, question.answer.end) - max(start, question.answer.start))
    return covered, total


def merge_spans(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping or touching half-open spans merged, sorted."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _page_correct(question: GoldQuestion, top: Chunk | None) -> bool | None:
    if question.page is None:
        return None
    if top is None or top.source != question.source or top.page_start is None:
        return False
    if top.boxes:  # the pages its text lies on (a page the chunk only crosses is not cited)
        return any(box.page == question.page for box in top.boxes)
    page_end = top.page_end if top.page_end is not None else top.page_start
    return top.page_start <= question.page <= page_end


@dataclass(frozen=True, slots=True)
class Summary:
    """Means over the questions of one config; a metric with no question to score is None."""

    hit: tuple[float, ...]
    recall: tuple[float, ...]
    precision: tuple[float, ...]
    iou: tuple[float, ...]
    condition: tuple[float, ...] | None
    condition_questions: int
    page_accuracy: float | None
    page_questions: int
    tokens: tuple[float, ...]


def summarize(scores: Sequence[QuestionScore], ks: Sequence[int]) -> Summary:
    with_condition = [s for s in scores if s.has_condition]
    with_page = [s.page_correct for s in scores if s.page_correct is not None]
    return Summary(
        hit=tuple(_mean([_within(s.rank, k) for s in scores]) for k in ks),
        recall=_column_means([s.recall for s in scores], len(ks)),
        precision=_column_means([s.precision for s in scores], len(ks)),
        iou=_column_means([s.iou for s in scores], len(ks)),
        condition=tuple(_mean([_within(s.condition_rank, k) for s in with_condition]) for k in ks)
        if with_condition
        else None,
        condition_questions=len(with_condition),
        page_accuracy=_mean([float(ok) for ok in with_page]) if with_page else None,
        page_questions=len(with_page),
        tokens=_column_means([tuple(float(t) for t in s.tokens) for s in scores], len(ks)),
    )


def _within(rank: int | None, k: int) -> float:
    return 1.0 if rank is not None and rank <= k else 0.0


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _column_means(rows: Sequence[tuple[float, ...]], width: int) -> tuple[float, ...]:
    return tuple(_mean([row[i] for row in rows]) for i in range(width))

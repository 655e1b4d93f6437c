"""An EvalReport -> a Markdown side-by-side table, or JSON with stable field names.

Everything but the latency figures is deterministic; `timings=False` leaves those out (JSON:
null) so that the same gold file and configs give byte-identical reports.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from chunkcli.evaluate.metrics import QuestionScore
from chunkcli.evaluate.run import ConfigResult, EvalReport

DIGITS = 4  # decimals kept in JSON: more than any gold set of a few thousand questions resolves
QUESTION_CELL_CHARS = 70  # a question longer than this is shortened in the Markdown table


def differing(report: EvalReport) -> list[int]:
    """Positions of the questions whose first full-answer rank is not the same in every config."""
    return [
        i
        for i in range(len(report.questions))
        if len({r.scores[i].rank for r in report.results}) > 1
    ]


# --- JSON ----------------------------------------------------------------------------------


def to_json(report: EvalReport, timings: bool = True) -> str:
    ks = report.ks
    data = {
        "gold": report.gold,
        "retriever": report.retriever,
        "ks": list(ks),
        "sources": list(report.sources),
        "question_count": len(report.questions),
        "configs": [_config_json(r, ks, timings) for r in report.results],
        "questions": [_question_json(report, i) for i in range(len(report.questions))],
        "differ": [report.questions[i].id for i in differing(report)],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _at(ks: Sequence[int], values: Sequence[float] | None) -> dict[str, float] | None:
    if values is None:
        return None
    return {str(k): round(v, DIGITS) for k, v in zip(ks, values, strict=True)}


def _config_json(result: ConfigResult, ks: Sequence[int], timings: bool) -> dict[str, object]:
    summary = result.summary

    def timed(value: float) -> float | None:
        return round(value, DIGITS) if timings else None

    return {
        "name": result.config.name,
        "options": result.config.spec,
        "split_config": result.split_config,
        "chunks": result.chunks,
        "hit_at": _at(ks, summary.hit),
        "recall_at": _at(ks, summary.recall),
        "precision_at": _at(ks, summary.precision),
        "iou_at": _at(ks, summary.iou),
        "condition_at": _at(ks, summary.condition),
        "condition_questions": summary.condition_questions,
        "page_accuracy": None
        if summary.page_accuracy is None
        else round(summary.page_accuracy, DIGITS),
        "page_questions": summary.page_questions,
        "tokens_at": _at(ks, summary.tokens),
        "split_seconds": timed(result.split_seconds),
        "index_seconds": timed(result.index_seconds),
        "query_ms": timed(result.query_ms),
    }


def _question_json(report: EvalReport, i: int) -> dict[str, object]:
    question = report.questions[i]
    condition = question.condition
    return {
        "id": question.id,
        "question": question.question,
        "source": question.source,
        "page": question.page,
        "answer": {"start": question.answer.start, "end": question.answer.end},
        "condition": None
        if condition is None
        else {"start": condition.start, "end": condition.end},
        "results": {r.config.name: _score_json(r.scores[i], report.ks) for r in report.results},
    }


def _score_json(score: QuestionScore, ks: Sequence[int]) -> dict[str, object]:
    return {
        "rank": score.rank,
        "condition_rank": score.condition_rank,
        "page_correct": score.page_correct,
        "recall_at": _at(ks, score.recall),
        "iou_at": _at(ks, score.iou),
        "tokens_at": {str(k): t for k, t in zip(ks, score.tokens, strict=True)},
    }


# --- Markdown ------------------------------------------------------------------------------


def to_markdown(report: EvalReport, timings: bool = True) -> str:
    results = report.results
    ks = report.ks
    counted = (
        f"{_plural(len(report.questions), 'question')} over "
        f"{_plural(len(report.sources), 'source')}"
    )
    lines = [
        f"# Retrieval eval: {report.gold}",
        "",
        f"{counted}; {report.retriever} over all chunks of all sources; "
        f"k = {', '.join(map(str, ks))}.",
        "",
        "| metric | " + " | ".join(_cell(r.config.name) for r in results) + " |",
        "|---|" + "---:|" * len(results),
        _row("split options", [_cell(r.config.spec) or "(defaults)" for r in results]),
        _row("chunks in index", [str(r.chunks) for r in results]),
    ]
    lines += _metric_rows(results, ks)
    if timings:
        lines.append(
            _row("split ms (all sources)", [f"{1000 * r.split_seconds:.1f}" for r in results])
        )
        lines.append(_row("query ms (mean)", [f"{r.query_ms:.2f}" for r in results]))
    lines += _differing_section(report)
    return "\n".join(lines) + "\n"


def _metric_rows(results: Sequence[ConfigResult], ks: Sequence[int]) -> list[str]:
    rows: list[str] = []
    per_k: list[tuple[str, Callable[[ConfigResult], Sequence[float] | None], str]] = [
        ("hit@{k}", lambda r: r.summary.hit, "{:.3f}"),
        ("span recall@{k}", lambda r: r.summary.recall, "{:.3f}"),
        ("IoU@{k}", lambda r: r.summary.iou, "{:.3f}"),
        ("tokens retrieved@{k}", lambda r: r.summary.tokens, "{:.0f}"),
    ]
    conditions = results[0].summary.condition_questions
    if conditions:
        per_k.insert(
            3, (f"condition@{{k}} ({conditions} q.)", lambda r: r.summary.condition, "{:.3f}")
        )
    for label, values, fmt in per_k:
        for i, k in enumerate(ks):
            rows.append(
                _row(label.format(k=k), [fmt.format(_values(r, values)[i]) for r in results])
            )
    pages = results[0].summary.page_questions
    if pages:
        rows.append(
            _row(
                f"page citation accuracy ({pages} q.)",
                [f"{r.summary.page_accuracy or 0.0:.3f}" for r in results],
            )
        )
    return rows


def _values(
    result: ConfigResult, values: Callable[[ConfigResult], Sequence[float] | None]
) -> Sequence[float]:
    found = values(result)
    assert found is not None
    return found


def _differing_section(report: EvalReport) -> list[str]:
    if len(report.results) < 2:
        return []
    rows = differing(report)
    top = max(report.ks)
    lines = [
        "",
        f"## Questions where the configs differ ({len(rows)} of {len(report.questions)})",
        "",
    ]
    if not rows:
        return [*lines, "Every question's answer is first held at the same rank in every config."]
    lines += [
        f"Rank of the first chunk that holds the whole answer (– : not in the top {top}), "
        f"and span recall@{top} in brackets.",
        "",
        "| id | question | " + " | ".join(_cell(r.config.name) for r in report.results) + " |",
        "|---|---|" + "---:|" * len(report.results),
    ]
    for i in rows:
        question = report.questions[i]
        cells = [
            f"{_rank(r.scores[i].rank)} ({r.scores[i].recall[-1]:.2f})" for r in report.results
        ]
        lines.append(
            f"| {_cell(question.id)} | {_cell(_shorten(question.question))} | "
            + " | ".join(cells)
            + " |"
        )
    return lines


def _row(label: str, cells: Sequence[str]) -> str:
    return f"| {label} | " + " | ".join(cells) + " |"


def _rank(rank: int | None) -> str:
    return "–" if rank is None else str(rank)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= QUESTION_CELL_CHARS else text[: QUESTION_CELL_CHARS - 1] + "…"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"

"""A gold file and split configs -> every config's scores: sources read once, split per config.

Every chunk of every source goes into one index per config (a retriever does not know which
document a question is about), and each question retrieves the top max(k) chunks from it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from chunkcli.errors import UsageError
from chunkcli.evaluate.configs import EvalConfig
from chunkcli.evaluate.gold import GoldError, GoldQuestion, locate, parse_gold
from chunkcli.evaluate.metrics import QuestionScore, Summary, score_question, summarize
from chunkcli.evaluate.retriever import Bm25Retriever, Retriever
from chunkcli.evaluate.sources import load_sources
from chunkcli.model import Chunk
from chunkcli.split.run import split_markdown
from chunkcli.tokens import check_available

if TYPE_CHECKING:
    from chunkcli.inputs import ReadOptions

RetrieverFactory = Callable[[Sequence[str]], Retriever]


@dataclass(frozen=True, slots=True)
class ConfigResult:
    config: EvalConfig
    retriever: str  # the retriever's name, with its parameters
    split_config: dict[str, object]
    chunks: int
    scores: tuple[QuestionScore, ...]  # in question order
    summary: Summary
    split_seconds: float  # all sources
    index_seconds: float
    query_ms: float  # mean per question


@dataclass(frozen=True, slots=True)
class EvalReport:
    gold: str
    ks: tuple[int, ...]
    retriever: str
    sources: tuple[str, ...]
    questions: tuple[GoldQuestion, ...]
    results: tuple[ConfigResult, ...]


def run_eval(
    gold_path: Path,
    configs: Sequence[EvalConfig],
    ks: Sequence[int],
    retriever: RetrieverFactory = Bm25Retriever,
    *,
    gold_text: str | None = None,
    read: ReadOptions | None = None,
) -> EvalReport:
    """Score every config on the gold file; raises a ChunkcliError naming the file or question.

    `gold_text` is the gold file's content when it does not come from `gold_path` (stdin: then
    `gold_path` is "-" and sources are relative to the current folder); `read` is how the input
    layer reads the sources (worker processes, time limit)."""
    if not configs:
        raise UsageError("eval needs at least one split config")
    ks = tuple(sorted(set(ks)))
    if not ks or ks[0] < 1:
        raise UsageError(f"eval needs ranks k >= 1, got {list(ks)}")
    name = "<stdin>" if gold_text is not None else str(gold_path)
    lines = parse_gold(_read_gold(gold_path) if gold_text is None else gold_text, name)
    base = Path.cwd() if gold_text is not None else gold_path.parent
    sources = sorted({g.source for g in lines})
    markdowns = dict(zip(sources, load_sources([base / s for s in sources], read), strict=True))
    questions = tuple(locate(g, markdowns[g.source], name) for g in lines)
    results = tuple(_run_config(c, markdowns, questions, ks, retriever) for c in configs)
    return EvalReport(name, ks, results[0].retriever, tuple(markdowns), questions, results)


def _read_gold(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None  # a missing input: exit 2
    except UnicodeDecodeError as exc:
        raise GoldError(f"{path}: not UTF-8 text (bad byte at offset {exc.start})") from None
    except OSError as exc:
        raise GoldError(f"{path}: cannot read ({exc.strerror or exc})") from None


def _run_config(
    config: EvalConfig,
    markdowns: dict[str, str],
    questions: Sequence[GoldQuestion],
    ks: tuple[int, ...],
    make_retriever: RetrieverFactory,
) -> ConfigResult:
    check_available(config.options.encoding)  # loaded once per process: not split time
    started = time.perf_counter()
    chunks: list[Chunk] = []
    for source, markdown in markdowns.items():
        chunks += split_markdown(markdown, config.options, source=source)
    split_done = time.perf_counter()
    index = make_retriever([c.text for c in chunks])
    index_done = time.perf_counter()
    scores = []
    for question in questions:
        ranked = [chunks[i] for i in index.search(question.question, max(ks))]
        scores.append(score_question(question, ranked, ks))
    queries_done = time.perf_counter()
    return ConfigResult(
        config=config,
        retriever=index.name,
        split_config=config.options.config(),
        chunks=len(chunks),
        scores=tuple(scores),
        summary=summarize(scores, ks),
        split_seconds=split_done - started,
        index_seconds=index_done - split_done,
        query_ms=1000 * (queries_done - index_done) / len(questions),
    )

"""The fast subset of bench/check_harness.py: generated documents only (12 Markdown documents in
English, Korean and Japanese, 2 two-column PDFs made here), every defect class injected, exact
counts. The full harness (with ../shared's corpora) runs in bench/; its figures are in
bench/RESULTS.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.check_harness import (
    CLASSES,
    Score,
    across_seeds_lines,
    converted_documents,
    evaluate,
    generated_documents,
    generated_pdfs,
    seed_range,
)

SEED = 5


@pytest.fixture(scope="module")
def score(tmp_path_factory: pytest.TempPathFactory) -> Score:
    folder = tmp_path_factory.mktemp("harness")
    documents = generated_documents(12, SEED)
    pdfs = generated_pdfs(2, SEED, folder)
    documents += converted_documents(pdfs, folder / "cache", "generated-pdf")
    return evaluate(documents, CLASSES, SEED)


def test_every_class_has_cases(score: Score) -> None:
    assert dict(score.cases) == {
        "interleave": 2, "glued-hangul": 3, "kept-hyphens": 8, "data-header": 11,
        "dropped-header": 11, "bad-title": 14, "split-heading": 14, "promoted": 14,
        "running-head": 11, "dropped-page": 14, "kangxi": 3,
    }  # fmt: skip


def test_recall(score: Score) -> None:
    missed = {name: cases - score.detected[name] for name, cases in score.cases.items()}
    assert {name: n for name, n in missed.items() if n} == {}
    assert dict(score.missed) == {}


def test_precision_and_clean_documents(score: Score) -> None:
    """No code reported on a case of another class, nothing on the clean documents."""
    assert dict(score.false_pos) == {}
    assert dict(score.clean_alarms) == {}
    assert dict(score.true_pos) == {
        "reading-order.columns": 2, "text.glued-words": 3, "text.hyphenated-words": 8,
        "table.data-header": 16, "table.empty-header": 6, "headings.bad-title": 14,
        "headings.split": 14, "headings.promoted": 14, "boilerplate.repeated-line": 11,
        "pages.missing-text": 14, "text.ideograph-variants": 3,
    }  # fmt: skip


def test_generated_pdfs_are_two_columns(tmp_path: Path) -> None:
    (pdf,) = generated_pdfs(1, SEED, tmp_path)
    (document,) = converted_documents([pdf], tmp_path / "cache", "generated-pdf")
    assert document.converted is not None
    columns = {block.column for page in document.converted.document.pages for block in page.blocks}
    assert len(columns) == 2  # (left and right: columns are numbered by layout)


def test_seed_ranges_and_the_summary_across_seeds() -> None:
    assert seed_range("4") == [4]
    assert seed_range("1-3") == [1, 2, 3]
    first, second = Score(), Score()
    for score, found in ((first, 9), (second, 10)):
        score.cases["kangxi"] = 10
        score.detected["kangxi"] = found
        score.true_pos["text.ideograph-variants"] = found
    second.false_pos["text.ideograph-variants"] = 1
    kangxi = next(c for c in CLASSES if c.name == "kangxi")
    lines = across_seeds_lines({1: first, 2: second}, [kangxi])
    assert lines[1].split() == ["kangxi", "10-10", "0.900", "0.950", "1:", "0.900"]
    assert lines[4].split() == ["text.ideograph-variants", "19", "1", "0.909", "0.955"]

"""The fixed slice of the fuzz harness that runs in `make test` (the campaign is `make fuzz`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.fuzz.markdown_cases import CASES
from bench.fuzz.mutants import mutants, structural
from bench.fuzz.run import outcome_of, seed_files
from chunkcli.convert.pipeline import convert_pdf
from chunkcli.errors import ChunkcliError
from chunkcli.split import split_markdown


def test_mutants_are_deterministic() -> None:
    seeds = [(name, data[:4000]) for name, data in seed_files()[:2]]
    kinds = ("flip", "truncate", "xref", "length", "loop")
    first = [m for m in mutants(seeds, 40) if m[0].split("-")[1] in kinds]
    again = [m for m in mutants(seeds, 40) if m[0].split("-")[1] in kinds]
    assert first == again


@pytest.mark.parametrize(
    ("returncode", "stderr", "exists", "expected"),
    [
        (0, "", True, "ok"),
        (1, "error: x.pdf: damaged\n", False, "clean failure"),
        (1, "error: x.pdf: damaged\n", True, "partial output"),
        (1, "Traceback (most recent call last):\n  File ...\n", False, "traceback"),
        (-11, "", False, "crash"),
        (0, "format error: cannot find xref\n", True, "noise"),
    ],
)
def test_outcomes_are_classified(returncode: int, stderr: str, exists: bool, expected: str) -> None:
    assert outcome_of(returncode, stderr, exists) == expected


@pytest.mark.parametrize("name", sorted(structural()))
def test_structural_files_convert_or_fail_in_one_line(tmp_path: Path, name: str) -> None:
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(structural()[name])
    try:
        markdown = convert_pdf(pdf).markdown
    except ChunkcliError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(pdf))
    else:
        assert "<!-- page 1" in markdown.split("\n\n", 2)[1]


@pytest.mark.parametrize("name", sorted(CASES))
def test_markdown_cases_split_with_exact_offsets(name: str) -> None:
    markdown = CASES[name](2000)
    for chunk in split_markdown(markdown):
        assert markdown[chunk.start : chunk.end] == chunk.body

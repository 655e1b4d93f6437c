"""Golden chunks of the structured modes: tests/fixtures/modes/<name>.md (a generated Japanese
regulation, a Korean one, a table and a FAQ) -> <name>.<mode>.chunks.jsonl.

Regenerate with `UPDATE_GOLDEN=1 python -m pytest tests/test_split_modes_golden.py` and review
the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from chunkcli.jsonl import chunks_to_jsonl
from chunkcli.split import SplitOptions, split_markdown

REPO_ROOT = Path(__file__).resolve().parent.parent
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "modes"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
CASES = [
    ("ja_regulation", SplitOptions(mode="laws")),
    ("ja_regulation", SplitOptions(mode="laws", max_tokens=110)),
    ("ko_regulation", SplitOptions(mode="laws")),
    ("table", SplitOptions(mode="rows")),
    ("table", SplitOptions(mode="rows", rows_per_chunk=2)),
    ("faq", SplitOptions(mode="qa")),
]


def golden_name(name: str, options: SplitOptions) -> str:
    extra = f"-{options.max_tokens}" if options.max_tokens != SplitOptions().max_tokens else ""
    extra += f"-x{options.rows_per_chunk}" if options.rows_per_chunk != 1 else ""
    return f"{name}.{options.mode}{extra}.chunks.jsonl"


@pytest.mark.parametrize(("name", "options"), CASES, ids=[golden_name(*c) for c in CASES])
def test_mode_chunks_match_golden(name: str, options: SplitOptions) -> None:
    path = FIXTURES / f"{name}.md"
    source = path.relative_to(REPO_ROOT).as_posix()
    chunks = split_markdown(path.read_text(encoding="utf-8"), options, source=source)
    text = chunks_to_jsonl(chunks)
    golden = FIXTURES / golden_name(name, options)
    if UPDATE:
        golden.write_text(text, encoding="utf-8", newline="\n")
    assert golden.exists(), f"{golden.name} missing: run with UPDATE_GOLDEN=1 and review it"
    assert text == golden.read_text(encoding="utf-8")


def test_golden_update_is_off_in_ci() -> None:
    assert not (UPDATE and os.environ.get("CI")), "UPDATE_GOLDEN must not be set in CI"

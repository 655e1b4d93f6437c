"""Golden chunks: samples/<name>.expected.md -> samples/<name>.chunks.jsonl (default options).

Regenerate with `UPDATE_GOLDEN=1 python -m pytest tests/test_split_golden.py` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from chunkcli.jsonl import chunks_to_jsonl
from chunkcli.split import SplitOptions, split_markdown

REPO_ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((REPO_ROOT / "samples").glob("*.expected.md"))
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def golden_path(markdown_path: Path) -> Path:
    return markdown_path.with_name(markdown_path.name.replace(".expected.md", ".chunks.jsonl"))


@pytest.mark.parametrize("markdown_path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_sample_chunks_match_golden(markdown_path: Path) -> None:
    data = markdown_path.read_bytes()
    source = markdown_path.relative_to(REPO_ROOT).as_posix()
    chunks = split_markdown(data.decode("utf-8"), SplitOptions(), source=source)
    text = chunks_to_jsonl(chunks)
    golden = golden_path(markdown_path)
    if UPDATE:
        golden.write_text(text, encoding="utf-8", newline="\n")
    assert golden.exists(), f"{golden.name} missing: run with UPDATE_GOLDEN=1 and review it"
    assert text == golden.read_text(encoding="utf-8")


def test_samples_exist_and_golden_update_is_off_in_ci() -> None:
    assert SAMPLES, "samples/*.expected.md are the golden inputs"
    assert not (UPDATE and os.environ.get("CI")), "UPDATE_GOLDEN must not be set in CI"

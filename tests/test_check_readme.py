"""docs/check.md documents exactly the codes check emits; its CI snippet parses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CODE_LITERAL = re.compile(
    r'"((?:headings|table|figure|pages|text|document|boilerplate|reading-order|chunks|laws|items)\.[a-z0-9-]+)"'
)


def check_section() -> str:
    """The check reference: its own page, docs/check.md (the README only links to it)."""
    return (ROOT / "docs" / "check.md").read_text(encoding="utf-8")


def emitted_codes() -> set[str]:
    sources = (ROOT / "chunkcli" / "check").glob("*.py")
    return {code for path in sources for code in CODE_LITERAL.findall(path.read_text())}


def test_every_code_is_documented_and_every_documented_code_exists() -> None:
    documented = set(re.findall(r"^\| `([a-z-]+\.[a-z0-9-]+)` \|", check_section(), re.M))
    assert documented == emitted_codes()


def test_ci_snippet_is_valid_yaml_that_runs_check() -> None:
    yaml = pytest.importorskip("yaml")
    snippet = re.search(r"```yaml\n(.*?)```", check_section(), re.S)
    assert snippet is not None
    steps = yaml.safe_load(snippet.group(1))["jobs"]["check"]["steps"]
    commands = [step.get("run", "") for step in steps]
    assert any(c.startswith("chunkcli check ") and "--format github" in c for c in commands)

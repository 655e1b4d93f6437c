"""Shared fixtures: small generated documents that many test files use."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_factory import Text, make_pdf

REPORT_LINES = (
    "Field Report",
    "Birch trees grow in cold climates and shed their bark in thin layers.",
    "Their wood is pale and hard, and it is used for furniture and floors.",
)


def report_items(title: str = REPORT_LINES[0]) -> list[Text]:
    """A title and two body lines, enough for one heading and one paragraph."""
    return [
        Text(72, 90, title, size=20, bold=True),
        Text(72, 130, REPORT_LINES[1]),
        Text(72, 146, REPORT_LINES[2]),
    ]


@pytest.fixture
def report_pdf(tmp_path: Path) -> Path:
    """A one-page text PDF: '# Field Report' and one paragraph."""
    return make_pdf(tmp_path / "report.pdf", [report_items()])


@pytest.fixture
def two_page_pdf(tmp_path: Path) -> Path:
    return make_pdf(tmp_path / "two.pdf", [report_items(), report_items("Second Part")])


@pytest.fixture
def locked_pdf(tmp_path: Path) -> Path:
    return make_pdf(tmp_path / "locked.pdf", [report_items()], encrypt_password="s3cret")


CLEAN_MARKDOWN = (
    "<!-- page 1 -->\n\n# Field Guide\n\n"
    "Birch trees grow in cold climates and shed their bark in thin papery layers. "
    "Their wood is pale, hard and used for furniture.\n\n"
    "## Habitat\n\nBirches prefer light soil, open ground and plenty of rain in spring.\n"
)


@pytest.fixture
def guide_md(tmp_path: Path) -> Path:
    path = tmp_path / "guide.md"
    path.write_text(CLEAN_MARKDOWN, encoding="utf-8")
    return path


def heading_lines(markdown: str) -> list[str]:
    """Every ATX heading line of `markdown`, in order: tests assert the whole list, since a
    substring test for "## Intro" is also true of "### Intro"."""
    return [line for line in markdown.splitlines() if line.startswith("#")]


# Property tests draw the same examples on every run (CI must not fail at random on a case
# no earlier run met; a failure found by hand-run exploration becomes an @example instead).
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("deterministic", derandomize=True)
_hypothesis_settings.load_profile("deterministic")

"""Every generated case of issue #8's layout classes (tests/layout_cases.py) passes all checks,
plus exact heading lists where a case is about headings."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkcli.convert.pipeline import ConvertOptions, convert_pdf
from tests.layout_cases import Case, all_cases, failures, headings

CASES = {case.name: case for case in all_cases()}


def _markdown(case: Case, folder: Path) -> str:
    return convert_pdf(case.build(folder), ConvertOptions()).markdown


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_passes_every_check(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    assert failures(case, _markdown(case, tmp_path)) == []


def test_checks_can_fail() -> None:
    case = CASES["margin_headings"]
    assert len(failures(case, "Alarm Limits body ends. Program Controls")) == len(case.checks)


EXACT_HEADINGS = {
    "title_two_lines": [
        (1, "Annual Report on the Thermal Controller Market"),
        (2, "1. Overview"),
        (2, "2. Findings"),
    ],
    "title_centred_lines": [
        (1, "Safe Operation of Thermal Controllers in Plants"),
        (2, "1. Overview"),
        (2, "2. Findings"),
    ],
    "title_with_colon": [
        (1, "Thermal Controllers: A Field Guide to Safe Operation"),
        (2, "1. Overview"),
        (2, "2. Findings"),
    ],
    "title_japanese_lines": [
        (1, "消費生活用製品の安全確保に関するガイドライン"),
        (2, "1. 目的"),
        (2, "2. 適用範囲"),
    ],
    "ministry_cover": [(1, "製品安全ガイドライン"), (2, "1. 目的"), (2, "2. 適用範囲")],
    "company_cover": [(1, "Service Manual TC-200"), (2, "1. Overview"), (2, "2. Findings")],
    "masthead_minutes": [(1, "환경노동위원회회의록")],
    "chart_labels": [(1, "Energy Outlook")],
    "run_in_headings": [
        (2, "2.1 Inspection intervals"),
        (2, "2.2 Replacement of sensors"),
        (2, "2.3 Records"),
    ],
    "margin_headings": [
        (2, "2.3.59.1.5 Program Controls"),
        (2, "2.3.59.1.6 Alarm Limits"),
        (2, "2.3.59.1.7 Service Records"),
    ],
    "chapter_running_heads": [],
}


@pytest.mark.parametrize("name", sorted(EXACT_HEADINGS))
def test_exact_heading_list(name: str, tmp_path: Path) -> None:
    assert headings(_markdown(CASES[name], tmp_path)) == EXACT_HEADINGS[name]

"""check: Markdown (or a ConvertResult) -> DocumentReport, the pre-indexing sanity report.

The checks (check/run.py) and the report functions load on first use: `from chunkcli.check
import CheckOptions` stays cheap, so the CLI takes its flags' defaults from CheckOptions without
loading the checks on `--help`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from chunkcli.check.options import CheckOptions

if TYPE_CHECKING:
    from chunkcli.check.report import (
        CorpusSummary,
        DocumentReport,
        corpus_to_dict,
        github_annotations,
        report_to_dict,
        summarize_corpus,
        unreadable_report,
    )
    from chunkcli.check.run import check_conversion, check_markdown, make_chunks

# Public name -> the module that defines it.
_LAZY = {
    "CorpusSummary": "report",
    "DocumentReport": "report",
    "corpus_to_dict": "report",
    "github_annotations": "report",
    "report_to_dict": "report",
    "summarize_corpus": "report",
    "unreadable_report": "report",
    "check_conversion": "run",
    "check_markdown": "run",
    "make_chunks": "run",
}
__all__ = [
    "CheckOptions",
    "CorpusSummary",
    "DocumentReport",
    "check_conversion",
    "check_markdown",
    "corpus_to_dict",
    "github_annotations",
    "make_chunks",
    "report_to_dict",
    "summarize_corpus",
    "unreadable_report",
]


if not TYPE_CHECKING:  # mypy reads the imports above: a mistyped name stays an error

    def __getattr__(name: str) -> object:
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return getattr(import_module(f"chunkcli.check.{module}"), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

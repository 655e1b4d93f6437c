"""DocumentReport and corpus summaries, and their JSON and GitHub-annotation forms (pure)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from chunkcli.check.options import CheckOptions
from chunkcli.model import Issue, Severity

# Bump when a field of the JSON report is renamed or removed (adding fields keeps the version).
JSON_SCHEMA_VERSION = 1
SEVERITY_RANK = {Severity.OK: 0, Severity.WARN: 1, Severity.FAIL: 2}


@dataclass(frozen=True, slots=True)
class DocumentReport:
    """What `check` found in one document: its shape in numbers, a status and the reasons."""

    source: str
    pages: int  # pages converted, or page markers in the Markdown; 0 when unknown
    headings_by_level: tuple[int, int, int, int, int, int]  # H1..H6 counts
    max_heading_depth: int  # deepest heading level used; 0 without headings
    tables: int
    empty_pages: tuple[int, ...]  # blank: no text, no images
    scanned_pages: tuple[int, ...]  # no text layer: need OCR
    garbage_pages: tuple[int, ...]  # text layer unusable
    boilerplate_lines: int  # distinct lines repeated across pages or chunks
    chunks: int
    tokens: int  # sum over chunks, as split counts them
    status: Severity
    issues: tuple[Issue, ...]
    ocr_pages: tuple[tuple[int, float], ...] = ()  # (page, mean word confidence) read by OCR
    ocr_skipped_pages: tuple[int, ...] = ()  # needed OCR, left unread (a time limit ran out)


@dataclass(frozen=True, slots=True)
class CorpusSummary:
    """Totals over many DocumentReports, and how many documents each issue code touched."""

    documents: int
    ok: int
    warn: int
    fail: int
    pages: int
    chunks: int
    tokens: int
    scanned_pages: int
    empty_pages: int
    issue_documents: tuple[tuple[str, int], ...]  # (code, documents with it), most common first
    status: Severity
    ocr_pages: int = 0
    ocr_skipped_pages: int = 0


def worst(severities: Sequence[Severity]) -> Severity:
    return max(severities, key=SEVERITY_RANK.__getitem__, default=Severity.OK)


def apply_strictness(issues: Sequence[Issue], strict: bool) -> tuple[Issue, ...]:
    """With `strict`, every warning becomes a failure (notes stay notes)."""
    if not strict:
        return tuple(issues)
    return tuple(
        dataclasses.replace(i, severity=Severity.FAIL) if i.severity == Severity.WARN else i
        for i in issues
    )


def with_more_issues(
    report: DocumentReport, issues: Sequence[Issue], strict: bool
) -> DocumentReport:
    """The report with `issues` appended and its status updated."""
    if not issues:
        return report
    combined = report.issues + apply_strictness(issues, strict)
    return dataclasses.replace(
        report, issues=combined, status=worst([issue.severity for issue in combined])
    )


def unreadable_report(source: str, reason: str) -> DocumentReport:
    """The report of a file that could not be read or converted: it fails with that reason."""
    issue = Issue("document.unreadable", Severity.FAIL, reason)
    return DocumentReport(
        source, 0, (0, 0, 0, 0, 0, 0), 0, 0, (), (), (), 0, 0, 0, Severity.FAIL, (issue,)
    )


def summarize_corpus(reports: Sequence[DocumentReport]) -> CorpusSummary:
    """Totals for the corpus summary line and the JSON `summary` object."""
    statuses = Counter(r.status for r in reports)
    codes = Counter(
        code for r in reports for code in {i.code for i in r.issues if i.severity != Severity.OK}
    )
    return CorpusSummary(
        documents=len(reports),
        ok=statuses[Severity.OK],
        warn=statuses[Severity.WARN],
        fail=statuses[Severity.FAIL],
        pages=sum(r.pages for r in reports),
        chunks=sum(r.chunks for r in reports),
        tokens=sum(r.tokens for r in reports),
        scanned_pages=sum(len(r.scanned_pages) for r in reports),
        empty_pages=sum(len(r.empty_pages) for r in reports),
        issue_documents=tuple(sorted(codes.items(), key=lambda kv: (-kv[1], kv[0]))),
        status=worst([r.status for r in reports]),
        ocr_pages=sum(len(r.ocr_pages) for r in reports),
        ocr_skipped_pages=sum(len(r.ocr_skipped_pages) for r in reports),
    )


def issue_to_dict(issue: Issue) -> dict[str, object]:
    return {
        "code": issue.code,
        "severity": issue.severity.value,
        "message": issue.message,
        "line": issue.line,
        "page": issue.page,
    }


def report_to_dict(report: DocumentReport) -> dict[str, object]:
    """One document as JSON-ready data; field names are documented in docs/check.md and stable."""
    return {
        "source": report.source,
        "status": report.status.value,
        "pages": report.pages,
        "headings_by_level": list(report.headings_by_level),
        "max_heading_depth": report.max_heading_depth,
        "tables": report.tables,
        "empty_pages": list(report.empty_pages),
        "scanned_pages": list(report.scanned_pages),
        "garbage_pages": list(report.garbage_pages),
        "boilerplate_lines": report.boilerplate_lines,
        "chunks": report.chunks,
        "tokens": report.tokens,
        "ocr_pages": [{"page": page, "confidence": conf} for page, conf in report.ocr_pages],
        "ocr_skipped_pages": list(report.ocr_skipped_pages),
        "issues": [issue_to_dict(i) for i in report.issues],
    }


def summary_to_dict(summary: CorpusSummary) -> dict[str, object]:
    return {
        "status": summary.status.value,
        "documents": summary.documents,
        "ok": summary.ok,
        "warn": summary.warn,
        "fail": summary.fail,
        "pages": summary.pages,
        "chunks": summary.chunks,
        "tokens": summary.tokens,
        "scanned_pages": summary.scanned_pages,
        "empty_pages": summary.empty_pages,
        "ocr_pages": summary.ocr_pages,
        "ocr_skipped_pages": summary.ocr_skipped_pages,
        "issue_documents": dict(summary.issue_documents),
    }


def corpus_to_dict(reports: Sequence[DocumentReport], options: CheckOptions) -> dict[str, object]:
    """The whole `check --json` object: schema version, options, summary, documents."""
    return {
        "schema_version": JSON_SCHEMA_VERSION,
        "options": dataclasses.asdict(options),
        "summary": summary_to_dict(summarize_corpus(reports)),
        "documents": [report_to_dict(r) for r in reports],
    }


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(source: str, issue: Issue, markdown_lines: bool) -> str | None:
    """`::warning file=...,line=...,title=...::message` for a warn/fail issue; None for notes.

    `markdown_lines` is False for PDFs: line numbers then point into Markdown that is not in the
    repository, so only the page (in the message) locates the finding.
    """
    if issue.severity == Severity.OK:
        return None
    command = "error" if issue.severity == Severity.FAIL else "warning"
    properties = [f"file={_escape_property(source)}"]
    if markdown_lines and issue.line is not None:
        properties.append(f"line={issue.line}")
    properties.append(f"title={_escape_property('chunkcli ' + issue.code)}")
    message = issue.message
    if not markdown_lines and issue.page is not None and f"page {issue.page}" not in message:
        message += f" (page {issue.page})"
    return f"::{command} {','.join(properties)}::{_escape_data(message)}"


def github_annotations(reports: Sequence[DocumentReport]) -> list[str]:
    """Every annotation of the corpus, documents in order, then issues in order."""
    lines: list[str] = []
    for report in reports:
        markdown_lines = not report.source.lower().endswith(".pdf")
        for issue in report.issues:
            annotation = github_annotation(report.source, issue, markdown_lines)
            if annotation is not None:
                lines.append(annotation)
    return lines

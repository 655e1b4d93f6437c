"""`chunkcli check`: exit codes, the table, --json schema, --format github, PDFs and folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pdf_factory import Text, make_pdf
from typer.testing import CliRunner

from chunkcli.cli import app

CLEAN = (
    "<!-- page 1 -->\n\n# Field Guide\n\n"
    "Birch trees grow in cold climates and shed their bark in thin papery layers. "
    "Their wood is pale, hard and used for furniture.\n\n"
    "## Habitat\n\nBirches prefer light soil, open ground and plenty of rain in spring.\n"
)
BROKEN_TABLE = (
    "# Prices\n\nThe prices below are in euros and include the value added tax.\n\n"
    "| a | b |\n| --- | --- |\n| 1 | 2 | 3 |\n"
)
TWO_TITLES = CLEAN + "\n# Second Title\n\nAnother part of the guide, about oak trees and acorns.\n"

DOCUMENT_FIELDS = {
    "source", "status", "pages", "headings_by_level", "max_heading_depth", "tables",
    "empty_pages", "scanned_pages", "garbage_pages", "boilerplate_lines", "chunks", "tokens",
    "ocr_pages", "ocr_skipped_pages", "issues",
}  # fmt: skip


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["check", *args], input=stdin)
    return result.exit_code, result.output


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_clean_folder_exits_0_and_ignores_other_files(tmp_path: Path) -> None:
    write(tmp_path, "guide.md", CLEAN)
    write(tmp_path, "chunks.jsonl", '{"not": "markdown"}\n')
    code, output = invoke(str(tmp_path))
    assert code == 0, output
    assert "guide.md" in output and "chunks.jsonl" not in output
    assert "1 document: 1 ok, 0 warn, 0 fail" in output


def test_a_failing_document_exits_1_and_says_why(tmp_path: Path) -> None:
    write(tmp_path, "a.md", CLEAN)
    write(tmp_path, "sub/prices.md", BROKEN_TABLE)
    code, output = invoke(str(tmp_path))
    assert code == 1
    assert "table.row-cells" in output and "line 5" in output


def test_warnings_pass_unless_strict(tmp_path: Path) -> None:
    path = write(tmp_path, "two.md", TWO_TITLES)
    assert invoke(str(path))[0] == 0
    code, output = invoke(str(path), "--strict")
    assert code == 1 and "headings.several-h1" in output


def test_json_report_schema(tmp_path: Path) -> None:
    write(tmp_path, "a.md", CLEAN)
    write(tmp_path, "b.md", BROKEN_TABLE)
    code, output = invoke(str(tmp_path), "--json")
    assert code == 1
    data = json.loads(output)
    assert set(data) == {"schema_version", "options", "summary", "documents"}
    assert data["schema_version"] == 1
    assert data["options"]["max_tokens"] == 800 and data["options"]["strict"] is False
    assert data["summary"]["documents"] == 2 and data["summary"]["fail"] == 1
    assert data["summary"]["status"] == "fail"
    assert [d["source"] for d in data["documents"]] == [
        str(tmp_path / "a.md"),
        str(tmp_path / "b.md"),
    ]
    for document in data["documents"]:
        assert set(document) == DOCUMENT_FIELDS
        for issue in document["issues"]:
            assert set(issue) == {"code", "severity", "message", "line", "page"}
    (issue,) = data["documents"][1]["issues"]
    assert (issue["code"], issue["severity"], issue["line"]) == ("table.row-cells", "fail", 5)


def test_json_output_is_deterministic(tmp_path: Path) -> None:
    write(tmp_path, "a.md", TWO_TITLES)
    assert invoke(str(tmp_path), "--json")[1] == invoke(str(tmp_path), "--json")[1]


def test_github_annotations(tmp_path: Path) -> None:
    broken = write(tmp_path, "b.md", BROKEN_TABLE)
    titles = write(tmp_path, "t.md", TWO_TITLES)
    code, output = invoke(str(broken), str(titles), "--format", "github")
    assert code == 1
    lines = output.splitlines()
    assert lines[0].startswith(f"::error file={broken},line=5,title=chunkcli table.row-cells::")
    assert lines[1].startswith(f"::warning file={titles},line=")
    assert "2 documents: 0 ok, 1 warn, 1 fail" in output


@pytest.mark.parametrize(
    "args",
    [["--format", "xml"], ["--json", "--format", "github"], ["--max-tokens", "0"]],
    ids=["unknown-format", "json-and-github", "bad-number"],
)
def test_usage_errors_exit_2(tmp_path: Path, args: list[str]) -> None:
    path = write(tmp_path, "a.md", CLEAN)
    assert invoke(str(path), *args)[0] == 2


def test_missing_path_and_empty_folder_exit_2(tmp_path: Path) -> None:
    code, output = invoke(str(tmp_path / "nope.md"))
    assert code == 2 and "nope.md" in output
    (tmp_path / "empty").mkdir()
    code, output = invoke(str(tmp_path / "empty"))
    assert code == 2 and "no PDF or Markdown files" in output


def test_byte_order_mark_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "bom.md"
    path.write_bytes("\ufeff".encode() + TWO_TITLES.encode())
    data = json.loads(invoke(str(path), "--json")[1])
    assert data["documents"][0]["headings_by_level"][0] == 2


def test_markdown_from_stdin() -> None:
    code, output = invoke("-", "--json", stdin=BROKEN_TABLE)
    assert code == 1
    assert json.loads(output)["documents"][0]["source"] == "-"


def test_pdfs_are_converted_in_memory_and_unreadable_ones_fail(tmp_path: Path) -> None:
    lines = [Text(72, 90, "Field Guide", size=20, bold=True)]
    lines += [
        Text(72, 130 + 16 * i, f"Birch number {i} grows in cold climates and sheds its bark.")
        for i in range(12)
    ]
    pdf = make_pdf(tmp_path / "guide.pdf", [lines])
    (tmp_path / "broken.pdf").write_bytes(b"not a pdf at all")
    code, output = invoke(str(tmp_path), "--json", "--jobs", "1")
    data = json.loads(output)
    by_name = {Path(d["source"]).name: d for d in data["documents"]}
    assert by_name["guide.pdf"]["pages"] == 1 and by_name["guide.pdf"]["status"] == "ok", output
    assert by_name["broken.pdf"]["status"] == "fail"
    assert by_name["broken.pdf"]["issues"][0]["code"] == "document.unreadable"
    assert code == 1
    assert not list(tmp_path.glob("*.md")), "check must not write Markdown next to the PDFs"
    assert pdf.exists()


OCR_READ = (
    "<!-- page 1: ocr conf=0.96 engine=tesseract -->\n\n# Field Guide\n\n"
    "Birch trees grow in cold climates and shed their bark in thin papery layers.\n\n"
    "<!-- page 2: ocr skipped: time limit -->\n"
)


def test_ocr_pages_are_listed_with_their_confidence(tmp_path: Path) -> None:
    """Issue 25: the Markdown said `ocr conf=0.96` and the report said nothing of it."""
    path = write(tmp_path, "scan.md", OCR_READ)
    data = json.loads(invoke(str(path), "--json")[1])
    (document,) = data["documents"]
    assert document["ocr_pages"] == [{"page": 1, "confidence": 0.96}]
    assert document["ocr_skipped_pages"] == [2]
    assert (data["summary"]["ocr_pages"], data["summary"]["ocr_skipped_pages"]) == (1, 1)
    code, output = invoke(str(path))
    assert code == 1
    assert "OCR 1 page (confidence): 1 (0.96)" in output
    assert "OCR skipped 1 page: 2" in output
    assert "2 pages (1 scanned, 1 OCR, 1 OCR-skipped, 0 blank)" in output


def test_quiet_prints_nothing_on_success_and_the_report_on_failure(tmp_path: Path) -> None:
    clean = write(tmp_path, "guide.md", CLEAN)
    assert invoke(str(clean), "-q") == (0, "")
    broken = write(tmp_path, "prices.md", BROKEN_TABLE)
    code, output = invoke(str(broken), "-q")
    assert code == 1 and "table.row-cells" in output


def test_80_columns_one_block_per_document_names_cut_from_the_left(tmp_path: Path) -> None:
    """Issue 25: at 80 columns no line wraps, in the terminal's text and in -o FILE alike."""
    folder = tmp_path / ("deep-folder-" * 6) / "reports"
    name = "quarterly-report-with-a-long-name.md"
    write(folder, name, BROKEN_TABLE)
    out = tmp_path / "report.txt"
    CliRunner().invoke(app, ["check", str(folder), "-o", str(out)], env={"COLUMNS": "80"})
    text = out.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80, text
    assert lines[0].startswith("fail …") and lines[0].endswith("/reports/" + name)
    assert lines[2].startswith("    fail table.row-cells: ")
    assert all(
        line.startswith("      ")
        for line in lines[3 : lines.index("1 document: 0 ok, 0 warn, 1 fail")]
    )

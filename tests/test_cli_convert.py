"""`chunkcli convert`: one file to stdout or -o, folders to a mirrored tree, --pages, exit codes,
help, a shell pipe into `split`, and the rule that only the cli package imports typer and rich."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pdf_factory import Image, grid_table, make_pdf, wrapped_paragraph
from typer.testing import CliRunner, Result

from chunkcli.cli import app

BODY = "Lime trees line the avenue and their flowers fill the June evenings with scent."
PACKAGE = Path(__file__).resolve().parent.parent / "chunkcli"


def pdf(path: Path, title: str, pages: int = 3) -> Path:
    return make_pdf(
        path,
        [wrapped_paragraph(72, 300, 400, f"{title} page {n}: {BODY}") for n in range(1, 1 + pages)],
    )


def convert(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["convert", *map(str, args)])


@pytest.fixture()
def report(tmp_path: Path) -> Path:
    return pdf(tmp_path / "report.pdf", "Report")


# --- one file -------------------------------------------------------------------------------------


def test_one_file_goes_to_stdout(report: Path) -> None:
    result = convert(report)
    assert result.exit_code == 0, result.output
    assert "Report page 1: Lime trees" in result.stdout
    assert "Report page 3" in result.stdout
    assert result.stderr == ""


def test_output_file_matches_stdout_byte_for_byte(report: Path, tmp_path: Path) -> None:
    target = tmp_path / "md" / "report.md"
    result = convert(report, "-o", target)
    assert result.exit_code == 0 and result.stdout == ""
    assert target.read_text(encoding="utf-8") == convert(report).stdout
    assert convert(report, "-o", "-").stdout == convert(report).stdout
    assert sorted(p.name for p in target.parent.iterdir()) == ["report.md"]  # no temp file left


def test_output_is_deterministic(report: Path, tmp_path: Path) -> None:
    convert(report, "-o", tmp_path / "a.md")
    convert(report, "-o", tmp_path / "b.md")
    assert (tmp_path / "a.md").read_bytes() == (tmp_path / "b.md").read_bytes()


def test_output_over_the_input_is_refused(report: Path) -> None:
    before = report.read_bytes()
    result = convert(report, "-o", report)
    assert result.exit_code == 2
    assert "is the input PDF itself" in result.stderr
    assert report.read_bytes() == before


def test_pages_selects_pages(report: Path) -> None:
    result = convert(report, "--pages", "2")
    assert result.exit_code == 0
    assert "Report page 2" in result.stdout
    assert "Report page 1" not in result.stdout and "Report page 3" not in result.stdout


def test_pages_outside_the_file_is_an_error(report: Path, tmp_path: Path) -> None:
    result = convert(report, "--pages", "7-9", "-o", tmp_path / "x.md")
    assert result.exit_code == 1
    assert f"{report}: --pages selects none of its 3 pages" in result.stderr
    assert not (tmp_path / "x.md").exists()


@pytest.mark.parametrize("spec", ["x", "0", "5-2", ""])
def test_bad_pages_is_a_usage_error(report: Path, spec: str) -> None:
    result = convert(report, "--pages", spec)
    assert result.exit_code == 2
    assert "--pages" in result.stderr


def test_no_tables_keeps_a_table_as_text(tmp_path: Path) -> None:
    rows = [["Part", "Stock"], ["Bolt", "120"], ["Nut", "300"], ["Washer", "75"]]
    table = grid_table(72, 120, [150, 100], 22, rows)
    path = make_pdf(tmp_path / "stock.pdf", [[*wrapped_paragraph(72, 80, 400, BODY), *table]])
    with_tables = convert(path)
    without = convert(path, "--no-tables")
    assert with_tables.exit_code == 0 and without.exit_code == 0
    assert "| Part | Stock |\n| --- | --- |\n| Bolt | 120 |" in with_tables.stdout
    assert "|" not in without.stdout
    for cell in ("Part", "Stock", "Bolt", "120", "Washer", "75"):
        assert cell in without.stdout


def test_scanned_page_is_warned_about_on_stderr_without_ocr(tmp_path: Path) -> None:
    text = wrapped_paragraph(72, 300, 400, f"Typed page: {BODY}")
    scan = [Image(72, 72, 520, 770, text="A scanned letter of two lines\nsigned by hand")]
    source = make_pdf(tmp_path / "mixed.pdf", [text, scan])
    result = convert(source, "--ocr", "never")
    assert result.exit_code == 0
    assert "Typed page" in result.stdout
    assert f"warning: {source}: page 2: no text layer" in result.stderr


# --- folders --------------------------------------------------------------------------------------


@pytest.fixture()
def papers(tmp_path: Path) -> Path:
    root = tmp_path / "papers"
    pdf(root / "a.pdf", "Alpha", pages=2)
    pdf(root / "2024" / "b.pdf", "Beta", pages=1)
    (root / "2024" / "readme.txt").write_text("not a pdf, ignored")
    return root


def test_folder_becomes_a_mirrored_tree_with_a_summary(papers: Path, tmp_path: Path) -> None:
    out = tmp_path / "md"
    result = convert(papers, "-o", out, "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert (out / "a.md").read_text().count("Alpha page") == 2
    assert "Beta page 1" in (out / "2024" / "b.md").read_text()
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        "2024", "2024/b.md", "a.md"
    ]  # fmt: skip
    assert "converted 2 of 2 PDFs: 3 pages in" in result.stderr
    assert result.stdout == ""


def test_folder_with_a_bad_file_converts_the_rest_and_exits_1(papers: Path, tmp_path: Path) -> None:
    (papers / "broken.pdf").write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 8)
    out = tmp_path / "md"
    result = convert(papers, "-o", out, "--jobs", "2")
    assert result.exit_code == 1
    assert (out / "a.md").exists() and (out / "2024" / "b.md").exists()
    assert not (out / "broken.md").exists()
    assert "converted 2 of 3 PDFs" in result.stderr
    assert f"failed: 1\n  {papers / 'broken.pdf'}: damaged or truncated" in result.stderr


def test_folder_needs_an_output_folder(papers: Path) -> None:
    for extra in ([], ["-o", "-"]):
        result = convert(papers, *extra)
        assert result.exit_code == 2
        assert "needs -o OUTDIR" in result.stderr


def test_several_files_into_a_file_is_a_usage_error(papers: Path, tmp_path: Path) -> None:
    existing = tmp_path / "one.md"
    existing.write_text("keep me")
    result = convert(papers / "a.pdf", papers / "2024" / "b.pdf", "-o", existing)
    assert result.exit_code == 2
    assert existing.read_text() == "keep me"


@pytest.mark.parametrize("trailing_slash", [True, False])
def test_one_file_into_a_folder(report: Path, tmp_path: Path, trailing_slash: bool) -> None:
    out = tmp_path / "out"
    if not trailing_slash:
        out.mkdir()
    result = convert(report, "-o", f"{out}/" if trailing_slash else out)
    assert result.exit_code == 0, result.output
    assert "Report page 1" in (out / "report.md").read_text()
    assert "converted 1 of 1 PDFs" in result.stderr


def test_empty_folder_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = convert(tmp_path / "empty", "-o", tmp_path / "out")
    assert result.exit_code == 2
    assert "no PDF files in" in result.stderr


# --- help, pipes, imports -------------------------------------------------------------------------


def test_help_teaches_with_examples() -> None:
    result = CliRunner().invoke(app, ["convert", "--help"])
    assert result.exit_code == 0
    for text in ("Examples:", "chunkcli convert report.pdf > report.md", "--pages", "--password",
                 "--timeout", "--jobs", "--no-tables", "-o OUTDIR", "Exit code"):  # fmt: skip
        assert text in result.stdout, text


def test_shell_pipe_into_split(report: Path) -> None:
    command = (
        f"{sys.executable} -m chunkcli convert {report} | {sys.executable} -m chunkcli split -"
    )
    done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    chunks = [json.loads(line) for line in done.stdout.splitlines()]
    assert chunks and "Report page 2: Lime trees" in "".join(c["text"] for c in chunks)


class ClosedPipe:
    """A stdout whose reader has gone away (as after `| head`)."""

    def __init__(self, spare: Path) -> None:
        self.spare = spare.open("wb")  # dup2 needs a real descriptor to point at devnull
        self.buffer = self

    def write(self, data: bytes) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    def fileno(self) -> int:
        return self.spare.fileno()


def test_a_closed_pipe_is_not_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from chunkcli.cli import common

    monkeypatch.setattr(sys, "stdout", ClosedPipe(tmp_path / "spare"))
    common.write_stdout("# Title\n" * 10_000)  # returns quietly instead of raising


def imported_modules(source: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module.split(".")[0])
    return modules


def test_only_cli_imports_typer_and_rich() -> None:
    importers = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if imported_modules(path) & {"typer", "rich", "click"}
    }
    assert {path.split("/")[0] for path in importers} == {"cli"}


def test_markdown_an_earlier_run_left_is_named_and_pruned(tmp_path: Path) -> None:
    """A PDF deleted (or failing now) since the last run leaves its Markdown in the output
    folder, where split and sync would index it: named on stderr, removed with --prune;
    Markdown that chunkcli did not write is left alone."""
    pdfs, out = tmp_path / "pdfs", tmp_path / "md"
    pdfs.mkdir()
    for name in ("a", "b", "c"):
        make_pdf(pdfs / f"{name}.pdf", [wrapped_paragraph(72, 100, 400, f"Text of {name}.")])
    assert convert(pdfs, "-o", f"{out}/").exit_code == 0
    (pdfs / "b.pdf").unlink()
    (pdfs / "c.pdf").write_bytes(b"no longer a PDF")
    (out / "notes.md").write_text("# My own notes\n", encoding="utf-8")
    result = convert(pdfs, "-o", f"{out}/")
    assert result.exit_code == 1  # c.pdf fails
    said = " ".join(result.stderr.split())
    for name in ("b", "c"):
        assert f"warning: {out / name}.md: from an earlier run" in said
    assert "notes.md" not in said
    result = convert(pdfs, "-o", f"{out}/", "--prune")
    assert sorted(p.name for p in out.glob("*.md")) == ["a.md", "notes.md"]
    assert f"removed {out / 'b.md'}: not written" in " ".join(result.stderr.split())

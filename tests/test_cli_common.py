"""The conventions every command shares: version and help, '-' and `-o -`, exit codes, -q,
provenance through pipes, folders that mix PDFs and Markdown, Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import CLEAN_MARKDOWN
from pdf_factory import make_pdf
from typer.testing import CliRunner, Result

from chunkcli import __version__
from chunkcli.cli import app

COMMANDS = ("convert", "split", "check")


def run(*args: str | Path, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], input=stdin)


def chunks_of(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# --- version and help -------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    result = run(flag)
    assert result.exit_code == 0
    assert result.stdout == f"chunkcli {__version__}\n"


@pytest.mark.parametrize("command", COMMANDS)
def test_short_help_shows_value_names_and_an_example(command: str) -> None:
    result = run(command, "-h")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout and f"chunkcli {command} " in result.stdout
    for python_type in ("<int range>", "list[str]", "INTEGER", "FLOAT", "TEXT RANGE"):
        assert python_type not in result.stdout
    assert "--jobs" in result.stdout and " N " in result.stdout or "-j, --jobs N" in result.stdout


# --- exit codes -----------------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_a_missing_input_is_exit_2_in_every_command(command: str, tmp_path: Path) -> None:
    result = run(command, tmp_path / "nope.pdf")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {tmp_path / 'nope.pdf'}: no such file or folder"


@pytest.mark.parametrize("command", COMMANDS)
def test_a_folder_with_nothing_to_do_is_exit_2(command: str, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = run(command, tmp_path / "empty", "-o", tmp_path / "out/")
    assert result.exit_code == 2
    assert "error: no PDF" in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unreadable_file_is_exit_1(command: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.7\n garbage that is no PDF at all\n")
    result = run(command, bad)
    assert result.exit_code == 1
    assert f"{bad}: " in (result.stderr + result.stdout)


@pytest.mark.parametrize("command", ["split", "check"])
def test_max_tokens_under_the_floor_is_a_one_line_usage_error(command: str, guide_md: Path) -> None:
    result = run(command, guide_md, "--max-tokens", "8")
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: --max-tokens must be at least 16, got 8: ")


@pytest.mark.parametrize("command", ["convert", "split"])
def test_bad_pages_is_a_one_line_usage_error(command: str, report_pdf: Path) -> None:
    result = run(command, report_pdf, "--pages", "7-3")
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line == "error: --pages: bad page selection '7-3': range '7-3' runs backwards"


# --- standard input and output ----------------------------------------------------------------


def test_convert_reads_a_pdf_on_stdin(report_pdf: Path) -> None:
    piped = run("convert", "-", stdin=report_pdf.read_bytes())
    direct = run("convert", report_pdf)
    assert piped.exit_code == 0, piped.stderr
    first, rest = piped.stdout.split("\n", 1)
    assert first.startswith('<!-- chunkcli source="-" sha256="')
    assert rest == direct.stdout.split("\n", 1)[1]


def test_convert_stdin_that_is_no_pdf_names_stdin(tmp_path: Path) -> None:
    result = run("convert", "-", stdin=b"plain words, no PDF")
    assert result.exit_code == 1
    assert "<stdin>" in result.stderr and "chunkcli-stdin" not in result.stderr
    assert result.stdout == ""


def test_split_reads_a_pdf_on_stdin_with_a_source_name(report_pdf: Path) -> None:
    result = run("split", "-", "--source", "field.pdf", stdin=report_pdf.read_bytes())
    assert result.exit_code == 0, result.stderr
    chunks = chunks_of(result.stdout)
    assert [c["source"] for c in chunks] == ["field.pdf"] * len(chunks) and chunks
    assert chunks[0]["title"] == "Field Report"


def test_split_source_names_stdin_markdown() -> None:
    result = run("split", "-", "--source", "notes/guide.md", stdin=CLEAN_MARKDOWN.encode())
    assert result.exit_code == 0
    assert {c["source"] for c in chunks_of(result.stdout)} == {"notes/guide.md"}


@pytest.mark.parametrize("command", ["split", "check"])
def test_dash_output_is_stdout(command: str, guide_md: Path, tmp_path: Path) -> None:
    result = run(command, guide_md, "-o", "-", "--json" if command == "check" else "-q")
    assert result.exit_code == 0
    assert result.stdout.strip().startswith("{")
    assert not (tmp_path / "-").exists()


def test_check_writes_its_report_to_a_file(guide_md: Path, tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    result = run("check", guide_md, "--json", "-o", target)
    assert result.exit_code == 0 and result.stdout == ""
    assert json.loads(target.read_text())["summary"]["documents"] == 1


def test_check_of_latin1_on_stdin_fails_cleanly() -> None:
    result = run("check", "-", stdin="Caf\xe9 cr\xe8me\n".encode("latin-1"))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "<stdin>: not UTF-8 text (bad byte at offset 3)" in result.stdout


def test_check_reads_a_pdf_on_stdin(report_pdf: Path) -> None:
    result = run("check", "-", "--json", stdin=report_pdf.read_bytes())
    assert result.exit_code == 0, result.output
    [document] = json.loads(result.stdout)["documents"]
    assert document["pages"] == 1 and document["headings_by_level"][:2] == [1, 0]


# --- provenance -------------------------------------------------------------------------------


def test_convert_then_split_cites_the_pdf_as_split_of_the_pdf_does(
    report_pdf: Path, tmp_path: Path
) -> None:
    """The chunks cite the PDF (source, its hash); the id is the file's own (issue 30: two
    files are never one document)."""
    markdown = tmp_path / "report.md"
    assert run("convert", report_pdf, "-o", markdown).exit_code == 0
    via_markdown = chunks_of(run("split", markdown).stdout)
    via_pdf = chunks_of(run("split", report_pdf).stdout)
    assert [c["source"] for c in via_markdown] == ["report.pdf"] * len(via_markdown)
    assert via_markdown[0]["source_sha256"] == via_pdf[0]["source_sha256"]
    assert {c["doc_id"] for c in via_markdown} == {"report.md"}
    assert {c["doc_id"] for c in via_pdf} == {"report.pdf"}


# --- folders --------------------------------------------------------------------------------


def test_split_of_a_folder_keeps_going_past_a_bad_file(
    tmp_path: Path, report_pdf: Path, guide_md: Path
) -> None:
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really\n")
    (tmp_path / "latin.md").write_bytes("caf\xe9\n".encode("latin-1"))
    out = tmp_path / "out" / "chunks.jsonl"
    out.parent.mkdir()
    result = run("split", tmp_path, "-o", out)
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 2
    assert "broken.pdf" in errors[0] and "latin.md: not UTF-8" in errors[1]
    assert "failed: 2 of 4 documents" in result.stderr
    sources = {c["source"] for c in chunks_of(out.read_text())}
    assert sources == {str(guide_md), str(report_pdf)}  # the folder's PDF and Markdown both


def test_split_writes_nothing_when_every_input_fails(tmp_path: Path) -> None:
    (tmp_path / "latin.md").write_bytes("caf\xe9\n".encode("latin-1"))
    out = tmp_path / "chunks.jsonl"
    result = run("split", tmp_path / "latin.md", "-o", out)
    assert result.exit_code == 1 and not out.exists()


def test_check_takes_a_password(locked_pdf: Path) -> None:
    assert run("check", locked_pdf).exit_code == 1
    result = run("check", locked_pdf, "--password", "s3cret", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["documents"][0]["status"] == "ok"


def test_open_page_range(two_page_pdf: Path) -> None:
    result = run("convert", two_page_pdf, "--pages", "2-")
    assert result.exit_code == 0
    markers = [line for line in result.stdout.splitlines() if line.startswith("<!-- page")]
    assert markers == ["<!-- page 2 -->"]


# --- quiet and the check report's width -------------------------------------------------------


def test_quiet_silences_summaries(report_pdf: Path, tmp_path: Path) -> None:
    loud = run("convert", report_pdf, report_pdf.parent, "-o", tmp_path / "md/")
    quiet = run("convert", report_pdf, "-o", tmp_path / "md2/", "-q")
    assert "converted 1 of 1 PDF" in loud.stderr
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_check_report_at_80_columns_is_one_block_per_document(
    guide_md: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    result = run("check", guide_md)
    lines = result.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    # a long name is shortened from the left to one line (issue 25), a short one is whole
    name = str(guide_md)
    assert lines[0] == (f"ok {name}" if len(name) <= 77 else f"ok …{name[-76:]}")
    assert lines[1:] == [
        "    1 page, headings 1·1, 0 tables, 0 empty, 0 scanned, 2 chunks, 60 tokens",
        "1 document: 1 ok, 0 warn, 0 fail",
        "1 page (0 scanned, 0 OCR, 0 blank), 2 chunks, 60 tokens",
    ]


def test_check_report_on_a_wide_terminal_is_a_table(
    guide_md: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    lines = run("check", guide_md).stdout.splitlines()
    assert lines[1].replace("┃", " ").split() == [
        "document", "pages", "headings", "depth", "tables", "empty", "scanned", "boilerplate",
        "chunks", "tokens", "status", "reasons",
    ]  # fmt: skip


# --- Ctrl-C ---------------------------------------------------------------------------------


def test_ctrl_c_in_folder_mode_says_how_far_it_got(tmp_path: Path) -> None:
    src = tmp_path / "pdfs"
    src.mkdir()
    from conftest import report_items

    for i in range(40):
        make_pdf(src / f"r{i:02}.pdf", [report_items()] * 30)
    for i in range(3):  # the largest files start first: these fail first, counted apart
        (src / f"a{i}.pdf").write_bytes(b"not a PDF\n" * 500_000)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # Workers (the default) ignore SIGINT; the parent, waiting on them, takes it.
    command = [
        sys.executable,
        "-m",
        "chunkcli",
        "convert",
        str(src),
        "-o",
        str(tmp_path / "md"),
        "--jobs",
        "2",
    ]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    # A fifth file means the workers took new work twice since the three bad files (largest,
    # so first, and failing at once): the parent has counted them and some finished files
    # (with two workers, the first two may be written before either result is collected; on
    # a loaded machine a third file came before the third failure was counted).
    while time.monotonic() < deadline and len(list((tmp_path / "md").glob("*.md"))) < 5:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    [line] = [line for line in stderr.splitlines() if line.strip()]
    assert line.startswith("error: interrupted: ")
    match = re.fullmatch(
        rf"error: interrupted: (\d+) of 43 PDFs finished; ([123]) failed; "
        rf"their Markdown is in {re.escape(str(tmp_path / 'md'))}/",
        line,
    )
    # (MuPDF's repair of 5 MB that is not a PDF can outlast several good files under load:
    # the failures counted are those collected, never counted as finished.)
    assert match is not None, line
    finished = int(match.group(1))
    # written, not failed (a worker may have written one more as the signal came)
    assert 1 <= finished <= len(list((tmp_path / "md").glob("*.md"))) <= finished + 2


# --- defaults -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "options"),
    [("split", "chunkcli.split.options:SplitOptions"),
     ("sync", "chunkcli.split.options:SplitOptions"),
     ("check", "chunkcli.check.options:CheckOptions"),
     ("convert", "chunkcli.convert.ocr.options:OcrOptions"),
     ("split", "chunkcli.convert.ocr.options:OcrOptions"),
     ("check", "chunkcli.convert.ocr.options:OcrOptions"),
     ("sync", "chunkcli.convert.ocr.options:OcrOptions"),
     ("eval", "chunkcli.convert.ocr.options:OcrOptions"),
     ("split", "chunkcli.workers:WorkerPool"), ("check", "chunkcli.workers:WorkerPool"),
     ("convert", "chunkcli.workers:WorkerPool"), ("eval", "chunkcli.workers:WorkerPool"),
     ("sync", "chunkcli.workers:WorkerPool")],
)  # fmt: skip
def test_every_flag_defaults_to_its_option_field(command: str, options: str) -> None:
    """Every flag's default is its option field's (the CLI reads them off the classes)."""
    import importlib

    import typer.main

    module, name = options.split(":")
    defaults = getattr(importlib.import_module(module), name)()
    click_command = typer.main.get_command(app).commands[command]  # type: ignore[attr-defined]
    aliases: dict[str, str | None] = {"timeout": "timeout_s", "output_format": None,
                                      "ocr_page_time": "ocr_page_time_s",
                                      "engine": None}  # fmt: skip
    if name == "OcrOptions":  # the --ocr* flags, and no other, are OcrOptions' fields
        aliases = {"ocr": "mode", "ocr_lang": "lang", "ocr_engine": "engine", "ocr_dpi": "dpi",
                   "mode": None, "engine": None, "jobs": None}  # fmt: skip
    compared = 0
    for param in click_command.params:
        field = aliases.get(param.name, param.name)
        if field and hasattr(defaults, field) and param.default is not None:
            expected = getattr(defaults, field)
            assert param.default == getattr(expected, "value", expected), (command, param.name)
            compared += 1
    assert compared >= 1


def test_loading_the_cli_loads_no_document_machinery() -> None:
    """`--help` and option defaults come from light modules: the splitter, the checks and
    PyMuPDF load only when a command runs (start-up cost, docs/conventions.md)."""
    code = (
        "import sys, chunkcli.cli;"
        "heavy = ('chunkcli.split.run', 'chunkcli.check.run', 'markdown_it', 'pymupdf', 'numpy',"
        " 'rich.console');"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_splitting_markdown_loads_no_pdf_machinery(tmp_path: Path) -> None:
    """`split notes.md` runs without PyMuPDF, the OCR runners or rich's console (a quiet run
    prints nothing), and does not ask Tesseract for its languages (--ocr-lang auto checks
    none): what a Markdown-only run pays for at start-up (docs/conventions.md)."""
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\n## Pumps\n\nCheck the seals.\n", encoding="utf-8")
    out = tmp_path / "chunks.jsonl"
    code = (
        "import runpy, subprocess, sys\n"
        "ran = []\n"
        "real = subprocess.run\n"
        "subprocess.run = lambda argv, *a, **k: ran.append(argv[0]) or real(argv, *a, **k)\n"
        f"sys.argv = ['chunkcli', 'split', {str(notes)!r}, '-q', '-o', {str(out)!r}]\n"
        "try:\n"
        "    runpy.run_module('chunkcli', run_name='__main__')\n"
        "except SystemExit as stop:\n"
        "    assert not stop.code, stop.code\n"
        "heavy = ('pymupdf', 'fitz', 'chunkcli.convert.pipeline', 'chunkcli.convert.ocr.tesseract',"
        " 'rich.console', 'PIL')\n"
        "print(sorted(m for m in heavy if m in sys.modules), ran)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[] []"
    assert out.read_text(encoding="utf-8").count("\n") == 1


def test_help_lists_the_commands_in_the_order_of_the_work() -> None:
    listed = [line.split()[0] for line in run("--help").stdout.split("Commands:")[1].splitlines()
              if line.startswith("  ") and not line.startswith("   ")]  # fmt: skip
    assert listed == ["convert", "split", "sync", "check", "eval"]

"""One set of conversion options on every command that reads PDFs, and outputs written the
same way everywhere (missing folders created)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chunkcli.cli import app
from tests.pdf_factory import Text, grid_table, make_pdf

runner = CliRunner()
CONVERTING_COMMANDS = ("convert", "split", "check", "sync", "eval")
CONVERSION_FLAGS = ("--password", "--no-tables", "--ocr", "--ocr-lang", "--ocr-dpi", "--ocr-engine")


def table_pdf(path: Path) -> Path:
    """A page with a ruled grid of prices: a table unless --no-tables."""
    rows = [("Item", "Price", "Stock"), ("Apple", "120", "40"), ("Pear", "150", "12"),
            ("Plum", "90", "75")]  # fmt: skip
    items = [Text(72, 60, "Prices", size=16), *grid_table(72, 100, (150, 90, 90), 24, rows)]
    return make_pdf(path, [items])


def help_of(command: str) -> str:
    return runner.invoke(app, [command, "--help"], terminal_width=200).stdout


@pytest.mark.parametrize("command", CONVERTING_COMMANDS)
def test_every_converting_command_takes_the_conversion_flags(command: str) -> None:
    shown = help_of(command)
    assert [flag for flag in CONVERSION_FLAGS if flag not in shown] == []


def test_sync_and_eval_take_the_split_mode() -> None:
    assert "--mode" in help_of("sync") and "--rows-per-chunk" in help_of("sync")


def test_no_tables_reaches_split_and_check(tmp_path: Path) -> None:
    pdf = table_pdf(tmp_path / "prices.pdf")
    with_tables = runner.invoke(app, ["split", str(pdf)])
    without = runner.invoke(app, ["split", str(pdf), "--no-tables"])
    assert with_tables.exit_code == without.exit_code == 0
    body = "".join(json.loads(line)["body"] for line in with_tables.stdout.splitlines())
    plain = "".join(json.loads(line)["body"] for line in without.stdout.splitlines())
    assert "| Item | Price | Stock |" in body and "| Item" not in plain and "Plum" in plain
    report = runner.invoke(app, ["check", str(pdf), "--no-tables", "--json"])
    assert json.loads(report.stdout)["documents"][0]["tables"] == 0


@pytest.mark.parametrize("command", ["split", "check", "convert"])
def test_an_unknown_ocr_language_is_a_usage_error_naming_the_installed(
    tmp_path: Path, command: str
) -> None:
    from chunkcli.convert.ocr.tesseract import tesseract_languages

    if not tesseract_languages("tesseract"):
        pytest.skip("Tesseract is not installed: pages are marked instead (convert's note)")
    pdf = make_pdf(tmp_path / "a.pdf", [[Text(72, 72, "Hello")]])
    done = runner.invoke(app, [command, str(pdf), "--ocr-lang", "xyz"])
    assert done.exit_code == 2
    assert "no Tesseract data for xyz; installed: " in done.stderr and "eng" in done.stderr


@pytest.mark.parametrize("command", ["split", "check"])
def test_output_folders_are_created(tmp_path: Path, command: str) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\n## Pumps\n\nCheck the seals weekly.\n", encoding="utf-8")
    target = tmp_path / "new" / "deeper" / "out.txt"
    done = runner.invoke(app, [command, str(notes), "-o", str(target)])
    assert done.exit_code in (0, 1), done.output  # check: 1 is its verdict on the document
    assert target.read_text(encoding="utf-8").strip() != ""


def test_an_eval_config_takes_the_split_mode() -> None:
    from chunkcli.errors import UsageError
    from chunkcli.evaluate.configs import parse_config
    from chunkcli.split.options import SplitMode

    config = parse_config("laws=--mode laws --rows-per-chunk 2")
    assert (config.options.mode, config.options.rows_per_chunk) == (SplitMode.LAWS, 2)
    with pytest.raises(UsageError, match=r"--config x: --mode must be one of heading\|laws"):
        parse_config("x=--mode nope")


def test_sync_cuts_with_the_mode_it_is_given(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "law.md").write_text(
        "# 規則\n\n第一条　この規則は目的を定める。\n\n第二条　用語を定める。\n\n"
        "第三条　施行する。\n",
        encoding="utf-8",
    )
    out = tmp_path / "changes.jsonl"
    args = ["sync", str(corpus), "-m", str(tmp_path / "m.db"), "-o", str(out), "--mode", "laws"]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    modes = {json.loads(line)["split_config"].get("mode") for line in out.read_text().splitlines()}
    assert modes == {"laws"}

"""Inputs that are not regular files, and a full disk behind stdout (issue 26): one line
naming the file and the reason, never a hang, a traceback or a read without end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chunkcli.cli import app
from tests.pdf_factory import Text, make_pdf

runner = CliRunner()
NOTE = "# Notes\n\n## Pumps\n\nCheck the seals weekly.\n"


def run_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The real CLI in a child process, so that a hang fails the test instead of the run."""
    command = [sys.executable, "-m", "chunkcli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.mark.parametrize("command", ["split", "check"])
def test_a_fifo_given_by_name_is_refused(tmp_path: Path, command: str) -> None:
    fifo = tmp_path / "notes.md"
    os.mkfifo(fifo)
    done = run_cli(command, str(fifo))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"error: {fifo}: not a regular file (a FIFO, device or socket): not read"
    )


def test_odd_files_in_a_folder_fail_alone(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "good.md").write_text(NOTE, encoding="utf-8")
    os.mkfifo(corpus / "pipe.md")
    os.mkfifo(corpus / "pipe.pdf")
    (corpus / "zero.md").symlink_to("/dev/zero")
    done = run_cli("split", str(corpus))
    assert done.returncode == 1
    errors = sorted(line for line in done.stderr.splitlines() if line.startswith("error:"))
    assert errors == [
        f"error: {corpus / name}: not a regular file (a FIFO, device or socket): not read"
        for name in ("pipe.md", "pipe.pdf", "zero.md")
    ]
    assert '"doc_id": "good.md"' in done.stdout


def test_convert_refuses_a_fifo_named_pdf_in_a_folder(tmp_path: Path) -> None:
    papers = tmp_path / "papers"
    make_pdf(papers / "good.pdf", [[Text(72, 72, "A good page.")]])
    os.mkfifo(papers / "pipe.pdf")
    done = run_cli("convert", str(papers), "-o", f"{tmp_path / 'out'}/", "-q")
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"error: {papers / 'pipe.pdf'}: not a regular file (a FIFO, device or socket)"
    )
    assert (tmp_path / "out" / "good.md").exists()


def test_a_full_disk_behind_stdout_is_one_line(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    notes = tmp_path / "notes.md"
    notes.write_text(NOTE * 2000, encoding="utf-8")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "chunkcli", "split", str(notes)],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=60, check=False,
        )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip() == "error: stdout: cannot write: No space left on device"


def test_page_numbers_beyond_nine_digits_are_no_page_markers(tmp_path: Path) -> None:
    """Issue 30: a 5,000-digit page number passed int()'s limit (a traceback in split and
    check), one above 2^63 overflowed the sync manifest. Such a comment is no page marker."""
    from chunkcli.markdown_format import parse_page_marker

    huge = "<!-- page " + "9" * 5000 + " -->"
    assert parse_page_marker(huge) is None
    assert parse_page_marker("<!-- page 99999999999999999999 -->") is None
    assert parse_page_marker("<!-- page 123456789 -->") is not None
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    text = f"# Title here\n\n{huge}\n\nText here.\n\n<!-- page 99999999999999999999 -->\n\nMore.\n"
    (corpus / "big.md").write_text(text, encoding="utf-8")
    sync = ["sync", str(corpus), "-m", str(tmp_path / "m.db"), "-o", str(tmp_path / "c")]
    for args in (["split", str(corpus)], ["split", str(corpus), "--mode", "laws"],
                 ["check", str(corpus)], sync):  # fmt: skip
        done = runner.invoke(app, args)
        assert done.exception is None or isinstance(done.exception, SystemExit), args
        assert "Traceback" not in done.output


@pytest.mark.parametrize("command", ["split", "sync"])
def test_output_to_a_fifo_writes_into_it_and_leaves_it_a_fifo(tmp_path: Path, command: str) -> None:
    """`-o /dev/null` (or any device or FIFO) is written in place: renaming a temporary file
    over it, as for a file, replaced /dev/null itself with a regular file. A FIFO stands in
    for the device here, so that a failure cannot break the machine running the test."""
    import stat
    import threading

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    extra = ["-m", str(tmp_path / "m.db")] if command == "sync" else []
    result = CliRunner().invoke(app, [command, str(notes), "-o", str(fifo), *extra])
    reader.join(timeout=30)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert b'"body": "# A\\n\\nText.\\n"' in received[0]

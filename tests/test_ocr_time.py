"""OCR's time: a PDF's limit is --timeout plus --ocr-page-time for each page it reads by OCR,
in its worker (the soft alarm), in the parent (the kill deadline) and in OCR's own deadline;
a limit that is still too small marks the pages it cuts, exits 1 and names them.

The CLI runs a Tesseract that waits SLOW_READING_S before each reading, so that the time a
page takes has a floor on every machine (the real engine reads the generated pages)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from chunkcli import workers
from chunkcli.workers import WorkerPool, run_in_workers
from tests.batch_work import sleep_after_ocr_pages
from tests.pdf_factory import make_pdf
from tests.scan_factory import scan_pdf
from tests.test_ocr import page_of

ROOT = Path(__file__).resolve().parents[1]
SLOW_READING_S = 1.0


@pytest.fixture(scope="module")
def slow_tesseract(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder whose `tesseract` sleeps SLOW_READING_S before every reading (not before
    --version or --list-langs), then runs the real one."""
    real = shutil.which("tesseract")
    assert real, "Tesseract is missing: run `make ocr-deps`"
    folder = tmp_path_factory.mktemp("slow-bin")
    script = folder / "tesseract"
    script.write_text(
        f'#!/bin/sh\ncase "$1" in --*) exec {real} "$@";; esac\n'
        f'sleep {SLOW_READING_S}\nexec {real} "$@"\n'
    )
    script.chmod(0o755)
    return folder


@pytest.fixture(scope="module")
def three_page_scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scan")
    typed = make_pdf(folder / "typed.pdf", [page_of("en")] * 3)
    return scan_pdf(typed, folder / "scan.pdf")


def convert(
    pdf: Path, target: Path, bin_dir: Path, *flags: str
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    command = [sys.executable, "-m", "chunkcli", "convert", str(pdf), "-o", str(target), *flags]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)


def markers(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("<!-- page ")]


def test_a_short_timeout_reads_every_page_when_the_page_time_covers_them(
    tmp_path: Path, slow_tesseract: Path, three_page_scan: Path
) -> None:
    """--timeout 2 alone cannot fit language detection and three readings of 1+ s each (the
    alarm at 2 s, the kill at 7 s); each OCR page's 20 s (the default) can."""
    done = convert(three_page_scan, tmp_path / "scan.md", slow_tesseract, "--timeout", "2")
    assert done.returncode == 0, done.stderr
    found = markers((tmp_path / "scan.md").read_text(encoding="utf-8"))
    assert [line.split(":")[0] for line in found] == [f"<!-- page {n}" for n in (1, 2, 3)]
    assert all(": ocr conf=0.9" in line for line in found), found
    assert "ocr skipped" not in done.stderr


def test_a_limit_too_small_marks_the_pages_it_cuts_and_exits_1(
    tmp_path: Path, slow_tesseract: Path, three_page_scan: Path
) -> None:
    """2 s + 3 x 0.1 s, less 1.06 s for the stages after OCR, ends OCR 1.24 s in: language
    detection takes 1+ s, so no page's reading can end in time."""
    target = tmp_path / "scan.md"
    flags = ("--timeout", "2", "--ocr-page-time", "0.1")
    done = convert(three_page_scan, target, slow_tesseract, *flags)
    assert done.returncode == 1
    assert markers(target.read_text(encoding="utf-8")) == [
        f"<!-- page {n}: ocr skipped: time limit -->" for n in (1, 2, 3)
    ]
    [error] = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert error == (
        f"error: {three_page_scan}: page 1-3: not read by OCR: the time limit ran out first "
        "(their markers say 'ocr skipped'); raise --timeout or --ocr-page-time, or give "
        "--timeout 0 for no limit"
    )


def test_the_parent_moves_a_workers_kill_deadline_by_its_ocr_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both items sleep 2 s past a 0.3 s limit (kill at 0.5 s): the one that reported 10
    pages to OCR at 1 s each is let finish, the other is killed."""
    monkeypatch.setattr(workers, "KILL_GRACE_S", 0.2)
    items = [Path("10.pdf"), Path("0.pdf")]
    pool = WorkerPool(2, 0.3, ocr_page_time_s=1.0)
    finished = run_in_workers(
        items, sleep_after_ocr_pages, pool=pool, source_of=Path, on_pages=lambda *_: None
    )
    results = {items[index].name: str(result) for index, result, _ in finished}
    assert results == {
        "10.pdf": "10.pdf",
        "0.pdf": "0.pdf: timed out after 0.3 s (--timeout); its worker was killed",
    }


def test_the_limit_in_words_names_what_it_is_made_of() -> None:
    pool = WorkerPool(timeout_s=120, ocr_page_time_s=20)
    assert pool.limit_s(14) == 400.0 and pool.limit_s() == 120.0
    assert WorkerPool(timeout_s=0).limit_s(14) == 0.0
    assert pool.limit_text(14) == ("400 s (--timeout 120 + 14 OCR pages x --ocr-page-time 20)")

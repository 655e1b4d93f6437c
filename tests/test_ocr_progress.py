"""Progress counts pages: OCR tells how many pages of a document are done as they are read
(pages without a text layer, then text pages whose figures it reads), worker processes pass
that to the parent, and the CLI's bar advances by pages (OCR pages as they are read, the
file's other pages when it is done)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pymupdf

from chunkcli.batch import convert_many, pages_to_convert
from chunkcli.cli.convert import _PagesTold
from chunkcli.convert.ocr import OcrOptions
from chunkcli.convert.ocr.options import OcrMode
from chunkcli.convert.pipeline import ConvertOptions, convert_pdf
from chunkcli.workers import WorkerPool, run_in_workers
from tests.batch_work import name_after_pages
from tests.pdf_factory import make_pdf, wrapped_paragraph
from tests.scan_factory import scan_pdf
from tests.test_figures import INTRO, _figures, _report
from tests.test_ocr import EN, page_of


def scanned_with_a_text_page(folder: Path) -> Path:
    """Three pages: scanned, typed, scanned."""
    scan = scan_pdf(make_pdf(folder / "en.pdf", [page_of("en")]), folder / "scan.pdf")
    typed = make_pdf(folder / "typed.pdf", [wrapped_paragraph(72, 100, 440, EN, 12)])
    with pymupdf.open(scan) as doc, pymupdf.open(typed) as text, pymupdf.open(scan) as again:
        doc.insert_pdf(text)
        doc.insert_pdf(again)
        doc.save(folder / "mixed.pdf")
    return folder / "mixed.pdf"


def recorder() -> tuple[list[tuple[object, ...]], Callable[..., None]]:
    heard: list[tuple[object, ...]] = []
    return heard, lambda *args: heard.append(args)


def test_ocr_tells_the_pages_done_in_order(tmp_path: Path) -> None:
    heard, hear = recorder()
    pdf = scanned_with_a_text_page(tmp_path)
    options = ConvertOptions(ocr=OcrOptions(lang="eng", jobs=2))
    result = convert_pdf(pdf, options, on_ocr_pages=hear)
    assert result.ocr_pages == (1, 3)
    # First how many there are, before any is read; both pages may then finish before the
    # next report: the count only grows, and ends at 2.
    assert heard in ([(0, 2), (1, 2), (2, 2)], [(0, 2), (2, 2)])


def scan_then_a_figure_then_text(folder: Path) -> Path:
    """Three pages: scanned, typed with a raster chart holding words, typed."""
    scan = scan_pdf(make_pdf(folder / "en.pdf", [page_of("en")]), folder / "scan.pdf")
    typed = make_pdf(folder / "typed.pdf", [wrapped_paragraph(72, 100, 440, EN, 12)])
    with pymupdf.open(scan) as doc, pymupdf.open(stream=_report()) as figure:
        doc.insert_pdf(figure)
        with pymupdf.open(typed) as text:
            doc.insert_pdf(text)
        doc.save(folder / "figure.pdf")
    return folder / "figure.pdf"


def test_a_page_whose_figure_ocr_reads_counts_after_the_scanned_pages(tmp_path: Path) -> None:
    heard, hear = recorder()
    pdf = scan_then_a_figure_then_text(tmp_path)
    result = convert_pdf(pdf, ConvertOptions(ocr=OcrOptions(lang="eng")), on_ocr_pages=hear)
    assert result.ocr_pages == (1,)
    assert [words.split()[0] for _, words in _figures(result)] == ["North"]
    # The scanned page: 0 of 1, then 1 of 1. The figure's page: the pages to read grow to 2
    # before it is read, then it is done.
    assert heard == [(0, 1), (1, 1), (1, 2), (2, 2)]


def _words_png(words: str) -> bytes:
    """A picture of words alone (no rules: the table picture gate passes it to figures)."""
    doc = pymupdf.open()
    page = doc.new_page(width=320, height=120)
    page.insert_text((20, 60), words, fontsize=14)
    return bytes(page.get_pixmap(dpi=200).tobytes("png"))


def test_a_page_counts_once_for_all_its_pictures_and_ocr_never_counts_none() -> None:
    heard, hear = recorder()
    doc = pymupdf.open(stream=_report())
    notice = pymupdf.Rect(72, 420, 392, 540)
    doc[0].insert_image(notice, stream=_words_png("Opening hours Monday to Friday"))
    second = doc.new_page(width=595, height=842)
    second.insert_text((72, 90), INTRO, fontsize=10)
    second.insert_image(notice, stream=_words_png("Closed on public holidays"))
    pdf = doc.tobytes()
    result = convert_pdf(pdf, on_ocr_pages=hear)
    # Page 1: the chart is read as a table picture (its grid makes no table), the notice as a
    # figure: one page read by OCR. Page 2: its notice, read as a figure.
    firsts = [words.split()[0] for _, words in _figures(result)]
    assert firsts == ["North", "Opening", "Closed"]
    assert heard == [(0, 1), (1, 1), (1, 2), (2, 2)]
    heard.clear()
    convert_pdf(pdf, ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER)), on_ocr_pages=hear)
    assert heard == []


def test_a_page_whose_figure_ocr_reads_moves_the_deadline_like_a_page_to_ocr() -> None:
    # One second left is too little to read a picture (pictures.MIN_SECONDS_LEFT): the page
    # with the figure adds its --ocr-page-time, as the file's own limit grows (batch.py).
    soon = time.monotonic() + 1.0
    unmoved = convert_pdf(_report(), ConvertOptions(ocr=OcrOptions(deadline=soon)))
    assert _figures(unmoved) == [("Figure 1. Sales by region", "")]
    moved = OcrOptions(deadline=time.monotonic() + 1.0, page_time_s=60.0)
    result = convert_pdf(_report(), ConvertOptions(ocr=moved))
    assert [words.split()[0] for _, words in _figures(result)] == ["North"]
    assert result.warnings == ()


def test_worker_processes_pass_page_reports_to_the_parent() -> None:
    heard, hear = recorder()
    items = [Path("ab.pdf"), Path("xyz.pdf")]
    pool = WorkerPool(2, 0)
    finished = list(
        run_in_workers(items, name_after_pages, pool=pool, source_of=Path, on_pages=hear)
    )
    assert sorted(result for _, result, _ in finished) == ["ab.pdf", "xyz.pdf"]
    assert sorted(heard) == [(0, 1), (0, 2), (1, 1), (1, 2), (1, 3)]


def test_convert_many_names_the_file_whose_pages_are_done(tmp_path: Path) -> None:
    heard, hear = recorder()
    pdf = scanned_with_a_text_page(tmp_path)
    options = ConvertOptions(ocr=OcrOptions(lang="eng"))
    summary = convert_many(
        [(pdf, Path("mixed.md"))], None, options, pool=WorkerPool(2), on_pages=hear
    )
    assert summary.outcomes[0].ocr == (1, 3)
    assert heard in ([(pdf, 0), (pdf, 1), (pdf, 2)], [(pdf, 0), (pdf, 2)])
    assert pages_to_convert(pdf, None) == 3 and pages_to_convert(pdf, (2, 3, 9)) == 2
    assert pages_to_convert(tmp_path / "missing.pdf", None) == 1


def test_the_bar_advances_by_ocr_pages_then_by_the_rest_of_the_file() -> None:
    steps: list[tuple[str, int]] = []
    told = _PagesTold({Path("a.pdf"): 5, Path("b.pdf"): 1}, lambda name, n: steps.append((name, n)))
    told.pages(Path("a.pdf"), 1)
    told.pages(Path("a.pdf"), 3)
    told.pages(Path("a.pdf"), 3)  # no news: no step
    told.finished(Path("b.pdf"))
    told.finished(Path("a.pdf"))
    assert steps == [("a.pdf: OCR", 1), ("a.pdf: OCR", 2), ("b.pdf", 1), ("a.pdf", 2)]

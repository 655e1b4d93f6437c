"""OCR pieces without the engine: TSV parsing, words -> Lines, the marker note, chunk and check
plumbing of the confidence."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkcli.check import check_markdown
from chunkcli.check.ocr import check_ocr
from chunkcli.check.options import CheckOptions
from chunkcli.convert.extract.pages import needs_ocr
from chunkcli.convert.ocr import OcrMode, OcrSettings
from chunkcli.convert.ocr.lines import words_to_lines
from chunkcli.convert.ocr.read import page_confidence, retry_languages
from chunkcli.convert.ocr.tesseract import OcrWord, parse_tsv
from chunkcli.jsonl import chunk_from_dict, chunk_to_dict
from chunkcli.markdown_format import PageMarker, format_page_marker, ocr_confidences
from chunkcli.model import Page, PageStatus
from chunkcli.split import split_markdown
from chunkcli.split.build import lowest_confidence

HEADER = "\t".join(
    "level page_num block_num par_num line_num word_num left top width height conf text".split()
)


def word(text: str, left: int, top: int = 100, line: int = 1, conf: float = 0.9) -> OcrWord:
    return OcrWord(text, left, top, 10 * len(text), 40, conf, (1, 1, line))


def test_parse_tsv_keeps_word_rows_with_a_confidence() -> None:
    rows = [
        HEADER,
        "1\t1\t0\t0\t0\t0\t0\t0\t1654\t2339\t-1\t",
        "5\t1\t1\t1\t1\t1\t200\t300\t120\t40\t96.5\tArchive",
        "5\t1\t1\t1\t1\t2\t330\t300\t90\t40\t91\tNotes",
        "5\t1\t1\t1\t2\t1\t200\t360\t10\t40\t95\t ",
    ]
    assert parse_tsv("\n".join(rows)) == (
        OcrWord("Archive", 200, 300, 120, 40, 0.965, (1, 1, 1)),
        OcrWord("Notes", 330, 300, 90, 40, 0.91, (1, 1, 1)),
    )


def blank(height: int = 600, width: int = 800) -> npt.NDArray[np.uint8]:
    return np.full((height, width), 255, dtype=np.uint8)


def inked(gray: npt.NDArray[np.uint8], word: OcrWord, rows: tuple[int, int]) -> OcrWord:
    """Paint rows [rows) of the word's box with the stems of letters (every other pair of
    columns dark: half of each row, as lettering covers) and return the word."""
    band = gray[word.top + rows[0] : word.top + rows[1], word.left : word.left + word.width]
    band[:, [x for x in range(band.shape[1]) if x % 4 < 2]] = 0
    return word


def test_words_join_with_spaces_except_between_cjk_characters() -> None:
    words = [word("吾輩", 0), word("は", 30), word("cat", 60), word("is", 100),
             word("대한", 0, 200, 2), word("민국", 50, 200, 2)]  # fmt: skip
    lines = words_to_lines(words, 72 / 200, False, OcrSettings(), blank())
    assert [line.text for line in lines] == ["吾輩は cat is", "대한 민국"]
    assert lines[0].bbox.x0 == 0 and lines[0].bbox.top == 100 * 72 / 200


def test_a_line_s_size_is_its_words_median_ink_band_not_their_boxes() -> None:
    gray = blank()
    # Three words of one line: boxes 40, 90 and 40 px tall (Tesseract's boxes vary so), the
    # ink 32 px high in each; a mark of punctuation 6 px high is left out of the median.
    line = [inked(gray, OcrWord("body", 0, 100, 80, 40, 0.9, (1, 1, 1)), (4, 36)),
            inked(gray, OcrWord("text", 90, 100, 80, 90, 0.9, (1, 1, 1)), (4, 36)),
            inked(gray, OcrWord("、", 180, 100, 20, 40, 0.9, (1, 1, 1)), (30, 36)),
            inked(gray, OcrWord("here", 210, 100, 80, 40, 0.9, (1, 1, 1)), (4, 36))]  # fmt: skip
    # A title whose ink is 48 px high, and a rule drawn across its box (not lettering).
    title = inked(gray, OcrWord("Title", 0, 300, 200, 80, 0.9, (1, 2, 1)), (8, 56))
    gray[379, 0:200] = 0
    sizes = [line.size for line in words_to_lines([*line, title], 1.0, False, OcrSettings(), gray)]
    assert sizes == [40.0, 60.0]  # 32 / 0.8 and 48 / 0.8 (an ink band is 0.8 em)


def test_line_sizes_near_the_median_are_the_body_size() -> None:
    gray = blank(1000)
    tall = inked(gray, OcrWord("Title", 0, 0, 200, 100, 0.9, (1, 1, 1)), (10, 58))
    body = [inked(gray, OcrWord("body", 0, 200 + 60 * i, 80, 50, 0.9, (1, 1, 2 + i)), (5, 38 + i))
            for i in range(4)]  # fmt: skip
    sizes = [line.size for line in words_to_lines([tall, *body], 1.0, False, OcrSettings(), gray)]
    # bands 48 and 33-36 px: the median line's 35 px / 0.8 (43.75) for all four body lines
    assert sizes == [60.0, 44.0, 44.0, 44.0, 44.0]


def test_a_vertical_line_s_band_runs_across_its_column() -> None:
    gray = blank()
    column = OcrWord("縦書き", 100, 50, 60, 300, 0.9, (1, 1, 1))
    gray[50:350:4, 110:150] = 0  # 40 px of ink across the column, in strokes
    # A horizontal line on the same vertical page (a page number, a caption): its band runs
    # down its rows, 24 px of ink.
    caption = inked(gray, OcrWord("図1", 300, 450, 120, 40, 0.9, (1, 2, 1)), (8, 32))
    column_line, caption_line = words_to_lines([column, caption], 1.0, True, OcrSettings(), gray)
    assert column_line.vertical and column_line.size == 50.0
    assert not caption_line.vertical and caption_line.size == 30.0


def test_a_line_without_ink_in_its_boxes_is_sized_from_its_box() -> None:
    [line] = words_to_lines([word("blank", 0)], 1.0, False, OcrSettings(), blank())
    assert line.size == 33.5  # its 40 px box at 1.2 em, rounded to the half point


@given(st.lists(st.text(alphabet="ab吾は대 ", min_size=1, max_size=4).filter(str.strip),
                min_size=1, max_size=8))  # fmt: skip
def test_words_to_lines_keeps_every_character(texts: list[str]) -> None:
    words = [word(t.strip(), 20 * i) for i, t in enumerate(texts)]
    [line] = words_to_lines(words, 1.0, False, OcrSettings(), blank())
    assert line.text.replace(" ", "") == "".join(t.replace(" ", "") for t in texts)


def test_page_confidence_weights_words_by_characters() -> None:
    assert page_confidence([word("abcd", 0, conf=1.0), word("x", 50, conf=0.5)]) == 0.9
    assert page_confidence([]) == 0.0


def test_retry_languages() -> None:
    installed = frozenset({"jpn", "jpn_vert", "kor", "eng"})
    assert retry_languages("kor", True, installed) == ("kor", "jpn", "jpn_vert", "eng")
    assert retry_languages("jpn", False, installed) == ("jpn", "jpn_vert")
    assert retry_languages("eng", False, installed) == ("eng",)
    assert retry_languages("jpn", False, frozenset({"jpn"})) == ("jpn",)


def test_needs_ocr_by_mode_and_status() -> None:
    def page(status: PageStatus) -> Page:
        return Page(1, 595.0, 842.0, (), status)

    statuses = [PageStatus.TEXT, PageStatus.BLANK, PageStatus.IMAGE_ONLY, PageStatus.GARBAGE,
                PageStatus.DAMAGED]  # fmt: skip
    assert [needs_ocr(page(s), OcrMode.AUTO) for s in statuses] == [0, 0, 1, 1, 0]
    assert [needs_ocr(page(s), OcrMode.FORCE) for s in statuses] == [1, 0, 1, 1, 1]
    assert [needs_ocr(page(s), OcrMode.NEVER) for s in statuses] == [0] * 5


def test_marker_note_round_trips() -> None:
    marker = format_page_marker(PageMarker(2, PageStatus.OCR, 0.9149, "tesseract"))
    markdown = f"<!-- page 1 -->\n\nA\n\n{marker}"
    assert marker == "<!-- page 2: ocr conf=0.91 engine=tesseract -->"
    assert ocr_confidences(markdown) == {2: 0.91}


def test_lowest_confidence_over_the_pages_a_chunk_spans() -> None:
    confidence = {2: 0.9, 3: 0.6}
    assert lowest_confidence(confidence, 1, 1) is None
    assert lowest_confidence(confidence, 1, 2) == 0.9
    assert lowest_confidence(confidence, 2, 4) == 0.6
    assert lowest_confidence(confidence, None, None) is None


MARKDOWN = (
    "<!-- page 1 -->\n\n# Notes\n\nTyped text on the first page.\n\n"
    "<!-- page 2: ocr conf=0.62 engine=tesseract -->\n\n## Scan\n\nScanned text here.\n"
)


def test_split_puts_the_ocr_confidence_on_chunks_and_jsonl_keeps_it() -> None:
    chunks = split_markdown(MARKDOWN, source="notes.md")
    assert [(c.page_start, c.page_end, c.ocr_confidence) for c in chunks] == [
        (1, 1, None),
        (2, 2, 0.62),
    ]
    data = chunk_to_dict(chunks[1])
    fields = list(data)
    at = fields.index("page_end")
    assert fields[at : at + 3] == ["page_end", "boxes", "ocr_confidence"]
    assert chunk_from_dict(data) == chunks[1]


def test_check_warns_about_low_confidence_pages_from_markdown_alone() -> None:
    report = check_markdown(MARKDOWN)
    [low] = [i for i in report.issues if i.code == "pages.ocr-low-confidence"]
    assert (low.severity, low.page) == ("warn", 2)
    assert low.message.startswith("OCR confidence below 0.75 on page 2 (lowest 0.62 on page 2)")
    relaxed = check_markdown(MARKDOWN, CheckOptions(ocr_min_confidence=0.5))
    assert "pages.ocr-low-confidence" not in [i.code for i in relaxed.issues]


def test_check_notes_documents_mostly_from_ocr() -> None:
    issues = check_ocr({2: 0.9, 3: 0.8}, 3, CheckOptions())
    assert [(i.code, i.message) for i in issues] == [
        ("document.mostly-ocr",
         "2 of 3 pages came from OCR (mean confidence 0.85): answers depend on the scan's quality"),
    ]  # fmt: skip
    assert check_ocr({2: 0.9}, 3, CheckOptions()) == []


def test_pages_past_the_ocr_budget_stay_unread_with_a_note() -> None:
    from chunkcli.convert.ocr import OcrOptions
    from chunkcli.convert.pipeline import ConvertOptions, convert_pdf

    sample = Path(__file__).resolve().parent.parent / "samples" / "blank_and_scanned.pdf"
    result = convert_pdf(sample, ConvertOptions(ocr=OcrOptions(budget_s=1e-9)))
    assert result.image_only_pages == (3,) and result.ocr_pages == ()
    assert [w for w in result.warnings if "budget" in w] == [
        f"{sample}: page 3: not read by OCR: its time budget (1e-09 s) ran out"
    ]


def test_batch_tells_ocr_when_the_files_timeout_ends() -> None:
    import time

    from chunkcli.batch import _with_ocr_deadline
    from chunkcli.convert.pipeline import ConvertOptions
    from chunkcli.workers import WorkerPool

    before = time.monotonic()
    ocr = _with_ocr_deadline(ConvertOptions(), WorkerPool(timeout_s=100.0)).ocr
    assert before + 100.0 <= ocr.deadline <= time.monotonic() + 100.0
    assert ocr.page_time_s == 20.0  # the deadline moves by this for each page to read
    assert _with_ocr_deadline(ConvertOptions(), WorkerPool(timeout_s=0)).ocr.deadline == 0.0


def test_next_page_fits_counts_the_pages_in_flight_and_the_jobs() -> None:
    from chunkcli.convert.ocr.read import SLOWEST_PAGE_FACTOR, next_page_fits

    assert SLOWEST_PAGE_FACTOR == 2.0  # so a 5 s page counts as 10 s below
    assert next_page_fits(now=10.0, slowest=5.0, in_flight=0, jobs=1, deadline=20.0)
    assert not next_page_fits(now=10.0, slowest=5.0, in_flight=1, jobs=1, deadline=20.0)
    assert next_page_fits(now=10.0, slowest=5.0, in_flight=1, jobs=2, deadline=20.0)
    assert not next_page_fits(now=10.0, slowest=5.0, in_flight=2, jobs=2, deadline=29.0)


@pytest.mark.parametrize(("deadline", "read"), [(25.0, [1]), (1000.0, [1, 2, 3])])
def test_ocr_starts_no_page_the_deadline_cannot_fit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deadline: float, read: list[int]
) -> None:
    """A clock that only the (fake) engine moves, 10 s a page: page 1 is read (nothing is
    measured yet); page 2 would then need 2 x 10 s from t=10, past a deadline of 25."""
    import pymupdf

    from chunkcli.convert.ocr import OcrOptions
    from chunkcli.convert.ocr import read as ocr_read
    from chunkcli.convert.pipeline import ConvertOptions, convert_pdf
    from tests.pdf_factory import make_pdf
    from tests.scan_factory import scan_pdf
    from tests.test_ocr import page_of

    scan = scan_pdf(make_pdf(tmp_path / "en.pdf", [page_of("en")]), tmp_path / "scan.pdf")
    with pymupdf.open(scan) as doc, pymupdf.open(scan) as again:
        doc.insert_pdf(again)
        doc.insert_pdf(again)
        doc.save(tmp_path / "three.pdf")
    now, calls = [0.0], []

    def ten_seconds_a_page(
        number: int,
        image: object,
        langs: object,
        options: object,
        library: object,
        begun: object = None,
    ) -> object:
        now[0] += 10.0
        calls.append(number)
        return ocr_read.OcrReading(number, (), 0.9, "eng")

    monkeypatch.setattr(ocr_read, "_clock", lambda: now[0])
    monkeypatch.setattr(ocr_read, "read_page", ten_seconds_a_page)
    options = ConvertOptions(ocr=OcrOptions(lang="eng", deadline=deadline))
    result = convert_pdf(tmp_path / "three.pdf", options)
    assert calls == read
    notes = [w.split(": ", 1)[1] for w in result.warnings if "not read" in w]
    expected = ("page 2-3: not read by OCR: the file's time limit would run out first "
                "(pages took up to 10.0 s)")  # fmt: skip
    assert notes == ([] if read == [1, 2, 3] else [expected])
    # A page left unread is never silent: its marker says so and check fails the document.
    from chunkcli.check import check_markdown

    skipped = [page.number for page in result.pages if page.ocr_skipped]
    assert skipped == ([] if read == [1, 2, 3] else [2, 3])
    report = check_markdown(result.markdown)
    failed = [i.message for i in report.issues if i.code == "pages.ocr-skipped"]
    if skipped:
        assert "<!-- page 2: ocr skipped: time limit -->" in result.markdown
        assert failed == [
            "pages 2-3 needed OCR and were not read (time limit): their text is missing; "
            "convert again with a higher --ocr-page-time or --timeout (0: no limit)"
        ]
    else:
        assert "ocr skipped" not in result.markdown and failed == []


def test_a_reading_running_at_the_deadline_is_stopped_and_costs_only_its_page(
    tmp_path: Path,
) -> None:
    """A Tesseract that hangs is stopped at OCR's deadline (not at the page's 120 s), and a
    page that starts after the deadline is not run at all."""
    import time

    import numpy as np

    from chunkcli.convert.ocr import OcrOptions
    from chunkcli.convert.ocr.read import PageImage, _words
    from chunkcli.convert.ocr.tesseract import OcrFailed

    hanging = tmp_path / "tesseract"
    hanging.write_text("#!/bin/sh\nexec sleep 30\n")
    hanging.chmod(0o755)
    image = PageImage(np.zeros((1, 1), dtype=np.uint8), 200, 0.0)
    soon = OcrOptions(tesseract_cmd=str(hanging), deadline=time.monotonic() + 0.3)
    with pytest.raises(OcrFailed, match="^the file's time limit ran out while reading it$"):
        _words(image, "eng", soon, 3)
    past = OcrOptions(tesseract_cmd=str(hanging), deadline=time.monotonic() - 1.0)
    with pytest.raises(OcrFailed, match="^the file's time limit ran out before this page$"):
        _words(image, "eng", past, 3)


def test_a_skipped_page_marker_round_trips_and_reads_as_without_text() -> None:
    from chunkcli.markdown_format import (
        PageMarker,
        format_page_marker,
        ocr_skipped_pages,
        parse_page_marker,
    )
    from chunkcli.model import PageStatus

    marker = PageMarker(7, PageStatus.IMAGE_ONLY, ocr_skipped="time limit")
    line = format_page_marker(marker)
    assert line == "<!-- page 7: ocr skipped: time limit -->"
    assert parse_page_marker(line) == marker
    assert ocr_skipped_pages(f"{line}\n\ntext\n\n<!-- page 8 -->\n") == {7: "time limit"}


def test_a_batch_with_pages_left_unread_is_incomplete_and_says_what_to_do() -> None:
    from chunkcli.batch import BatchSummary, FileOutcome, summary_lines

    outcomes = (
        FileOutcome(Path("a.pdf"), Path("a.md"), pages=3),
        FileOutcome(Path("scan.pdf"), Path("scan.md"), pages=9, ocr_skipped=(7, 8, 9)),
    )
    summary = BatchSummary(outcomes, 1.0)
    assert [o.source.name for o in summary.incomplete] == ["scan.pdf"]
    assert summary_lines(summary)[-2:] == [
        "pages not read by OCR (time limit): 1 files",
        "  scan.pdf: page 7-9: not read by OCR: the time limit ran out first (their markers "
        "say 'ocr skipped'); raise --timeout or --ocr-page-time, or give --timeout 0 for no limit",
    ]


def test_a_japanese_or_korean_text_layer_names_the_ocr_language() -> None:
    from chunkcli.convert.ocr.read import MIN_SCRIPT_CHARS, script_language

    assert script_language("株式分布状況調査の結果について" * 4) == "jpn"
    assert script_language("개인 주주 수는 전년 대비 증가했습니다" * 4) == "kor"
    assert script_language("English text leaves the choice to the pixels " * 10) is None
    assert script_language("表" * (MIN_SCRIPT_CHARS - 1) + " some English") is None


def test_a_page_image_sampled_down_is_the_rounded_mean_of_its_squares() -> None:
    """2 x 2 squares at half the dpi; a mean ending in .5 rounds to even (as numpy's round),
    and the odd last row and column are left out."""
    import numpy as np

    from chunkcli.convert.ocr.read import PageImage

    gray = np.array(
        [[0, 1, 10, 10, 7], [1, 0, 10, 11, 7], [255, 255, 3, 4, 7], [254, 255, 4, 4, 7],
         [9, 9, 9, 9, 9]], dtype=np.uint8,
    )  # fmt: skip
    image = PageImage(gray, 200, 0.0)
    sample = image.sample(100)
    assert sample.dpi == 100
    assert sample.gray.tolist() == [[0, 10], [255, 4]]  # 0.5 -> 0, 10.25, 254.75, 3.75
    assert image.sample(200) is image


def test_lettering_ink_leaves_out_rules_frames_and_filled_areas() -> None:
    """A 200 dpi page (seen at 100 dpi): four short letter-like strokes read as two words, a
    filled panel, a frame and a long rule no reading covers. All ink: the words cover little
    of it; lettering: all of it, until a third stroke goes unread."""
    import numpy as np

    from chunkcli.convert.ocr.read import PageImage, ink_cells, ink_coverage, lettering_coverage

    gray = np.full((800, 800), 255, dtype=np.uint8)
    for left in (100, 140, 300, 340):  # strokes 40 px (14 pt) tall, 8 px wide
        gray[100:140, left : left + 8] = 0
    gray[300:500, 100:400] = 90  # a gray panel
    gray[550:552, 50:750] = 0  # a rule
    gray[600:700, 500:700] = 0
    gray[604:696, 504:696] = 255  # a frame, 4 px thick
    image = PageImage(gray, 200, 0.0)
    words = tuple(
        dataclasses.replace(word("ab", left, 96), width=56, height=48) for left in (96, 296)
    )  # two strokes each
    settings = OcrSettings()
    # 8-px cells: strokes 4 x 12, panel 988, rule 88, frame 74; the words cover the strokes
    assert ink_coverage(ink_cells(gray < 128, 8), words, 8) == pytest.approx(48 / 1198)
    assert lettering_coverage(image, words, settings) == 1.0
    gray[200:240, 600:608] = 0  # a stroke no word covers
    # at 100 dpi the covered strokes fill 4 x 12 cells of 4 px, this one 5
    assert lettering_coverage(PageImage(gray, 200, 0.0), words, settings) == pytest.approx(48 / 53)


def test_dark_runs_are_the_long_runs_of_each_row() -> None:
    import numpy as np

    from chunkcli.convert.tables.raster import dark_runs

    dark = np.array([[1, 1, 1, 0, 1], [1, 1, 0, 1, 1], [0, 1, 1, 1, 1]], dtype=bool)
    rows, starts, ends = dark_runs(dark, 2)
    assert list(zip(rows.tolist(), starts.tolist(), ends.tolist(), strict=True)) == [
        (0, 0, 3), (1, 0, 2), (1, 3, 5), (2, 1, 5),
    ]  # fmt: skip
    assert dark_runs(dark, 4)[0].tolist() == [2]


def test_the_png_tesseract_gets_holds_the_pixels_and_the_resolution() -> None:
    import numpy as np
    import pymupdf

    from chunkcli.convert.ocr.read import PageImage

    gray = np.arange(35 * 17, dtype=np.uint32).reshape(35, 17).astype(np.uint8)
    image = PageImage(gray, 200, 0.0)
    decoded = pymupdf.Pixmap(image.png())
    assert (decoded.width, decoded.height, decoded.n, decoded.xres) == (17, 35, 1, 200)
    assert decoded.samples == gray.tobytes()
    assert image.png() is image.png()  # encoded once

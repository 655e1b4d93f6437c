"""OCR: generated image-only pages (ja, ko, en, vertical ja) come back as text through the same
layout stages; confidence reaches page markers, chunks and check; --ocr never and a missing
engine behave as documented. These run Tesseract (make test installs it; CI must not skip)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chunkcli.batch import convert_many, summary_lines
from chunkcli.check import check_conversion
from chunkcli.cli import app
from chunkcli.convert.ocr import OcrMode, OcrOptions, OcrSettings
from chunkcli.convert.ocr.tesseract import tesseract_version
from chunkcli.convert.pipeline import ConvertOptions, convert_pdf
from chunkcli.model import PageStatus
from chunkcli.split import split_markdown
from chunkcli.workers import WorkerPool
from tests.pdf_factory import Text, make_pdf, vertical_column, wrapped_paragraph
from tests.scan_factory import DEGRADED, char_accuracy, page_texts, scan_pdf

JA = (
    "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした"
    "所でニャーニャー泣いていた事だけは記憶している。吾輩はここで始めて人間というものを見た。"
)
KO = (
    "대한민국은 민주공화국이다. 대한민국의 주권은 국민에게 있고, 모든 권력은 국민으로부터 "
    "나온다. 대한민국의 국민이 되는 요건은 법률로 정한다."
)
EN = (
    "The archive holds four pages. The second page is empty and the third page is a scanned "
    "image without any text layer. Retrieval systems lose every answer on a scanned page "
    "unless it is read by optical character recognition first."
)
# Measured on these pages at 200 dpi: 0.97 (ja), 0.995 (ko), 1.0 (en), 0.98 (vertical ja).
MIN_ACCURACY = 0.9
OCR_MARKER = re.compile(r"<!-- page (\d+): ocr conf=(\d\.\d\d) engine=tesseract -->")
MISSING = "/nonexistent/bin/tesseract"


@pytest.fixture(scope="module", autouse=True)
def tesseract_installed() -> None:
    assert tesseract_version("tesseract"), "Tesseract is missing: run `make ocr-deps`"


def page_of(kind: str) -> list[Text]:
    if kind == "vertical":
        columns = [JA[i : i + 24] for i in range(0, 72, 24)]
        return [vertical_column(480 - 22 * i, 80, column, 14) for i, column in enumerate(columns)]
    title, body, cjk = {"ja": ("吾輩は猫である", JA, True), "ko": ("대한민국 헌법", KO, True),
                        "en": ("Archive Notes", EN, False)}[kind]  # fmt: skip
    return [Text(72, 90, title, size=20, cjk=cjk), *wrapped_paragraph(72, 140, 440, body, 12, cjk)]


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """kind -> (image-only PDF at 200 dpi, the text of its original)."""
    folder = tmp_path_factory.mktemp("scans")
    made = {}
    for kind in ("ja", "ko", "en", "vertical"):
        original = make_pdf(folder / f"{kind}-text.pdf", [page_of(kind)])
        made[kind] = (scan_pdf(original, folder / f"{kind}.pdf"), page_texts(original)[0])
    return made


@pytest.mark.parametrize(
    ("kind", "lang"), [("ja", "jpn"), ("ko", "kor"), ("en", "eng"), ("vertical", "jpn_vert")]
)
def test_a_scanned_page_comes_back_as_text_in_its_detected_language(
    scans: dict[str, tuple[Path, str]], kind: str, lang: str
) -> None:
    pdf, truth = scans[kind]
    result = convert_pdf(pdf)
    [page] = result.pages
    assert page.status == PageStatus.TEXT and page.ocr is not None
    assert (page.ocr.engine, page.ocr.lang) == ("tesseract", lang)
    assert page.ocr.confidence >= 0.8
    assert char_accuracy(truth, result.markdown) >= MIN_ACCURACY
    [marker] = OCR_MARKER.findall(result.markdown)
    assert marker == ("1", f"{page.ocr.confidence:.2f}")


def test_ocr_lines_go_through_layout_a_large_title_becomes_the_heading(
    scans: dict[str, tuple[Path, str]],
) -> None:
    markdown = convert_pdf(scans["en"][0]).markdown
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    assert headings == ["# Archive Notes"]
    paragraphs = [b for b in markdown.split("\n\n") if b and not b.startswith(("<!--", "#"))]
    assert len(paragraphs) == 1 and paragraphs[0].startswith("The archive holds four pages.")


@pytest.mark.parametrize(
    ("kind", "sizes"),
    [("ja", [20.0, 12.0, 12.0, 12.0]), ("ko", [20.0, 12.0, 12.0]),
     ("en", [17.5, 11.0, 11.0, 11.0]), ("vertical", [13.5, 13.5, 13.5])],
)  # fmt: skip
def test_ocr_line_sizes_are_the_type_sizes_of_the_scan(
    scans: dict[str, tuple[Path, str]], kind: str, sizes: list[float]
) -> None:
    """Titles at 20 pt, body at 12 pt (vertical columns at 14 pt): measured from the ink, the
    sizes come back as set in CJK and about 0.9 of them in Helvetica (its letters fill less
    of the em); from Tesseract's boxes they were 14.5 for both of the Korean page's sizes."""
    [page] = convert_pdf(scans[kind][0]).pages
    assert [line.size for block in page.blocks for line in block.lines] == sizes


def test_confidence_reaches_every_chunk_of_the_ocr_page_and_none_elsewhere(
    tmp_path: Path, scans: dict[str, tuple[Path, str]]
) -> None:
    typed = make_pdf(tmp_path / "typed.pdf", [wrapped_paragraph(72, 100, 440, EN, 12)])
    import pymupdf

    with pymupdf.open(typed) as doc, pymupdf.open(scans["en"][0]) as scan:
        doc.insert_pdf(scan)
        doc.save(tmp_path / "mixed.pdf")
    result = convert_pdf(tmp_path / "mixed.pdf", ConvertOptions(ocr=OcrOptions(lang="eng")))
    confidence = result.pages[1].ocr.confidence if result.pages[1].ocr else None
    assert result.pages[0].ocr is None and confidence is not None
    chunks = split_markdown(result.markdown, source="mixed.pdf")
    expected = float(f"{confidence:.2f}")
    found = [(c.page_end, c.ocr_confidence) for c in chunks]
    assert found == [(end, expected if end == 2 else None) for end, _ in found]
    assert (2, expected) in found


def test_check_flags_a_degraded_scan(tmp_path: Path) -> None:
    original = make_pdf(tmp_path / "text.pdf", [page_of("en")])
    degraded = scan_pdf(original, tmp_path / "degraded.pdf", DEGRADED)
    result = convert_pdf(degraded, ConvertOptions(ocr=OcrOptions(lang="eng")))
    assert result.pages[0].ocr is not None and result.pages[0].ocr.confidence < 0.75
    codes = [issue.code for issue in check_conversion(result).issues]
    assert "pages.ocr-low-confidence" in codes and "document.mostly-ocr" in codes
    assert "pages.scanned" not in codes


def test_ocr_never_leaves_the_page_marked_as_image_only(
    scans: dict[str, tuple[Path, str]],
) -> None:
    options = ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER))
    result = convert_pdf(scans["en"][0], options)
    assert result.image_only_pages == (1,) and result.document.ocr_missing == ""
    assert result.markdown.endswith("-->\n\n<!-- page 1: no text layer (image only) -->\n")


def test_force_reads_a_text_page_by_ocr_too(tmp_path: Path) -> None:
    typed = make_pdf(tmp_path / "typed.pdf", [page_of("en")])
    result = convert_pdf(typed, ConvertOptions(ocr=OcrOptions(mode=OcrMode.FORCE, lang="eng")))
    assert result.ocr_pages == (1,)
    assert char_accuracy(page_texts(typed)[0], result.markdown) >= MIN_ACCURACY
    assert convert_pdf(typed).ocr_pages == ()  # auto keeps a usable text layer


def test_a_missing_engine_keeps_the_page_marked_and_says_what_to_install(
    tmp_path: Path, scans: dict[str, tuple[Path, str]]
) -> None:
    options = ConvertOptions(ocr=OcrOptions(tesseract_cmd=MISSING))
    result = convert_pdf(scans["en"][0], options)
    assert result.image_only_pages == (1,) and result.ocr_pages == ()
    assert result.document.ocr_missing == (
        f"{MISSING} not found (install: apt-get install tesseract-ocr tesseract-ocr-jpn "
        "tesseract-ocr-jpn-vert tesseract-ocr-kor tesseract-ocr-eng)"
    )
    pairs = [(scans[k][0], Path(f"{k}.md")) for k in ("en", "ko")]
    summary = convert_many(pairs, tmp_path / "out", options, pool=WorkerPool(1))
    said = [line for line in summary_lines(summary) if "OCR did not run" in line]
    assert said == [f"OCR did not run on 2 files: {result.document.ocr_missing}"]


def test_missing_language_data_is_reported_like_a_missing_engine(
    scans: dict[str, tuple[Path, str]],
) -> None:
    result = convert_pdf(scans["en"][0], ConvertOptions(ocr=OcrOptions(lang="eng+xyz")))
    assert result.image_only_pages == (1,)
    assert result.document.ocr_missing.startswith("no Tesseract data for xyz (install: ")


def test_output_is_the_same_with_one_or_two_tesseract_processes(
    tmp_path: Path, scans: dict[str, tuple[Path, str]]
) -> None:
    import pymupdf

    with pymupdf.open(scans["en"][0]) as doc, pymupdf.open(scans["ko"][0]) as other:
        doc.insert_pdf(other)
        doc.save(tmp_path / "two.pdf")
    one = convert_pdf(tmp_path / "two.pdf", ConvertOptions(ocr=OcrOptions(jobs=1)))
    two = convert_pdf(tmp_path / "two.pdf", ConvertOptions(ocr=OcrOptions(jobs=2)))
    assert one.markdown == two.markdown
    # The Korean page of an English document is retried in the other languages (auto).
    assert [p.ocr.lang if p.ocr else "" for p in one.pages] == ["eng", "kor"]


# --- the CLI --------------------------------------------------------------------------------


def test_cli_convert_ocr_flags(scans: dict[str, tuple[Path, str]]) -> None:
    runner = CliRunner()
    pdf = scans["en"][0]
    done = runner.invoke(app, ["convert", str(pdf), "--ocr-lang", "eng", "--ocr-dpi", "150"])
    assert done.exit_code == 0
    assert OCR_MARKER.search(done.stdout) and "The archive holds four pages." in done.stdout
    never = runner.invoke(app, ["convert", str(pdf), "--ocr", "never"])
    assert never.exit_code == 0
    assert never.stdout.endswith("-->\n\n<!-- page 1: no text layer (image only) -->\n")
    assert f"warning: {pdf}: page 1: no text layer" in never.stderr


@pytest.mark.parametrize(
    ("flags", "hint"),
    [
        (["--ocr", "sometimes"], "--ocr"),
        (["--ocr-dpi", "20"], "--ocr-dpi"),
        (["--ocr-lang", "eng+"], "--ocr-lang"),
    ],  # fmt: skip
)
def test_cli_bad_ocr_flags_are_usage_errors(
    scans: dict[str, tuple[Path, str]], flags: list[str], hint: str
) -> None:
    done = CliRunner().invoke(app, ["convert", str(scans["en"][0]), *flags])
    assert done.exit_code == 2 and hint in done.stderr


def test_a_picture_page_is_not_ocred(tmp_path: Path) -> None:
    """Gray noise (half its pixels dark) is a picture: Tesseract would spend ~50 s on it."""
    from tests.pdf_factory import Image

    pdf = make_pdf(tmp_path / "photo.pdf", [[Image(50, 50, 500, 700, seed=3)]])
    result = convert_pdf(pdf)
    assert result.image_only_pages == (1,) and result.document.notes == ()


# --- the language, decided once per document ------------------------------------------------


def logging_tesseract(folder: Path) -> tuple[str, Path]:
    """A tesseract command that runs the real one and logs each run's thread limit and -l."""
    log = folder / "runs.log"
    command = folder / "tesseract"
    command.write_text(
        "#!/bin/sh\n"
        'lang=""; prev=""\n'
        'for a in "$@"; do [ "$prev" = "-l" ] && lang="$a"; prev="$a"; done\n'
        f'[ -n "$lang" ] && echo "$OMP_THREAD_LIMIT $lang" >> {log}\n'
        'exec tesseract "$@"\n'
    )
    command.chmod(0o755)
    return str(command), log


def test_script_detection_names_the_script_of_a_scanned_page(
    scans: dict[str, tuple[Path, str]],
) -> None:
    import pymupdf

    from chunkcli.convert.ocr.read import render_page
    from chunkcli.convert.ocr.tesseract import tesseract_script

    found = {}
    for kind in ("ja", "ko", "en"):
        with pymupdf.open(scans[kind][0]) as doc:
            image = render_page(doc[0], 200, 40_000_000).sample(100)
        found[kind] = tesseract_script("tesseract", image.png(), 60.0, OcrSettings().detect_chars)
    assert found == {"ja": "Japanese", "ko": "Hangul", "en": "Latin"}


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_first_pages_reading_decides_the_language_and_each_page_is_rendered_once(
    tmp_path: Path,
    scans: dict[str, tuple[Path, str]],
    monkeypatch: pytest.MonkeyPatch,
    jobs: int,
) -> None:
    """Script detection takes vertical Japanese for jpn; page 1's reading says jpn_vert, and
    every other page is read in that: the same output at one and two processes, each page
    rendered once, each Tesseract on one thread."""
    import pymupdf

    from chunkcli.convert.ocr import read as ocr_read

    with pymupdf.open(scans["vertical"][0]) as doc, pymupdf.open(scans["vertical"][0]) as page:
        doc.insert_pdf(page)
        doc.insert_pdf(page)
        doc.save(tmp_path / "three.pdf")
    rendered: list[int] = []
    real_render = ocr_read.render_page

    def counted(page: pymupdf.Page, dpi: int, max_pixels: int) -> ocr_read.PageImage:
        rendered.append(page.number + 1)
        return real_render(page, dpi, max_pixels)

    monkeypatch.setattr(ocr_read, "render_page", counted)
    command, log = logging_tesseract(tmp_path)
    options = ConvertOptions(ocr=OcrOptions(jobs=jobs, tesseract_cmd=command))
    result = convert_pdf(tmp_path / "three.pdf", options)
    assert rendered == [1, 2, 3]
    alone = convert_pdf(tmp_path / "three.pdf", ConvertOptions(ocr=OcrOptions(jobs=1)))
    assert result.markdown == alone.markdown
    assert [p.ocr.lang if p.ocr else "" for p in result.pages] == ["jpn_vert"] * 3
    runs = log.read_text().split()
    assert set(runs[0::2]) == {"1"}  # OMP_THREAD_LIMIT for every run
    # Read in the guess (jpn, retried in jpn_vert): page 1, whose reading decides; at --jobs 2
    # page 2, started with it, and page 3 when page 2's reading ended first (an engine was
    # free; which one ends first is the machine's). The other two are read in jpn_vert, once
    # or again: the price of a wrong guess.
    in_guess = [1] if jobs == 1 else [2, 3]
    expected = [sorted(["osd", *["jpn", "jpn_vert"] * n, "jpn_vert", "jpn_vert"]) for n in in_guess]
    assert sorted(runs[1::2]) in expected


@pytest.fixture(scope="module")
def library() -> object:
    from chunkcli.convert.ocr.tesslib import load_library

    lib = load_library()
    if lib is None:
        pytest.skip("libtesseract cannot be loaded here: pages are read by the program")
    return lib


def test_the_library_reads_the_words_the_program_reads(
    scans: dict[str, tuple[Path, str]], library: object
) -> None:
    """The same words, boxes and confidences as `tesseract ... tsv`, in every language and
    both segmentation modes; the same script named; its engines freed by close()."""
    import pymupdf

    from chunkcli.convert.ocr.read import render_page
    from chunkcli.convert.ocr.tesseract import run_tesseract, tesseract_script
    from chunkcli.convert.ocr.tesslib import TesseractLibrary

    engines = TesseractLibrary(library)  # type: ignore[arg-type]
    for kind, lang in (("ja", "jpn"), ("ko", "kor"), ("en", "eng"), ("vertical", "jpn_vert")):
        with pymupdf.open(scans[kind][0]) as doc:
            image = render_page(doc[0], 200, 40_000_000)
        for psm in (3, 4):  # (psm 4 finds no words in the vertical page, either way)
            read = engines.words(image.gray, image.dpi, lang, psm, 60.0)
            assert read == run_tesseract("tesseract", image.png(), lang, 200, psm, 60.0)
            assert read or (kind, psm) == ("vertical", 4)
        sample, chars = image.sample(100), OcrSettings().detect_chars
        named = tesseract_script("tesseract", sample.png(), 60.0, chars)
        assert engines.script(sample.gray, sample.dpi, chars) == named
    engines.close()
    assert engines._engines == {}


def test_a_library_reading_past_its_time_fails_and_the_engine_reads_on(
    scans: dict[str, tuple[Path, str]], library: object
) -> None:
    import pymupdf

    from chunkcli.convert.ocr.read import render_page
    from chunkcli.convert.ocr.tesseract import OcrFailed
    from chunkcli.convert.ocr.tesslib import TesseractLibrary

    engines = TesseractLibrary(library)  # type: ignore[arg-type]
    with pymupdf.open(scans["en"][0]) as doc:
        image = render_page(doc[0], 200, 40_000_000)
    with pytest.raises(OcrFailed, match="^tesseract took longer than 0.001 s$"):
        engines.words(image.gray, image.dpi, "eng", 3, 0.001)
    assert engines.words(image.gray, image.dpi, "eng", 3, 60.0)
    # closed while a reading runs (a document out of time): that engine is freed after it
    with engines._engine("eng"):
        engines.close()
        assert len(engines._engines) == 1
    assert engines._engines == {}
    # ... and a reading asked for after that loads no model only to free it
    with pytest.raises(OcrFailed, match="^the document's OCR engines are closed$"):
        engines.words(image.gray, image.dpi, "eng", 3, 60.0)
    assert engines._engines == {}


def test_pages_are_read_by_the_library_unless_another_program_is_named(
    scans: dict[str, tuple[Path, str]], tmp_path: Path, library: object
) -> None:
    """Converting with the default program runs no Tesseract process for the page (only
    --version and --list-langs, once); a program of the caller's, or a wrapper script on
    PATH, reads every page: the same Markdown."""
    from chunkcli.convert.ocr import read as ocr_read
    from chunkcli.convert.ocr.tesslib import is_binary_program

    command, log = logging_tesseract(tmp_path)
    assert is_binary_program("tesseract") and not is_binary_program(command)
    assert ocr_read.document_library(OcrOptions(tesseract_cmd=command), "tesseract 5.3.0") is None
    by_program = convert_pdf(scans["ja"][0], ConvertOptions(ocr=OcrOptions(tesseract_cmd=command)))
    assert log.read_text().split()[1::2] == ["osd", "jpn"]
    version = tesseract_version("tesseract")
    assert version is not None and ocr_read.document_library(OcrOptions(), version) is not None
    assert convert_pdf(scans["ja"][0]).markdown == by_program.markdown


def test_a_document_s_scanned_pages_and_pictures_are_read_by_one_set_of_engines(
    scans: dict[str, tuple[Path, str]],
    tmp_path: Path,
    library: object,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A scanned English page, then a text page with a chart: the chart's words are read by
    the engines that read the scan (English loaded once, not again for the picture)."""
    import pymupdf

    from chunkcli.convert.ocr.tesslib import TesseractLibrary
    from chunkcli.model import BlockKind
    from tests.test_figures import _report

    with pymupdf.open(scans["en"][0]) as mixed, pymupdf.open(stream=_report()) as report:
        mixed.insert_pdf(report)
        mixed.save(tmp_path / "mixed.pdf")
    loaded: list[tuple[TesseractLibrary, str]] = []
    load = TesseractLibrary._loaded

    def logged(self: TesseractLibrary, lang: str, begun: object = None) -> int:
        loaded.append((self, lang))
        return load(self, lang, begun)  # type: ignore[arg-type]

    monkeypatch.setattr(TesseractLibrary, "_loaded", logged)
    result = convert_pdf(tmp_path / "mixed.pdf")
    assert [page.ocr.lang if page.ocr else "" for page in result.pages] == ["eng", ""]
    figures = [b.figure for b in result.pages[1].blocks if b.kind == BlockKind.FIGURE]
    assert [f.words.split() for f in figures if f] == [["North", "West", "North", "South", "West"]]
    assert [lang for _, lang in loaded] == ["osd", "eng"]
    assert len({id(engines) for engines, _ in loaded}) == 1


def test_each_engine_is_loaded_once_per_reader_and_the_osd_engine_once(
    scans: dict[str, tuple[Path, str]],
    tmp_path: Path,
    library: object,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three English pages at --jobs 2: the osd engine, loaded while page 1 renders, is the
    one script detection uses; English is loaded by the two threads that read (the pool's
    engines go to whichever thread reads next, never one per page)."""
    import pymupdf

    from chunkcli.convert.ocr.tesslib import TesseractLibrary

    with pymupdf.open(scans["en"][0]) as scan, pymupdf.open() as three:
        for _ in range(3):
            three.insert_pdf(scan)
        three.save(tmp_path / "three.pdf")
    loaded: list[str] = []
    load = TesseractLibrary._loaded

    def logged(self: TesseractLibrary, lang: str, begun: object = None) -> int:
        loaded.append(lang)
        return load(self, lang, begun)  # type: ignore[arg-type]

    monkeypatch.setattr(TesseractLibrary, "_loaded", logged)
    result = convert_pdf(tmp_path / "three.pdf", ConvertOptions(ocr=OcrOptions(jobs=2)))
    assert [page.ocr.lang if page.ocr else "" for page in result.pages] == ["eng"] * 3
    assert sorted(loaded) in (["eng", "eng", "osd"], ["eng", "osd"])
    assert loaded.count("osd") == 1

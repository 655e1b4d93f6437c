"""RapidOCR, the optional engine (--ocr-engine rapidocr, the `rapidocr` extra, in dev extras so
CI runs these): a generated Japanese scan comes back as text through the same layout stages,
with engine=rapidocr in its page marker. The tests of refusals and of the adapter's geometry run
without the package; the reading tests are skipped (with the reason) where it is not installed.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from typer.testing import CliRunner

from chunkcli.cli import app
from chunkcli.convert.ocr import OcrOptions
from chunkcli.convert.ocr import rapidocr as engine
from chunkcli.convert.pipeline import ConvertOptions, convert_pdf
from tests.pdf_factory import make_pdf
from tests.scan_factory import char_accuracy, page_texts, scan_pdf
from tests.test_ocr import page_of

needs_rapidocr = pytest.mark.skipif(
    engine.rapidocr_version() is None,
    reason="rapidocr is not installed (pip install -e '.[rapidocr]'; make test installs it)",
)
# Measured (2026-12-02, rapidocr 3.10.0): the generated Japanese page at 200 dpi reads 1.0;
# the vertical one 0.97.
MIN_ACCURACY = 0.9


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    folder = tmp_path_factory.mktemp("rapid")
    made = {}
    for kind in ("ja", "vertical"):
        original = make_pdf(folder / f"{kind}-text.pdf", [page_of(kind)])
        made[kind] = (scan_pdf(original, folder / f"{kind}.pdf"), page_texts(original)[0])
    return made


@needs_rapidocr
def test_a_japanese_scan_reads_back_with_rapidocr(scans: dict[str, tuple[Path, str]]) -> None:
    pdf, truth = scans["ja"]
    result = convert_pdf(pdf, ConvertOptions(ocr=OcrOptions(engine="rapidocr")))
    [page] = result.pages
    assert page.ocr is not None and (page.ocr.engine, page.ocr.lang) == ("rapidocr", "multi")
    assert page.ocr.confidence >= 0.8
    assert char_accuracy(truth, result.markdown) >= MIN_ACCURACY
    marker = f"<!-- page 1: ocr conf={page.ocr.confidence:.2f} engine=rapidocr -->"
    assert marker in result.markdown.splitlines()
    # The same layout stages: the large first line is the title.
    assert [h for h in result.markdown.splitlines() if h.startswith("#")] == ["# 吾輩は猫である"]


@needs_rapidocr
def test_vertical_japanese_reads_as_vertical_lines(scans: dict[str, tuple[Path, str]]) -> None:
    pdf, truth = scans["vertical"]
    result = convert_pdf(pdf, ConvertOptions(ocr=OcrOptions(engine="rapidocr", jobs=2)))
    assert char_accuracy(truth, result.markdown) >= MIN_ACCURACY
    same = convert_pdf(pdf, ConvertOptions(ocr=OcrOptions(engine="rapidocr", jobs=1)))
    assert same.markdown == result.markdown


def test_a_missing_rapidocr_keeps_the_page_marked_and_says_what_to_install(
    scans: dict[str, tuple[Path, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine, "MODULE", "chunkcli_no_such_module")
    result = convert_pdf(scans["ja"][0], ConvertOptions(ocr=OcrOptions(engine="rapidocr")))
    assert result.image_only_pages == (1,) and result.ocr_pages == ()
    assert result.document.ocr_missing == (
        "rapidocr is not installed (install: pip install 'chunkcli[rapidocr]')"
    )


def test_korean_is_refused_not_read_badly(scans: dict[str, tuple[Path, str]]) -> None:
    options = ConvertOptions(ocr=OcrOptions(engine="rapidocr", lang="kor+eng"))
    result = convert_pdf(scans["ja"][0], options)
    assert result.image_only_pages == (1,)
    assert result.document.ocr_missing == (
        "RapidOCR's bundled model cannot read kor (use --ocr-engine tesseract)"
    )


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--ocr-engine", "paddle"], "'paddle' is not one of tesseract, rapidocr"),
        (["--ocr-engine", "rapidocr", "--ocr-lang", "kor"], "cannot read kor"),
    ],  # fmt: skip
)
def test_cli_bad_engine_flags_are_usage_errors(
    scans: dict[str, tuple[Path, str]], flags: list[str], message: str
) -> None:
    done = CliRunner().invoke(app, ["convert", str(scans["ja"][0]), *flags])
    assert done.exit_code == 2
    assert message in " ".join(done.stderr.split())


class FakeEngine:
    """RapidOCR's output shape: quadrilaterals, texts, scores."""

    def __call__(self, png: bytes) -> SimpleNamespace:
        del png
        quads = np.array([[[10, 20], [110, 20], [110, 40], [10, 40]],
                          [[200, 10], [224, 10], [224, 310], [200, 310]],
                          [[5, 5], [9, 5], [9, 9], [5, 9]]], dtype=np.float32)  # fmt: skip
        texts = ("横書き", "縦書きの行", " ")
        return SimpleNamespace(boxes=quads, txts=texts, scores=(0.9, 0.8, 0.1))


def test_each_detected_line_becomes_one_word_with_its_box_and_score(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine, "_engine", FakeEngine)
    words = engine.run_rapidocr(b"")
    got = [(w.text, w.left, w.top, w.width, w.height, w.confidence, w.line_key) for w in words]
    assert got == [("横書き", 10, 20, 100, 20, 0.9, (0, 0, 0)),
                   ("縦書きの行", 200, 10, 24, 300, 0.8, (0, 0, 1))]  # fmt: skip
    assert engine.is_vertical(words) is False  # one tall line of two is not most
    assert engine.is_vertical(words[1:]) is True
    assert engine.is_vertical(()) is False


def test_unreadable_languages() -> None:
    assert engine.unreadable_languages("jpn+eng") == ""
    assert engine.unreadable_languages("kor+eng+kor_vert") == "kor+kor_vert"

"""RapidOCR, the optional engine (`chunkcli[rapidocr]`): a page image -> text lines with boxes
and scores, as the same OcrWord records Tesseract's TSV gives.

RapidOCR's wheel (rapidocr 3.x) carries its ONNX models: PP-OCRv6 small text detection and one
multilingual recognition model (Chinese, Japanese, English and Latin scripts). It has no Korean
model inside the wheel (it would download one), so Korean is refused rather than read badly.
Nothing is downloaded at run time. RapidOCR detects text lines, not words: each line becomes
one OcrWord with its own line key, so `lines.words_to_lines` gives one Line (one span) per line.

ONNX Runtime runs with one thread per session (pages run in parallel instead, as Tesseract runs
with OMP_THREAD_LIMIT=1), and each reading thread keeps its own engine: models load once per
thread (~1 s CPU), and no engine state is shared between pages read at the same time.
Output depends on the rapidocr and onnxruntime versions.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any

from chunkcli.convert.ocr.tesseract import OcrFailed, OcrWord

ENGINE = "rapidocr"
MODULE = "rapidocr"
INSTALL_HINT = "pip install 'chunkcli[rapidocr]'"
# The language OcrInfo names: RapidOCR's own name for its multilingual recognition model.
MODEL_LANG = "multi"
# Tesseract language codes of scripts the bundled model cannot read (its Korean model would be
# downloaded: PP-OCRv6's multilingual model lists ch, chinese_cht, en, japan and Latin ones).
UNREADABLE = frozenset({"kor", "kor_vert"})
# A crop this much taller than wide is a vertical line: RapidOCR itself turns such crops by
# 90 degrees before recognition (process_img.get_rotate_crop_image uses the same 1.5).
VERTICAL_RATIO = 1.5
# RapidOCR's settings: quiet, one thread per ONNX session, and no line-orientation classifier:
# it turned a clean English line (tests' generated page, 200 dpi) upside down before
# recognition ("Tehe d or e se d ss", score 0.69; the page read 0.835, without it 1.0), and
# scanned lines are upright (a page's rotation is MuPDF's business).
PARAMS: dict[str, Any] = {
    "Global.log_level": "error",
    "Global.use_cls": False,
    "EngineConfig.onnxruntime.intra_op_num_threads": 1,
    "EngineConfig.onnxruntime.inter_op_num_threads": 1,
}

_local = threading.local()


def rapidocr_version() -> str | None:
    """'rapidocr 3.10.0' when the package imports; None when it is not installed."""
    import importlib.metadata  # ~20 ms: only when the engine is asked about

    try:
        importlib.import_module(MODULE)
        return f"{ENGINE} {importlib.metadata.version(MODULE)}"
    except (ImportError, importlib.metadata.PackageNotFoundError):
        return None


def unreadable_languages(lang: str) -> str:
    """The parts of a --ocr-lang value the bundled model cannot read ("" when all can)."""
    return "+".join(part for part in lang.split("+") if part in UNREADABLE)


def _engine() -> Any:
    engine = getattr(_local, "engine", None)
    if engine is None:
        engine = importlib.import_module(MODULE).RapidOCR(params=PARAMS)
        _local.engine = engine
    return engine


def run_rapidocr(png: bytes) -> tuple[OcrWord, ...]:
    """OCR one page image: one OcrWord per detected text line, in RapidOCR's order."""
    try:
        output = _engine()(png)
    except Exception as exc:  # noqa: BLE001 - any engine failure is this page's failure
        raise OcrFailed(f"rapidocr failed: {exc}") from None
    boxes, texts, scores = output.boxes, output.txts, output.scores
    if boxes is None or texts is None or scores is None:
        return ()
    words = []
    for index, (quad, text, score) in enumerate(zip(boxes, texts, scores, strict=True)):
        text = str(text).strip()
        if not text:
            continue
        xs = [float(point[0]) for point in quad]
        ys = [float(point[1]) for point in quad]
        left, top = round(min(xs)), round(min(ys))
        width, height = round(max(xs)) - left, round(max(ys)) - top
        words.append(OcrWord(text, left, top, width, height, float(score), (0, 0, index)))
    return tuple(words)


def is_vertical(words: tuple[OcrWord, ...]) -> bool:
    """Most lines of two or more characters are tall crops: a vertical (tategaki) page."""
    long = [word for word in words if len(word.text) >= 2]
    tall = sum(word.height >= VERTICAL_RATIO * word.width for word in long)
    return bool(long) and tall * 2 > len(long)

"""OCR: pages without a usable text layer -> positioned Lines with a confidence (Tesseract, or
RapidOCR when installed and asked for).

options (what and how) -> read (render, pick the language, run the engine in parallel, stop
before --timeout) -> tesseract (the engine's TSV words) or rapidocr (its text lines, as the same
word records) -> lines (words as the Lines a text layer gives).
The page marker that carries the confidence into Markdown is chunkcli.markdown_format's.
"""

from chunkcli.convert.ocr.options import OcrMode, OcrOptions, OcrSettings

__all__ = ["OcrMode", "OcrOptions", "OcrSettings"]

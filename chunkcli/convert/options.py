"""ConvertOptions: what shapes a conversion, in a module light enough for every command to
import (the CLI reads its defaults, sync hashes it) without loading PyMuPDF."""

from __future__ import annotations

from dataclasses import dataclass

from chunkcli.convert.layout.settings import LayoutSettings
from chunkcli.convert.ocr.options import OcrOptions


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """Options that shape a conversion; the CLI's convert flags map one-to-one onto these."""

    pages: tuple[int, ...] | None = None  # 1-based physical pages; None = all
    password: str | None = None
    tables: bool = True  # detect tables (the expensive part)
    strip_furniture: bool = True  # drop running headers, footers, page numbers
    # Keep text a reader cannot see (invisible, the background's colour, tiny): by default it
    # is removed, as it is how instructions are planted in documents (extract/hidden.py).
    keep_hidden_text: bool = False
    source_name: str | None = None  # the name the provenance comment gives; None = the file's
    ocr: OcrOptions = OcrOptions()  # which pages are read by OCR, and how
    layout: LayoutSettings = LayoutSettings()  # the layout stage's thresholds

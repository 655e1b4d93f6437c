"""ConvertOptions: what shapes a conversion, in a module light enough for every command to
import (the CLI reads its defaults, sync hashes it) without loading PyMuPDF."""

from __future__ import annotations

from dataclasses import dataclass

from chunkcli.convert.layout.settings import LayoutSettings
from chunkcli.convert.ocr.options import OcrOptions


@dataclass(frozen=True, slots=True)
class ImageOptions:
    """Write each figure's picture as a PNG and link it from its figure block (--images)."""

    # The folder the pictures are written to (the batch writes them; convert_pdf returns them).
    folder: str
    # Where the figure block's link points: the images' folder relative to the Markdown file
    # ("images", "../img"), set for each file by the batch; or, `link_as_given`, as the user
    # gave the folder (Markdown on stdout: relative to where the command runs).
    link: str = ""
    link_as_given: bool = False
    # Pictures are drawn at this resolution: sharp on screen, 0.1-0.5 MB a figure.
    dpi: int = 150


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
    images: ImageOptions | None = None  # write figures' pictures (ConvertResult.images)

"""The stages composed: read this first.

PDF -> pages of positioned text (extract) -> ordered, labelled blocks (layout) -> Markdown (render).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from chunkcli.convert.extract.pages import extract_document
from chunkcli.convert.figure_images import with_figure_images
from chunkcli.convert.layout.document import layout_document
from chunkcli.convert.options import ConvertOptions
from chunkcli.convert.render import render_markdown
from chunkcli.convert.source import UNNAMED, PdfInput, damage_notes, open_pdf, read_pdf_bytes
from chunkcli.gcpause import cycle_collector_paused
from chunkcli.markdown_format import Provenance
from chunkcli.model import ConvertResult

if TYPE_CHECKING:
    from chunkcli.convert.ocr.read import PagesDone

__all__ = ["ConvertOptions", "convert_pdf", "file_sha256"]


def convert_pdf(
    pdf: PdfInput,
    options: ConvertOptions = ConvertOptions(),
    *,
    name: str | Path | None = None,
    on_ocr_pages: PagesDone | None = None,
) -> ConvertResult:
    """Convert one PDF, a path, its bytes or a binary stream, into a ConvertResult (ordered
    document + GitHub-Flavored Markdown).

    `name` is the file the result and every error name (default: the path, or "<bytes>"):
    bytes fetched from object storage or a temporary copy keep their original path.
    `on_ocr_pages` is told how many pages OCR has read so far, as it goes (progress).
    Raises PdfOpenError for files that cannot be read (named in the message).
    """
    if name is None:
        name = pdf if isinstance(pdf, str | Path) else UNNAMED
    data = pdf.read() if not isinstance(pdf, str | Path | bytes) else pdf
    with cycle_collector_paused():  # see chunkcli.gcpause: 10-25 % of convert's CPU
        return _convert(data, options, name, on_ocr_pages)


def _convert(
    data: str | Path | bytes,
    options: ConvertOptions,
    name: str | Path,
    on_ocr_pages: PagesDone | None,
) -> ConvertResult:
    if isinstance(data, str | Path):
        data = read_pdf_bytes(Path(data))  # the provenance hash is of exactly these bytes
    shown = options.source_name if options.source_name is not None else Path(name).name
    images: tuple[tuple[str, bytes], ...] = ()
    with open_pdf(data, options.password, name=name) as doc:
        document = extract_document(name, doc, options, on_ocr_pages)
        # Damage repaired by MuPDF, and OCR failures on single pages, name the file.
        warnings = damage_notes(name, doc) + tuple(f"{name}: {n}" for n in document.notes)
        document = layout_document(document, options.strip_furniture, options.layout)
        if options.images is not None:  # figures are numbered in reading order: after layout
            stem = Path(shown).stem
            document, images, notes = with_figure_images(doc, document, options.images, stem)
            warnings += tuple(f"{name}: {n}" for n in notes)
    provenance = Provenance(shown, hashlib.sha256(data).hexdigest())
    return ConvertResult(document, render_markdown(document, provenance), warnings, images)


def file_sha256(path: str | Path) -> str:
    """The sha256 of a file's bytes, read in blocks (a PDF can be hundreds of MB)."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()

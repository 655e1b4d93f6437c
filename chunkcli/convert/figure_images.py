"""Figure blocks -> PNG files' names and bytes, and the links their blocks carry (--images).

A figure's picture is drawn from its region of the page (what the reader sees there, the
picture with anything drawn over it), so a chart cut into tiles is one image. Names are
`<document>-p<page>-<k>.png`, k counting the page's figures in reading order from 1: the
same input gives the same names, and a second run overwrites the first's files.
"""

# pymupdf's methods carry no annotations, so strict mypy would flag every call into it.
# mypy: disallow-untyped-calls=False

from __future__ import annotations

import dataclasses
import re

import pymupdf

from chunkcli.convert.options import ImageOptions
from chunkcli.convert.source import MUPDF_ERRORS
from chunkcli.model import Block, BlockKind, Document

# Characters kept in a document's part of an image name; others become "_" (a name that is
# safe in a Markdown link and on any file system).
_UNSAFE = re.compile(r"[^\w.-]+")


def with_figure_images(
    pdf: pymupdf.Document, document: Document, images: ImageOptions, stem: str
) -> tuple[Document, tuple[tuple[str, bytes], ...], tuple[str, ...]]:
    """The document with each figure's link set, the (name, PNG) of each picture, and notes
    on pictures MuPDF could not draw (those figures keep no link)."""
    stem = _UNSAFE.sub("_", stem).strip("_.") or "document"
    written: list[tuple[str, bytes]] = []
    notes: list[str] = []
    pages = []
    for page in document.pages:
        blocks = []
        count = 0
        for block in page.blocks:
            if block.kind == BlockKind.FIGURE and block.figure is not None:
                count += 1
                name = f"{stem}-p{page.number}-{count}.png"
                png = _drawn(pdf[page.number - 1], block, images.dpi, notes)
                if png is not None:
                    written.append((name, png))
                    link = f"{images.link.rstrip('/')}/{name}" if images.link else name
                    figure = dataclasses.replace(block.figure, image=link)
                    block = dataclasses.replace(block, figure=figure)
            blocks.append(block)
        pages.append(dataclasses.replace(page, blocks=tuple(blocks)) if count else page)
    return dataclasses.replace(document, pages=tuple(pages)), tuple(written), tuple(notes)


def _drawn(pdf_page: pymupdf.Page, block: Block, dpi: int, notes: list[str]) -> bytes | None:
    assert block.figure is not None
    region = block.figure.region
    clip = pymupdf.Rect(region.x0, region.top, region.x1, region.bottom)
    try:
        return bytes(pdf_page.get_pixmap(dpi=dpi, clip=clip, alpha=False).tobytes("png"))
    except MUPDF_ERRORS as error:
        notes.append(f"page {block.page}: a figure's picture could not be drawn ({error})")
        return None

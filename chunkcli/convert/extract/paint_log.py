"""What a page paints besides text, in paint order: PyMuPDF's `get_bboxlog` without its text.

Hidden-text removal asks what lies under light text: images, shadings and filled or stroked
paths (extract/hidden.py). `get_bboxlog` answers that, but its device also bounds every text
object in Python (`fz_bound_text` glyph by glyph), which the check never reads: on the corpus'
354 pages with light text that was 0.58 of its 0.81 s. This device takes only the calls the
check reads, and bounds them with the same MuPDF functions, so each entry is the one
`get_bboxlog` gives, in the same order.
"""

# pymupdf's methods carry no annotations, so strict mypy would flag every call into it.
# mypy: disallow-untyped-calls=False

from __future__ import annotations

from typing import Any

import pymupdf
from pymupdf import mupdf

Box = tuple[float, float, float, float]


class _PaintLogDevice(mupdf.FzDevice2):  # type: ignore[misc]
    """Records (kind, box) for paths, images and shadings; text calls never reach Python."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[str, Box]] = []
        self.use_virtual_fill_path()
        self.use_virtual_stroke_path()
        self.use_virtual_fill_shade()
        self.use_virtual_fill_image()
        self.use_virtual_fill_image_mask()

    def fill_path(self, ctx: Any, path: Any, even_odd: Any, ctm: Any, *args: Any) -> None:
        self._add("fill-path", mupdf.ll_fz_bound_path(path, None, ctm))

    def stroke_path(self, ctx: Any, path: Any, stroke: Any, ctm: Any, *args: Any) -> None:
        self._add("stroke-path", mupdf.ll_fz_bound_path(path, stroke, ctm))

    def fill_shade(self, ctx: Any, shade: Any, ctm: Any, *args: Any) -> None:
        self._add("fill-shade", mupdf.ll_fz_bound_shade(shade, ctm))

    def fill_image(self, ctx: Any, image: Any, ctm: Any, *args: Any) -> None:
        self._add("fill-image", mupdf.ll_fz_transform_rect(mupdf.fz_unit_rect, ctm))

    def fill_image_mask(self, ctx: Any, image: Any, ctm: Any, *args: Any) -> None:
        self._add("fill-imgmask", mupdf.ll_fz_transform_rect(mupdf.fz_unit_rect, ctm))

    def _add(self, kind: str, rect: Any) -> None:
        self.log.append((kind, (rect.x0, rect.y0, rect.x1, rect.y1)))


def paint_log(page: pymupdf.Page) -> list[tuple[str, Box]]:
    """(kind, box) of each path, image and shading the page paints, in paint order, in the
    unrotated page's coordinates (as `get_bboxlog` reads them)."""
    rotation = page.rotation
    if rotation != 0:
        page.set_rotation(0)
    try:
        device = _PaintLogDevice()
        mupdf.fz_run_page(page.this, device, mupdf.FzMatrix(), mupdf.FzCookie())
        mupdf.fz_close_device(device)
    finally:
        if rotation != 0:
            page.set_rotation(rotation)
    return device.log

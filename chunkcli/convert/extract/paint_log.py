"""What a page paints besides text: PyMuPDF's `get_bboxlog` without its text, and the places
of its pictures as `get_image_info` gives them, each from one run of the page through a device.

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


# A picture drawn at less than this opacity is no image block of MuPDF's text page (stext
# device: "probably a watermark or effect"), so `get_image_info` does not list it.
MIN_PICTURE_ALPHA = 0.5


class _PictureDevice(mupdf.FzDevice2):  # type: ignore[misc]
    """Records (box, pixel width, pixel height) of each image the page draws, as MuPDF's text
    device makes its image blocks; notes shadings, which that device draws as images too."""

    def __init__(self) -> None:
        super().__init__()
        self.pictures: list[tuple[Box, int, int]] = []
        self.shaded = False
        self.use_virtual_fill_image()
        self.use_virtual_fill_image_mask()
        self.use_virtual_fill_shade()

    def fill_image(self, ctx: Any, image: Any, ctm: Any, alpha: float, *args: Any) -> None:
        if alpha >= MIN_PICTURE_ALPHA:
            rect = mupdf.ll_fz_transform_rect(mupdf.fz_unit_rect, ctm)
            self.pictures.append(((rect.x0, rect.y0, rect.x1, rect.y1), image.w, image.h))

    def fill_image_mask(
        self, ctx: Any, image: Any, ctm: Any, colorspace: Any, color: Any, alpha: float, *args: Any
    ) -> None:
        self.fill_image(ctx, image, ctm, alpha)

    def fill_shade(self, ctx: Any, *args: Any) -> None:
        self.shaded = True


def picture_placements(page: pymupdf.Page) -> list[tuple[Box, int, int]]:
    """(box, pixel width, pixel height) of each picture on the page, in paint order: what
    `get_image_info` lists as bbox, width and height. That call builds a text page with
    images (0.6 s on the 236 pictured pages of the corpus and DP-Bench, against 0.17 s for
    this device); it is still asked where this device would not match it: on a page with
    a shading (which MuPDF's text device renders as an image of its own) or a rotated page.
    Identical on the 642 pictured pages of the corpus, DP-Bench and retrieval-ja that this
    device reads (2026-12-04)."""
    if page.rotation == 0:
        device = _PictureDevice()
        mupdf.fz_run_page(page.this, device, mupdf.FzMatrix(), mupdf.FzCookie())
        mupdf.fz_close_device(device)
        if not device.shaded:
            return device.pictures
    return [(tuple(i["bbox"]), i["width"], i["height"]) for i in page.get_image_info()]

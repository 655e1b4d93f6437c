"""A page's vector paths, read from MuPDF at most once per page (with its box and rotation).

Hidden-text removal (the fills under light text, extract/hidden.py) and ruled-table detection
(tables/detect.py) both need them; reading them runs the whole page through MuPDF again
(~0.75 ms a page on the corpus, as much as its text), so the two share one reading. The
page's box and rotation, which extraction, tables and figures each ask for, are read once too:
PyMuPDF computes them anew on every read (~10-15 us each, seven reads a page before), and so
is hidden text's paint log (another run of the page).
"""

# pymupdf's methods carry no annotations, so strict mypy would flag every call into it.
# mypy: disallow-untyped-calls=False

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chunkcli.convert.extract.paint_log import Box, paint_log

if TYPE_CHECKING:
    import pymupdf


class PageDrawings:
    """`page.get_cdrawings()`, read on the first ask and kept for the page's later asks.
    Readers must not change the paths (they are shared)."""

    def __init__(self, page: pymupdf.Page) -> None:
        self.page = page
        self._paths: list[dict[str, Any]] | None = None
        self._log: list[tuple[str, Box]] | None = None
        self._rect: pymupdf.Rect | None = None
        self._rotation: int | None = None

    @property
    def paths(self) -> list[dict[str, Any]]:
        if self._paths is None:
            self._paths = self.page.get_cdrawings()
        return self._paths

    @property
    def paint_log(self) -> list[tuple[str, Box]]:
        """`paint_log(page)` (extract/paint_log.py), run on the first ask: a page whose text is
        read again with character boxes (extract/wordgaps.py, bidi.py) has its hidden text
        looked for twice, and its paint log, a run of the page through a device, was made twice
        (59 pages of the corpus, 2026-12-04)."""
        if self._log is None:
            self._log = paint_log(self.page)
        return self._log

    @property
    def rect(self) -> pymupdf.Rect:
        """`page.rect`, read once (readers must not change it)."""
        if self._rect is None:
            self._rect = self.page.rect
        return self._rect

    @property
    def rotation(self) -> int:
        """`page.rotation`, read once."""
        if self._rotation is None:
            self._rotation = int(self.page.rotation)
        return self._rotation

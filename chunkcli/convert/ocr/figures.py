"""A page image and its OCR words -> the regions of its figures (charts, diagrams, photos).

A scan has no drawings, so the figures a text page's paths reveal (extract/vector_figures.py)
must be seen in its pixels. What a figure has and text has not is ink that is no letter:
the ink left once every recognised word's box is blanked out. Of that ink, what is thick in
both directions is a filled shape (a bar, a wedge, a marker, a photo); the rest is strokes
(axes, plot lines, frames, table rules, underlines). A cluster of non-text ink is a figure
when it holds several filled shapes (a bar chart, a diagram of filled boxes) or is mostly
filled (a photo): the rules of a table, the frame or underline of a paragraph are not, nor is
a heading's dark band (lower than a figure). The caller keeps the OCR lines inside such a
region as the figure's words, when there are two or more and they are labels
(extract/scanned_figures.py).

Everything is measured in the page's sample at the table gate's resolution (GATE_DPI),
counted in square cells: 10-75 ms a page (median 19) next to Tesseract's 0.3-2.2 s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chunkcli.convert.ocr.lines import INK_LEVEL
from chunkcli.convert.ocr.options import ScanFigureSettings
from chunkcli.convert.ocr.tesseract import OcrWord
from chunkcli.convert.tables.raster import in_long_runs, run_pixels
from chunkcli.convert.unionfind import root
from chunkcli.model import POINTS_PER_INCH, BBox

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class InkCells:
    """A page image's non-text ink, counted in square cells: what figure_regions needs,
    kept with the page's reading (two small grids, not the image) until its tables are known."""

    marks: npt.NDArray[np.bool_]  # cells holding ink outside every recognised word
    filled: npt.NDArray[np.bool_]  # cells all darker than the background (a bar, a photo)
    cell_pt: float  # a cell's side in page points


def nontext_ink(
    gray: npt.NDArray[np.uint8],
    dpi: int,
    words: Sequence[OcrWord],
    scale: float,
    settings: ScanFigureSettings,
) -> InkCells:
    """The non-text ink of `gray`, a sample at `dpi` of the image the words were read from
    (`scale` page points per pixel of that image)."""
    import numpy as np

    px_pt = POINTS_PER_INCH / dpi
    cell_px = max(1, round(settings.cell_pt / px_pt))
    dark = gray < INK_LEVEL
    rule_px = round(settings.rule_pt / px_pt)
    # a word's box that a rule or a bar crosses keeps that ink (an axis read as "「 -")
    text = _word_mask(gray.shape, words, scale / px_pt, settings)
    text &= ~(in_long_runs(dark, rule_px) | in_long_runs(dark.T, rule_px).T)
    light = int(np.median(gray)) - settings.fill_contrast  # darker than the background
    filled = _cells((gray < light) & ~text, cell_px, full=True)
    marks = _cells(dark & ~text, cell_px) | filled
    return InkCells(marks, filled, cell_px * px_pt)


def figure_regions(
    ink: InkCells, tables: Sequence[BBox], settings: ScanFigureSettings
) -> tuple[BBox, ...]:
    """The regions (page points) of the clusters of non-text ink that are figures, the ink
    inside `tables` left out (a ruled table's rules would join a chart beside it)."""
    import numpy as np

    marks, filled = ink.marks.copy(), ink.filled.copy()
    for table in tables:
        inside = _cells_of(table, ink.cell_pt, marks.shape)
        marks[inside] = False
        filled[inside] = False
    if not marks.any():
        return ()
    gap = max(1, round(settings.join_gap_pt / ink.cell_pt / 2))
    clusters = np.where(marks, _labels(_dilated(marks, gap)), 0)
    count = int(clusters.max()) + 1
    boxes = _cluster_boxes(clusters, marks, count, ink.cell_pt)
    cells = np.bincount(clusters[marks], minlength=count)
    full = np.bincount(clusters[filled], minlength=count)
    shapes = _shapes_per_cluster(filled, clusters, count, settings.min_shape_cells)
    page_area = marks.shape[0] * marks.shape[1] * ink.cell_pt * ink.cell_pt
    found = []
    for label in range(1, count):
        box = boxes[label]
        if not cells[label] or min(box.width, box.height) < settings.min_side_pt:
            continue
        if box.width * box.height < settings.min_share * page_area:
            continue
        many_shapes = shapes[label] >= settings.min_shapes
        if many_shapes or full[label] >= settings.min_filled_share * cells[label]:
            found.append(box)
    return tuple(found)


def _cluster_boxes(
    clusters: npt.NDArray[np.int32], marks: npt.NDArray[np.bool_], count: int, cell_pt: float
) -> list[BBox]:
    """Each cluster's box in points (index: its number; 0 and empty numbers: no box)."""
    import numpy as np

    rows, cols = np.nonzero(marks)
    member = clusters[rows, cols]
    top, left = _extreme(np.minimum, member, rows, count), _extreme(np.minimum, member, cols, count)
    bottom = _extreme(np.maximum, member, rows, count) + 1
    right = _extreme(np.maximum, member, cols, count) + 1
    return [
        BBox(float(x0) * cell_pt, float(y0) * cell_pt, float(x1) * cell_pt, float(y1) * cell_pt)
        for x0, y0, x1, y1 in zip(left, top, right, bottom, strict=True)
    ]


def _shapes_per_cluster(
    filled: npt.NDArray[np.bool_], clusters: npt.NDArray[np.int32], count: int, min_cells: int
) -> npt.NDArray[np.int64]:
    """How many filled shapes of at least `min_cells` cells each cluster holds."""
    import numpy as np

    shapes = _labels(filled).ravel()
    sizes = np.bincount(shapes)
    numbers, firsts = np.unique(shapes, return_index=True)
    large = (numbers > 0) & (sizes[numbers] >= min_cells)
    owners = clusters.ravel()[firsts[large]]  # a shape lies in one cluster: its first cell's
    return np.bincount(owners, minlength=count)


def _extreme(
    ufunc: np.ufunc, labels: npt.NDArray[np.int32], values: npt.NDArray[np.int64], count: int
) -> npt.NDArray[np.int64]:
    """Per label, the least (np.minimum) or greatest (np.maximum) of its values."""
    import numpy as np

    start = np.iinfo(np.int64).max if ufunc is np.minimum else -1
    out = np.full(count, start, dtype=np.int64)
    ufunc.at(out, labels, values)
    return out


def _cells_of(box: BBox, cell_pt: float, shape: tuple[int, ...]) -> tuple[slice, slice]:
    """The cells `box` (points) touches, one more all round, as slices of a grid of `shape`."""
    top, left = max(0, int(box.top / cell_pt) - 1), max(0, int(box.x0 / cell_pt) - 1)
    bottom = min(shape[0], int(box.bottom / cell_pt) + 2)
    right = min(shape[1], int(box.x1 / cell_pt) + 2)
    return slice(top, bottom), slice(left, right)


def _word_mask(
    shape: tuple[int, ...], words: Sequence[OcrWord], factor: float, settings: ScanFigureSettings
) -> npt.NDArray[np.bool_]:
    """The boxes of the confidently read words, in pixels of the sample (`factor` sample
    pixels per pixel of the words' image), one pixel wider all round."""
    import numpy as np

    mask = np.zeros(shape, dtype=bool)
    for word in words:
        if word.confidence < settings.min_word_confidence or not word.text.strip():
            continue
        top, left = int(word.top * factor) - 1, int(word.left * factor) - 1
        bottom = int((word.top + word.height) * factor) + 2
        right = int((word.left + word.width) * factor) + 2
        mask[max(0, top) : bottom, max(0, left) : right] = True
    return mask


def _cells(dark: npt.NDArray[np.bool_], cell_px: int, full: bool = False) -> npt.NDArray[np.bool_]:
    """Which cell_px-square cells hold at least one dark pixel (`full`: only dark pixels;
    the cells along the image's right and bottom edges are cut)."""
    import numpy as np

    height, width = dark.shape
    rows, cols = -(-height // cell_px), -(-width // cell_px)
    padded = np.zeros((rows * cell_px, cols * cell_px), dtype=bool)
    padded[:height, :width] = dark
    if full:
        across = padded.reshape(rows, cell_px, cols * cell_px).all(axis=1)
        return np.asarray(across.reshape(rows, cols, cell_px).all(axis=2))
    across = padded.reshape(rows, cell_px, cols * cell_px).any(axis=1)
    return np.asarray(across.reshape(rows, cols, cell_px).any(axis=2))


def _dilated(grid: npt.NDArray[np.bool_], radius: int) -> npt.NDArray[np.bool_]:
    """The grid grown by `radius` cells in every direction (a square's reach)."""
    import numpy as np

    def along(a: npt.NDArray[np.bool_], axis: int) -> npt.NDArray[np.bool_]:
        sums = np.cumsum(a, axis=axis, dtype=np.int32)
        pad = [(0, 0), (0, 0)]
        pad[axis] = (radius + 1, radius)
        padded = np.pad(sums, pad, mode="edge")
        if axis == 0:
            padded[: radius + 1] = 0
            window = padded[2 * radius + 1 :] - padded[: -(2 * radius + 1)]
        else:
            padded[:, : radius + 1] = 0
            window = padded[:, 2 * radius + 1 :] - padded[:, : -(2 * radius + 1)]
        return np.asarray(window > 0)

    return along(along(grid, 0), 1)


def _labels(grid: npt.NDArray[np.bool_]) -> npt.NDArray[np.int32]:
    """Connected regions of the grid (8 neighbours), numbered from 1 (0: empty), found on the
    runs of each row: a page's cells of non-text ink form a few thousand runs."""
    import numpy as np

    height, width = grid.shape
    edges = np.diff(np.pad(grid, ((0, 0), (1, 1))).astype(np.int8), axis=1)
    rows, starts = np.nonzero(edges == 1)
    ends = np.nonzero(edges == -1)[1]
    parent = list(range(len(rows)))

    first = np.searchsorted(rows, np.arange(height + 1)).tolist()
    begin, end = starts.tolist(), ends.tolist()
    for row in range(1, height):
        a, a_end = first[row - 1], first[row]
        b, b_end = a_end, first[row + 1]
        while a < a_end and b < b_end:  # runs of two rows that touch (corners too)
            if begin[a] <= end[b] and begin[b] <= end[a]:
                parent[root(parent, b)] = root(parent, a)
            if end[a] < end[b]:
                a += 1
            else:
                b += 1
    roots = np.array([root(parent, i) for i in range(len(rows))], dtype=np.int64)
    numbers = np.zeros(len(rows) + 1, dtype=np.int32)
    unique = np.unique(roots)
    numbers[unique] = np.arange(1, len(unique) + 1, dtype=np.int32)
    labels = np.zeros(height * width, dtype=np.int32)
    labels[run_pixels(rows, starts, ends, width)] = np.repeat(numbers[roots], ends - starts)
    return labels.reshape(height, width)

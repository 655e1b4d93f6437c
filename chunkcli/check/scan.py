"""Markdown text -> ScannedMarkdown: the structure every check reads, with line and page numbers.

The lines come from chunkcli.markdown_index (one index of the GFM `convert` writes, shared with
split): here they are grouped as the checks read them, as rows of the index (no line is
copied). A check reads a line as a TextLine record made on demand; the records of a text are
never all kept (a record per line of 2 MB of `|` lines cost 56 times the input). Table rows keep
their cells exactly as written (a full Markdown parser would pad or cut them, hiding the defect
we look for).
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, overload

import numpy as np
import numpy.typing as npt

from chunkcli.markdown_format import FigureBlock, parse_figure, split_cells
from chunkcli.markdown_index import (
    KIND_OF_BYTE,
    LineKind,
    LineRecord,
    MarkdownIndex,
    build_index,
    column,
    is_delimiter_row,
    is_table_start,
    rows_array,
)
from chunkcli.markdown_lines import FIGURE_BOUND_RE, FIGURE_CUT, figure_edge, pair_figures
from chunkcli.model import PageStatus

__all__ = [
    "Figure",
    "FigureFault",
    "Heading",
    "LineKind",
    "LineView",
    "PageMarker",
    "Paragraph",
    "ScannedMarkdown",
    "Table",
    "TableRow",
    "TextLine",
    "is_delimiter_row",
    "is_table_start",
    "scan_markdown",
]

TextLine = LineRecord  # one content line, as a check reports it
Heading = LineRecord  # a heading is its own line (kind HEADING, level 1-6)
_new = tuple.__new__  # a record without NamedTuple's Python __new__
# Runs of index kinds (one byte a line): a paragraph's lines (comments inside leave it open),
# and a table (header, delimiter row, body rows).
PARAGRAPH_RUN = re.compile(
    b"%c(?:[%c%c]*%c)?"
    % (LineKind.PARAGRAPH, LineKind.PARAGRAPH, LineKind.COMMENT, LineKind.PARAGRAPH)
)
TABLE_RUN = re.compile(b"%c%c%c*" % (LineKind.TABLE, LineKind.DELIMITER, LineKind.TABLE))


class PageMarker(NamedTuple):
    number: int
    status: PageStatus
    line: int


class TableRow(NamedTuple):
    line: int
    cells: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Table:
    header: TableRow
    delimiter: TableRow
    rows: tuple[TableRow, ...]  # body rows, header and delimiter excluded
    page: int | None

    @property
    def line(self) -> int:
        return self.header.line


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure block (markdown_format), start comment to end comment, as parse_figure reads it."""

    line: int  # of the start comment, 1-based
    end_line: int  # of the end comment
    page: int | None
    block: FigureBlock


class FigureFault(NamedTuple):
    """A figure comment that bounds no figure: a start with no end before the next heading or
    start, or an end with no start open (split reads the lines between as ordinary blocks)."""

    line: int
    page: int | None
    opening: bool  # a start comment (else an end comment)


@dataclass(frozen=True, slots=True)
class LineView(Sequence[TextLine]):
    """Some lines of the index, by their rows in it; view[k] is a record made when asked."""

    markdown_index: MarkdownIndex = field(repr=False)
    rows: array[int]  # rows of the index, in order; never changed once the view is made

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, position: int) -> TextLine: ...

    @overload
    def __getitem__(self, position: slice) -> tuple[TextLine, ...]: ...

    def __getitem__(self, position: int | slice) -> TextLine | tuple[TextLine, ...]:
        if isinstance(position, slice):
            return tuple(self.markdown_index.records(self.rows[position]))
        return self.markdown_index.record(self.rows[position])

    def __iter__(self) -> Iterator[TextLine]:
        return self.markdown_index.records(self.rows)

    def texts(self) -> list[str]:
        """[line.text for line in self], without the records."""
        return self.markdown_index.texts(self.rows)

    def number(self, position: int) -> int:
        """view[position].number, without making the record."""
        return self.rows[position] + 1

    def page(self, position: int) -> int | None:
        """view[position].page, without making the record."""
        index = self.markdown_index  # (index.page written out: called once a page or line)
        ordinal = index.page_ordinals[self.rows[position]]
        return index.markers[ordinal - 1].number if ordinal else None

    def marker_runs(self) -> list[tuple[int, int]]:
        """[start, end) of each run of consecutive lines under one page marker."""
        ordinals = column(self.markdown_index.page_ordinals)[self._rows()]
        starts = [0, *(np.flatnonzero(np.diff(ordinals)) + 1).tolist()]
        return list(zip(starts, [*starts[1:], len(self)], strict=True)) if len(self) else []

    def kind(self, position: int) -> LineKind:
        """view[position].kind, without making the record."""
        return KIND_OF_BYTE[self.markdown_index.kinds[self.rows[position]]]

    def find_sequence(self, kinds: Sequence[LineKind]) -> list[int]:
        """Each position where consecutive lines of the view have `kinds`, in order (found by
        a regex over the kinds, one byte a line)."""
        codes = column(self.markdown_index.kinds)[self._rows()].tobytes()
        pattern = re.compile(b"(?=%s)" % re.escape(bytes(kinds)))
        return [found.start() for found in pattern.finditer(codes)]

    def only(self, kinds: Iterable[LineKind]) -> LineView:
        """The view of the lines of `kinds` (picked without a Python step per line)."""
        codes = np.frombuffer(self.markdown_index.kinds, dtype=np.uint8)[self._rows()]
        picked = self._rows()[np.isin(codes, np.array(list(kinds), dtype=np.uint8))]
        return LineView(self.markdown_index, rows_array(picked))

    def count_kind(self, kind: LineKind) -> int:
        return len(self.only((kind,)))

    def pages(self) -> list[int | None]:
        """[line.page for line in self], without the records."""
        index = self.markdown_index
        ordinals = column(index.page_ordinals)[self._rows()].tolist()
        return list(map(index.page_numbers().__getitem__, ordinals))

    def _rows(self) -> npt.NDArray[np.int64]:
        return np.frombuffer(self.rows, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Headings(Sequence[Heading]):
    """The heading lines, their texts read once (setext headings join lines; the heading
    checks read every text several times)."""

    markdown_index: MarkdownIndex = field(repr=False)
    rows: array[int]  # rows of the index
    texts: tuple[str, ...]
    levels: bytes

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, position: int) -> Heading: ...

    @overload
    def __getitem__(self, position: slice) -> tuple[Heading, ...]: ...

    def __getitem__(self, position: int | slice) -> Heading | tuple[Heading, ...]:
        if isinstance(position, slice):
            return tuple(self[k] for k in range(*position.indices(len(self))))
        row = self.rows[position]
        fields = (row + 1, self.markdown_index.page(row), self.texts[position], LineKind.HEADING)
        return _new(Heading, (*fields, self.levels[position]))

    def __iter__(self) -> Iterator[Heading]:
        return map(self.__getitem__, range(len(self)))

    def pages(self, positions: array[int]) -> set[int | None]:
        """The pages of the headings at `positions`."""
        rows = array("q", map(self.rows.__getitem__, positions))
        return set(LineView(self.markdown_index, rows).pages())


@dataclass(frozen=True, slots=True)
class Paragraph:
    """Consecutive PARAGRAPH lines, at least one: lines[start:stop] of the scan's lines."""

    scan_lines: LineView = field(repr=False)  # all of the scan's lines
    start: int
    stop: int

    @property
    def line(self) -> int:
        return self.scan_lines.rows[self.start] + 1

    @property
    def last_line(self) -> int:
        return self.scan_lines.rows[self.stop - 1] + 1

    @property
    def page(self) -> int | None:
        return self.scan_lines.markdown_index.page(self.scan_lines.rows[self.start])

    @property
    def texts(self) -> list[str]:
        return self.scan_lines.markdown_index.texts(self.scan_lines.rows[self.start : self.stop])

    def holds(self, character: str) -> bool:
        """Whether the paragraph's lines hold `character` (read in the Markdown, no copy)."""
        index, rows = self.scan_lines.markdown_index, self.scan_lines.rows
        begin, end = index.begins[rows[self.start]], index.ends[rows[self.stop - 1]]
        return index.markdown.find(character, begin, end) >= 0

    @property
    def last_text(self) -> str:
        return self.scan_lines.markdown_index.text(self.scan_lines.rows[self.stop - 1])

    @property
    def text(self) -> str:
        return " ".join(text.strip() for text in self.texts)

    @property
    def lines(self) -> tuple[TextLine, ...]:
        return self.scan_lines[self.start : self.stop]


@dataclass(frozen=True, slots=True)
class ScannedMarkdown:
    text: str  # the Markdown as given
    index: MarkdownIndex = field(repr=False)
    lines: LineView  # every non-blank content line (markers and comments excluded)
    markers: tuple[PageMarker, ...]
    headings: Headings  # the HEADING lines of `lines`
    heading_rows: array[int]  # headings[k] is lines[heading_rows[k]]
    tables: tuple[Table, ...]
    paragraphs: tuple[Paragraph, ...]
    figures: tuple[Figure, ...] = ()
    figure_faults: tuple[FigureFault, ...] = ()

    def outside_figures(self, view: LineView) -> LineView:
        """The lines of `view` that no figure block holds (its caption and words are the
        figure's, not the document's prose: they repeat on pages, sit side by side)."""
        if not self.figures:
            return view
        rows = np.frombuffer(view.rows, dtype=np.int64)
        starts = np.array([f.line - 1 for f in self.figures], dtype=np.int64)
        ends = np.array([f.end_line - 1 for f in self.figures], dtype=np.int64)
        found = np.searchsorted(starts, rows, side="right") - 1
        inside = (found >= 0) & (rows <= ends[np.maximum(found, 0)])
        return LineView(view.markdown_index, rows_array(rows[~inside]))

    @property
    def page_count(self) -> int:
        return len({marker.number for marker in self.markers})

    @property
    def text_page_count(self) -> int:
        """Pages marked as having a text layer (a page whose text moved up with a table that
        continues onto it counts, though its own marker is followed by nothing)."""
        return len({m.number for m in self.markers if m.status == PageStatus.TEXT})


def scan_markdown(markdown: str, fast_lines: bool = True) -> ScannedMarkdown:
    """Read Markdown into lines, page markers, headings, tables and paragraphs (`fast_lines`:
    see markdown_index.build_index)."""
    return scan_index(build_index(markdown, fast_lines))


def scan_index(index: MarkdownIndex) -> ScannedMarkdown:
    """The index's lines grouped as the checks read them."""
    lines = LineView(index, index.content_rows())
    heading_rows = index.heading_rows
    levels = column(index.levels)[column(heading_rows)].tobytes()
    headings = Headings(index, heading_rows, index.heading_texts, levels)
    positions = np.searchsorted(np.frombuffer(lines.rows, dtype=np.int64), heading_rows)
    markers = tuple(
        PageMarker(marker.number, marker.status, row + 1)
        for marker, row in zip(index.markers, index.marker_rows, strict=True)
    )
    figures, faults = _figures(index)
    paragraphs = _paragraphs(lines)
    if figures:  # a figure's caption and words are not the document's prose
        starts = [f.line for f in figures]  # (in order, not overlapping)
        paragraphs = tuple(p for p in paragraphs if not _in_figure(figures, starts, p.line))
    return ScannedMarkdown(
        index.markdown,
        index,
        lines,
        markers,
        headings,
        rows_array(positions),
        _tables(index),
        paragraphs,
        figures,
        faults,
    )


def _in_figure(figures: Sequence[Figure], starts: Sequence[int], line: int) -> bool:
    """Whether 1-based `line` lies in one of `figures` (`starts`: their first lines)."""
    found = bisect.bisect_right(starts, line) - 1
    return found >= 0 and line <= figures[found].end_line


def _tables(index: MarkdownIndex) -> tuple[Table, ...]:
    """Each run of a header row, a delimiter row and body rows, with their cells."""

    def row(line: int) -> TableRow:
        return TableRow(line + 1, split_cells(index.line(line)))

    return tuple(
        Table(
            row(run.start()),
            row(run.start() + 1),
            tuple(map(row, range(run.start() + 2, run.end()))),
            index.page(run.start()),
        )
        for run in TABLE_RUN.finditer(index.kinds)
    )


def _figures(index: MarkdownIndex) -> tuple[tuple[Figure, ...], tuple[FigureFault, ...]]:
    """The figure blocks, from the comment lines that bound them and the headings that cut
    them (markdown_lines.pair_figures, as split pairs its blocks), and the comments that bound
    none."""
    if not FIGURE_BOUND_RE.search(index.markdown):
        return (), ()
    comments = np.flatnonzero(column(index.kinds) == LineKind.COMMENT).tolist()
    edges = [(row, figure_edge(index.line(row))) for row in comments]
    edges = [(row, edge) for row, edge in edges if edge != FIGURE_CUT]
    edges += [(row, FIGURE_CUT) for row in index.heading_rows]
    spans = pair_figures(sorted(edges))
    figures = []
    for first, last in spans.blocks:
        block = parse_figure(index.markdown[index.begins[first] : index.ends[last]])
        if block is not None:
            figures.append(Figure(first + 1, last + 1, index.page(first), block))
    faults = [FigureFault(row + 1, index.page(row), True) for row in spans.unclosed]
    faults += [FigureFault(row + 1, index.page(row), False) for row in spans.unopened]
    return tuple(figures), tuple(sorted(faults))


def _paragraphs(lines: LineView) -> tuple[Paragraph, ...]:
    """Each run of paragraph lines (comment lines inside leave a paragraph open), as positions
    in `lines`."""
    rows = np.frombuffer(lines.rows, dtype=np.int64)
    runs = [(run.start(), run.end()) for run in PARAGRAPH_RUN.finditer(lines.markdown_index.kinds)]
    if not runs:
        return ()
    starts = np.searchsorted(rows, [start for start, _ in runs])
    stops = np.searchsorted(rows, [end for _, end in runs])
    return tuple(
        Paragraph(lines, start, stop)
        for start, stop in zip(starts.tolist(), stops.tolist(), strict=True)
    )

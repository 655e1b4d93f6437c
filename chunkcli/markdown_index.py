"""Markdown -> MarkdownIndex: one record of every line of chunkcli's GFM, built once per document.

Lines end at \\n (a \\r before it is not part of the line): line k (0-based) is
`markdown[begins[k]:ends[k]]`, as markdown-it's StateBlock keeps bMarks/eMarks. A lone \\r ends
no line of the index (check has always numbered lines so); markdown_lines.line_offsets (with
`lone_cr_ends=True`) gives the offsets of lines as CommonMark numbers them, which split's
block parser reads (and without, the index's own, which numpy finds here).

Per line the index keeps, in columns of machine values (no object per line):
- `begins`, `ends`: offsets into the text (4 bytes each below 2**32 characters, else 8);
- `kinds`: a LineKind byte: what the line is in the document (paragraph, heading, list item,
  table row, code, blank, page marker, other comment, fence, delimiter row, setext line, rule);
- `levels`: a heading's level (1-6) on its first line, 0 elsewhere, one byte;
- `text_shifts`: where a paragraph line's text starts after its begin (indentation and quote
  marks), like markdown-it's tShift, one byte (255: there or later);
- `page_ordinals`: 1 + the position in `markers` of the nearest page marker at or above the
  line (0: none above), 4 bytes; `page(k)` is that marker's number.
and per heading its row and its text (read once: a setext heading's joins its lines), per page
marker its PageMarker and row.

Memory bound kept: 15 bytes a line (23 past 4 G characters), plus 16 bytes a heading and a
marker's record. Measured (tracemalloc, build_index at 2 MB, bench/fuzz/markdown_cases.py):
15.8 bytes a line on a million `|` lines (7.9 times the input) and on two million blank lines,
32 on 500,000 `# h` headings (8.0x); building peaks at 23 (the lines read as strings, 8 bytes
each when short) and 63 bytes a line on those cases. Content lines are read as LineRecords made
on demand, in batches by C loops: a record kept per line of 2 MB of `|` lines cost 56 times
the input.

The reading is check's line-based reader of the GFM `convert` writes: page markers, ATX and
setext headings, pipe tables, list items, block quotes (read as their text), paragraphs, fenced
code. It keeps each table row exactly as written (a full parser pads or cuts cells, hiding the
defect check looks for). Every step goes forward: the build is linear in the text.
"""

from __future__ import annotations

import bisect
import functools
import re
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from chunkcli.markdown_format import PageMarker, parse_page_marker, split_cells
from chunkcli.markdown_lines import SMALL_OFFSETS


class LineKind(IntEnum):
    """What a line is; the first five are content (their lines are records)."""

    PARAGRAPH = 1
    HEADING = 2  # an ATX heading, or a setext heading's first line
    LIST = 3  # a list item, or a line that continues one
    TABLE = 4  # a pipe table's header or body row
    CODE = 5  # a non-blank line inside fenced code
    BLANK = 6  # empty or only whitespace (also inside code)
    PAGE_MARKER = 7
    COMMENT = 8  # another one-line HTML comment (provenance, header-row count, notes)
    FENCE = 9  # a code fence's opening or closing line
    DELIMITER = 10  # a pipe table's delimiter row
    SETEXT = 11  # a setext heading's lines after its first, and its underline (the last)
    RULE = 12  # a thematic break (a setext underline with no paragraph above)


# The members as module names (an enum attribute lookup is a Python call: the reader's loops
# and the batch readers name them often).
(
    PARAGRAPH,
    HEADING,
    LIST,
    TABLE,
    CODE,
    BLANK,
    PAGE_MARKER,
    COMMENT,
    FENCE,
    DELIMITER,
    SETEXT,
    RULE,
) = LineKind
CONTENT_KINDS = frozenset({PARAGRAPH, HEADING, LIST, TABLE, CODE})
# KIND_OF_BYTE[kinds[k]] is line k's LineKind (item 0 stands for no kind: no line keeps 0)
KIND_OF_BYTE: tuple[LineKind, ...] = (BLANK, *LineKind)


class LineRecord(NamedTuple):
    """One content line as a reader reports it, made from the index on demand. (A NamedTuple:
    made by the C tuple constructor, a record per line of a million-line text is cheap.)"""

    number: int  # 1-based line in the Markdown
    page: int | None  # page of the nearest marker above; None before any marker
    text: str  # a heading's text; a paragraph line without indentation and quote marks
    kind: LineKind
    level: int = 0  # a heading's level, 1-6; 0 on every other line

    @property
    def line(self) -> int:
        return self.number


HTML_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
FENCE_OPENING = re.compile(r"^ {0,3}(`{3,}|~{3,})")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])(?:\s+|$)")
DELIMITER_CELL = re.compile(r"^\s*:?-+:?\s*$")
# A line whose first character is none of these, no space (str.isspace, as \\s and strip()
# read it) and no digit (\\d: any script's), that opens no table and holds no comment, opens no
# structure the reader knows: fences, headings, underlines, list bullets and numbers, quotes.
PLAIN_STARTS_EXCLUDED = frozenset("`~#=-*+><")


def is_plain_start(first: str) -> bool:
    """Whether a line starting with the character `first` can open nothing but a table or a
    comment (which the caller tests)."""
    return not (first in PLAIN_STARTS_EXCLUDED or first.isspace() or first.isdecimal())


def is_delimiter_row(line: str) -> bool:
    if "-" not in line or not (("|" in line) or DELIMITER_CELL.match(line)):
        return False
    return all(DELIMITER_CELL.match(cell) for cell in split_cells(line))


def is_table_start(line: str, next_line: str | None) -> bool:
    return (
        next_line is not None and "|" in line and "|" in next_line and is_delimiter_row(next_line)
    )


def paragraph_text(line: str) -> str:
    """A paragraph line's text: indentation and block-quote marks taken off (at once: a `>`
    and the spaces after it taken off one at a time was quadratic in a quote's depth)."""
    return line.lstrip(MARKUP_BEFORE_TEXT)


@dataclass(frozen=True, slots=True)
class MarkdownIndex:
    """Every line of one Markdown text: offsets, kind, heading level and page (columns)."""

    markdown: str
    begins: array[int]
    ends: array[int]
    kinds: bytes  # LineKind values
    levels: bytes
    text_shifts: bytes  # where a paragraph line's text starts after its begin (MAX_SHIFT: or later)
    page_ordinals: array[int]
    markers: tuple[PageMarker, ...]  # in order; a marker's line is marker_rows[k]
    marker_rows: array[int]
    # The headings' texts, read once by the reader (a setext heading's joins its lines; the
    # heading checks read each several times): heading_texts[k] is on line heading_rows[k].
    heading_rows: array[int]
    heading_texts: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.kinds)

    def line(self, row: int) -> str:
        """Line `row` (0-based) as written, without its line end."""
        return self.markdown[self.begins[row] : self.ends[row]]

    def page(self, row: int) -> int | None:
        """The number of the nearest page marker at or above line `row` (None: no marker)."""
        ordinal = self.page_ordinals[row]
        return self.markers[ordinal - 1].number if ordinal else None

    def page_numbers(self) -> tuple[int | None, ...]:
        """The page of each ordinal: page_numbers()[page_ordinals[row]] is page(row)."""
        return (None, *(marker.number for marker in self.markers))

    def text(self, row: int) -> str:
        """Line `row`'s text as a reader takes it: a heading's text (a setext heading's lines
        joined), a paragraph line without indentation and quote marks, else the line."""
        return self.text_of(row, self.kinds[row], self.line(row))

    def text_of(self, row: int, kind: int, line: str) -> str:
        if kind == HEADING:
            return self.heading_text(row)
        if kind == PARAGRAPH and self.text_shifts[row]:
            return paragraph_text(line)
        return line

    def heading_text(self, row: int) -> str:
        """The text of the heading on line `row`."""
        return self.heading_texts[bisect.bisect_left(self.heading_rows, row)]

    def record(self, row: int) -> LineRecord:
        kind = self.kinds[row]
        ordinal = self.page_ordinals[row]
        page = self.markers[ordinal - 1].number if ordinal else None
        text = self.text_of(row, kind, self.markdown[self.begins[row] : self.ends[row]])
        return _new(LineRecord, (row + 1, page, text, KIND_OF_BYTE[kind], self.levels[row]))

    def content_rows(self) -> array[int]:
        """The rows of content lines (CONTENT_KINDS), in order."""
        codes = np.frombuffer(self.kinds, dtype=np.uint8)
        found = np.flatnonzero(codes <= max(CONTENT_KINDS))  # (content kinds are 1-5, no 0)
        return rows_array(found)

    def records(self, rows: Sequence[int]) -> Iterator[LineRecord]:
        """The records of `rows`, made a batch at a time by C loops (a million records made
        one Python step each took longer than the rest of check)."""
        if len(rows) < FEW_ROWS:
            return map(self.record, map(int, rows))
        return self._batched_records(rows)

    def _batched_records(self, rows: Sequence[int]) -> Iterator[LineRecord]:
        page_numbers = self.page_numbers()
        make = functools.partial(tuple.__new__, LineRecord)
        for start in range(0, len(rows), RECORD_BATCH):
            batch = as_rows(rows[start : start + RECORD_BATCH])
            numbers = (batch + 1).tolist()
            ordinals = column(self.page_ordinals)[batch].tolist()
            pages = map(page_numbers.__getitem__, ordinals)
            kinds = map(KIND_OF_BYTE.__getitem__, column(self.kinds)[batch].tolist())
            levels = column(self.levels)[batch].tolist()
            texts = self._batch_texts(batch)
            yield from map(make, zip(numbers, pages, texts, kinds, levels, strict=True))

    def texts(self, rows: Sequence[int] | npt.NDArray[np.int64]) -> list[str]:
        """[self.text(row) for row in rows], sliced by C loops but for the headings (a batch
        at a time: a list of offsets is 40 bytes a line)."""
        if len(rows) < FEW_ROWS:  # (numpy's cost per call is more than the lines' here)
            return [self.text(row) for row in rows]
        texts: list[str] = []
        for start in range(0, len(rows), RECORD_BATCH):
            texts += self._batch_texts(as_rows(rows[start : start + RECORD_BATCH]))
        return texts

    def _batch_texts(self, picked: npt.NDArray[np.int64]) -> list[str]:
        kinds = column(self.kinds)[picked]
        shifts = np.where(kinds == PARAGRAPH, column(self.text_shifts)[picked], 0)
        texts = self._lines(picked)
        for position, shift in zip(*_nonzero(shifts), strict=True):
            if shift < MAX_SHIFT:
                texts[position] = texts[position][shift:]
            else:  # (more markup than a byte says)
                texts[position] = paragraph_text(texts[position])
        headings = np.flatnonzero(kinds == HEADING)
        found = np.searchsorted(column(self.heading_rows), picked[headings]).tolist()
        heading_texts = map(self.heading_texts.__getitem__, found)
        for position, text in zip(headings.tolist(), heading_texts, strict=True):
            texts[position] = text
        return texts

    def _lines(self, picked: npt.NDArray[np.int64]) -> list[str]:
        """The lines of `picked` (in order): the text they span split at once when they are
        most of its lines (a slice per line took twice as long), else a slice each."""
        first, last = int(picked[0]), int(picked[-1])
        if last - first + 1 > 2 * len(picked) or not bool(np.all(np.diff(picked) > 0)):
            starts = column(self.begins)[picked].tolist()
            ends = column(self.ends)[picked].tolist()
            return list(map(self.markdown.__getitem__, map(slice, starts, ends)))
        text = self.markdown[self.begins[first] : self.ends[last]]
        spanned = text.split("\n")
        if "\r" in text:  # a \\r before a \\n is no part of its line
            for line in np.flatnonzero(
                column(self.ends)[first:last] < column(self.begins)[first + 1 : last + 1] - 1
            ).tolist():
                spanned[line] = spanned[line][:-1]
        return list(map(spanned.__getitem__, (picked - first).tolist()))

    def bytes_per_line(self) -> float:
        """The columns' size over the number of lines (markers not counted)."""
        columns = (self.begins, self.ends, self.page_ordinals)
        size = sum(c.itemsize * len(c) for c in columns)
        size += len(self.kinds) + len(self.levels) + len(self.text_shifts)
        return size / max(1, len(self.kinds))


def _nonzero(values: npt.NDArray[np.integer[Any]]) -> tuple[list[int], list[int]]:
    """The positions of the values that are not 0, and those values."""
    found = np.flatnonzero(values)
    return found.tolist(), values[found].tolist()


def column(values: array[int] | bytes) -> npt.NDArray[np.integer[Any]]:
    """A column of the index read by numpy, without a copy."""
    if isinstance(values, bytes):
        return np.frombuffer(values, dtype=np.uint8)
    return np.frombuffer(values, dtype=COLUMN_TYPES[values.typecode])


def rows_array(found: npt.NDArray[np.integer[Any]]) -> array[int]:
    """Row numbers found by numpy as an array of machine integers (copied once)."""
    rows = array("q")
    rows.frombytes(raw_bytes(found.astype(np.int64, copy=False)))
    return rows


def raw_bytes(values: npt.NDArray[np.integer[Any]]) -> memoryview:
    """The values' memory as bytes, not copied (array.frombytes takes nothing else)."""
    return np.ascontiguousarray(values).data.cast("B")


def as_rows(rows: Sequence[int] | npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    if isinstance(rows, np.ndarray):
        return rows
    if isinstance(rows, array) and rows.typecode == "q":
        return np.frombuffer(rows, dtype=np.int64)
    return np.fromiter(rows, dtype=np.int64, count=len(rows))


COLUMN_TYPES = {"I": np.uint32, "q": np.int64, "B": np.uint8}
# Characters read at a time for the line offsets: a piece's copy and its code points take
# 8 bytes a character (text past U+FFFF).
OFFSETS_PIECE = 1 << 18
MAX_SHIFT = 255  # a text shift is one byte
FEW_ROWS = 64  # fewer rows than this are read one by one (61,280 paragraphs of a line: 3.5 s)
RECORD_BATCH = 65536  # records made a batch at a time: a batch's texts are all kept at once
_new = tuple.__new__  # a LineRecord without NamedTuple's Python __new__
# A paragraph line's markup before its text is a run of these: whitespace (all str.isspace
# reads, the last U+3000) and quote marks.
MARKUP_BEFORE_TEXT = "".join(chr(c) for c in range(0x3001) if chr(c).isspace()) + ">"
TEXT_AFTER_MARKUP = frozenset(MARKUP_BEFORE_TEXT)


def build_index(markdown: str, fast_lines: bool = True) -> MarkdownIndex:
    """Read `markdown` line by line into its index (`fast_lines`: lines that open nothing skip
    the structure tests; tests compare both ways)."""
    return _Reader(markdown, fast_lines).run()


def index_line_offsets(markdown: str) -> tuple[array[int], array[int]]:
    """markdown_lines.line_offsets(markdown) (lines end at \\n, a \\r before it left out),
    found by numpy a piece of the text at a time: check holds numpy anyway, and this takes
    0.015 s where markdown_lines' C loops (split's, which must not load numpy) take 0.15-0.27
    on a million lines. Tests compare the two."""
    typecode = "I" if len(markdown) < SMALL_OFFSETS else "q"
    dtype = COLUMN_TYPES[typecode]
    begins, ends = array(typecode, [0]), array(typecode)
    for start in range(0, len(markdown), OFFSETS_PIECE):
        breaks, line_ends = _line_ends(markdown, start, start + OFFSETS_PIECE)
        ends.frombytes(raw_bytes(line_ends.astype(dtype)))
        begins.frombytes(raw_bytes((breaks + 1).astype(dtype)))
    ends.append(len(markdown))
    return begins, ends


def _line_ends(
    markdown: str, start: int, stop: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The offsets of the \\n in markdown[start:stop], and of the ends of the lines they end
    (a \\r just before a \\n is no part of its line)."""
    piece = markdown[start:stop]
    if piece.isascii():
        codes: npt.NDArray[np.integer[Any]] = np.frombuffer(piece.encode("ascii"), np.uint8)
    else:
        codes = np.frombuffer(piece.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    found = np.flatnonzero(codes == ord("\n"))
    if "\r" not in markdown[max(0, start - 1) : stop]:
        return found + start, found + start
    after_return = np.zeros(len(codes), dtype=np.bool_)  # the character before is a \\r
    after_return[1:] = codes[:-1] == ord("\r")
    after_return[0] = markdown[start - 1 : start] == "\r"
    return found + start, found + start - after_return[found]


class _Reader:
    """One pass over the lines, setting each line's kind and level; the state lives only for
    the duration of `run`."""

    def __init__(self, markdown: str, fast_lines: bool) -> None:
        self.text = markdown
        self.fast_lines = fast_lines
        # Only \n (and \r\n) end lines: str.splitlines would also split on \x1c-\x1e, U+2028...
        self.raw = markdown.replace("\r\n", "\n").split("\n")
        self.kinds = bytearray(len(self.raw))  # 0 until read: every line gets a kind
        self.levels = bytearray(len(self.raw))
        self.text_shifts = bytearray(len(self.raw))
        self.markers: list[PageMarker] = []
        self.marker_rows: array[int] = array("q")
        self.heading_rows: array[int] = array("q")
        self.heading_texts: list[str] = []
        self.open_paragraph: int | None = None  # the open paragraph's first line
        self.in_list = False

    def run(self) -> MarkdownIndex:
        index, count = 0, len(self.raw)
        read = self.read_fast if self.fast_lines else self.step
        while index < count:
            index = read(index)
        del self.raw
        begins, ends = index_line_offsets(self.text)
        return MarkdownIndex(
            self.text,
            begins,
            ends,
            bytes(self.kinds),
            bytes(self.levels),
            bytes(self.text_shifts),
            self.page_ordinals(),
            tuple(self.markers),
            self.marker_rows,
            self.heading_rows,
            tuple(self.heading_texts),
        )

    def page_ordinals(self) -> array[int]:
        """Each line's 1 + position of the marker at or above it (0: none)."""
        ordinals = array("I", bytes(4 * len(self.kinds)))
        steps = np.frombuffer(ordinals, dtype=np.uint32)  # (the array's own memory)
        steps[np.frombuffer(self.marker_rows, dtype=np.int64)] = 1
        np.cumsum(steps, out=steps)
        return ordinals

    def read_fast(self, index: int) -> int:
        """`step` with only the tests a line's first character calls for, and the lines most
        documents are made of (plain lines, ATX headings, empty lines) read without the rest."""
        line = self.raw[index]
        first = line[:1]
        if not first:
            return self.skip_empty(index)
        if "|" in line and self.opens_table(index):
            return self.step(index)
        if first == "#":
            return self.read_heading_run(index)
        if is_plain_start(first) and "<!--" not in line:
            return self.read_plain_run(index)
        return self.step(index)

    def read_plain_run(self, index: int) -> int:
        """The run of lines from `index` that open nothing (no fence, heading, underline, list
        item, quote, table or comment can start there): they continue a list, or a paragraph.
        The caller has seen that the line at `index` is one of them."""
        raw, count, kinds = self.raw, len(self.raw), self.kinds
        in_list_item = self.in_list and self.open_paragraph is None
        kind = LIST if in_list_item else PARAGRAPH
        if not in_list_item and self.open_paragraph is None:
            self.open_paragraph = index
        excluded = PLAIN_STARTS_EXCLUDED
        start = index
        while index < count:  # (is_plain_start and opens_table written out: the hot loop)
            line = raw[index]
            first = line[:1]
            if not first or first in excluded or first.isspace() or first.isdecimal():
                break
            if "<!--" in line:
                break
            if "|" in line:
                following = raw[index + 1] if index + 1 < count else ""
                if "-" in following and is_table_start(line, following):
                    break
            index += 1
        kinds[start:index] = bytes((kind,)) * (index - start)
        return index

    def read_heading_run(self, index: int) -> int:
        """ATX headings from `index` on, and the empty lines between them, in one loop (a
        document of headings alone is a run of 500,000 in 2 MB)."""
        raw, count, match = self.raw, len(self.raw), ATX_HEADING.match
        kinds, levels = self.kinds, self.levels
        add_row, add_text = self.heading_rows.append, self.heading_texts.append
        start = index
        while index < count:
            line = raw[index]
            if not line:
                self.in_list = False  # (an empty line ends a list: skip_empty)
                kinds[index] = BLANK
                index += 1
                continue
            heading = match(line) if line[0] == "#" else None
            if heading is None or ("|" in line and self.opens_table(index)):
                break
            self.open_paragraph = None
            kinds[index] = HEADING
            levels[index] = len(heading.group(1))
            add_row(index)
            add_text((heading.group(2) or "").strip())
            raw[index] = ""  # (read: its text is kept; 2 MB of `# h` lines were 26 MB of str)
            index += 1
        return index if index > start else self.step(index)

    def opens_table(self, index: int) -> bool:
        next_line = self.raw[index + 1] if index + 1 < len(self.raw) else ""
        # (a delimiter row holds a dash: most lines with a pipe are ruled out here)
        return "-" in next_line and is_table_start(self.raw[index], next_line)

    def step(self, index: int) -> int:
        """Read the line at `index` (and any lines it owns); return the next index."""
        line = self.raw[index]
        if not line:
            return self.skip_empty(index)
        # The first character after any whitespace tells which structures can start here; with
        # fast_lines, only their tests run (each regex below needs its own start character).
        head = line.lstrip()
        start = head[:1] if self.fast_lines else ""
        fence = FENCE_OPENING.match(line) if not start or start in "`~" else None
        if fence:
            self.open_paragraph = None
            return self.read_fence(index, fence.group(1))
        if not head:
            self.open_paragraph, self.in_list = None, False
            self.kinds[index] = BLANK
            return index + 1
        marker = parse_page_marker(line) if "<!--" in line else None
        if marker:
            self.open_paragraph = None
            self.kinds[index] = PAGE_MARKER
            self.markers.append(marker)
            self.marker_rows.append(index)
            return index + 1
        if (not start or start == "<") and HTML_COMMENT.match(line):
            self.kinds[index] = COMMENT  # (a comment leaves a paragraph open)
            return index + 1
        next_line = self.raw[index + 1] if index + 1 < len(self.raw) else None
        if is_table_start(line, next_line):
            self.open_paragraph = None
            return self.read_table(index)
        return self.read_single(index, line, head, start)

    def skip_empty(self, index: int) -> int:
        """Empty lines (a run of them at once): they close a paragraph and a list."""
        self.open_paragraph, self.in_list = None, False
        raw, kinds = self.raw, self.kinds
        kinds[index] = BLANK
        index += 1
        while index < len(raw) and not raw[index]:
            kinds[index] = BLANK
            index += 1
        return index

    def read_single(self, index: int, line: str, head: str, start: str) -> int:
        """A heading, setext underline, list item, quote or paragraph line; `start` is the
        first non-space character (empty: run every test)."""
        kinds = self.kinds
        heading = ATX_HEADING.match(line) if not start or start == "#" else None
        if heading:
            self.open_paragraph = None
            kinds[index], self.levels[index] = HEADING, len(heading.group(1))
            self.heading_rows.append(index)
            self.heading_texts.append((heading.group(2) or "").strip())
            return index + 1
        underline = SETEXT_UNDERLINE.match(line) if not start or start in "=-" else None
        if underline and self.open_paragraph is not None:
            self.read_setext(self.open_paragraph, index, underline.group(1))
            self.open_paragraph = None
            return index + 1
        if underline:  # a thematic break
            kinds[index] = RULE
            return index + 1
        bullet = not start or start in "-*+" or start.isdecimal()
        in_list_item = self.in_list and self.open_paragraph is None
        if (bullet and LIST_ITEM.match(line)) or in_list_item:
            self.open_paragraph, self.in_list = None, True
            kinds[index] = LIST
            return index + 1
        if self.open_paragraph is None:
            self.open_paragraph = index
        kinds[index] = PARAGRAPH
        if line[:1] in TEXT_AFTER_MARKUP:  # (indentation or quote marks before its text)
            shift = len(line) - len(paragraph_text(head))
            self.text_shifts[index] = min(shift, MAX_SHIFT)
        return index + 1

    def read_setext(self, first: int, underline: int, marks: str) -> None:
        """The open paragraph's lines [first, underline) and the underline are a heading."""
        kinds, raw = self.kinds, self.raw
        lines = [row for row in range(first, underline) if kinds[row] == PARAGRAPH]
        text = " ".join(paragraph_text(raw[row]).strip() for row in lines)
        self.heading_rows.append(first)
        self.heading_texts.append(text.strip())
        for row in lines:  # (comments in the paragraph stay comments)
            kinds[row] = SETEXT
        kinds[first], kinds[underline] = HEADING, SETEXT
        self.levels[first] = 1 if marks.startswith("=") else 2

    def read_fence(self, index: int, opening: str) -> int:
        kinds, raw = self.kinds, self.raw
        kinds[index] = FENCE
        end = index + 1
        while end < len(raw):
            closing = FENCE_OPENING.match(raw[end])
            if (
                closing
                and closing.group(1)[0] == opening[0]
                and len(closing.group(1)) >= len(opening)
            ):
                kinds[end] = FENCE
                break
            kinds[end] = CODE if raw[end].strip() else BLANK
            end += 1
        return end + 1

    def read_table(self, index: int) -> int:
        raw, kinds = self.raw, self.kinds
        kinds[index], kinds[index + 1] = TABLE, DELIMITER
        end = index + 2
        while end < len(raw) and raw[end].strip() and "|" in raw[end]:
            if parse_page_marker(raw[end]):
                break
            kinds[end] = TABLE
            end += 1
        return end

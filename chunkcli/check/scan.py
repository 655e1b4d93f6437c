"""Markdown text -> ScannedMarkdown: the structure every check reads, with line and page numbers.

A line-based reader of the GFM that `convert` (and other converters) write: page markers, ATX and
setext headings, pipe tables, list items, paragraphs, fenced code. It keeps each table row's
cells exactly as written (a full Markdown parser would pad or cut them, hiding the defect we look
for) and each line's 1-based number and page.
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass
from typing import NamedTuple

from chunkcli.check.lines import Heading, LineColumns, LineKind, LineTable, Paragraph, TextLine
from chunkcli.markdown_format import parse_page_marker, split_cells
from chunkcli.model import PageStatus

# (Line records and their columns: chunkcli/check/lines.py; the checks import them from here.)
__all__ = [
    "Heading",
    "LineKind",
    "LineTable",
    "PageMarker",
    "Paragraph",
    "ScannedMarkdown",
    "Table",
    "TableRow",
    "TextLine",
    "scan_markdown",
]

HTML_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])(?:\s+|$)")
DELIMITER_CELL = re.compile(r"^\s*:?-+:?\s*$")
# A line whose first character is none of these, no space (str.isspace, as \\s and strip()
# read it) and no digit (\\d: any script's), that opens no table and holds no comment, opens no
# structure the scanner reads: fences, headings, underlines, list bullets and numbers, quotes.
PLAIN_STARTS_EXCLUDED = frozenset("`~#=-*+><")


def is_plain_start(first: str) -> bool:
    """Whether a line starting with the character `first` can open nothing but a table or a
    comment (which the caller tests)."""
    return not (first in PLAIN_STARTS_EXCLUDED or first.isspace() or first.isdecimal())


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
class ScannedMarkdown:
    text: str  # the Markdown as given
    lines: LineTable  # every non-blank content line (markers and comments excluded)
    markers: tuple[PageMarker, ...]
    headings: LineTable  # the HEADING lines of `lines`
    heading_rows: array[int]  # headings[k] is lines[heading_rows[k]]
    tables: tuple[Table, ...]
    paragraphs: tuple[Paragraph, ...]

    @property
    def page_count(self) -> int:
        return len({marker.number for marker in self.markers})

    @property
    def text_page_count(self) -> int:
        """Pages marked as having a text layer (a page whose text moved up with a table that
        continues onto it counts, though its own marker is followed by nothing)."""
        return len({m.number for m in self.markers if m.status == PageStatus.TEXT})


def is_delimiter_row(line: str) -> bool:
    if "-" not in line or not (("|" in line) or DELIMITER_CELL.match(line)):
        return False
    return all(DELIMITER_CELL.match(cell) for cell in split_cells(line))


def is_table_start(line: str, next_line: str | None) -> bool:
    return (
        next_line is not None and "|" in line and "|" in next_line and is_delimiter_row(next_line)
    )


def scan_markdown(markdown: str, fast_lines: bool = True) -> ScannedMarkdown:
    """Read Markdown into lines, page markers, headings, tables and paragraphs (`fast_lines`:
    lines that open nothing skip the structure tests; tests compare both ways)."""
    return _Scanner(markdown, fast_lines).run()


class _Scanner:
    """One pass over the lines; the state lives only for the duration of `run`. The pass
    only goes forward: a line read is never looked at again, so a heading's raw line is let
    go of once read (read_heading_run)."""

    def __init__(self, markdown: str, fast_lines: bool) -> None:
        self.text = markdown
        self.fast_lines = fast_lines
        # Only \n (and \r\n) end lines: str.splitlines would also split on \x1c-\x1e, U+2028...
        self.raw = markdown.replace("\r\n", "\n").split("\n")
        self.page: int | None = None
        self.lines = LineColumns()
        self.markers: list[PageMarker] = []
        self.heading_rows: array[int] = array("q")  # the rows of self.lines that are headings
        self.tables: list[Table] = []
        self.paragraph_rows: list[tuple[int, int]] = []  # [start, stop) in self.lines
        self.open_paragraph: int | None = None  # the open paragraph's first row in self.lines
        self.in_list = False

    def run(self) -> ScannedMarkdown:
        index, count = 0, len(self.raw)
        read = self.read_fast if self.fast_lines else self.step
        while index < count:
            index = read(index)
        self.close_paragraph()
        del self.raw  # (the lines' strings that no row holds are freed before the tuples exist)
        lines = self.lines.table()
        paragraphs = tuple(Paragraph(lines, start, stop) for start, stop in self.paragraph_rows)
        return ScannedMarkdown(
            self.text,
            lines,
            tuple(self.markers),
            lines.take(self.heading_rows),
            self.heading_rows,
            tuple(self.tables),
            paragraphs,
        )

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
        Read in one loop, the columns appended directly (2 MB of `|` lines are a million of
        them). The caller has seen that the line at `index` is one of them."""
        raw, count, page = self.raw, len(self.raw), self.page
        in_list_item = self.in_list and self.open_paragraph is None
        kind = LineKind.LIST if in_list_item else LineKind.PARAGRAPH
        if not in_list_item and self.open_paragraph is None:
            self.open_paragraph = len(self.lines)
        add_number, add_page, add_text, add_kind, add_level = self.lines.appenders()
        excluded = PLAIN_STARTS_EXCLUDED
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
            add_number(index + 1)
            add_page(page)
            add_text(line)
            add_kind(kind)
            add_level(0)
            index += 1
        return index

    def read_heading_run(self, index: int) -> int:
        """ATX headings from `index` on, and the empty lines between them, in one loop (a
        document of headings alone is a run of 500,000 in 2 MB)."""
        raw, count, match, page = self.raw, len(self.raw), ATX_HEADING.match, self.page
        # (add_heading written out with the appends bound once: the hot loop)
        add_number, add_page, add_text, add_kind, add_level = self.lines.appenders()
        add_row = self.heading_rows.append
        start = index
        while index < count:
            line = raw[index]
            if not line:
                self.in_list = False  # (an empty line ends a list: skip_empty)
                index += 1
                continue
            heading = match(line) if line[0] == "#" else None
            if heading is None or ("|" in line and self.opens_table(index)):
                break
            if self.open_paragraph is not None:
                self.close_paragraph()
            level, text = len(heading.group(1)), (heading.group(2) or "").strip()
            add_row(len(self.lines))
            add_number(index + 1)
            add_page(page)
            add_text(text)
            add_kind(LineKind.HEADING)
            add_level(level)
            raw[index] = ""  # (read: its text is kept; 2 MB of `# h` lines were 26 MB of str)
            index += 1
        return index if index > start else self.step(index)

    def opens_table(self, index: int) -> bool:
        next_line = self.raw[index + 1] if index + 1 < len(self.raw) else ""
        # (a delimiter row holds a dash: most lines with a pipe are ruled out here)
        return "-" in next_line and is_table_start(self.raw[index], next_line)

    def step(self, index: int) -> int:
        """Consume the line at `index` (and any lines it owns); return the next index."""
        line = self.raw[index]
        if not line:
            return self.skip_empty(index)
        # The first character after any whitespace tells which structures can start here; with
        # fast_lines, only their tests run (each regex below needs its own start character).
        head = line.lstrip()
        start = head[:1] if self.fast_lines else ""
        fence = FENCE.match(line) if not start or start in "`~" else None
        if fence:
            self.close_paragraph()
            return self.read_fence(index, fence.group(1))
        if not head:
            self.close_paragraph()
            self.in_list = False
            return index + 1
        marker = parse_page_marker(line) if "<!--" in line else None
        if marker:
            self.close_paragraph()
            self.page = marker.number
            self.markers.append(PageMarker(marker.number, marker.status, index + 1))
            return index + 1
        if (not start or start == "<") and HTML_COMMENT.match(line):
            return index + 1
        next_line = self.raw[index + 1] if index + 1 < len(self.raw) else None
        if is_table_start(line, next_line):
            self.close_paragraph()
            return self.read_table(index)
        return self.read_single(index, line, head, start)

    def skip_empty(self, index: int) -> int:
        """Empty lines (a run of them at once): they close a paragraph and a list."""
        self.close_paragraph()
        self.in_list = False
        index += 1
        while index < len(self.raw) and not self.raw[index]:
            index += 1
        return index

    def read_single(self, index: int, line: str, head: str, start: str) -> int:
        """A heading, setext underline, list item, quote or paragraph line; `start` is the
        first non-space character (empty: run every test)."""
        heading = ATX_HEADING.match(line) if not start or start == "#" else None
        if heading:
            self.close_paragraph()
            self.add_heading(len(heading.group(1)), heading.group(2) or "", index + 1)
            return index + 1
        underline = SETEXT_UNDERLINE.match(line) if not start or start in "=-" else None
        if underline and self.open_paragraph is not None:
            level = 1 if underline.group(1).startswith("=") else 2
            first_row = self.open_paragraph
            first = self.lines.numbers[first_row]
            text = " ".join(item.strip() for item in self.lines.texts[first_row:])
            # The paragraph's lines are the last ones added: drop them from the end (a
            # list.remove per line scanned all lines: quadratic on many setext headings).
            self.lines.truncate(first_row)
            self.open_paragraph = None
            self.add_heading(level, text, first)
            return index + 1
        if underline:  # a thematic break
            return index + 1
        bullet = not start or start in "-*+" or start.isdecimal()
        in_list_item = self.in_list and self.open_paragraph is None
        if (bullet and LIST_ITEM.match(line)) or in_list_item:
            self.close_paragraph()
            self.in_list = True
            self.add_line(index, line, LineKind.LIST)
            return index + 1
        text = head
        while text.startswith(">"):  # block quotes read as their text
            text = text[1:].lstrip()
        if self.open_paragraph is None:
            self.open_paragraph = len(self.lines)
        self.add_line(index, text, LineKind.PARAGRAPH)
        return index + 1

    def add_line(self, index: int, text: str, kind: LineKind) -> None:
        self.lines.add(index + 1, self.page, text, kind, 0)

    def add_heading(self, level: int, text: str, line: int) -> None:
        text = text.strip()
        self.heading_rows.append(len(self.lines))
        self.lines.add(line, self.page, text, LineKind.HEADING, level)

    def close_paragraph(self) -> None:
        if self.open_paragraph is not None:
            self.paragraph_rows.append((self.open_paragraph, len(self.lines)))
            self.open_paragraph = None

    def read_fence(self, index: int, opening: str) -> int:
        end = index + 1
        while end < len(self.raw):
            closing = FENCE.match(self.raw[end])
            if (
                closing
                and closing.group(1)[0] == opening[0]
                and len(closing.group(1)) >= len(opening)
            ):
                break
            if self.raw[end].strip():
                self.add_line(end, self.raw[end], LineKind.CODE)
            end += 1
        return end + 1

    def read_table(self, index: int) -> int:
        header = TableRow(index + 1, split_cells(self.raw[index]))
        delimiter = TableRow(index + 2, split_cells(self.raw[index + 1]))
        self.add_line(index, self.raw[index], LineKind.TABLE)
        end = index + 2
        rows: list[TableRow] = []
        while end < len(self.raw) and self.raw[end].strip() and "|" in self.raw[end]:
            if parse_page_marker(self.raw[end]):
                break
            rows.append(TableRow(end + 1, split_cells(self.raw[end])))
            self.add_line(end, self.raw[end], LineKind.TABLE)
            end += 1
        self.tables.append(Table(header, delimiter, tuple(rows), self.page))
        return end

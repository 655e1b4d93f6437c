"""The scanned Markdown's content lines as columns, and the records made of them on demand.

A record per line cost 112 bytes (a NamedTuple and its line number's int): 56 times the input on
2 MB of `|` lines, a million of them (2026-12-02). Columns cost about 33 bytes a line: the line
numbers in an array, one tuple each of pages, texts and kinds (their items are shared objects:
one int per page, the line's own string, one of five enum members) and the heading levels as bytes.
Checks read the columns (`zip(lines.kinds, lines.texts)`); a TextLine record is made when a check
asks for one line, or iterates the table (records one at a time, none kept).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple, overload


class LineKind(StrEnum):
    PARAGRAPH = "paragraph"
    HEADING = "heading"
    LIST = "list"
    TABLE = "table"
    CODE = "code"


class TextLine(NamedTuple):
    """One content line, as a check reports it."""

    number: int  # 1-based line in the Markdown
    page: int | None  # page of the nearest marker above; None before any marker
    text: str
    kind: LineKind
    level: int = 0  # a heading's level, 1-6; 0 on every other line

    @property
    def line(self) -> int:
        return self.number


# A heading is its own line in `lines` (kind HEADING, level 1-6): one record where there were two.
Heading = TextLine


@dataclass(frozen=True, slots=True)
class LineTable(Sequence[TextLine]):
    """Lines in Markdown order, a column per field; row k is the line `self[k]`."""

    numbers: array[int]  # never changed once the table is made
    pages: tuple[int | None, ...]
    texts: tuple[str, ...]
    kinds: tuple[LineKind, ...]
    levels: bytes

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, index: int) -> TextLine: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[TextLine, ...]: ...

    def __getitem__(self, index: int | slice) -> TextLine | tuple[TextLine, ...]:
        if isinstance(index, slice):
            return tuple(self[row] for row in range(*index.indices(len(self))))
        return TextLine(
            self.numbers[index],
            self.pages[index],
            self.texts[index],
            self.kinds[index],
            self.levels[index],
        )

    def __iter__(self) -> Iterator[TextLine]:
        columns = (self.numbers, self.pages, self.texts, self.kinds, self.levels)
        return map(TextLine._make, zip(*columns, strict=True))

    def take(self, rows: Sequence[int]) -> LineTable:
        """The table of `rows` (each column picked without a Python step per row)."""
        return LineTable(
            array("q", map(self.numbers.__getitem__, rows)),
            tuple(map(self.pages.__getitem__, rows)),
            tuple(map(self.texts.__getitem__, rows)),
            tuple(map(self.kinds.__getitem__, rows)),
            bytes(map(self.levels.__getitem__, rows)),
        )


class LineColumns:
    """A LineTable's columns while the scanner fills them."""

    def __init__(self) -> None:
        self.numbers: array[int] = array("q")
        self.pages: list[int | None] = []
        self.texts: list[str] = []
        self.kinds: list[LineKind] = []
        self.levels = bytearray()

    def __len__(self) -> int:
        return len(self.texts)

    def add(self, number: int, page: int | None, text: str, kind: LineKind, level: int) -> None:
        self.numbers.append(number)
        self.pages.append(page)
        self.texts.append(text)
        self.kinds.append(kind)
        self.levels.append(level)

    def appenders(self) -> tuple[Callable[[Any], None], ...]:
        """The columns' bound appends, in field order: for loops that add many rows."""
        return (
            self.numbers.append,
            self.pages.append,
            self.texts.append,
            self.kinds.append,
            self.levels.append,
        )

    def truncate(self, length: int) -> None:
        """Drop the rows from `length` on."""
        del self.numbers[length:], self.pages[length:], self.texts[length:]
        del self.kinds[length:], self.levels[length:]

    def table(self) -> LineTable:
        """The columns as a table; the builder is empty after (each list is let go of as soon
        as its tuple exists: lists and tuples at once were the scan's peak)."""
        pages, self.pages = tuple(self.pages), []
        texts, self.texts = tuple(self.texts), []
        kinds, self.kinds = tuple(self.kinds), []
        levels, self.levels = bytes(self.levels), bytearray()
        numbers, self.numbers = self.numbers, array("q")
        return LineTable(numbers, pages, texts, kinds, levels)


@dataclass(frozen=True, slots=True)
class Paragraph:
    """Consecutive PARAGRAPH lines, at least one: rows [start, stop) of the scan's lines."""

    scan_lines: LineTable = field(repr=False)  # all of the scan's lines
    start: int
    stop: int

    @property
    def line(self) -> int:
        return self.scan_lines.numbers[self.start]

    @property
    def last_line(self) -> int:
        return self.scan_lines.numbers[self.stop - 1]

    @property
    def page(self) -> int | None:
        return self.scan_lines.pages[self.start]

    @property
    def texts(self) -> tuple[str, ...]:
        return self.scan_lines.texts[self.start : self.stop]

    @property
    def text(self) -> str:
        return " ".join(text.strip() for text in self.texts)

    @property
    def lines(self) -> tuple[TextLine, ...]:
        return self.scan_lines[self.start : self.stop]

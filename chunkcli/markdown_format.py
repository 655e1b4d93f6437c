"""The Markdown that the stages exchange: what `convert` writes and `split`/`check` read back.

Everything chunkcli adds to plain GFM is an HTML comment on a line of its own, so any Markdown
viewer shows the document unchanged:

- provenance, the first line of a converted document:
  `<!-- chunkcli source="report.pdf" sha256="3b1f…" -->` (the PDF's name and the sha256 of its
  bytes, so that `split` of the Markdown names the PDF and gives the same `doc_id`);
- a page marker before each page's content: `<!-- page 3 -->`, `<!-- page 4: blank -->`,
  `<!-- page 5: no text layer (image only) -->`,
  `<!-- page 6: unusable text layer (treated as image only) -->`,
  `<!-- page 7: ocr conf=0.91 engine=tesseract -->`, `<!-- page 8: damaged … -->`;
- a header-row count before a pipe table whose header is more than GFM's one row (a row of
  group titles over sub-columns): `<!-- table: 2 header rows -->`; the first body row is then
  header too, and `split` repeats both rows on every part of the table;
- a figure block around a figure's caption, image link and words:
  `<!-- figure -->` … `<!-- figure words: ocr conf=0.82 engine=tesseract -->` … `<!-- /figure -->`
  (see `format_figure`);
- a trailer after the last page, one line a page, saying where on the PDF page each line of
  the page's Markdown lies: `<!-- boxes page=3 crc=1a2b3c4d 0,57,72,80,300,92 … -->`
  (`split` gives every chunk the boxes of the lines it covers).

This module is the only place that knows these spellings; readers are lenient (case, spaces,
notes written by other tools) so that Markdown edited by hand still reads.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

from chunkcli.model import PageStatus

# --- page markers ---------------------------------------------------------------------------

# Any page marker, as split's block finder sees one line: <!-- page 3 -->, <!-- page 4: … -->.
# A page number has at most 9 digits: a "marker" with more is a comment like any other (a
# 5,000-digit number exceeded int()'s limit; one above 2^63 overflowed the sync manifest).
PAGE_MARKER_RE = re.compile(r"<!--\s*page\s+(\d{1,9})\b[^>]*-->", re.IGNORECASE)
# The same with its note (after a colon) captured, for readers that need the page's status.
_PAGE_MARKER_NOTE_RE = re.compile(r"<!--\s*page\s+(\d{1,9})\s*(?::\s*(.*?))?\s*-->", re.IGNORECASE)
_OCR_CONFIDENCE_RE = re.compile(r"\bconf(?:idence)?\s*=\s*([0-9]*\.?[0-9]+)")
_OCR_ENGINE_RE = re.compile(r"\bengine\s*=\s*([\w.+-]+)")

_STATUS_NOTES = {
    PageStatus.TEXT: "",
    PageStatus.BLANK: "blank",
    PageStatus.IMAGE_ONLY: "no text layer (image only)",
    PageStatus.GARBAGE: "unusable text layer (treated as image only)",
    PageStatus.DAMAGED: "damaged (MuPDF could not read all of it)",
}


@dataclass(frozen=True, slots=True)
class PageMarker:
    """One page's marker: its 1-based number, what the page held, and OCR details if any."""

    number: int
    status: PageStatus = PageStatus.TEXT
    ocr_confidence: float | None = None  # 0..1, the page's mean word confidence
    ocr_engine: str | None = None
    hidden_runs: int = 0  # runs of hidden text convert removed from the page
    ocr_skipped: str = ""  # why OCR did not read a page that needed it ("time limit")


# A page marker with the blank lines after it, as it sits inside a chunk's text.
_PAGE_MARKER_AND_SPACE_RE = re.compile(r"<!--\s*page\s+\d{1,9}\b[^>]*-->[ \t]*(?:\r?\n[ \t]*)*")


def without_page_markers(text: str) -> str:
    """`text` with its page markers (and the blank lines after each) taken out: what a chunk's
    id hashes, so that renumbered pages (a page deleted before it) or a page break that moved
    inside it leave its id as it was."""
    if "<!--" not in text:
        return text
    return _PAGE_MARKER_AND_SPACE_RE.sub("", text)


def format_page_marker(marker: PageMarker) -> str:
    """The marker line (no newline) for `marker`."""
    if marker.status is PageStatus.OCR:
        details = []
        if marker.ocr_confidence is not None:
            details.append(f"conf={marker.ocr_confidence:.2f}")
        if marker.ocr_engine:
            details.append(f"engine={marker.ocr_engine}")
        return f"<!-- page {marker.number}: {' '.join(['ocr', *details])} -->"
    notes = [_STATUS_NOTES[marker.status]] if _STATUS_NOTES[marker.status] else []
    if marker.ocr_skipped:  # the page's own status says no more than that it has no text
        notes = [f"ocr skipped: {marker.ocr_skipped}"]
    if marker.hidden_runs:
        notes.append(f"hidden text removed ({marker.hidden_runs})")
    return (
        f"<!-- page {marker.number}: {'; '.join(notes)} -->"
        if notes
        else (f"<!-- page {marker.number} -->")
    )


# convert's note on a page that needed OCR and did not get it: "ocr skipped: time limit".
_OCR_SKIPPED_RE = re.compile(r"ocr skipped:\s*(.*)")
# convert's note on a page whose hidden text it removed: "hidden text removed (3)".
_HIDDEN_RUNS_RE = re.compile(r"hidden text removed \((\d+)\)")


def parse_page_marker(line: str) -> PageMarker | None:
    """The marker on `line` (surrounding spaces allowed), or None when it is not one."""
    match = _PAGE_MARKER_NOTE_RE.fullmatch(line.strip())
    if match is None:
        return None
    number = int(match.group(1))
    note = (match.group(2) or "").lower()
    status = _status_of(note)
    hidden = _HIDDEN_RUNS_RE.search(note)
    hidden_runs = int(hidden.group(1)) if hidden else 0
    skipped = _OCR_SKIPPED_RE.match(note)
    if skipped:
        reason = skipped.group(1).split(";")[0].strip()
        return PageMarker(
            number, PageStatus.IMAGE_ONLY, hidden_runs=hidden_runs, ocr_skipped=reason
        )
    if status is not PageStatus.OCR:
        return PageMarker(number, status, hidden_runs=hidden_runs)
    confidence = _OCR_CONFIDENCE_RE.search(note)
    engine = _OCR_ENGINE_RE.search(note)
    return PageMarker(
        number,
        status,
        float(confidence.group(1)) if confidence else None,
        engine.group(1) if engine else None,
    )


def ocr_confidences(markdown: str) -> dict[int, float]:
    """Page number -> OCR confidence for every OCR page marker that gives one."""
    found = {}
    for match in PAGE_MARKER_RE.finditer(markdown):
        if "ocr" not in match.group(0).lower():
            continue  # (no OCR note: not parsed; 61,000 markers took 0.23 s parsed each)
        marker = parse_page_marker(match.group(0))
        if marker is not None and marker.ocr_confidence is not None:
            found[marker.number] = marker.ocr_confidence
    return found


def ocr_skipped_pages(markdown: str) -> dict[int, str]:
    """Page number -> why OCR left it unread, for every marker that says so."""
    found = {}
    for match in PAGE_MARKER_RE.finditer(markdown):
        if "skipped" not in match.group(0).lower():
            continue
        marker = parse_page_marker(match.group(0))
        if marker is not None and marker.ocr_skipped:
            found[marker.number] = marker.ocr_skipped
    return found


def hidden_text_runs(markdown: str) -> dict[int, int]:
    """Page number -> runs of hidden text convert removed, for every marker that says so."""
    found = {}
    for match in PAGE_MARKER_RE.finditer(markdown):
        if "hidden" not in match.group(0).lower():
            continue  # (as for OCR confidences: only the markers with the note are parsed)
        marker = parse_page_marker(match.group(0))
        if marker is not None and marker.hidden_runs:
            found[marker.number] = marker.hidden_runs
    return found


def _status_of(note: str) -> PageStatus:
    """The status a marker's note announces; other tools' wording is read too."""
    if note.startswith("ocr skipped"):
        return PageStatus.IMAGE_ONLY  # no text: OCR did not read it
    if note.startswith("ocr"):
        return PageStatus.OCR
    if "damaged" in note:
        return PageStatus.DAMAGED
    if "unusable" in note or "garbage" in note:
        return PageStatus.GARBAGE
    if "no text layer" in note or "image only" in note or "image_only" in note:
        return PageStatus.IMAGE_ONLY
    if "blank" in note:
        return PageStatus.BLANK
    return PageStatus.TEXT


# --- provenance -----------------------------------------------------------------------------

_SOURCE_RE = re.compile(
    r'<!--\s*chunkcli\s+source="((?:[^"\\]|\\.)*)"\s+sha256="([0-9a-f]{64})"\s*-->'
)


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a converted document came from: the PDF's name as given, and its bytes' sha256."""

    source: str
    sha256: str


def format_provenance(provenance: Provenance) -> str:
    """The provenance comment line (no newline)."""
    name = provenance.source.replace("\\", "\\\\").replace('"', '\\"').replace("--", "-\\-")
    name = " ".join(name.split())  # a newline in a file name must not end the comment early
    return f'<!-- chunkcli source="{name}" sha256="{provenance.sha256}" -->'


def parse_provenance(markdown: str) -> Provenance | None:
    """The provenance comment on the document's first line, if it has one."""
    first_line = markdown[: markdown.find("\n")] if "\n" in markdown else markdown
    match = _SOURCE_RE.fullmatch(first_line.strip())
    if match is None:
        return None
    name = re.sub(r"\\(.)", r"\1", match.group(1))
    return Provenance(name, match.group(2))


# --- tables ---------------------------------------------------------------------------------

_HEADER_ROWS_RE = re.compile(r"<!--\s*table:\s*(\d+)\s+header\s+rows?\s*-->", re.IGNORECASE)


def format_table(rows: tuple[tuple[str, ...], ...], header_rows: int = 1) -> str:
    """A GFM pipe table (rows padded to the widest); a header of more than one row is announced
    by a header-row comment on the line before, separated by a blank line."""
    if not rows:
        return ""
    width = max(len(row) for row in rows)
    lines = [_table_row(rows[0], width), "| " + " | ".join(["---"] * width) + " |"]
    lines.extend(_table_row(row, width) for row in rows[1:])
    table = "\n".join(lines)
    header_rows = min(header_rows, len(rows))
    if header_rows > 1:
        return f"<!-- table: {header_rows} header rows -->\n\n{table}"
    return table


def parse_header_rows(line: str) -> int | None:
    """The header-row count a table comment announces, or None when `line` is not one."""
    match = _HEADER_ROWS_RE.fullmatch(line.strip())
    return int(match.group(1)) if match else None


def _table_row(row: tuple[str, ...], width: int) -> str:
    cells = [escape_cell(c) for c in row] + [""] * (width - len(row))
    return "| " + " | ".join(cells) + " |"


def escape_cell(text: str) -> str:
    """A cell's text on one line with its pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def split_cells(row: str) -> tuple[str, ...]:
    """The cells of a pipe-table row: split on unescaped pipes, outer pipes optional."""
    text = row.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    return tuple(cell.strip() for cell in _UNESCAPED_PIPE.split(text))


_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")

# --- figures -------------------------------------------------------------------------------

# A figure is written as one block between two comment lines, its parts separated by blank
# lines, so that a viewer shows the caption, the picture (with --images) and the words, and
# `split` keeps the whole block in one chunk:
#
#   <!-- figure -->
#
#   Figure 3. Sales by region
#
#   ![Figure 3. Sales by region](images/report-p3-1.png)
#
#   <!-- figure words: ocr conf=0.82 engine=tesseract -->
#
#   North South 2019 2020 120 80
#
#   <!-- /figure -->
#
# Everything between the start and the words comment (or the end, when the figure has no
# words) that is not the image link is the caption. The words comment says where the words
# came from: `ocr …` (read from the figure's pixels) or `text layer` (a vector figure's labels).
FIGURE_START_RE = re.compile(r"<!--\s*figure\s*-->", re.IGNORECASE)
FIGURE_END_RE = re.compile(r"<!--\s*/\s*figure\s*-->", re.IGNORECASE)
FIGURE_WORDS_RE = re.compile(r"<!--\s*figure\s+words\s*(?::\s*(.*?))?\s*-->", re.IGNORECASE)
IMAGE_LINK_RE = re.compile(r"!\[((?:[^\]\\]|\\.)*)\]\(([^()\s]+)\)")
FIGURE_WORDS_FROM_TEXT = "text layer"


@dataclass(frozen=True, slots=True)
class FigureBlock:
    """One figure as the Markdown carries it."""

    caption: str = ""  # the caption's text ("Figure 3. Sales by region"), "" without one
    image: str = ""  # the image link's target as written, "" without --images
    words: str = ""  # the figure's own words, "" when it has none
    ocr_confidence: float | None = None  # set when the words were read by OCR
    ocr_engine: str | None = None

    @property
    def words_from_ocr(self) -> bool:
        return self.ocr_engine is not None or self.ocr_confidence is not None


def format_figure(figure: FigureBlock) -> str:
    """The figure's block (no trailing newline): start comment, caption, image link, words
    comment and words, end comment, each part a block of its own."""
    parts = ["<!-- figure -->"]
    if figure.caption:
        parts.append(escape_leading_syntax(" ".join(figure.caption.split())))
    if figure.image:
        parts.append(f"![{_escape_alt(figure.caption)}]({figure.image})")
    if figure.words:
        parts.append(f"<!-- figure words: {_words_source(figure)} -->")
        parts.append("\n".join(escape_leading_syntax(line) for line in figure.words.splitlines()))
    parts.append("<!-- /figure -->")
    return "\n\n".join(parts)


def parse_figure(block: str) -> FigureBlock | None:
    """The figure whose whole block (start comment to end comment) is `block`, or None."""
    lines = block.strip().splitlines()
    if len(lines) < 2 or not FIGURE_START_RE.fullmatch(lines[0].strip()):
        return None
    if not FIGURE_END_RE.fullmatch(lines[-1].strip()):
        return None
    head: list[str] = []
    words: list[str] = []
    note: str | None = None
    for line in lines[1:-1]:
        match = FIGURE_WORDS_RE.fullmatch(line.strip()) if note is None else None
        if match is not None:
            note = (match.group(1) or "").lower()
        elif note is None:
            head.append(line)
        else:
            words.append(line)
    caption_lines, image = [], ""
    for line in head:
        link = IMAGE_LINK_RE.fullmatch(line.strip())
        if link is not None and not image:
            image = link.group(2)
        elif line.strip():
            caption_lines.append(line.strip())
    confidence = _OCR_CONFIDENCE_RE.search(note or "")
    engine = _OCR_ENGINE_RE.search(note or "")
    ocr = (note or "").startswith("ocr")
    return FigureBlock(
        caption=_unescape_leading(" ".join(caption_lines)),
        image=image,
        words="\n".join(_unescape_leading(line) for line in words).strip(),
        ocr_confidence=float(confidence.group(1)) if ocr and confidence else None,
        ocr_engine=(engine.group(1) if engine else "ocr") if ocr else None,
    )


def _words_source(figure: FigureBlock) -> str:
    if not figure.words_from_ocr:
        return FIGURE_WORDS_FROM_TEXT
    details = ["ocr"]
    if figure.ocr_confidence is not None:
        details.append(f"conf={figure.ocr_confidence:.2f}")
    if figure.ocr_engine:
        details.append(f"engine={figure.ocr_engine}")
    return " ".join(details)


def _escape_alt(text: str) -> str:
    """A caption as an image's alt text: one line, brackets and backslashes escaped."""
    alt = " ".join(text.split())
    return re.sub(r"([\\\[\]])", r"\\\1", alt)


def _unescape_leading(text: str) -> str:
    return text[1:] if text.startswith("\\") and _LEADING_SYNTAX.match(text[1:]) else text


# --- boxes ----------------------------------------------------------------------------------

# Where each page's text lies on the PDF page, as a trailer after the last page: one line a
# page, `<!-- boxes page=3 crc=1a2b3c4d 0,57,72,80,300,92 2,40,72,93,300,104 -->`. Each
# segment is a span of the page's Markdown and the box of the PDF line (or table) it came from:
# its start as the gap after the previous segment's end (the first: after the start of the page
# marker's line), its length, then x0,y0,x1,y1 in whole PDF points (origin top-left, rounded
# outwards). `crc` is the CRC-32 of the page's Markdown (marker line to last line): a page
# edited by hand fails it and its boxes are not used, so a box never points at the wrong text.
# (The segments are checked as they are read: a pattern repeated per segment cost more than
# the rest of the parse.)
BOXES_LINE_RE = re.compile(r"<!-- boxes page=(\d{1,9}) crc=([0-9a-f]{8})([-\d, ]*) -->")
SEGMENT_FIELDS = 6  # gap, length, x0, y0, x1, y1


@dataclass(frozen=True, slots=True)
class PageBoxes:
    """One page's segments: (start, end, x0, y0, x1, y1) with start/end relative to the start
    of the page marker's line, in Markdown order."""

    number: int
    crc: str
    segments: tuple[tuple[int, int, int, int, int, int], ...]


@dataclass(frozen=True, slots=True)
class BoxesTrailer:
    """The trailer of a document: where its content ends (the trailer and the blank line
    before it are in no chunk) and the boxes of each page that has some."""

    content_end: int
    pages: dict[int, PageBoxes]


def page_crc(page_text: str) -> str:
    """The CRC-32 (8 hex digits) of one page's Markdown, as a boxes line carries it."""
    return f"{zlib.crc32(page_text.encode('utf-8')):08x}"


def format_page_boxes(boxes: PageBoxes) -> str:
    """The trailer line of one page (no newline)."""
    parts = [f"<!-- boxes page={boxes.number} crc={boxes.crc}"]
    previous_end = 0
    for start, end, x0, y0, x1, y1 in boxes.segments:
        parts.append(f"{start - previous_end},{end - start},{x0},{y0},{x1},{y1}")
        previous_end = end
    parts.append("-->")
    return " ".join(parts)


def parse_boxes(markdown: str) -> BoxesTrailer | None:
    """The boxes trailer at the end of `markdown`, or None when it has none."""
    if "<!-- boxes " not in markdown:
        return None
    pages: dict[int, PageBoxes] = {}
    end = len(markdown.rstrip("\r\n"))
    while end > 0:
        start = max(markdown.rfind("\n", 0, end), -1) + 1
        match = BOXES_LINE_RE.fullmatch(markdown, start, end)
        if match is None:
            break
        number, segments = int(match.group(1)), _segments(match.group(3))
        if segments is not None:
            pages[number] = PageBoxes(number, match.group(2), segments)
        end = start - 1
    if not pages:
        return None
    content_end = start_of_trailer = end + 1
    while content_end > 1 and markdown[content_end - 2] in "\r\n":
        content_end -= 1  # the blank lines before the trailer belong to it
    return BoxesTrailer(max(content_end, 0) if start_of_trailer > 0 else 0, pages)


def without_boxes(markdown: str) -> str:
    """`markdown` without its boxes trailer (unchanged when it has none): the Markdown as it
    was before convert wrote boxes, ending in one newline."""
    trailer = parse_boxes(markdown)
    return markdown if trailer is None else markdown[: trailer.content_end]


def _segments(text: str) -> tuple[tuple[int, int, int, int, int, int], ...] | None:
    """The segments of one boxes line; None when they are not groups of six integers."""
    try:
        values = list(map(int, text.replace(",", " ").split()))  # (one pass: thousands a page)
    except ValueError:
        return None
    if len(values) % SEGMENT_FIELDS:
        return None
    segments = []
    previous_end = 0
    for k in range(0, len(values), SEGMENT_FIELDS):
        gap, length, x0, y0, x1, y1 = values[k : k + SEGMENT_FIELDS]
        start = previous_end + gap
        previous_end = start + length
        segments.append((start, previous_end, x0, y0, x1, y1))
    return tuple(segments)


# --- all of the above ----------------------------------------------------------------------


def is_format_comment(text: str) -> bool:
    """True for a line chunkcli writes as format (a page marker, provenance, a header-row
    count, a boxes line, a figure's comments): none of them is content to index."""
    line = text.strip()
    patterns = (
        PAGE_MARKER_RE,
        _SOURCE_RE,
        _HEADER_ROWS_RE,
        BOXES_LINE_RE,
        FIGURE_START_RE,
        FIGURE_WORDS_RE,
        FIGURE_END_RE,
    )
    return any(pattern.fullmatch(line) for pattern in patterns)


# --- escapes --------------------------------------------------------------------------------

# Characters that would turn a paragraph's first character into Markdown syntax.
_LEADING_SYNTAX = re.compile(r"^([#>=|`~]|[-+*](?=\s)|\d+[.)](?=\s))")


def escape_leading_syntax(text: str) -> str:
    """Backslash-escape a first character that Markdown would read as syntax."""
    return "\\" + text if _LEADING_SYNTAX.match(text) else text

"""Chunks -> boxes: where on the PDF pages a chunk's text lies, read from the boxes trailer
that `convert` writes after the last page (markdown_format.parse_boxes).

The trailer ties spans of each page's Markdown to the boxes of the PDF lines (and tables) they
came from. A chunk gets the boxes of the spans its body covers with at least one visible
character, merged into one box per page and column run: the lines of a run follow one another
down the page and overlap horizontally (or, in vertical Japanese, stand side by side over the
same height); a jump up the page (the next column) or to another page starts a new box. A
page whose Markdown no longer matches the trailer's CRC (edited by hand) gives no boxes, so a
box never points at other text.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from chunkcli.markdown_format import BoxesTrailer, PageBoxes, page_crc
from chunkcli.model import PageBox

# A line that starts at most this far (points) above the top of the line before it still
# continues its column run: baselines of one visual line differ by a point or two (a bold word,
# a superscript); the next column starts hundreds of points up.
RUN_RISE_TOLERANCE_PT = 2


@dataclass(frozen=True, slots=True)
class BoxIndex:
    """Every usable span of the document, by offset: starts[k] <= ends[k] <= starts[k + 1]."""

    starts: list[int]
    ends: list[int]
    pages: list[int]
    boxes: list[tuple[int, int, int, int]]


NO_BOXES = BoxIndex([], [], [], [])


def box_index(
    markdown: str, page_marks: tuple[tuple[int, int], ...], trailer: BoxesTrailer | None
) -> BoxIndex:
    """The spans of every page whose text still matches its CRC, as offsets into `markdown`."""
    if trailer is None or not page_marks:
        return NO_BOXES
    spans: list[tuple[int, int, int, tuple[int, int, int, int]]] = []
    ends = [offset for offset, _ in page_marks[1:]] + [trailer.content_end]
    for (offset, number), end in zip(page_marks, ends, strict=True):
        boxes = trailer.pages.get(number)
        if boxes is None:  # (before its text is copied: a page without boxes)
            continue
        text = markdown[offset:end].rstrip("\n")
        if page_crc(text) != boxes.crc or not _tiles(boxes, len(text)):
            continue
        spans += [
            (offset + a, offset + b, number, (x0, y0, x1, y1))
            for a, b, x0, y0, x1, y1 in boxes.segments
        ]
    spans.sort(key=lambda span: span[0])
    return BoxIndex(
        [s[0] for s in spans], [s[1] for s in spans], [s[2] for s in spans], [s[3] for s in spans]
    )


def _tiles(boxes: PageBoxes, length: int) -> bool:
    """The spans run forward inside the page's text (a trailer written by hand may not)."""
    previous_end = 0
    for start, end, *_ in boxes.segments:
        if not previous_end <= start < end <= length:
            return False
        previous_end = end
    return True


def chunk_boxes(index: BoxIndex, markdown: str, start: int, end: int) -> tuple[PageBox, ...]:
    """The boxes of markdown[start:end]: one per page and column run of the spans it covers."""
    starts, ends = index.starts, index.ends
    if not starts:  # Markdown without boxes (written by hand, or by convert before them)
        return ()
    if end <= starts[0] or start >= ends[-1]:  # (before or after every span: no bisection)
        return ()
    first = bisect.bisect_right(ends, start)  # spans first..last-1 overlap [start, end)
    last = bisect.bisect_left(starts, end)
    if first >= last:  # (most chunks of a document whose pages are not all boxed)
        return ()
    # Only a span cut by the chunk's edge can be left with nothing visible (a window ends on a
    # line's last word, the next starts after it): a whole span is a line's text.
    if first < last and markdown[max(starts[first], start) : ends[first]].isspace():
        first += 1
    if first < last and markdown[starts[last - 1] : min(ends[last - 1], end)].isspace():
        last -= 1
    runs: list[tuple[int, list[int]]] = []  # page, run box
    previous: tuple[int, int, int, int] | None = None
    for page, box in zip(index.pages[first:last], index.boxes[first:last], strict=True):
        if previous is not None and runs[-1][0] == page and _continues(previous, box):
            run = runs[-1][1]
            run[0], run[1] = min(run[0], box[0]), min(run[1], box[1])
            run[2], run[3] = max(run[2], box[2]), max(run[3], box[3])
        else:
            runs.append((page, list(box)))
        previous = box
    return tuple(PageBox(page, (r[0], r[1], r[2], r[3])) for page, r in runs)


def _continues(previous: tuple[int, int, int, int], box: tuple[int, int, int, int]) -> bool:
    """`box` follows `previous` in one run: below it in the same column (not above it, and
    overlapping it across), or beside it on the same band (the next column of vertical
    Japanese, the next cell of a row): overlapping over half the shorter one's height, and
    no further apart than the narrower one is wide."""
    across = min(previous[2], box[2]) - max(previous[0], box[0])
    if across > 0 and box[1] >= previous[1] - RUN_RISE_TOLERANCE_PT:
        return True
    down = min(previous[3], box[3]) - max(previous[1], box[1])
    shorter = min(previous[3] - previous[1], box[3] - box[1])
    narrower = min(previous[2] - previous[0], box[2] - box[0])
    return down * 2 >= shorter > 0 and -across <= narrower

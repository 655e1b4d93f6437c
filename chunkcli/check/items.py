"""Item chunks -> Issues, for documents split with `--mode items` (or `auto` choosing it).

- `items.no-period`: items without a period where one is expected: in a section of a dated kind
  (work, education, certification, event) or beside items that have one. A date lost in
  conversion (moved into a table, a header or another column) leaves a job or an event without
  the period a metadata filter would select it by.
- `items.untyped-section`: sections holding items that no keyword types (`item_type` other):
  a filter on `item_type` finds none of them. (A product catalogue is such a section by design.)
"""

from __future__ import annotations

from collections.abc import Sequence

from chunkcli.check.chunks import line_locator
from chunkcli.check.wording import examples, quote
from chunkcli.model import Chunk, Issue, Severity
from chunkcli.split.items import ItemType

# The kinds whose items carry a date on a résumé, a CV or a log (skills and "other" need none).
DATED_KINDS = frozenset({ItemType.WORK, ItemType.EDUCATION, ItemType.CERTIFICATION, ItemType.EVENT})
PATH_JOINER = " › "


def check_items(chunks: Sequence[Chunk], markdown: str) -> list[Issue]:
    """At most one warning per code, each naming the first few items or sections."""
    items = _first_chunk_per_item(chunks)
    line_of = line_locator(markdown)
    return _no_period(items, line_of) + _untyped_sections(items, line_of)


def _first_chunk_per_item(chunks: Sequence[Chunk]) -> list[Chunk]:
    """One chunk per item (an item cut into parts shares its index), in document order."""
    seen: set[int] = set()
    first: list[Chunk] = []
    for chunk in chunks:
        if chunk.item is not None and chunk.item.item_index not in seen:
            seen.add(chunk.item.item_index)
            first.append(chunk)
    return first


def _no_period(items: list[Chunk], line_of: line_locator) -> list[Issue]:
    dated_sections = {c.heading_path for c in items if c.item and c.item.period_start is not None}
    missing = [
        c
        for c in items
        if c.item is not None
        and c.item.period_start is None
        and (c.item.item_type in DATED_KINDS or c.heading_path in dated_sections)
    ]
    if not missing:
        return []
    described = [f"{quote(_item_line(c), 40)} (line {line_of(c.start)})" for c in missing]
    noun = "item" if len(missing) == 1 else "items"
    return [
        Issue(
            "items.no-period",
            Severity.WARN,
            f"{len(missing)} {noun} without a period where one is expected: {examples(described)}",
            line=line_of(missing[0].start),
        )
    ]


def _untyped_sections(items: list[Chunk], line_of: line_locator) -> list[Issue]:
    sections: dict[tuple[str, ...], list[Chunk]] = {}
    for chunk in items:
        sections.setdefault(chunk.heading_path, []).append(chunk)
    untyped = [
        (path, held)
        for path, held in sections.items()
        if all(c.item is not None and c.item.item_type == ItemType.OTHER for c in held)
    ]
    if not untyped:
        return []
    described = [
        f"{quote(PATH_JOINER.join(path) or '(no heading)', 40)} ({len(held)} items, "
        f"line {line_of(held[0].start)})"
        for path, held in untyped
    ]
    noun = "section" if len(untyped) == 1 else "sections"
    return [
        Issue(
            "items.untyped-section",
            Severity.WARN,
            f"{len(untyped)} {noun} whose items no keyword types (item_type other): "
            + examples(described),
            line=line_of(untyped[0][1][0].start),
        )
    ]


def _item_line(chunk: Chunk) -> str:
    """The first line of the chunk's body that is not a heading of its section."""
    lines = [line for line in chunk.body.split("\n") if line.strip()]
    for line in lines:
        if not line.lstrip().startswith("#") or line.lstrip("# ") not in chunk.heading_path:
            return line
    return lines[0] if lines else ""

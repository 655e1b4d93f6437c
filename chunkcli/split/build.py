"""Plans -> Chunks: ids, heading path names, pages, and the document's identity on every chunk."""

from __future__ import annotations

import bisect
import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from chunkcli.markdown_format import without_page_markers
from chunkcli.model import Chunk
from chunkcli.split.boxes import NO_BOXES, BoxIndex, chunk_boxes
from chunkcli.split.figures import figure_images
from chunkcli.split.layout import Layout
from chunkcli.split.options import SPLIT_VERSION
from chunkcli.split.plan import Plan

ID_HEX_DIGITS = 32  # 128 bits: unique across any corpus this tool will see
# A chunk's `title` and each name of its `heading_path` are cut to this many characters, the
# last one an ellipsis (docs/split.md). Every chunk carries them: a 100 KB paragraph set as a
# title, over 3,000 sections, made JSON Lines 4,600 times the input (issue 30). The longest
# heading of the corpus is far shorter; the chunk's own body is never cut, and its prefix has
# its own token bound.
MAX_NAME_CHARS = 1_000
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class Identity:
    """What every chunk of one document shares."""

    doc_id: str
    source: str
    source_sha256: str
    markdown_sha256: str
    title: str
    split_config: dict[str, object]
    metadata: dict[str, str]


def iter_chunks(
    layout: Layout,
    plans: list[Plan],
    page_marks: tuple[tuple[int, int], ...],
    identity: Identity,
    ocr_confidence: Mapping[int, float] | None = None,
    boxes: BoxIndex = NO_BOXES,
) -> Iterator[Chunk]:
    """One Chunk per plan, in document order, made as they are taken (`ocr_confidence` maps
    OCR pages to theirs, `boxes` holds where the Markdown's text lies on the PDF pages): a
    document's chunks take about ten times its Markdown (far more for thousands of tiny
    articles), and a writer needs only the one it writes."""
    mark_offsets = [offset for offset, _ in page_marks]
    id_hash = id_hash_base(identity)
    title = bounded_name(identity.title)
    images = figure_images(layout)

    def page_at(offset: int) -> int | None:
        if not mark_offsets:
            return None
        index = bisect.bisect_right(mark_offsets, offset) - 1
        return page_marks[index][1] if index >= 0 else None

    confidence = ocr_confidence or {}
    names: dict[tuple[int, ...], tuple[str, ...]] = {}  # heading path -> its headings' text
    seen: dict[tuple[tuple[str, ...], str], int] = {}  # (path, text) -> occurrences so far
    for plan in plans:
        body = layout.markdown[plan.start : plan.end]
        page_start = page_at(plan.start)
        page_end = page_at(max(plan.start, plan.end - 1))
        heading_path = names.get(plan.path)
        if heading_path is None:
            heading_path = names[plan.path] = tuple(
                bounded_name(layout.names[e]) for e in plan.path
            )
        key = (heading_path, without_page_markers(plan.prefix + body))
        occurrence = seen[key] = seen.get(key, -1) + 1
        yield Chunk(
            id=chunk_id(id_hash, heading_path, key[1], occurrence),
            doc_id=identity.doc_id,
            source=identity.source,
            source_sha256=identity.source_sha256,
            markdown_sha256=identity.markdown_sha256,
            title=title,
            heading_path=heading_path,
            kind=plan.kind,
            prefix=plan.prefix,
            body=body,
            start=plan.start,
            end=plan.end,
            page_start=page_start,
            page_end=page_end,
            tokens=plan.tokens,
            split_config=dict(identity.split_config),
            metadata=dict(identity.metadata),
            oversize=plan.oversize,
            ocr_confidence=lowest_confidence(confidence, page_start, page_end),
            item=plan.item,
            boxes=chunk_boxes(boxes, layout.markdown, plan.start, plan.end),
            images=images.within(plan.start, plan.end),
        )


def bounded_name(name: str) -> str:
    """`name`, or its first MAX_NAME_CHARS - 1 characters and an ellipsis when longer."""
    if len(name) <= MAX_NAME_CHARS:
        return name
    return name[: MAX_NAME_CHARS - len(ELLIPSIS)] + ELLIPSIS


def lowest_confidence(
    confidence: Mapping[int, float], first: int | None, last: int | None
) -> float | None:
    """The lowest confidence among the OCR pages first..last; None when none is OCR."""
    if not confidence or first is None:
        return None
    found = [confidence[p] for p in range(first, (last or first) + 1) if p in confidence]
    return min(found) if found else None


def id_hash_base(identity: Identity) -> hashlib._Hash:
    """The hash of what every chunk id of the document starts with (copied for each chunk)."""
    config_key = json.dumps(identity.split_config, sort_keys=True)
    return hashlib.sha256(f"{identity.doc_id}\x1f{SPLIT_VERSION}\x1f{config_key}\x1f".encode())


def chunk_id(
    id_hash: hashlib._Hash, heading_path: tuple[str, ...], text: str, occurrence: int
) -> str:
    """Stable id: the document, the split version and options, the heading path, the text
    (without its page markers: see `without_page_markers`), and how many earlier chunks had
    the same path and text. No offsets, no page numbers: an edit in one section, or a page
    deleted before a chunk, leaves the ids of every other chunk as they were."""
    digest = id_hash.copy()
    path_key = "\x1e".join(heading_path)
    digest.update(f"{path_key}\x1f{occurrence}\x1f{text}".encode())
    return digest.hexdigest()[:ID_HEX_DIGITS]

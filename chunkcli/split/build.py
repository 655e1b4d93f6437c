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
# Chunk's fields in order: iter_chunks builds each Chunk by position (a test checks the order)
CHUNK_FIELDS = (
    "id", "doc_id", "source", "source_sha256", "title", "heading_path", "kind", "prefix",
    "body", "start", "end", "page_start", "page_end", "tokens", "split_config", "metadata",
    "oversize", "markdown_sha256", "ocr_confidence", "item", "boxes", "images",
)  # fmt: skip
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
    pages = [page for _, page in page_marks]
    id_hash = id_hash_base(identity)
    title = bounded_name(identity.title)
    images = figure_images(layout)
    markdown, doc_names = layout.markdown, layout.names
    doc_id, source, source_sha256 = identity.doc_id, identity.source, identity.source_sha256
    markdown_sha256, split_config, metadata = (
        identity.markdown_sha256,
        identity.split_config,
        identity.metadata,
    )
    confidence = ocr_confidence or {}
    # heading path -> its headings' text, the id hash with them (chunk_id's first part), and
    # that hash with the occurrence 0 taken in (most texts are the first of their path)
    names: dict[tuple[int, ...], tuple[tuple[str, ...], hashlib._Hash, hashlib._Hash]] = {}
    seen: dict[tuple[tuple[str, ...], str], int] = {}  # (path, text) -> occurrences so far
    for start, end, kind, path, prefix, tokens, oversize, item in plans:
        body = markdown[start:end]
        page_start = page_end = None
        if mark_offsets:  # the page of the body's first and last character
            index = bisect.bisect_right(mark_offsets, start) - 1
            page_start = pages[index] if index >= 0 else None
            index = bisect.bisect_right(mark_offsets, end - 1 if end > start else start) - 1
            page_end = pages[index] if index >= 0 else None
        named = names.get(path)
        if named is None:
            heading_path = tuple(bounded_name(doc_names[e]) for e in path)
            path_hash = path_id_hash(id_hash, heading_path)
            named = names[path] = (heading_path, path_hash, occurrence_hash(path_hash, 0))
        heading_path = named[0]
        text = without_page_markers(prefix + body)
        key = (heading_path, text)
        occurrence = seen[key] = seen.get(key, -1) + 1
        digest = (named[2] if occurrence == 0 else occurrence_hash(named[1], occurrence)).copy()
        digest.update(text.encode())
        # By position, in CHUNK_FIELDS' order (keywords took 1 us more a chunk: 22 of them)
        yield Chunk(
            digest.hexdigest()[:ID_HEX_DIGITS],  # id: text_id's, from the hash above
            doc_id,
            source,
            source_sha256,
            title,
            heading_path,
            kind,
            prefix,
            body,
            start,
            end,
            page_start,
            page_end,
            tokens,
            dict(split_config),
            dict(metadata),
            oversize,
            markdown_sha256,
            lowest_confidence(confidence, page_start, page_end) if confidence else None,
            item,
            chunk_boxes(boxes, markdown, start, end) if boxes.starts else (),
            images.within(start, end) if images.starts else (),
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
    return text_id(path_id_hash(id_hash, heading_path), text, occurrence)


def path_id_hash(id_hash: hashlib._Hash, heading_path: tuple[str, ...]) -> hashlib._Hash:
    """The hash of what the ids of every chunk under `heading_path` start with (chunk_id's
    first part: iter_chunks makes it once a path, not once a chunk)."""
    digest = id_hash.copy()
    digest.update("\x1e".join(heading_path).encode())
    return digest


def text_id(path_hash: hashlib._Hash, text: str, occurrence: int) -> str:
    """chunk_id from path_id_hash's hash: the same bytes hashed, in three updates (sha256
    reads a stream: no copy of the text joined to the rest)."""
    digest = occurrence_hash(path_hash, occurrence)
    digest.update(text.encode())
    return digest.hexdigest()[:ID_HEX_DIGITS]


def occurrence_hash(path_hash: hashlib._Hash, occurrence: int) -> hashlib._Hash:
    """A copy of `path_hash` with the occurrence taken in: text_id's hash before the text."""
    digest = path_hash.copy()
    digest.update(f"\x1f{occurrence}\x1f".encode())
    return digest

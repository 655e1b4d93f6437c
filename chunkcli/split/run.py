"""split_markdown: one document's Markdown -> its chunks.

scan (markdown-it blocks, counted once) -> layout (paths, sums) -> plan (cuts) -> build (chunks).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePath

from chunkcli.files import readable_text
from chunkcli.gcpause import cycle_collector_paused
from chunkcli.markdown_format import (
    BoxesTrailer,
    Provenance,
    ocr_confidences,
    parse_boxes,
    parse_provenance,
)
from chunkcli.model import Chunk
from chunkcli.split.boxes import box_index
from chunkcli.split.build import Identity, iter_chunks
from chunkcli.split.counting import (
    SpanCounter,
    counter_from_fast_spans,
    counter_from_whole_text,
    counter_per_span,
)
from chunkcli.split.layout import ADDITIVE_ENCODINGS, find_title, make_layout
from chunkcli.split.modes import plan_mode
from chunkcli.split.options import DEFAULT_MODE, SplitOptions
from chunkcli.split.scan import scan_markdown
from chunkcli.tokens import TokenCounter, fast_counter, ordinary_counter, utf8_counter

# Texts up to this length are counted once per document (the cache stays tiny).
SHORT_TEXT_CHARS = 8
DOC_ID_HEX_DIGITS = 16  # 64 bits of the source hash: a readable default doc_id


@dataclass(frozen=True, slots=True)
class DocumentText:
    """A document's Markdown as split reads it: the text before convert's boxes trailer (the
    trailer, after the last page, is in no chunk), and what split takes from the whole text."""

    markdown: str  # without the trailer (the whole text when it has none)
    trailer: BoxesTrailer | None
    provenance: Provenance | None  # convert's provenance comment, on the first line
    sha256: str  # of the whole text's UTF-8: the chunks' markdown_sha256


def document_text(markdown: str) -> DocumentText:
    """`markdown` read into a DocumentText. With a trailer, its `markdown` is a copy: a caller
    that drops the whole text before splitting (documents.chunk_streams) holds one text while
    it is split, not two (13 MB of a 5 MB document's peak, held 4 bytes a character)."""
    # (hashed first: the 5 MB of its UTF-8 are gone before the copy is made)
    sha256 = hashlib.sha256(markdown.encode("utf-8")).hexdigest()
    trailer = parse_boxes(markdown)
    return DocumentText(
        markdown if trailer is None else markdown[: trailer.content_end],
        trailer,
        parse_provenance(markdown),
        sha256,
    )


def split_markdown(
    markdown: str,
    options: SplitOptions = SplitOptions(),
    *,
    source: str | None = None,
    source_sha256: str | None = None,
    count_tokens: TokenCounter | None = None,
) -> list[Chunk]:
    """Split GFM `markdown` into chunks; `body == markdown[start:end]`, `tokens` is exact.

    `source` is the path as given (it names the title when there is no H1, and its file name
    is the default `doc_id`: an identity that survives revisions) and `source_sha256` the
    sha256 of its bytes (the revision; the `doc_id` of an unnamed source). Left out, both
    come from the provenance comment that `convert` writes (the PDF's name and hash), else
    the source is unnamed and the hash is the Markdown's own.
    `count_tokens` defaults to the offline tiktoken encoding named in the options; with it
    (cl100k_base, o200k_base) chunk counts are sums of piece counts, with any other counter
    every chunk is recounted.
    """
    with cycle_collector_paused():  # see chunkcli.gcpause
        text = document_text(markdown)
        return list(_split(text, options.validated(), source, source_sha256, count_tokens))


def chunk_stream(
    markdown: str | DocumentText,
    options: SplitOptions = SplitOptions(),
    *,
    source: str | None = None,
    source_sha256: str | None = None,
) -> Iterator[Chunk]:
    """The chunks of split_markdown, made one at a time as they are taken: the document is
    read and planned here, each chunk built when the next one is asked for, so a writer never
    holds them all. (The caller pauses the cyclic collector if it wants: the CLI does.)"""
    text = markdown if isinstance(markdown, DocumentText) else document_text(markdown)
    return _split(text, options.validated(), source, source_sha256, None)


def _split(
    text: DocumentText,
    options: SplitOptions,
    source: str | None,
    source_sha256: str | None,
    count_tokens: TokenCounter | None,
) -> Iterator[Chunk]:
    markdown, trailer = text.markdown, text.trailer
    count = count_tokens if count_tokens is not None else _offline_counter(options.encoding)
    sums_exact = count_tokens is None and options.encoding in ADDITIVE_ENCODINGS
    count_spans = _span_counter(markdown, options, count, sums_exact)
    # (The other modes read every heading line by line: only the heading mode takes runs.)
    scan = scan_markdown(markdown, count_spans, collapse_headings=options.mode == DEFAULT_MODE)
    named = source if source is not None else getattr(parse_provenance(markdown), "source", "")
    title = find_title(scan.pieces, options.title, _stem(named))
    layout = make_layout(markdown, scan.pieces, title, count, options, sums_exact)
    planned = plan_mode(layout, title[1])
    source, sha = _provenance(text, source, source_sha256)
    doc_id = options.doc_id if options.doc_id is not None else default_doc_id(source, sha)
    identity = Identity(
        doc_id=readable_text(doc_id),
        source=source,
        source_sha256=sha,
        markdown_sha256=text.sha256,
        title=title[0],
        split_config=options.config(planned.mode),
        metadata=dict(options.metadata),
    )
    ocr = ocr_confidences(markdown) if "conf" in markdown else {}
    boxes = box_index(markdown, scan.page_marks, trailer)
    return iter_chunks(planned.layout, planned.plans, scan.page_marks, identity, ocr, boxes)


def _span_counter(
    markdown: str, options: SplitOptions, count: TokenCounter, sums_exact: bool
) -> SpanCounter:
    """How the scan counts the document's pieces: where sums are exact, by the fast counter
    span by span, else from one tiktoken encoding of the whole text; otherwise piece by piece
    with `count`."""
    if not sums_exact:
        return counter_per_span(markdown, count)
    fast = fast_counter(options.encoding)
    if fast is not None:
        utf8_count = utf8_counter(options.encoding)
        return counter_from_fast_spans(
            markdown, fast, options.encoding, over=options.max_tokens, utf8_count=utf8_count
        )
    return counter_from_whole_text(markdown, options.encoding, over=options.max_tokens)


def _provenance(text: DocumentText, source: str | None, sha256: str | None) -> tuple[str, str]:
    """(source, sha256): as given, else from convert's provenance comment, else the Markdown's."""
    if source is None or sha256 is None:
        provenance = text.provenance
        if provenance is not None:
            source = provenance.source if source is None else source
            sha256 = provenance.sha256 if sha256 is None else sha256
    if sha256 is None:
        sha256 = text.sha256
    return readable_text(source or ""), sha256


def default_doc_id(source: str, source_sha256: str) -> str:
    """The source's file name; unnamed (stdin): the start of its hash, all there is to name it
    by. Callers that know the corpus root pass the path relative to it instead."""
    if source in ("", "-"):
        return source_sha256[:DOC_ID_HEX_DIGITS]
    return PurePath(source).name


def _offline_counter(encoding_name: str) -> TokenCounter:
    """Like tokens.tiktoken_counter (special-token text counted as text), through
    tokens.ordinary_counter (the fast counter, or tiktoken's plain path, which skips the
    per-call special-token checks). Counts of very short
    texts are remembered for the one document: dotted leaders (". . . .") and numbered lists
    cut into thousands of one-character sentences."""
    count_text = ordinary_counter(encoding_name)
    short_counts: dict[str, int] = {}

    def count(text: str) -> int:
        if len(text) > SHORT_TEXT_CHARS:
            return count_text(text)
        known = short_counts.get(text)
        if known is None:
            known = short_counts[text] = count_text(text)
        return known

    return count


def _stem(source: str) -> str:
    return "" if source in ("", "-") else PurePath(source).stem

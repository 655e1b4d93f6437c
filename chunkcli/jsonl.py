"""Chunk <-> one JSON object per line (files are written by `chunkcli.files`)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from chunkcli.files import OutputWriteError, write_atomic
from chunkcli.model import Chunk, ChunkKind

# The order of the keys in every line: identity, where it sits, what it says, how it was made.
CHUNK_FIELDS = (
    "id", "doc_id", "source", "source_sha256", "title", "heading_path", "kind",
    "prefix", "body", "text", "start", "end", "page_start", "page_end", "ocr_confidence",
    "tokens", "oversize", "split_config", "metadata",
)


def chunk_to_dict(chunk: Chunk) -> dict[str, object]:
    """The chunk as a JSON-ready dict, keys in CHUNK_FIELDS order (`text` = prefix + body)."""
    values: dict[str, object] = {
        "id": chunk.id,
        "doc_id": chunk.doc_id,
        "source": chunk.source,
        "source_sha256": chunk.source_sha256,
        "title": chunk.title,
        "heading_path": list(chunk.heading_path),
        "kind": str(chunk.kind),
        "prefix": chunk.prefix,
        "body": chunk.body,
        "text": chunk.text,
        "start": chunk.start,
        "end": chunk.end,
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "ocr_confidence": chunk.ocr_confidence,
        "tokens": chunk.tokens,
        "oversize": chunk.oversize,
        "split_config": dict(chunk.split_config),
        "metadata": dict(chunk.metadata),
    }
    return {name: values[name] for name in CHUNK_FIELDS}


def chunk_from_dict(data: dict[str, object]) -> Chunk:
    """The inverse of `chunk_to_dict` (`text` is derived, so it is not read back)."""

    def text(name: str) -> str:
        return str(data[name])

    def optional_int(name: str) -> int | None:
        value = data.get(name)
        return None if value is None else int(str(value))

    return Chunk(
        id=text("id"),
        doc_id=text("doc_id"),
        source=text("source"),
        source_sha256=text("source_sha256"),
        title=text("title"),
        heading_path=tuple(str(x) for x in _list(data.get("heading_path"))),
        kind=ChunkKind(text("kind")),
        prefix=text("prefix"),
        body=text("body"),
        start=int(text("start")),
        end=int(text("end")),
        page_start=optional_int("page_start"),
        page_end=optional_int("page_end"),
        tokens=int(text("tokens")),
        split_config=dict(_dict(data.get("split_config"))),
        metadata={str(k): str(v) for k, v in _dict(data.get("metadata")).items()},
        oversize=bool(data.get("oversize", False)),
        ocr_confidence=_optional_float(data.get("ocr_confidence")),
    )


def _optional_float(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _dict(value: object) -> dict[str, object]:
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def chunk_to_json(chunk: Chunk) -> str:
    """One line of JSON (no newline); non-ASCII text is kept as is."""
    return json.dumps(chunk_to_dict(chunk), ensure_ascii=False)


def chunks_to_jsonl(chunks: Iterable[Chunk]) -> str:
    """JSON Lines text: one chunk per line, each line ending in a newline."""
    return "".join(chunk_to_json(chunk) + "\n" for chunk in chunks)


def read_jsonl(text: str) -> list[Chunk]:
    """Chunks from JSON Lines text (blank lines are skipped)."""
    return [chunk_from_dict(json.loads(line)) for line in text.splitlines() if line.strip()]

__all__ = ["OutputWriteError", "write_atomic"]  # written through files.py

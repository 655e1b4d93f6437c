"""Chunk <-> one JSON object per line (files are written by `chunkcli.files`)."""

from __future__ import annotations

import hashlib
import json
import math
import operator
from collections.abc import Iterable, Iterator, Mapping
from json.encoder import encode_basestring as _string  # the C encoder json.dumps uses

from chunkcli.errors import UsageError
from chunkcli.files import OutputWriteError, write_atomic
from chunkcli.model import Chunk, ChunkKind, ItemFields, PageBox

# The order of the keys in every line: identity, where it sits, what it says, how it was made.
CHUNK_FIELDS = (
    "id",
    "doc_id",
    "doc_revision",
    "source",
    "source_sha256",
    "markdown_sha256",
    "title",
    "heading_path",
    "kind",
    "prefix",
    "body",
    "text",
    "content_sha256",
    "images",
    "start",
    "end",
    "page_start",
    "page_end",
    "boxes",
    "ocr_confidence",
    "tokens",
    "oversize",
    "split_config",
    "metadata",
)
# The document's fields after "id", the same on every chunk of one document (written once).
IDENTITY_FIELDS = CHUNK_FIELDS[1:7]
# The typed fields of an item chunk (--mode items), written after `kind` on item chunks only,
# so that the lines of every other chunk are what they were.
ITEM_FIELDS = ("item_type", "period_start", "period_end", "item_index")
HEADING_PATH_JOINER = " › "  # the same separator as the path line of a chunk's prefix
# Flat split_config keys get this prefix ("version" becomes split_config_version).
FLAT_CONFIG_PREFIX = "split_"
# Heading paths whose JSON the line writer keeps (a document of 500,000 headings has as many).
MAX_REMEMBERED_PATHS = 4_096
# A box as json.dumps writes {"page": p, "bbox": [x0, y0, x1, y1]} of ints (its separators).
BOX_JSON = '{{"page": {}, "bbox": [{}, {}, {}, {}]}}'
BOX_NUMBERS = 5


def chunk_to_dict(chunk: Chunk) -> dict[str, object]:
    """The chunk as a JSON-ready dict, keys in CHUNK_FIELDS order (`text` = prefix + body),
    an item chunk's ITEM_FIELDS after `kind`."""
    values: dict[str, object] = {
        "id": chunk.id,
        "doc_id": chunk.doc_id,
        "doc_revision": chunk.doc_revision,
        "source": chunk.source,
        "source_sha256": chunk.source_sha256,
        "markdown_sha256": chunk.markdown_sha256,
        "title": chunk.title,
        "heading_path": list(chunk.heading_path),
        "kind": str(chunk.kind),
        "prefix": chunk.prefix,
        "body": chunk.body,
        "text": chunk.text,
        "content_sha256": chunk.content_sha256,
        "images": list(chunk.images),
        "start": chunk.start,
        "end": chunk.end,
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "boxes": [{"page": box.page, "bbox": list(box.bbox)} for box in chunk.boxes],
        "ocr_confidence": chunk.ocr_confidence,
        "tokens": chunk.tokens,
        "oversize": chunk.oversize,
        "split_config": dict(chunk.split_config),
        "metadata": dict(chunk.metadata),
    }
    if chunk.item is None:
        return {name: values[name] for name in CHUNK_FIELDS}
    ordered: dict[str, object] = {}
    for name in CHUNK_FIELDS:
        ordered[name] = values[name]
        if name == "kind":
            ordered.update(_item_values(chunk.item))
    return ordered


def _item_values(item: ItemFields) -> dict[str, object]:
    return {
        "item_type": item.item_type,
        "period_start": item.period_start,
        "period_end": item.period_end,
        "item_index": item.item_index,
    }


def chunk_to_flat_dict(chunk: Chunk) -> dict[str, object]:
    """The chunk with no nested object and no null, for stores whose metadata is flat
    (Chroma rejects nested dicts and None): `split_config` becomes `split_config_version`,
    `split_max_tokens`, ...; the `--meta` pairs become top-level keys; `heading_path` stays a
    list of strings and `heading_path_text` joins it; `boxes` is a JSON string; null pages
    and empty lists are left out (Chroma 1.5 accepts None but rejects an empty list; other
    stores reject None): an item's `period_end` is then absent for "up to now", and both
    period fields for no period."""
    nested = chunk_to_dict(chunk)
    flat: dict[str, object] = {}
    for name, value in nested.items():
        if name == "split_config":
            flat.update(_flat_config(chunk.split_config))
        elif name == "metadata":
            flat.update(chunk.metadata)
        elif name == "boxes":
            if chunk.boxes:  # a list of objects: a JSON string for flat stores
                flat[name] = boxes_json(chunk)
        elif value is not None and value != []:
            flat[name] = value
        if name == "heading_path":
            flat["heading_path_text"] = HEADING_PATH_JOINER.join(chunk.heading_path)
    return flat


def boxes_json(chunk: Chunk) -> str:
    """The chunk's boxes as compact JSON text, as flat lines carry them ("" without boxes)."""
    if not chunk.boxes:
        return ""
    boxes = [{"page": box.page, "bbox": list(box.bbox)} for box in chunk.boxes]
    return json.dumps(boxes, separators=(",", ":"))


def _flat_config(config: dict[str, object]) -> dict[str, object]:
    def key(name: str) -> str:
        if name == "version":
            return "split_config_version"
        return name if name.startswith(FLAT_CONFIG_PREFIX) else FLAT_CONFIG_PREFIX + name

    flat: dict[str, object] = {}
    for name, value in config.items():
        if isinstance(value, dict):  # tuned settings: split_settings_max_prefix_share, ...
            flat.update({f"{key(name)}_{inner}": v for inner, v in value.items()})
        else:
            flat[key(name)] = value
    return flat


def flat_reserved_keys(config: dict[str, object]) -> frozenset[str]:
    """The keys a flat line uses itself: a --meta key among them would overwrite one."""
    own = frozenset(CHUNK_FIELDS) | {"heading_path_text", "op"} | set(_flat_config(config))
    return own | frozenset(ITEM_FIELDS) if _may_make_items(config) else own


def _may_make_items(config: dict[str, object]) -> bool:
    return config.get("mode") == "items" or config.get("mode_requested") == "auto"


def check_flat_metadata(pairs: tuple[tuple[str, str], ...], config: dict[str, object]) -> None:
    """Raise UsageError when a --meta key would collide with a chunk field in flat lines."""
    reserved = flat_reserved_keys(config)
    clashes = [key for key, _ in pairs if key in reserved]
    if clashes:
        raise UsageError(
            f"--meta {clashes[0]}=...: with --flat-metadata the key {clashes[0]!r} is a chunk "
            "field already; choose another name"
        )


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
        markdown_sha256=str(data.get("markdown_sha256", "")),
        ocr_confidence=_optional_float(data.get("ocr_confidence")),
        item=_item_from(data),
        boxes=_boxes(data.get("boxes")),
        images=tuple(str(x) for x in _list(data.get("images"))),
    )


def _item_from(data: dict[str, object]) -> ItemFields | None:
    """The item fields of an item chunk's line (None for the lines of other chunks)."""
    if data.get("item_type") is None:
        return None

    def optional_text(name: str) -> str | None:
        value = data.get(name)
        return None if value is None else str(value)

    return ItemFields(
        item_type=str(data["item_type"]),
        period_start=optional_text("period_start"),
        period_end=optional_text("period_end"),
        item_index=int(str(data.get("item_index", 0))),
    )


def _boxes(value: object) -> tuple[PageBox, ...]:
    """Boxes as a nested line holds them, or as the JSON string of a flat one."""
    items = json.loads(value) if isinstance(value, str) else value
    boxes = []
    for item in _list(items):
        box = _dict(item)
        x0, y0, x1, y1 = (int(str(v)) for v in _list(box.get("bbox")))
        boxes.append(PageBox(int(str(box.get("page"))), (x0, y0, x1, y1)))
    return tuple(boxes)


def _optional_float(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _dict(value: object) -> dict[str, object]:
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def chunk_to_json(chunk: Chunk, *, flat: bool = False) -> str:
    """One line of JSON (no newline); non-ASCII text is kept as is."""
    if flat:
        return json.dumps(chunk_to_flat_dict(chunk), ensure_ascii=False)
    return _LineWriter().line(chunk)


def chunks_to_jsonl(chunks: Iterable[Chunk], *, flat: bool = False) -> str:
    """JSON Lines text: one chunk per line, each line ending in a newline."""
    return "".join(chunk_lines(chunks, flat=flat))


def chunk_lines(chunks: Iterable[Chunk], *, flat: bool = False) -> Iterator[str]:
    """Each chunk's line with its newline, made as the chunks come (no document-sized
    string: the lines of a document take five times its Markdown)."""
    if flat:
        for chunk in chunks:
            yield json.dumps(chunk_to_flat_dict(chunk), ensure_ascii=False) + "\n"
        return
    writer = _LineWriter()
    for chunk in chunks:
        yield writer.line(chunk) + "\n"


def _json_scalar(value: object) -> str:
    """json.dumps(value, ensure_ascii=False), without its call for the shapes chunks hold (a
    json.dumps call per OCR confidence was 40 ms of a 5 MB document's 11,000 lines)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return str(value)
    if type(value) is float and math.isfinite(value):
        return repr(value)  # (json writes a finite float as its repr, NaN and ±inf apart)
    return json.dumps(value, ensure_ascii=False)


class _LineWriter:
    """json.dumps(chunk_to_dict(chunk), ensure_ascii=False), byte for byte, a third of the
    time: the line is joined from each value's JSON (the C string encoder), and the fields
    every chunk of a document shares (its identity, split_config, metadata) are encoded once
    per run of equal values, not once per chunk. (Serialising was a fifth of `split`'s
    time on a 5 MB document; tests/test_split_cli.py compares the two writers.)"""

    def __init__(self) -> None:
        self._identity: tuple[str, ...] = ()
        self._identity_json = ""
        self._config: dict[str, object] | None = None
        self._config_json = ""
        self._metadata: dict[str, str] | None = None
        self._metadata_json = ""
        self._paths: dict[tuple[str, ...], str] = {}

    def line(self, chunk: Chunk) -> str:
        text = chunk.text
        parts = [
            '{"id": ',
            _string(chunk.id),
            self._identity_part(chunk),
            ', "heading_path": ',
            self._path(chunk.heading_path),
            ', "kind": ',
            _string(str(chunk.kind)),
        ]
        if chunk.item is not None:
            for name, value in _item_values(chunk.item).items():
                parts += [", ", _string(name), ": ", _json_scalar(value)]
        parts += [
            ', "prefix": ', _string(chunk.prefix),
            ', "body": ', _string(chunk.body),
            ', "text": ', _string(text),
            ', "content_sha256": "', hashlib.sha256(text.encode("utf-8")).hexdigest(),
            '", "images": ', _images_json(chunk),
            ', "start": ', _json_scalar(chunk.start),
            ', "end": ', _json_scalar(chunk.end),
            ', "page_start": ', _json_scalar(chunk.page_start),
            ', "page_end": ', _json_scalar(chunk.page_end),
            ', "boxes": ', _boxes_json(chunk),
            ', "ocr_confidence": ', _json_scalar(chunk.ocr_confidence),
            ', "tokens": ', _json_scalar(chunk.tokens),
            ', "oversize": ', _json_scalar(chunk.oversize),
            ', "split_config": ', self._config_part(chunk.split_config),
            ', "metadata": ', self._metadata_part(chunk.metadata),
            "}",
        ]  # fmt: skip
        return "".join(parts)

    def _identity_part(self, chunk: Chunk) -> str:
        identity = (
            chunk.doc_id,
            chunk.doc_revision,
            chunk.source,
            chunk.source_sha256,
            chunk.markdown_sha256,
            chunk.title,
        )
        if identity != self._identity:
            self._identity = identity
            self._identity_json = "".join(
                f", {_string(name)}: {_string(value)}"
                for name, value in zip(IDENTITY_FIELDS, identity, strict=True)
            )
        return self._identity_json

    def _path(self, path: tuple[str, ...]) -> str:
        known = self._paths.get(path)
        if known is None:
            known = "[" + ", ".join(map(_string, path)) + "]"
            if len(self._paths) < MAX_REMEMBERED_PATHS:
                self._paths[path] = known
        return known

    def _config_part(self, config: dict[str, object]) -> str:
        if self._config is None or not _same_items(config, self._config):
            self._config, self._config_json = dict(config), json.dumps(config, ensure_ascii=False)
        return self._config_json

    def _metadata_part(self, metadata: dict[str, str]) -> str:
        if self._metadata is None or not _same_items(metadata, self._metadata):
            self._metadata = dict(metadata)
            self._metadata_json = json.dumps(metadata, ensure_ascii=False)
        return self._metadata_json


def _same_items(a: Mapping[str, object], b: Mapping[str, object]) -> bool:
    """The same keys in the same order, each with the very same value object (the chunks of a
    document hold copies of one dict). Not ==: 1 == True == 1.0, which JSON writes apart."""
    return (
        len(a) == len(b)
        and all(map(operator.eq, a, b))
        and all(map(operator.is_, a.values(), b.values()))
    )


def _images_json(chunk: Chunk) -> str:
    return "[" + ", ".join(_string(image) for image in chunk.images) + "]"


def _boxes_json(chunk: Chunk) -> str:
    """json.dumps of the boxes as chunk_to_dict writes them; joined here when every number is
    an int (a json.dumps call per chunk with boxes was 20 ms of a 5 MB document's lines)."""
    if not chunk.boxes:
        return "[]"
    numbers = [(box.page, *box.bbox) for box in chunk.boxes]
    if any(len(box) != BOX_NUMBERS or any(type(n) is not int for n in box) for box in numbers):
        boxes = [{"page": box.page, "bbox": list(box.bbox)} for box in chunk.boxes]
        return json.dumps(boxes, ensure_ascii=False)
    return "[" + ", ".join(BOX_JSON.format(*box) for box in numbers) + "]"


def read_jsonl(text: str) -> list[Chunk]:
    """Chunks from JSON Lines text (blank lines are skipped).

    Lines end at "\n" only (a "\r" before it is JSON whitespace): str.splitlines() would
    also break inside a string at U+2028, U+2029, \x85, \x0b, \x0c and \x1c-\x1e, which
    json.dumps(ensure_ascii=False) writes as they are."""
    return [chunk_from_dict(json.loads(line)) for line in text.split("\n") if line.strip()]


__all__ = ["OutputWriteError", "write_atomic"]  # written through files.py

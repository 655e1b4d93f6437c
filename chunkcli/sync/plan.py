"""Manifest state + the corpus as it is now -> the changes: per document, what to upsert and
what to delete. Only documents whose bytes or options changed are converted and split."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from chunkcli.convert.options import ConvertOptions
from chunkcli.errors import ChunkcliError
from chunkcli.files import readable_text
from chunkcli.inputs import ReadOptions
from chunkcli.jsonl import boxes_json
from chunkcli.model import Chunk, InputDocument, InputFailure
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.sync.documents import CorpusFile, file_sha256, list_corpus, read_files
from chunkcli.sync.manifest import (
    STATUS_FAILED,
    STATUS_OK,
    ChunkRow,
    DocumentRow,
    ManifestState,
)

# Bump when the shape of a change line changes: every chunk is then re-emitted once.
CHANGE_FORMAT = "changes-1"

ADDED, CHANGED, UNCHANGED, DELETED, FAILED = "added", "changed", "unchanged", "deleted", "failed"


@dataclass(frozen=True, slots=True)
class SyncOptions:
    split: SplitOptions = SplitOptions()
    flat_metadata: bool = False
    full: bool = False  # rebuild: re-emit every chunk of every document
    read: ReadOptions = ReadOptions()  # convert options (password) and the worker pool

    def config_hash(self) -> str:
        """What makes the same bytes give different lines: split options, --meta, format, and
        convert options that shape a PDF's Markdown when they are not the defaults."""
        key: dict[str, object] = {
            "format": CHANGE_FORMAT,
            "split": self.split.config(),
            "metadata": list(self.split.metadata),
            "flat": self.flat_metadata,
        }
        shaping = convert_shaping(self.read.convert or ConvertOptions())
        if shaping != convert_shaping(ConvertOptions()):  # defaults: hashes stay as they were
            key["convert"] = shaping
        return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def convert_shaping(options: ConvertOptions) -> dict[str, object]:
    """The convert options that change a PDF's Markdown (not the password, pages or workers)."""
    ocr = options.ocr
    return {
        "tables": options.tables,
        "strip_furniture": options.strip_furniture,
        "keep_hidden_text": options.keep_hidden_text,
        "layout": asdict(options.layout),
        "ocr": {"mode": str(ocr.mode), "lang": ocr.lang, "dpi": ocr.dpi, "engine": ocr.engine,
                "settings": asdict(ocr.settings)},
    }  # fmt: skip


@dataclass(frozen=True, slots=True)
class DocumentChange:
    """One document's outcome; `row` and `chunk_rows` are what the manifest holds afterwards
    (None: the document leaves the manifest; chunk_rows None: its chunk rows stay as they are)."""

    doc_id: str
    outcome: str  # ADDED | CHANGED | UNCHANGED | DELETED | FAILED
    upserts: tuple[Chunk, ...] = ()
    deletes: tuple[str, ...] = ()
    row: DocumentRow | None = None
    chunk_rows: tuple[ChunkRow, ...] | None = None
    error: str = ""
    row_changed: bool = True  # False only when the manifest row is left exactly as it was


@dataclass(frozen=True, slots=True)
class SyncPlan:
    generation: int  # the generation this plan commits as
    changes: tuple[DocumentChange, ...]
    options: SyncOptions = field(default_factory=SyncOptions)

    def count(self, outcome: str) -> int:
        return sum(1 for c in self.changes if c.outcome == outcome)

    @property
    def upserts(self) -> int:
        return sum(len(c.upserts) for c in self.changes)

    @property
    def deletes(self) -> int:
        return sum(len(c.deletes) for c in self.changes)

    @property
    def chunks(self) -> int:
        """Chunks the index holds once the changes are applied."""
        return sum(len(c.chunk_rows) for c in self.changes if c.chunk_rows is not None)

    @property
    def failures(self) -> tuple[DocumentChange, ...]:
        return tuple(c for c in self.changes if c.outcome == FAILED)

    @property
    def has_changes(self) -> bool:
        """Anything for the manifest to commit (lines, or a row such as a new sha256)."""
        return any(c.row_changed for c in self.changes)


def plan_sync(
    root: Path,
    state: ManifestState,
    options: SyncOptions,
    on_document: Callable[[DocumentChange], None] | None = None,
    skip: Sequence[Path] = (),
) -> SyncPlan:
    """Compare the corpus under `root` with the manifest's last generation. Unchanged files
    (same bytes, same options) are not read; the others are read in one batch (PDFs in
    parallel), split and compared chunk by chunk with what the index holds."""
    generation = state.generation + 1
    config = options.config_hash()
    by_path = {row.path: row for row in state.documents.values()}
    found = list_corpus(root, skip)
    changes: list[DocumentChange] = []
    to_read = []
    for file in found:
        old = by_path.get(file.path)
        if (
            not options.full
            and old is not None
            and old.status == STATUS_OK
            and (old.config_hash == config and old.file_sha256 == file_sha256(file))
        ):
            kept = DocumentChange(
                old.doc_id,
                UNCHANGED,
                row=old,
                chunk_rows=state.chunks.get(old.doc_id, ()),
                row_changed=False,
            )
            changes.append(kept)
        else:
            to_read.append(file)
    for file, document in read_files(to_read, options.read):
        changes += _plan_read(file, document, by_path.get(file.path), state, options, generation)
        if on_document is not None:
            on_document(changes[-1])
    changes += _deleted(state, {f.path for f in found}, {c.doc_id for c in changes})
    return SyncPlan(generation, tuple(changes), options)


def _deleted(state: ManifestState, present: set[str], planned: set[str]) -> list[DocumentChange]:
    gone = [
        row
        for row in state.documents.values()
        if row.path not in present and row.doc_id not in planned
    ]
    return [
        DocumentChange(
            row.doc_id, DELETED, deletes=tuple(c.id for c in state.chunks.get(row.doc_id, ()))
        )
        for row in sorted(gone, key=lambda r: r.doc_id)
    ]


def _plan_read(
    file: CorpusFile,
    document: InputDocument | InputFailure,
    old: DocumentRow | None,
    state: ManifestState,
    options: SyncOptions,
    generation: int,
) -> list[DocumentChange]:
    """The changes for one file that was read: its new chunks against the old ones. A file
    whose document id changed (its provenance names another PDF) deletes the old id's chunks."""
    config = options.config_hash()
    old_chunks = state.chunks.get(old.doc_id, ()) if old is not None else ()
    if isinstance(document, InputFailure):
        return [_failed(file, old, old_chunks, config, generation, document.error)]
    doc_id = document.doc_id or file.path
    source = file.path if document.source == readable_text(document.path) else document.source
    try:
        chunks = split_markdown(
            document.markdown,
            replace(options.split, doc_id=doc_id),
            source=source,
            source_sha256=document.sha256,
        )
        sha = file_sha256(file)
    except (ChunkcliError, OSError) as exc:
        return [_failed(file, old, old_chunks, config, generation, str(exc))]
    before: list[DocumentChange] = []
    if old is not None and old.doc_id != doc_id:
        before = [DocumentChange(old.doc_id, DELETED, deletes=tuple(c.id for c in old_chunks))]
        old, old_chunks = None, ()
    row = DocumentRow(doc_id, file.path, sha, config, generation, STATUS_OK)
    rebuild = options.full or old is None or old.config_hash != config
    outcome = ADDED if old is None else CHANGED
    return [*before, _diff(doc_id, chunks, old_chunks, rebuild, row, outcome)]


def _failed(
    file: CorpusFile,
    old: DocumentRow | None,
    old_chunks: tuple[ChunkRow, ...],
    config: str,
    generation: int,
    error: str,
) -> DocumentChange:
    """The previous chunks stay in the index (and in the manifest); the row says it failed,
    so the next run tries again even when the file did not change."""
    base = old or DocumentRow(file.path, file.path, "", config, generation, STATUS_FAILED)
    row = replace(base, status=STATUS_FAILED, error=error, generation=generation)
    return DocumentChange(base.doc_id, FAILED, row=row, chunk_rows=old_chunks, error=error)


def _diff(
    doc_id: str,
    chunks: list[Chunk],
    old_chunks: tuple[ChunkRow, ...],
    rebuild: bool,
    row: DocumentRow,
    outcome: str,
) -> DocumentChange:
    """Upsert the chunks the index does not hold as they are now (a new id, or the same text
    now on other pages, with its page markers renumbered or at other boxes); delete the ids
    that are gone. A chunk kept keeps its manifest row: the row says what the index holds (its
    offsets refer to its own markdown_sha256)."""
    old_by_id = {c.id: c for c in old_chunks}
    new_ids = {c.id for c in chunks}
    upserts, rows = [], []
    for ordinal, chunk in enumerate(chunks):
        held = old_by_id.get(chunk.id)
        boxes = boxes_json(chunk)
        if (
            rebuild
            or held is None
            or (held.page_start, held.page_end) != (chunk.page_start, chunk.page_end)
            or held.content_sha256 != chunk.content_sha256  # (a page marker renumbered in it)
            or held.boxes != boxes  # (text moved on its page: an edit above it)
        ):
            upserts.append(chunk)
            held = ChunkRow(
                chunk.id,
                doc_id,
                chunk.content_sha256,
                ordinal,
                chunk.start,
                chunk.end,
                chunk.page_start,
                chunk.page_end,
                boxes,
            )
        rows.append(held)
    deletes = tuple(c.id for c in old_chunks if c.id not in new_ids)
    if not upserts and not deletes and outcome == CHANGED:
        outcome = UNCHANGED  # new bytes, same chunks (a PDF re-saved): nothing to re-index
    return DocumentChange(doc_id, outcome, tuple(upserts), deletes, row, tuple(rows))

"""Manifest state + the corpus as it is now -> the changes: per document, what to upsert and
what to delete. Only documents whose bytes or options changed are converted and split."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from chunkcli.errors import ChunkcliError
from chunkcli.model import Chunk
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.sync.documents import CorpusFile, file_sha256, list_corpus, read_document
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
    password: str | None = None

    def config_hash(self) -> str:
        """What makes the same bytes give different lines: split options, --meta, format."""
        key = {
            "format": CHANGE_FORMAT,
            "split": self.split.config(),
            "metadata": list(self.split.metadata),
            "flat": self.flat_metadata,
        }
        return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


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
        return sum(
            len(c.chunk_rows) for c in self.changes if c.chunk_rows is not None
        )

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
) -> SyncPlan:
    """Compare the corpus under `root` with the manifest's last generation."""
    generation = state.generation + 1
    config = options.config_hash()
    found = list_corpus(root)
    changes = []
    for file in found:
        change = _plan_document(file, state, options, config, generation)
        changes.append(change)
        if on_document is not None:
            on_document(change)
    present = {f.doc_id for f in found}
    for doc_id in sorted(set(state.documents) - present):
        old = state.chunks.get(doc_id, ())
        changes.append(DocumentChange(doc_id, DELETED, deletes=tuple(c.id for c in old)))
    return SyncPlan(generation, tuple(changes), options)


def _plan_document(
    file: CorpusFile, state: ManifestState, options: SyncOptions, config: str, generation: int
) -> DocumentChange:
    old = state.documents.get(file.doc_id)
    old_chunks = state.chunks.get(file.doc_id, ())
    kept = DocumentChange(
        file.doc_id, UNCHANGED, row=old, chunk_rows=old_chunks, row_changed=False
    )
    try:
        if not options.full and old is not None and old.status == STATUS_OK and (
            old.config_hash == config and old.source_sha256 == file_sha256(file.path)
        ):
            return kept
        document = read_document(file, options.password)
        split = replace(options.split, doc_id=file.doc_id)
        chunks = split_markdown(
            document.markdown, split, source=file.doc_id, source_bytes=document.source_bytes
        )
    except (ChunkcliError, OSError) as exc:
        return _failed(file, old, old_chunks, config, generation, str(exc))
    row = DocumentRow(
        file.doc_id, str(file.path), chunks[0].source_sha256 if chunks else
        hashlib.sha256(document.source_bytes).hexdigest(), config, generation, STATUS_OK,
    )
    rebuild = options.full or old is None or old.config_hash != config
    return _diff(file.doc_id, chunks, old_chunks, rebuild, row, ADDED if old is None else CHANGED)


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
    base = old or DocumentRow(file.doc_id, str(file.path), "", config, generation, STATUS_FAILED)
    row = replace(base, status=STATUS_FAILED, error=error, generation=generation)
    return DocumentChange(file.doc_id, FAILED, row=row, chunk_rows=old_chunks, error=error)


def _diff(
    doc_id: str,
    chunks: list[Chunk],
    old_chunks: tuple[ChunkRow, ...],
    rebuild: bool,
    row: DocumentRow,
    outcome: str,
) -> DocumentChange:
    """Upsert the chunks the index does not hold as they are now (a new id, or the same text
    now on other pages); delete the ids that are gone. A chunk kept keeps its manifest row:
    the row says what the index holds (its offsets refer to its own markdown_sha256)."""
    old_by_id = {c.id: c for c in old_chunks}
    new_ids = {c.id for c in chunks}
    upserts, rows = [], []
    for ordinal, chunk in enumerate(chunks):
        held = old_by_id.get(chunk.id)
        if rebuild or held is None or (held.page_start, held.page_end) != (
            chunk.page_start, chunk.page_end
        ):
            upserts.append(chunk)
            held = ChunkRow(chunk.id, doc_id, chunk.content_sha256, ordinal, chunk.start,
                            chunk.end, chunk.page_start, chunk.page_end)
        rows.append(held)
    deletes = tuple(c.id for c in old_chunks if c.id not in new_ids)
    if not upserts and not deletes and outcome == CHANGED:
        outcome = UNCHANGED  # new bytes, same chunks (a PDF re-saved): nothing to re-index
    return DocumentChange(doc_id, outcome, tuple(upserts), deletes, row, tuple(rows))

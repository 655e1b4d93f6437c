"""chunkcli JSON Lines -> LangChain `Document`s (extra: `chunkcli[langchain]`).

from chunkcli.integrations.langchain import load
documents = load("chunks.jsonl")   # page_content = the chunk's text, id = the chunk id
upserts, deleted_ids = load_changes("changes.jsonl")   # a sync changes file
apply_changes(vector_store, "changes.jsonl")           # deletes, then upserts by chunk id
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from chunkcli.integrations import metadata_of, read_changes, read_records

if TYPE_CHECKING:
    from langchain_core.documents import Document
    from langchain_core.vectorstores import VectorStore


def load(path: str | Path) -> list[Document]:
    """One Document per chunk, in file order; metadata holds pages, heading path, ids. A
    changes file with deletes raises ChunksFileError (use load_changes or apply_changes)."""
    return [_document(r) for r in read_records(path)]


def load_changes(path: str | Path) -> tuple[list[Document], list[str]]:
    """A `sync` changes file (or a split output): the Documents to upsert and the chunk ids
    to delete, in file order."""
    changes = read_changes(path)
    return [_document(r) for r in changes.upserts], changes.deletes


def apply_changes(store: VectorStore, path: str | Path) -> tuple[int, int]:
    """Bring a LangChain vector store up to date with a `sync` changes file: delete the
    deleted ids, add (or replace) the upserted Documents under their chunk ids. Returns
    (upserted, deleted). Both steps are idempotent by id, as the changes file is."""
    documents, deletes = load_changes(path)
    if deletes:
        store.delete(ids=deletes)
    if documents:
        ids = [str(d.id) for d in documents]
        store.delete(ids=ids)  # an upsert replaces: stores differ on adding an existing id
        store.add_documents(documents, ids=ids)
    return len(documents), len(deletes)


def _document(record: dict[str, object]) -> Document:
    from langchain_core.documents import Document

    return Document(
        page_content=str(record["text"]), metadata=metadata_of(record), id=str(record["id"])
    )

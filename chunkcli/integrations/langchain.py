"""chunkcli JSON Lines -> LangChain `Document`s (extra: `chunkcli[langchain]`).

from chunkcli.integrations.langchain import load
documents = load("chunks.jsonl")   # page_content = the chunk's text, id = the chunk id
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from chunkcli.integrations import metadata_of, read_records

if TYPE_CHECKING:
    from langchain_core.documents import Document


def load(path: str | Path) -> list[Document]:
    """One Document per chunk, in file order; metadata holds pages, heading path, ids."""
    from langchain_core.documents import Document

    return [
        Document(page_content=str(r["text"]), metadata=metadata_of(r), id=str(r["id"]))
        for r in read_records(path)
    ]

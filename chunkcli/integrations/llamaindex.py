"""chunkcli JSON Lines -> LlamaIndex `TextNode`s (extra: `chunkcli[llamaindex]`).

from chunkcli.integrations.llamaindex import load
nodes = load("chunks.jsonl")   # node.id_ = the chunk id, node.text = the chunk's text
upserts, deleted_ids = load_changes("changes.jsonl")   # a sync changes file
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from chunkcli.integrations import metadata_of, read_changes, read_records

if TYPE_CHECKING:
    from llama_index.core.schema import TextNode

# The text already starts with the heading path (the chunk's prefix), so no metadata is
# embedded again; the model answering sees only what helps it cite: title, path and pages.
LLM_METADATA_KEYS = frozenset({"title", "heading_path_text", "source", "page_start", "page_end"})


def load(path: str | Path) -> list[TextNode]:
    """One TextNode per chunk, in file order, with every metadata key excluded from the
    embedding text and all but title, path, source and pages excluded from the LLM's."""
    return [_node(record) for record in read_records(path)]


def load_changes(path: str | Path) -> tuple[list[TextNode], list[str]]:
    """A `sync` changes file (or a split output): the nodes to upsert and the chunk ids to
    delete (`index.delete_nodes(ids)` or the vector store's `delete_nodes`), in file order."""
    changes = read_changes(path)
    return [_node(record) for record in changes.upserts], changes.deletes


def _node(record: dict[str, object]) -> TextNode:
    from llama_index.core.schema import TextNode

    metadata = metadata_of(record)
    return TextNode(
        id_=str(record["id"]),
        text=str(record["text"]),
        metadata=metadata,
        excluded_embed_metadata_keys=sorted(metadata),
        excluded_llm_metadata_keys=sorted(set(metadata) - LLM_METADATA_KEYS),
    )

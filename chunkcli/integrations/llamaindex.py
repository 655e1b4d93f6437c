"""chunkcli JSON Lines -> LlamaIndex `TextNode`s (extra: `chunkcli[llamaindex]`).

from chunkcli.integrations.llamaindex import load
nodes = load("chunks.jsonl")   # node.id_ = the chunk id, node.text = the chunk's text
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from chunkcli.integrations import metadata_of, read_records

if TYPE_CHECKING:
    from llama_index.core.schema import TextNode

# The text already starts with the heading path (the chunk's prefix), so no metadata is
# embedded again; the model answering sees only what helps it cite: title, path and pages.
LLM_METADATA_KEYS = frozenset({"title", "heading_path_text", "source", "page_start", "page_end"})


def load(path: str | Path) -> list[TextNode]:
    """One TextNode per chunk, in file order, with every metadata key excluded from the
    embedding text and all but title, path, source and pages excluded from the LLM's."""
    from llama_index.core.schema import TextNode

    nodes = []
    for record in read_records(path):
        metadata = metadata_of(record)
        nodes.append(
            TextNode(
                id_=str(record["id"]),
                text=str(record["text"]),
                metadata=metadata,
                excluded_embed_metadata_keys=sorted(metadata),
                excluded_llm_metadata_keys=sorted(set(metadata) - LLM_METADATA_KEYS),
            )
        )
    return nodes

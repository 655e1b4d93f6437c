"""Loaders against the real langchain-core and llama-index-core."""

from __future__ import annotations

from pathlib import Path

import pytest
from llama_index.core.schema import MetadataMode, TextNode

from chunkcli.integrations import ChunksFileError, langchain, llamaindex
from chunkcli.jsonl import chunks_to_jsonl
from chunkcli.markdown_format import PageBoxes, format_page_boxes, page_crc
from chunkcli.split import SplitOptions, split_markdown

PAGE_2 = "<!-- page 2 -->\n\n## Safety\n\nDisconnect power."
# Page 2's boxes (markdown_format's trailer): the heading and the paragraph line.
BOXES = format_page_boxes(
    PageBoxes(2, page_crc(PAGE_2), ((17, 26, 72, 80, 200, 95), (28, 45, 72, 100, 300, 112)))
)
DOC = f"<!-- page 1 -->\n\n# Pump\n\nIntro.\n\n{PAGE_2}\n\n{BOXES}\n"


def chunks_file(tmp_path: Path, *, flat: bool) -> Path:
    chunks = split_markdown(DOC, SplitOptions(metadata=(("org", "acme"),)), source="pump.md")
    path = tmp_path / ("flat.jsonl" if flat else "nested.jsonl")
    path.write_text(chunks_to_jsonl(chunks, flat=flat), encoding="utf-8")
    return path


@pytest.mark.parametrize("flat", [False, True])
def test_langchain_documents_carry_text_id_pages_and_headings(tmp_path: Path, flat: bool) -> None:
    documents = langchain.load(chunks_file(tmp_path, flat=flat))
    assert [d.page_content for d in documents] == [
        "Pump\n\n# Pump\n\nIntro.\n\n",
        "Pump › Safety\n\n## Safety\n\nDisconnect power.\n",
    ]
    second = documents[1].metadata
    assert (second["page_start"], second["page_end"]) == (2, 2)
    assert second["heading_path"] == ["Pump", "Safety"] and second["org"] == "acme"
    assert second["heading_path_text"] == "Pump › Safety" and second["doc_id"] == "pump.md"
    assert documents[1].id == second["id"] and not {"text", "body", "prefix"} & set(second)
    assert second["boxes"] == '[{"page":2,"bbox":[72,80,300,112]}]'  # a JSON string
    assert "boxes" not in documents[0].metadata  # page 1 has none: left out, as flat lines do


def test_llamaindex_nodes_do_not_embed_metadata_twice(tmp_path: Path) -> None:
    nodes = llamaindex.load(chunks_file(tmp_path, flat=False))
    assert all(isinstance(n, TextNode) for n in nodes)
    node = nodes[1]
    assert node.id_ == node.metadata["id"] and node.metadata["page_start"] == 2
    assert node.metadata["boxes"] == '[{"page":2,"bbox":[72,80,300,112]}]'
    # the embedded text is exactly the chunk's text (its prefix already holds the path)
    assert node.get_content(metadata_mode=MetadataMode.EMBED) == node.text
    llm = node.get_content(metadata_mode=MetadataMode.LLM)
    assert "heading_path_text: Pump › Safety" in llm and "content_sha256" not in llm


def test_a_changes_file_loads_its_upserts_and_a_bad_line_names_its_place(tmp_path: Path) -> None:
    changes = tmp_path / "changes.jsonl"
    changes.write_text(
        '{"op": "delete", "id": "x", "doc_id": "a.md"}\n'
        + chunks_file(tmp_path, flat=True)
        .read_text("utf-8")
        .replace('{"id"', '{"op": "upsert", "id"'),
        encoding="utf-8",
    )
    with pytest.raises(ChunksFileError, match=r"changes.jsonl: a sync changes file with 1 delete"):
        langchain.load(changes)  # its upserts alone would leave "x" indexed without a word
    loaded, deleted = langchain.load_changes(changes)
    assert [d.metadata["heading_path_text"] for d in loaded] == ["Pump", "Pump › Safety"]
    assert not any("op" in d.metadata for d in loaded) and deleted == ["x"]
    nodes, deleted = llamaindex.load_changes(changes)
    assert [n.metadata["heading_path_text"] for n in nodes] == ["Pump", "Pump › Safety"]
    assert deleted == ["x"]
    (tmp_path / "bad.jsonl").write_text('{"id": "x"}\n', encoding="utf-8")
    with pytest.raises(ChunksFileError, match=r"bad.jsonl:1: not a chunkcli chunk"):
        langchain.load(tmp_path / "bad.jsonl")


def test_apply_changes_brings_a_langchain_store_up_to_date(tmp_path: Path) -> None:
    """A real in-memory vector store (langchain-core's), with its deterministic embedding."""
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.vectorstores import InMemoryVectorStore

    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
    first = chunks_file(tmp_path, flat=False)
    ids = [str(d.id) for d in langchain.load(first)]
    assert langchain.apply_changes(store, first) == (2, 0)
    assert store.get_by_ids(ids)[1].page_content.endswith("Disconnect power.\n")
    changes = tmp_path / "changes.jsonl"
    changes.write_text(
        f'{{"op": "delete", "id": "{ids[1]}", "doc_id": "pump.md"}}\n', encoding="utf-8"
    )
    assert langchain.apply_changes(store, changes) == (0, 1)
    assert [d.id for d in store.get_by_ids(ids)] == [ids[0]]
    assert langchain.apply_changes(store, first) == (2, 0)  # upserts replace: still two
    assert sorted(str(d.id) for d in store.get_by_ids(ids)) == sorted(ids)

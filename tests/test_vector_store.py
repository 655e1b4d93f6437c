"""End to end with a real embedded vector store (Chroma, in process, on disk in tmp_path):
index sync's output, revise the corpus, apply the changes, and check the store."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
from chromadb.config import Settings
from typer.testing import CliRunner

from chunkcli.cli import app

runner = CliRunner()
DIMENSIONS = 256
WITHDRAWN = "The warranty covers flood damage for ten years."
PUMP = (
    "# Pump\n\nA small pump for garden ponds.\n\n## Safety\n\nDisconnect power before service.\n\n"
    f"## Warranty\n\n{WITHDRAWN}\n\n## Install\n\nPlace the pump level on a firm base.\n"
)
FAN = "# Fan\n\nA desk fan.\n\n## Care\n\nWipe the blades with a dry cloth.\n"
HEATER = "# Heater\n\nAn oil heater.\n\n## Safety\n\nKeep curtains a metre away.\n"


def embed(text: str) -> list[float]:
    """A deterministic bag-of-words vector (hashed words): no model, no download."""
    vector = np.zeros(DIMENSIONS)
    for word in re.findall(r"\w+", text.lower()):
        vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIMENSIONS] += 1.0
    return list(vector / (np.linalg.norm(vector) or 1.0))


def sync(tmp_path: Path) -> list[dict[str, Any]]:
    changes = tmp_path / "changes.jsonl"
    result = runner.invoke(
        app,
        [
            "sync",
            str(tmp_path / "corpus"),
            "-m",
            str(tmp_path / "i.db"),
            "-o",
            str(changes),
            "--flat-metadata",
        ],
    )
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in changes.read_text("utf-8").splitlines()]


def apply(collection: Any, lines: list[dict[str, Any]], generation: int) -> None:
    """What a consumer does with a changes file: delete by id, upsert the rest (metadata as
    sync wrote it, plus the generation that wrote the row)."""
    deletes = [line["id"] for line in lines if line["op"] == "delete"]
    if deletes:
        collection.delete(ids=deletes)
    upserts = [line for line in lines if line["op"] == "upsert"]
    if upserts:
        collection.upsert(
            ids=[u["id"] for u in upserts],
            documents=[u["text"] for u in upserts],
            embeddings=[embed(u["text"]) for u in upserts],
            metadatas=[
                {k: v for k, v in u.items() if k not in ("op", "text")} | {"written_in": generation}
                for u in upserts
            ],
        )


def nearest_text(collection: Any, query: str) -> str:
    found = collection.query(query_embeddings=[embed(query)], n_results=1)
    return str(found["documents"][0][0])


def test_a_revision_applied_to_chroma_leaves_no_stale_chunk(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    for name, text in (("pump.md", PUMP), ("fan.md", FAN), ("heater.md", HEATER)):
        (root / name).write_text(text, encoding="utf-8")
    client = chromadb.PersistentClient(
        path=str(tmp_path / "chroma"), settings=Settings(anonymized_telemetry=False)
    )
    collection = client.get_or_create_collection("chunks", embedding_function=None)
    apply(collection, sync(tmp_path), generation=1)
    assert collection.count() == 8
    assert WITHDRAWN in nearest_text(collection, "flood damage warranty years")

    # the revision: the warranty is withdrawn, the fan's care text changes, the heater stays
    (root / "pump.md").write_text(PUMP.replace(f"## Warranty\n\n{WITHDRAWN}\n\n", ""), "utf-8")
    (root / "fan.md").write_text(FAN.replace("a dry cloth", "a soft brush"), "utf-8")
    lines = sync(tmp_path)
    apply(collection, lines, generation=2)

    assert collection.count() == 7
    assert WITHDRAWN not in nearest_text(collection, "flood damage warranty years")
    assert collection.get(where_document={"$contains": "flood damage"})["ids"] == []
    rows = collection.get(include=["metadatas"])
    rewritten = sorted(
        (str(m["doc_id"]), str(m["heading_path_text"]))
        for m in rows["metadatas"]
        if m["written_in"] == 2
    )
    assert rewritten == [("fan.md", "Fan › Care")]  # the pump lost a section, gained none
    assert sum(1 for line in lines if line["op"] == "upsert") == 1
    assert sum(1 for m in rows["metadatas"] if m["written_in"] == 1) == 6


def test_a_figure_chunk_loads_into_chroma_with_its_images(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    figure = (
        "<!-- figure -->\n\nFigure 1. Heater parts\n\n![Figure 1. Heater parts](img/h-p1-1.png)"
        "\n\n<!-- figure words: ocr conf=0.90 engine=tesseract -->\n\nFin Oil Switch\n\n"
        "<!-- /figure -->\n"
    )
    (root / "heater.md").write_text(HEATER + "\n" + figure, encoding="utf-8")
    client = chromadb.PersistentClient(
        path=str(tmp_path / "chroma"), settings=Settings(anonymized_telemetry=False)
    )
    collection = client.get_or_create_collection("chunks", embedding_function=None)
    apply(collection, sync(tmp_path), generation=1)
    rows = collection.get(include=["metadatas", "documents"])
    with_images = [
        (m["images"], "Fin Oil Switch" in d)
        for m, d in zip(rows["metadatas"], rows["documents"], strict=True)
        if "images" in m
    ]
    assert with_images == [(["img/h-p1-1.png"], True)]
    assert collection.count() == 2

"""Chunk identity across revisions: ids from doc id, config, heading path and text (not
offsets), doc_revision / markdown_sha256 / content_sha256, default doc ids, flat metadata."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chunkcli.cli import app
from chunkcli.errors import UsageError
from chunkcli.inputs import read_documents
from chunkcli.jsonl import check_flat_metadata, chunk_to_dict, chunk_to_flat_dict
from chunkcli.model import Chunk, InputDocument
from chunkcli.split import SplitOptions, split_markdown

runner = CliRunner()
DOC = (
    "# Pump\n\nIntro text.\n\n## Safety\n\nDisconnect power first.\n\n"
    "## Install\n\nPlace it level.\n\n## Care\n\nWipe it dry.\n"
)


def split(markdown: str, **options: object) -> list[Chunk]:
    return split_markdown(markdown, SplitOptions(**options), source="pump.md")  # type: ignore[arg-type]


def test_an_edit_in_one_section_changes_only_that_sections_id() -> None:
    before = split(DOC)
    after = split(DOC.replace("Place it level.", "Place it level on a firm floor, then bolt it."))
    assert [c.heading_path for c in before] == [
        ("Pump",),
        ("Pump", "Safety"),
        ("Pump", "Install"),
        ("Pump", "Care"),
    ]
    changed = [a.heading_path for a, b in zip(after, before, strict=True) if a.id != b.id]
    assert changed == [("Pump", "Install")]
    # offsets of the later section moved, its id did not
    assert after[3].start != before[3].start and after[3].id == before[3].id


def test_ids_depend_on_doc_id_and_split_config_and_repeats_get_distinct_ids() -> None:
    base = split(DOC)
    assert [c.id for c in split(DOC, doc_id="other")] != [c.id for c in base]
    assert [c.id for c in split(DOC, max_tokens=500)] != [c.id for c in base]
    repeated = split("# T\n\nIntro.\n\n## A\n\nSame.\n\n## A\n\nSame.\n\n## B\n\nEnd.\n")
    assert [c.text for c in repeated][1] == [c.text for c in repeated][2]
    assert len({c.id for c in repeated}) == 4


def test_revision_and_content_hashes_on_every_chunk() -> None:
    pdf_bytes = b"%PDF- pretend source"
    revision = hashlib.sha256(pdf_bytes).hexdigest()
    chunks = split_markdown(DOC, SplitOptions(), source="in/pump.pdf", source_sha256=revision)
    record = chunk_to_dict(chunks[1])
    assert record["doc_id"] == "pump.pdf"  # the library default: the source's file name
    assert record["doc_revision"] == record["source_sha256"] == revision
    assert record["markdown_sha256"] == hashlib.sha256(DOC.encode()).hexdigest()
    assert record["content_sha256"] == hashlib.sha256(str(record["text"]).encode()).hexdigest()


def test_default_doc_id_is_the_path_relative_to_the_folder_given(tmp_path: Path) -> None:
    (tmp_path / "corpus" / "manuals").mkdir(parents=True)
    (tmp_path / "corpus" / "manuals" / "pump.md").write_text(DOC, encoding="utf-8")
    (tmp_path / "corpus" / "a.md").write_text(DOC, encoding="utf-8")
    found = read_documents([str(tmp_path / "corpus"), str(tmp_path / "corpus" / "a.md")])
    documents = [d for d in found if isinstance(d, InputDocument)]
    assert [(Path(d.path).relative_to(tmp_path).as_posix(), d.doc_id) for d in documents] == [
        ("corpus/a.md", "a.md"),
        ("corpus/manuals/pump.md", "manuals/pump.md"),
        ("corpus/a.md", "a.md"),  # given by name: its file name
    ]
    result = runner.invoke(app, ["split", str(tmp_path / "corpus")])
    assert result.exit_code == 0, result.output
    doc_ids = [json.loads(line)["doc_id"] for line in result.stdout.splitlines()]
    assert sorted(set(doc_ids)) == ["a.md", "manuals/pump.md"]


def test_flat_metadata_has_no_nested_object_and_no_null() -> None:
    options = SplitOptions(metadata=(("org", "acme"),))
    chunk = split_markdown("No heading at all.\n", options, source="-")[0]
    flat = chunk_to_flat_dict(chunk)
    assert chunk.page_start is None and chunk.heading_path == ()  # null and [] are left out
    assert list(flat) == [
        "id",
        "doc_id",
        "doc_revision",
        "source",
        "source_sha256",
        "markdown_sha256",
        "title",
        "heading_path_text",
        "kind",
        "prefix",
        "body",
        "text",
        "content_sha256",
        "start",
        "end",
        "tokens",
        "oversize",
        "split_config_version",
        "split_max_tokens",
        "split_min_tokens",
        "split_overlap_sentences",
        "split_encoding",
        "split_on",
        "org",
    ]
    assert all(isinstance(v, str | int | float | bool | list) for v in flat.values())
    assert flat["split_config_version"] == chunk.split_config["version"] and flat["org"] == "acme"


def test_flat_heading_path_stays_a_list_and_is_joined_as_text() -> None:
    flat = chunk_to_flat_dict(split(DOC)[1])
    assert flat["heading_path"] == ["Pump", "Safety"]
    assert flat["heading_path_text"] == "Pump › Safety"


def test_a_meta_key_that_clashes_with_a_flat_field_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="'split_max_tokens' is a chunk field"):
        check_flat_metadata((("split_max_tokens", "1"),), SplitOptions().config())
    source = tmp_path / "pump.md"
    source.write_text(DOC, encoding="utf-8")
    result = runner.invoke(app, ["split", str(source), "--flat-metadata", "--meta", "title=x"])
    assert result.exit_code == 2 and "'title' is a chunk field" in result.output
    ok = runner.invoke(app, ["split", str(source), "--flat-metadata", "--meta", "org=acme"])
    assert ok.exit_code == 0, ok.output
    records = [json.loads(line) for line in ok.stdout.splitlines()]
    assert [r["org"] for r in records] == ["acme"] * 4
    assert not any(isinstance(v, dict) for r in records for v in r.values())

"""The split command, JSON Lines, atomic writes and page specs."""

from __future__ import annotations

import json
import weakref
from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest
from typer.testing import CliRunner

from chunkcli.cli import app
from chunkcli.errors import UsageError
from chunkcli.jsonl import (
    CHUNK_FIELDS,
    chunk_from_dict,
    chunk_to_dict,
    chunks_to_jsonl,
    read_jsonl,
    write_atomic,
)
from chunkcli.pagespec import parse_page_spec
from chunkcli.split import SplitOptions, split_markdown

runner = CliRunner()
MANUAL = "# Pump\n\nIntro.\n\n## Safety\n\nDisconnect power.\n\n## 設置\n\n水平に置く。\n"


def lines_of(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def test_split_file_writes_one_json_object_per_chunk_to_stdout(tmp_path: Path) -> None:
    source = tmp_path / "manual.md"
    source.write_text(MANUAL, encoding="utf-8")
    result = runner.invoke(app, ["split", str(source), "--meta", "org=acme", "--meta", "scope=x"])
    assert result.exit_code == 0, result.output
    records = lines_of(result.stdout)
    assert [r["heading_path"] for r in records] == [["Pump"], ["Pump", "Safety"], ["Pump", "設置"]]
    assert all(r["metadata"] == {"org": "acme", "scope": "x"} for r in records)
    assert list(records[0]) == list(CHUNK_FIELDS)
    assert all(r["text"] == r["prefix"] + r["body"] for r in records)
    assert all(MANUAL[r["start"] : r["end"]] == r["body"] for r in records)  # type: ignore[misc]
    assert "設置" in result.stdout, "non-ASCII is written as is"


def test_split_options_reach_the_chunks(tmp_path: Path) -> None:
    source = tmp_path / "manual.md"
    source.write_text(MANUAL, encoding="utf-8")
    args = [
        "split",
        str(source),
        "--max-tokens",
        "50",
        "--title",
        "T",
        "--doc-id",
        "d1",
        "--split-on",
        "h3",
        "--overlap-sentences",
        "0",
        "--min-tokens",
        "5",
    ]
    records = lines_of(runner.invoke(app, args).stdout)
    assert {r["doc_id"] for r in records} == {"d1"} and records[0]["title"] == "T"
    config = records[0]["split_config"]
    assert isinstance(config, dict)
    assert (config["max_tokens"], config["split_on"], config["min_tokens"]) == (50, "h3", 5)


def test_split_stdin_and_output_file_is_written_atomically(tmp_path: Path) -> None:
    output = tmp_path / "chunks.jsonl"
    result = runner.invoke(app, ["split", "-", "-o", str(output)], input=MANUAL)
    assert result.exit_code == 0, result.output
    records = lines_of(output.read_text(encoding="utf-8"))
    assert len(records) == 3 and records[0]["source"] == "-"
    assert "wrote 3 chunks" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["chunks.jsonl"], "no temporary file left"


def test_folder_mode_reads_markdown_in_path_order_and_skips_the_output(tmp_path: Path) -> None:
    (tmp_path / "b.md").write_text("# B\n\nb text\n", encoding="utf-8")
    (tmp_path / "a.md").write_text("# A\n\na text\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.md").write_text("# C\n\nc text\n", encoding="utf-8")
    output = tmp_path / "chunks.jsonl"
    output.write_text("old\n", encoding="utf-8")
    for _ in range(2):  # the second run must not read the first run's output
        result = runner.invoke(app, ["split", str(tmp_path), "-o", str(output)])
        assert result.exit_code == 0, result.output
    records = lines_of(output.read_text(encoding="utf-8"))
    assert [r["title"] for r in records] == ["A", "B", "C"]
    assert records[0]["source"] == str(tmp_path / "a.md")


def test_a_pdf_is_converted_first_with_the_page_selection(tmp_path: Path) -> None:
    pdf = tmp_path / "report.pdf"
    document = pymupdf.open()
    topics = ("Alpha valves open slowly.", "Bravo pumps need oil.", "Charlie seals wear out.")
    for topic in topics:  # distinct text: a line repeated on every page is dropped as furniture
        page = document.new_page()
        for line in range(3):
            page.insert_text((72, 300 + 14 * line), f"{topic} Line {line}.", fontsize=11)
    document.save(str(pdf))
    result = runner.invoke(app, ["split", str(pdf), "--pages", "2-3"])
    assert result.exit_code == 0, result.output
    records = lines_of(result.stdout)
    text = "".join(str(r["body"]) for r in records)
    assert "Bravo" in text and "Charlie" in text and "Alpha" not in text
    assert records[0]["page_start"] == 2 and records[-1]["page_end"] == 3
    assert records[0]["source"] == str(pdf)


@pytest.mark.parametrize(
    ("args", "message", "code"),
    [
        (["missing.md"], "missing.md: no such file", 2),
        (["BAD"], "not UTF-8", 1),
        (["GOOD", "--meta", "novalue"], "KEY=VALUE", 2),
        (["GOOD", "--pages", "3-1"], "runs backwards", 2),
        (["GOOD", "--split-on", "h5"], "--split-on", 2),
        (["GOOD", "--max-tokens", "8"], "at least 16", 2),
        (["GOOD", "--encoding", "nope_base"], "TIKTOKEN_CACHE_DIR", 1),
        (["GOOD", "-o", "GOOD/out.jsonl"], "GOOD/out.jsonl: cannot write", 1),
    ],
)
def test_bad_input_is_one_line_and_no_output_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str, code: int
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("BAD").write_bytes(b"\xff\xfe not utf-8")
    Path("GOOD").write_text(MANUAL, encoding="utf-8")
    output = [] if "-o" in args else ["-o", "out.jsonl"]
    result = runner.invoke(app, ["split", *args, *output])
    assert result.exit_code == code
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not Path("out.jsonl").exists()


def test_chunk_dict_round_trip_and_jsonl() -> None:
    chunks = split_markdown(MANUAL, SplitOptions(max_tokens=50), source="m.md")
    for chunk in chunks:
        data = chunk_to_dict(chunk)
        assert tuple(data) == CHUNK_FIELDS and data["text"] == chunk.text
        assert chunk_from_dict(json.loads(json.dumps(data))) == chunk
    assert read_jsonl(chunks_to_jsonl(chunks)) == chunks


def test_lines_are_what_json_dumps_writes_for_every_field_shape() -> None:
    """The line writer joins each value's JSON and reuses the fields chunks share: its lines
    must be json.dumps(chunk_to_dict(chunk), ensure_ascii=False), whatever the values."""
    from dataclasses import replace

    from chunkcli.model import ItemFields, PageBox

    chunks = split_markdown(MANUAL + '\n## "Q" \\ \u2028\x01\n\nText 😀.\n', SplitOptions(
        max_tokens=50, metadata=(("org", "a\"b"),)), source="m.md")  # fmt: skip
    first = chunks[0]
    varied = [
        *chunks,
        replace(first, boxes=(PageBox(2, (1, 2, 3, 4)), PageBox(3, (0, 0, 9, 9)))),
        replace(first, ocr_confidence=0.875, page_start=3, page_end=4, oversize=True),
        *(replace(first, ocr_confidence=value) for value in (0.1, 1e-07, 1e16, 1.0, -0.0)),
        replace(first, ocr_confidence=float("nan")),
        replace(first, boxes=(PageBox(2, (1, 2, 3, 4)), PageBox(3, (True, 0, 9, 9)))),
        replace(first, boxes=(PageBox(-1, (10**20, 2, 3, 4)),)),
        replace(first, item=ItemFields("notice", "2024-01", None, 7)),
        replace(first, split_config={"max_tokens": True}),  # equal to 1, written as true
        replace(first, split_config={"max_tokens": 1}),
        replace(first, doc_id="other", title="T\u00e9", metadata={}),
        replace(first, heading_path=()),
    ]
    expected = "".join(json.dumps(chunk_to_dict(c), ensure_ascii=False) + "\n" for c in varied)
    assert chunks_to_jsonl(varied) == expected


def test_the_chunk_stream_makes_split_markdowns_chunks_one_at_a_time() -> None:
    from chunkcli.split.run import chunk_stream

    options = SplitOptions(max_tokens=50)
    stream = chunk_stream(MANUAL, options, source="m.md")
    first = next(stream)
    assert [first, *stream] == split_markdown(MANUAL, options, source="m.md")


def test_write_atomic_replaces_whole_and_leaves_the_old_file_on_error(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    write_atomic(target, "first")
    write_atomic(target, "second ✓")
    assert target.read_text(encoding="utf-8") == "second ✓"

    with pytest.raises(TypeError):
        write_atomic(target, 42)  # type: ignore[arg-type]
    assert target.read_text(encoding="utf-8") == "second ✓"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_parse_page_spec() -> None:
    assert parse_page_spec("3-7,9") == (3, 4, 5, 6, 7, 9)
    assert parse_page_spec(" 2 , 1-2 ") == (1, 2)
    assert parse_page_spec("99998-")[:3] == (99998, 99999, 100000)  # open: to the last page
    assert parse_page_spec("2-,1")[:2] == (1, 2)
    for bad in ("", "0", "0-", "7-3", "a", "1,,2", "-3"):
        with pytest.raises(UsageError):
            parse_page_spec(bad)


def test_split_is_in_the_help_and_the_docs() -> None:
    result = runner.invoke(app, ["split", "--help"])
    assert result.exit_code == 0
    for flag in (
        "--max-tokens",
        "--min-tokens",
        "--overlap-sentences",
        "--encoding",
        "--title",
        "--doc-id",
        "--meta",
        "--split-on",
        "--pages",
        "--password",
        "--output",
    ):
        assert flag in result.output
    docs = Path(__file__).resolve().parent.parent / "docs"
    page = (docs / "split.md").read_text(encoding="utf-8")
    assert "chunkcli split" in page and "--min-tokens" in page


def test_the_cli_chain_frees_each_document_before_it_is_split() -> None:
    """print_warnings -> chunk_streams (the CLI's chain) hold no reference to a document while
    it is split: its whole text, convert's boxes trailer and all, can be freed, and only the
    text without the trailer is held (a 5 MB document's peak: 13 MB less; docs/split.md)."""
    from chunkcli.cli.common import print_warnings
    from chunkcli.model import InputDocument, InputFailure
    from chunkcli.split.documents import chunk_streams

    class Tracked(InputDocument):  # (a subclass without slots can be weakly referenced)
        pass

    body = "## Pumps\n\nCheck the seals weekly.\n\n## Valves\n\nGrease them monthly."
    markdown = f"# Notes\n\n{body}\n\n<!-- boxes page=1 crc=00000000 0,4,0,0,1,1 -->\n"
    seen: list[weakref.ref[Tracked]] = []

    def tracked() -> Tracked:
        document = Tracked("notes.md", "notes.md", "0" * 64, markdown)
        seen.append(weakref.ref(document))
        return document

    def read() -> Iterator[Tracked]:  # (as read_inputs yields: keeping no reference)
        yield tracked()

    streams = chunk_streams(print_warnings(read(), quiet=True), SplitOptions())
    stream = next(streams)  # (planned: the chain is suspended, as the CLI writes the chunks)
    assert seen[0]() is None
    assert not isinstance(stream, InputFailure)
    chunks = list(stream)
    assert chunks == split_markdown(markdown, source="notes.md", source_sha256="0" * 64)
    assert "".join(chunk.body for chunk in chunks) == f"# Notes\n\n{body}\n"  # (no trailer)

"""The engine-free unit of distributed work: bytes in, rows out (no Ray needed)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from pdf_factory import Text, make_pdf, wrapped_paragraph

from chunkcli.convert.pipeline import ConvertOptions, convert_pdf
from chunkcli.distributed.rows import (
    ChunkRows,
    ConvertJob,
    ErrorRow,
    MarkdownRow,
    SplitJob,
    convert_document,
    split_document,
)
from chunkcli.errors import PdfOpenError
from chunkcli.inputs import InputFile, ReadOptions, read_documents
from chunkcli.jsonl import chunk_to_json
from chunkcli.model import Chunk
from chunkcli.split import SplitOptions
from chunkcli.split.documents import split_documents
from chunkcli.workers import WorkerPool


def split_sources(paths: list[str], options: SplitOptions) -> list[Chunk]:
    """The local run's chunks (jobs=1: in this process)."""
    results = split_documents(read_documents(paths, ReadOptions(pool=WorkerPool(1))), options)
    return [chunk for result in results if isinstance(result, list) for chunk in result]


SAMPLES = Path(__file__).resolve().parent.parent / "samples"
BODY = "Beech forests shade the ground so deeply that few flowers grow beneath them in summer."


def report_pdf(path: Path) -> Path:
    return make_pdf(path, [[Text(72, 90, "Beech woods", size=20, font="hebo"),
                            *wrapped_paragraph(72, 140, 420, BODY)]])  # fmt: skip


def test_convert_pdf_from_bytes_and_stream_equals_from_path() -> None:
    pdf = SAMPLES / "continued_table.pdf"
    from_path = convert_pdf(pdf).markdown
    assert convert_pdf(pdf.read_bytes(), name=pdf).markdown == from_path
    assert convert_pdf(io.BytesIO(pdf.read_bytes()), name=pdf).markdown == from_path
    assert convert_pdf(pdf.read_bytes()).document.source == "<bytes>"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "empty file (0 bytes)"),
        (b"hello\n", "not a PDF: looks like a text file: 'hello'"),
        (b"%PDF-1.7\n" + b"x" * 40, "damaged or truncated: MuPDF cannot read it as a PDF"),
    ],
)
def test_errors_from_bytes_name_the_original_path(data: bytes, reason: str) -> None:
    with pytest.raises(PdfOpenError) as caught:
        convert_pdf(data, name="s3://bucket/reports/q3.pdf")
    assert str(caught.value) == f"s3://bucket/reports/q3.pdf: {reason}"


def test_split_document_of_pdf_bytes_equals_the_local_split(tmp_path: Path) -> None:
    pdf = report_pdf(tmp_path / "beech.pdf")
    options = SplitOptions(max_tokens=64)
    result = split_document(InputFile(str(pdf), True), pdf.read_bytes(), SplitJob(options))
    local = split_sources([str(pdf)], options)
    assert isinstance(result, ChunkRows)
    assert result.source == str(pdf)
    assert [chunk_to_json(c) for c in result.chunks] == [chunk_to_json(c) for c in local]
    assert [c.heading_path for c in result.chunks] == [("Beech woods",)]


def test_split_document_of_markdown_bytes() -> None:
    markdown = "# Title\n\n## One\n\nFirst part.\n\n## Two\n\nSecond part.\n"
    result = split_document(InputFile("notes/a.md", False), markdown.encode(), SplitJob())
    assert isinstance(result, ChunkRows)
    assert [c.heading_path for c in result.chunks] == [("Title", "One"), ("Title", "Two")]
    assert [c.body for c in result.chunks] == [
        "# Title\n\n## One\n\nFirst part.\n\n",
        "## Two\n\nSecond part.\n",
    ]
    assert {c.source for c in result.chunks} == {"notes/a.md"}


def test_a_broken_file_is_one_error_row() -> None:
    data = (SAMPLES / "outline.pdf").read_bytes()[:3000]
    assert split_document(InputFile("in/broken.pdf", True), data, SplitJob()) == ErrorRow(
        "in/broken.pdf", "in/broken.pdf: damaged or truncated: MuPDF cannot read it as a PDF"
    )
    latin1 = "caf\xe9".encode("latin-1")
    assert split_document(InputFile("in/latin1.md", False), latin1, SplitJob()) == ErrorRow(
        "in/latin1.md", "in/latin1.md: not UTF-8 text (bad byte at offset 3)"
    )
    assert convert_document("x.pdf", b"GIF89a", ConvertJob()) == ErrorRow(
        "x.pdf", "x.pdf: not a PDF: looks like a GIF image"
    )


def test_a_page_selection_outside_the_file_is_an_error_row(tmp_path: Path) -> None:
    pdf = report_pdf(tmp_path / "one.pdf")
    job = ConvertJob(ConvertOptions(pages=(5,)))
    assert convert_document("one.pdf", pdf.read_bytes(), job) == ErrorRow(
        "one.pdf", "one.pdf: --pages selects none of its 1 pages"
    )


def test_convert_document_row_matches_convert_pdf() -> None:
    pdf = SAMPLES / "blank_and_scanned.pdf"
    row = convert_document("blank_and_scanned.pdf", pdf.read_bytes(), ConvertJob())
    result = convert_pdf(pdf)
    assert isinstance(row, MarkdownRow)
    assert row.markdown == result.markdown
    assert (row.outcome.pages, row.outcome.blank, row.outcome.image_only) == (
        len(result.pages),
        result.blank_pages,
        result.image_only_pages,
    )
    assert row.outcome.warnings == ()


def test_split_rows_round_trip_to_the_same_json_lines() -> None:
    pytest.importorskip("pyarrow")
    import pyarrow as pa

    from chunkcli.distributed.ray_engine import row_to_json, split_rows, split_schema

    options = SplitOptions(max_tokens=40, metadata=(("team", "ops"), ("lang", "ja")))
    for pdf in sorted(SAMPLES.glob("*.pdf")):
        result = split_document(InputFile(pdf.name, True), pdf.read_bytes(), SplitJob(options))
        assert isinstance(result, ChunkRows)
        table = pa.Table.from_pylist(split_rows(7, result), schema=split_schema())
        rows = table.to_pylist()
        assert [r["chunk_index"] for r in rows] == list(range(len(result.chunks)))
        assert {r["order"] for r in rows} == {7}
        assert [row_to_json(r) for r in rows] == [chunk_to_json(c) for c in result.chunks]
        assert json.loads(rows[0]["metadata"]) == {"team": "ops", "lang": "ja"}

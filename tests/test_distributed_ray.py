"""--engine ray on a local Ray cluster (started once per test session): the same output as the
local run, and a broken PDF is an error row that does not fail the job."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pdf_factory import Text, make_pdf, wrapped_paragraph
from typer.testing import CliRunner

from chunkcli.cli import app
from chunkcli.convert.pipeline import convert_pdf
from chunkcli.inputs import InputFile, ReadOptions, find_inputs, read_documents
from chunkcli.jsonl import chunks_to_jsonl
from chunkcli.model import Chunk
from chunkcli.split.documents import split_documents
from chunkcli.workers import WorkerPool

pytest.importorskip("ray")
pytestmark = pytest.mark.slow

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
BROKEN_ERROR = "damaged or truncated: MuPDF cannot read it as a PDF"
runner = CliRunner()


@pytest.fixture(scope="session")
def ray_session() -> Iterator[Any]:
    """One local cluster for the whole session: every --engine ray call below reuses it."""
    from chunkcli.distributed.ray_engine import RaySettings, ray_cluster

    with ray_cluster(RaySettings(pool=WorkerPool(2))) as ray:
        yield ray


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The samples, two generated PDFs (one in a subfolder) and a truncated PDF."""
    folder = tmp_path_factory.mktemp("corpus")
    for pdf in sorted(SAMPLES.glob("*.pdf")):
        shutil.copy(pdf, folder / pdf.name)
    for name, title in (("alder.pdf", "Alder"), ("sub/yew.pdf", "Yew")):
        (folder / name).parent.mkdir(exist_ok=True)
        text = f"{title} grows by rivers and its wood resists water for a very long time."
        make_pdf(folder / name, [[Text(72, 90, title, size=20, font="hebo"),
                                  *wrapped_paragraph(72, 140, 420, text)]])  # fmt: skip
    (folder / "broken.pdf").write_bytes((SAMPLES / "outline.pdf").read_bytes()[:3000])
    return folder


def good_sources(corpus: Path) -> list[str]:
    return [f.path for f in find_inputs([str(corpus)]) if not f.path.endswith("broken.pdf")]


def split_sources(paths: list[str], options: Any) -> list[Chunk]:
    """The local run's chunks (jobs=1: in this process)."""
    results = split_documents(read_documents(paths, ReadOptions(pool=WorkerPool(1))), options)
    return [chunk for result in results if isinstance(result, list) for chunk in result]


def test_split_on_ray_writes_the_local_runs_lines(
    ray_session: Any, corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "chunks.jsonl"
    result = runner.invoke(
        app, ["split", str(corpus), "--engine", "ray", "-o", str(out), "--max-tokens", "120"]
    )
    local = chunks_to_jsonl(split_sources(good_sources(corpus), _options(max_tokens=120)))
    assert result.exit_code == 1
    assert out.read_text(encoding="utf-8") == local
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"error: {corpus / 'broken.pdf'}: {BROKEN_ERROR}",
        f"wrote {local.count(chr(10))} chunks to {out}",
    ]


def test_convert_on_ray_writes_the_local_runs_files(
    ray_session: Any, corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "md"
    result = runner.invoke(app, ["convert", str(corpus), "--engine", "ray", "-o", f"{out}/"])
    assert result.exit_code == 1
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.md"))
    expected = sorted(
        Path(s).relative_to(corpus).with_suffix(".md").as_posix() for s in good_sources(corpus)
    )
    assert written == expected
    for name in expected:
        pdf = (corpus / name).with_suffix(".pdf")
        assert (out / name).read_text(encoding="utf-8") == convert_pdf(pdf).markdown, name
    assert f"  {corpus / 'broken.pdf'}: {BROKEN_ERROR}" in result.stderr.splitlines()
    assert result.stderr.startswith(f"converted {len(expected)} of {len(expected) + 1} PDFs: ")


def test_split_to_parquet_sorts_back_to_the_local_lines(
    ray_session: Any, corpus: Path, tmp_path: Path
) -> None:
    import pyarrow.parquet as pq

    from chunkcli.distributed.ray_engine import RaySettings, row_to_json, split_to_parquet
    from chunkcli.distributed.rows import SplitJob

    # Two files keep it short: this test is about the Parquet layout, the others about output.
    sources = [str(corpus / "broken.pdf"), str(corpus / "alder.pdf")]
    files = [InputFile(source, True) for source in sources]
    errors = split_to_parquet(files, SplitJob(), RaySettings(), str(tmp_path / "pq"))
    assert errors == (f"{corpus / 'broken.pdf'}: {BROKEN_ERROR}",)
    rows = pq.read_table(tmp_path / "pq" / "chunks").to_pylist()
    rows.sort(key=lambda row: (row["order"], row["chunk_index"]))
    local = chunks_to_jsonl(split_sources(sources[1:], _options()))
    assert "".join(row_to_json(row) + "\n" for row in rows) == local
    error_rows = pq.read_table(tmp_path / "pq" / "errors").to_pylist()
    assert error_rows == [{"order": 0, "source": sources[0], "error": errors[0]}]


def _options(**values: Any) -> Any:
    from chunkcli.split import SplitOptions

    return SplitOptions(**values)

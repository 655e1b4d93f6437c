"""check runs each PDF's checks in the worker that converted it (read_inputs_through): the
reports equal those of checking the kept conversions in this process, in input order."""

from __future__ import annotations

import functools
from pathlib import Path

from pdf_factory import Text, grid_table, make_pdf

from chunkcli.check.corpus import check_documents, check_input
from chunkcli.check.options import CheckOptions
from chunkcli.inputs import InputFile, ReadOptions, find_inputs, read_inputs, read_inputs_through
from chunkcli.workers import WorkerPool


def corpus(tmp_path: Path) -> list[InputFile]:
    folder = tmp_path / "corpus"
    folder.mkdir()
    make_pdf(folder / "a.pdf", [[Text(72, 100, "Intro", size=18), Text(72, 140, "Some text.")]])
    rows = [["Model", "Volts"], ["PS-100", "5"], ["PS-200", "12"]]
    make_pdf(folder / "b.pdf", [grid_table(72.0, 100.0, (120.0, 120.0), 20.0, rows)])
    (folder / "c.md").write_text("# Title\n\nA paragraph of text.\n", encoding="utf-8")
    (folder / "d.pdf").write_bytes(b"%PDF-1.4 not really")
    return find_inputs([str(folder)])


def test_reports_from_workers_equal_reports_made_here(tmp_path: Path) -> None:
    files = corpus(tmp_path)
    options = CheckOptions()
    check_one = functools.partial(check_input, options=options)
    here = ReadOptions(pool=WorkerPool(1), keep_documents=True)
    expected = list(check_documents(read_inputs(files, here), options))
    for jobs in (1, 2):
        read = ReadOptions(pool=WorkerPool(jobs))
        assert list(read_inputs_through(files, check_one, read)) == expected
    # (a few words a page are almost empty; d.pdf is no PDF: its failure comes from the worker)
    assert [(Path(r.source).name, [i.code for i in r.issues]) for r in expected] == [
        ("a.pdf", ["document.almost-empty"]),
        ("b.pdf", ["document.almost-empty"]),
        ("c.md", ["document.almost-empty"]),
        ("d.pdf", ["document.unreadable"]),
    ]

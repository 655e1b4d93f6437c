"""The one-way data flow, enforced on the source: who may import whom.

- The CLI alone imports typer and rich (tests/test_cli_convert.py).
- split and check read documents through `chunkcli.inputs`: neither imports the convert
  pipeline nor the batch runner, so a PDF given to them is converted in the worker pool with
  its time limit, exactly as `convert` converts it.
- convert's stages never import split, and split never imports convert's stages.
- Only `markdown_format` spells the page markers: no other module writes the pattern.
- The line index (`markdown_index`) imports only `markdown_format` and `model` of chunkcli; it
  and the line readers of split and check import no converter, input layer or batch runner.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "chunkcli"
CONVERT_STAGES = ("chunkcli.extract", "chunkcli.layout", "chunkcli.tables", "chunkcli.render",
                  "chunkcli.vertical", "chunkcli.pipeline", "chunkcli.batch")  # fmt: skip


def full_imports(path: Path) -> set[str]:
    """Every module `path` imports, at any depth (imports inside functions count too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def files_of(package: str) -> list[Path]:
    return sorted((PACKAGE / package).rglob("*.py"))


def importers_of(files: list[Path], targets: tuple[str, ...]) -> dict[str, list[str]]:
    hits = {}
    for path in files:
        bad = sorted(m for m in full_imports(path) if m.startswith(targets))
        if bad:
            hits[path.relative_to(PACKAGE).as_posix()] = bad
    return hits


@pytest.mark.parametrize("package", ["split", "check"])
def test_split_and_check_read_through_the_input_layer(package: str) -> None:
    assert importers_of(files_of(package), ("chunkcli.pipeline", "chunkcli.batch")) == {}


def test_split_never_imports_convert_stages() -> None:
    assert importers_of(files_of("split"), CONVERT_STAGES) == {}


def test_convert_stages_never_import_split_or_check() -> None:
    stages = [PACKAGE / f"{name.split('.')[1]}.py" for name in CONVERT_STAGES]
    files = [p for p in stages if p.exists()] + files_of("layout") + files_of("tables")
    assert importers_of(files, ("chunkcli.split", "chunkcli.check")) == {}


def test_only_markdown_format_spells_page_markers() -> None:
    writer, reader = "<!-- page {", r"<!--\s*page"  # a format string and a pattern
    spelled = [
        path.relative_to(PACKAGE).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if writer in (text := path.read_text(encoding="utf-8")) or reader in text
    ]
    assert spelled == ["markdown_format.py"]


def test_the_cli_imports_pymupdf_without_its_layout_model() -> None:
    import subprocess
    import sys

    code = (
        "import sys, chunkcli.cli, pymupdf;"
        "lean = 'pymupdf.layout' not in sys.modules and 'onnxruntime' not in sys.modules;"
        "import pymupdf4llm;"  # still importable on request
        "print(lean, sys.modules['pymupdf4llm'] is not None)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True"]


def test_converting_a_text_pdf_loads_no_ocr_runner() -> None:
    """The OCR runner and numpy (~0.1 s of CPU at start-up) load only when a page needs OCR
    (PyMuPDF imported as the CLI imports it: its layout model would bring numpy itself)."""
    import subprocess
    import sys

    code = (
        "import sys; from chunkcli import lean_import; lean_import.install(); import pymupdf;"
        "doc = pymupdf.open(); doc.new_page().insert_text((72, 72), 'Hello world');"
        "import chunkcli.cli.common as cli, chunkcli.batch as batch;"
        "from chunkcli.pipeline import ConvertOptions;"
        "options = cli.with_ocr(ConvertOptions(), 'auto', 'auto', 200, 1, 'tesseract');"
        "md = batch.convert_pdf(doc.tobytes(), options).markdown;"
        "heavy = {'numpy', 'chunkcli.ocr.read', 'chunkcli.ocr.rapidocr', 'importlib.metadata'};"
        "print('Hello world' in md, sorted(heavy & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True []"


# The modules that read Markdown lines: the shared index and split's and check's readers of it.
LINE_READERS = ("markdown_index.py", "check/scan.py", "split/scan.py", "split/blocks.py",
                "split/lines.py", "split/parser_rules.py", "split/simple_lines.py",
                "split/heading_runs.py")  # fmt: skip


def test_the_line_index_reads_only_the_format_and_the_model() -> None:
    imports = full_imports(PACKAGE / "markdown_index.py")
    assert {m for m in imports if m.startswith("chunkcli")} <= {
        "chunkcli.markdown_format",
        "chunkcli.model",
    }


def test_line_readers_import_no_converter_input_layer_or_batch_runner() -> None:
    files = [PACKAGE / name for name in LINE_READERS]
    targets = ("chunkcli.convert", "chunkcli.inputs", "chunkcli.batch")
    assert importers_of(files, targets) == {}

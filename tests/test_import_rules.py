"""The one-way data flow, enforced on the source: who may import whom.

The rules name packages, not modules, so a module added to a stage is covered without a list
to keep up to date:
- split and check never import convert, the input layer (`chunkcli.inputs`) or the batch
  runner: a PDF given to them is converted by the input layer in the worker pool, with its
  time limit, exactly as `convert` converts it.
- convert never imports split, check, the input layer, the batch runner or anything above it.
- eval reads documents only through the input layer, never convert, batch or the workers.
- No import cycle among chunkcli's modules, imports inside functions counted.
- chunkcli's own modules are imported at the top of a module; only the CLI's commands import
  their stage when they run (so that `chunkcli --help` stays cheap).
- No module at the package root is used by convert alone: it belongs in `chunkcli/convert/`.
- Only `markdown_format` spells the page markers, and the one line index of the dialect
  (`markdown_index`, read by check) imports nothing of chunkcli but it, the model and the
  lines' offsets and figure edges it shares with split (`markdown_lines`, which imports only
  the format: it is apart from the index so that split never loads the index's numpy).
- Splitting Markdown loads no numpy (a subprocess checks it).

Every rule is also run on a small package with a deliberate violation, which it must report.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "chunkcli"

STAGE_RULES: dict[str, tuple[str, ...]] = {
    "chunkcli.split": ("chunkcli.convert", "chunkcli.inputs", "chunkcli.batch", "chunkcli.cli"),
    "chunkcli.check": ("chunkcli.convert", "chunkcli.inputs", "chunkcli.batch", "chunkcli.cli"),
    # eval scores the Markdown split chunks: it reads PDFs only through the input layer.
    "chunkcli.evaluate": ("chunkcli.convert", "chunkcli.batch", "chunkcli.workers", "chunkcli.cli"),
    "chunkcli.convert": (
        "chunkcli.split",
        "chunkcli.check",
        "chunkcli.inputs",
        "chunkcli.batch",
        "chunkcli.cli",
        "chunkcli.sync",
        "chunkcli.evaluate",
        "chunkcli.distributed",
    ),
}
LAZY_IMPORTS_ALLOWED_IN = ("chunkcli.cli",)


@dataclass(frozen=True)
class Import:
    importer: str
    target: str  # a module of the package: `from a import b` names a.b when b is a module
    line: int
    in_function: bool


def module_names(package: Path) -> dict[str, Path]:
    names = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def imports_of(package: Path) -> list[Import]:
    """Every import of one of the package's own modules, at any depth."""
    modules = module_names(package)
    found = []
    for importer, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_function = {
            id(node)
            for function in ast.walk(tree)
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
            for node in ast.walk(function)
        }
        for node in ast.walk(tree):
            for target in _targets(node, importer, path, modules):
                found.append(Import(importer, target, node.lineno, id(node) in in_function))
    return found


def _targets(node: ast.AST, importer: str, path: Path, modules: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in modules]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        own = importer.split(".") if path.name == "__init__.py" else importer.split(".")[:-1]
        base = ".".join(own[: len(own) - node.level + 1] + ([base] if base else []))
    targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
    return sorted({t for t in targets if t in modules and t != importer})


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def stage_violations(imports: list[Import]) -> list[str]:
    return sorted(
        f"{i.importer} -> {i.target}"
        for i in imports
        for stage, forbidden in STAGE_RULES.items()
        if within(i.importer, stage) and any(within(i.target, f) for f in forbidden)
    )


def cycles(imports: list[Import]) -> list[list[str]]:
    """Groups of modules that import each other, directly or around a loop (Tarjan)."""
    edges: dict[str, set[str]] = {}
    for i in imports:
        edges.setdefault(i.importer, set()).add(i.target)
        edges.setdefault(i.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def lazy_imports(imports: list[Import]) -> list[str]:
    return sorted(
        f"{i.importer}:{i.line} -> {i.target}"
        for i in imports
        if i.in_function and not any(within(i.importer, p) for p in LAZY_IMPORTS_ALLOWED_IN)
    )


def convert_only_root_modules(package: Path, imports: list[Import]) -> list[str]:
    root = package.name
    importers: dict[str, set[str]] = {}
    for i in imports:
        importers.setdefault(i.target, set()).add(i.importer)
    return sorted(
        module
        for module, path in module_names(package).items()
        if path.parent == package and path.name != "__init__.py"
        and importers.get(module)
        and all(within(m, f"{root}.convert") for m in importers[module])
    )  # fmt: skip


# --- the rules on chunkcli ---------------------------------------------------------------------


def test_stages_import_only_downwards() -> None:
    assert stage_violations(imports_of(PACKAGE)) == []


def test_no_import_cycle() -> None:
    assert cycles(imports_of(PACKAGE)) == []


def test_own_modules_are_imported_at_the_top_outside_the_cli() -> None:
    assert lazy_imports(imports_of(PACKAGE)) == []


def test_no_root_module_serves_convert_alone() -> None:
    assert convert_only_root_modules(PACKAGE, imports_of(PACKAGE)) == []


def test_the_line_index_reads_only_the_format_the_model_and_the_lines() -> None:
    found = imports_of(PACKAGE)
    targets = {i.target for i in found if i.importer == "chunkcli.markdown_index"}
    assert targets <= {"chunkcli.markdown_format", "chunkcli.markdown_lines", "chunkcli.model"}
    lines_targets = {i.target for i in found if i.importer == "chunkcli.markdown_lines"}
    assert lines_targets <= {"chunkcli.markdown_format"}


def test_only_markdown_format_spells_page_markers() -> None:
    writer, reader = "<!-- page {", r"<!--\s*page"  # a format string and a pattern
    spelled = [
        path.relative_to(PACKAGE).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if writer in (text := path.read_text(encoding="utf-8")) or reader in text
    ]
    assert spelled == ["markdown_format.py"]


# --- the rules catch a deliberate violation ----------------------------------------------------

BROKEN = {
    "__init__.py": "",
    "helper.py": "X = 1\n",
    "convert/__init__.py": "",
    "convert/pipeline.py": "from chunkcli import helper\nfrom chunkcli.split import chunks\n",
    "split/__init__.py": "",
    "split/chunks.py": "def go():\n    from chunkcli.convert import pipeline\n",
    "cli/__init__.py": "",
    "cli/main.py": "def main():\n    from chunkcli.split import chunks\n",
}


def broken_package(tmp_path: Path) -> Path:
    for name, text in BROKEN.items():
        path = tmp_path / "chunkcli" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path / "chunkcli"


def test_the_rules_report_a_deliberate_violation(tmp_path: Path) -> None:
    package = broken_package(tmp_path)
    imports = imports_of(package)
    assert stage_violations(imports) == [
        "chunkcli.convert.pipeline -> chunkcli.split.chunks",
        "chunkcli.split.chunks -> chunkcli.convert.pipeline",
    ]
    assert cycles(imports) == [["chunkcli.convert.pipeline", "chunkcli.split.chunks"]]
    assert lazy_imports(imports) == ["chunkcli.split.chunks:2 -> chunkcli.convert.pipeline"]
    assert convert_only_root_modules(package, imports) == ["chunkcli.helper"]


# --- what loads when ---------------------------------------------------------------------------


def test_the_cli_imports_pymupdf_without_its_layout_model() -> None:
    code = (
        "import sys, chunkcli.cli, pymupdf;"
        "lean = 'pymupdf.layout' not in sys.modules and 'onnxruntime' not in sys.modules;"
        "import pymupdf4llm;"  # still importable on request
        "print(lean, sys.modules['pymupdf4llm'] is not None)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True"]


def test_the_input_layer_loads_no_pdf_machinery_until_a_pdf_comes() -> None:
    """split and check of Markdown import the input layer (and through it the batch runner and
    convert's face) but never PyMuPDF: the convert stage loads on its first use."""
    code = (
        "import sys, chunkcli.inputs, chunkcli.batch, chunkcli.convert;"
        "heavy = ('pymupdf', 'chunkcli.convert.pipeline', 'chunkcli.convert.source');"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_converting_a_text_pdf_loads_no_ocr_machinery() -> None:
    """numpy (~0.1 s of CPU at start-up) and the optional engine load only when a page needs
    OCR (PyMuPDF imported as the CLI imports it: its layout model would bring numpy itself)."""
    code = (
        "import sys; from chunkcli.cli.lean_import import install_lean_pymupdf;"
        "install_lean_pymupdf(); import pymupdf;"
        "doc = pymupdf.open(); doc.new_page().insert_text((72, 72), 'Hello world');"
        "import chunkcli.cli.common as cli, chunkcli.batch as batch;"
        "from chunkcli.convert import ConvertOptions;"
        "options = cli.with_ocr(ConvertOptions(), 'auto', 'auto', 200, 1, 'tesseract');"
        "md = batch.convert_pdf(doc.tobytes(), options).markdown;"
        "heavy = {'numpy', 'rapidocr', 'onnxruntime', 'importlib.metadata'};"
        "print('Hello world' in md, sorted(heavy & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True []"


def test_splitting_markdown_loads_no_numpy(tmp_path: Path) -> None:
    """numpy is 15 MB of resident memory and 0.1 s of CPU at start-up: `split` of 5 MB went
    over 20 times its input with it. A document with a table, a figure, headings and a
    paragraph cut into windows goes through every heading-mode step. (Counting with tiktoken,
    where rs-bpe is missing, reads token offsets with numpy: not this path.)"""
    pytest.importorskip("rs_bpe")
    words = " ".join(f"word{k}." for k in range(400))
    figure = "<!-- figure -->\nFigure 1: a plot\n\n![](p.png)\n\n<!-- /figure -->"
    markdown = f"# T\n\n## A\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n{figure}\n\n{words}\n"
    source, output = tmp_path / "a.md", tmp_path / "a.jsonl"
    source.write_text(markdown, encoding="utf-8")
    script = tmp_path / "run.py"
    script.write_text(
        "import sys\n"
        "from chunkcli.cli import app\n"
        f"sys.argv = ['chunkcli', 'split', {str(source)!r}, '-o', {str(output)!r}, "
        "'--max-tokens', '100', '-q']\n"
        "try:\n    app(prog_name='chunkcli')\nexcept SystemExit:\n    pass\n"
        "print('numpy' in sys.modules)\n",
        encoding="utf-8",
    )
    done = subprocess.run([sys.executable, script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
    assert len(output.read_text(encoding="utf-8").splitlines()) > 5


def test_the_cli_has_openblas_start_one_thread_unless_the_user_chose() -> None:
    code = "import os, chunkcli.cli, numpy; print(os.environ['OPENBLAS_NUM_THREADS'])"
    environ = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    for chosen, expected in ((None, "1"), ("3", "3")):
        env = environ if chosen is None else {**environ, "OPENBLAS_NUM_THREADS": chosen}
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        )
        assert done.stdout.strip() == expected

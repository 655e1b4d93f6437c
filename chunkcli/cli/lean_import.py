"""Importing PyMuPDF without the optional packages it imports on its own.

PyMuPDF 2 imports `pymupdf.layout` (an ONNX layout model with onnxruntime and numpy) and
`pymupdf4llm` whenever they are installed, and the `pymupdf` wheel depends on both. chunkcli
uses neither; measured here, `import pymupdf` costs 1.45 s of CPU with them and 0.28 s
without (bench/startup_bench.py), most of a small conversion.

`install_lean_pymupdf()` makes the first `import pymupdf` of this process skip them: while
PyMuPDF's own module runs, the two names are marked absent in `sys.modules` (its `try: import
… except ImportError` then passes), and the marks are removed as soon as it finishes, so an explicit
`import pymupdf.layout` or `import pymupdf4llm` later still works. Only the CLI calls it: it
owns its process; a program that imports chunkcli as a library keeps PyMuPDF as it is.
Set CHUNKCLI_FULL_PYMUPDF=1 to turn it off.

`limit_blas_threads()` has numpy's OpenBLAS start one thread, not one per core: it starts
them when numpy is imported, and chunkcli does no linear algebra that they would speed up
(a matrix-vector product in `eval`). Measured here: `import numpy` cost 0.10 s of CPU with
the threads (2 cores) and 0.05 s without, in every `split` and OCR worker. A value the user
set is kept.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

OPTIONAL_IMPORTS = ("pymupdf.layout", "pymupdf4llm")
OPT_OUT_VARIABLE = "CHUNKCLI_FULL_PYMUPDF"
BLAS_THREADS_VARIABLE = "OPENBLAS_NUM_THREADS"  # read by OpenBLAS when numpy loads it


def limit_blas_threads() -> None:
    """Have numpy's OpenBLAS, when it loads, start one thread (unless the user chose a number;
    a no-op once numpy is imported). Child processes inherit the choice."""
    if "numpy" not in sys.modules:
        os.environ.setdefault(BLAS_THREADS_VARIABLE, "1")


def install_lean_pymupdf() -> None:
    """Arrange for the first `import pymupdf` to skip OPTIONAL_IMPORTS (a no-op once PyMuPDF
    is imported, when opted out, or when called twice)."""
    if "pymupdf" in sys.modules or os.environ.get(OPT_OUT_VARIABLE) == "1":
        return
    if not any(isinstance(finder, _LeanFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _LeanFinder())


class _LeanFinder(importlib.abc.MetaPathFinder):
    """Finds `pymupdf` as usual, and wraps its loader with the two marks."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "pymupdf":
            return None
        sys.meta_path.remove(self)  # once: the real finders take it from here
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _LeanLoader(spec.loader)
        return spec


class _LeanLoader(importlib.abc.Loader):
    def __init__(self, loader: importlib.abc.Loader) -> None:
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        marked = [name for name in OPTIONAL_IMPORTS if name not in sys.modules]
        for name in marked:
            sys.modules[name] = None  # type: ignore[assignment]  # the import system: "absent"
        try:
            self.loader.exec_module(module)
        finally:
            for name in marked:
                if sys.modules.get(name) is None:
                    del sys.modules[name]

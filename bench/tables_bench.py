"""Hand-run measurement of table detection (not a test): speed against the raw
`get_text("dict")` floor, pages with tables, finder calls, and the tables themselves.

usage: python bench/tables_bench.py [CORPUS_DIR] [--show FILE ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pymupdf

from chunkcli.convert.extract.pages import page_lines
from chunkcli.convert.tables import detect as detect_module
from chunkcli.convert.tables import detect_tables

PASSWORDS = ("", "1234", "owner", "user")
DEFAULT_CORPUS = Path("/work/shared/corpus/pdfs")


def open_doc(path: Path) -> pymupdf.Document | None:
    try:
        doc = pymupdf.open(path)
    except Exception:  # noqa: BLE001 - broken files are part of the corpus
        return None
    for password in PASSWORDS:
        if not doc.needs_pass or doc.authenticate(password):
            return doc if not doc.needs_pass else None
    return None


def show_block(name: str, number: int, block: Any) -> None:
    size = f"{len(block.cells)}x{len(block.cells[0])}"
    print(f"--- {name} p{number} {size} bbox={block.bbox}")
    for row in block.cells:
        print("   | " + " | ".join(row) + " |")


def main() -> None:
    args = sys.argv[1:]
    show = set(args[args.index("--show") + 1 :]) if "--show" in args else set()
    corpus = Path(args[0]) if args and args[0] != "--show" else DEFAULT_CORPUS
    finder_calls = [0]
    real_finder = detect_module.cells_from_finder

    def counting_finder(*a: Any, **k: Any) -> Any:
        finder_calls[0] += 1
        return real_finder(*a, **k)

    detect_module.cells_from_finder = counting_finder
    t_raw = t_tables = 0.0
    pages = pages_with_tables = tables = 0
    for path in sorted(corpus.glob("*.pdf")):
        doc = open_doc(path)
        if doc is None:
            continue
        found = 0
        for page in doc:
            try:
                t0 = time.perf_counter()
                page.get_text("dict")
                t_raw += time.perf_counter() - t0
                lines = page_lines(page)
            except Exception:  # noqa: BLE001
                continue
            t1 = time.perf_counter()
            blocks = detect_tables(page, lines, page.number + 1)
            t_tables += time.perf_counter() - t1
            pages += 1
            pages_with_tables += bool(blocks)
            found += len(blocks)
            for block in blocks if path.name in show else []:
                show_block(path.name, page.number + 1, block)
        tables += found
        print(f"{path.name[:60]:60} pages={doc.page_count:4} tables={found}")
    print(f"pages={pages} with tables={pages_with_tables} tables={tables} finder={finder_calls[0]}")
    print(f"raw get_text('dict'): {pages / t_raw:.0f} pages/s")
    share = t_tables / t_raw
    print(f"detect_tables: {pages / t_tables:.0f} pages/s = {share:.0%} of raw dict time")


if __name__ == "__main__":
    main()

"""sync over a folder of corpus PDFs, then a revision touching 3 of them.

    python bench/sync_bench.py [--pdfs N] [--corpus DIR]

Copies the N smallest PDFs of ../shared/corpus/pdfs (by bytes, so a run stays short on 2
shared cores) into a temporary folder, runs `chunkcli sync` (first run: every document), then
revises 3 of them (one sentence appended to the last page of each, with PyMuPDF) and runs it
again. Prints seconds for both runs and chunks re-emitted vs total. Nothing is written into the
repository.
"""

# mypy: disallow-untyped-calls=False

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

REPO = Path(__file__).resolve().parent.parent
REVISED = 3
CANDIDATES = (REPO.parent / "shared/corpus/pdfs", REPO.parent.parent / "shared/corpus/pdfs")


def run_sync(folder: Path, work: Path) -> tuple[float, list[dict[str, object]], str]:
    command = [
        sys.executable,
        "-m",
        "chunkcli",
        "sync",
        str(folder),
        "-m",
        str(work / "index.db"),
        "-o",
        str(work / "changes.jsonl"),
        "--timeout",
        "60",
    ]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO)
    seconds = time.perf_counter() - start
    lines = (work / "changes.jsonl").read_text("utf-8").splitlines()
    return seconds, [json.loads(line) for line in lines], done.stderr.strip().splitlines()[-1]


def revisable(pdf: Path) -> bool:
    try:
        with pymupdf.open(pdf) as doc:
            return not doc.needs_pass and doc.page_count > 0
    except (RuntimeError, ValueError):
        return False


def revise(pdf: Path) -> None:
    """Append one sentence at the bottom of the last page (a realistic small revision)."""
    doc = pymupdf.open(pdf)
    page = doc[-1]
    page.insert_text((72, page.rect.height - 40), "Revised: this sentence was added.", fontsize=9)
    data = doc.tobytes(garbage=0)
    doc.close()
    pdf.write_bytes(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdfs", type=int, default=50)
    parser.add_argument(
        "--corpus", type=Path, default=next((c for c in CANDIDATES if c.is_dir()), CANDIDATES[0])
    )
    args = parser.parse_args()
    pdfs = sorted(args.corpus.glob("*.pdf"), key=lambda p: p.stat().st_size)[: args.pdfs]
    with tempfile.TemporaryDirectory(prefix="sync-bench-") as temp:
        work = Path(temp)
        folder = work / "corpus"
        folder.mkdir()
        for pdf in pdfs:
            shutil.copy(pdf, folder / pdf.name)
        first_s, first, first_summary = run_sync(folder, work)
        print(f"first run: {first_s:.1f} s, {first_summary}", flush=True)
        candidates = [p for p in sorted(folder.glob("*.pdf")) if revisable(p)]
        for pdf in candidates[:: max(1, len(candidates) // REVISED)][:REVISED]:
            revise(pdf)
        second_s, second, second_summary = run_sync(folder, work)
    upserts = sum(1 for line in second if line["op"] == "upsert")
    deletes = sum(1 for line in second if line["op"] == "delete")
    total = sum(1 for line in first if line["op"] == "upsert")
    print(
        f"{len(pdfs)} PDFs ({sum(p.stat().st_size for p in pdfs) / 1e6:.1f} MB), {REVISED} revised"
    )
    print("| run | seconds | upserts | deletes | summary |\n|---|---:|---:|---:|---|")
    print(f"| first | {first_s:.1f} | {total} | 0 | {first_summary} |")
    print(f"| revision | {second_s:.1f} | {upserts} | {deletes} | {second_summary} |")
    print(
        f"re-emitted {upserts} of {total} chunks ({upserts / max(total, 1):.1%}); "
        f"second run {second_s / first_s:.2f}x the first"
    )


if __name__ == "__main__":
    main()

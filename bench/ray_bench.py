"""The same folder through `chunkcli split` locally (--jobs N) and with --engine ray (a local
Ray cluster of N CPUs): wall seconds, pages/s, Ray's overhead per file, and whether the output
lines are identical. Ray's start-up is timed on its own, since a long-lived cluster pays it once.

    .venv/bin/python bench/ray_bench.py FOLDER [--jobs 2] [--limit 20]

Run it alone on the machine (nice -n 10): both sides use every CPU they are given.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from chunkcli.distributed.ray_engine import RaySettings, ray_cluster, split_to_jsonl
from chunkcli.distributed.rows import SplitJob
from chunkcli.inputs import ReadOptions, find_inputs, read_inputs
from chunkcli.jsonl import chunks_to_jsonl
from chunkcli.split import SplitOptions
from chunkcli.split.documents import split_documents
from chunkcli.workers import WorkerPool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=20, help="first N PDFs of the folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ray-bench-") as scratch:
        files = _sample(args.folder, args.limit, Path(scratch))
        pages = _pages(files)
        read = ReadOptions(pool=WorkerPool(args.jobs))
        started = time.perf_counter()
        results = split_documents(read_inputs(files, read), SplitOptions())
        local = chunks_to_jsonl(c for r in results if isinstance(r, list) for c in r)
        local_s = time.perf_counter() - started
        started = time.perf_counter()
        with ray_cluster(RaySettings(pool=WorkerPool(args.jobs))):
            start_s = time.perf_counter() - started
            started = time.perf_counter()
            outcome = split_to_jsonl(files, SplitJob(SplitOptions(), read), RaySettings())
            ray_s = time.perf_counter() - started
    print(f"{len(files)} files, {pages} pages, --jobs {args.jobs}")
    print("| run | seconds | pages/s |")
    print("| --- | ---: | ---: |")
    print(f"| local --jobs {args.jobs} | {local_s:.1f} | {pages / local_s:.2f} |")
    print(f"| ray (job, cluster up) | {ray_s:.1f} | {pages / ray_s:.2f} |")
    print(f"| ray start-up | {start_s:.1f} | |")
    print(f"ray overhead per file: {(ray_s - local_s) / len(files):+.2f} s")
    print(f"identical output: {outcome.jsonl == local}; ray errors: {len(outcome.errors)}")


def _sample(folder: Path, limit: int, scratch: Path) -> list:  # type: ignore[type-arg]
    """The first `limit` PDFs, copied so that both runs read the same small folder."""
    pdfs = [f for f in find_inputs([str(folder)], pdfs_only=True)][:limit]
    for item in pdfs:
        shutil.copy(item.path, scratch / Path(item.path).name)
    return find_inputs([str(scratch)], pdfs_only=True)


def _pages(files: list) -> int:  # type: ignore[type-arg]
    import pymupdf

    total = 0
    for item in files:
        with pymupdf.open(item.path) as doc:
            total += doc.page_count
    return total


if __name__ == "__main__":
    main()

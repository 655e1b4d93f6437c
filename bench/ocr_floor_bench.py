"""OCR against its floor: `chunkcli convert SCAN.pdf --jobs N` (language detection included)
vs `tesseract PAGE.png - -l LANG` on the same 200 dpi page images, N at a time, in one run.

The floor is Tesseract's own command line told the right language, run on PNGs rendered
beforehand (not timed), N processes at once, each limited to one thread (OMP_THREAD_LIMIT=1,
as chunkcli runs it: without it each process starts one thread per core and N of them
oversubscribe the machine). chunkcli runs as the CLI does, a whole process with its defaults
(--ocr-lang auto), --timeout 0. Reported per document: wall and CPU seconds (the process and
its children) of each, and chunkcli's ratio to the floor; rounds alternate floor and each tree,
so that a load change hits all of them alike. `--tree DIR` (repeatable) measures other checkouts
in the same run (before/after), each with its output compared against the first tree's.

    nice -n 10 .venv/bin/python bench/ocr_floor_bench.py                       # ~5 min
    .venv/bin/python bench/ocr_floor_bench.py --tree /work/main --tree . --rounds 3

Documents: scans generated from text pages (tests/scan_factory.py, 200 dpi, clean) of Japanese
and English, and the corpus' real scans (MANIFEST.tsv: scanned), their image-only pages only.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402

from tests.scan_factory import CLEAN, scan_pdf  # noqa: E402

CORPUS = next(
    (d / "shared" / "corpus" / "pdfs" for d in ROOT.parents if (d / "shared" / "corpus").is_dir()),
    ROOT.parent / "shared" / "corpus" / "pdfs",
)
DPI = 200  # chunkcli's default OCR resolution; the floor's images are rendered at it too


@dataclass(frozen=True)
class Document:
    """A scan to read: generated from `source`'s text pages, or a real scan read as it is;
    `lang` is what the floor is told (the language chunkcli's auto detection should find)."""

    name: str
    source: str  # a corpus file name
    pages: tuple[int, ...]  # generated: the text pages scanned; real: its image-only pages
    lang: str
    generated: bool


DOCUMENTS = (
    Document("ja-generated", "ja-rag-cloud_policy_20210910.pdf", (5, 6, 7, 8, 9, 10), "jpn", True),
    Document("en-generated", "docling-multi_page.pdf", (1, 2, 3, 4, 5), "eng", True),
    # Real scans: an eight-page scanned paper (Chinese: read as jpn, the installed model for Han),
    # a Japanese report whose image-only pages are read, a one-page Chinese scan.
    Document("mineru-small_ocr", "mineru-small_ocr.pdf", (), "jpn", False),
    Document("ja-rag-190619_06", "ja-rag-190619_06.pdf", (), "jpn", False),
    Document("odl-chinese_scan", "odl-chinese_scan.pdf", (), "jpn", False),
)


@dataclass(frozen=True)
class Prepared:
    document: Document
    pdf: Path
    pngs: tuple[Path, ...]
    pages: tuple[int, ...]  # the pages read; chunkcli is given them (--pages) when not all


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pages_to_read(path: Path) -> tuple[int, ...]:
    """The pages chunkcli reads by OCR by default: those its `--ocr never` output marks as
    without a usable text layer."""
    from chunkcli.convert.ocr import OcrMode, OcrOptions
    from chunkcli.convert.pipeline import ConvertOptions, convert_pdf

    markdown = convert_pdf(path, ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER))).markdown
    return tuple(int(n) for n in NO_TEXT_LAYER.findall(markdown))


NO_TEXT_LAYER = re.compile(r"<!-- page (\d+): (?:no text layer|unusable text layer)")


def prepare(document: Document, corpus: Path, folder: Path) -> Prepared | None:
    source = corpus / document.source
    if not source.exists():
        print(f"missing, skipped: {source}", file=sys.stderr)
        return None
    if document.generated:
        pdf = scan_pdf(source, folder / f"{document.name}.pdf", CLEAN, list(document.pages))
        pages = tuple(range(1, len(document.pages) + 1))
    else:
        pdf, pages = source, pages_to_read(source)
    pngs = []
    with pymupdf.open(pdf) as doc:
        for number in pages:
            pixmap = doc[number - 1].get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY, alpha=False)
            png = folder / f"{document.name}-{number}.png"
            pixmap.save(png)
            pngs.append(png)
    return Prepared(document, pdf, tuple(pngs), pages)


def run_floor(prepared: Prepared, jobs: int) -> tuple[float, float]:
    """Wall and CPU seconds of `tesseract PAGE.png - -l LANG`, `jobs` at a time."""
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}

    def read(png: Path) -> None:
        argv = ["tesseract", str(png), "-", "-l", prepared.document.lang]
        subprocess.run(argv, capture_output=True, check=True, env=env)

    cpu, started = children_cpu(), time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(read, prepared.pngs))
    return time.perf_counter() - started, children_cpu() - cpu


def run_chunkcli(prepared: Prepared, tree: Path, jobs: int) -> tuple[float, float, bytes]:
    """Wall and CPU seconds of `chunkcli convert PDF --jobs N --timeout 0`, and its Markdown."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    argv = [sys.executable, "-m", "chunkcli", "convert", str(prepared.pdf), "--jobs", str(jobs),
            "--timeout", "0", "-q"]  # fmt: skip
    with pymupdf.open(prepared.pdf) as doc:
        if len(prepared.pages) < doc.page_count:  # a partial scan: its text pages are not OCR
            argv += ["--pages", ",".join(map(str, prepared.pages))]
    cpu, started = children_cpu(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=True, env=env, cwd=tree)
    return time.perf_counter() - started, children_cpu() - cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--tree",
        type=Path,
        action="append",
        help="a chunkcli checkout to measure (repeatable; default: this one)",
    )
    parser.add_argument("--docs", default=",".join(d.name for d in DOCUMENTS))
    args = parser.parse_args()  # fmt: skip
    trees = [t.resolve() for t in args.tree or [ROOT]]
    wanted = args.docs.split(",")
    version = subprocess.run(["tesseract", "--version"], capture_output=True, check=True)
    print(f"tesseract on PATH: {version.stdout.decode().splitlines()[0]}; --jobs {args.jobs}, "
          f"{args.rounds} rounds; load average {os.getloadavg()[0]:.1f} at the start")  # fmt: skip
    print(
        "| document | pages | tool | wall s | CPU s | wall ratio | CPU ratio | output as tree 1 |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory(prefix="ocr-floor-") as tmp:
        for document in DOCUMENTS:
            if document.name not in wanted:
                continue
            prepared = prepare(document, args.corpus, Path(tmp))
            if prepared is None or not prepared.pngs:
                continue
            floor: list[tuple[float, float]] = []
            ours: dict[Path, list[tuple[float, float]]] = {tree: [] for tree in trees}
            outputs: dict[Path, bytes] = {}
            for _ in range(args.rounds):
                floor.append(run_floor(prepared, args.jobs))
                for tree in trees:
                    wall, cpu, markdown = run_chunkcli(prepared, tree, args.jobs)
                    ours[tree].append((wall, cpu))
                    outputs[tree] = markdown
            floor_wall = statistics.median(w for w, _ in floor)
            floor_cpu = statistics.median(c for _, c in floor)
            pages = len(prepared.pngs)
            print(f"| {document.name} | {pages} | floor (tesseract -l {document.lang}) | "
                  f"{floor_wall:.2f} | {floor_cpu:.2f} | 1 | 1 | |")  # fmt: skip
            for index, tree in enumerate(trees, 1):
                wall = statistics.median(w for w, _ in ours[tree])
                cpu = statistics.median(c for _, c in ours[tree])
                same = "yes" if outputs[tree] == outputs[trees[0]] else "DIFFERS"
                print(f"| {document.name} | {pages} | chunkcli tree {index} ({tree.name}) | "
                      f"{wall:.2f} | {cpu:.2f} | {wall / floor_wall:.2f} | {cpu / floor_cpu:.2f} | "
                      f"{same} |", flush=True)  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()

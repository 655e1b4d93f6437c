"""Side-by-side lines joined into one paragraph: a geometric count of interleaved columns.

Two consecutive lines of one paragraph (or list item) that overlap vertically by more than
half a line and do not overlap horizontally sit side by side on the page: they belong to two
columns (or a figure's label and a column) that the reading order interleaved. Counted over
whole folders of PDFs with the library's own convert stages (no ground truth needed).

    python bench/interleave_bench.py ../shared/corpus/pdfs ../shared/retrieval-ja/pdfs [--show 20]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from chunkcli.convert import ConvertOptions
from chunkcli.convert.extract.pages import extract_document
from chunkcli.convert.layout.document import layout_document
from chunkcli.convert.ocr.options import OcrMode, OcrOptions
from chunkcli.convert.source import open_pdf, read_pdf_bytes
from chunkcli.errors import ChunkcliError
from chunkcli.model import BlockKind, Line

# Lines overlapping vertically by at least this share of the shorter one share a row.
ROW_OVERLAP = 0.5


def side_by_side(a: Line, b: Line) -> bool:
    height = min(a.bbox.height, b.bbox.height)
    if a.vertical or b.vertical or height <= 0:
        return False
    overlap = min(a.bbox.bottom, b.bbox.bottom) - max(a.bbox.top, b.bbox.top)
    return overlap >= ROW_OVERLAP * height and a.bbox.x_overlap(b.bbox) <= 0


def count_file(path: Path) -> tuple[int, int, list[str]]:
    """(paragraph line pairs, side-by-side pairs, samples) of one PDF."""
    options = ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER))
    with open_pdf(read_pdf_bytes(path), None, name=path) as doc:
        document = layout_document(extract_document(path, doc, options))
    pairs = joined = 0
    samples: list[str] = []
    for page in document.pages:
        for block in page.blocks:
            if block.kind not in (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM):
                continue
            for a, b in zip(block.lines, block.lines[1:], strict=False):
                pairs += 1
                if side_by_side(a, b):
                    joined += 1
                    samples.append(f"{path.name} p{page.number}: {a.text[:40]!r} | {b.text[:40]!r}")
    return pairs, joined, samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--show", type=int, default=0, help="print this many samples per file")
    args = parser.parse_args()
    for folder in args.folders:
        total_pairs = total_joined = files = 0
        for path in sorted(folder.glob("*.pdf")):
            try:
                pairs, joined, samples = count_file(path)
            except (ChunkcliError, RuntimeError, ValueError) as exc:
                print(f"skipped {path.name}: {exc}", file=sys.stderr)
                continue
            files += 1
            total_pairs += pairs
            total_joined += joined
            if joined and args.show:
                print(f"{path.name}: {joined} of {pairs}")
                for line in samples[: args.show]:
                    print("   ", line)
        print(
            f"{folder}: {files} PDFs, {total_joined} side-by-side pairs"
            f" in {total_pairs} joined line pairs"
        )


if __name__ == "__main__":
    main()

"""OCR benchmark: scanned copies of text pages, chunkcli (Tesseract, language auto-detected)
against pymupdf4llm with Tesseract (its OCR option, told the right language), in one run.

Ground truth is each page's own text layer: a page is rendered to an image-only PDF at a scan
quality (150/200/300 dpi, blur, noise, skew; tests/scan_factory.py) and OCR'd back.
Reported per language and quality: mean character accuracy, CPU seconds per page (this process
plus its Tesseract children), mean confidence; and how well chunkcli's confidence ranks bad
pages: of the pages below check's threshold, the share whose accuracy is really bad (< 0.9),
and of the really bad pages, the share below the threshold.

    .venv/bin/python bench/ocr_bench.py                      # generated ja/ko/en/vertical pages
    .venv/bin/python bench/ocr_bench.py --pdf ja:../shared/corpus/x.pdf:3,5 --pdf en:y.pdf:1

Keep runs small (a few pages per cell): every cell OCRs each page twice (chunkcli, peer).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pymupdf  # noqa: E402

from chunkcli.check.options import CheckOptions  # noqa: E402
from chunkcli.ocr import OcrOptions  # noqa: E402
from chunkcli.pipeline import ConvertOptions, convert_pdf  # noqa: E402
from tests.pdf_factory import make_pdf  # noqa: E402
from tests.scan_factory import ScanQuality, char_accuracy, page_texts, scan_pdf  # noqa: E402
from tests.test_ocr import page_of  # noqa: E402

QUALITIES = (
    ScanQuality("150dpi", dpi=150),
    ScanQuality("200dpi", dpi=200),
    ScanQuality("300dpi", dpi=300),
    ScanQuality("200-blur-skew", dpi=200, blur=1, rotate=1.0),
    ScanQuality("150-noise", dpi=150, noise=20.0, seed=1),
    ScanQuality("72-blur", dpi=72, blur=2, rotate=1.0),
)
TESSERACT_LANG = {"ja": "jpn", "ko": "kor", "en": "eng", "vertical": "jpn_vert"}
BAD_ACCURACY = 0.9
TESSDATA = "/usr/share/tesseract-ocr/5/tessdata"


@dataclass(frozen=True)
class Sample:
    lang: str  # ja, ko, en, vertical
    pdf: Path
    page: int  # 1-based


@dataclass(frozen=True)
class Reading:
    tool: str
    lang: str
    quality: str
    accuracy: float
    cpu_s: float
    confidence: float | None


def cpu_now() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def generated_samples(folder: Path) -> list[Sample]:
    return [
        Sample(kind, make_pdf(folder / f"{kind}.pdf", [page_of(kind)]), 1)
        for kind in ("ja", "ko", "en", "vertical")
    ]


def parse_pdf_arg(value: str) -> list[Sample]:
    lang, path, pages = value.split(":")
    return [Sample(lang, Path(path), int(p)) for p in pages.split(",")]


def chunkcli_reading(scan: Path) -> tuple[str, float | None]:
    result = convert_pdf(scan, ConvertOptions(ocr=OcrOptions()))
    info = result.pages[0].ocr
    return result.markdown, info.confidence if info else None


def peer_reading(scan: Path, lang: str, dpi: int) -> str:
    import pymupdf4llm

    os.environ.setdefault("TESSDATA_PREFIX", TESSDATA)
    text: str = pymupdf4llm.to_markdown(
        str(scan), use_ocr=True, ocr_language=TESSERACT_LANG[lang], ocr_dpi=dpi,
        show_progress=False,
    )  # fmt: skip
    return text


def measure(sample: Sample, quality: ScanQuality, folder: Path, peer: bool) -> list[Reading]:
    truth = page_texts(sample.pdf)[sample.page - 1]
    scan = scan_pdf(sample.pdf, folder / "scan.pdf", quality, [sample.page])
    readings = []
    started = cpu_now()
    markdown, confidence = chunkcli_reading(scan)
    readings.append(Reading("chunkcli", sample.lang, quality.name, char_accuracy(truth, markdown),
                            cpu_now() - started, confidence))  # fmt: skip
    if peer:
        started = cpu_now()
        try:
            text = peer_reading(scan, sample.lang, quality.dpi)
        except Exception as exc:  # noqa: BLE001 - the peer failing is a result too
            print(f"pymupdf4llm failed: {exc}", file=sys.stderr)
            text = ""
        readings.append(Reading("pymupdf4llm", sample.lang, quality.name,
                                char_accuracy(truth, text), cpu_now() - started, None))  # fmt: skip
    return readings


def table(readings: list[Reading]) -> list[str]:
    cells: dict[tuple[str, str, str], list[Reading]] = {}
    for r in readings:
        cells.setdefault((r.lang, r.quality, r.tool), []).append(r)
    lines = ["| lang | quality | tool | pages | char accuracy | CPU s/page | mean conf |",
             "|---|---|---|---:|---:|---:|---:|"]  # fmt: skip
    for (lang, quality, tool), group in cells.items():
        confs = [r.confidence for r in group if r.confidence is not None]
        conf = f"{statistics.mean(confs):.2f}" if confs else "-"
        lines.append(
            f"| {lang} | {quality} | {tool} | {len(group)} | "
            f"{statistics.mean(r.accuracy for r in group):.3f} | "
            f"{statistics.mean(r.cpu_s for r in group):.2f} | {conf} |"
        )
    return lines


def ranking(readings: list[Reading], threshold: float) -> str:
    ours = [r for r in readings if r.tool == "chunkcli"]
    flagged = [r for r in ours if (r.confidence or 0.0) < threshold]
    bad = [r for r in ours if r.accuracy < BAD_ACCURACY]
    precision = sum(r.accuracy < BAD_ACCURACY for r in flagged) / len(flagged) if flagged else 1
    recall = sum((r.confidence or 0.0) < threshold for r in bad) / len(bad) if bad else 1
    return (f"confidence < {threshold:.2f}: {len(flagged)} of {len(ours)} pages flagged; "
            f"{precision:.2f} of them have accuracy < {BAD_ACCURACY} (precision); "
            f"{recall:.2f} of the {len(bad)} pages below {BAD_ACCURACY} are flagged (recall)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdf", action="append", default=[], metavar="LANG:PATH:PAGES",
                        help="a text PDF and pages to scan (LANG: ja, ko, en, vertical)")
    parser.add_argument("--no-generated", action="store_true")
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--qualities", default=",".join(q.name for q in QUALITIES))
    args = parser.parse_args()
    wanted = set(args.qualities.split(","))
    qualities = [q for q in QUALITIES if q.name in wanted]
    with tempfile.TemporaryDirectory(prefix="ocr-bench-") as tmp:
        folder = Path(tmp)
        samples = [] if args.no_generated else generated_samples(folder)
        for value in args.pdf:
            samples.extend(parse_pdf_arg(value))
        readings: list[Reading] = []
        started = time.time()
        for sample in samples:
            for quality in qualities:
                cell = measure(sample, quality, folder, not args.no_peer)
                readings.extend(cell)
                for reading in cell:  # every reading, so that a cut-short run still tells
                    print(reading, file=sys.stderr, flush=True)
    print(f"pymupdf {pymupdf.__version__}; {len(samples)} pages x {len(qualities)} qualities; "
          f"{time.time() - started:.0f} s wall")  # fmt: skip
    print("\n".join(table(readings)))
    print(ranking(readings, CheckOptions().ocr_min_confidence))


if __name__ == "__main__":
    main()

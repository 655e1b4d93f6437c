"""OCR benchmark: scanned copies of text pages read back by chunkcli (Tesseract, language
auto-detected; RapidOCR when installed) and by pymupdf4llm with Tesseract, in one run.

Ground truth is each page's own text layer: pages of samples/ and of Japanese, Korean and
English corpus PDFs are rendered to image-only pages at a scan quality (tests/scan_factory.py)
and OCR'd back. One scanned document per language and quality holds that language's pages
(language detection happens once per document, as it does for a real scan).

Reported per language x quality: mean character accuracy, CPU seconds per page (this process
plus its Tesseract children: chunkcli runs one Tesseract at a time here, --jobs 1), mean
confidence; how well chunkcli's confidence ranks bad pages (precision and recall of check's
threshold for pages whose accuracy is really bad, and Spearman's rank correlation); and what
chunkcli reads on the corpus' real scans (no ground truth: confidence and characters).

    nice -n 10 .venv/bin/python bench/ocr_bench.py                 # everything (~15 min)
    nice -n 10 .venv/bin/python bench/ocr_bench.py --engines rapidocr --no-peer
    nice -n 10 .venv/bin/python bench/ocr_bench.py --parallel      # --jobs 1 vs 2, one file
    .venv/bin/python bench/ocr_bench.py --qualities 200dpi --langs ja --no-peer --no-real

Deterministic apart from the timings: fixed pages, seeded noise, both tools at 200 dpi.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402

from chunkcli.check.options import CheckOptions  # noqa: E402
from chunkcli.convert.ocr import OcrOptions  # noqa: E402
from chunkcli.convert.ocr.tesseract import tesseract_version  # noqa: E402
from chunkcli.convert.pipeline import ConvertOptions, ConvertResult, convert_pdf  # noqa: E402
from chunkcli.markdown_format import PAGE_MARKER_RE  # noqa: E402
from tests.scan_factory import ScanQuality, char_accuracy, page_texts, scan_pdf  # noqa: E402

# ../shared/corpus beside the main checkout; a worktree finds it one level further up.
CORPUS = next(
    (d / "shared" / "corpus" / "pdfs" for d in ROOT.parents if (d / "shared" / "corpus").is_dir()),
    ROOT.parent / "shared" / "corpus" / "pdfs",
)
SAMPLES = ROOT / "samples"
# Body-text pages (no tables of contents: dot leaders are a separate problem), chosen once;
# seven pages keep a run near 15 minutes on the shared 2-core machine (the 2026-12-02 run with
# an eighth page, a second Japanese corpus page, and six qualities took 21 min at load 3.5-5.6:
# 424 CPU s; seven pages at six qualities 10 min at load 2.9-5.8).
PAGES: dict[str, list[tuple[Path, int]]] = {
    "ja": [
        (SAMPLES / "japanese_manual.pdf", 1),
        (CORPUS / "ja-rag-cloud_policy_20210910.pdf", 5),
    ],
    "ko": [
        (CORPUS / "odl-2125318_의사국_의안과_의안원문_hwp.pdf", 2),
        (CORPUS / "docling-normal_4pages.pdf", 1),  # two columns
    ],
    "en": [
        (SAMPLES / "outline.pdf", 1),  # (two_column.pdf draws its text out of reading order)
        (CORPUS / "docling-multi_page.pdf", 1),
    ],
    # Generated (tests/test_ocr.py's page: three columns of vertical Japanese): the corpus'
    # vertical pages cost the peer 30 CPU s a page to read at 0.01 accuracy.
    "vertical": [(Path("generated-vertical.pdf"), 1)],
}
QUALITIES = (
    ScanQuality("150dpi", dpi=150),
    ScanQuality("200dpi", dpi=200),
    ScanQuality("300dpi", dpi=300),
    ScanQuality("150-blur", dpi=150, blur=2),
    ScanQuality("200-noise", dpi=200, noise=25.0, seed=1),
    ScanQuality("200-rot1.5", dpi=200, rotate=1.5),
    # A really bad scan (tests' DEGRADED): so that the confidence threshold meets bad pages.
    ScanQuality("72-blur-rot1", dpi=72, blur=2, rotate=1.0),
)
# The corpus' real scans (manifest: scanned, image-only pages), one or two pages each.
REAL_SCANS: list[tuple[str, tuple[int, ...]]] = [
    ("mineru-small_ocr.pdf", (1,)),
    ("ja-rag-190619_06.pdf", (10, 19)),
    ("odl-chinese_scan.pdf", (1,)),
    ("pdfjs-scan-bad.pdf", (1,)),
    ("olmocr-lincoln_letter.pdf", (1,)),
    ("olmocr-buildingnotes.pdf", (1,)),
]
# --parallel: one Japanese document of this many scanned pages, read at --jobs 1 and 2.
PARALLEL_SOURCE = "ja-rag-cloud_policy_20210910.pdf"
PARALLEL_PAGES = (5, 6, 7, 8, 9, 10)
TESSERACT_LANG = {"ja": "jpn", "ko": "kor", "en": "eng", "vertical": "jpn_vert"}
OCR_DPI = 200  # chunkcli's default; the peer is given the same
BAD_ACCURACY = 0.8  # a page read below this loses too much for retrieval
TESSDATA = "/usr/share/tesseract-ocr/5/tessdata"


@dataclass(frozen=True)
class Reading:
    tool: str
    lang: str
    quality: str
    page: int
    accuracy: float
    cpu_s: float  # the document's CPU time divided by its pages
    confidence: float | None


def cpu_now() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def scanned_document(pages: Sequence[tuple[Path, int]], quality: ScanQuality,
                     target: Path) -> tuple[Path, list[str]]:  # fmt: skip
    """One image-only PDF of the given pages at `quality`, and each page's true text."""
    out = pymupdf.open()
    truths = []
    for index, (source, number) in enumerate(pages):
        one = scan_pdf(source, target.with_suffix(f".{index}.pdf"), quality, [number])
        with pymupdf.open(one) as scanned:
            out.insert_pdf(scanned)
        truths.append(page_texts(source)[number - 1])
    out.save(target, garbage=3, deflate=True, no_new_id=True)
    out.close()
    return target, truths


def pages_of_markdown(markdown: str, count: int) -> list[str]:
    """The Markdown of each page, cut at chunkcli's page markers."""
    starts = [(int(m.group(1)), m.end()) for m in PAGE_MARKER_RE.finditer(markdown)]
    texts = [""] * count
    for index, (number, start) in enumerate(starts):
        end = starts[index + 1][1] if index + 1 < len(starts) else len(markdown)
        texts[number - 1] = markdown[start:end]
    return texts


def chunkcli_tool(engine: str) -> Callable[[Path, str, int], tuple[list[str], list[float | None]]]:
    def read(scan: Path, lang: str, count: int) -> tuple[list[str], list[float | None]]:
        del lang  # chunkcli detects the language (--ocr-lang auto, the default)
        result: ConvertResult = convert_pdf(
            scan, ConvertOptions(ocr=OcrOptions(engine=engine, jobs=1, dpi=OCR_DPI))
        )
        confidences = [page.ocr.confidence if page.ocr else None for page in result.pages]
        return pages_of_markdown(result.markdown, count), confidences

    return read


def peer_read(scan: Path, lang: str, count: int) -> tuple[list[str], list[float | None]]:
    """pymupdf4llm's to_markdown with OCR by Tesseract (its tesseract_api, chosen explicitly so
    that an installed RapidOCR does not replace it), told the right language."""
    import pymupdf4llm
    from pymupdf4llm.ocr import tesseract_api

    chunks = pymupdf4llm.to_markdown(
        str(scan), use_ocr=True, ocr_language=TESSERACT_LANG[lang], ocr_dpi=OCR_DPI,
        ocr_function=tesseract_api.exec_ocr, page_chunks=True, show_progress=False,
    )  # fmt: skip
    texts = [str(chunk["text"]) for chunk in chunks]
    return texts + [""] * (count - len(texts)), [None] * count


def measure(tool: str, read: Callable[[Path, str, int], tuple[list[str], list[float | None]]],
            scan: Path, lang: str, quality: str, truths: list[str]) -> list[Reading]:  # fmt: skip
    started = cpu_now()
    try:
        texts, confidences = read(scan, lang, len(truths))
    except Exception as exc:  # noqa: BLE001 - a tool failing is a result too
        print(f"{tool} failed on {lang} {quality}: {exc}", file=sys.stderr)
        texts, confidences = [""] * len(truths), [None] * len(truths)
    per_page = (cpu_now() - started) / len(truths)
    return [
        Reading(tool, lang, quality, index + 1, char_accuracy(truth, text), per_page, conf)
        for index, (truth, text, conf) in enumerate(zip(truths, texts, confidences, strict=True))
    ]


def rapidocr_available() -> bool:
    try:
        import rapidocr  # noqa: F401
    except ImportError:
        return False
    return True


def table(readings: list[Reading], tools: list[str]) -> list[str]:
    cells: dict[tuple[str, str], dict[str, list[Reading]]] = {}
    for r in readings:
        cells.setdefault((r.lang, r.quality), {}).setdefault(r.tool, []).append(r)
    head = "| lang | quality | pages |"
    rule = "|---|---|---:|"
    for tool in tools:
        conf = " conf |" if tool != "pymupdf4llm" else ""
        head += f" {tool} accuracy | s/page |{conf}"
        rule += "---:|---:|" + ("---:|" if conf else "")
    lines = [head, rule]
    for (lang, quality), by_tool in cells.items():
        row = f"| {lang} | {quality} | {len(next(iter(by_tool.values())))} |"
        for tool in tools:
            group = by_tool.get(tool, [])
            if not group:
                row += " - | - |" + (" - |" if tool != "pymupdf4llm" else "")
                continue
            row += (f" {statistics.mean(r.accuracy for r in group):.3f} |"
                    f" {statistics.mean(r.cpu_s for r in group):.1f} |")  # fmt: skip
            if tool != "pymupdf4llm":
                confs = [r.confidence or 0.0 for r in group]
                row += f" {statistics.mean(confs):.2f} |"
        lines.append(row)
    return lines


def totals(readings: list[Reading], tools: list[str]) -> list[str]:
    lines = []
    for tool in tools:
        ours = [r for r in readings if r.tool == tool]
        if ours:
            lines.append(f"{tool}: {len(ours)} pages, mean accuracy "
                         f"{statistics.mean(r.accuracy for r in ours):.3f}, "
                         f"{statistics.mean(r.cpu_s for r in ours):.2f} CPU s/page")  # fmt: skip
    return lines


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            result[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    var = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return cov / var if var else 0.0


def ranking(readings: list[Reading], tool: str, threshold: float) -> str:
    ours = [r for r in readings if r.tool == tool]
    if not ours:
        return ""
    conf = [r.confidence or 0.0 for r in ours]
    flagged = [r for r, c in zip(ours, conf, strict=True) if c < threshold]
    bad = [r for r, c in zip(ours, conf, strict=True) if r.accuracy < BAD_ACCURACY]
    hits = sum(r.accuracy < BAD_ACCURACY for r in flagged)
    caught = sum((r.confidence or 0.0) < threshold for r in bad)
    precision = f"{hits / len(flagged):.2f}" if flagged else "-"
    recall = f"{caught / len(bad):.2f}" if bad else "-"
    rho = spearman(conf, [r.accuracy for r in ours])
    return (f"{tool}: {len(flagged)} of {len(ours)} pages below conf {threshold:.2f} "
            f"(check's threshold), {hits} of them with accuracy < {BAD_ACCURACY} "
            f"(precision {precision}); {len(bad)} pages below {BAD_ACCURACY}, {caught} flagged "
            f"(recall {recall}); Spearman rho(confidence, accuracy) = {rho:.2f}")  # fmt: skip


def ceilings(pages: dict[str, list[tuple[Path, int]]]) -> list[str]:
    """What the in-order measure allows on each page: chunkcli's conversion of the page's own
    text layer (no OCR) against the same truth. A text layer stored out of reading order
    (a title block last) caps every tool's score, whatever it reads."""
    lines = ["| lang | page | text layer converted, accuracy against the truth |", "|---|---|---:|"]
    for lang, chosen in pages.items():
        for path, number in chosen:
            truth = page_texts(path)[number - 1]
            markdown = convert_pdf(path, ConvertOptions(pages=(number,))).markdown
            accuracy = char_accuracy(truth, markdown)
            lines.append(f"| {lang} | {path.name} p. {number} | {accuracy:.3f} |")
    return lines


def real_scans(corpus: Path, engines: list[str]) -> list[str]:
    lines = ["| file | page | engine | lang | conf | characters | CPU s | begins |",
             "|---|---:|---|---|---:|---:|---:|---|"]  # fmt: skip
    for name, pages in REAL_SCANS:
        path = corpus / name
        if not path.exists():
            continue
        for engine in engines:
            started = cpu_now()
            options = ConvertOptions(pages=pages, ocr=OcrOptions(engine=engine, jobs=1))
            try:
                result = convert_pdf(path, options)
            except Exception as exc:  # noqa: BLE001 - reported as the result
                lines.append(f"| {name} | {pages} | {engine} | failed: {exc} |||||")
                continue
            cpu = (cpu_now() - started) / len(pages)
            texts = pages_of_markdown(result.markdown, max(pages))
            for page in result.pages:
                text = re.sub(r"\s+", " ", texts[page.number - 1]).strip()
                info = page.ocr
                conf = f"{info.confidence:.2f}" if info else "-"
                lang = info.lang if info else page.status.value
                begins = text[:60].replace("|", "\\|")
                lines.append(f"| {name} | {page.number} | {engine} | {lang} | {conf} | "
                             f"{len(text)} | {cpu:.1f} | {begins} |")  # fmt: skip
    return lines


def parallel(corpus: Path, folder: Path, rounds: int = 2) -> list[str]:
    """`chunkcli convert` of one scanned document (PARALLEL_PAGES) at --jobs 1 and --jobs 2,
    alternating, as the CLI runs it: wall and CPU seconds per page (CPU includes workers and
    Tesseract children)."""
    import subprocess

    source = corpus / PARALLEL_SOURCE
    if not source.exists():
        return [f"missing, skipped: {source}"]
    scan = scan_pdf(source, folder / "parallel.pdf", QUALITIES[1], list(PARALLEL_PAGES))
    runs: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    outputs: dict[int, bytes] = {}
    for _ in range(rounds):
        for jobs in (1, 2):
            before, started = _children_cpu(), time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "chunkcli", "convert", str(scan), "--jobs", str(jobs),
                 "--ocr-lang", "jpn", "--timeout", "0"],
                capture_output=True, check=True, cwd=ROOT,
            )  # fmt: skip
            runs[jobs].append((time.perf_counter() - started, _children_cpu() - before))
            outputs[jobs] = done.stdout
    pages = len(PARALLEL_PAGES)
    lines = [f"{pages} scanned pages ({PARALLEL_SOURCE} p. {PARALLEL_PAGES[0]}-"
             f"{PARALLEL_PAGES[-1]}, 200 dpi, --ocr-lang jpn), {rounds} runs each; "
             f"output identical: {outputs[1] == outputs[2]}"]  # fmt: skip
    for jobs, measured in runs.items():
        wall = statistics.median(w for w, _ in measured) / pages
        cpu = statistics.median(c for _, c in measured) / pages
        lines.append(f"--jobs {jobs}: {wall:.2f} s/page wall, {cpu:.2f} CPU s/page")
    return lines


def _children_cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return children.ru_utime + children.ru_stime


def chosen_pages(langs: list[str], folder: Path) -> dict[str, list[tuple[Path, int]]]:
    """PAGES of the given languages that exist here (the generated page is made in folder)."""
    from tests.pdf_factory import make_pdf
    from tests.test_ocr import page_of

    vertical = make_pdf(folder / "generated-vertical.pdf", [page_of("vertical")])
    pages = {}
    for lang in langs:
        pages[lang] = []
        for path, number in PAGES[lang]:
            path = vertical if path.name == vertical.name else path
            if path.exists():
                pages[lang].append((path, number))
            else:
                print(f"missing, skipped: {path}", file=sys.stderr)
    return pages


def warm_up(folder: Path, tools: dict[str, Callable[..., object]]) -> None:
    """Load every tool's models once (pymupdf4llm's layout model, RapidOCR's ONNX sessions)
    so that the first measured document does not pay for it."""
    scan, truths = scanned_document(PAGES["en"][:1], QUALITIES[0], folder / "warm.pdf")
    for read in tools.values():
        try:
            read(scan, "en", len(truths))
        except Exception as exc:  # noqa: BLE001
            print(f"warm-up failed: {exc}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--langs", default=",".join(PAGES))
    parser.add_argument("--qualities", default=",".join(q.name for q in QUALITIES))
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--no-real", action="store_true", help="skip the corpus' real scans")
    parser.add_argument("--parallel", action="store_true",
                        help="only: one scanned document converted at --jobs 1 and 2")  # fmt: skip
    parser.add_argument("--engines", default="tesseract",
                        help="chunkcli's engines: tesseract, rapidocr (when installed; "
                        "it costs more: run it alone, --engines rapidocr --no-peer)")  # fmt: skip
    args = parser.parse_args()
    os.environ.setdefault("TESSDATA_PREFIX", TESSDATA)
    if args.parallel:
        with tempfile.TemporaryDirectory(prefix="ocr-bench-") as tmp:
            load = os.getloadavg()[0]
            print("\n".join(parallel(args.corpus, Path(tmp))))
            print(f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
        return
    engines = [e for e in args.engines.split(",") if e != "rapidocr" or rapidocr_available()]
    tools: dict[str, Callable[[Path, str, int], tuple[list[str], list[float | None]]]] = {}
    for engine in engines:
        tools["chunkcli" if engine == "tesseract" else f"chunkcli-{engine}"] = chunkcli_tool(engine)
    if not args.no_peer:
        tools["pymupdf4llm"] = peer_read
    wanted = set(args.qualities.split(","))
    qualities = [q for q in QUALITIES if q.name in wanted]
    langs = args.langs.split(",")
    readings: list[Reading] = []
    started = time.time()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="ocr-bench-") as tmp:
        folder = Path(tmp)
        pages = chosen_pages(langs, folder)
        warm_up(folder, dict(tools))
        for quality in qualities:
            for lang in langs:
                if not pages[lang]:
                    continue
                scan, truths = scanned_document(pages[lang], quality, folder / f"{lang}.pdf")
                for tool, read in tools.items():
                    cell = measure(tool, read, scan, lang, quality.name, truths)
                    readings.extend(cell)
                    for reading in cell:  # every reading, so that a cut-short run still tells
                        print(reading, file=sys.stderr, flush=True)
        ceiling = ceilings(pages)
    wall = time.time() - started
    real = [] if args.no_real else real_scans(args.corpus, engines)
    names = list(tools)
    print(f"pymupdf {pymupdf.__version__}, {tesseract_version('tesseract')}; "
          f"{sum(map(len, pages.values()))} pages x {len(qualities)} qualities; "
          f"{wall:.0f} s wall for the scans (+ real scans {time.time() - started - wall:.0f} s); "
          f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")  # fmt: skip
    print("\n".join(table(readings, names)))
    print("\n".join(totals(readings, names)))
    threshold = CheckOptions().ocr_min_confidence
    for tool in names:
        if tool != "pymupdf4llm":
            print(ranking(readings, tool, threshold))
    print("\n".join(ceiling))
    if real:
        print("\n".join(real))


if __name__ == "__main__":
    main()

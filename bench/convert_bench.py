"""Convert benchmark: PDFs in a folder -> pages/s, failures, timeouts and peak memory per tool.

    python bench/convert_bench.py [DIR] [--timeout 60] [--jobs N] [--tools chunkcli,raw,...]

Tools, each run over the same files, one file at a time, in its own worker process:
  raw         PyMuPDF `page.get_text("dict")` on every page: the floor any converter pays
  chunkcli    chunkcli.convert.pipeline.convert_pdf
  chunkcli-no-ocr  the same with OCR off: the layout work that issue 8 bounds at 3x raw
  p4llm       pymupdf4llm.to_markdown, default (layout) mode
  p4llm-legacy pymupdf4llm.to_markdown after pymupdf4llm.use_layout(False)

Why workers: importing pymupdf4llm switches PyMuPDF into layout mode for the whole process, and
a file that hangs one tool must not stall the others. A worker that passes the per-file limit is
killed and replaced; its file counts as "past limit". Times are measured inside the worker around
the conversion call only (imports excluded). Peak memory is the worker's ru_maxrss, imports
included. Files that PyMuPDF cannot open (encrypted, broken) are skipped for every tool alike.
`--jobs N` also times chunkcli's folder mode (batch.convert_many) with 1 and N worker processes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import multiprocessing as mp
import os
import platform
import resource
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = REPO_ROOT / "samples"
DEFAULT_TIMEOUT_S = 60.0
# Starting a worker imports its tool (pymupdf4llm loads ONNX models): allow this long.
WORKER_START_TIMEOUT_S = 120.0
TOOLS = ("raw", "chunkcli", "chunkcli-no-ocr", "p4llm", "p4llm-legacy")
TOOL_LABELS = {
    "raw": 'PyMuPDF get_text("dict") (floor)',
    "chunkcli": "chunkcli convert_pdf",
    "chunkcli-no-ocr": "chunkcli convert_pdf, OCR off (extraction and layout only)",
    "p4llm": "pymupdf4llm to_markdown (layout, default)",
    "p4llm-legacy": "pymupdf4llm to_markdown (use_layout(False))",
}


# --- in the worker process ----------------------------------------------------------------


def _load_tool(tool: str) -> object:
    """Import what `tool` needs and return the function that converts one path."""
    if tool == "raw":
        import pymupdf

        def raw(path: str) -> None:
            with pymupdf.open(path) as doc:
                for page in doc:
                    page.get_text("dict")

        return raw
    if tool == "chunkcli":
        from chunkcli.convert.pipeline import convert_pdf

        return lambda path: convert_pdf(path)
    if tool == "chunkcli-no-ocr":
        # Issue 8's speed bound compares layout work with raw extraction; OCR time is Tesseract's.
        from chunkcli.convert.ocr.options import OcrMode, OcrOptions
        from chunkcli.convert.options import ConvertOptions
        from chunkcli.convert.pipeline import convert_pdf

        no_ocr = ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER))
        return lambda path: convert_pdf(path, no_ocr)
    import pymupdf4llm

    pymupdf4llm.use_layout(tool == "p4llm")
    return lambda path: pymupdf4llm.to_markdown(path)


def _peak_rss_mb() -> float:
    # ru_maxrss is in KiB on Linux (bytes on macOS; this bench targets Linux).
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _worker_main(tool: str, conn: Connection) -> None:
    # Tools print progress and warnings on stdout; keep the report on stdout clean.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the worker
    convert = _load_tool(tool)
    conn.send(("ready", 0.0, 0.0, "", _peak_rss_mb()))
    while True:
        path = conn.recv()
        if path is None:
            return
        started, started_cpu = time.perf_counter(), time.process_time()
        error = ""
        try:
            convert(path)  # type: ignore[operator]
        except Exception as exc:  # noqa: BLE001 - any failure of a tool is a data point
            error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        seconds = time.perf_counter() - started
        cpu_seconds = time.process_time() - started_cpu
        conn.send(("done", seconds, cpu_seconds, error, _peak_rss_mb()))


# --- in the main process ------------------------------------------------------------------


@dataclass(frozen=True)
class PdfFile:
    path: Path
    pages: int


@dataclass
class ToolResult:
    """Running totals for one tool (mutated only by `run_tool`, which owns it)."""

    tool: str
    files_ok: int = 0
    pages_ok: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # process CPU time: less sensitive to other load on the machine
    failures: list[str] = field(default_factory=list)
    past_limit: list[str] = field(default_factory=list)
    peak_rss_mb: float = 0.0
    seconds_by_file: dict[Path, float] = field(default_factory=dict)

    @property
    def pages_per_s(self) -> float:
        return self.pages_ok / self.seconds if self.seconds > 0 else 0.0

    def pages_per_s_on(self, files: Sequence[PdfFile]) -> float:
        """Pages/s over `files` only (each must be one this tool finished)."""
        seconds = sum(self.seconds_by_file[f.path] for f in files)
        return sum(f.pages for f in files) / seconds if seconds > 0 else 0.0


class Worker:
    """One spawned worker process for one tool, fed one path at a time over a pipe."""

    def __init__(self, tool: str, target: Callable[..., None] | None = None) -> None:
        context = mp.get_context("spawn")
        self.conn, child = context.Pipe()
        main = target or _worker_main
        self.process = context.Process(target=main, args=(tool, child), daemon=True)
        self.process.start()
        child.close()
        if not self.conn.poll(WORKER_START_TIMEOUT_S):
            self.kill()
            raise RuntimeError(f"{tool}: worker did not start within {WORKER_START_TIMEOUT_S} s")
        self.conn.recv()

    def convert(self, path: Path, timeout_s: float) -> tuple[float, float, str, float] | None:
        """(seconds, CPU seconds, error, peak MB) for `path`, or None past `timeout_s`."""
        self.conn.send(str(path))
        if not self.conn.poll(timeout_s):
            return None
        try:
            _, seconds, cpu_seconds, error, peak = self.conn.recv()
        except EOFError:  # the worker died (a crash inside MuPDF, out of memory)
            return (0.0, 0.0, f"worker died (exit code {self.process.exitcode})", 0.0)
        return seconds, cpu_seconds, error, peak

    def peak_rss_mb(self) -> float:
        """The worker's peak RSS so far, read from /proc while it is still alive (Linux)."""
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return 0.0
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def close(self) -> None:
        if self.process.is_alive():
            self.conn.send(None)
            self.process.join(5)
        self.kill()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


def run_tool(tool: str, files: Sequence[PdfFile], timeout_s: float) -> ToolResult:
    """Convert every file with `tool`, one at a time, replacing the worker after a hang."""
    result = ToolResult(tool)
    worker = Worker(tool)
    for pdf in files:
        outcome = worker.convert(pdf.path, timeout_s)
        if outcome is None or not worker.process.is_alive():
            result.peak_rss_mb = max(result.peak_rss_mb, worker.peak_rss_mb())
            worker.kill()
            worker = Worker(tool)
        if outcome is None:
            result.past_limit.append(pdf.path.name)
            continue
        seconds, cpu_seconds, error, peak = outcome
        result.peak_rss_mb = max(result.peak_rss_mb, peak)
        if error:
            result.failures.append(f"{pdf.path.name}: {error}")
            continue
        result.files_ok += 1
        result.pages_ok += pdf.pages
        result.seconds += seconds
        result.cpu_seconds += cpu_seconds
        result.seconds_by_file[pdf.path] = seconds
    worker.close()
    return result


def find_files(folder: Path) -> tuple[list[PdfFile], list[str]]:
    """Every *.pdf under `folder` that PyMuPDF opens without a password, and the skipped ones."""
    import pymupdf

    pymupdf.TOOLS.mupdf_display_errors(False)
    usable: list[PdfFile] = []
    skipped: list[str] = []
    for path in sorted(folder.rglob("*.pdf")):
        try:
            with pymupdf.open(str(path)) as doc:
                if doc.needs_pass:
                    skipped.append(f"{path.name}: encrypted")
                elif doc.page_count == 0:
                    skipped.append(f"{path.name}: no pages")
                else:
                    usable.append(PdfFile(path, doc.page_count))
        except Exception as exc:  # noqa: BLE001 - any file PyMuPDF cannot open is skipped
            skipped.append(f"{path.name}: {type(exc).__name__}")
    return usable, skipped


# --- chunkcli folder mode with N jobs -----------------------------------------------------


def time_folder_mode(files: Sequence[PdfFile], jobs: int, timeout_s: float) -> tuple[float, int]:
    """Wall-clock seconds and failures for chunkcli's folder mode over `files` with `jobs`."""
    from chunkcli.convert.pipeline import ConvertOptions
    from chunkcli.workers import WorkerPool

    paths = [pdf.path for pdf in files]
    started = time.perf_counter()
    try:
        from chunkcli.batch import convert_many
    except ImportError:
        return _time_process_pool(paths, jobs), -1
    pairs = [(path, Path(f"{index}.md")) for index, path in enumerate(paths)]
    summary = convert_many(pairs, None, ConvertOptions(), pool=WorkerPool(jobs, timeout_s))
    return time.perf_counter() - started, len(summary.failures)


def _time_process_pool(paths: Sequence[Path], jobs: int) -> float:
    # Fallback while chunkcli.batch does not exist: a plain process pool over the files.
    from concurrent.futures import ProcessPoolExecutor

    from chunkcli.convert.pipeline import convert_pdf

    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("spawn")) as pool:
        list(pool.map(convert_pdf, paths))
    return time.perf_counter() - started


# --- report -------------------------------------------------------------------------------


def machine_description() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def library_versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for name in ("chunkcli", "pymupdf", "pymupdf4llm"):
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return ", ".join(found)


def format_report(
    folder: Path,
    files: Sequence[PdfFile],
    skipped: Sequence[str],
    results: Sequence[ToolResult],
    timeout_s: float,
    load_note: str,
) -> str:
    common = [f for f in files if all(f.path in r.seconds_by_file for r in results)]
    chunkcli = next((r for r in results if r.tool == "chunkcli"), None)
    chunkcli_speed = chunkcli.pages_per_s_on(common) if chunkcli else 0.0
    lines = [
        f"- date: {dt.datetime.now(dt.UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {machine_description()}",
        f"- versions: {library_versions()}",
        f"- dir: `{_shown(folder)}`: {len(files)} PDFs, {sum(f.pages for f in files)} pages "
        f"({len(skipped)} more skipped for every tool: cannot be opened without a password "
        "or broken)",
        f"- one worker process per tool, one file at a time, {timeout_s:g} s limit per file; "
        "seconds and pages/s over the files a tool finished (wall clock; CPU = process time)",
        f"- load average (1 min) {load_note}",
        f"- × chunkcli: pages/s relative to chunkcli over the {len(common)} files "
        f"({sum(f.pages for f in common)} pages) that every tool finished",
        "",
        f"| Tool | Files OK | Pages | Seconds | CPU s | Pages/s | × chunkcli | Failures "
        f"| Past {timeout_s:g} s | Peak RSS (MB) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        ratio = f"{r.pages_per_s_on(common) / chunkcli_speed:.2f}" if chunkcli_speed else "–"
        lines.append(
            f"| {TOOL_LABELS[r.tool]} | {r.files_ok}/{len(files)} | {r.pages_ok} "
            f"| {r.seconds:.1f} | {r.cpu_seconds:.1f} | {r.pages_per_s:.1f} | {ratio} "
            f"| {len(r.failures)} "
            f"| {len(r.past_limit)} | {r.peak_rss_mb:.0f} |"
        )
    return "\n".join(lines)


def format_details(skipped: Sequence[str], results: Sequence[ToolResult]) -> str:
    lines = [f"skipped: {item}" for item in skipped]
    for r in results:
        lines += [f"{r.tool} failed: {item}" for item in r.failures]
        lines += [f"{r.tool} past limit: {item}" for item in r.past_limit]
    return "\n".join(lines)


def format_scaling(rows: Sequence[tuple[int, float, int]], pages: int) -> str:
    base = rows[0][1] if rows else 0.0
    lines = [
        "",
        "chunkcli folder mode (`batch.convert_many`, wall clock including worker start-up):",
        "",
        "| Jobs | Seconds | Pages/s | Speed-up | Failures |",
        "| ---: | ---: | ---: | ---: | ---: |",
    ]
    for jobs, seconds, failures in rows:
        speedup = base / seconds if seconds else 0.0
        shown_failures = "n/a" if failures < 0 else str(failures)
        lines.append(
            f"| {jobs} | {seconds:.1f} | {pages / seconds if seconds else 0:.1f} "
            f"| {speedup:.2f} | {shown_failures} |"
        )
    return "\n".join(lines)


def _shown(folder: Path) -> str:
    try:
        return str(folder.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(folder)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="s per file")
    parser.add_argument("--jobs", type=int, default=0, help="also time folder mode with N jobs")
    parser.add_argument("--tools", default=",".join(TOOLS), help="comma-separated subset")
    return parser.parse_args(argv)


def chosen_tools(spec: str, known: Sequence[str]) -> list[str] | None:
    """The tools named in a comma-separated --tools value, or None (after an error line)."""
    tools = [t for t in spec.split(",") if t]
    unknown = sorted(set(tools) - set(known))
    if unknown:
        print(f"error: unknown tool(s) {', '.join(unknown)}; choose from {', '.join(known)}")
        return None
    return tools


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    tools = chosen_tools(args.tools, TOOLS)
    if tools is None:
        return 2
    files, skipped = find_files(args.dir)
    if not files:
        print(f"error: {args.dir}: no PDF that can be opened")
        return 1
    load_before = os.getloadavg()[0]
    results = []
    for tool in tools:
        print(f"running {tool} on {len(files)} files ...", file=sys.stderr, flush=True)
        results.append(run_tool(tool, files, args.timeout))
    load_note = f"{load_before:.1f} at start, {os.getloadavg()[0]:.1f} at end"
    print(format_report(args.dir, files, skipped, results, args.timeout, load_note))
    if args.jobs:
        job_counts = sorted({1, args.jobs})
        rows = []
        for jobs in job_counts:
            print(f"folder mode with {jobs} job(s) ...", file=sys.stderr, flush=True)
            seconds, failures = time_folder_mode(files, jobs, args.timeout)
            rows.append((jobs, seconds, failures))
        print(format_scaling(rows, sum(f.pages for f in files)))
    details = format_details(skipped, results)
    if details:
        print("\n" + details, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Start-up benchmark: CPU (user + system, the process and its workers) of short commands.

    python bench/startup_bench.py [--runs 7]

What a small job costs is mostly imports. Each command runs --runs times in a fresh process;
the table gives the median CPU seconds, read with getrusage(RUSAGE_CHILDREN), so a worker
process that converts the file is counted too. Beside chunkcli's commands, two floors from
the same run: a bare interpreter and a plain `import pymupdf` (which, in PyMuPDF 2, imports its
layout model and pymupdf4llm). Bytecode is compiled first, as `pip install` of a wheel does
(this machine sets PYTHONDONTWRITEBYTECODE, which would add ~0.2 s of compiling to every run).
"""

from __future__ import annotations

import argparse
import datetime
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tests"))

from pdf_factory import Text, make_pdf  # noqa: E402


def report_pdf(folder: Path, pages: int) -> Path:
    lines = [Text(72, 90, "Field Report", size=20, bold=True)]
    lines += [Text(72, 130 + 16 * i, f"Body line {i} of a short report page.") for i in range(30)]
    names = {2: "two", 3: "three"}
    return make_pdf(folder / f"{names[pages]}.pdf", [lines] * pages)


NOTES = "# Field notes\n\n## Pumps\n\nCheck the seals weekly.\n\n## Valves\n\nGrease monthly.\n"


def cpu_seconds(command: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO_ROOT / "chunkcli")],
                   check=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""})  # fmt: skip
    chunkcli = [sys.executable, "-m", "chunkcli"]
    with tempfile.TemporaryDirectory() as folder:
        pdf = str(report_pdf(Path(folder), 2))
        three = str(report_pdf(Path(folder), 3))  # issue 27's goal: at most 0.4 s
        notes = str(Path(folder, "notes.md"))
        Path(notes).write_text(NOTES, encoding="utf-8")
        cases = {
            "python -c pass (floor)": [sys.executable, "-c", "pass"],
            "python -c 'import pymupdf' (PyMuPDF 2 as it imports itself)":
                [sys.executable, "-c", "import pymupdf"],
            "chunkcli --help": [*chunkcli, "--help"],
            "chunkcli convert two.pdf (one worker process)": [*chunkcli, "convert", pdf],
            "chunkcli convert three.pdf (one worker process)": [*chunkcli, "convert", three],
            "chunkcli convert two.pdf --jobs 1 (in process)":
                [*chunkcli, "convert", pdf, "-j", "1"],
            "chunkcli split two.pdf": [*chunkcli, "split", pdf],
            "chunkcli --version": [*chunkcli, "--version"],
            "chunkcli split notes.md": [*chunkcli, "split", notes],
            "chunkcli check notes.md": [*chunkcli, "check", notes],
        }  # fmt: skip
        print(f"Start-up CPU, median of {args.runs} runs, "
              f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, "
              f"load {os.getloadavg()[0]:.1f}\n")  # fmt: skip
        print("| command | CPU s (median) | min | max |\n|---|---:|---:|---:|")
        for name, command in cases.items():
            times = [cpu_seconds(command) for _ in range(args.runs)]
            print(f"| {name} | {statistics.median(times):.2f} | {min(times):.2f} | "
                  f"{max(times):.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()

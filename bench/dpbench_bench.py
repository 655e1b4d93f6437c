"""DP-Bench (public half) through this checkout: convert in folder mode, time it, score it.

    python bench/dpbench_bench.py [--dpbench ../shared/dpbench] [--worst 10] [--keep DIR]
                                  [--ocr force] [--jobs 2]

Converts every PDF of `../shared/dpbench/pdfs/` with this checkout's chunkcli in folder mode
(the default options, both cores), reports the CPU and wall seconds a page, then runs the
benchmark's own `score.py` on the outputs, which prints chunkcli beside the seven published
engines (NID reading order, TEDS tables, MHS headings, Overall). `--ocr force` reads every
page by OCR instead of its text layer: the same pages and ground truth then measure the OCR
path (reading order, headings, tables and figures of a page image). The evaluator's packages live in
their own virtual environment (`~/.venvs/dpbench`, made on first use from its
requirements.txt), so that the project's environment does not carry them.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DPBENCH = REPO_ROOT.parent / "shared" / "dpbench"
EVALUATOR_VENV = Path.home() / ".venvs" / "dpbench"


def evaluator_python(dpbench: Path) -> Path:
    """The evaluator's interpreter, its environment made on first use."""
    python = EVALUATOR_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(EVALUATOR_VENV)], check=True)
        requirements = dpbench / "evaluator" / "requirements.txt"
        subprocess.run([str(python), "-m", "pip", "install", "-q", "-r", str(requirements)],
                       check=True)  # fmt: skip
    return python


def convert_folder(pdfs: Path, out: Path, extra: list[str]) -> tuple[float, float]:
    """(CPU seconds of the command and its workers, wall seconds) of `chunkcli convert`,
    given the `extra` options."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    command = [sys.executable, "-m", "chunkcli", "convert", str(pdfs), "-o", f"{out}/", "-q"]
    command += extra
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, env=env, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dpbench", type=Path, default=DEFAULT_DPBENCH)
    parser.add_argument("--worst", type=int, default=0, help="list the N worst documents")
    parser.add_argument("--keep", type=Path, help="write the Markdown here (default: a temp dir)")
    parser.add_argument("--ocr", choices=("auto", "force", "never"), help="convert's --ocr")
    parser.add_argument("--jobs", type=int, help="convert's --jobs (default: CPU count)")
    args = parser.parse_args()
    pdfs = args.dpbench / "pdfs"
    count = len(list(pdfs.glob("*.pdf")))
    with tempfile.TemporaryDirectory() as scratch:
        out = args.keep or Path(scratch)
        extra = [f"--ocr={args.ocr}"] if args.ocr else []
        extra += [f"--jobs={args.jobs}"] if args.jobs else []
        cpu, wall = convert_folder(pdfs, out, extra)
        cores = os.cpu_count()
        print(f"chunkcli convert: {count} pages, {cpu / count:.3f} s CPU a page, "
              f"{wall / count:.3f} s wall a page (folder mode, {cores} cores)")  # fmt: skip
        score = [str(evaluator_python(args.dpbench)), str(args.dpbench / "score.py"),
                 "--pred-dir", str(out), "--name", "chunkcli"]  # fmt: skip
        if args.worst:
            score += ["--worst", str(args.worst)]
        subprocess.run(score, check=True)


if __name__ == "__main__":
    main()

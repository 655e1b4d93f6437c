"""The fuzz campaign: PDF mutants through convert, split and check, each run classified.

    python bench/fuzz/run.py [--mutants 500] [--seed 15] [--commands convert,split,check]
                             [--timeout 60] [--keep DIR] [--markdown]

Every (file, command) runs `chunkcli` in a child process with a time limit; the outcome is one of
  ok             exit 0
  clean failure  non-zero exit, one line on stderr naming the file, no output file left
  traceback      a Python traceback on stderr
  crash          killed by a signal (a segfault in MuPDF)
  hang           still running at --timeout (chunkcli itself gets half of it as its --timeout,
                 so a slow file that stops at its limit is a clean failure)
  partial output non-zero exit but the output file exists
  noise          stderr lines that are not chunkcli's own `error:`/`warning:`/summary lines,
                 or (check, run with --json) a stdout that is not one JSON document
Then the mutants are converted as one folder with --jobs 1 and with --jobs 2: every Markdown
file must be byte-identical (a file's output must not depend on which worker read what).
Prints the table per command (and the Markdown speed table with --markdown); exit 1 when any run
is a traceback, crash, hang, partial output or noise.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO_ROOT))

from bench.fuzz.mutants import mutants, structural  # noqa: E402

OUTCOMES = ("ok", "clean failure", "traceback", "crash", "hang", "partial output", "noise")
BAD = frozenset(OUTCOMES[2:])
# chunkcli's own stderr lines: one-line errors and warnings naming a file, and the summaries.
OWN_LINE_RE = re.compile(
    r"^(error|warning): |^converted \d+ of |^(blank|damaged) pages|^pages with |^\S.* p\. \d"
    r"|^wrote \d+ chunks? to "
)
OUTPUT_SUFFIX = {"convert": ".md", "split": ".jsonl", "check": ""}
TOOL_SHARE = 0.5  # of the harness's --timeout, given to chunkcli's own --timeout


def chunkcli_command() -> list[str]:
    return [sys.executable, "-m", "chunkcli"]


def classify(command: str, pdf: Path, out_dir: Path, timeout: float) -> str:
    output = out_dir / (pdf.stem + OUTPUT_SUFFIX[command])
    # The tool gets half the time: stopping at its own --timeout is a clean failure; a hang
    # is a run still going at twice that.
    args = [*chunkcli_command(), command, str(pdf), "--timeout", f"{timeout * TOOL_SHARE:g}"]
    if command != "check":
        args += ["-o", str(output)]
    else:
        args += ["--json"]  # machine-readable stdout must parse, whatever MuPDF says
    env = {**os.environ, "COLUMNS": "200"}
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return "hang"
    outcome = outcome_of(done.returncode, done.stderr, output.exists() and command != "check")
    if command == "check" and outcome in ("ok", "clean failure") and done.stdout.strip():
        try:
            json.loads(done.stdout)
        except json.JSONDecodeError:
            return "noise"
    return outcome


def outcome_of(returncode: int, stderr: str, output_exists: bool) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    if "Traceback (most recent call last)" in stderr:
        return "traceback"
    if returncode < 0:
        return "crash"
    if returncode != 0 and output_exists:
        return "partial output"
    if any(not OWN_LINE_RE.match(line) for line in lines):
        return "noise"
    if returncode == 0:
        return "ok"
    # check reports a failing document on stdout and exits 1: also a clean failure.
    return "clean failure" if len(lines) <= 1 else "noise"


def seed_files() -> list[tuple[str, bytes]]:
    return [(p.stem, p.read_bytes()) for p in sorted((REPO_ROOT / "samples").glob("*.pdf"))]


def campaign(
    count: int, seed: int, commands: Sequence[str], timeout: float, keep: Path | None
) -> dict[str, Counter[str]]:
    files = list(structural().items()) + list(mutants(seed_files(), count, seed))
    results: dict[str, Counter[str]] = {command: Counter() for command in commands}
    with tempfile.TemporaryDirectory(prefix="chunkcli-fuzz-") as work:
        root = Path(work)
        for name, data in files:
            pdf = root / f"{name}.pdf"
            pdf.write_bytes(data)
            for command in commands:
                out_dir = root / "out"
                out_dir.mkdir(exist_ok=True)
                outcome = classify(command, pdf, out_dir, timeout)
                results[command][outcome] += 1
                if outcome in BAD:
                    print(f"{command} {name}: {outcome}", file=sys.stderr, flush=True)
                    if keep is not None:
                        keep.mkdir(parents=True, exist_ok=True)
                        (keep / pdf.name).write_bytes(data)
                for leftover in out_dir.iterdir():
                    leftover.unlink()
            pdf.unlink()
    return results


def jobs_differences(count: int, seed: int, timeout: float) -> list[str]:
    """The mutants converted as one folder with --jobs 1 and --jobs 2: the files whose
    Markdown differs (or exists in one run only)."""
    files = list(structural().items()) + list(mutants(seed_files(), count, seed))
    with tempfile.TemporaryDirectory(prefix="chunkcli-jobs-") as work:
        root = Path(work)
        pdfs = root / "pdfs"
        pdfs.mkdir()
        for name, data in files:
            (pdfs / f"{name}.pdf").write_bytes(data)
        for jobs in (1, 2):
            out = str(root / f"jobs{jobs}")
            limit = f"{timeout * TOOL_SHARE:g}"
            args = [*chunkcli_command(), "convert", str(pdfs), "-o", out,
                    "--jobs", str(jobs), "--timeout", limit, "-q"]  # fmt: skip
            subprocess.run(args, capture_output=True, timeout=timeout * len(files), check=False)
        one, two = root / "jobs1", root / "jobs2"
        names = sorted({p.name for p in one.glob("*.md")} | {p.name for p in two.glob("*.md")})
        return [
            n
            for n in names
            if not ((one / n).exists() and (two / n).exists())
            or not filecmp.cmp(one / n, two / n, shallow=False)
        ]


def table(results: dict[str, Counter[str]]) -> str:
    head = "| Command | Files | " + " | ".join(o.capitalize() for o in OUTCOMES) + " |"
    rule = "| --- | ---: | " + " | ".join("---:" for _ in OUTCOMES) + " |"
    rows = [
        f"| {command} | {sum(c.values())} | " + " | ".join(str(c[o]) for o in OUTCOMES) + " |"
        for command, c in results.items()
    ]
    return "\n".join([head, rule, *rows])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--mutants", type=int, default=500)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--commands", default="convert,split,check")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--keep", type=Path, help="copy every bad mutant into this folder")
    parser.add_argument("--markdown", action="store_true", help="also run markdown_speed.py")
    args = parser.parse_args(argv)
    results = campaign(args.mutants, args.seed, args.commands.split(","), args.timeout, args.keep)
    print(table(results))
    bad = sum(c[o] for c in results.values() for o in BAD)
    differing = jobs_differences(args.mutants, args.seed, args.timeout)
    print(f"--jobs 1 vs --jobs 2: {len(differing)} Markdown files differ", *differing[:20])
    bad += len(differing)
    if args.markdown:
        from bench.fuzz.markdown_speed import main as markdown_main

        bad += markdown_main([])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

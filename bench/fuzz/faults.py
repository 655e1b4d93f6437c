"""Faults around the documents (issue 30, points 5 to 9): PDFs whose text is lost or whose page
cannot be drawn, odd names, odd option values, manifests that keep nothing, signals, huge
titles, qa lines. Each scenario runs the real CLI in
a child process, on inputs it builds in a temporary folder. Then the faults during a run
(issue 26, fault_runs.py): kill -9 of convert and sync at random moments, two syncs at once,
files replaced while read, a full disk.

    python bench/fuzz/faults.py [--timeout 60] [--seed 26] [--only table|runs]

A scenario passes when the exit code is the one expected, stderr holds no traceback (and, for a
non-zero exit, only chunkcli's own `error:`/`warning:` lines), machine-readable stdout (JSON
Lines, check --json) parses, no hidden `.tmp` file is left, and a huge title's JSON Lines stay
within HUGE_TITLE_MAX_RATIO of the input. Prints one row per scenario; exit 1 when any fails.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO_ROOT))

from bench.fuzz.fault_runs import PROCEDURES  # noqa: E402

NOTE = "# Notes\n\n## Pumps\n\nCheck the seals weekly.\n"
LATIN1_NAME = os.fsdecode(b"caf\xe9.md")  # a file name that is not UTF-8
# JSON Lines / input for a 100 KB title over 3,000 sections: 4,600 before the bound (issue 30),
# 71 with it (the prefix, title and heading path of each short chunk).
HUGE_TITLE_MAX_RATIO = 200
# chunkcli's own stderr lines: errors and warnings, and the summaries that list failures.
OWN_LINE = re.compile(r"(error|warning): |failed: \d|[\d,]+ documents?: |\S.*: not a regular file")


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str


@dataclass(frozen=True)
class Scenario:
    name: str
    args: tuple[str, ...]  # the CLI arguments; "{f}" stands for the scenario's folder
    code: int  # the exit code expected
    stdout_json: bool = False  # stdout is JSON Lines (or one JSON document)
    stop: signal.Signals | None = None  # sent once the command handles SIGTERM
    runs: int = 1  # run this many times; the last run is judged
    warns: str = ""  # stderr must hold this (lost text is never silent)


# ODD holds a file whose name is not UTF-8; CORPUS does not, so that each scenario meets one fault.
ODD, CORPUS, MANIFEST = "{f}/odd", "{f}/corpus", "{f}/m.db"
# SPECIAL: a Markdown file beside a FIFO and a symlink to /dev/zero named *.md and a symlink
# loop (inputs that are not regular files: refused by name, never read or waited on).
SPECIAL = "{f}/special"
SYNC = ("sync", CORPUS, "-m", MANIFEST, "-o", "-")
TERM, INT = signal.SIGTERM, signal.SIGINT
SCENARIOS = (
    Scenario(
        "split: a content stream declared /DCTDecode",
        ("split", "{f}/dct.pdf"),
        0,
        True,
        warns="page 1: damaged: MuPDF could not read all of it",
    ),
    Scenario(
        "convert: an image page too large to draw (/UserUnit 75000)",
        ("convert", "{f}/huge.pdf", "-o", "{f}/huge.md"),
        0,
        warns="page 2: OCR failed: cannot render the page: Overly large image",
    ),
    Scenario(
        "split: a FIFO, /dev/zero and a symlink loop in the folder",
        ("split", SPECIAL),
        1,
        True,
        warns="x.md: not a regular file",
    ),
    Scenario("check --json: the same folder", ("check", SPECIAL, "--json"), 1, True),
    Scenario(
        "sync: the same folder",
        ("sync", SPECIAL, "-m", "{f}/special.db", "-o", "-"),
        1,
        True,
        warns="z.md: not a regular file",
    ),
    Scenario("split: a name that is not UTF-8", ("split", ODD), 0, True),
    Scenario("check --json: such a name", ("check", ODD, "--json"), 1, True),
    Scenario("sync: such a name", ("sync", ODD, "-m", MANIFEST, "-o", "-"), 0, True),
    Scenario("split --meta not UTF-8", ("split", CORPUS, "--meta", "k=\udce9"), 2),
    Scenario("split --title not UTF-8", ("split", CORPUS, "--title", "\udce9"), 2),
    Scenario("sync -m /dev/full", ("sync", CORPUS, "-m", "/dev/full", "-o", "-"), 2),
    Scenario("sync -m /dev/null", ("sync", CORPUS, "-m", "/dev/null", "-o", "-"), 2),
    Scenario("sync -m :memory:", ("sync", CORPUS, "-m", ":memory:", "-o", "-"), 2),
    Scenario("sync -m X -o X", ("sync", CORPUS, "-m", MANIFEST, "-o", MANIFEST), 2),
    Scenario(
        "sync -m in the corpus",
        ("sync", CORPUS, "-m", f"{CORPUS}/m.md", "-o", "-"),
        0,
        True,
        runs=2,
    ),
    Scenario("split SIGTERM", ("split", "-", "-o", "{f}/out.jsonl"), 143, stop=TERM),
    Scenario("check SIGTERM", ("check", "-"), 143, stop=TERM),
    Scenario("convert SIGTERM", ("convert", "-", "-o", "{f}/out.md"), 143, stop=TERM),
    Scenario("sync SIGTERM", SYNC, 143, stop=TERM),
    Scenario("sync Ctrl-C", SYNC, 130, stop=INT),
    Scenario("split --mode qa, 1 MB of Q: lines", ("split", "{f}/qa.md", "--mode", "qa"), 0, True),
    Scenario("split: a 100 KB title", ("split", "{f}/title.md", "-o", "{f}/title.jsonl"), 0),
)


def chunkcli(args: list[str], timeout: float, stop: signal.Signals | None = None) -> Run:
    child = subprocess.Popen(
        [sys.executable, "-m", "chunkcli", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    if stop is not None:  # (split, check, convert wait on stdin; sync on a full stdout pipe)
        deadline = time.monotonic() + timeout
        while not _handles_sigterm(child.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        child.send_signal(stop)
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        return Run(-1, "", f"past {timeout:g} s")
    return Run(child.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))


def _handles_sigterm(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            caught = next(line for line in status if line.startswith("SigCgt:")).split()[1]
    except (OSError, StopIteration):
        return False
    return bool(int(caught, 16) & (1 << (signal.SIGTERM - 1)))


def make_inputs(folder: Path) -> None:
    odd, corpus = folder / "odd", folder / "corpus"
    odd.mkdir()
    corpus.mkdir()
    (odd / LATIN1_NAME).write_text(NOTE, encoding="utf-8")
    (odd / "plain.md").write_text(NOTE.replace("Pumps", "Valves"), encoding="utf-8")
    (corpus / "plain.md").write_text(NOTE.replace("Pumps", "Valves"), encoding="utf-8")
    sections = "".join(f"## Part {i}\n\nText {i}.\n\n" for i in range(1500))
    (corpus / "big.md").write_text("# Big\n\n" + sections, encoding="utf-8")  # > a pipe's 64 KB
    title = "# " + "long title words " * 6000 + "\n\n"
    (folder / "title.md").write_text(title + "## Part\n\nShort text.\n\n" * 3000, "utf-8")
    (folder / "qa.md").write_text("Q: is this line a question?\n" * 36_000, "utf-8")
    _damaged_pdfs(folder)
    special = folder / "special"
    special.mkdir()
    (special / "a.md").write_text(NOTE, encoding="utf-8")
    os.mkfifo(special / "x.md")
    (special / "z.md").symlink_to("/dev/zero")
    (special / "loop").symlink_to(".")


def _damaged_pdfs(folder: Path) -> None:
    """dct.pdf: its one page's content stream declared an image (MuPDF reads no word of it);
    huge.pdf: a text page, then an image-only page with /UserUnit 75000 (too large to draw)."""
    import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "Every word of this page is lost.", fontsize=11)
    for xref in doc[0].get_contents():
        doc.xref_set_key(xref, "Filter", "/DCTDecode")
    doc.save(folder / "dct.pdf")
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "A page of text before the huge one.", fontsize=11)
    page = doc.new_page()
    pixmap = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 64, 64), False)
    pixmap.clear_with(200)
    page.insert_image(page.rect, pixmap=pixmap)
    doc.xref_set_key(page.xref, "UserUnit", "75000")
    doc.save(folder / "huge.pdf")


def verdict(scenario: Scenario, run: Run, folder: Path) -> str:
    """'ok' or what went wrong."""
    # (Ctrl-C during an exec() of a string, as dataclasses run at import, makes CPython end
    # the process by SIGINT after exiting: a shell sees 130 either way.)
    if run.code != scenario.code and not (scenario.stop == INT and run.code == -INT):
        return f"exit {run.code}, expected {scenario.code}: {run.stderr.strip()[-200:]}"
    foreign = [
        line
        for line in run.stderr.splitlines()
        if scenario.code != 0 and line and not OWN_LINE.match(line)
    ]
    if scenario.warns and scenario.warns not in " ".join(run.stderr.split()):
        return f"no warning {scenario.warns!r}: {run.stderr.strip()[-200:]}"
    if "Traceback" in run.stderr or foreign:
        return f"stderr: {run.stderr.strip()[-200:]}"
    if scenario.stop is not None and not run.stderr.startswith("error: "):
        return "stopped without a word"
    try:
        if scenario.stdout_json and run.stdout.startswith("{\n"):
            json.loads(run.stdout)  # check --json: one document
        elif scenario.stdout_json:
            [json.loads(line) for line in run.stdout.splitlines()]
    except json.JSONDecodeError as exc:
        return f"stdout is not JSON: {exc}"
    leftovers = [p.name for p in folder.rglob("*.tmp")]
    if leftovers:
        return f"left {leftovers}"
    title_lines = folder / "title.jsonl"
    if title_lines.exists():
        ratio = title_lines.stat().st_size / (folder / "title.md").stat().st_size
        if ratio > HUGE_TITLE_MAX_RATIO:
            return f"JSON Lines {ratio:.0f}x the input"
    return "ok"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=26, help="the kill moments' random seed")
    parser.add_argument("--only", choices=("table", "runs"), help="one of the two parts")
    args = parser.parse_args(argv)
    failed = 0 if args.only == "runs" else table_scenarios(args.timeout)
    if args.only != "table":
        failed += fault_runs(random.Random(args.seed))
    return 1 if failed else 0


def fault_runs(rng: random.Random) -> int:
    """The faults during a run: one row per scenario with its trials; the failures' count."""
    print("\n| Fault during a run | Trials | Verdict | Where the faults landed |")
    print("| --- | --- | --- | --- |")
    failed = 0
    for procedure in PROCEDURES:
        with tempfile.TemporaryDirectory(prefix="chunkcli-faults-") as name:
            row = procedure(Path(name), rng)
        verdict = "ok" if not row.failures else f"{len(row.failures)} failed: {row.failures[0]}"
        print(f"| {row.scenario} | {row.trials} | {verdict} | {row.seen} |", flush=True)
        for failure in row.failures[1:]:
            print(f"|  |  | {failure} |  |")
        failed += bool(row.failures)
    print(f"\n{len(PROCEDURES) - failed}/{len(PROCEDURES)} fault scenarios ok")
    return failed


def table_scenarios(timeout: float) -> int:
    """The scenarios of the first table: one CLI run each; the failures' count."""
    failed = 0
    print("| Scenario | Verdict |\n| --- | --- |")
    for scenario in SCENARIOS:
        with tempfile.TemporaryDirectory(prefix="chunkcli-faults-") as name:
            make_inputs(Path(name))
            command = [a.replace("{f}", name) for a in scenario.args]
            for _ in range(scenario.runs):
                run = chunkcli(command, timeout, scenario.stop)
            result = verdict(scenario, run, Path(name))
        failed += result != "ok"
        print(f"| {scenario.name} | {result} |", flush=True)
    print(f"\n{len(SCENARIOS) - failed}/{len(SCENARIOS)} ok")
    return failed


if __name__ == "__main__":
    sys.exit(main())

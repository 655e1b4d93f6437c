"""Faults during a run (issue 26): kill -9 of a folder `convert` and of `sync` at random
moments, two `sync`s at once on a new manifest, files replaced while they are read, and a full
disk for output files, the manifest and standard output. Each trial runs the real CLI in child
processes on inputs built in a temporary folder, and is judged against a clean run:

- kill -9: no process of the run survives it; every Markdown file left is byte-identical to the
  clean run's; the manifest passes SQLite's integrity check and holds the old generation or the
  new one (then the changes file is the clean run's, whole); a rerun exits 0 and ends where the
  clean run ended (the same files, the same chunk ids), with no temporary file left;
- two syncs: each exits 0, or 1 with one `manifest is locked` line; one of them runs; a third
  run has nothing left to do;
- replaced while read: exit 0 or 1, chunkcli's own stderr lines only, and the replaced file's
  output is that of one of its versions, or absent with an error naming it;
- full disk: a small tmpfs (`mount -t tmpfs`; without the right to mount, /dev/full stands in
  for standard output and files are not tried): exit 1, one line per file or stream, no partial
  file, no temporary file, the manifest whole.

Used by faults.py (`python bench/fuzz/faults.py`), which prints one row per scenario.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# chunkcli's own stderr lines (the folder summaries included).
OWN_PREFIXES = ("error: ", "warning: ", "converted ", "failed: ", "  ", "pages ", "blank pages")
KILL_TRIALS = 10
TWO_SYNC_TRIALS = 10
SWAP_EVERY_S = 0.003
# A run's processes must be gone this soon after its parent is killed (workers die with it).
ORPHAN_WAIT_S = 3.0
TMPFS_BYTES = 256 * 1024


@dataclass(frozen=True)
class Row:
    scenario: str
    trials: int
    failures: tuple[str, ...]
    seen: str = ""  # where the faults landed (so that a pass means something)


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "chunkcli", *args]


def run(*args: str, timeout: float = 300, stdout: Any = subprocess.PIPE) -> tuple[int, str]:
    """Exit code and stderr of one chunkcli run (stdout: a pipe, or a file to write to)."""
    done = subprocess.run(command(*args), stdout=stdout, stderr=subprocess.PIPE,
                          timeout=timeout, check=False)  # fmt: skip
    return done.returncode, done.stderr.decode("utf-8", "replace")


def foreign_lines(stderr: str) -> list[str]:
    """stderr lines that are not chunkcli's own (a traceback, a library's noise)."""
    return [line for line in stderr.splitlines() if line and not line.startswith(OWN_PREFIXES)]


# --- inputs -------------------------------------------------------------------------------------


def text_pdf(path: Path, title: str, pages: int) -> Path:
    import pymupdf

    doc = pymupdf.open()
    for number in range(1, pages + 1):
        page = doc.new_page()
        page.insert_text((72, 80), f"{title} part {number}", fontsize=18)
        for line in range(30):
            words = f"{title} line {line} of page {number}: the pump is checked every week."
            page.insert_text((72, 120 + 20 * line), words, fontsize=10)
    doc.save(path)
    doc.close()
    return path


def pdf_folder(folder: Path, count: int = 16) -> Path:
    folder.mkdir(parents=True)
    for index in range(count):
        text_pdf(folder / f"doc{index:02}.pdf", f"Document {index}", 3 + index % 4)
    return folder


def markdown_text(index: int, edit: str = "") -> str:
    sections = "".join(f"## Part {i}\n\nText {i} of note {index}{edit}.\n\n" for i in range(80))
    return f"# Note {index}\n\n{sections}"


def markdown_corpus(folder: Path, count: int = 30) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for index in range(count):
        (folder / f"note{index:02}.md").write_text(markdown_text(index), encoding="utf-8")
    text_pdf(folder / "manual.pdf", "Manual", 4)
    return folder


def edit_corpus(folder: Path) -> None:
    """Five notes edited, two deleted, two added: the second sync's changes."""
    for index in range(5):
        (folder / f"note{index:02}.md").write_text(markdown_text(index, " (edited)"), "utf-8")
    for index in (10, 11):
        (folder / f"note{index:02}.md").unlink()
    for index in (90, 91):
        (folder / f"note{index:02}.md").write_text(markdown_text(index), encoding="utf-8")


# --- what a run left ------------------------------------------------------------------------


def markdown_files(folder: Path) -> dict[str, bytes]:
    if not folder.is_dir():
        return {}
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.md"))}


def temporary_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*.tmp"))


def survivors(marker: str) -> list[int]:
    """Processes whose command line holds `marker` (this run's unique folder)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
    return found


def wait_for_no_survivors(marker: str) -> list[int]:
    deadline = time.monotonic() + ORPHAN_WAIT_S
    while (left := survivors(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def manifest_state(path: Path) -> tuple[str, int, list[str]]:
    """SQLite's integrity verdict, the committed generation, the chunk ids."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        found = db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        ids = [row[0] for row in db.execute("SELECT id FROM chunks ORDER BY id")]
    finally:
        db.close()
    return integrity, int(found[0]) if found else 0, ids


def timed_run(args: list[str], out: Path) -> tuple[int, float, float]:
    """Exit code, seconds until the first Markdown file appeared in `out`, seconds in all."""
    started = time.monotonic()
    child = subprocess.Popen(command(*args), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    first = None
    while child.poll() is None:
        if first is None and out.is_dir() and any(out.glob("*.md")):
            first = time.monotonic() - started
        time.sleep(0.02)
    seconds = time.monotonic() - started
    return child.returncode, seconds if first is None else first, seconds


def killed_at(args: list[str], delay: float) -> None:
    """Start chunkcli, kill -9 its main process after `delay` seconds, reap it."""
    child = subprocess.Popen(command(*args), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    child.kill()
    child.wait()


# --- kill -9 ------------------------------------------------------------------------------------


def kill_convert(folder: Path, rng: random.Random) -> Row:
    """kill -9 of `convert FOLDER -o OUT/ --jobs 2` at random moments of a clean run's time."""
    corpus = pdf_folder(folder / "pdfs")
    args = ["convert", str(corpus), "-o", f"{folder}/clean/", "--jobs", "2", "-q"]
    code, first_file, seconds = timed_run(args, folder / "clean")
    clean = markdown_files(folder / "clean")
    failures = [] if code == 0 and clean else [f"clean run: exit {code}"]
    written = []
    for trial in range(KILL_TRIALS):
        out = folder / f"killed{trial}"
        args = ["convert", str(corpus), "-o", f"{out}/", "--jobs", "2", "-q"]
        killed_at(args, rng.uniform(0.8 * first_file, seconds))  # (start-up is not the run)
        written.append(len(markdown_files(out)))
        failures += [f"trial {trial}: {p}" for p in _after_convert_kill(out, args, clean)]
    seen = f"files written at the kill: {sorted(written)} of {len(clean)}"
    return Row("kill -9 of convert FOLDER (random moments)", KILL_TRIALS, tuple(failures), seen)


def _after_convert_kill(out: Path, args: list[str], clean: dict[str, bytes]) -> list[str]:
    problems = []
    if left := wait_for_no_survivors(str(out)):
        problems.append(f"processes still running: {left}")
    torn = [name for name, data in markdown_files(out).items() if data != clean.get(name)]
    if torn:
        problems.append(f"not whole: {torn}")
    code, err = run(*args)
    if code != 0 or foreign_lines(err):
        problems.append(f"rerun: exit {code}: {err[-200:]}")
    if markdown_files(out) != clean:
        problems.append("rerun: output differs from the clean run")
    if leftovers := temporary_files(out):
        problems.append(f"rerun left {leftovers}")
    return problems


def kill_sync(folder: Path, rng: random.Random) -> Row:
    """kill -9 of a second `sync` (edits, deletions, additions) at random moments."""
    corpus, manifest, changes = folder / "corpus", folder / "m.db", folder / "changes.jsonl"
    sync = ["sync", str(corpus), "-m", str(manifest), "-o", str(changes), "-q", "--jobs", "2"]

    def first_generation() -> None:
        for path in (manifest, *manifest.parent.glob("m.db-*"), changes):
            path.unlink(missing_ok=True)
        markdown_corpus(corpus)
        run(*sync)
        edit_corpus(corpus)

    first_generation()
    started = time.monotonic()
    code, err = run(*sync)
    seconds = time.monotonic() - started
    clean_changes = changes.read_bytes() if changes.exists() else b""
    clean_ids = manifest_state(manifest)[2]
    failures = [] if code == 0 and clean_changes else [f"clean run: exit {code}: {err[-200:]}"]
    generations = []
    for trial in range(KILL_TRIALS):
        first_generation()
        killed_at(sync, rng.uniform(0.0, seconds))
        generations.append(manifest_state(manifest)[1])
        found = _after_sync_kill(folder, sync, clean_changes, clean_ids)
        failures += [f"trial {trial}: {problem}" for problem in found]
    seen = f"killed before the commit {generations.count(1)}, after {generations.count(2)}"
    return Row("kill -9 of sync (random moments)", KILL_TRIALS, tuple(failures), seen)


def _after_sync_kill(
    folder: Path, sync: list[str], clean_changes: bytes, clean_ids: list[str]
) -> list[str]:
    manifest, changes = folder / "m.db", folder / "changes.jsonl"
    problems = []
    if left := wait_for_no_survivors(str(folder / "corpus")):
        problems.append(f"processes still running: {left}")
    integrity, generation, _ = manifest_state(manifest)
    if integrity != "ok" or generation not in (1, 2):
        problems.append(f"manifest: {integrity}, generation {generation}")
    if generation == 2 and changes.read_bytes() != clean_changes:
        problems.append("committed, but the changes file is not the clean run's")
    code, err = run(*sync)
    rerun_changes = changes.read_bytes() if changes.exists() else None
    if code != 0 or foreign_lines(err):
        problems.append(f"rerun: exit {code}: {err[-200:]}")
    if rerun_changes != (clean_changes if generation == 1 else b""):
        problems.append(f"rerun after generation {generation}: unexpected changes")
    if manifest_state(manifest)[2] != clean_ids:
        problems.append("rerun: the manifest's chunks differ from the clean run's")
    if leftovers := temporary_files(folder):
        problems.append(f"rerun left {leftovers}")
    return problems


# --- two syncs at once --------------------------------------------------------------------------


def two_syncs(folder: Path, rng: random.Random) -> Row:
    """Two `sync`s started together on a new manifest (and their own changes files)."""
    corpus = markdown_corpus(folder / "corpus", count=10)
    failures: list[str] = []
    codes: list[tuple[int, ...]] = []
    for trial in range(TWO_SYNC_TRIALS):
        manifest = folder / f"m{trial}.db"
        syncs = [
            subprocess.Popen(
                command(
                    "sync",
                    str(corpus),
                    "-m",
                    str(manifest),
                    "-o",
                    str(folder / f"c{trial}{side}.jsonl"),
                    "-q",
                ),
                stderr=subprocess.PIPE,
            )  # fmt: skip
            for side in "ab"
        ]
        ends = [(s.wait(timeout=300), s.communicate()[1].decode()) for s in syncs]
        codes.append(tuple(sorted(code for code, _ in ends)))
        found = _judge_two_syncs(corpus, manifest, ends)
        failures += [f"trial {trial}: {problem}" for problem in found]
    seen = f"one locked {codes.count((0, 1))}, both ran (one after the other) {codes.count((0, 0))}"
    return Row("two syncs at once on a new manifest", TWO_SYNC_TRIALS, tuple(failures), seen)


def _judge_two_syncs(corpus: Path, manifest: Path, ends: list[tuple[int, str]]) -> list[str]:
    problems = []
    locked = "manifest is locked: another sync is running on it\n"
    for code, err in ends:
        if not ((code, err) == (0, "") or (code == 1 and err.endswith(locked))):
            problems.append(f"exit {code}: {err[-200:]}")
    if 0 not in [code for code, _ in ends]:
        problems.append("neither ran")
    if manifest_state(manifest)[0] != "ok":
        problems.append("manifest integrity")
    done = subprocess.run(command("sync", str(corpus), "-m", str(manifest), "-o", "-", "-q"),
                          capture_output=True, timeout=300, check=False)  # fmt: skip
    if done.returncode != 0 or done.stdout:
        problems.append(f"a third run: exit {done.returncode}, {len(done.stdout)} bytes of changes")
    return problems


# --- files replaced while they are read ---------------------------------------------------------


@contextlib.contextmanager
def swapping(target: Path, versions: list[Path], in_place: bool) -> Iterator[None]:
    """Replace `target` by each version in turn until the block ends: by rename (atomic, as an
    editor saves), or in place (truncated, then written in two halves)."""
    stop = threading.Event()

    def swap() -> None:
        turn = 0
        while not stop.is_set():
            source = versions[turn % len(versions)]
            if in_place:
                data = source.read_bytes()
                with target.open("wb") as handle:
                    handle.write(data[: len(data) // 2])
                    handle.flush()
                    time.sleep(SWAP_EVERY_S)
                    handle.write(data[len(data) // 2 :])
            else:
                shutil.copyfile(source, target.with_name(target.name + ".swap"))
                os.replace(target.with_name(target.name + ".swap"), target)
            turn += 1
            time.sleep(SWAP_EVERY_S)

    thread = threading.Thread(target=swap, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def replaced_while_read(folder: Path, rng: random.Random) -> Row:
    """A PDF and a Markdown file replaced again and again while convert, split and check read
    the folder."""
    corpus = pdf_folder(folder / "pdfs", count=6)
    pdfs = [text_pdf(folder / f"v{i}.pdf", f"Version {i}", 2 + 3 * i) for i in (1, 2)]
    notes = [folder / f"v{i}.md" for i in (1, 2)]
    for index, note in enumerate(notes, 1):
        note.write_text(markdown_text(index, f" version {index}"), encoding="utf-8")
    clean = []
    for version in pdfs:
        shutil.copyfile(version, corpus / "moving.pdf")
        run("convert", str(corpus / "moving.pdf"), "-o", str(folder / "ref.md"), "-q")
        clean.append((folder / "ref.md").read_bytes())
    moving = Moving(corpus, pdfs, notes, clean)
    failures, trials = [], 0
    for in_place in (False, True):
        for name in ("convert", "split", "check"):
            trials += 1
            found = _one_replaced_run(folder, moving, name, in_place)
            how = "in place" if in_place else "by rename"
            failures += [f"{name} ({how}): {problem}" for problem in found]
    return Row("a PDF and a Markdown file replaced while read", trials, tuple(failures))


@dataclass(frozen=True)
class Moving:
    """The folder read, the two versions of its moving.pdf and moving.md, and the Markdown
    convert makes of each PDF version."""

    corpus: Path
    pdfs: list[Path]
    notes: list[Path]
    clean: list[bytes]


def _one_replaced_run(folder: Path, moving: Moving, name: str, in_place: bool) -> list[str]:
    corpus, clean = moving.corpus, moving.clean
    out = folder / f"out-{name}-{int(in_place)}"
    args = {"convert": ["convert", str(corpus), "-o", f"{out}/"],
            "split": ["split", str(corpus), "-o", f"{out}.jsonl"],
            "check": ["check", str(corpus), "--json", "-o", f"{out}.json"]}[name]  # fmt: skip
    with (
        swapping(corpus / "moving.pdf", moving.pdfs, in_place),
        swapping(corpus / "moving.md", moving.notes, in_place),
    ):
        code, err = run(*args, "-q", "--jobs", "2")
    problems = []
    if code not in (0, 1) or foreign_lines(err):
        problems.append(f"exit {code}: {err[-300:]}")
    if name == "convert" and not in_place:
        moved = (out / "moving.md").read_bytes() if (out / "moving.md").exists() else None
        if moved is None and "moving.pdf" not in err:
            problems.append("moving.md missing without an error naming moving.pdf")
        if moved is not None and moved not in clean:
            problems.append("moving.md is neither version's Markdown")
    if leftovers := temporary_files(folder):
        problems.append(f"left {leftovers}")
    return problems


# --- a full disk --------------------------------------------------------------------------------


@contextlib.contextmanager
def small_disk(folder: Path) -> Iterator[Path | None]:
    """A TMPFS_BYTES tmpfs mounted on folder/disk, or None when this process may not mount."""
    disk = folder / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={TMPFS_BYTES}", "tmpfs",
                              str(disk)], capture_output=True, check=False)  # fmt: skip
    if mounted.returncode != 0:
        yield None
        return
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def full_disk(folder: Path, rng: random.Random) -> Row:
    """Outputs, the manifest and standard output on a disk that fills up."""
    pdfs = pdf_folder(folder / "pdfs", count=24)
    notes = markdown_corpus(folder / "notes", count=40)
    one_pdf = pdfs / "doc03.pdf"
    # (label, bytes left free, the check): some Markdown files fit in 64 KB, a corpus's chunks
    # do not; a manifest and standard output get no room at all.
    checks: list[tuple[str, int, Callable[[Path], list[str]]]] = [
        ("convert FOLDER -o DISK/", 64 * 1024, lambda disk: _full_convert(pdfs, disk)),
        ("split -o DISK/chunks.jsonl", 64 * 1024, lambda disk: _full_file(notes, disk, "split")),
        ("sync -m DISK/m.db", 0, lambda disk: _full_manifest(notes, disk)),
        ("split > DISK/file", 0, lambda disk: _full_stdout(notes, disk, "split")),
        ("sync -o - > DISK/file", 0, lambda disk: _full_stdout(notes, disk, "sync")),
        ("convert x.pdf > DISK/file", 0, lambda disk: _full_stdout(one_pdf, disk, "convert")),
    ]  # fmt: skip
    failures = []
    with small_disk(folder) as disk:
        if disk is None:
            return _full_stdout_only(folder, pdfs, notes)
        for label, free, check in checks:
            _fill(disk, free)
            failures += [f"{label}: {problem}" for problem in check(disk)]
            for path in disk.iterdir():
                shutil.rmtree(path) if path.is_dir() else path.unlink()
    return Row(f"a full disk (tmpfs of {TMPFS_BYTES // 1024} KB)", len(checks), tuple(failures))


def _fill(disk: Path, free: int) -> None:
    """Leave `free` bytes free on the disk (or less: tmpfs counts whole pages)."""
    room = shutil.disk_usage(disk).free
    with contextlib.suppress(OSError):  # filled to the last byte
        (disk / "filler").write_bytes(b"\0" * max(0, room - free))


def _one_line_each(err: str) -> list[str]:
    lines = [line for line in err.splitlines() if line]
    if foreign_lines(err) or not any("No space left on device" in line for line in lines):
        return [f"stderr: {err[-300:]}"]
    return []


def _full_convert(pdfs: Path, disk: Path) -> list[str]:
    clean = markdown_files(pdfs.parent / "clean-full") or _clean_convert(pdfs)
    code, err = run("convert", str(pdfs), "-o", f"{disk}/md/", "-q", "--jobs", "2")
    problems = [] if code == 1 else [f"exit {code}"]
    problems += _one_line_each(err)
    torn = [n for n, data in markdown_files(disk / "md").items() if data != clean.get(n)]
    problems += [f"not whole: {torn}"] if torn else []
    problems += [f"left {t}"] if (t := temporary_files(disk)) else []
    return problems


def _clean_convert(pdfs: Path) -> dict[str, bytes]:
    run("convert", str(pdfs), "-o", f"{pdfs.parent}/clean-full/", "-q")
    return markdown_files(pdfs.parent / "clean-full")


def _full_file(notes: Path, disk: Path, name: str) -> list[str]:
    code, err = run(name, str(notes), "-o", str(disk / "chunks.jsonl"), "-q")
    problems = [] if code == 1 else [f"exit {code}"]
    problems += _one_line_each(err)
    problems += ["a partial chunks.jsonl"] if (disk / "chunks.jsonl").exists() else []
    problems += [f"left {t}"] if (t := temporary_files(disk)) else []
    return problems


def _full_manifest(notes: Path, disk: Path) -> list[str]:
    manifest = disk / "m.db"
    code, err = run("sync", str(notes), "-m", str(manifest), "-o", str(disk.parent / "c.jsonl"))
    problems = [] if code == 1 else [f"exit {code}"]
    if "cannot write the manifest" not in err and "cannot create the manifest" not in err:
        problems.append(f"stderr: {err[-300:]}")
    problems += [f"stderr: {err[-300:]}"] if foreign_lines(err) else []
    if manifest.exists() and manifest_state(manifest)[0] != "ok":
        problems.append("manifest integrity")
    return problems


def _full_stdout(source: Path, disk: Path, name: str) -> list[str]:
    args = [name, str(source), "-q"]
    manifest = disk.parent / f"stdout-{name}.db"
    if name == "sync":
        args += ["-m", str(manifest), "-o", "-"]
    with (disk / "stdout").open("wb") as stdout:
        code, err = run(*args, stdout=stdout)
    problems = [] if code == 1 else [f"exit {code}"]
    problems += _one_line_each(err)
    if name == "sync" and manifest.exists() and manifest_state(manifest)[1] != 0:
        problems.append("the manifest committed changes its stdout did not take")
    return problems


def _full_stdout_only(folder: Path, pdfs: Path, notes: Path) -> Row:
    """Without the right to mount: /dev/full as standard output (files are not tried)."""
    failures = []
    for name, source in (("split", notes), ("sync", notes), ("convert", pdfs / "doc03.pdf")):
        args = [name, str(source), "-q"]
        if name == "sync":
            args += ["-m", str(folder / "full.db"), "-o", "-"]
        with open("/dev/full", "wb") as full:
            code, err = run(*args, stdout=full)
        if code != 1 or _one_line_each(err):
            failures.append(f"{name} > /dev/full: exit {code}: {err[-200:]}")
    return Row("a full stdout (/dev/full: no right to mount a tmpfs)", 3, tuple(failures))


PROCEDURES: tuple[Callable[[Path, random.Random], Row], ...] = (
    kill_convert,
    kill_sync,
    two_syncs,
    replaced_while_read,
    full_disk,
)

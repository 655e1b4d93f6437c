"""Integrity under faults (issue 30, points 6, 7 and 9): odd names and option values, bounded
chunk metadata, linear qa mode, leftovers of killed writes, signals and manifest misuse. Each
test builds its own small input and fails on the code before the fix."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import overload

import pytest
from typer.testing import CliRunner

from chunkcli.cli import app
from chunkcli.split.lines import PieceLine
from chunkcli.split.qa import find_questions

runner = CliRunner()
NOTE = "# Notes\n\n## Pumps\n\nCheck the seals weekly.\n"


class CountingLines(Sequence[PieceLine]):
    """A line list that counts the items read from it (one per index, n per slice)."""

    def __init__(self, lines: list[PieceLine]) -> None:
        self.lines = lines
        self.reads = 0

    @overload
    def __getitem__(self, index: int) -> PieceLine: ...
    @overload
    def __getitem__(self, index: slice) -> list[PieceLine]: ...
    def __getitem__(self, index: int | slice) -> PieceLine | list[PieceLine]:
        found = self.lines[index]
        self.reads += len(found) if isinstance(found, list) else 1
        return found

    def __len__(self) -> int:
        return len(self.lines)

    def __iter__(self) -> Iterator[PieceLine]:
        for line in self.lines:
            self.reads += 1
            yield line


def test_qa_questions_read_each_line_a_bounded_number_of_times() -> None:
    """Issue 30, point 7: each question copied the rest of the line list (2 MB of `Q:` lines
    took 242 s); now each line is read a few times whatever the document's length."""
    from chunkcli.markdown_lines import line_offsets
    from chunkcli.split import SplitOptions
    from chunkcli.split.counting import counter_per_span
    from chunkcli.split.layout import find_title, make_layout
    from chunkcli.split.lines import text_lines
    from chunkcli.split.scan import scan_markdown

    markdown = "Q: is this a question?\n" * 2000
    scan = scan_markdown(markdown, counter_per_span(markdown, len))
    title = find_title(scan.pieces, None, "")
    layout = make_layout(markdown, scan.pieces, title, len, SplitOptions(mode="qa"), False)
    lines = CountingLines(text_lines(markdown, layout.pieces, line_offsets(markdown)))
    questions = find_questions(lines, layout, title[1])
    assert len(questions) == 2000
    assert lines.reads <= 4 * len(lines)


def test_title_and_heading_path_names_are_bounded_and_bodies_whole() -> None:
    """Issue 30, point 7: every chunk copied a 100 KB title whole into `title` and
    `heading_path` (JSON Lines 4,600 times the input). Each is cut to 1,000 characters."""
    from chunkcli.split import split_markdown
    from chunkcli.split.build import MAX_NAME_CHARS

    title = "Title words " * 2000
    section = "## " + "Long heading " * 100 + "\n\nText of one short section.\n\n"
    markdown = f"# {title}\n\n" + section * 20
    chunks = split_markdown(markdown)
    cut_title = title.strip()[: MAX_NAME_CHARS - 1] + "…"
    cut_heading = ("Long heading " * 100).strip()
    assert {c.title for c in chunks} == {cut_title}
    paths = {c.heading_path for c in chunks}
    assert paths == {(cut_title,), (cut_title, cut_heading[:999] + "…")}
    assert all(c.body == markdown[c.start : c.end] for c in chunks)
    assert "".join(c.body for c in chunks).count("Text of one short section.") == 20


def test_pieces_are_written_as_they_come_and_renamed_whole(tmp_path: Path) -> None:
    """Issue 30, point 7: JSON Lines were built as one string before writing. Pieces now go to
    the hidden temporary file as they come; the target appears only whole."""
    from chunkcli.files import write_atomic

    target = tmp_path / "chunks.jsonl"
    first = '{"id": "a"}\n' * 10_000  # larger than any write buffer

    def pieces() -> Iterator[str]:
        yield first
        [temp] = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
        assert temp.stat().st_size == len(first)  # on disk before the next piece is made
        assert not target.exists()
        yield '{"id": "b"}\n'

    write_atomic(target, pieces())
    assert target.read_text(encoding="utf-8") == first + '{"id": "b"}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chunks.jsonl"]


def test_pieces_that_fail_leave_the_target_and_no_temporary_file(tmp_path: Path) -> None:
    from chunkcli.files import write_atomic

    target = tmp_path / "chunks.jsonl"
    target.write_text("old\n", encoding="utf-8")

    def pieces() -> Iterator[str]:
        yield "new\n"
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, pieces())
    assert target.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chunks.jsonl"]


KILLED_WRITER = """
import sys
from chunkcli.files import write_atomic
def pieces():
    yield "part\\n" * 5000
    sys.stdin.read()  # blocks until killed
write_atomic(sys.argv[1], pieces())
"""


def test_a_killed_writers_temporary_file_is_removed_by_the_next_write(tmp_path: Path) -> None:
    """Issue 30, point 9: kill -9 during a write left a hidden .tmp file that no later run
    removed. The next write to the same target removes it (a live writer's stays)."""
    target = tmp_path / "chunks.jsonl"
    writer = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(target)], stdin=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while not [p for p in tmp_path.iterdir() if p.stat().st_size > 0]:
        assert time.monotonic() < deadline and writer.poll() is None
        time.sleep(0.05)
    writer.kill()
    writer.wait()
    [leftover] = [p.name for p in tmp_path.iterdir()]
    assert leftover.startswith(".chunks.jsonl.") and leftover.endswith(".tmp")
    alive = subprocess.Popen(["sleep", "60"])
    try:
        live_temp = tmp_path / f".chunks.jsonl.{alive.pid}.abcdefgh.tmp"
        other_target = tmp_path / f".chunks.jsonl.{writer.pid}.{writer.pid}.abcdefgh.tmp"
        live_temp.write_text("", encoding="utf-8")
        other_target.write_text("", encoding="utf-8")
        notes = tmp_path / "notes.md"
        notes.write_text(NOTE, encoding="utf-8")
        done = runner.invoke(app, ["split", str(notes), "-o", str(target), "-q"])
        assert done.exit_code == 0, done.output
        names = sorted(p.name for p in tmp_path.iterdir())
        assert names == sorted(["chunks.jsonl", "notes.md", live_temp.name, other_target.name])
    finally:
        alive.kill()
        alive.wait()


def _latin1_corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    name = os.fsdecode(b"caf\xe9.md")  # a Latin-1 file name: not UTF-8
    (corpus / name).write_text(NOTE, encoding="utf-8")
    (corpus / "plain.md").write_text(NOTE.replace("Pumps", "Valves"), encoding="utf-8")
    return corpus


def test_a_file_name_that_is_not_utf8_is_written_as_backslash_x(tmp_path: Path) -> None:
    """Issue 30, point 6: such a name lost the whole split, check or sync run
    (UnicodeEncodeError in the chunk id). Its bytes are written as \\xNN in ids and sources."""
    corpus = _latin1_corpus(tmp_path)
    out = tmp_path / "chunks.jsonl"
    done = runner.invoke(app, ["split", str(corpus), "-o", str(out), "-q"])
    assert done.exit_code == 0, done.output
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(c["doc_id"], c["source"]) for c in lines] == [
        ("caf\\xe9.md", f"{corpus}/caf\\xe9.md"),
        ("plain.md", f"{corpus}/plain.md"),
    ]
    done = runner.invoke(app, ["check", str(corpus), "--json", "-q"])
    assert done.exception is None or isinstance(done.exception, SystemExit), done.output
    report = json.loads(done.stdout)
    assert [d["source"] for d in report["documents"]] == [
        f"{corpus}/caf\\xe9.md",
        f"{corpus}/plain.md",
    ]
    sync = ["sync", str(corpus), "-m", str(tmp_path / "m.db"), "-o", str(tmp_path / "c.jsonl")]
    for expected in (2, 0):  # it settles on the second run
        done = runner.invoke(app, [*sync, "-q"])
        assert done.exit_code == 0, done.output
        changes = (tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(changes) == expected
    done = runner.invoke(app, ["split", str(corpus / os.fsdecode(b"caf\xe9.md")), "-q"])
    assert done.exit_code == 0 and json.loads(done.stdout)["doc_id"] == "caf\\xe9.md"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["split", "--meta", "k=\udce9"], "error: --meta: not UTF-8 text: k=\\xe9"),
        (["split", "--title", "T\udce9"], "error: --title: not UTF-8 text: T\\xe9"),
        (["split", "--source", "\udce9.md"], "error: --source: not UTF-8 text: \\xe9.md"),
        (["split", "--doc-id", "\udce9"], "error: --doc-id: not UTF-8 text: \\xe9"),
        (["sync", "--meta", "k=\udce9"], "error: --meta: not UTF-8 text: k=\\xe9"),
        (["check", "--password", "\udce9"], "error: --password: not UTF-8 text"),
    ],
)
def test_flag_values_that_are_not_utf8_are_usage_errors(
    tmp_path: Path, args: list[str], message: str
) -> None:
    """Issue 30, point 6: non-UTF-8 --meta, --source, --title were tracebacks."""
    notes = tmp_path / "notes.md"
    notes.write_text(NOTE, encoding="utf-8")
    command, *flags = args
    where = [str(tmp_path), "-m", str(tmp_path / "m.db")] if command == "sync" else [str(notes)]
    done = runner.invoke(app, [command, *where, *flags, "-o", str(tmp_path / "out")])
    assert done.exit_code == 2
    assert done.output.strip() == message


def _corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "notes.md").write_text(NOTE, encoding="utf-8")
    return corpus


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ("/dev/full", "error: --manifest /dev/full: not a regular file"),
        ("/dev/null", "error: --manifest /dev/null: not a regular file"),
        (":memory:", "error: --manifest ':memory:' keeps nothing: give a file"),
    ],
)
def test_a_manifest_that_keeps_nothing_is_refused(
    tmp_path: Path, manifest: str, message: str
) -> None:
    """Issue 30, points 6 and 9: /dev/full and /dev/null were tracebacks, :memory: silently
    kept nothing (every run re-sent everything)."""
    if not Path(manifest).exists() and manifest.startswith("/"):
        pytest.skip(f"no {manifest} here")
    corpus = _corpus(tmp_path)
    changes = tmp_path / "c.jsonl"
    done = runner.invoke(app, ["sync", str(corpus), "-m", manifest, "-o", str(changes)])
    assert (done.exit_code, done.output.strip()) == (2, message)
    assert not changes.exists()


def test_the_changes_file_cannot_be_the_manifest(tmp_path: Path) -> None:
    """Issue 30, point 9: `-m X -o X` was accepted (the changes replaced the manifest)."""
    corpus = _corpus(tmp_path)
    same = tmp_path / "index.db"
    for output in (same, tmp_path / "index.db-wal", tmp_path / "sub" / ".." / "index.db"):
        done = runner.invoke(app, ["sync", str(corpus), "-m", str(same), "-o", str(output)])
        assert done.exit_code == 2
        expected = f"error: -o {output} is the manifest: give the changes file another name"
        assert done.output.strip() == expected
    assert not same.exists()


def test_a_manifest_inside_the_corpus_is_never_a_document(tmp_path: Path) -> None:
    """Issue 30, point 9: a manifest named *.md inside the corpus was indexed (and failed as
    "not UTF-8" on the next run)."""
    corpus = _corpus(tmp_path)
    manifest = corpus / "index.md"
    sync = ["sync", str(corpus), "-m", str(manifest), "-o", str(tmp_path / "c.jsonl")]
    for upserts in (1, 0):
        done = runner.invoke(app, sync)
        assert done.exit_code == 0, done.output
        assert done.output.strip() == (
            f"1 document: {upserts} added, 0 changed, {1 - upserts} unchanged, 0 deleted, "
            f"0 failed; wrote {upserts} upsert{'' if upserts else 's'}, 0 deletes "
            "(1 chunks indexed)"
        )
    dry = runner.invoke(app, [*sync, "--dry-run"])
    assert "0 failed" in dry.output and "1 unchanged" in dry.output


FULL_DISK_SYNC = """
import resource, sys
limit = int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # a full disk for this process
from chunkcli.cli import app
app(["sync", sys.argv[1], "-m", sys.argv[2], "-o", "-", "-q"], prog_name="chunkcli")
"""


@pytest.mark.parametrize("limit", [8_000, 40_000])  # the schema does not fit; the chunks do not
def test_a_manifest_on_a_full_disk_is_one_line(tmp_path: Path, limit: int) -> None:
    """Issue 30, point 6: a manifest that could not be written was a traceback. A file size
    limit (writes fail with EFBIG, as on a full disk) stands in for the full disk."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    sections = "".join(f"## Part {i}\n\nText {i}.\n\n" for i in range(1500))
    (corpus / "big.md").write_text("# Big\n\n" + sections, encoding="utf-8")
    manifest = tmp_path / "index.db"
    command = [sys.executable, "-c", FULL_DISK_SYNC, str(corpus), str(manifest), str(limit)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1
    expected = f"error: {manifest}: cannot write the manifest (disk I/O error)"
    assert done.stderr.strip() == expected, done.stderr[-2000:]
    again = runner.invoke(app, ["sync", str(corpus), "-m", str(manifest), "-o", "-", "-q"])
    assert again.exit_code == 0  # the next run, with room, indexes everything
    assert len(again.stdout.splitlines()) == 1500


def _handles_sigterm(pid: int) -> bool:
    """Whether the process has a handler for SIGTERM installed (its SigCgt mask)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        caught = next(line for line in status if line.startswith("SigCgt:")).split()[1]
    return bool(int(caught, 16) & (1 << (signal.SIGTERM - 1)))


STOPPED = {
    "split": "the output file was not written",
    "check": "no report was written",
    "convert": "each file written so far is whole",
    "sync": "the manifest is as it was (the next run writes the same changes again)",
}


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
@pytest.mark.parametrize("command", sorted(STOPPED))
@pytest.mark.parametrize(
    ("stop", "word", "code"),
    [(signal.SIGTERM, "terminated", 143), (signal.SIGINT, "interrupted", 130)],
)
def test_sigterm_and_ctrl_c_end_with_one_line(
    tmp_path: Path, command: str, stop: signal.Signals, word: str, code: int
) -> None:
    """Issue 30, point 9: SIGTERM ended every command, and Ctrl-C ended sync, without a word.
    The command waits on standard input (sync: on a full stdout pipe) when it is stopped."""
    if command == "sync":
        corpus = tmp_path / "corpus"
        corpus.mkdir()
        sections = "".join(f"## Part {i}\n\nText {i}.\n\n" for i in range(1500))
        (corpus / "big.md").write_text("# Big\n\n" + sections, encoding="utf-8")
        args = ["sync", str(corpus), "-m", str(tmp_path / "m.db"), "-o", "-"]
    else:
        args = [command, "-", "-o", str(tmp_path / "out")]
    child = subprocess.Popen(
        [sys.executable, "-m", "chunkcli", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not _handles_sigterm(child.pid):
        assert time.monotonic() < deadline and child.poll() is None
        time.sleep(0.02)
    child.send_signal(stop)
    _, err = child.communicate(timeout=60)
    assert err.decode() == f"error: {word}: {STOPPED[command]}\n"
    # Ctrl-C during an exec() of a string (dataclasses make their methods so, at import) makes
    # CPython end the process by SIGINT once it has exited: a shell sees 130 either way.
    assert child.returncode in ((code, -signal.SIGINT) if stop == signal.SIGINT else (code,))
    assert not (tmp_path / "out").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_convert_and_sync_to_a_full_stdout_are_one_line_and_sync_does_not_commit(
    tmp_path: Path,
) -> None:
    """Issue 26: `convert x.pdf > full` and `sync -o - > full` were tracebacks (OSError errno
    28), and sync's manifest must not record changes that never reached the index."""
    corpus = _corpus(tmp_path)
    pdf = Path(__file__).resolve().parent.parent / "samples" / "outline.pdf"
    manifest = tmp_path / "m.db"
    commands = {
        "convert": ([str(pdf)], "error: stdout: cannot write: No space left on device\n"),
        "sync": (
            [str(corpus), "-m", str(manifest), "-o", "-", "-q"],
            "error: stdout: cannot write the changes: No space left on device\n",
        ),
    }
    for command, (args, expected) in commands.items():
        with open("/dev/full", "wb") as full:
            done = subprocess.run([sys.executable, "-m", "chunkcli", command, *args],
                                  stdout=full, stderr=subprocess.PIPE, timeout=120)  # fmt: skip
        assert (done.returncode, done.stderr.decode()) == (1, expected)
    again = runner.invoke(app, ["sync", str(corpus), "-m", str(manifest), "-o", "-", "-q"])
    assert again.exit_code == 0 and len(again.stdout.splitlines()) == 1  # nothing was committed


def test_a_dead_but_unreaped_writers_temporary_file_is_removed(tmp_path: Path) -> None:
    """Issue 26: kill -9 of a folder convert leaves its workers dead but unreaped for a while
    (zombies answer signal 0); the rerun kept their temporary files."""
    from chunkcli.files import write_atomic

    dead = subprocess.Popen(["true"])  # not waited for: a zombie once it exits
    deadline = time.monotonic() + 30
    while Path(f"/proc/{dead.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    try:
        leftover = tmp_path / f".out.md.{dead.pid}.abcdefgh.tmp"
        leftover.write_text("half a file", encoding="utf-8")
        write_atomic(tmp_path / "out.md", "whole\n")
        assert sorted(p.name for p in tmp_path.iterdir()) == ["out.md"]
    finally:
        dead.wait()

"""Files in and out: finding inputs (folders walked, PDFs told from Markdown) and writing
outputs atomically (readers see the old file or the whole new one, never a part).

Every command writes through `write_atomic` (Markdown files, chunks, reports): the text goes to
a temporary file in the target's folder, is flushed to disk and renamed over the target. On
any error the temporary file is removed, the target is left as it was, and OutputWriteError
names the file. The text may come piece by piece (JSON Lines as chunks are made): it is
written as it comes, and still renamed into place only once whole.

A process killed while writing (kill -9, the OOM killer) cannot remove its temporary file,
`.NAME.PID.RANDOM.tmp`; the next write to the same target removes those whose process is no
longer running on this machine.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from chunkcli.errors import ChunkcliError

# A written file gets the usual permissions (rw-r--r-- under the process umask); mkstemp alone
# would leave 0600, unreadable to the web server or indexer that runs as another user.
FILE_MODE = 0o644

STDIN = "-"  # the path that names standard input, in and out
PDF_SUFFIX = ".pdf"
MARKDOWN_SUFFIXES = (".md", ".markdown")
# Readers accept "%PDF-" within the first 1024 bytes (see convert/source.py), so the sniffer
# does too.
SNIFF_BYTES = 1024
PDF_HEADER = b"%PDF-"
TEMP_SUFFIX = ".tmp"  # of the hidden temporary file beside a target being written


# --- finding inputs ----------------------------------------------------------------------------


def walk_folder(folder: Path, *, pdfs_only: bool = False) -> list[Path]:
    """PDFs (and Markdown files) under `folder`, recursively, in sorted path order; hidden
    files and folders are skipped, other files (such as split's chunks.jsonl) ignored."""
    wanted = (PDF_SUFFIX,) if pdfs_only else (PDF_SUFFIX, *MARKDOWN_SUFFIXES)
    found: list[Path] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [
            Path(root, name)
            for name in sorted(files)
            if name.lower().endswith(wanted) and not name.startswith(".")
        ]
    return found


def readable_text(text: str) -> str:
    """`text` (a path, or a report naming paths) as every output takes it: a file name's bytes
    that are not UTF-8 (which Python holds as lone surrogates, refused by UTF-8, JSON Lines
    readers and SQLite) become `\\xNN`, so `caf\\xe9.md` names the Latin-1 file `café.md`
    in ids, sources, reports and the sync manifest."""
    if text.isascii():
        return text
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name decodes to (from a library caller)
        raw = text.encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "backslashreplace")


def readable_values(value: object) -> object:
    """readable_text on every string of a JSON-ready value (dicts, lists), before it is
    dumped: after, a `\\xNN` would be an escape no JSON reader knows."""
    if isinstance(value, str):
        return readable_text(value)
    if isinstance(value, dict):
        return {readable_text(str(k)): readable_values(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [readable_values(v) for v in value]
    return value


def is_pdf_file(path: Path) -> bool:
    """A PDF by its suffix; a file with another suffix (not .md) by a `%PDF-` header."""
    suffix = path.suffix.lower()
    if suffix == PDF_SUFFIX:
        return True
    if suffix in MARKDOWN_SUFFIXES:
        return False
    try:
        with path.open("rb") as stream:
            return looks_like_pdf(stream.read(SNIFF_BYTES))
    except OSError:
        return False


def looks_like_pdf(head: bytes) -> bool:
    return PDF_HEADER in head[:SNIFF_BYTES]


# --- writing outputs ---------------------------------------------------------------------------


class OutputWriteError(ChunkcliError):
    """The output file cannot be written (missing folder, no permission, disk full)."""


def write_atomic(
    path: str | Path, text: str | bytes | Iterable[str], *, make_parents: bool = False
) -> None:
    """Write UTF-8 `text` (a string, or pieces written as they come; bytes as they are) to
    `path` atomically; `make_parents` creates missing folders. An exception raised by the
    pieces' iterator leaves the target as it was."""
    target = Path(path)
    if _is_special(target):  # /dev/null, /dev/stdout, a FIFO: a rename would replace it
        _write_in_place(target, text)
        return
    try:
        if make_parents:
            target.parent.mkdir(parents=True, exist_ok=True)
        remove_leftovers(target)
        fd, temp_name = tempfile.mkstemp(
            prefix=f".{target.name}.{os.getpid()}.", suffix=TEMP_SUFFIX, dir=target.parent
        )
    except OSError as exc:
        raise OutputWriteError(f"{target}: cannot write ({exc.strerror or exc})") from None
    try:
        _fill(fd, text)
        os.chmod(temp_name, FILE_MODE & ~_umask())
        os.replace(temp_name, target)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        if isinstance(exc, OSError):
            raise OutputWriteError(f"{target}: cannot write ({exc.strerror or exc})") from None
        raise


def _fill(fd: int, content: str | bytes | Iterable[str]) -> None:
    """Write the content to the open temporary file and make it durable."""
    with _opened(fd, content) as handle:
        _write_text(handle, content)
        handle.flush()
        os.fsync(handle.fileno())


def _opened(file: int | Path, content: str | bytes | Iterable[str]) -> IO[Any]:
    """`file` opened for writing `content`: bytes as they are, text as UTF-8 with its own line
    ends."""
    if isinstance(content, bytes):
        return open(file, "wb")
    return open(file, "w", encoding="utf-8", newline="")


def _write_text(handle: IO[Any], text: str | bytes | Iterable[str]) -> None:
    """A string or bytes, or pieces written as they come."""
    if isinstance(text, str | bytes):
        handle.write(text)
    else:
        handle.writelines(text)


def _is_special(target: Path) -> bool:
    """A device, FIFO or socket that exists at `target` (followed through symlinks)."""
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _write_in_place(target: Path, text: str | bytes | Iterable[str]) -> None:
    """Write to a device or FIFO as it is (`-o /dev/null`, `-o /dev/stdout`): renaming a
    temporary file over it, as for files, replaced the device itself with a regular file."""
    try:
        with _opened(target, text) as handle:
            _write_text(handle, text)
    except OSError as exc:
        raise OutputWriteError(f"{target}: cannot write ({exc.strerror or exc})") from None


def remove_leftovers(target: Path) -> None:
    """Remove the temporary files of earlier writes to `target` whose process has died."""
    prefix = f".{target.name}."
    try:
        entries = [e.name for e in os.scandir(target.parent) if e.name.startswith(prefix)]
    except OSError:
        return  # no folder yet, or not listable: mkstemp says what is wrong
    for name in entries:
        # Exactly PID.RANDOM between: the temporary file of "a.99.jsonl" is not "a"'s.
        parts = name[len(prefix) : -len(TEMP_SUFFIX)].split(".")
        if name.endswith(TEMP_SUFFIX) and len(parts) == 2 and parts[0].isdigit():
            if not _running(int(parts[0])):
                with contextlib.suppress(OSError):
                    os.unlink(target.parent / name)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it exists, as another user
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """A process that has died but is not yet reaped (a killed run's worker, until init gets
    to it) still answers signal 0; Linux says so in /proc. Found by kill -9 of a folder
    convert (bench/fuzz/fault_runs.py): the rerun kept a dead worker's temporary file."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            state = stat.read().rsplit(b")", 1)[1].split()[0]  # after "pid (name)"
    except (OSError, IndexError):
        return False
    return state in (b"Z", b"X")


def _umask() -> int:
    current = os.umask(0)  # the only way to read it; set back at once
    os.umask(current)
    return current

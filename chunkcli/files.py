"""Writing output files atomically: readers see the old file or the whole new one, never a part.

Every command writes through `write_atomic` (Markdown files, chunks, reports): the text goes to
a temporary file in the target's folder, is flushed to disk and renamed over the target. On
any error the temporary file is removed, the target is left as it was, and OutputWriteError
names the file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from chunkcli.errors import ChunkcliError

# A written file gets the usual permissions (rw-r--r-- under the process umask); mkstemp alone
# would leave 0600, unreadable to the web server or indexer that runs as another user.
FILE_MODE = 0o644


class OutputWriteError(ChunkcliError):
    """The output file cannot be written (missing folder, no permission, disk full)."""


def write_atomic(path: str | Path, text: str, *, make_parents: bool = False) -> None:
    """Write UTF-8 `text` to `path` atomically; `make_parents` creates missing folders."""
    target = Path(path)
    try:
        if make_parents:
            target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp_name = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
        )
    except OSError as exc:
        raise OutputWriteError(f"{target}: cannot write ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, FILE_MODE & ~_umask())
        os.replace(temp_name, target)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        if isinstance(exc, OSError):
            raise OutputWriteError(f"{target}: cannot write ({exc.strerror or exc})") from None
        raise


def _umask() -> int:
    current = os.umask(0)  # the only way to read it; set back at once
    os.umask(current)
    return current

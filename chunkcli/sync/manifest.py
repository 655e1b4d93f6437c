"""The sync manifest: an embedded SQLite database (WAL) of what the index holds.

documents: one row per document (doc id, path, file sha256, config hash, generation, status);
chunks: one row per chunk the index holds (id, doc id, content hash, ordinal, offsets, pages).
A sync holds one write transaction from start to end (`BEGIN IMMEDIATE`): a second sync on
the same file fails at once with "manifest is locked", and a run that dies before its commit
leaves the previous generation exactly as it was (SQLite discards the uncommitted WAL
pages). A new manifest appears whole: it is built (schema, WAL mode) in a temporary file beside
it and linked into place, so no process ever opens an empty or half-made one.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from chunkcli.errors import ChunkcliError

SCHEMA_VERSION = "2"  # 2: chunks keep their boxes (a manifest of schema 1 gains the column)
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY, path TEXT NOT NULL UNIQUE, file_sha256 TEXT NOT NULL,
    config_hash TEXT NOT NULL, generation INTEGER NOT NULL, status TEXT NOT NULL,
    error TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS chunks (
    id TEXT PRIMARY KEY,
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    content_sha256 TEXT NOT NULL, ordinal INTEGER NOT NULL,
    start INTEGER NOT NULL, "end" INTEGER NOT NULL, page_start INTEGER, page_end INTEGER,
    boxes TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS chunks_by_doc ON chunks(doc_id, ordinal);
"""
# The files SQLite keeps beside a database while it is open or after a crash.
COMPANION_SUFFIXES = ("-wal", "-shm", "-journal")
# How long opening the manifest waits out another process's momentary SQLite locks (opening it
# at the same moment). Taking the sync's own lock does not wait: a second sync fails at once
# with "locked" rather than run after the first and overwrite its changes file unapplied.
OPEN_WAIT_S = 2.0
STATUS_OK = "ok"
STATUS_FAILED = "failed"


class ManifestError(ChunkcliError):
    """The manifest is locked by another sync, or is not a chunkcli manifest."""


@dataclass(frozen=True, slots=True)
class DocumentRow:
    doc_id: str
    path: str
    file_sha256: str  # of the file read (for a PDF, its source sha256)
    config_hash: str
    generation: int
    status: str
    error: str = ""


@dataclass(frozen=True, slots=True)
class ChunkRow:
    id: str
    doc_id: str
    content_sha256: str
    ordinal: int
    start: int
    end: int
    page_start: int | None
    page_end: int | None
    boxes: str = ""  # the chunk's boxes as compact JSON ("" before schema 2)


@dataclass(frozen=True, slots=True)
class ManifestState:
    """The last committed generation, read once at the start of a run."""

    generation: int
    documents: dict[str, DocumentRow]
    chunks: dict[str, tuple[ChunkRow, ...]]  # doc id -> its chunks in ordinal order


EMPTY_STATE = ManifestState(0, {}, {})


class Manifest:
    """One open manifest. `open_for_sync` takes the lock; `commit` ends the run."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection

    @classmethod
    def open_for_sync(cls, path: Path) -> Manifest:
        """Open (creating it if missing) and lock; raises ManifestError when another sync holds
        it or the file is not a manifest."""
        if not path.exists():
            _create(path)
        try:
            db = sqlite3.connect(path, timeout=OPEN_WAIT_S, isolation_level=None)
        except sqlite3.Error as exc:
            raise ManifestError(f"{path}: cannot open the manifest ({exc})") from None
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=0")  # a sync holding the lock: say so at once
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            db.close()
            if "locked" in str(exc) or "busy" in str(exc):
                raise ManifestError(
                    f"{path}: manifest is locked: another sync is running on it"
                ) from None
            # (A file that is no database is a DatabaseError, below.)
            raise ManifestError(f"{path}: cannot write the manifest ({exc})") from None
        except sqlite3.DatabaseError as exc:
            db.close()
            raise ManifestError(f"{path}: not a chunkcli manifest ({exc})") from None
        manifest = cls(path, db)
        manifest._ensure_schema()
        return manifest

    def _ensure_schema(self) -> None:
        try:
            _execute_schema(self._db)
        except sqlite3.OperationalError as exc:  # I/O: a full disk, a file size limit
            self.close()
            raise ManifestError(f"{self.path}: cannot write the manifest ({exc})") from None
        except sqlite3.DatabaseError as exc:
            self.close()
            raise ManifestError(f"{self.path}: not a chunkcli manifest ({exc})") from None
        found = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if found is not None and found[0] == "1":  # the boxes column came with schema 2
            self._db.execute("ALTER TABLE chunks ADD COLUMN boxes TEXT NOT NULL DEFAULT ''")
            self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (SCHEMA_VERSION,))
        elif found is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        elif found[0] != SCHEMA_VERSION:
            self.close()
            raise ManifestError(
                f"{self.path}: manifest schema {found[0]}, this chunkcli reads {SCHEMA_VERSION}"
            )

    def state(self) -> ManifestState:
        return read_state(self._db)

    def commit(
        self,
        generation: int,
        documents: Iterable[DocumentRow],
        removed_docs: Iterable[str],
        chunks: dict[str, tuple[ChunkRow, ...]],
    ) -> None:
        """Write the new generation in the open transaction and commit it. `chunks` replaces
        the chunk rows of each document it names. A write that fails (a full disk) is a
        ManifestError; the previous generation stays."""
        try:
            self._write(generation, documents, removed_docs, chunks)
        except sqlite3.Error as exc:
            raise ManifestError(f"{self.path}: cannot write the manifest ({exc})") from None

    def _write(
        self,
        generation: int,
        documents: Iterable[DocumentRow],
        removed_docs: Iterable[str],
        chunks: dict[str, tuple[ChunkRow, ...]],
    ) -> None:
        db = self._db
        for doc_id in removed_docs:
            db.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
            db.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))
        for row in documents:
            db.execute(
                "INSERT OR REPLACE INTO documents VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    row.doc_id,
                    row.path,
                    row.file_sha256,
                    row.config_hash,
                    row.generation,
                    row.status,
                    row.error,
                ),
            )
        for doc_id, rows in chunks.items():
            db.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
            db.executemany(
                "INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        c.id,
                        c.doc_id,
                        c.content_sha256,
                        c.ordinal,
                        c.start,
                        c.end,
                        c.page_start,
                        c.page_end,
                        c.boxes,
                    )
                    for c in rows
                ],
            )
        db.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", (str(generation),))
        db.execute("COMMIT")

    def close(self) -> None:
        """Close; an uncommitted run is rolled back (the previous generation stays)."""
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # a failed commit may have ended it
                self._db.execute("ROLLBACK")
        self._db.close()


def _execute_schema(db: sqlite3.Connection) -> None:
    """The tables, if missing, inside the open transaction: one statement at a time, as
    executescript would commit it."""
    for statement in filter(str.strip, SCHEMA.split(";")):
        db.execute(statement)


def _create(path: Path) -> None:
    """A new, empty manifest at `path`, made whole in a temporary file beside it and linked into
    place (never over a file another process created first); ManifestError on a write error."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        db = sqlite3.connect(temporary, isolation_level=None)
        try:
            db.execute("BEGIN")  # (a rollback journal here: a WAL would hold every page twice)
            _execute_schema(db)
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            db.execute("COMMIT")
            db.execute("PRAGMA journal_mode=WAL")  # kept in the file's header
        finally:
            db.close()  # the -wal and -shm files go away
        _link_new(temporary, path)
    except (sqlite3.Error, OSError) as exc:
        raise ManifestError(f"{path}: cannot write the manifest ({exc})") from None
    finally:
        for leftover in manifest_files(temporary):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()


def _link_new(source: Path, target: Path) -> None:
    """`source` appears as `target` unless `target` exists (another sync created it first: it
    is used). A file system without hard links (FAT, some network mounts) gets a rename, not
    atomic against a second creator there."""
    try:
        os.link(source, target)
    except FileExistsError:
        pass
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        if not target.exists():
            source.rename(target)


def manifest_files(path: Path) -> tuple[Path, ...]:
    """The manifest and the companion files SQLite keeps beside it."""
    return (path, *(path.with_name(path.name + s) for s in COMPANION_SUFFIXES))


def read_committed_state(path: Path) -> ManifestState:
    """The last generation without locking or creating anything (for --dry-run)."""
    if not path.exists():
        return EMPTY_STATE
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0)
    except sqlite3.Error as exc:
        raise ManifestError(f"{path}: cannot open the manifest ({exc})") from None
    try:
        return read_state(db)
    except sqlite3.DatabaseError as exc:
        raise ManifestError(f"{path}: not a chunkcli manifest ({exc})") from None
    finally:
        db.close()


def read_state(db: sqlite3.Connection) -> ManifestState:
    found = db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    documents = {
        row[0]: DocumentRow(*row) for row in db.execute("SELECT * FROM documents ORDER BY doc_id")
    }
    chunks: dict[str, list[ChunkRow]] = {}
    query = (
        'SELECT id, doc_id, content_sha256, ordinal, start, "end", page_start, page_end, boxes '
        "FROM chunks ORDER BY doc_id, ordinal"
    )
    for row in db.execute(query):
        chunks.setdefault(row[1], []).append(ChunkRow(*row))
    return ManifestState(
        int(found[0]) if found else 0, documents, {k: tuple(v) for k, v in chunks.items()}
    )

"""One sync run: lock the manifest, plan, write the changes file atomically, then commit the
manifest in one transaction. A crash anywhere before the commit leaves the previous generation,
and the next run computes the same changes again (applying a line twice is harmless: upserts and
deletes by id are idempotent)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from chunkcli.errors import UsageError
from chunkcli.files import OutputWriteError, write_atomic
from chunkcli.jsonl import chunk_to_dict, chunk_to_flat_dict
from chunkcli.sync.manifest import Manifest, manifest_files, read_committed_state
from chunkcli.sync.plan import DELETED, DocumentChange, SyncOptions, SyncPlan, plan_sync

STDOUT = "-"
MEMORY_DATABASE = ":memory:"  # the name SQLite opens as a database in memory


@dataclass(frozen=True, slots=True)
class SyncResult:
    plan: SyncPlan
    committed: bool  # False for --dry-run, and when nothing changed


def change_lines(plan: SyncPlan) -> Iterator[str]:
    """The JSON lines of a plan: per document (in doc id order), its deletes, then its upserts
    in document order."""
    as_dict = chunk_to_flat_dict if plan.options.flat_metadata else chunk_to_dict
    for change in sorted(plan.changes, key=lambda c: c.doc_id):
        for chunk_id in change.deletes:
            line = {"op": "delete", "id": chunk_id, "doc_id": change.doc_id}
            yield json.dumps(line, ensure_ascii=False)
        for chunk in change.upserts:
            yield json.dumps({"op": "upsert", **as_dict(chunk)}, ensure_ascii=False)


def write_changes(plan: SyncPlan, output: str) -> None:
    """The changes file, line by line, renamed into place whole (or stdout for '-'); an
    empty file when nothing changed, so that an old changes file is never applied twice by
    mistake."""
    lines = (line + "\n" for line in change_lines(plan))
    if output == STDOUT:
        try:
            for line in lines:
                sys.stdout.buffer.write(line.encode("utf-8"))
            sys.stdout.flush()
        except OSError as exc:  # a full disk, a reader gone: the manifest must not commit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (the final flush)
            reason = exc.strerror or type(exc).__name__
            raise OutputWriteError(f"stdout: cannot write the changes: {reason}") from None
    else:
        write_atomic(output, lines, make_parents=True)  # as every command's -o does


def commit_plan(manifest: Manifest, plan: SyncPlan) -> None:
    removed = [c.doc_id for c in plan.changes if c.outcome == DELETED]
    rows = [c.row for c in plan.changes if c.row_changed and c.row is not None]
    chunks = {
        c.doc_id: c.chunk_rows
        for c in plan.changes
        if c.row_changed and c.chunk_rows is not None and c.outcome != DELETED
    }
    manifest.commit(plan.generation, rows, removed, chunks)


def check_manifest_path(manifest: Path, output: str) -> None:
    """UsageError for a manifest that cannot keep anything: SQLite's `:memory:` (the run would
    forget it at once), a device such as /dev/null or /dev/full, a folder, or the file `-o`
    writes (the changes file would replace the manifest)."""
    if str(manifest) in ("", MEMORY_DATABASE):
        raise UsageError(f"--manifest {str(manifest)!r} keeps nothing: give a file")
    if manifest.exists() and not manifest.is_file():
        raise UsageError(f"--manifest {manifest}: not a regular file")
    if output != STDOUT and Path(output).resolve() in {
        p.resolve() for p in manifest_files(manifest)
    }:
        raise UsageError(f"-o {output} is the manifest: give the changes file another name")


def sync_corpus(
    root: Path,
    manifest_path: Path,
    output: str,
    options: SyncOptions,
    *,
    dry_run: bool = False,
    on_document: Callable[[DocumentChange], None] | None = None,
) -> SyncResult:
    """Bring the index described by `manifest_path` up to date with `root`.

    Raises ManifestError (locked, not a manifest) or UsageError (no corpus) before any work;
    documents that fail are in `plan.failures` and keep their chunks."""
    check_manifest_path(manifest_path, output)
    # The manifest (and its SQLite companions) is never a document, whatever its suffix.
    skip = (*manifest_files(manifest_path), *(() if output == STDOUT else (Path(output),)))
    if dry_run:
        state = read_committed_state(manifest_path)
        return SyncResult(plan_sync(root, state, options, on_document, skip), committed=False)
    manifest = Manifest.open_for_sync(manifest_path)
    try:
        plan = plan_sync(root, manifest.state(), options, on_document, skip)
        write_changes(plan, output)
        if not plan.has_changes:
            return SyncResult(plan, committed=False)
        commit_plan(manifest, plan)
        return SyncResult(plan, committed=True)
    finally:
        manifest.close()

"""sync: keep an index in step with a corpus folder. A manifest (SQLite) remembers what the
index holds; each run converts and splits only what changed and writes upsert/delete lines.

documents (the corpus, read through one function) -> plan (diff against the manifest) ->
run (changes file written atomically, then one manifest transaction).
"""

from __future__ import annotations

from chunkcli.sync.manifest import Manifest, ManifestError, read_committed_state
from chunkcli.sync.plan import DocumentChange, SyncOptions, SyncPlan, plan_sync
from chunkcli.sync.run import SyncResult, change_lines, commit_plan, sync_corpus, write_changes

__all__ = [
    "DocumentChange",
    "Manifest",
    "ManifestError",
    "SyncOptions",
    "SyncPlan",
    "SyncResult",
    "change_lines",
    "commit_plan",
    "plan_sync",
    "read_committed_state",
    "sync_corpus",
    "write_changes",
]

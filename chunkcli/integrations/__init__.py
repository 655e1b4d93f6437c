"""Loaders from chunkcli's JSON Lines to other libraries' document types (optional extras:
`pip install 'chunkcli[langchain]'`, `'chunkcli[llamaindex]'`). Each imports its library only
when loaded, so chunkcli itself never needs them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from chunkcli.errors import ChunkcliError
from chunkcli.jsonl import chunk_from_dict, chunk_to_flat_dict

# Keys that a loader keeps out of the metadata: `text` is the content itself, and `body` and
# `prefix` are its two halves (storing them again would triple every document's size).
CONTENT_KEYS = frozenset({"text", "body", "prefix", "op"})


class ChunksFileError(ChunkcliError):
    """A chunks file that cannot be read as chunkcli JSON Lines."""


@dataclass(frozen=True, slots=True)
class ChangeRecords:
    """A file's chunks as flat records, and the ids of the chunks it deletes (a `sync` changes
    file; a `split` output deletes nothing)."""

    upserts: list[dict[str, object]]
    deletes: list[str]


def read_records(path: str | Path) -> list[dict[str, object]]:
    """Flat records (as `--flat-metadata` writes them) of every chunk in a `split` output or a
    `sync` changes file without deletes. Nested lines are flattened, so either form loads the
    same. A changes file holding deletes raises ChunksFileError: loading only its upserts would
    leave the deleted chunks in the index without a word (read_changes gives both)."""
    changes = read_changes(path)
    if changes.deletes:
        raise ChunksFileError(
            f"{path}: a sync changes file with {len(changes.deletes)} delete line(s): load it "
            "with load_changes(), which gives the ids to delete too"
        )
    return changes.upserts


def read_changes(path: str | Path) -> ChangeRecords:
    """Every chunk of a `split` output or a `sync` changes file as a flat record, and the ids
    its delete lines name, in file order."""
    records: list[dict[str, object]] = []
    deletes: list[str] = []
    text = Path(path).read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ChunksFileError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if isinstance(data, dict) and data.get("op") == "delete" and "id" in data:
            deletes.append(str(data["id"]))
        elif isinstance(data, dict) and "text" in data:
            records.append(data if "split_config" not in data else _flatten(data))
        else:
            raise ChunksFileError(f"{path}:{number}: not a chunkcli chunk (no 'text')")
    return ChangeRecords(records, deletes)


def _flatten(data: dict[str, object]) -> dict[str, object]:
    return chunk_to_flat_dict(chunk_from_dict(data))


def metadata_of(record: dict[str, object]) -> dict[str, object]:
    """Everything but the text: page and heading metadata, ids, hashes, split settings."""
    return {key: value for key, value in record.items() if key not in CONTENT_KEYS}

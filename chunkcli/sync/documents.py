"""The one place sync reads its documents: a corpus folder -> (doc id, Markdown) pairs.

Written against split's sources today (`split/sources.py`); when the shared input layer lands
(`chunkcli/inputs.py`, issue #7) only this module changes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from chunkcli.errors import UsageError
from chunkcli.split.sources import ConvertSettings, find_sources, read_source


@dataclass(frozen=True, slots=True)
class CorpusFile:
    doc_id: str  # the path relative to the corpus root, POSIX separators
    path: Path


@dataclass(frozen=True, slots=True)
class CorpusDocument:
    doc_id: str
    markdown: str
    source_bytes: bytes  # the file's bytes: the PDF's for a converted PDF


def list_corpus(root: Path) -> list[CorpusFile]:
    """Every document under `root`, sorted by doc id. An empty folder is an error, not "delete
    everything": a corpus that vanished (an unmounted share) must not wipe the index."""
    if not root.is_dir():
        raise UsageError(f"{root}: not a folder (sync takes the corpus root folder)")
    found = find_sources([str(root)])
    return sorted((CorpusFile(f.name, Path(f.path)) for f in found), key=lambda f: f.doc_id)


def file_sha256(path: Path) -> str:
    """The revision of a file as it is now (read again when it is converted)."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_document(file: CorpusFile, password: str | None) -> CorpusDocument:
    """The file as Markdown (a PDF is converted); raises ChunkcliError naming the file."""
    document = read_source(str(file.path), ConvertSettings(password=password))
    return CorpusDocument(file.doc_id, document.markdown, document.source_bytes)

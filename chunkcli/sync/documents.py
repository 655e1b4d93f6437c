"""The corpus, read through the one input layer (`chunkcli.inputs`): a folder -> its files
with their paths relative to the root, and the changed ones as Markdown (PDFs converted in the
worker pool, with a time limit per file)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from chunkcli.errors import UsageError
from chunkcli.files import readable_text
from chunkcli.inputs import InputFile, ReadOptions, find_inputs
from chunkcli.inputs import read_inputs as _read_inputs
from chunkcli.model import InputDocument, InputFailure


@dataclass(frozen=True, slots=True)
class CorpusFile:
    path: str  # relative to the corpus root, POSIX separators, readable_text: the manifest's key
    input: InputFile


def list_corpus(root: Path, skip: Sequence[Path] = ()) -> list[CorpusFile]:
    """Every document under `root` but the files in `skip` (the changes file, the manifest),
    sorted by path. An empty folder is an error, not "delete everything": a corpus that
    vanished (an unmounted share) must not wipe the index."""
    if not root.is_dir():
        raise UsageError(f"{root}: not a folder (sync takes the corpus root folder)")
    skipped = {p.resolve() for p in skip}
    names = {p.name for p in skipped}
    found = [
        f
        for f in find_inputs([str(root)])
        if Path(f.path).name not in names or Path(f.path).resolve() not in skipped
    ]
    if not found:
        raise UsageError(f"no PDF or Markdown files in: {root}")
    files = [CorpusFile(readable_text(Path(f.path).relative_to(root).as_posix()), f) for f in found]
    return sorted(files, key=lambda f: f.path)


def file_sha256(file: CorpusFile) -> str:
    """The revision of a file as it is now (a PDF's bytes; a Markdown file's bytes)."""
    digest = hashlib.sha256()
    with Path(file.input.path).open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_files(
    files: Sequence[CorpusFile], options: ReadOptions
) -> Iterator[tuple[CorpusFile, InputDocument | InputFailure]]:
    """The files as Markdown (or failures), in order; all PDFs go to the pool at once."""
    yield from zip(files, _read_inputs([f.input for f in files], options), strict=True)

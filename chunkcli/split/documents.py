"""Documents from the input layer -> chunks, in input order, failures passed through.

`chunkcli.inputs` reads paths, folders and stdin (converting PDFs in worker processes); this
splits each document it yields, so that a file that fails costs only itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from chunkcli.model import Chunk, InputDocument, InputFailure
from chunkcli.split.options import SplitOptions
from chunkcli.split.run import chunk_stream
from chunkcli.tokens import load_encoding


def split_documents(
    documents: Iterable[InputDocument | InputFailure], options: SplitOptions
) -> Iterator[Iterator[Chunk] | InputFailure]:
    """Each document's chunks (made as they are taken: see chunk_stream), or its failure, in
    input order."""
    options = options.validated()
    load_encoding(options.encoding)  # an encoding not available offline fails before any read
    for document in documents:
        if isinstance(document, InputFailure):
            yield document
            continue
        named = options
        if options.doc_id is None and document.doc_id:
            named = replace(options, doc_id=document.doc_id)
        yield chunk_stream(
            document.markdown, named, source=document.source, source_sha256=document.sha256
        )

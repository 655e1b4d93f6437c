"""Documents from the input layer -> chunks, in input order, failures passed through.

`chunkcli.inputs` reads paths, folders and stdin (converting PDFs in worker processes); this
splits each document it yields, so that a file that fails costs only itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from chunkcli.model import Chunk, InputDocument, InputFailure
from chunkcli.split.options import SplitOptions
from chunkcli.split.run import chunk_stream, document_text
from chunkcli.tokens import check_available


def split_documents(
    documents: Iterable[InputDocument | InputFailure], options: SplitOptions
) -> Iterator[list[Chunk] | InputFailure]:
    """Each document's chunks (one list per document), or its failure, in input order."""
    for stream in chunk_streams(documents, options):
        yield stream if isinstance(stream, InputFailure) else list(stream)


def chunk_streams(
    documents: Iterable[InputDocument | InputFailure], options: SplitOptions
) -> Iterator[Iterator[Chunk] | InputFailure]:
    """split_documents with each document's chunks made as they are taken (run.chunk_stream):
    what the CLI writes from, never holding a document's chunks all at once."""
    options = options.validated()
    check_available(options.encoding)  # an encoding not available offline fails before any read
    for document in documents:
        if isinstance(document, InputFailure):
            yield document
            continue
        text = document_text(document.markdown)
        named, source, sha256 = _named(document, options), document.source, document.sha256
        # The whole text is freed here when nothing else holds the document (the CLI's input
        # chain does not): only the text without its trailer is held while it is split.
        del document
        yield chunk_stream(text, named, source=source, source_sha256=sha256)


def _named(document: InputDocument, options: SplitOptions) -> SplitOptions:
    """The options with the document's own id (a path relative to the folder given), unless
    --doc-id names one."""
    if options.doc_id is None and document.doc_id:
        return replace(options, doc_id=document.doc_id)
    return options

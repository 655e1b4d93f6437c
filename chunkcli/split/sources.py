"""Paths as the split command gets them -> Markdown documents, in order.

A Markdown file is read as UTF-8; a PDF is converted first (with the convert options); '-' is
standard input; a folder gives its Markdown files (recursively, sorted by path, hidden entries
skipped), or its PDFs when it holds no Markdown at all.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from chunkcli.errors import ChunkcliError, UsageError
from chunkcli.model import Chunk
from chunkcli.split.options import SplitOptions

MARKDOWN_SUFFIXES = (".md", ".markdown")
PDF_SUFFIX = ".pdf"
STDIN = "-"


class SourceReadError(ChunkcliError):
    """An input file is missing, unreadable or not UTF-8 text."""


@dataclass(frozen=True, slots=True)
class SourceDocument:
    source: str  # the path as given (or as found under a folder given)
    markdown: str
    source_bytes: bytes  # the file's bytes: the PDF's for a converted PDF


@dataclass(frozen=True, slots=True)
class ConvertSettings:
    """The convert options split passes on when a PDF is given."""

    pages: tuple[int, ...] | None = None
    password: str | None = None


def find_sources(paths: Sequence[str], skip: Path | None = None) -> list[str]:
    """Input files in order; `skip` (the output file) is never read as input."""
    found: list[str] = []
    for given in paths:
        path = Path(given)
        if given != STDIN and path.is_dir():
            found += [str(p) for p in _folder_documents(path) if not _same_file(p, skip)]
        else:
            found.append(given)
    if not found:
        raise UsageError(f"no Markdown or PDF files in: {', '.join(paths)}")
    return list(dict.fromkeys(found))


def _folder_documents(folder: Path) -> list[Path]:
    files = sorted(
        p for p in folder.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    )
    markdown = [p for p in files if p.suffix.lower() in MARKDOWN_SUFFIXES]
    return markdown or [p for p in files if p.suffix.lower() == PDF_SUFFIX]


def _same_file(path: Path, other: Path | None) -> bool:
    return other is not None and path.resolve() == other.resolve()


def read_source(
    given: str, settings: ConvertSettings = ConvertSettings(), stdin: bytes | None = None
) -> SourceDocument:
    """One input as Markdown; raises SourceReadError or PdfOpenError naming the file."""
    if given == STDIN:
        return SourceDocument(STDIN, _decode(stdin or b"", "<stdin>"), stdin or b"")
    path = Path(given)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SourceReadError(f"{given}: no such file") from None
    except OSError as exc:
        raise SourceReadError(f"{given}: cannot read ({exc.strerror or exc})") from None
    return document_from_bytes(given, data, settings)


def is_pdf(given: str, data: bytes) -> bool:
    """A .pdf name, or content that starts like a PDF whatever the name."""
    return Path(given).suffix.lower() == PDF_SUFFIX or data[:1024].lstrip().startswith(b"%PDF")


def document_from_bytes(
    given: str, data: bytes, settings: ConvertSettings = ConvertSettings()
) -> SourceDocument:
    """The bytes of the input named `given` as Markdown: a PDF is converted, anything else
    decoded as UTF-8. Raises SourceReadError or PdfOpenError naming `given`."""
    if is_pdf(given, data):
        from chunkcli.pipeline import ConvertOptions, convert_pdf

        options = ConvertOptions(pages=settings.pages, password=settings.password)
        return SourceDocument(given, convert_pdf(data, options, name=given).markdown, data)
    return SourceDocument(given, _decode(data, given), data)


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceReadError(f"{name}: not UTF-8 text (bad byte at offset {exc.start})") from None


def split_sources(
    paths: Sequence[str],
    options: SplitOptions,
    settings: ConvertSettings = ConvertSettings(),
    *,
    skip: Path | None = None,
    stdin: bytes | None = None,
) -> Iterator[Chunk]:
    """The chunks of every input, in input order (all inputs are found before any is read)."""
    from chunkcli.split import split_markdown
    from chunkcli.tokens import load_encoding

    options = options.validated()
    load_encoding(options.encoding)  # an encoding not available offline fails before any read
    for given in find_sources(paths, skip):
        document = read_source(given, settings, stdin)
        # The default counter: with cl100k/o200k, one encoding of the whole document.
        yield from split_markdown(
            document.markdown, options, source=document.source, source_bytes=document.source_bytes
        )

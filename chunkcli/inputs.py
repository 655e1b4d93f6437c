"""Paths, folders and standard input -> documents as Markdown, for every command that reads
documents (split, check, sync, eval).

This is the one place that walks folders, tells a PDF from Markdown and calls the converter:
PDFs are converted in worker processes with a time limit per file (`chunkcli.batch`), so a
file that crashes or hangs MuPDF costs only itself. Documents come back in input order; a file
that cannot be read or converted becomes an `InputFailure` with a one-line reason, and the
others still come through.

Naming: a document's `source` is what chunks cite: `--source NAME` for standard input, else
the PDF named in convert's provenance comment, else the path as given (or as found in a
folder). Its `sha256` is of the source's bytes (the PDF's, for converted Markdown). Its
`doc_id`, an identity that survives revisions, is the input file's own path under the corpus
root (a folder given), or its name when given by name: `sub/a.pdf` for corpus/sub/a.pdf,
`sub/a.md` for corpus/sub/a.md. Two files are never one document: the provenance line names
the PDF a Markdown file came from (its `source`), but two Markdown files converted from two
`report.pdf`s, or a PDF beside its own Markdown, keep apart (and a forged provenance line takes
no other file's id). Standard input: the `--source` name, '' when unnamed (split uses a hash).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Generic, TypeVar

from chunkcli.batch import convert_catching, converted_outcome, map_conversions, page_warnings
from chunkcli.convert.options import ConvertOptions
from chunkcli.errors import ChunkcliError, UsageError
from chunkcli.files import STDIN, is_pdf_file, looks_like_pdf, readable_text, walk_folder
from chunkcli.markdown_format import parse_provenance
from chunkcli.model import ConvertResult, InputDocument, InputFailure
from chunkcli.workers import WorkerPool

# Markdown is read whole: a larger file is refused rather than read into memory (the largest
# Markdown of the corpus is 3 MB; split and check hold ~30 times their input at worst).
MAX_MARKDOWN_BYTES = 256 * 1024 * 1024
TOO_LARGE = f"larger than {MAX_MARKDOWN_BYTES >> 20} MB: not read (split it first)"
NOT_REGULAR = "not a regular file (a FIFO, device or socket): not read"

Output = TypeVar("Output")
# What read_inputs_through runs on each input (see there).
Step = Callable[["InputDocument | InputFailure"], Output]


class InputError(ChunkcliError):
    """An input is missing, unreadable or not UTF-8 text."""


@dataclass(frozen=True, slots=True)
class InputFile:
    """One input to read: a path as given or found under a folder, or '-' for stdin."""

    path: str
    is_pdf: bool
    root: str | None = None  # the folder it was found in; None when given by name


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How inputs are read: the convert options for PDFs and the worker pool they run in."""

    convert: ConvertOptions | None = None  # None: ConvertOptions()
    pool: WorkerPool = WorkerPool()  # PDFs only: Markdown is read in this process
    keep_documents: bool = False  # carry each PDF's ConvertResult (check needs the layout)
    stdin_name: str | None = None  # the source name of standard input (--source)


# --- finding ----------------------------------------------------------------------------------


def find_inputs(
    paths: Sequence[str], *, skip: Path | None = None, pdfs_only: bool = False
) -> list[InputFile]:
    """Every input under `paths`, in order: files given by name whatever their suffix, and the
    PDFs and Markdown files of folders (recursively, sorted, hidden entries skipped).

    `skip` (an output file) is never read as input. Raises UsageError naming a path that does
    not exist, or when nothing is found.
    """
    found: list[InputFile] = []
    for given in paths:
        if given == STDIN:
            found.append(InputFile(STDIN, is_pdf=False))
            continue
        path = Path(given)
        if not path.exists():
            raise UsageError(f"{given}: no such file or folder")
        if path.is_dir():
            found += [
                InputFile(str(p), p.is_file() and is_pdf_file(p), root=given)
                for p in walk_folder(path, pdfs_only=pdfs_only)
                if not _same_file(p, skip)
            ]
        elif not path.is_file():
            raise UsageError(f"{given}: {NOT_REGULAR}")
        else:
            found.append(InputFile(given, is_pdf_file(path)))
    if not found:
        kinds = "PDF" if pdfs_only else "PDF or Markdown"
        raise UsageError(f"no {kinds} files in: {', '.join(paths)}")
    return list(dict.fromkeys(found))


def _same_file(path: Path, other: Path | None) -> bool:
    return other is not None and other.exists() and path.resolve() == other.resolve()


# --- reading ----------------------------------------------------------------------------------


def read_inputs(
    files: Sequence[InputFile], options: ReadOptions = ReadOptions(), stdin: bytes | None = None
) -> Iterator[InputDocument | InputFailure]:
    """Each input as a document or a failure, in the order of `files`.

    PDFs (and a PDF on standard input) are converted in worker processes, all of them at once
    in `options.pool`; Markdown is read in this process.
    """
    if any(f.path == STDIN for f in files) and stdin is None:
        raise UsageError("'-' needs standard input")
    pdfs = [f for f in files if f.is_pdf or (f.path == STDIN and looks_like_pdf(stdin or b""))]
    with _StdinAsFile(pdfs, stdin) as stdin_pdf:
        conversions: Iterator[InputDocument | InputFailure | _Stepped[None]]
        conversions = _convert_all(pdfs, stdin_pdf, options)
        for item in files:
            if item in pdfs:
                done = next(conversions)
                assert not isinstance(done, _Stepped)  # no step given
                yield done
            else:
                yield _read_markdown(item, stdin, options.stdin_name)


def read_inputs_through(
    files: Sequence[InputFile],
    step: Step[Output],
    options: ReadOptions = ReadOptions(),
    stdin: bytes | None = None,
) -> Iterator[Output]:
    """step(each input as read_inputs reads it), in the order of `files`, with each PDF's
    conversion kept (as keep_documents) for `step`, which runs in the worker that converted it:
    only what `step` returns crosses back (check sends a report, not a layout that costs ~2 ms a
    page to pickle), and the steps of several PDFs run at once. Markdown, and a PDF that could
    not be converted, go through `step` in this process. `step` must be picklable (a
    module-level function or a functools.partial of one); an exception in it, in a worker,
    makes that input an InputFailure naming it (then given to `step` here)."""
    if any(f.path == STDIN for f in files) and stdin is None:
        raise UsageError("'-' needs standard input")
    pdfs = [f for f in files if f.is_pdf or (f.path == STDIN and looks_like_pdf(stdin or b""))]
    with _StdinAsFile(pdfs, stdin) as stdin_pdf:
        conversions = _convert_all(pdfs, stdin_pdf, options, step)
        for item in files:
            if item not in pdfs:
                yield step(_read_markdown(item, stdin, options.stdin_name))
                continue
            done = next(conversions)
            yield done.output if isinstance(done, _Stepped) else step(done)


def read_documents(
    paths: Sequence[str], options: ReadOptions = ReadOptions(), stdin: bytes | None = None
) -> Iterator[InputDocument | InputFailure]:
    """find_inputs + read_inputs, for callers that start from paths."""
    return read_inputs(find_inputs(paths), options, stdin)


def document_from_bytes(
    item: InputFile, data: bytes, options: ReadOptions = ReadOptions()
) -> InputDocument | InputFailure:
    """The document read_inputs makes of `item`, from its bytes read elsewhere (a distributed
    engine's reader): a PDF is converted in this process under `options.pool.timeout_s`, errors
    name `item.path`, never a temporary file."""
    if not item.is_pdf:
        return _markdown_document(item, data, options.stdin_name)
    path = Path(item.path)
    convert = options.convert or ConvertOptions()
    result = convert_catching(path, convert, options.pool, data=data)
    return _as_document(item, path, _markdown_only(path, result), options.stdin_name)


def _read_markdown(
    item: InputFile, stdin: bytes | None, stdin_name: str | None
) -> InputDocument | InputFailure:
    if item.path == STDIN:
        data = stdin or b""
    else:
        path = Path(item.path)
        try:
            if not path.is_file():  # a FIFO would block for ever, /dev/zero never end
                return InputFailure(item.path, f"{item.path}: {NOT_REGULAR}")
            if path.stat().st_size > MAX_MARKDOWN_BYTES:
                return InputFailure(item.path, f"{item.path}: {TOO_LARGE}")
            data = path.read_bytes()
        except OSError as exc:
            return InputFailure(item.path, f"{item.path}: cannot read ({exc.strerror or exc})")
    return _markdown_document(item, data, stdin_name)


def _markdown_document(
    item: InputFile, data: bytes, stdin_name: str | None
) -> InputDocument | InputFailure:
    name = "<stdin>" if item.path == STDIN else item.path
    try:
        markdown = data.decode("utf-8-sig")  # a byte-order mark is not text
    except UnicodeDecodeError as exc:
        return InputFailure(item.path, f"{name}: not UTF-8 text (bad byte at offset {exc.start})")
    provenance = parse_provenance(markdown)
    source = readable_text(item.path) if item.path != STDIN else (stdin_name or STDIN)
    if provenance is not None and not (item.path == STDIN and stdin_name):
        source = provenance.source
    sha = provenance.sha256 if provenance else hashlib.sha256(data).hexdigest()
    return InputDocument(item.path, source, sha, markdown, doc_id=document_id(item, source))


class _StdinAsFile:
    """A PDF on standard input, written to a private temporary file for the workers to open
    (MuPDF needs a file or the whole buffer; a file is what a worker can be handed)."""

    def __init__(self, pdfs: list[InputFile], stdin: bytes | None) -> None:
        self.needed = any(f.path == STDIN for f in pdfs)
        self.stdin = stdin or b""
        self.folder: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> Path | None:
        if not self.needed:
            return None
        self.folder = tempfile.TemporaryDirectory(prefix="chunkcli-stdin-")
        path = Path(self.folder.name, "stdin.pdf")
        path.write_bytes(self.stdin)
        return path

    def __exit__(self, *exc: object) -> None:
        if self.folder is not None:
            self.folder.cleanup()


def _convert_all(
    pdfs: list[InputFile],
    stdin_pdf: Path | None,
    options: ReadOptions,
    step: Step[Output] | None = None,
) -> Iterator[InputDocument | InputFailure | _Stepped[Output]]:
    """Converted PDFs in order, through the worker pool (with `step`: see read_inputs_through)."""
    if not pdfs:
        return
    convert = options.convert or ConvertOptions()
    files = [f for f in pdfs if f.path != STDIN]
    paths = [Path(f.path) for f in files]
    # The first file of a path names its conversions (the same file found twice, once by name
    # and once in a folder, differs only in doc_id).
    by_path = {path: item for path, item in reversed(list(zip(paths, files, strict=True)))}
    then = _worker_then(by_path, options, step)
    results = iter(map_conversions(paths, convert, then, pool=options.pool))
    for item in pdfs:
        if item.path == STDIN and stdin_pdf is not None:
            # Standard input converts on its own, under the name it is given (or '-').
            named = dataclasses.replace(convert, source_name=options.stdin_name or STDIN)
            then_stdin = _worker_then({stdin_pdf: item}, options, step)
            [(path, result)] = map_conversions([stdin_pdf], named, then_stdin, pool=options.pool)
        else:
            path, result = next(results)
        yield (
            result
            if isinstance(result, _Stepped)
            else _as_document(item, path, result, options.stdin_name)
        )


@dataclass(frozen=True, slots=True)
class _Stepped(Generic[Output]):
    """What `step` returned in the worker, for a converted PDF."""

    output: Output


def _worker_then(
    by_path: Mapping[Path, InputFile], options: ReadOptions, step: Step[Output] | None
) -> Callable[[Path, ConvertResult | ChunkcliError], _Converted | _Stepped[Output] | ChunkcliError]:
    """What a worker does with a conversion before sending it back."""
    if step is None:
        return _keep_converted if options.keep_documents else _markdown_only
    return functools.partial(_step_in_worker, by_path=by_path, options=options, step=step)


def _step_in_worker(
    path: Path,
    result: ConvertResult | ChunkcliError,
    by_path: Mapping[Path, InputFile],
    options: ReadOptions,
    step: Step[Output],
) -> _Stepped[Output] | ChunkcliError:
    """In the worker: the converted document through `step` (a failure goes back as it is)."""
    kept = _keep_converted(path, result)
    if isinstance(kept, ChunkcliError):
        return kept
    document = _as_document(by_path[path], path, kept, options.stdin_name)
    return _Stepped(step(document))


def _as_document(
    item: InputFile, path: Path, result: object, stdin_name: str | None
) -> InputDocument | InputFailure:
    """A worker's answer as a document; errors name the input, never a temporary file."""
    if isinstance(result, ChunkcliError):
        message = str(result)
        if item.path == STDIN:
            message = message.replace(str(path), "<stdin>")
        return InputFailure(item.path, message)
    assert isinstance(result, _Converted)
    markdown = result.markdown
    source = readable_text(item.path) if item.path != STDIN else (stdin_name or STDIN)
    warnings = result.warnings
    if item.path == STDIN:  # named as its errors are, never by the temporary file
        warnings = tuple(w.replace(str(path), "<stdin>") for w in warnings)
    document = InputDocument(
        item.path, source, result.sha256, markdown, result.converted, document_id(item, source)
    )
    return dataclasses.replace(document, warnings=warnings)


def document_id(item: InputFile, source: str) -> str:
    """The input file's path under the corpus root, or its name (see above); standard input
    goes by the name it is given."""
    if item.path == STDIN:
        return "" if source == STDIN else PurePosixPath(source.replace("\\", "/")).name
    if item.root is None:
        return readable_text(Path(item.path).name)
    return readable_text(Path(item.path).relative_to(item.root).as_posix())


@dataclass(frozen=True, slots=True)
class _Converted:
    """What a worker sends back: the Markdown, its PDF's hash and, on request, the result."""

    markdown: str
    sha256: str
    converted: ConvertResult | None
    warnings: tuple[str, ...] = ()


def _markdown_only(path: Path, result: ConvertResult | ChunkcliError) -> _Converted | ChunkcliError:
    """Only the Markdown crosses back from the worker (a pickled document costs ~2 ms a page)."""
    if isinstance(result, ChunkcliError):
        return result
    provenance = parse_provenance(result.markdown)
    sha = provenance.sha256 if provenance else ""
    warnings = tuple(page_warnings(converted_outcome(path, None, result, 0.0)))
    return _Converted(result.markdown, sha, None, warnings)


def _keep_converted(
    path: Path, result: ConvertResult | ChunkcliError
) -> _Converted | ChunkcliError:
    kept = _markdown_only(path, result)
    if isinstance(kept, ChunkcliError) or isinstance(result, ChunkcliError):
        return kept
    return dataclasses.replace(kept, converted=result)


def failures_of(items: Sequence[InputDocument | InputFailure]) -> list[InputFailure]:
    return [item for item in items if isinstance(item, InputFailure)]

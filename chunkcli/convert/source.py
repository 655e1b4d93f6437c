"""Opening a PDF: path -> an authenticated pymupdf.Document, or a one-line PdfOpenError.

Every failure names the file and the reason (missing, a directory, empty, not a PDF, encrypted,
wrong password, damaged beyond repair). MuPDF repairs many damaged files and they convert fine,
so a file fails here only when no page of it can be loaded.
"""

# pymupdf's methods carry no annotations, so strict mypy would flag every call into it.
# mypy: disallow-untyped-calls=False

from __future__ import annotations

import codecs
import re
from pathlib import Path
from typing import BinaryIO

import pymupdf

from chunkcli.errors import PdfOpenError

# The PDF spec puts "%PDF-" at offset 0; readers (Acrobat, MuPDF) accept it within the first
# 1024 bytes, which is where generators that prepend junk (mail gateways, HTTP wrappers) put it.
HEADER_SEARCH_BYTES = 1024
PDF_HEADER = b"%PDF-"
# A PDF body that lost its header line still starts with numbered objects ("1 0 obj");
# MuPDF rebuilds such files, so they are opened rather than rejected.
OBJECT_MARKER = b" obj"

# Magic numbers of files that people save with a .pdf name by mistake, with a name for the error.
KNOWN_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"GIF8", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"PK\x03\x04", "a ZIP archive (a .docx, .epub or similar?)"),
    (b"\xd0\xcf\x11\xe0", "an old Microsoft Office file"),
    (b"{\\rtf", "an RTF document"),
    (b"%!PS", "a PostScript file"),
)
# How much of a text file to quote in the error: enough to recognise a git symlink stub
# ("../../docs/x.pdf") or an HTML error page, short enough to keep the error on one line.
TEXT_PREVIEW_CHARS = 60
# What names a PDF given as bytes or a stream when the caller gives no name.
UNNAMED = "<bytes>"

# A PDF as a path, its whole content, or a binary stream (read to its end).
PdfInput = str | Path | bytes | BinaryIO
# What MuPDF raises on a page it cannot load: pymupdf's own errors derive from RuntimeError,
# the bindings' (FzErrorFormat: "cycle in page tree") from FzErrorBase.
MUPDF_ERRORS = (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase)
# A reference in a page tree's /Kids array: "4 0 R".
REFERENCE_RE = re.compile(r"(\d+)\s+\d+\s+R")


def open_pdf(
    pdf: PdfInput, password: str | None = None, *, name: str | Path | None = None
) -> pymupdf.Document:
    """Open `pdf` (a path, bytes or a binary stream) as a PDF, authenticating with `password`
    when it is encrypted.

    Raises PdfOpenError, with one line naming the file and the reason, when nothing usable
    can be read; the file is `name` when given (bytes read from a temporary or remote file
    keep their original path), else the path. Owner-password-only files open without one.
    """
    if isinstance(pdf, str | Path):
        path = Path(pdf)
        label: str | Path = name if name is not None else path
        head = _check_head(_read_head(path), label)
        return _open(label, head, filename=str(path), password=password)
    data = pdf if isinstance(pdf, bytes) else pdf.read()
    label = name if name is not None else UNNAMED
    if not data:
        raise PdfOpenError(f"{label}: empty file (0 bytes)")
    head = _check_head(data[:HEADER_SEARCH_BYTES], label)
    return _open(label, head, stream=data, password=password)


def _open(
    path: str | Path,
    head: bytes,
    *,
    filename: str | None = None,
    stream: bytes | None = None,
    password: str | None,
) -> pymupdf.Document:
    """pymupdf.open of a file or of bytes whose head passed _check_head; `path` names it."""
    silence_mupdf()
    try:
        if stream is not None:
            doc = pymupdf.open(stream=stream, filetype="pdf")
        else:
            doc = pymupdf.open(filename, filetype="pdf")
    except pymupdf.FileDataError:
        raise PdfOpenError(f"{path}: damaged or truncated: MuPDF cannot read it as a PDF") from None
    except RuntimeError as exc:  # pymupdf's other open errors derive from RuntimeError
        raise PdfOpenError(f"{path}: cannot open: {_one_line(str(exc))}") from None
    _count_pages(doc, path)
    if not head.startswith(PDF_HEADER) and doc.page_count == 0:
        doc.close()
        raise PdfOpenError(f"{path}: not a PDF (no %PDF- header, no readable page)")
    _unlock(doc, path, password)
    _require_readable_page(doc, path)
    return doc


def damage_notes(path: str | Path, doc: pymupdf.Document) -> tuple[str, ...]:
    """A note when MuPDF had to rebuild the file (read off the document, not MuPDF's
    process-wide warning log): a repaired file may miss content."""
    if doc.is_repaired:
        return (f"{path}: damaged file, repaired by MuPDF: some content may be missing",)
    return ()


def page_count_of(path: Path) -> int:
    """The file's page count as MuPDF opens it, without checks (0 when it cannot)."""
    silence_mupdf()
    try:
        with pymupdf.open(path) as doc:
            return int(doc.page_count)
    except Exception:  # noqa: BLE001 - any file MuPDF rejects has no countable pages
        return 0


def silence_mupdf() -> None:
    """Keep MuPDF's own error and warning chatter off stderr (it still records warnings)."""
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)


def read_pdf_bytes(path: Path) -> bytes:
    """The whole file, read once, so that the bytes converted are the bytes hashed: a file
    replaced while it is converted is never recorded with the new file's hash and the old
    file's text. One-line PdfOpenError as for open_pdf (missing, a folder, unreadable, empty)."""
    _read_head(path)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise PdfOpenError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _read_head(path: Path) -> bytes:
    """The first bytes of `path`, once it is known to be a non-empty file."""
    if not path.exists():
        raise PdfOpenError(f"{path}: no such file")
    if path.is_dir():
        raise PdfOpenError(f"{path}: is a directory, not a PDF file")
    if not path.is_file():  # opening a FIFO blocks for ever; a device never ends
        raise PdfOpenError(f"{path}: not a regular file (a FIFO, device or socket)")
    try:
        with path.open("rb") as stream:
            head = stream.read(HEADER_SEARCH_BYTES)
    except OSError as exc:
        raise PdfOpenError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not head:
        raise PdfOpenError(f"{path}: empty file (0 bytes)")
    return head


def _check_head(head: bytes, path: str | Path) -> bytes:
    """`head` from its %PDF- header on, or all of it for a headerless PDF body; else raise."""
    start = head.find(PDF_HEADER)
    if start >= 0:
        return head[start:]
    if OBJECT_MARKER in head:
        return head  # a headerless PDF body: let MuPDF try to rebuild it
    raise PdfOpenError(f"{path}: not a PDF: {describe_content(head)}")


def describe_content(head: bytes) -> str:
    """A short guess at what a non-PDF file is, from its first bytes."""
    for signature, name in KNOWN_SIGNATURES:
        if head.startswith(signature):
            return f"looks like {name}"
    lowered = head.lstrip().lower()
    if lowered.startswith((b"<!doctype html", b"<html")):
        return "looks like an HTML page (a download that returned a web page?)"
    try:
        # final=False: the read may have cut a multi-byte character at the end.
        text = codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return "no %PDF- header in its first 1024 bytes"
    if all(c.isprintable() or c.isspace() for c in text):
        preview = _one_line(text)[:TEXT_PREVIEW_CHARS]
        if _looks_like_symlink_stub(text):
            return f"a text file holding a path, {preview!r} (a git symlink checked out as a file?)"
        return f"looks like a text file: {preview!r}"
    return "no %PDF- header in its first 1024 bytes"


def _looks_like_symlink_stub(text: str) -> bool:
    """Git without symlink support writes the link target, one line, into a plain file."""
    lines = text.strip().splitlines()
    return len(lines) == 1 and lines[0].lower().endswith(".pdf") and " " not in lines[0]


def _count_pages(doc: pymupdf.Document, path: str | Path) -> None:
    """Make doc.page_count readable. A page tree whose /Count disagrees with its leaves (a
    /Count 1000 over one page) makes MuPDF refuse to count, and the pages that do exist would be
    lost: such a tree gets the /Count of the pages it really holds, in memory only."""
    try:
        doc.page_count  # noqa: B018 - the property raises on a bad /Count
        return
    except RuntimeError:
        pass
    try:
        _recount_page_tree(doc)
        doc.page_count  # noqa: B018
    except (RuntimeError, ValueError):
        doc.close()
        raise PdfOpenError(f"{path}: damaged: its page tree cannot be read") from None


def _recount_page_tree(doc: pymupdf.Document) -> None:
    """Set each /Pages node's /Count to the number of /Page leaves under it (a node met twice,
    as in a tree that contains itself, is counted once)."""
    root = REFERENCE_RE.fullmatch(doc.xref_get_key(doc.pdf_catalog(), "Pages")[1])
    if root is None:
        raise ValueError("no page tree")
    counts: dict[int, int] = {}
    order: list[tuple[int, list[int]]] = []  # nodes with their kids, parents first
    stack, seen = [int(root.group(1))], set()
    while stack:
        xref = stack.pop()
        if xref in seen or not 0 < xref < doc.xref_length():
            continue
        seen.add(xref)
        if doc.xref_get_key(xref, "Type")[1] == "/Page":
            counts[xref] = 1
            continue
        kids = [int(m.group(1)) for m in REFERENCE_RE.finditer(doc.xref_get_key(xref, "Kids")[1])]
        order.append((xref, kids))
        stack.extend(kids)
    for xref, kids in reversed(order):  # children before parents
        counts[xref] = sum(counts.get(kid, 0) for kid in kids)
        doc.xref_set_key(xref, "Count", str(counts[xref]))


def _unlock(doc: pymupdf.Document, path: str | Path, password: str | None) -> None:
    """Authenticate an encrypted document or raise; unencrypted documents pass untouched."""
    if not doc.needs_pass:
        return
    if password is None:
        doc.close()
        raise PdfOpenError(f"{path}: encrypted: needs a password (--password)")
    if not doc.authenticate(password):
        doc.close()
        raise PdfOpenError(f"{path}: wrong password")


def _require_readable_page(doc: pymupdf.Document, path: str | Path) -> None:
    """Raise unless some page can be used.

    An intact file passes as it is (blank pages are the converter's to report). A file MuPDF
    had to repair may list pages whose objects were cut off: it passes once one page loads and
    shows text or an image, so a half-truncated file converts the pages it still has.
    """
    if doc.page_count == 0:
        doc.close()
        raise PdfOpenError(f"{path}: damaged or truncated: no readable pages")
    count = doc.page_count
    if doc.is_repaired:
        if any(_has_content(doc, i) for i in range(count)):
            return
        doc.close()
        raise PdfOpenError(
            f"{path}: damaged or truncated: none of its {count} pages has text or images left"
        )
    if any(_loads(doc, i) for i in range(count)):  # the first page nearly always does
        return
    doc.close()
    reason = "its only page cannot" if count == 1 else f"none of its {count} pages can"
    raise PdfOpenError(f"{path}: damaged: {reason} be loaded")


def _loads(doc: pymupdf.Document, index: int) -> bool:
    try:
        doc.load_page(index)
        return True
    except MUPDF_ERRORS:  # a page tree that contains itself, a page object cut off
        return False


def _has_content(doc: pymupdf.Document, index: int) -> bool:
    try:
        page = doc.load_page(index)
        return bool(page.get_text("text").strip() or page.get_images())
    except MUPDF_ERRORS:  # a page object that was cut off or is malformed
        return False


def _one_line(text: str) -> str:
    return " ".join(text.split())

"""Hand-built PDF files: numbered object bodies in, a PDF with a correct xref table out.

The fuzz campaign's structural cases and the reliability tests need files no PDF library
would write (a page tree that contains itself, /Count 1000 over one page, a font size of
1e20), so they are written here byte by byte.
"""

from __future__ import annotations

from collections.abc import Sequence

HEADER = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"


def build_pdf(objects: Sequence[bytes], root: int = 1) -> bytes:
    """A PDF whose object k (1-based) has body objects[k-1]; the trailer's /Root is `root`."""
    out = bytearray(HEADER)
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\n" % (len(objects) + 1, root)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def stream(data: bytes, extra: bytes = b"") -> bytes:
    """A stream object body with a correct /Length."""
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def text_content(lines: Sequence[tuple[float, float, float, str]]) -> bytes:
    """A content stream drawing (x, y, size, text) lines in the font /F1 (PDF coordinates)."""
    ops = [b"BT"]
    for x, y, size, text in lines:
        escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        ops.append(
            b"/F1 %s Tf 1 0 0 1 %s %s Tm (%s) Tj"
            % (_num(size), _num(x), _num(y), escaped.encode("latin-1"))
        )
    ops.append(b"ET")
    return b"\n".join(ops)


def _num(value: float) -> bytes:
    return (
        (b"%d" % value) if float(value).is_integer() and abs(value) < 1e15 else repr(value).encode()
    )


FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def simple_pdf(
    pages: Sequence[bytes],
    *,
    count: int | None = None,
    page_extra: bytes = b"",
    media_box: bytes = b"[0 0 595 842]",
) -> bytes:
    """One page per content stream; `count` overrides the page tree's /Count, `page_extra`
    goes into every page dictionary."""
    first_page = 4
    kids = b" ".join(b"%d 0 R" % (first_page + 2 * i) for i in range(len(pages)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(pages) if count is None else count),
        FONT,
    ]
    for i, content in enumerate(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox %s /Resources << /Font << /F1 3 0 R >> >> "
            b"/Contents %d 0 R %s>>" % (media_box, first_page + 2 * i + 1, page_extra)
        )
        objects.append(stream(content))
    return build_pdf(objects)

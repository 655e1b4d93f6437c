"""Deterministic PDF mutants: seeded damage to the PDFs in samples/, plus hand-built files.

`mutants(seeds, count, seed)` yields the same (name, bytes) list for the same arguments: mutant
k draws its kind and its damage from random.Random(f"{seed}:{k}"), so a failing mutant is
rebuilt from its name alone. The kinds are those of the issue-15 campaign: byte flips,
truncation, xref and /Length corruption, page-tree and /Parent loops, deep nesting, a page of
many text objects, a big zero stream; `structural()` adds the hand-built files.
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Callable, Iterator, Sequence

from bench.fuzz.rawpdf import build_pdf, simple_pdf, stream, text_content

Mutation = Callable[[bytes, random.Random], bytes]
HELLO = text_content([(72, 700, 12, "Hello world")])


def byte_flips(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 40)):
        out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def truncation(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randint(len(data) // 20, len(data) - 1)]


def xref_corruption(data: bytes, rng: random.Random) -> bytes:
    """Digits of the xref table (or the startxref offset) replaced by random digits."""
    start = data.rfind(b"xref")
    if start < 0:
        return byte_flips(data, rng)
    out = bytearray(data)
    digits = [i for i in range(start, len(out)) if 48 <= out[i] <= 57]
    for i in rng.sample(digits, min(len(digits), rng.randint(1, 30))):
        out[i] = rng.randint(48, 57)
    return bytes(out)


def length_corruption(data: bytes, rng: random.Random) -> bytes:
    """Every /Length value replaced, each with some chance, by a wrong number."""

    def wrong(match: re.Match[bytes]) -> bytes:
        if rng.random() < 0.5:
            return match.group()
        return b"/Length %d" % rng.choice([0, 1, 10**9, int(match.group(1)) * 2 + 7])

    return re.sub(rb"/Length (\d+)", wrong, data)


def page_tree_loop(data: bytes, rng: random.Random) -> bytes:
    """/Parent and /Kids references pointed at random objects (often their own ancestors)."""
    numbers = [int(n) for n in re.findall(rb"(\d+) 0 obj", data)] or [1]

    def retarget(match: re.Match[bytes]) -> bytes:
        return match.group(1) + b"%d 0 R" % rng.choice(numbers)

    return re.sub(rb"(/(?:Parent|Kids \[) ?)\d+ 0 R", retarget, data)


def deep_nesting(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice([1000, 10_000])
    opener, closer = rng.choice([(b"<< /A ", b">> "), (b"[", b"]")])
    return simple_pdf([HELLO], page_extra=b"/Foo " + opener * depth + closer * depth)


def many_text_objects(data: bytes, rng: random.Random) -> bytes:
    count = rng.choice([20_000, 50_000])
    draws = b"".join(b"BT /F1 8 Tf %d %d Td (x) Tj ET\n" % (i % 500, i % 800) for i in range(count))
    return simple_pdf([draws])


def zero_stream(data: bytes, rng: random.Random) -> bytes:
    """A page whose content stream inflates to megabytes of NUL bytes."""
    zeros = zlib.compress(b"\0" * rng.choice([5_000_000, 50_000_000]), 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
        stream(zeros, b"/Filter /FlateDecode "),
    ]
    return build_pdf(objects)


MUTATIONS: dict[str, Mutation] = {
    "flip": byte_flips,
    "truncate": truncation,
    "xref": xref_corruption,
    "length": length_corruption,
    "loop": page_tree_loop,
    "nesting": deep_nesting,
    "textobjects": many_text_objects,
    "zeros": zero_stream,
}
# How often each kind is drawn: the cheap byte-level kinds most, the expensive whole-file
# kinds (which ignore their seed file) a few times each.
WEIGHTS = {
    "flip": 30,
    "truncate": 20,
    "xref": 15,
    "length": 15,
    "loop": 12,
    "nesting": 4,
    "textobjects": 2,
    "zeros": 2,
}


def mutants(
    seeds: Sequence[tuple[str, bytes]], count: int, seed: int = 15
) -> Iterator[tuple[str, bytes]]:
    """`count` mutants of the seed files, deterministic for (seeds, count, seed)."""
    kinds = sorted(MUTATIONS)
    for k in range(count):
        rng = random.Random(f"{seed}:{k}")
        kind = rng.choices(kinds, weights=[WEIGHTS[name] for name in kinds])[0]
        seed_name, data = seeds[rng.randrange(len(seeds))]
        yield f"{k:04d}-{kind}-{seed_name}", MUTATIONS[kind](data, rng)


def structural() -> dict[str, bytes]:
    """Hand-built files, one per defect the campaign found (issue 15)."""
    catalog = b"<< /Type /Catalog /Pages 2 0 R >>"
    huge = (
        b"BT /F1 12 Tf 1 0 0 1 72 700 Tm (Title) Tj /F1 99999999999999999999 Tf "
        b"99999999999999999999 0 0 99999999999999999999 72 600 Tm (Huge) Tj ET"
    )
    return {
        "count-1000": simple_pdf([HELLO], count=1000),
        "tree-contains-itself": build_pdf([catalog, b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>"]),
        "huge-font-size": simple_pdf([huge]),
        "user-unit-0": simple_pdf([HELLO], page_extra=b"/UserUnit 0"),
        "deep-dictionary": simple_pdf(
            [HELLO], page_extra=b"/Foo " + b"<< /A " * 10000 + b">> " * 10000
        ),
        "deep-array-in-text": simple_pdf(
            [b"BT /F1 12 Tf 72 700 Td " + b"[" * 10000 + b"(x)" + b"]" * 10000 + b" TJ ET"]
        ),
        "garbage-inline-image": simple_pdf(
            [HELLO + b"\nq 9 0 0 9 0 0 cm BI /W 9 /H 9 /BPC 8 /CS /RGB /F /DCT ID \x00\x01 EI Q"]
        ),
        "no-pages": build_pdf([catalog, b"<< /Type /Pages /Kids [] /Count 0 >>"]),
    }

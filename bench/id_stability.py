"""Chunk ids after an edit elsewhere: delete the middle page of multi-page PDFs, split before
and after, and count the chunks that keep their ids.

    python bench/id_stability.py [PDF_DIR] [--docs 10] [--max-tokens 800,300] [--cache DIR]
    python bench/id_stability.py --generated 5     # generated two-column documents instead

For each of the first --docs PDFs (sorted by name) with at least 4 pages and a text layer,
PyMuPDF deletes page n//2 + 1 into memory; both versions are converted by chunkcli (the
Markdown is cached in --cache, keyed by the PDF's hash and the deleted page, so that a change
to split alone is measured without converting again) and split with the same doc_id.

Counted, per document and in total:
  unchanged  chunks of the first split that are also in the second with the same heading path
             and the same body once page numbers are taken out of the page markers (the chunk
             did not change; only the pages after the deleted one were renumbered)
  kept       of those, how many keep their id (the issue's goal: >= 90 %)
  survive    chunks of the first split, off the deleted page, whose id is in the second (how
             much of the document a re-index leaves alone)

--generated N writes N documents with tests/pdf_factory.py instead (6-10 two-column pages of
random English words, a heading every 2 or 3 pages, seeds 0..N-1) and measures those.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = REPO_ROOT.parent / "shared" / "corpus" / "pdfs"
MIN_PAGES = 4
_MARKER_NUMBER = re.compile(r"(<!--\s*page\s+)\d+")


def convert_cached(data: bytes, name: str, cache: Path) -> str:
    from chunkcli.convert import ConvertOptions, convert_pdf

    key = hashlib.sha256(data).hexdigest()[:24]
    path = cache / f"{key}.md"
    if not path.exists():
        options = ConvertOptions(source_name=name)
        path.write_text(convert_pdf(data, options, name=name).markdown, encoding="utf-8")
    return path.read_text(encoding="utf-8")


def page_deleted(pdf: Path) -> tuple[bytes, bytes, int] | None:
    """(the PDF's bytes, its bytes without its middle page, that page's number), or None."""
    import pymupdf

    data = pdf.read_bytes()
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except (RuntimeError, ValueError):  # pymupdf's errors derive from these
        return None
    if doc.page_count < MIN_PAGES or not any(p.get_text().strip() for p in doc):
        return None
    middle = doc.page_count // 2
    doc.delete_page(middle)
    return data, doc.tobytes(garbage=0), middle + 1


def measure(before_md: str, after_md: str, deleted: int, max_tokens: int) -> tuple[int, ...]:
    from chunkcli.split import SplitOptions, split_markdown

    options = SplitOptions(max_tokens=max_tokens, doc_id="doc")
    before = split_markdown(before_md, options, source="doc.pdf", source_sha256="0" * 64)
    after = split_markdown(after_md, options, source="doc.pdf", source_sha256="0" * 64)

    def key(chunk: object) -> tuple[object, str]:
        return chunk.heading_path, _MARKER_NUMBER.sub(r"\1#", chunk.body)  # type: ignore[attr-defined]

    after_keys = {key(c): c.id for c in after}
    after_ids = {c.id for c in after}
    unchanged = [c for c in before if key(c) in after_keys]
    kept = [c for c in unchanged if c.id == after_keys[key(c)]]
    off_page = [c for c in before if (c.page_start, c.page_end) != (deleted, deleted)]
    survive = [c for c in off_page if c.id in after_ids]
    return len(before), len(after), len(unchanged), len(kept), len(off_page), len(survive)


VOCABULARY = (
    "river stone paper light window garden table music market winter summer engine signal "
    "letter county bridge harvest report method result sample region figure measure value "
    "forest rail harbor copper silver yellow quiet narrow early later across beneath"
).split()
HEADINGS = (
    "Origins of the survey",
    "Field methods",
    "Results by region",
    "Costs and timing",
    "Limits of the data",
    "Related surveys",
    "Next steps",
    "Appendix notes",
    "Glossary",
)


def generated_document(path: Path, seed: int) -> Path:
    """Two-column pages of paragraphs of 25-140 words, a heading every 2 or 3 pages."""
    import random

    sys.path.insert(0, str(REPO_ROOT / "tests"))
    from pdf_factory import Text, make_pdf, wrapped_paragraph

    rng = random.Random(seed)
    pages: list[list[object]] = []
    heading = 0
    for page in range(rng.randint(6, 10)):
        items: list[object] = []
        if page % rng.choice((2, 3)) == 0 and heading < len(HEADINGS):
            items.append(Text(56, 80, HEADINGS[heading], size=16, bold=True))
            heading += 1
        for x in (56.0, 315.0):
            top = 120.0
            while top < 640:
                words = [rng.choice(VOCABULARY) for _ in range(rng.randint(25, 140))]
                text = " ".join(w + ("." if i % 11 == 10 else "") for i, w in enumerate(words))
                lines = [line for line in wrapped_paragraph(x, top, 225, text.capitalize() + ".")]
                items += lines
                top = lines[-1].y + 26  # type: ignore[attr-defined]
        pages.append(items)
    return make_pdf(path, pages)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=str(DEFAULT_DIR))
    parser.add_argument("--docs", type=int, default=10)
    parser.add_argument("--max-tokens", default="800,300")
    parser.add_argument("--cache", default="/tmp/chunkcli-id-stability")
    parser.add_argument("--skip", default="", help="comma-separated name parts to leave out")
    parser.add_argument("--generated", type=int, default=0, help="N generated documents")
    args = parser.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    if args.generated:
        args.folder, args.docs = str(cache / "generated"), args.generated
        for seed in range(args.generated):
            generated_document(cache / "generated" / f"generated-{seed}.pdf", seed)
    skips = [s for s in args.skip.split(",") if s]
    pairs = []
    for pdf in sorted(Path(args.folder).glob("*.pdf")):
        if any(s in pdf.name for s in skips):
            continue
        found = page_deleted(pdf)
        if found is None:
            continue
        data, without, deleted = found
        name = pdf.name
        pairs.append(
            (name, convert_cached(data, name, cache), convert_cached(without, name, cache), deleted)
        )
        if len(pairs) == args.docs:
            break
    for max_tokens in (int(x) for x in args.max_tokens.split(",")):
        totals = [0] * 6
        print(f"\n--max-tokens {max_tokens}")
        print(
            "| document | deleted page | chunks before/after | unchanged | kept | off the page "
            "| survive |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, before_md, after_md, deleted in pairs:
            row = measure(before_md, after_md, deleted, max_tokens)
            totals = [t + r for t, r in zip(totals, row, strict=True)]
            cells = [name[:48], str(deleted), f"{row[0]}/{row[1]}", *map(str, row[2:])]
            print("| " + " | ".join(cells) + " |")
        b, a, unchanged, kept, off, survive = totals
        kept_share, survive_share = kept / max(unchanged, 1), survive / max(off, 1)
        cells = ["**total**", "", f"{b}/{a}", str(unchanged), f"{kept} ({kept_share:.1%})"]
        cells += [str(off), f"{survive} ({survive_share:.1%})"]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""check's recall and precision: clean documents, defects injected by program, check run on both.

    python bench/check_harness.py [--generated N] [--corpus DIR ...] [--cache DIR] [--seed S|A-B]
                                  [--no-pdfs] [--list-clean] [--any-cut]

Clean documents are (1) generated Markdown in English, Korean and Japanese (headings, prose,
tables, captions, page markers), (2) generated two-column PDFs converted here, and (3) the
conversions of every PDF under each `--corpus` folder (default ../shared/corpus/pdfs and
../shared/dpbench/pdfs), made at run time and cached as pickles in `--cache` (default
/tmp/chunkcli-check-harness; nothing is copied into the repository).

Each defect class is injected into every clean document it applies to (one case per document
and class; a class that needs a table, a heading, Korean text ... skips documents without one).
A case is *detected* when a code of the class's `expected` set is reported (warn or fail) on the
injected document and not on the clean one. Per check code: true positives (new on a case of a
class that expects it), false positives (new on a case of another class), precision; per class:
cases and recall. False alarms on the clean documents are counted per code and origin; with
`--list-clean` every warn/fail on the corpus conversions is listed (to be judged real or not).

The classes (what a converter does wrong, as it looks in the Markdown):
  interleave       PDFs only: two side-by-side paragraphs (one of them prose, not two columns of
                   a table set as text) read across, line by line, into one
  glued-hangul     a Korean sentence (6+ words) written without its spaces
  kept-hyphens     2-6 long words of one English paragraph keep a former line-end hyphen
  data-header      the header row lost: the first data row (2+ cells with digits) is the header
  dropped-header   the header row removed (the first data row moves up) or its cells emptied
  bad-title        the title (first H1, or a new one) is a number, a URL or a sentence fragment
  split-heading    a heading cut from its words: "## 3.2" + "Results ...", or where it wraps
                   (the rest no wider than the first line and the word that did not fit)
  promoted         a figure/table caption or a contents entry ("2.1 Methods .... 14") as heading
  running-head     a running head line left at the top of every page (3+ pages)
  dropped-page     the text of one text page (100+ characters; not after a page ending in a
                   table) missing under its marker
  kangxi           ideographs of one paragraph written as Kangxi radicals (U+2F00-U+2FDF)
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import pickle
import random
import re
import sys
import time
import unicodedata
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from chunkcli.check import CheckOptions, DocumentReport, check_conversion, check_markdown
from chunkcli.model import Block, BlockKind, ConvertResult, Document, Severity

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPORA = (REPO.parent / "shared/corpus/pdfs", REPO.parent / "shared/dpbench/pdfs")
DEFAULT_CACHE = Path("/tmp/chunkcli-check-harness")
FLAGGING = (Severity.WARN, Severity.FAIL)


@dataclass(frozen=True)
class CleanDocument:
    name: str
    origin: str  # "generated", "generated-pdf", or the corpus folder's name
    markdown: str
    converted: ConvertResult | None = None  # the conversion (with its geometry) for PDFs


@dataclass(frozen=True)
class DefectClass:
    name: str
    expected: frozenset[str]  # check codes any of which detects it
    inject: Callable[[CleanDocument, random.Random], str | None]  # None: does not apply


@dataclass
class Score:
    cases: Counter[str] = field(default_factory=Counter)  # class -> injected cases
    detected: Counter[str] = field(default_factory=Counter)  # class -> detected cases
    true_pos: Counter[str] = field(default_factory=Counter)  # code -> TP
    false_pos: Counter[str] = field(default_factory=Counter)  # code -> FP
    clean_alarms: Counter[tuple[str, str]] = field(default_factory=Counter)  # (origin, code)
    missed: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    wrong: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    clean_findings: list[tuple[str, str, str, str]] = field(default_factory=list)
    check_seconds: float = 0.0
    checked_bytes: int = 0


# --- generated clean documents ------------------------------------------------------------


def _words(lang: str, count: int, min_len: int) -> list[str]:
    import wordfreq

    words = wordfreq.top_n_list(lang, count)
    if lang == "en":
        return [w for w in words if w.isascii() and w.isalpha() and len(w) >= min_len]
    return [w for w in words if len(w) >= min_len and all(c.isalpha() for c in w)]


KO_PARTICLES = ("은", "는", "이", "가", "을", "를", "에", "의", "에서", "으로", "와", "도", "")
# Real hyphenated compounds of English prose: the kept-hyphen check must let these pass.
EN_COMPOUNDS = (
    "well-known", "state-of-the-art", "long-term", "co-operate", "non-linear", "e-mail",
    "real-time", "high-quality", "follow-up", "self-attention", "pre-trained", "open-source",
    "decision-making", "cross-validation", "end-to-end", "re-enter", "multi-modal",
)  # fmt: skip
COLUMN_NAMES = (
    "Region", "Product", "Category", "Name", "Status", "Owner", "Item", "Unit", "Type", "Site",
)  # fmt: skip
VALUE_KINDS = ("date", "amount", "percent", "count", "code", "label")


def en_sentence(rng: random.Random, words: Sequence[str]) -> str:
    picked = [rng.choice(words) for _ in range(rng.randint(8, 18))]
    if rng.random() < 0.3:
        picked[rng.randrange(len(picked))] = rng.choice(EN_COMPOUNDS)
    return picked[0].capitalize() + " " + " ".join(picked[1:]) + "."


def ko_sentence(rng: random.Random, stems: Sequence[str]) -> str:
    words = [rng.choice(stems) + rng.choice(KO_PARTICLES) for _ in range(rng.randint(6, 14))]
    return " ".join(words) + "다."


def ja_sentence(rng: random.Random, words: Sequence[str]) -> str:
    return "".join(rng.choice(words) for _ in range(rng.randint(8, 20))) + "。"


def cell_value(rng: random.Random, kind: str, words: Sequence[str]) -> str:
    if kind == "date":
        year, month, day = rng.randint(1995, 2030), rng.randint(1, 12), rng.randint(1, 28)
        month_name = ("Jan", "Mar", "Jun", "Sep", "Dec")[month % 5]
        return rng.choice(
            [
                f"{year}-{month:02d}-{day:02d}",
                f"{day:02d}/{month:02d}/{year}",
                f"{day} {month_name} {year}",
            ]
        )
    if kind == "amount":
        value = rng.uniform(10, 90000)
        return rng.choice([f"${value:,.2f}", f"{value:,.0f}", f"€ {value:,.2f}", f"{value:,.1f}"])
    if kind == "percent":
        return f"{rng.uniform(0, 100):.1f}%"
    if kind == "count":
        return str(rng.randint(0, 5000))
    if kind == "code":
        return f"{rng.choice('ABCDEFGHK')}{rng.choice('LMNPRSTX')}-{rng.randint(100, 9999)}"
    return " ".join(rng.choice(words) for _ in range(rng.randint(1, 3))).capitalize()


def en_table(rng: random.Random, words: Sequence[str]) -> str:
    kinds = ["label", *rng.sample(VALUE_KINDS[:5], rng.randint(2, 4))]
    if rng.random() < 0.3:  # years as column names over amounts: a real header
        header = ["Item", *(str(2018 + i) for i in range(len(kinds) - 1))]
        kinds = ["label"] + ["amount"] * (len(kinds) - 1)
    else:
        header = [rng.choice(COLUMN_NAMES)] + [
            {"date": "Date", "amount": "Amount (USD)", "percent": "Share", "count": "Count",
             "code": "Code"}[k] for k in kinds[1:]]  # fmt: skip
    rows = [[cell_value(rng, k, words) for k in kinds] for _ in range(rng.randint(3, 9))]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def generated_document(rng: random.Random, lang: str, number: int) -> CleanDocument:
    """A Markdown document as convert writes one: page markers, title, numbered headings,
    paragraphs (one line each), tables and captions."""
    en = _words("en", 20000, 3)
    text_words = {"en": en, "ko": _words("ko", 4000, 2), "ja": _words("ja", 4000, 2)}[lang]
    sentence = {"en": en_sentence, "ko": ko_sentence, "ja": ja_sentence}[lang]

    def paragraph() -> str:
        return " ".join(sentence(rng, text_words) for _ in range(rng.randint(3, 7)))

    def heading_words() -> str:
        if lang == "en":
            return " ".join(rng.choice(en) for _ in range(rng.randint(2, 5))).capitalize()
        return " ".join(rng.choice(text_words) for _ in range(rng.randint(2, 4)))

    parts = [f"# {heading_words()}"]
    page, figure = 1, 0
    parts.insert(0, "<!-- page 1 -->")
    for section in range(1, rng.randint(4, 7)):
        parts.append(f"## {section} {heading_words()}")
        for sub in range(rng.randint(0, 2) + 1):
            if sub:
                parts.append(f"### {section}.{sub} {heading_words()}")
            for _ in range(rng.randint(1, 3)):
                parts.append(paragraph())
            if rng.random() < 0.35:
                parts.append(en_table(rng, en))
            if rng.random() < 0.3:
                figure += 1
                label = {"en": "Figure", "ko": "그림", "ja": "図"}[lang]
                parts.append(f"{label} {figure}: {sentence(rng, text_words)}")
            if rng.random() < 0.6 and not parts[-1].startswith("<!--"):
                page += 1
                parts.append(f"<!-- page {page} -->")
    if parts[-1].startswith("<!--"):
        parts.pop()  # (a marker with no page after it)
    return CleanDocument(
        f"generated-{lang}-{number:03d}.md", "generated", "\n\n".join(parts) + "\n"
    )


def generated_documents(count: int, seed: int) -> list[CleanDocument]:
    langs = ("en", "en", "ko", "ja")
    return [
        generated_document(random.Random(seed * 1000 + k), langs[k % len(langs)], k)
        for k in range(count)
    ]


def generated_pdfs(count: int, seed: int, folder: Path) -> list[Path]:
    """Two-column pages of English prose (tests/pdf_factory.py), a heading above each column."""
    sys.path.insert(0, str(REPO))
    from tests.pdf_factory import Text, make_pdf, wrapped_paragraph

    en = _words("en", 20000, 3)
    paths = []
    for k in range(count):
        rng = random.Random(seed * 7919 + k)
        pages = []
        for _ in range(rng.randint(1, 3)):
            items: list[object] = []
            for x in (56.0, 312.0):
                y = 80.0
                items.append(Text(x, y, f"{rng.randint(1, 9)} " + rng.choice(en).capitalize(),
                                  size=13, bold=True))  # fmt: skip
                y += 26
                while y < 700:
                    text = " ".join(en_sentence(rng, en) for _ in range(rng.randint(3, 5)))
                    lines = wrapped_paragraph(x, y, 227.0, text, size=10.0)
                    items.extend(lines)
                    y += 14.0 * len(lines) + 12
            pages.append(items)
        paths.append(make_pdf(folder / f"generated-columns-{seed}-{k:02d}.pdf", pages))  # type: ignore[arg-type]
    return paths


# --- conversions (cached) -------------------------------------------------------------------


def convert_cached(path: Path, cache: Path) -> ConvertResult | None:
    """The conversion of `path` with convert's defaults, kept in `cache` by the file's hash and
    the code's (a change to chunkcli makes a new conversion); None if it cannot be converted."""
    from chunkcli.convert import convert_pdf

    data = path.read_bytes()
    key = hashlib.sha256(data + _code_version().encode()).hexdigest()[:24]
    stored = cache / f"{key}.pickle"
    if stored.exists():
        loaded: ConvertResult | None = pickle.loads(stored.read_bytes())
        return loaded
    try:
        result: ConvertResult | None = convert_pdf(data, name=path)
    except Exception:  # noqa: BLE001 - unreadable corpus files (encrypted, not PDF) are skipped
        result = None
    cache.mkdir(parents=True, exist_ok=True)
    stored.write_bytes(pickle.dumps(result))
    return result


def _code_version() -> str:
    digest = hashlib.sha256()
    for source in sorted((REPO / "chunkcli/convert").rglob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()


def converted_documents(paths: Sequence[Path], cache: Path, origin: str) -> list[CleanDocument]:
    documents = []
    for path in paths:
        result = convert_cached(path, cache)
        if result is not None and result.markdown.strip():
            documents.append(CleanDocument(path.name, origin, result.markdown, result))
    return documents


# --- Markdown helpers -----------------------------------------------------------------------

MARKER = re.compile(r"^<!-- page (\d+)[^>]*-->$")
TABLE_LINE = re.compile(r"^\|.*\|$")
HEADING = re.compile(r"^(#{1,6}) (.+)$")
HANGUL_WORD = re.compile(r"^[\uac00-\ud7a3]+[.,]?$")
LATIN_WORD = re.compile(r"^[a-z]{7,}$")


def blocks(markdown: str) -> list[str]:
    return markdown.split("\n\n")


def join(parts: Sequence[str]) -> str:
    return "\n\n".join(parts)


def is_prose(block: str) -> bool:
    return not (block.startswith(("#", "<!--", "|", "```", "- ", "* ")) or not block.strip())


def tables_of(parts: Sequence[str]) -> list[int]:
    return [
        i for i, b in enumerate(parts)
        if "\n" in b and all(TABLE_LINE.match(line) for line in b.split("\n"))
    ]  # fmt: skip


def in_figures(parts: Sequence[str]) -> set[int]:
    """The blocks inside figure blocks (`<!-- figure -->` ... `<!-- /figure -->`, their parts
    separated by blank lines): a converter writes no heading there, so nothing is put there."""
    inside, open_at = set(), None
    for k, block in enumerate(parts):
        if block.strip() == "<!-- figure -->":
            open_at = k
        elif block.strip() == "<!-- /figure -->":
            inside.update(range(open_at, k + 1) if open_at is not None else ())
            open_at = None
    return inside


def row_cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


# --- injections -----------------------------------------------------------------------------


def inject_interleave(doc: CleanDocument, rng: random.Random) -> str | None:
    """Two paragraphs that sit side by side on a page, read across the page as a reader that
    sorts lines by their tops does."""
    if doc.converted is None:
        return None
    from chunkcli.convert.render import document_compounds, render_block

    document = doc.converted.document
    compounds = document_compounds(document)
    pairs = list(side_by_side_paragraphs(document))
    rng.shuffle(pairs)
    for left, right in pairs:
        left_md, right_md = render_block(left, compounds), render_block(right, compounds)
        start = doc.markdown.find(left_md)
        if start < 0 or doc.markdown.find(right_md) < 0 or left_md in right_md:
            continue
        lines = sorted(left.lines + right.lines, key=lambda line: (line.bbox.top, line.bbox.x0))
        across = " ".join(" ".join(line.text.split()) for line in lines)
        markdown = doc.markdown.replace("\n\n" + right_md + "\n", "\n", 1)
        return markdown.replace(left_md, across, 1)
    return None


# A block of prose has lines this wide on average (display columns: a CJK character is two).
# Two narrower blocks side by side are the columns of a table or key-value list set as text
# ("clean" beside "-- rewrite pdf file", "House" beside "Wessex", "14–25 kg" beside "17– 35kg"):
# read across, row by row, they read as the table does, so joining them is no defect; with
# prose on either side it is (until 2026-12-04 such pairs were cases: 4 of the 6 interleave
# misses at seeds 1-3).
PROSE_LINE_MIN_WIDTH = 24


def is_prose_block(block: Block) -> bool:
    widths = [display_width(line.text.strip()) for line in block.lines]
    return sum(widths) >= PROSE_LINE_MIN_WIDTH * len(widths)


def side_by_side_paragraphs(document: Document) -> Iterator[tuple[Block, Block]]:
    """(left, right) paragraph blocks of one page whose lines share 3+ rows of the page, at
    least one of them prose."""
    for page in document.pages:
        paragraphs = [
            b
            for b in page.blocks
            if b.kind == BlockKind.PARAGRAPH
            and len(b.lines) >= 3
            and not any(line.vertical for line in b.lines)
        ]
        for left in paragraphs:
            for right in paragraphs:
                if left is right or right.bbox.x0 <= left.bbox.x1:
                    continue
                if not (is_prose_block(left) or is_prose_block(right)):
                    continue
                rows = sum(
                    1 for a in left.lines for b in right.lines
                    if min(a.bbox.bottom, b.bbox.bottom) - max(a.bbox.top, b.bbox.top)
                    > 0.6 * min(a.bbox.height, b.bbox.height)
                )  # fmt: skip
                if rows >= 3:
                    yield left, right


def inject_glued_hangul(doc: CleanDocument, rng: random.Random) -> str | None:
    parts = blocks(doc.markdown)
    candidates = []
    for i, block in enumerate(parts):
        if not is_prose(block):
            continue
        words = block.split(" ")
        runs = [
            k for k in range(len(words) - 6) if all(HANGUL_WORD.match(w) for w in words[k : k + 6])
        ]
        if runs:
            candidates.append((i, words, runs))
    if not candidates:
        return None
    i, words, runs = rng.choice(candidates)
    start = rng.choice(runs)
    stop = start + 6
    while (
        stop < len(words) and HANGUL_WORD.match(words[stop]) and not words[stop - 1].endswith(".")
    ):
        stop += 1  # to the end of the sentence
    parts[i] = " ".join([*words[:start], "".join(words[start:stop]), *words[stop:]])
    return join(parts)


def hyphenate(word: str, rng: random.Random) -> str:
    """`word` broken as at a line end: after a vowel followed by a consonant, 3+ letters each
    side (a syllable boundary, roughly)."""
    vowels = "aeiouy"
    spots = [
        k for k in range(3, len(word) - 2)
        if word[k - 1] in vowels and word[k] not in vowels
    ] or [len(word) // 2]  # fmt: skip
    k = rng.choice(spots)
    return word[:k] + "-" + word[k:]


def inject_kept_hyphens(doc: CleanDocument, rng: random.Random) -> str | None:
    parts = blocks(doc.markdown)
    candidates = []
    for i, block in enumerate(parts):
        if not is_prose(block) or not block.isascii():
            continue
        words = block.split(" ")
        long_words = [k for k, w in enumerate(words) if LATIN_WORD.match(w)]
        if len(long_words) >= 6:
            candidates.append((i, words, long_words))
    if not candidates:
        return None
    i, words, long_words = rng.choice(candidates)
    for k in rng.sample(long_words, rng.randint(2, 6)):
        words[k] = hyphenate(words[k], rng)
    parts[i] = " ".join(words)
    return join(parts)


def is_numeric(cell: str) -> bool:
    """A cell mostly of digits: a date, an amount, a count (the defect the issue names: "dates
    and amounts as column names")."""
    visible = [c for c in cell if not c.isspace()]
    return bool(visible) and sum(c.isdigit() for c in visible) >= 0.5 * len(visible)


def _data_tables(parts: Sequence[str]) -> list[tuple[int, list[str]]]:
    """Tables with 2+ body rows whose first body row is data: 2+ cells, and at least 60 % of
    its non-empty cells, mostly digits; and filled as the row below it (the same cells empty).
    (A row of dates over a stub left empty, "| | Jan 26, 2025 |
    Jan 28, 2024 |" above "| Cost of revenue | $ 178 | $ 141 |", is a second header row:
    moved up it is still a header, no defect; until 2026-12-04 such rows were cases.)"""
    found = []
    for i in tables_of(parts):
        rows = parts[i].split("\n")
        if len(rows) < 4:
            continue
        cells = [c for c in row_cells(rows[2]) if c]
        numeric = sum(map(is_numeric, cells))
        if numeric >= 2 and numeric >= 0.6 * len(cells) and _same_shape(rows[2], rows[3]):
            found.append((i, rows))
    return found


def _same_shape(row: str, below: str) -> bool:
    return [bool(c) for c in row_cells(row)] == [bool(c) for c in row_cells(below)]


def inject_data_header(doc: CleanDocument, rng: random.Random) -> str | None:
    parts = blocks(doc.markdown)
    tables = _data_tables(parts)
    if not tables:
        return None
    i, rows = rng.choice(tables)
    parts[i] = "\n".join([rows[2], rows[1], *rows[3:]])
    return join(parts)


def inject_dropped_header(doc: CleanDocument, rng: random.Random) -> str | None:
    parts = blocks(doc.markdown)
    tables = _data_tables(parts)
    if not tables:
        return None
    i, rows = rng.choice(tables)
    if rng.random() < 0.5:
        empty = "|" + "  |" * len(row_cells(rows[0]))
        parts[i] = "\n".join([empty, *rows[1:]])
    else:
        parts[i] = "\n".join([rows[2], rows[1], *rows[3:]])
    return join(parts)


def inject_bad_title(doc: CleanDocument, rng: random.Random) -> str | None:
    parts = blocks(doc.markdown)
    kinds = ["number", "url"]
    fragment = _fragment(parts, rng)
    if fragment:
        kinds.append("fragment")
    kind = rng.choice(kinds)
    title = {
        "number": rng.choice([str(rng.randint(1, 400)), f"{rng.uniform(0, 100):.1f} %",
                              f"{rng.randint(1990, 2030)}", f"- {rng.randint(1, 99)} -"]),
        "url": rng.choice(["https://www.example.org/reports/2024/annual.pdf",
                           "www.agency.gov/publications", "http://doi.org/10.1000/182"]),
        "fragment": fragment,
    }[kind]  # fmt: skip
    h1 = next((k for k, b in enumerate(parts) if b.startswith("# ")), None)
    if h1 is not None:
        parts[h1] = "# " + title
    else:
        first = next((k for k, b in enumerate(parts) if not MARKER.match(b)), len(parts))
        parts.insert(first, "# " + title)
    return join(parts)


def _fragment(parts: Sequence[str], rng: random.Random) -> str | None:
    """3-7 words from inside an English sentence, starting at a lower-case word."""
    prose = [b for b in parts if is_prose(b) and b.isascii() and len(b.split()) >= 20]
    if not prose:
        return None
    words = rng.choice(prose).split()
    starts = [k for k in range(1, len(words) - 8) if words[k].isalpha() and words[k].islower()]
    if not starts:
        return None
    k = rng.choice(starts)
    return " ".join(words[k : k + rng.randint(3, 7)]).rstrip(".,;:")


SECTION_NUMBER = re.compile(r"^\d+(\.\d+)*\.?$")
# Injected cuts are the ones a converter makes: after a section number set apart from its
# title, or where a heading too long for its line wraps. A wrap puts on the second line what
# did not fit on the first, so the rest is no wider than the first line and the word that did
# not fit on it ("## Other" + "Information (If an item does not apply to you, enter “N/A.”)"
# is no wrap: "Other Information" would have fitted). `--any-cut` cuts anywhere, as the harness
# did before 2026-12-04.
ANY_CUT = False


def display_width(text: str) -> int:
    """Columns `text` takes: wide (CJK) characters two, others one."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def wrap_cuts(words: Sequence[str]) -> list[int]:
    """The cuts of a heading's words where a line could have wrapped (see ANY_CUT)."""
    cuts = []
    for cut in range(1, len(words)):
        if cut == 1 and re.match(r"^\d", words[0]):
            continue  # (a number and its first word stay together; the number alone is below)
        first, rest = " ".join(words[:cut]), " ".join(words[cut:])
        if ANY_CUT or display_width(rest) <= display_width(first) + 1 + display_width(words[cut]):
            cuts.append(cut)
    return cuts


def inject_split_heading(doc: CleanDocument, rng: random.Random) -> str | None:
    parts = blocks(doc.markdown)
    candidates = []
    for k, block in enumerate(parts):
        match = HEADING.match(block)
        if match and len(match.group(1)) >= 2 and "\n" not in block:
            words = match.group(2).split()
            numbered = len(words) >= 2 and SECTION_NUMBER.match(words[0]) is not None
            cuts = wrap_cuts(words) if len(words) >= 3 or numbered else []
            if cuts or numbered:
                candidates.append((k, match.group(1), words, cuts, numbered))
    if not candidates:
        return None
    k, hashes, words, cuts, numbered = rng.choice(candidates)
    if numbered and (not cuts or rng.random() < 0.5):
        cut = 1  # the number alone is the heading
    else:
        cut = rng.choice(cuts)
    parts[k : k + 1] = [f"{hashes} {' '.join(words[:cut])}", " ".join(words[cut:])]
    return join(parts)


ENDS = tuple(".!?。！？:：)）」")
CAPTION_LABELS = {
    "en": ("Figure", "Fig.", "Table", "Chart"),
    "ko": ("그림", "표"),
    "ja": ("図", "表"),
}
LEADERS = (" " + "." * 12 + " ", " . . . . . . ", "…………", " ······ ", "\u2026\u2026 ")


def inject_promoted(doc: CleanDocument, rng: random.Random) -> str | None:
    parts = blocks(doc.markdown)
    headings = [(k, HEADING.match(b)) for k, b in enumerate(parts)]
    headings = [(k, m) for k, m in headings if m and "\n" not in parts[k]]
    # (a caption stands between paragraphs, not inside a sentence that runs on into the next,
    # nor inside a figure's block)
    figures = in_figures(parts)
    prose = [
        k for k, b in enumerate(parts)
        if is_prose(b) and len(b) > 60 and k not in figures
        and (k == 0 or not is_prose(parts[k - 1]) or parts[k - 1].rstrip().endswith(ENDS))
    ]  # fmt: skip
    if not prose:
        return None
    if headings and rng.random() < 0.5:  # a contents entry, where the contents list would be
        k, match = rng.choice(headings)
        entry = f"## {match.group(2)}{rng.choice(LEADERS)}{rng.randint(2, 120)}"  # type: ignore[union-attr]
        first = next((i for i, b in enumerate(parts) if b.startswith("#")), 0)
        parts.insert(first + 1, entry)
        return join(parts)
    k = rng.choice(prose)
    lang = (
        "ko" if re.search("[\uac00-\ud7a3]", parts[k]) else "ja" if not parts[k].isascii() else "en"
    )
    label = rng.choice(CAPTION_LABELS[lang])
    words = parts[k].split()[:10] if lang != "ja" else [parts[k][:20]]
    caption = f"{label} {rng.randint(1, 30)}{rng.choice(['.', ':', ''])} {' '.join(words)}"
    parts.insert(k, "#" * rng.randint(2, 3) + " " + caption.rstrip(".,"))
    return join(parts)


def inject_running_head(doc: CleanDocument, rng: random.Random) -> str | None:
    parts = blocks(doc.markdown)
    markers = [k for k, b in enumerate(parts) if MARKER.match(b)]
    if len(markers) < 4:
        return None
    head = rng.choice([
        "Annual Report {year} | Acme Holdings", "Journal of Applied Studies, Vol. 12",
        "Page {n} of {total}", "{n} | Technical Guide", "CONFIDENTIAL - internal use only",
    ])  # fmt: skip
    total = len(markers)
    for n, k in reversed(list(enumerate(markers, start=1))):
        if n > 1:
            parts.insert(k + 1, head.format(year=2024, n=n, total=total))
    return join(parts)


def inject_dropped_page(doc: CleanDocument, rng: random.Random) -> str | None:
    parts = blocks(doc.markdown)
    markers = [k for k, b in enumerate(parts) if MARKER.match(b) and ":" not in b]
    if len(markers) < 2:
        return None
    spans = []
    for a, b in zip(markers, [*markers[1:], len(parts)], strict=True):
        body = parts[a + 1 : b]
        # (not after a page that ends in a table: convert moves the rows of a table continued
        # on the next page up into it and leaves that page empty, so nothing tells them apart)
        after_table = a > 0 and parts[a - 1].startswith("|")
        if sum(len(x) for x in body) >= 100 and not after_table:
            spans.append((a, b))
    if not spans:
        return None
    a, b = rng.choice(spans)
    del parts[a + 1 : b]
    return join(parts)


def _radical_of() -> dict[str, str]:
    """Unified ideograph -> its Kangxi radical look-alike (U+2F00-U+2FD5)."""
    return {unicodedata.normalize("NFKC", chr(c)): chr(c) for c in range(0x2F00, 0x2FD6)}


def inject_kangxi(doc: CleanDocument, rng: random.Random) -> str | None:
    radical = _radical_of()
    parts = blocks(doc.markdown)
    candidates = [k for k, b in enumerate(parts) if is_prose(b) and any(c in radical for c in b)]
    if not candidates:
        return None
    k = rng.choice(candidates)
    parts[k] = "".join(radical.get(c, c) for c in parts[k])
    return join(parts)


READING_ORDER = frozenset({"reading-order.columns", "reading-order.interrupted"})
HEADER_LOST = frozenset({"table.data-header", "table.empty-header"})
CLASSES = (
    DefectClass("interleave", READING_ORDER, inject_interleave),
    DefectClass("glued-hangul", frozenset({"text.glued-words"}), inject_glued_hangul),
    DefectClass("kept-hyphens", frozenset({"text.hyphenated-words"}), inject_kept_hyphens),
    DefectClass("data-header", frozenset({"table.data-header"}), inject_data_header),
    DefectClass("dropped-header", HEADER_LOST, inject_dropped_header),
    DefectClass("bad-title", frozenset({"headings.bad-title"}), inject_bad_title),
    DefectClass("split-heading", frozenset({"headings.split"}), inject_split_heading),
    DefectClass("promoted", frozenset({"headings.promoted"}), inject_promoted),
    DefectClass("running-head", frozenset({"boilerplate.repeated-line"}), inject_running_head),
    DefectClass("dropped-page", frozenset({"pages.missing-text"}), inject_dropped_page),
    DefectClass("kangxi", frozenset({"text.ideograph-variants"}), inject_kangxi),
)  # fmt: skip


# --- running check and scoring --------------------------------------------------------------


def run_check(doc: CleanDocument, markdown: str, score: Score) -> DocumentReport:
    started = time.perf_counter()
    if doc.converted is not None:
        report = check_conversion(dataclasses.replace(doc.converted, markdown=markdown))
    else:
        report = check_markdown(markdown, CheckOptions(), source=doc.name)
    score.check_seconds += time.perf_counter() - started
    score.checked_bytes += len(markdown.encode())
    return report


def flagged(report: DocumentReport) -> set[str]:
    return {issue.code for issue in report.issues if issue.severity in FLAGGING}


def evaluate(
    documents: Sequence[CleanDocument], classes: Sequence[DefectClass], seed: int
) -> Score:
    score = Score()
    for doc in documents:
        clean_report = run_check(doc, doc.markdown, score)
        clean = flagged(clean_report)
        for code in clean:
            score.clean_alarms[(doc.origin, code)] += 1
        for issue in clean_report.issues:
            if issue.severity in FLAGGING:
                score.clean_findings.append((doc.origin, doc.name, issue.code, issue.message))
        for defect in classes:
            rng = random.Random(zlib.crc32(f"{seed}:{doc.name}:{defect.name}".encode()))
            markdown = defect.inject(doc, rng)
            if markdown is None or markdown == doc.markdown:
                continue
            if defect.expected & clean:
                continue  # already reported on the clean document: the case proves nothing
            new = flagged(run_check(doc, markdown, score)) - clean
            score.cases[defect.name] += 1
            if defect.expected & new:
                score.detected[defect.name] += 1
            else:
                score.missed[defect.name].append(doc.name)
            for code in new:
                if code in defect.expected:
                    score.true_pos[code] += 1
                else:
                    score.false_pos[code] += 1
                    score.wrong[code].append(f"{defect.name}:{doc.name}")
    return score


def summary_lines(score: Score) -> list[str]:
    lines = [f"{'class':16} {'cases':>6} {'found':>6} {'recall':>7}"]
    for defect in CLASSES:
        cases = score.cases[defect.name]
        recall = score.detected[defect.name] / cases if cases else float("nan")
        lines.append(f"{defect.name:16} {cases:6d} {score.detected[defect.name]:6d} {recall:7.3f}")
    lines.append("")
    lines.append(f"{'code':28} {'TP':>5} {'FP':>5} {'precision':>9}")
    for code in sorted(set(score.true_pos) | set(score.false_pos)):
        tp, fp = score.true_pos[code], score.false_pos[code]
        lines.append(f"{code:28} {tp:5d} {fp:5d} {tp / (tp + fp):9.3f}")
    lines.append("")
    lines.append("false alarms on clean documents (origin, code: documents):")
    for (origin, code), n in sorted(score.clean_alarms.items()):
        lines.append(f"  {origin:14} {code:28} {n}")
    return lines


def seed_range(text: str) -> list[int]:
    """ "4" -> [4]; "1-20" -> [1, ..., 20]."""
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def clean_documents(args: argparse.Namespace, seed: int) -> list[CleanDocument]:
    documents = generated_documents(args.generated, seed)
    if not args.no_pdfs:
        pdfs = generated_pdfs(args.generated_pdfs, seed, args.cache / "generated")
        documents += [
            dataclasses.replace(d, origin="generated-pdf")
            for d in converted_documents(pdfs, args.cache, "generated-pdf")
        ]
        for corpus in args.corpus or DEFAULT_CORPORA:
            paths = sorted(p for p in corpus.glob("*.pdf") if p.is_file())
            documents += converted_documents(paths, args.cache, corpus.parent.name)
    return documents


def across_seeds_lines(scores: dict[int, Score], classes: Sequence[DefectClass]) -> list[str]:
    """Per class: cases (fewest-most a seed), recall min and mean and the seeds under 0.95;
    per expected code: precision min and mean (seeds where it was reported)."""
    lines = [f"{'class':16} {'cases':>9} {'recall min':>10} {'mean':>6}  seeds < 0.95"]
    for defect in classes:
        recalls = {
            seed: s.detected[defect.name] / s.cases[defect.name]
            for seed, s in scores.items()
            if s.cases[defect.name]
        }
        if not recalls:
            continue
        cases = [s.cases[defect.name] for s in scores.values()]
        low = ", ".join(f"{seed}: {r:.3f}" for seed, r in recalls.items() if r < 0.95)
        lines.append(
            f"{defect.name:16} {min(cases):>4}-{max(cases):<4} {min(recalls.values()):10.3f} "
            f"{sum(recalls.values()) / len(recalls):6.3f}  {low}"
        )
    lines.append("")
    lines.append(f"{'code':28} {'TP':>6} {'FP':>4} {'prec min':>8} {'mean':>6}")
    codes = sorted({code for defect in classes for code in defect.expected})
    for code in codes:
        per_seed = [
            s.true_pos[code] / (s.true_pos[code] + s.false_pos[code])
            for s in scores.values()
            if s.true_pos[code] + s.false_pos[code]
        ]
        if not per_seed:
            continue
        tp = sum(s.true_pos[code] for s in scores.values())
        fp = sum(s.false_pos[code] for s in scores.values())
        lines.append(
            f"{code:28} {tp:6d} {fp:4d} {min(per_seed):8.3f} {sum(per_seed) / len(per_seed):6.3f}"
        )
    others = Counter[str]()
    for s in scores.values():
        others.update({code: n for code, n in s.false_pos.items() if code not in codes})
    if others:
        lines.append("codes no class expects, false positives over all seeds: " + ", ".join(
            f"{code} {n}" for code, n in sorted(others.items())))  # fmt: skip
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--generated", type=int, default=40, help="generated Markdown documents")
    parser.add_argument("--generated-pdfs", type=int, default=6, help="generated 2-column PDFs")
    parser.add_argument("--corpus", type=Path, action="append", help="folders of PDFs")
    parser.add_argument("--no-pdfs", action="store_true", help="generated Markdown only")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--seed", default="1", help="a seed, or a range: 1-20")
    parser.add_argument("--list-clean", action="store_true", help="every warn/fail on corpora")
    parser.add_argument("--classes", help="comma-separated class names (default: all)")
    parser.add_argument("--verbose", action="store_true", help="missed cases and false positives")
    parser.add_argument("--any-cut", action="store_true", help="split headings at any word")
    args = parser.parse_args(argv)
    global ANY_CUT
    ANY_CUT = args.any_cut
    wanted = args.classes.split(",") if args.classes else [c.name for c in CLASSES]
    classes = [c for c in CLASSES if c.name in wanted]
    seeds = seed_range(args.seed)
    scores: dict[int, Score] = {}
    for seed in seeds:
        documents = clean_documents(args, seed)
        score = scores[seed] = evaluate(documents, classes, seed)
        print(f"== seed {seed}: {len(documents)} clean documents: "
              f"{dict(Counter(d.origin for d in documents))}")  # fmt: skip
        print("\n".join(summary_lines(score)))
        rate = score.checked_bytes / score.check_seconds / 1e6 if score.check_seconds else 0.0
        print(
            f"\ncheck: {score.checked_bytes / 1e6:.1f} MB in {score.check_seconds:.1f} s "
            f"= {rate:.2f} MB/s"
        )
        if args.verbose:
            for name, docs in sorted(score.missed.items()):
                print(f"missed {name}: {', '.join(docs)}")
            for code, cases in sorted(score.wrong.items()):
                print(f"false positive {code}: {', '.join(cases)}")
        if args.list_clean:
            for origin, name, code, message in score.clean_findings:
                if not origin.startswith("generated"):
                    print(f"{origin} {name}: {code}: {message[:160]}")
        sys.stdout.flush()
    if len(seeds) > 1:
        print(f"\n== seeds {seeds[0]}-{seeds[-1]}")
        print("\n".join(across_seeds_lines(scores, classes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

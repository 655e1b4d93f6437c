"""Conversion quality benchmark: olmOCR-bench unit tests scored on each tool's Markdown.

    python bench/quality_bench.py [DIR] [--timeout 60] [--tools chunkcli,p4llm,p4llm-legacy]
                                        [--save OUT_DIR] [--cases | --no-cases]

`--cases` (the default) also scores every tool on the generated layout cases of issue #8
(tests/layout_cases.py: narrow gutters, spreads and rotated pages, margin headings, numbered
headings, titles, running heads and stamps, cover pages), built into a temporary folder, and
prints their pass rate per defect class; `--no-cases` scores the corpus only.

Every `NAME.pdf` in DIR with a `NAME.tests.jsonl` beside it is converted once per tool (each tool in
its own worker process with a per-file limit, as in convert_bench.py) and every test is scored on
the whole document's Markdown (olmOCR-bench PDFs are single pages; a file with more pages is named
in a note). The checks follow olmOCR-bench (allenai/olmocr, olmocr/bench/tests.py), simplified:

  present / absent  the text occurs (does not occur) after normalising both sides; `max_diffs`
                    is the allowed edit distance (default 0: exact); `case_sensitive` (default
                    true), `first_n` / `last_n` restrict the search to the start / end characters
  order             `before` and `after` both occur and some `before` match starts first
  table             a cell of a GFM pipe table (or HTML table) equals `cell` and its named
                    neighbours (`up`, `down`, `left`, `right`) and headings (`top_heading`,
                    `left_heading`: the heading cells reached walking up / left; in a pipe table
                    row 0 and column 0 are the headings) equal the given text
  math              not scored (needs a LaTeX renderer): counted as skipped

Normalising (both sides): HTML comments such as `<!-- page 1 -->`, `<br>`, table delimiter rows,
pipes, heading and quote markers, `*` emphasis, paired `_` emphasis, link syntax and backslash
escapes are removed; HTML entities decoded; whitespace collapsed; NFC; typographic quotes and
dashes made ASCII (as olmOCR's normalize_text). The edit-distance search is Myers' bit-vector
algorithm (no rapidfuzz or fuzzysearch needed); table cells match exactly after normalising
unless `max_diffs` allows more (olmOCR's threshold: ratio >= max(0.5, 1 - max_diffs / len)).
"""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import html
import json
import os
import re
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from convert_bench import (
    DEFAULT_TIMEOUT_S,
    TOOL_LABELS,
    Worker,
    _load_tool,
    chosen_tools,
    library_versions,
    machine_description,
)

DEFAULT_DIR = Path("/work/shared/corpus/pdfs")
TOOLS = ("chunkcli", "p4llm", "p4llm-legacy")
SCORED_TYPES = ("present", "absent", "order", "table")
TESTS_SUFFIX = ".tests.jsonl"
# Longest test text shown in a failure line; enough to find the passage again.
SHOWN_CHARS = 60
PAST_LIMIT = "past the per-file limit of"


# --- text normalisation and fuzzy search -----------------------------------------------------

_TYPOGRAPHIC = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"',
        "\uff3f": "_", "\u2013": "-", "\u2014": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-",
        "\u00b5": "\u03bc", "\u00a0": " ",
    }
)  # fmt: skip
_MARKUP_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"<!--.*?-->", re.DOTALL), " "),
    (re.compile(r"<br\s*/?>", re.IGNORECASE), " "),
    (re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$", re.MULTILINE), " "),
    (re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)"), r"\1"),
    (re.compile(r"^[ \t]{0,3}(#{1,6}|>)[ \t]+", re.MULTILINE), ""),
    (re.compile(r"\\([!-/:-@\[-`{-~])"), r"\1"),
    (re.compile(r"(?<!\\)\|"), " "),
    (re.compile(r"\*+"), ""),
    (re.compile(r"(__?)(\S.*?)\1"), r"\2"),
)


def normalize(text: str) -> str:
    """Text with Markdown/HTML syntax removed and whitespace, quotes and dashes made uniform."""
    for pattern, replacement in _MARKUP_PATTERNS:
        text = pattern.sub(replacement, text)
    text = html.unescape(text)
    text = unicodedata.normalize("NFC", text).translate(_TYPOGRAPHIC)
    return re.sub(r"\s+", " ", text).strip()


def _myers_scores(pattern: str, text: str) -> Iterator[tuple[int, int]]:
    """(end offset, edit distance of the best match of `pattern` ending there) along `text`.

    Myers' bit-vector algorithm in search mode (a match may start anywhere); a Python int
    holds one column of the edit-distance matrix, whatever the pattern's length.
    """
    char_masks: dict[str, int] = {}
    for index, char in enumerate(pattern):
        char_masks[char] = char_masks.get(char, 0) | (1 << index)
    full, last_bit = (1 << len(pattern)) - 1, 1 << (len(pattern) - 1)
    plus_v, minus_v, score = full, 0, len(pattern)
    for position, char in enumerate(text):
        eq = char_masks.get(char, 0)
        x_v = eq | minus_v
        x_h = (((eq & plus_v) + plus_v) ^ plus_v) | eq
        plus_h = minus_v | (~(x_h | plus_v) & full)
        minus_h = plus_v & x_h
        score += 1 if plus_h & last_bit else -1 if minus_h & last_bit else 0
        plus_h, minus_h = (plus_h << 1) & full, (minus_h << 1) & full
        plus_v = minus_h | (~(x_v | plus_h) & full)
        minus_v = plus_h & x_v
        yield position + 1, score


def closest_match(pattern: str, text: str) -> tuple[int, int]:
    """(edits, end offset) of the substring of `text` nearest to `pattern` (0 edits: exact)."""
    if pattern in text:
        return 0, text.index(pattern) + len(pattern)
    if not text:
        return len(pattern), 0
    end, edits = min(_myers_scores(pattern, text), key=lambda pair: pair[1])
    return edits, end


def match_starts(pattern: str, text: str, max_edits: int) -> list[int]:
    """Start offsets of matches within `max_edits` edits (fuzzy starts: end minus length)."""
    if max_edits == 0:
        return [m.start() for m in re.finditer(f"(?={re.escape(pattern)})", text)]
    return [
        max(0, end - len(pattern))
        for end, score in _myers_scores(pattern, text)
        if score <= max_edits
    ]


def cell_matches(expected: str, found: str, max_diffs: int) -> bool:
    """olmOCR's cell comparison: similarity ratio >= max(0.5, 1 - max_diffs / len(expected))."""
    if expected == found:
        return True
    if max_diffs == 0:
        return False
    threshold = max(0.5, 1.0 - max_diffs / max(len(expected), 1))
    return difflib.SequenceMatcher(None, expected, found).ratio() >= threshold


# --- tables ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CellSpec:
    text: str
    heading: bool
    rowspan: int = 1
    colspan: int = 1


@dataclass(frozen=True)
class Table:
    """Cells by index; `grid` maps every (row, column) a cell covers to that index."""

    texts: tuple[str, ...]  # normalised
    headings: frozenset[int]
    grid: Mapping[tuple[int, int], int]
    rows: int
    columns: int


def build_table(rows: Sequence[Sequence[CellSpec]]) -> Table:
    """Lay cells out row by row, skipping places taken by a row span from above."""
    grid: dict[tuple[int, int], int] = {}
    texts: list[str] = []
    headings: set[int] = set()
    for row, specs in enumerate(rows):
        column = 0
        for spec in specs:
            while (row, column) in grid:
                column += 1
            index = len(texts)
            texts.append(normalize(spec.text))
            if spec.heading:
                headings.add(index)
            for down in range(spec.rowspan):
                for right in range(spec.colspan):
                    grid[(row + down, column + right)] = index
            column += spec.colspan
    height = 1 + max((r for r, _ in grid), default=-1)
    width = 1 + max((c for _, c in grid), default=-1)
    return Table(tuple(texts), frozenset(headings), grid, height, width)


def neighbours(table: Table, cell: int, step: tuple[int, int]) -> set[int]:
    """The nearest other cell in direction `step` from each place `cell` covers."""
    found: set[int] = set()
    for (row, column), index in table.grid.items():
        if index != cell:
            continue
        row, column = row + step[0], column + step[1]
        while 0 <= row < table.rows and 0 <= column < table.columns:
            other = table.grid.get((row, column))
            if other is not None and other != cell:
                found.add(other)
                break
            row, column = row + step[0], column + step[1]
    return found


def heading_cells(table: Table, cell: int, step: tuple[int, int]) -> set[int]:
    """Heading cells met walking from `cell` in direction `step`, else the last cells reached."""
    seen, to_visit, ends = {cell}, [cell], set()
    while to_visit:
        current = to_visit.pop()
        following = neighbours(table, current, step) - seen
        if not following:
            ends.add(current)
        seen |= following
        to_visit.extend(following)
    found = (seen & table.headings) - {cell}
    return found or ends - {cell}


_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
_DELIMITER_CELL = re.compile(r"^\s*:?-+:?\s*$")


def _pipe_cells(line: str) -> list[str]:
    cells = _UNESCAPED_PIPE.split(line.strip())
    if line.strip().startswith("|"):
        cells = cells[1:]
    if len(cells) > 1 and cells[-1].strip() == "":
        cells = cells[:-1]
    return [cell.strip() for cell in cells]


def markdown_tables(markdown: str) -> list[Table]:
    """GFM pipe tables: runs of 2+ lines holding a pipe; row 0 and column 0 are headings."""
    tables: list[Table] = []
    run: list[str] = []
    for line in [*markdown.splitlines(), ""]:
        if _UNESCAPED_PIPE.search(line):
            run.append(line)
            continue
        rows = [_pipe_cells(text) for text in run]
        rows = [cells for cells in rows if not all(_DELIMITER_CELL.match(c) for c in cells)]
        if len(run) >= 2 and rows:
            specs = [
                [CellSpec(text, r == 0 or c == 0) for c, text in enumerate(cells)]
                for r, cells in enumerate(rows)
            ]
            tables.append(build_table(specs))
        run = []
    return tables


class _HtmlTableParser(HTMLParser):
    """Collects <table> cells with their spans; <th> and cells in <thead> are headings."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[CellSpec]]] = []
        self._open: list[list[list[CellSpec]]] = []  # tables being read (nested ones on top)
        self._cell: dict[str, Any] | None = None
        self._in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._open.append([])
        elif tag == "thead":
            self._in_head = True
        elif tag == "tr" and self._open:
            self._close_cell()
            self._open[-1].append([])
        elif tag in ("td", "th") and self._open:
            self._close_cell()
            spans = {k: _span(v) for k, v in attrs if k in ("rowspan", "colspan")}
            self._cell = {"tag": tag, "text": [], "head": self._in_head, **spans}
        elif tag == "br" and self._cell is not None:
            self._cell["text"].append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th", "tr"):
            self._close_cell()
        elif tag == "thead":
            self._in_head = False
        elif tag == "table" and self._open:
            self._close_cell()
            self.tables.append(self._open.pop())

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell["text"].append(data)

    def _close_cell(self) -> None:
        if self._cell is None or not self._open:
            return
        if not self._open[-1]:
            self._open[-1].append([])
        cell, self._cell = self._cell, None
        heading = cell["tag"] == "th" or cell["head"]
        spec = CellSpec(
            "".join(cell["text"]), heading, cell.get("rowspan", 1), cell.get("colspan", 1)
        )
        self._open[-1][-1].append(spec)


def _span(value: str | None) -> int:
    return int(value) if value and value.isdigit() and int(value) > 0 else 1


def html_tables(markdown: str) -> list[Table]:
    """HTML <table> elements embedded in the Markdown."""
    if "<table" not in markdown.lower():
        return []
    parser = _HtmlTableParser()
    parser.feed(markdown)
    parser.close()
    return [build_table(rows) for rows in parser.tables if any(rows)]


# --- the tests -----------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchTest:
    """One line of a NAME.tests.jsonl file."""

    pdf: Path  # the PDF beside the tests file (the "pdf" field names olmOCR's own layout)
    test_id: str
    kind: str
    page: int
    fields: Mapping[str, Any]

    @property
    def max_diffs(self) -> int:
        return int(self.fields.get("max_diffs") or 0)


@dataclass(frozen=True)
class Verdict:
    test: BenchTest
    passed: bool | None  # None: not scored (math)
    reason: str = ""


def load_tests(tests_file: Path) -> list[BenchTest]:
    """The tests of one NAME.tests.jsonl, bound to NAME.pdf beside it."""
    pdf = tests_file.with_name(tests_file.name.removesuffix(TESTS_SUFFIX) + ".pdf")
    tests = []
    for line in tests_file.read_text(encoding="utf-8").splitlines():
        if line.strip():
            fields = json.loads(line)
            tests.append(
                BenchTest(pdf, fields["id"], fields["type"], fields.get("page", 1), fields)
            )
    return tests


def find_tests(folder: Path) -> dict[Path, list[BenchTest]]:
    """Tests by PDF, for every NAME.tests.jsonl in `folder` whose NAME.pdf exists."""
    found: dict[Path, list[BenchTest]] = {}
    for tests_file in sorted(folder.glob(f"*{TESTS_SUFFIX}")):
        tests = load_tests(tests_file)
        if tests and tests[0].pdf.is_file():
            found[tests[0].pdf] = tests
    return found


def _shorten(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def check_text(test: BenchTest, content: str) -> Verdict:
    """present / absent on normalised `content`."""
    query = normalize(test.fields["text"])
    if not test.fields.get("case_sensitive", True):
        query, content = query.lower(), content.lower()
    first_n, last_n = test.fields.get("first_n"), test.fields.get("last_n")
    if first_n or last_n:
        content = (content[:first_n] if first_n else "") + (content[-last_n:] if last_n else "")
    edits, end = closest_match(query, content)
    found = edits <= test.max_diffs
    closest = _shorten(content[max(0, end - len(query)) : end])
    if test.kind == "present":
        reason = f"{edits} edits from '{_shorten(query)}'; closest: '{closest}'"
        reason = reason if content.strip() else "the output has no text"
        return Verdict(test, found, "" if found else reason)
    return Verdict(test, not found, f"'{_shorten(query)}' is still there" if found else "")


def check_order(test: BenchTest, content: str) -> Verdict:
    """`before` found and starting before some match of `after`."""
    before, after = normalize(test.fields["before"]), normalize(test.fields["after"])
    before_starts = match_starts(before, content, test.max_diffs)
    after_starts = match_starts(after, content, test.max_diffs)
    for name, text, starts in (("before", before, before_starts), ("after", after, after_starts)):
        if not starts:
            edits, _ = closest_match(text, content)
            return Verdict(test, False, f"{name} '{_shorten(text)}' not found ({edits} edits)")
    if min(before_starts) < max(after_starts):
        return Verdict(test, True)
    return Verdict(test, False, f"'{_shorten(after)}' comes before '{_shorten(before)}'")


_NEIGHBOUR_STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
_HEADING_STEPS = {"top_heading": (-1, 0), "left_heading": (0, -1)}


def _relation_miss(test: BenchTest, table: Table, cell: int) -> str:
    """'' when every relation the test names holds for `cell`, else what was found instead."""
    for name, step in (*_NEIGHBOUR_STEPS.items(), *_HEADING_STEPS.items()):
        wanted = normalize(test.fields.get(name) or "")
        if not wanted:
            continue
        walk = neighbours if name in _NEIGHBOUR_STEPS else heading_cells
        found = [table.texts[other] for other in sorted(walk(table, cell, step))]
        if not any(cell_matches(wanted, text, test.max_diffs) for text in found):
            shown = ", ".join(f"'{_shorten(text)}'" for text in found) or "nothing"
            return f"{name} is {shown}, not '{wanted}'"
    return ""


def check_table(test: BenchTest, markdown: str) -> Verdict:
    """Some table cell equal to `cell` whose named neighbours and headings all match."""
    tables = markdown_tables(markdown) + html_tables(markdown)
    if not tables:
        return Verdict(test, False, "no table in the output")
    wanted = normalize(test.fields["cell"])
    misses = []
    for table in tables:
        for cell, text in enumerate(table.texts):
            if cell_matches(wanted, text, test.max_diffs):
                miss = _relation_miss(test, table, cell)
                if not miss:
                    return Verdict(test, True)
                misses.append(miss)
    if misses:
        return Verdict(test, False, f"cell '{wanted}' found but " + "; ".join(sorted(set(misses))))
    return Verdict(test, False, f"no cell '{wanted}' in {len(tables)} table(s)")


def score(tests: Sequence[BenchTest], markdown: str | None, error: str) -> list[Verdict]:
    """Verdicts on one tool's Markdown for one file (`markdown` None: the tool failed)."""
    content = normalize(markdown or "")
    verdicts = []
    for test in tests:
        if test.kind not in SCORED_TYPES:
            verdicts.append(Verdict(test, None, f"{test.kind} tests are not scored"))
        elif markdown is None:
            verdicts.append(Verdict(test, False, error))
        elif test.kind == "table":
            verdicts.append(check_table(test, markdown))
        elif test.kind == "order":
            verdicts.append(check_order(test, content))
        else:
            verdicts.append(check_text(test, content))
    return verdicts


# --- converting in workers -----------------------------------------------------------------


def _markdown_worker(tool: str, conn: Connection) -> None:
    # Tools print progress and warnings on stdout; keep the report on stdout clean.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the worker
    convert: Callable[[str], Any] = _load_tool(tool)  # type: ignore[assignment]
    conn.send("ready")
    while True:
        path = conn.recv()
        if path is None:
            return
        markdown, error = None, ""
        try:
            result = convert(path)
            markdown = result if isinstance(result, str) else result.markdown
        except Exception as exc:  # noqa: BLE001 - any failure of a tool is a data point
            error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        conn.send((markdown, error))


class MarkdownWorker(Worker):
    """convert_bench's worker, but sending back each file's Markdown instead of timings."""

    def __init__(self, tool: str) -> None:
        super().__init__(tool, _markdown_worker)

    def markdown(self, path: Path, timeout_s: float) -> tuple[str | None, str]:
        """(Markdown or None, error) for `path`."""
        self.conn.send(str(path))
        if not self.conn.poll(timeout_s):
            return None, f"{PAST_LIMIT} {timeout_s:g} s"
        try:
            markdown, error = self.conn.recv()
        except EOFError:  # the worker died (a crash inside MuPDF, out of memory)
            return None, f"worker died (exit code {self.process.exitcode})"
        return markdown, error


def convert_all(
    tool: str, pdfs: Sequence[Path], timeout_s: float
) -> dict[Path, tuple[str | None, str]]:
    """Each PDF's (Markdown or None, error) from `tool`, replacing the worker after a hang."""
    outcomes = {}
    worker = MarkdownWorker(tool)
    for pdf in pdfs:
        outcomes[pdf] = worker.markdown(pdf, timeout_s)
        if outcomes[pdf][1].startswith(PAST_LIMIT) or not worker.process.is_alive():
            worker.kill()
            worker = MarkdownWorker(tool)
    worker.close()
    return outcomes


# --- generated layout cases (tests/layout_cases.py) ------------------------------------------


def layout_case_results(tools: Sequence[str], timeout_s: float) -> dict[str, dict[str, list[str]]]:
    """Per tool and case name: the failed checks ([] = every check passed; a failed
    conversion fails every check)."""
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.layout_cases import all_cases, failures

    cases = all_cases()
    results: dict[str, dict[str, list[str]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        paths = {case.name: case.build(Path(folder)) for case in cases}
        for tool in tools:
            outcomes = convert_all(tool, list(paths.values()), timeout_s)
            results[tool] = {}
            for case in cases:
                markdown, error = outcomes[paths[case.name]]
                results[tool][case.name] = (
                    failures(case, markdown)
                    if markdown is not None
                    else [f"conversion failed: {error}"] * len(case.checks)
                )
    return results


def format_layout_cases(results: Mapping[str, Mapping[str, list[str]]]) -> str:
    """Cases passed (all checks) and checks passed per defect class and tool."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.layout_cases import CLASS_NAMES, all_cases

    cases = all_cases()
    lines = [
        "| Class | Cases | "
        + " | ".join(f"{TOOL_LABELS[t]}: cases / checks" for t in results)
        + " |",
        "| --- | ---: |" + " ---: |" * len(results),
    ]
    for cls, name in CLASS_NAMES.items():
        mine = [c for c in cases if c.cls == cls]
        cells = []
        for per_case in results.values():
            passed = sum(1 for c in mine if not per_case[c.name])
            checks = sum(len(c.checks) for c in mine)
            failed = sum(len(per_case[c.name]) for c in mine)
            cells.append(f"{passed}/{len(mine)} / {checks - failed}/{checks}")
        lines.append(f"| {cls} {name} | {len(mine)} | " + " | ".join(cells) + " |")
    for tool, per_case in results.items():
        missed = [f"{name} ({len(f)})" for name, f in per_case.items() if f]
        lines.append(f"\n{tool} misses: {', '.join(missed) or 'none'}")
    return "\n".join(lines)


# --- report --------------------------------------------------------------------------------


def _ratio(verdicts: Sequence[Verdict]) -> str:
    scored = [v for v in verdicts if v.passed is not None]
    return f"{sum(1 for v in scored if v.passed)}/{len(scored)}" if scored else "–"


def format_summary(results: Mapping[str, Sequence[Verdict]]) -> str:
    """Per tool: passed/total by test type and the overall pass rate."""
    skipped_kinds = sorted({v.test.kind for vs in results.values() for v in vs if v.passed is None})
    lines = [
        "| Tool | "
        + " | ".join(SCORED_TYPES)
        + " | Passed | Pass rate | "
        + " | ".join(f"{kind} (not scored)" for kind in skipped_kinds)
        + " |",
        "| --- |" + " ---: |" * (len(SCORED_TYPES) + 2 + len(skipped_kinds)),
    ]
    for tool, verdicts in results.items():
        by_kind = [_ratio([v for v in verdicts if v.test.kind == kind]) for kind in SCORED_TYPES]
        scored = [v for v in verdicts if v.passed is not None]
        passed = sum(1 for v in scored if v.passed)
        rate = f"{100 * passed / len(scored):.1f} %" if scored else "–"
        skipped = [str(sum(1 for v in verdicts if v.test.kind == k)) for k in skipped_kinds]
        lines.append(
            f"| {TOOL_LABELS[tool]} | "
            + " | ".join(by_kind)
            + f" | {passed}/{len(scored)} | {rate} | "
            + " | ".join(skipped)
            + " |"
        )
    return "\n".join(lines)


def format_per_file(results: Mapping[str, Sequence[Verdict]], pdfs: Mapping[Path, PdfFacts]) -> str:
    """Passed/scored per file and tool; a page without text needs OCR, which no tool here does."""
    lines = [
        "| File | Pages | Text layer | Tests (scored) | " + " | ".join(results) + " |",
        "| --- | ---: | --- | ---: |" + " ---: |" * len(results),
    ]
    for pdf, facts in pdfs.items():
        per_tool = [[v for v in verdicts if v.test.pdf == pdf] for verdicts in results.values()]
        total = len(per_tool[0]) if per_tool else 0
        scored = sum(1 for v in per_tool[0] if v.passed is not None) if per_tool else 0
        cells = " | ".join(_ratio(verdicts) for verdicts in per_tool)
        text_layer = "yes" if facts.has_text else "no (image only)"
        lines.append(
            f"| {pdf.name} | {facts.pages} | {text_layer} | {total} ({scored}) | {cells} |"
        )
    return "\n".join(lines)


def format_failures(results: Mapping[str, Sequence[Verdict]]) -> str:
    """Every failed test per tool, with what was found instead."""
    lines: list[str] = []
    for tool, verdicts in results.items():
        failed = [v for v in verdicts if v.passed is False]
        lines += ["", f"Failed tests, {tool} ({len(failed)}):", ""]
        lines += [
            f"- {v.test.pdf.name} p{v.test.page} `{v.test.test_id}` ({v.test.kind}): {v.reason}"
            for v in failed
        ]
    return "\n".join(lines)


def format_header(folder: Path, tests: Mapping[Path, Sequence[BenchTest]], load_note: str) -> str:
    kinds = Counter(t.kind for ts in tests.values() for t in ts)
    shown_kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
    return "\n".join(
        [
            f"- date: {dt.datetime.now(dt.UTC).strftime('%Y-%m-%d %H:%M UTC')}",
            f"- machine: {machine_description()}",
            f"- versions: {library_versions()}",
            f"- load average (1 min) {load_note}",
            f"- dir: `{folder}`: {len(tests)} PDFs with olmOCR-bench tests, "
            f"{sum(kinds.values())} tests ({shown_kinds})",
        ]
    )


@dataclass(frozen=True)
class PdfFacts:
    pages: int
    has_text: bool  # any page with extractable text


def pdf_facts(pdfs: Sequence[Path]) -> dict[Path, PdfFacts]:
    """Page count and whether there is a text layer at all, per PDF."""
    import pymupdf

    facts = {}
    for pdf in pdfs:
        with pymupdf.open(str(pdf)) as doc:
            has_text = any(page.get_text("text").strip() for page in doc)
            facts[pdf] = PdfFacts(doc.page_count, has_text)
    return facts


def save_markdown(
    out_dir: Path, tool: str, outcomes: Mapping[Path, tuple[str | None, str]]
) -> None:
    """Write each tool's Markdown to OUT_DIR/TOOL/NAME.md for reading failures."""
    (out_dir / tool).mkdir(parents=True, exist_ok=True)
    for pdf, (markdown, error) in outcomes.items():
        text = markdown if markdown is not None else f"<!-- failed: {error} -->\n"
        (out_dir / tool / f"{pdf.stem}.md").write_text(text, encoding="utf-8")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="s per file")
    parser.add_argument("--tools", default=",".join(TOOLS), help="comma-separated subset")
    parser.add_argument("--save", type=Path, help="write each tool's Markdown under this folder")
    parser.add_argument(
        "--cases",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also score the generated layout cases (tests/layout_cases.py)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    tools = chosen_tools(args.tools, TOOLS)
    if tools is None:
        return 2
    if not args.dir.is_dir():
        print(f"error: {args.dir}: not a folder")
        return 2
    tests = find_tests(args.dir)
    if not tests:
        print(f"{args.dir}: no NAME.pdf with a NAME{TESTS_SUFFIX} beside it; nothing to score")
        return 0
    pdfs = list(tests)
    load_before = os.getloadavg()[0]
    results: dict[str, list[Verdict]] = {}
    for tool in tools:
        print(f"running {tool} on {len(pdfs)} files ...", file=sys.stderr, flush=True)
        started = time.perf_counter()
        outcomes = convert_all(tool, pdfs, args.timeout)
        if args.save:
            save_markdown(args.save, tool, outcomes)
        results[tool] = [v for pdf in pdfs for v in score(tests[pdf], *outcomes[pdf])]
        print(f"  {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    load_note = f"{load_before:.1f} at start, {os.getloadavg()[0]:.1f} at end"
    facts = pdf_facts(pdfs)
    longer = [f"{pdf.name} ({f.pages} p)" for pdf, f in facts.items() if f.pages > 1]
    print(format_header(args.dir, tests, load_note))
    if longer:
        print(f"- scored on the whole document, not one page: {', '.join(longer)}")
    print("\n" + format_summary(results) + "\n\n" + format_per_file(results, facts))
    print(format_failures(results))
    if args.cases:
        print("\nGenerated layout cases (issue #8), per defect class:\n")
        print(format_layout_cases(layout_case_results(tools, args.timeout)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

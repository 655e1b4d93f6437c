"""Generated cases of issue 8's classes 7 (tables on real documents) and 8 (word boundaries),
scored on each tool's Markdown: a hand-run measurement, not a test.

    python bench/boundaries_bench.py [--tools chunkcli,p4llm] [--keep DIR]

Every case is a small PDF built with tests/pdf_factory.py (the defects seen on real documents,
reduced) and one predicate on the Markdown. pymupdf4llm writes no page markers, so its pages are
read with `page_chunks=True` and joined under the same `<!-- page N -->` lines chunkcli writes.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # tests.pdf_factory

from tests.pdf_factory import Item, Rule, Text, grid_table, make_pdf, text_lines, text_width

HEADER = ("Name", "Qty", "Price")
ROWS = [(f"part {i:02d}", str(i), f"{i}.50") for i in range(1, 31)]
SENTENCE = "대표할 수 있는 대통령령으로 정하는 사람을 위원으로 위촉한다"


@dataclass(frozen=True)
class Case:
    klass: str
    name: str
    pages: Callable[[], list[list[Item]]]
    passes: Callable[[str], bool]


def page_text(markdown: str, number: int) -> str:
    """The Markdown between page N's marker and the next marker."""
    parts = re.split(r"<!-- page (\d+)[^>]*-->", markdown)
    for index in range(1, len(parts), 2):
        if int(parts[index]) == number:
            return parts[index + 1]
    return ""


def cells(row: Sequence[str]) -> str:
    """A table row as a pipe line without padding (tools pad cells differently)."""
    return "|" + "|".join(row) + "|"


def pipe_lines(markdown: str) -> list[str]:
    """The pipe-table lines of `markdown`, cells stripped of padding."""
    return [
        "|".join(cell.strip() for cell in line.strip().split("|"))
        for line in markdown.splitlines()
        if line.startswith("|")
    ]


def flat(markdown: str) -> str:
    return " ".join(markdown.split())


# --- class 7: tables --------------------------------------------------------------------------


def continued_table() -> list[list[Item]]:
    """30 rows over three pages, the header printed on the first page only."""
    widths = [160.0, 80.0, 80.0]
    first = grid_table(60, 80, widths, 20, [HEADER, *ROWS[:10]])
    return [first] + [grid_table(60, 80, widths, 20, ROWS[k : k + 10]) for k in (10, 20)]


def rows_on_their_pages(markdown: str) -> bool:
    return all(
        cells(row) in pipe_lines(page_text(markdown, 1 + i // 10)) for i, row in enumerate(ROWS)
    )


def header_on_every_page(markdown: str) -> bool:
    # The header is each page's first pipe line: no data row taken as the header.
    return all(pipe_lines(page_text(markdown, n))[:1] == [cells(HEADER)] for n in (1, 2, 3))


def two_tables_pages() -> list[list[Item]]:
    """A three-column table ends page 1; a two-column table starts page 2 at the same edges."""
    first = grid_table(60, 80, [160.0, 80.0, 80.0], 20, [HEADER, *ROWS[:5]])
    second = grid_table(60, 80, [200.0, 120.0], 20, [("Key", "Value"), ("a", "1"), ("b", "2")])
    return [first, second]


def two_tables_stay_apart(markdown: str) -> bool:
    second = pipe_lines(page_text(markdown, 2))
    return second[:1] == [cells(("Key", "Value"))] and cells(HEADER) not in second


BAND_ROWS = [
    ("Bolt", "4", "zinc plated bolts for the outer frame"),
    ("Nut", "8", "stainless nuts for the outer frame"),
    ("Washer", "12", "nylon washers under every bolt head"),
    ("Pin", "2", "steel pins"),
]


def band_table() -> list[list[Item]]:
    """Ruled columns, rules only around the header and at the bottom: rows by baselines."""
    xs, top = (60.0, 180.0, 260.0, 470.0), 100.0
    bottom = top + 18 + len(BAND_ROWS) * 14 + 6
    items: list[Item] = [Rule(xs[0], y, xs[-1], y) for y in (top, top + 18, bottom)]
    items += [Rule(x, top, x, bottom) for x in xs]
    items += [Text(xs[c] + 3, top + 13, t, size=10, bold=True) for c, t in enumerate(HEADER)]
    for r, row in enumerate(BAND_ROWS):
        items += [Text(xs[c] + 3, top + 31 + r * 14, t, size=10) for c, t in enumerate(row)]
    return [items]


def band_rows_apart(markdown: str) -> bool:
    lines = [" ".join(line.replace("|", " ").split()) for line in markdown.splitlines()]
    return all(" ".join(" ".join(row).split()) in lines for row in BAND_ROWS)


# --- class 8: word boundaries -----------------------------------------------------------------


def korean_gap_spaces() -> list[list[Item]]:
    items: list[Item] = []
    for line in range(4):
        x = 50.0
        for word in SENTENCE.split():
            items.append(Text(x, 100 + 40 * line, word, size=12, cjk=True))
            x += text_width(word, 12, cjk=True) + 6
    return [items]


def korean_break_inside_word() -> list[list[Item]]:
    lines = [
        "여성, 노동자, 중소상공인 등 다양한 계층이 참여하는 농어민, 중소상",
        "공인, 시민사회단체 등의 대표성이 반영될 수 있도록 한다.",
    ]
    return [[Text(50, 100 + 16 * i, line, size=11, cjk=True) for i, line in enumerate(lines)]]


def hyphenation(first: str, second: str) -> Callable[[], list[list[Item]]]:
    def pages() -> list[list[Item]]:
        lines = [f"The report describes one {first}", f"{second} that the team carried out."]
        return [text_lines(50, 100, lines)]

    return pages


def hyphen_case(first: str, second: str, expected: str) -> Case:
    def passes(markdown: str) -> bool:
        return f"one {expected} that" in flat(markdown)

    return Case(
        "8 word boundaries", f"{first}+{second} -> {expected}", hyphenation(first, second), passes
    )


CASES = [
    Case(
        "7 tables",
        "continued table: rows under their own page",
        continued_table,
        rows_on_their_pages,
    ),
    Case(
        "7 tables",
        "continued table: first page's header on every page",
        continued_table,
        header_on_every_page,
    ),
    Case(
        "7 tables",
        "different column counts stay two tables",
        two_tables_pages,
        two_tables_stay_apart,
    ),
    Case("7 tables", "ruled columns, unruled rows split by baselines", band_table, band_rows_apart),
    Case(
        "8 word boundaries",
        "Korean word spaces drawn only as gaps",
        korean_gap_spaces,
        lambda md: flat(md).count(SENTENCE) == 4,
    ),
    Case(
        "8 word boundaries",
        "Korean line break inside a word",
        korean_break_inside_word,
        lambda md: "농어민, 중소상공인, 시민사회단체" in flat(md),
    ),
    hyphen_case("ex-", "periment", "experiment"),
    hyphen_case("multi-", "ple", "multiple"),
    hyphen_case("self-", "aware", "self-aware"),
    hyphen_case("ex-", "wife", "ex-wife"),
    hyphen_case("state-of-the-", "art", "state-of-the-art"),
]


def chunkcli_markdown(path: Path) -> str:
    from chunkcli.convert.pipeline import convert_pdf

    return convert_pdf(path).markdown


def p4llm_markdown(path: Path) -> str:
    import pymupdf4llm

    pymupdf4llm.use_layout(True)
    pages = pymupdf4llm.to_markdown(str(path), page_chunks=True)
    return "\n\n".join(f"<!-- page {n} -->\n\n{page['text']}" for n, page in enumerate(pages, 1))


TOOLS: dict[str, Callable[[Path], str]] = {"chunkcli": chunkcli_markdown, "p4llm": p4llm_markdown}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", default="chunkcli,p4llm")
    parser.add_argument("--keep", type=Path, help="write the PDFs and Markdown here")
    args = parser.parse_args()
    tools = args.tools.split(",")
    folder = args.keep or Path(tempfile.mkdtemp(prefix="boundaries-"))
    folder.mkdir(parents=True, exist_ok=True)
    results: dict[tuple[str, str], dict[str, bool]] = {}
    for index, case in enumerate(CASES):
        pdf = make_pdf(folder / f"case{index:02d}.pdf", case.pages())
        for tool in tools:
            markdown = TOOLS[tool](pdf)
            (folder / f"case{index:02d}.{tool}.md").write_text(markdown, encoding="utf-8")
            results.setdefault((case.klass, case.name), {})[tool] = case.passes(markdown)
    print("| class | case | " + " | ".join(tools) + " |")
    print("|---|---|" + "---|" * len(tools))
    for (klass, name), verdicts in results.items():
        marks = " | ".join("pass" if verdicts[t] else "FAIL" for t in tools)
        print(f"| {klass} | {name} | {marks} |")
    for klass in sorted({k for k, _ in results}):
        row = [k for k in results if k[0] == klass]
        totals = [f"{sum(results[k][t] for k in row)}/{len(row)}" for t in tools]
        print(f"| {klass} | **passed** | " + " | ".join(totals) + " |")


if __name__ == "__main__":
    main()

"""Pathological Markdown: each case is a function size -> text of about `size` characters.

The cases are the shapes that made split or check slow, superlinear or memory-hungry (issue 15,
class 5), plus ordinary text as the peer they are compared with. Every case is deterministic
(no randomness), so a slow case is reproduced by its name and size alone.
"""

from __future__ import annotations

from collections.abc import Callable

PARAGRAPH = (
    "Retrieval works best on chunks that keep a heading path. This sentence is ordinary "
    "text of the kind a converted manual holds, with numbers like 3.14 and a comma, too.\n\n"
)


def _repeat(unit: str, size: int) -> str:
    """`unit` repeated to at least `size` characters (whole units only)."""
    return unit * max(1, -(-size // len(unit)))


def normal_text(size: int) -> str:
    """The peer: headings, paragraphs and a small table, as convert writes them."""
    section = (
        "## Section\n\n" + PARAGRAPH * 4 + "| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n\n"
    )
    return "# Title\n\n" + _repeat(section, size)


def nested_list(size: int) -> str:
    """One bullet list nested as deep as the size allows (item k indented by 2k spaces)."""
    lines: list[str] = []
    total, depth = 0, 0
    while total < size:
        line = "  " * depth + f"- item {depth}\n"
        lines.append(line)
        total += len(line)
        depth += 1
    return "".join(lines)


def nested_lists_repeated(size: int) -> str:
    """Many lists, each nested 100 levels deep (the depth at which recounting showed first)."""
    block = "".join("  " * k + f"- item {k} of a deep list\n" for k in range(100)) + "\n"
    return _repeat(block, size)


def nul_lines(size: int) -> str:
    return _repeat("\x00" * 60 + "\n", size)


def unclosed_div(size: int) -> str:
    """An HTML block that never ends: the rest of the document is one block."""
    return "<div>\n" + _repeat("Text inside a div that is never closed, line after line.\n", size)


def many_headings(size: int) -> str:
    return _repeat("# h\n", size)


def many_headings_blank(size: int) -> str:
    return _repeat("# h\n\n", size)


def cr_only(size: int) -> str:
    """Old Mac line endings: every line ends in a lone \\r."""
    return _repeat("A line of text that ends in a carriage return only.\r\r", size)


def blank_lines(size: int) -> str:
    return "Some text.\n" + "\n" * size + "More text.\n"


def single_line(size: int) -> str:
    """One line without a newline: one paragraph the size of the document."""
    return _repeat("word ", size)


def single_line_no_space(size: int) -> str:
    return "x" * size


def setext_headings(size: int) -> str:
    return _repeat("Heading text\n===\n\n", size)


def setext_headings_tight(size: int) -> str:
    return _repeat("Heading text\n---\n", size)


def deep_quote(size: int) -> str:
    """A block quote nested as deep as the size allows."""
    lines: list[str] = []
    total, depth = 0, 1
    while total < size:
        line = ">" * depth + " quoted\n"
        lines.append(line)
        total += len(line)
        depth += 1
    return "".join(lines)


def long_table(size: int) -> str:
    return "| a | b |\n| --- | --- |\n" + _repeat("| cell | another cell |\n", size)


def pipes_only(size: int) -> str:
    return _repeat("|\n", size)


def page_markers(size: int) -> str:
    lines, total, n = [], 0, 1
    while total < size:
        line = f"<!-- page {n} -->\n\ntext {n}\n\n"
        lines.append(line)
        total += len(line)
        n += 1
    return "".join(lines)


def unclosed_fence(size: int) -> str:
    return "```\n" + _repeat("code line\n", size)


def unclosed_comment(size: int) -> str:
    return "<!--\n" + _repeat("inside a comment that never ends\n", size)


def list_items(size: int) -> str:
    return _repeat("- a list item of ordinary text\n", size)


def brackets(size: int) -> str:
    """Link-reference-definition lookalikes: markdown-it tries each as a definition."""
    return _repeat("[a]: <b\n", size)


def emphasis_runs(size: int) -> str:
    return _repeat("*a **b _c __d ", size)


def backticks(size: int) -> str:
    return _repeat("`` ` ``` ", size)


def qa_lines(size: int) -> str:
    """Question lines one after another (issue 30: `--mode qa` copied the rest of the line
    list for every question: 16 / 64 / 242 s at 0.5 / 1 / 2 MB)."""
    return _repeat("Q: is this line a question?\n", size)


def long_title_sections(size: int) -> str:
    """A title of a tenth of the size over many short sections (issue 30: every chunk copied
    the whole title into `title` and `heading_path`; 0.5 MB of it took 20 GB)."""
    title = "# " + _repeat("long title words ", size // 10) + "\n\n"
    return title + _repeat("## Part\n\nText of one short section.\n\n", size - len(title))


def figures(size: int) -> str:
    """Small figure blocks one after another (each one piece joined from five blocks)."""
    return _repeat(
        "<!-- figure -->\n\nFigure 1. A map\n\n![Figure 1. A map](img/a.png)\n\n"
        "<!-- figure words: ocr conf=0.80 engine=tesseract -->\n\nNorth South\n\n"
        "<!-- /figure -->\n\n",
        size,
    )


def one_figure(size: int) -> str:
    """One figure whose words are the whole text: cut into parts inside its words."""
    words = _repeat("Region north sold many units. ", size)
    head = "# Map\n\n<!-- figure -->\n\nFigure 1. Map\n\n<!-- figure words: text layer -->"
    return f"{head}\n\n{words}\n\n<!-- /figure -->\n"


def article_lines(size: int) -> str:
    """Bare article lines, one after another with no text (issue 27: `--mode laws` made a
    chunk of each and held 417 times the input at 2 MB)."""
    lines, total, number = [], 0, 1
    while total < size:
        lines.append(f"第{number}条\n")
        total += len(lines[-1])
        number += 1
    return "".join(lines)


def mixed_crlf(size: int) -> str:
    """A table and paragraphs whose lines end in \\r\\n and \\n by turns (issue 27: split held 90
    times the input, `--mode rows` 176 times)."""
    unit = (
        "## Part\r\n\nSome text of a part.\r\nMore text.\n\r\n"
        "| a | b |\r\n| --- | --- |\n| 1 | 2 |\r\n| 3 | 4 |\n\r\n"
    )
    return "# Title\r\n\n" + _repeat(unit, size)


def leader_runs(size: int) -> str:
    """Headings of contents leaders with no page number, each over a short rest and a line of
    spaced leaders (issue 25: the contents-entry patterns backtracked over each run: one
    heading of 20,000 dots took 10 s)."""
    section = f"## {'.' * 2000}\n\nand rest\n\n{'. ' * 1000}\n\n"
    return "# Contents\n\n" + _repeat(section, size)


CASES: dict[str, Callable[[int], str]] = {
    "normal_text": normal_text,
    "nested_list": nested_list,
    "nested_lists_repeated": nested_lists_repeated,
    "nul_lines": nul_lines,
    "unclosed_div": unclosed_div,
    "many_headings": many_headings,
    "many_headings_blank": many_headings_blank,
    "cr_only": cr_only,
    "blank_lines": blank_lines,
    "single_line": single_line,
    "single_line_no_space": single_line_no_space,
    "setext_headings": setext_headings,
    "setext_headings_tight": setext_headings_tight,
    "deep_quote": deep_quote,
    "long_table": long_table,
    "pipes_only": pipes_only,
    "page_markers": page_markers,
    "unclosed_fence": unclosed_fence,
    "unclosed_comment": unclosed_comment,
    "list_items": list_items,
    "brackets": brackets,
    "emphasis_runs": emphasis_runs,
    "backticks": backticks,
    "qa_lines": qa_lines,
    "long_title_sections": long_title_sections,
    "figures": figures,
    "one_figure": one_figure,
    "article_lines": article_lines,
    "mixed_crlf": mixed_crlf,
    "leader_runs": leader_runs,
}

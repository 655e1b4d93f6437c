"""The block finder's fast path reads a document exactly as markdown-it does."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.token import Token

from chunkcli.split import blocks as block_finder
from chunkcli.split.blocks import find_blocks, normalise
from chunkcli.split.kinds import BlockKind, RawBlock
from chunkcli.split.parser_rules import QuickState, block_parser

# Lines that open, continue, close or look like block constructs, plus plain text.
TRICKY_LINES = (
    "plain text line",
    "日本語の文。",
    "2024 was a year",
    "2024. a year",
    "1. first",
    "2. second",
    "3) third",
    "- item",
    "* item",
    "+ item",
    "-item",
    "- - -",
    "* * *",
    "___",
    "---",
    "===",
    "# Title",
    "## Section ##",
    "### C#",
    "#hashtag",
    "#",
    "####### seven",
    "  indented",
    "    code",
    "\tcode",
    "> quote",
    "```",
    "```python",
    "~~~",
    "````",
    "``` a`b",
    "<!-- page 3 -->",
    "<!-- page 4: blank -->",
    "<!-- note --> text",
    "<!-- table: 2 header rows -->",
    "<!--",
    "-->",
    "<div>",
    "</div>",
    "<pre>",
    "</pre>",
    "<?php",
    "?>",
    "| a | b |",
    "|---|---|",
    "a | b",
    "--|--",
    "| 1 | 2 |",
    "[ref]: http://x.test",
    "  - nested",
    "   ```",
    "\\# escaped",
    ":colon",
    "- ```",
    "- <!--",
    "1. - x",
    "-",
    "1.",
    "*emph*",
    "-     indented code",
    "- ~~~",
    "1.  two spaces",
    "-\tTab",
    "# NUL\x00 in a heading",
    "a |",
    "-foo",
    "=",
    "--",
    "_x_",
    "#tag",
    "[x]",
)


@st.composite
def tricky_documents(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.sampled_from(TRICKY_LINES + ("",) * 8), max_size=40))
    newline = draw(st.sampled_from(("\n", "\r\n")))
    bom = draw(st.sampled_from(("", "\ufeff")))
    return bom + newline.join(lines) + draw(st.sampled_from(("", newline)))


def comparable(blocks: list[RawBlock]) -> list[tuple[object, ...]]:
    """What split uses: kind, first line, heading, page; the line range for tables."""
    return [
        (
            b.kind,
            b.first_line,
            b.level,
            b.heading,
            b.page,
            b.last_line if b.kind is BlockKind.TABLE else 0,
        )
        for b in blocks
    ]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tricky_documents())
@example("```\n\nplain text line\n```\n")
@example("<!--\n\nplain text line\n\n-->\nplain text line\n")
@example("- item\n\n  indented\n\nplain text line\n- item\n2. second\n")
@example("## Section ##\n\n### C#\n\n#\n\n# Title #\n")
# A fence line inside an HTML block of type 6 or inside a list item opens no fence: the next
# fence line opens one, which holds the text after it.
@example("<div>\n```\n\n```\n\nplain text line")
@example("- item\n  ```\n\n```\n\nplain text line")
@example("<!-->\n```\n\n```\n\nplain text line")
@example("<pre\x0c\n\nplain text line")  # markdown-it's start condition: <pre and any \s
@example("# NUL\x00 in a heading")  # markdown-it reads NUL as U+FFFD
# Groups of paragraph lines and headings read without the parser (simple_lines): a setext
# underline below a line with a pipe makes a one-column table instead.
@example("plain text line\n===\n#tag\n## Section ##\n-foo\n*emph*\n--\n")
@example("plain text line\na |\n---\n")
# Lines of whole comments are a block each; a line that only opens one makes them the parser's.
@example("<!-- page 3 -->\n<!-- note --> text\n<!-- page 4: blank -->\n\nplain text line")
@example("<!-- page 3 -->\n<!--\n-->\nplain text line\n\n<!-- a -->\n# Title")
@example("<!-- page 3 -->\n<!-->\n\n<!-- a -->\n    code")
def test_fast_path_equals_markdown_it(document: str) -> None:
    fast_blocks, fast_marks = find_blocks(document)
    slow_blocks, slow_marks = find_blocks(document, fast_path=False)
    assert comparable(fast_blocks) == comparable(slow_blocks)
    assert fast_marks == slow_marks


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tricky_documents())
@example("> quote\n\nplain text line\n\n  indented\n\nplain text line\n\n```\ncode\n\n```\n\nend\n")
def test_runs_parsed_a_call_each_read_as_in_one_call(document: str) -> None:
    """The parser reads the runs in batches (its tokens held for one at a time): with a batch
    a run, the blocks are markdown-it's reading of the whole document still."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(block_finder, "PARSE_BATCH_CHARS", 1)
        fast_blocks, fast_marks = find_blocks(document)
    slow_blocks, slow_marks = find_blocks(document, fast_path=False)
    assert comparable(fast_blocks) == comparable(slow_blocks)
    assert fast_marks == slow_marks


def test_plain_groups_and_one_line_blocks_are_read_without_the_parser() -> None:
    document = "# Title\n\n<!-- page 2 -->\n\nSome text.\nMore.\n\n- a\n- b\n\n## Part ##\n"
    blocks, marks = find_blocks(document)
    assert [(b.kind, b.first_line) for b in blocks] == [
        (BlockKind.HEADING, 0),
        (BlockKind.MARKER, 2),
        (BlockKind.TEXT, 4),
        (BlockKind.TEXT, 7),
        (BlockKind.TEXT, 8),
        (BlockKind.HEADING, 10),
    ]
    assert blocks[-1].heading == "Part" and blocks[-1].level == 2
    assert marks == [(2, 2)]


# Pipe-table lines, valid and near-valid (cell counts, escaped pipes, empty delimiter cells,
# alignment colons, a trailing text cell), lines that could end or precede a table, and numbers
# that are or are not list markers.
TABLE_LINES = (
    "| a | b |",
    "|---|---|",
    "|:--|--:|",
    "| :-: | --- |",
    "|---|",
    "|---||---|",
    "|--- |",
    "| a \\| b | c |",
    "|a|b|c|",
    "| 1 | 2 |",
    "| `x|y` | z |",
    "|",
    "| - |",
    "|-|-",
    "|:|",
    "|---|---| x",
    "| a | b",
    "|\t---\t|\t---\t|",
    "| 1 |",
    "- item",
    "plain text line",
    "１. full-width number",
    "２) full-width",
    "    | code |",
    "```",
    "> | quote |",
    "2020.1.1. dotted date",
    "3.5 bar",
    "12) twelve",
    "1.\tTab",
    "1.",
    "7)",
    "1234567890. long",
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TABLE_LINES + ("",) * 6), max_size=30))
@example(["| a | b |", "|---|---|", "| 1 | 2 |"])
@example(["| a \\| b | c |", "|---|---|", "| 1 |"])
def test_pipe_table_fast_path_equals_markdown_it(lines: list[str]) -> None:
    document = "\n".join(lines)
    fast_blocks, fast_marks = find_blocks(document)
    slow_blocks, slow_marks = find_blocks(document, fast_path=False)
    assert comparable(fast_blocks) == comparable(slow_blocks)
    assert fast_marks == slow_marks


def stock_parser() -> MarkdownIt:
    """markdown-it-py as shipped (CommonMark + GFM tables), block rules only."""
    parser = MarkdownIt("commonmark").enable("table")
    parser.core.ruler.disable(["inline", "text_join"])
    return parser


def token_summary(tokens: list[Token]) -> list[tuple[object, ...]]:
    """What the block finder reads of the tokens: table cells left out (block_parser does not
    make them), paragraph text left out (it is not kept)."""
    summary: list[tuple[object, ...]] = []
    in_table = False
    for token in tokens:
        if token.type == "table_close":
            in_table = False
        if in_table:
            continue
        in_table = token.type == "table_open"
        in_paragraph = token.type == "inline" and summary[-1][0] == "paragraph_open"
        content = "" if in_paragraph else token.content
        summary.append((token.type, token.map, token.level, token.markup, content))
    return summary


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tricky_documents())
@example("[a]: <b\n[a]: <b\nplain text line\n| a |\n|---|\n")
@example("plain text line\n  - item\nplain text line\n===\n")
def test_block_parser_reads_as_stock_markdown_it(document: str) -> None:
    source = normalise(document)
    assert token_summary(block_parser().parse(source)) == token_summary(
        stock_parser().parse(source)
    )


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" \t\na#>-`|", max_size=80))
def test_quick_state_marks_the_lines_as_markdown_it_does(text: str) -> None:
    """QuickState takes its line offsets from markdown_lines.line_offsets and reads only the
    indented lines: its marks are StateBlock's (src normalised: \\n ends every line)."""
    parser = block_parser()
    stock = StateBlock(text, parser, {}, [])
    quick = QuickState(text, parser, {}, [])
    for marks in ("bMarks", "eMarks", "tShift", "sCount", "bsCount", "lineMax"):
        assert getattr(quick, marks) == getattr(stock, marks), marks

"""The block parser split uses: markdown-it-py's CommonMark rules and GFM tables, block level
only, with three of its rules replaced by versions that give the same tokens (tests check them
against the stock parser) at a fraction of the cost:

- the table rule emits only table_open/table_close with the rows' line range (the stock rule
  pushes five tokens per cell, which made tables most of the parse time);
- the paragraph and setext-heading rules ask the rules that may end a paragraph (table, fence,
  quote, rule, list, HTML, heading) about a line only when its first character could start one
  of them, or the next line's could start a table's delimiter row. The stock rules ask all
  seven about every line: 2 MB of one paragraph took 4 s. Paragraph text is left empty (no
  inline rule runs; nothing reads it).
"""

from __future__ import annotations

import functools

from markdown_it import MarkdownIt
from markdown_it.common.utils import mdTrim
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.rules_block.table import table as gfm_table

# The rules that may end a paragraph in this parser, and the characters a line must start
# with (after its indentation) for any of them but the table to start there; a table starts
# only where the NEXT line starts like a delimiter row.
PARAGRAPH_TERMINATORS = ("table", "fence", "blockquote", "hr", "list", "html_block", "heading")
TERMINATOR_STARTS = frozenset("`~>*-_+#<0123456789")
DELIMITER_STARTS = frozenset("|-:")


@functools.lru_cache(maxsize=1)
def block_parser() -> MarkdownIt:
    """CommonMark + GFM tables, block rules only (inline content is left as raw text)."""
    parser = MarkdownIt("commonmark").enable("table")
    ruler = parser.block.ruler
    ruler.at("table", table_lines_only, {"alt": ["paragraph", "reference"]})
    rules = ruler.__rules__
    enders = tuple(rule.name for rule in rules if rule.enabled and "paragraph" in rule.alt)
    if enders == PARAGRAPH_TERMINATORS:  # else another markdown-it: keep its own rules
        ruler.at("lheading", lheading)
        ruler.at("paragraph", paragraph)
    parser.core.ruler.disable(["inline", "text_join"])
    return parser


def table_lines_only(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """markdown-it's GFM table rule, emitting only table_open/table_close with the line range.

    The stock rule pushes five tokens per cell, which made tables most of the parse time;
    split needs the rows' lines, not their cells. Rows end as in the stock rule.
    """
    if not gfm_table(state, start_line, end_line, True):
        return False
    if silent:
        return True
    old_parent, state.parentType = state.parentType, "table"
    terminators = state.md.block.ruler.getRules("blockquote")
    line = start_line + 2
    while line < end_line and state.sCount[line] >= state.blkIndent:
        if any(rule(state, line, end_line, True) for rule in terminators):
            break
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
        if not text.strip() or state.is_code_block(line):
            break
        line += 1
    state.push("table_open", "table", 1).map = [start_line, line]
    state.push("table_close", "table", -1)
    state.parentType = old_parent
    state.line = line
    return True


def _first_char(state: StateBlock, line: int) -> str:
    pos = state.bMarks[line] + state.tShift[line]
    return state.src[pos] if pos < state.eMarks[line] else ""


def _terminates(state: StateBlock, line: int, end_line: int) -> bool:
    """Whether a rule that may end a paragraph starts at `line` (markdown-it's test), asked
    only when the first characters allow it."""
    if _first_char(state, line) not in TERMINATOR_STARTS and not (
        line + 1 < end_line and _first_char(state, line + 1) in DELIMITER_STARTS
    ):
        return False
    rules = state.md.block.ruler.getRules("paragraph")
    return any(rule(state, line, end_line, True) for rule in rules)


def paragraph(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """markdown-it's paragraph rule (4.x), with `_terminates`; the paragraph text is not kept."""
    next_line = start_line + 1
    end_line = state.lineMax
    old_parent, state.parentType = state.parentType, "paragraph"
    while next_line < end_line:
        if state.isEmpty(next_line):
            break
        indent = state.sCount[next_line] - state.blkIndent
        if indent <= 3 and state.sCount[next_line] >= 0 and _terminates(state, next_line, end_line):
            break
        next_line += 1
    state.line = next_line
    state.push("paragraph_open", "p", 1).map = [start_line, state.line]
    inline = state.push("inline", "", 0)
    inline.map = [start_line, state.line]
    inline.children = []
    state.push("paragraph_close", "p", -1)
    state.parentType = old_parent
    return True


def lheading(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """markdown-it's setext heading rule (4.x), with `_terminates`. (As there, a paragraph
    without an underline leaves parentType "paragraph".)"""
    if state.is_code_block(start_line):
        return False
    level, marker, next_line = 0, "", start_line + 1
    old_parent, state.parentType = state.parentType, "paragraph"
    while next_line < end_line and not state.isEmpty(next_line):
        if state.sCount[next_line] - state.blkIndent > 3:
            next_line += 1
            continue
        if state.sCount[next_line] >= state.blkIndent:
            level, marker = _underline(state, next_line)
            if level:
                break
        if state.sCount[next_line] >= 0 and _terminates(state, next_line, end_line):
            break
        next_line += 1
    if not level:
        return False
    content = mdTrim(state.getLines(start_line, next_line, state.blkIndent, False))
    state.line = next_line + 1
    opening = state.push("heading_open", f"h{level}", 1)
    opening.markup, opening.map = marker, [start_line, state.line]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = content, [start_line, state.line - 1], []
    state.push("heading_close", f"h{level}", -1).markup = marker
    state.parentType = old_parent
    return True


def _underline(state: StateBlock, line: int) -> tuple[int, str]:
    """(level, marker) when `line` is a setext underline (only = or - and then spaces)."""
    pos, maximum = state.bMarks[line] + state.tShift[line], state.eMarks[line]
    if pos >= maximum or state.src[pos] not in ("-", "="):
        return 0, ""
    marker = state.src[pos]
    if state.skipSpaces(state.skipCharsStr(pos, marker)) < maximum:
        return 0, ""
    return (1 if marker == "=" else 2), marker

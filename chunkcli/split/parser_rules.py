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

And the parse state (`QuickState`) takes its lines' offsets from
chunkcli.markdown_lines.line_offsets (the text it parses is normalised: \\n ends every line)
and reads the indentation of the indented lines alone, found by a regex: markdown-it's own
steps through leading whitespace a character at a time (2 MB of a deeply nested list: 2 s).
"""

from __future__ import annotations

import bisect
import functools
import re
import types
from collections.abc import Iterator

from markdown_it import MarkdownIt
from markdown_it.common.utils import mdTrim
from markdown_it.parser_block import ParserBlock
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.rules_block.table import table as gfm_table
from markdown_it.token import Token
from markdown_it.utils import EnvType

from chunkcli.markdown_lines import line_offsets

# The rules that may end a paragraph in this parser, and the characters a line must start
# with (after its indentation) for any of them but the table to start there; a table starts
# only where the NEXT line starts like a delimiter row.
PARAGRAPH_TERMINATORS = ("table", "fence", "blockquote", "hr", "list", "html_block", "heading")
TERMINATOR_STARTS = frozenset("`~>*-_+#<0123456789")
DELIMITER_STARTS = frozenset("|-:")
INDENT_RE = re.compile(r"[ \t]*")  # markdown-it's isStrSpace: space and tab only
INDENTED_LINE_RE = re.compile(r"(?m)^[ \t]")
TAB_STOP = 4
# A line that the setext loop has to look at: blank, or starting (after spaces and tabs) with
# a character of TERMINATOR_STARTS, DELIMITER_STARTS or an underline (= -).
NOTABLE_LINE_RE = re.compile(r"(?m)^[ \t]*(?:[`~>*\-_+#<0-9|:=]|$)")


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
    parser.block.parse = types.MethodType(_parse_quickly, parser.block)  # type: ignore[method-assign]
    return parser


def _parse_quickly(
    block: ParserBlock, src: str, md: MarkdownIt, env: EnvType, out_tokens: list[Token]
) -> list[Token] | None:
    """ParserBlock.parse with `QuickState` for the state."""
    if not src:
        return None
    state = QuickState(src, md, env, out_tokens)
    block.tokenize(state, state.line, state.lineMax)
    return state.tokens


class QuickState(StateBlock):
    """markdown-it's StateBlock with the same line marks, the lines' offsets taken from
    chunkcli.markdown_lines.line_offsets (C loops over the lines) and only the indented
    lines' read here (a regex finds them; most lines are not)."""

    def __init__(self, src: str, md: MarkdownIt, env: EnvType, tokens: list[Token]) -> None:
        super().__init__("", md, env, tokens)  # every other field as markdown-it sets it
        # (start line, end line, where it ends) of the last paragraph lheading scanned
        self.scanned_paragraph: tuple[int, int, int] | None = None
        self.src = src
        begins, ends = (offsets.tolist() for offsets in line_offsets(src))  # (src: \\n only)
        if begins[-1] == len(src):
            del begins[-1], ends[-1]  # the line after a final newline has no marks (as there)
        shifts, counts = [0] * len(begins), [0] * len(begins)
        for line, start in _indented_lines(src, begins):
            end = ends[line]
            pos = INDENT_RE.match(src, start, end).end()  # type: ignore[union-attr]
            if pos == end == len(src):
                del begins[line:], ends[line:], shifts[line:], counts[line:]
                break  # a last line of only spaces and no newline has no marks (as there)
            shifts[line], counts[line] = pos - start, _columns(src, start, pos)
        # markdown-it's fake last line
        self.bMarks, self.eMarks = [*begins, len(src)], [*ends, len(src)]
        self.tShift, self.sCount = [*shifts, 0], [*counts, 0]
        self.bsCount = [0] * len(self.bMarks)
        self.lineMax = len(self.bMarks) - 1


def _indented_lines(src: str, begins: list[int]) -> Iterator[tuple[int, int]]:
    """(line, offset) of each line starting with a space or a tab."""
    line = 0
    for found in INDENTED_LINE_RE.finditer(src):
        line = bisect.bisect_left(begins, found.start(), line)
        yield line, found.start()


def _columns(src: str, start: int, end: int) -> int:
    """The width of the indentation src[start:end], tabs to the next multiple of 4."""
    if src.find("\t", start, end) < 0:
        return end - start
    offset = 0
    for character in src[start:end]:
        offset += TAB_STOP - offset % TAB_STOP if character == "\t" else 1
    return offset


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
    """markdown-it's paragraph rule (4.x), with `_terminates`; the paragraph text is not kept.
    Its end is the one `lheading` found just before when that scanned the same lines."""
    end_line = state.lineMax
    old_parent, state.parentType = state.parentType, "paragraph"
    scanned = getattr(state, "scanned_paragraph", None)
    if scanned is not None and scanned[:2] == (start_line, end_line):
        next_line = scanned[2]
    else:
        next_line = _paragraph_end(state, start_line, end_line)
    state.line = next_line
    state.push("paragraph_open", "p", 1).map = [start_line, state.line]
    inline = state.push("inline", "", 0)
    inline.map = [start_line, state.line]
    inline.children = []
    state.push("paragraph_close", "p", -1)
    state.parentType = old_parent
    return True


def _paragraph_end(state: StateBlock, start_line: int, end_line: int) -> int:
    next_line = start_line + 1
    while next_line < end_line:
        if state.isEmpty(next_line):
            break
        indent = state.sCount[next_line] - state.blkIndent
        if indent <= 3 and state.sCount[next_line] >= 0 and _terminates(state, next_line, end_line):
            break
        next_line += 1
    return next_line


def lheading(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """markdown-it's setext heading rule (4.x), with `_terminates`. (As there, a paragraph
    without an underline leaves parentType "paragraph".)"""
    if isinstance(state, QuickState):
        state.scanned_paragraph = None
    if state.is_code_block(start_line):
        return False
    level, marker, next_line = 0, "", start_line + 1
    old_parent, state.parentType = state.parentType, "paragraph"
    skip = isinstance(state, QuickState) and state.level == 0 and state.blkIndent == 0
    while next_line < end_line and not state.isEmpty(next_line):
        if skip:  # past the lines the loop would read and pass over
            next_line, skip = _plain_lines_end(state, next_line, end_line), False
            if next_line >= end_line or state.isEmpty(next_line):
                break
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
        # The paragraph rule, next, would stop at the same line: it need not scan again.
        if isinstance(state, QuickState):
            state.scanned_paragraph = (start_line, end_line, next_line)
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


def _plain_lines_end(state: StateBlock, line: int, end_line: int) -> int:
    """The first line from `line` on that the setext loop must read at the top level: lines
    that are not blank and start (after spaces) with none of the characters of an underline,
    a paragraph's terminator or a delimiter row are passed over, but for the one before a line
    that may be a delimiter row. (2 MB of one paragraph of `[a]: <b` lines: a loop step each.)"""
    found = NOTABLE_LINE_RE.search(state.src, state.bMarks[line])
    if found is None:
        return end_line
    notable = bisect.bisect_right(state.bMarks, found.start(), line) - 1
    return min(max(line, notable - 1), end_line)


def _underline(state: StateBlock, line: int) -> tuple[int, str]:
    """(level, marker) when `line` is a setext underline (only = or - and then spaces)."""
    pos, maximum = state.bMarks[line] + state.tShift[line], state.eMarks[line]
    if pos >= maximum or state.src[pos] not in ("-", "="):
        return 0, ""
    marker = state.src[pos]
    if state.skipSpaces(state.skipCharsStr(pos, marker)) < maximum:
        return 0, ""
    return (1 if marker == "=" else 2), marker

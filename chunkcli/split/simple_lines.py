"""A group of simple lines -> its blocks, read line by line as markdown-it reads them.

The block finder hands over a group (lines between blank lines, nothing open before it) that its
quicker tests did not settle. Each line is classified on its first character:
- a paragraph line: one that opens no block (`BLOCK_START_RE` does not match), a `#` line that
  is no ATX heading (`#tag`, seven #), a `|` or `:` line that cannot be a table's delimiter row, a
  `<` line that starts no HTML block, a backtick or tilde line that opens no fence, a `=`, `_`,
  `*`, `+` or `-` line that is no list item, rule or delimiter row, and, inside a paragraph, an
  indented line or a `[` line (neither interrupts a paragraph) whose text opens no block;
- an ATX heading (it interrupts a paragraph);
- a setext underline (`=` or `-` only) after paragraph lines: they and it are one heading.
On any other line (a list item, quote, rule, fence, HTML block, possible table or link
definition, an indented line outside a paragraph) the group goes to the parser (None).

No line here can be a table's delimiter row, so no table starts inside such a group; and a
paragraph line that a block rule could interrupt is never accepted.
"""

from __future__ import annotations

import functools
import re

from markdown_it.rules_block.html_block import HTML_SEQUENCES

from chunkcli.split.heading_runs import HeadingRuns
from chunkcli.split.kinds import BlockKind, RawBlock

# A line start that could open (or underline) a block: indentation, ATX/setext heading marks,
# quote, list bullets and numbers, rules, fences, HTML, table delimiters, link definitions.
_BLOCK_START = r"(?:[ \t]|[#>\-+*=_`~<|\[:\\]|[0-9]{1,9}[.)](?:[ \t]|$))"
BLOCK_START_RE = re.compile(rf"(?m)^{_BLOCK_START}")
# The same test for the lines after a group's first: a pattern that starts with a newline is
# searched by the regex engine's quick scan for that character, where `^` in multiline mode
# is tried at every position (groups of the real-Markdown bench text: 23.6 -> 7.5 ms).
LATER_BLOCK_START_RE = re.compile(rf"(?m)\n{_BLOCK_START}")


def opens_block(text: str, start: int, end: int) -> bool:
    """Whether a line of text[start:end] (`start` a line start) starts as BLOCK_START_RE says
    a block may: BLOCK_START_RE.search(text, start, end), sooner."""
    return bool(
        BLOCK_START_RE.match(text, start, end) or LATER_BLOCK_START_RE.search(text, start, end)
    )


ATX_HEADING_RE = re.compile(r"(#{1,6})(?:[ \t]+(.*))?")
FENCE_OPEN_RE = re.compile(r"(`{3,}|~{3,})(.*)")
# markdown-it's delimiter-row test, loosened (a line it could take for one is never plain).
DELIMITER_LIKE_RE = re.compile(r"[|\-:][-:| \t]+")
THEMATIC_BREAK_RE = re.compile(r"(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})")
BULLET_RE = re.compile(r"[-*+](?:[ \t]|$)")
UNDERLINE_RE = {"=": re.compile(r"=+[ \t]*"), "-": re.compile(r"-+[ \t]*")}


def simple_group_blocks(
    text: str, first_line: int, collapse: bool = False
) -> list[RawBlock] | None:
    """The blocks of the group `text` (no blank line inside) starting at `first_line`, or None
    when a line in it needs the parser. With `collapse`, long runs of headings are one block."""
    blocks = HeadingRuns(collapse)
    para: int | None = None  # index of the open paragraph's first line
    lines = text.split("\n")
    for index, line in enumerate(lines):
        first = line[0]
        if para is not None and first in UNDERLINE_RE and UNDERLINE_RE[first].fullmatch(line):
            if first == "-" and "|" in lines[index - 1]:
                return None  # `a |` over `---` is a one-column table
            name = " ".join("\n".join(lines[para:index]).split())
            level = 1 if first == "=" else 2
            blocks.add(_heading(first_line + para, first_line + index + 1, level, name))
            para = None
            continue
        heading = atx_heading(line) if first == "#" else None
        if heading:
            if para is not None:
                blocks.add(RawBlock(BlockKind.TEXT, first_line + para, first_line + index))
                para = None
            line_no = first_line + index
            block = _new(RawBlock, (BlockKind.HEADING, line_no, line_no + 1, *heading, 0))
            blocks.add_heading(block)
            continue
        if first != "#" and not _paragraph_line(line, first, para is not None):
            return None
        if para is None:
            para = index
    if para is not None:
        blocks.add(RawBlock(BlockKind.TEXT, first_line + para, first_line + len(lines)))
    return blocks.done()


def _heading(first_line: int, last_line: int, level: int, name: str) -> RawBlock:
    return RawBlock(BlockKind.HEADING, first_line, last_line, level, name)


# Lines repeat in degenerate groups (500,000 `# h` headings, a million `|` lines): each
# distinct line is read once. (A RawBlock built by tuple.__new__ skips NamedTuple's Python
# __new__.)
REPEATED_LINES = 4096
_new = tuple.__new__


@functools.lru_cache(maxsize=REPEATED_LINES)
def atx_heading(line: str) -> tuple[int, str] | None:
    """(level, text) of an ATX heading line, else None."""
    heading = ATX_HEADING_RE.fullmatch(line)
    return (len(heading.group(1)), heading_text(heading.group(2))) if heading else None


@functools.lru_cache(maxsize=REPEATED_LINES)
def _paragraph_line(line: str, first: str, in_paragraph: bool) -> bool:
    """Whether `line` (not a `#` line, not an underline of the open paragraph) is a paragraph
    line: it starts or continues a paragraph and nothing else."""
    if not BLOCK_START_RE.match(line):
        return True
    if first in " \t":
        text = line.lstrip(" \t")
        return in_paragraph and bool(text) and not BLOCK_START_RE.match(text)
    if first == "[":
        return in_paragraph  # a link definition cannot interrupt a paragraph
    if first in "|:":
        return not DELIMITER_LIKE_RE.fullmatch(line)
    if first == "<":
        return not any(opener.search(line) for opener, _, _ in HTML_SEQUENCES)
    if first in "`~":
        fence = FENCE_OPEN_RE.fullmatch(line)
        return not fence or (fence.group(1)[0] == "`" and "`" in fence.group(2))
    if first in "=\\":
        return True  # (an underline of an open paragraph was taken before)
    if first in "-*+_":
        return not (
            BULLET_RE.match(line)
            or THEMATIC_BREAK_RE.fullmatch(line)
            or DELIMITER_LIKE_RE.fullmatch(line)
        )
    return False  # > quotes, list numbers


def heading_text(rest: str | None) -> str:
    """An ATX heading's text as markdown-it reads it: a closing run of # after a space dropped."""
    text = (rest or "").rstrip(" \t")
    without_closing = text.rstrip("#")
    if not without_closing or without_closing[-1] in " \t":
        text = without_closing
    return " ".join(text.split())

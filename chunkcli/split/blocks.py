"""Markdown -> its top-level blocks as line ranges, found by markdown-it-py (block rules only).

Fast path: a group of lines between blank lines in which every line starts with a character
that cannot open a block construct (a letter, a CJK character, most punctuation) is exactly one
paragraph: nothing in CommonMark/GFM reads it otherwise once the blocks before it are closed, and
a blank line followed by an unindented line closes them all, except a top-level fenced code
block or HTML block of types 1-5. Those are tracked here line by line, and where that reading
saw one open, markdown-it confirms what is still open before the next plain group (`_Track`).
Such groups never reach the parser; the other
groups are parsed in ONE call, runs of them joined with a sentinel paragraph so that each run
starts as it does in the whole document. Line numbers are mapped back afterwards.

This reader stays beside chunkcli.markdown_index (check's line index): split's pieces are
markdown-it's blocks (indented code, lazy continuation lines, list items holding code, HTML
blocks, a lone \\r ending a line), which the index's line-based reading does not follow, and
chunks must not change. What they share is the lines' offsets: the parse state's marks
(parser_rules.QuickState) and the pieces' line starts (scan.py) come from
markdown_lines.line_offsets.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from markdown_it.common.utils import mdTrim
from markdown_it.rules_block.html_block import HTML_SEQUENCES
from markdown_it.rules_block.table import escapedSplit
from markdown_it.token import Token

from chunkcli.markdown_format import BOXES_LINE_RE, PAGE_MARKER_RE, is_format_comment
from chunkcli.split import simple_lines
from chunkcli.split.heading_runs import HeadingRuns
from chunkcli.split.kinds import BlockKind, RawBlock
from chunkcli.split.parser_rules import block_parser
from chunkcli.split.simple_lines import (
    BLOCK_START_RE,
    FENCE_OPEN_RE,
    LATER_BLOCK_START_RE,
    opens_block,
    simple_group_blocks,
)

# A maximal run of non-blank lines (markdown-it: blank = only spaces and tabs). Repeats over
# lines are possessive (*+, ++) here: a backtracking repeat kept about 300 bytes a line (a
# group of a million lines took 300 MB), and nothing after them needs them to give back.
GROUP_RE = re.compile(r"(?m)^[ \t]*[^ \t\n].*(?:\n[ \t]*[^ \t\n].*)*+")
# A one-line group that is an ATX heading is read here too: after a blank line and before one,
# nothing else can claim it. So is a group of lines that each hold a whole HTML comment from
# their first column (page markers, table notes, convert's boxes lines): markdown-it ends a
# comment's HTML block on the line that holds "-->", so each line is a block of its own.
COMMENT_LINES_RE = re.compile(r"<!--.*-->.*(?:\n<!--.*-->.*)*+")
# A group of one-line list items: every line a bullet or number, a space, then text.
# (At most 4 spaces after the marker, and no ` or ~ next: else the item holds code.)
ITEM_START_CHARS = frozenset("-*+0123456789")
ITEM_LINES_RE = re.compile(r"(?:(?:[-*+]|[0-9]{1,9}[.)]) {1,4}[^ \t\n`~][^\n]*(?:\n|$))++")
# A group whose lines all start with "|" (no indent): no block rule but the table can claim or
# end such a line, so if its first two lines open a table (`_opens_pipe_table`), the table is
# the whole group. convert writes every table this way.
PIPE_LINES_RE = re.compile(r"\|.*(?:\n\|.*)*+")
DELIMITER_ROW_RE = re.compile(r"\|[-:| \t]+")  # the only characters a delimiter row may hold
DELIMITER_CELL_RE = re.compile(r":?-+:?")
NEXT_LINE_INDENTED_RE = re.compile(r"\n(?:[ \t]*\n)*+[ \t]")
THEMATIC_BREAK_RE = re.compile(r"(?m)^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
FENCE_OR_HTML_RE = re.compile(r"(?m)^ {0,3}(?:`{3,}|~{3,}|<)")
MAX_BLOCK_INDENT = 3  # CommonMark: 4 columns of indent make a top-level line indented code
UNBREAKABLE = frozenset({"fence", "code_block", "table_open"})
SENTINEL = "S\n\n"  # a plain paragraph between parsed runs: closes lists and quotes, as a gap does
SENTINEL_LINES = 2
# Runs are parsed in batches of about this many characters: the parser's tokens are held for
# one batch at a time (the 5 MB benchmark text's 0.9 MB of runs in one call: 12.7 MB of Python
# memory at find_blocks' peak, in batches 5.9), and a call more costs about 0.04 ms.
PARSE_BATCH_CHARS = 1 << 16
_new = tuple.__new__  # a RawBlock without NamedTuple's Python __new__
TEXT = BlockKind.TEXT


@dataclass(frozen=True, slots=True)
class _Run:
    """Consecutive groups the parser must see, as lines of the document."""

    first_line: int
    end_line: int  # exclusive; includes the blank lines after the last group
    start: int  # offsets into the normalised text
    end: int


def normalise(markdown: str) -> str:
    """The text as markdown-it reads it (\\r\\n and \\r -> \\n, NUL -> U+FFFD), a BOM made a
    space: same length, same lines."""
    text = " " + markdown[1:] if markdown.startswith("\ufeff") else markdown
    if "\0" in text:
        text = text.replace("\0", "\ufffd")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


@dataclass(frozen=True, slots=True)
class _OpenBlock:
    """A fenced code block or HTML block still open: what ends it."""

    end: re.Pattern[str]
    whole_line: bool  # a closing fence is a whole line; an HTML end condition is anywhere

    def ends_at(self, line: str) -> bool:
        return bool(self.end.fullmatch(line) if self.whole_line else self.end.search(line))


NEVER_CLOSED = _OpenBlock(re.compile(r"(?!)"), whole_line=False)


@dataclass(frozen=True, slots=True)
class _Track:
    """What the groups read so far leave open, walking a run of parsed groups.

    `open_block` comes from this module's reading of opening and closing lines (`certain` is
    False) or from markdown-it (`certain`). The reading can be fooled (a fence line inside a
    `<div>` block or a list item is no fence), so once it has seen a block open (`guessed`), a
    plain group is plain only if markdown-it, parsing from `clean_from` (where nothing was
    open), leaves nothing open before it."""

    open_block: _OpenBlock | None = None
    certain: bool = False
    guessed: bool = False
    clean_from: int = 0  # offset of a line start at which no block is open


PageMarks = list[tuple[int, int]]  # (line, page number)


def find_blocks(
    markdown: str, fast_path: bool = True, collapse_headings: bool = False
) -> tuple[list[RawBlock], PageMarks]:
    """Top-level blocks in order (top-level list items are blocks of their own), and the
    (line, page) of every page marker at any depth. With `collapse_headings`, long runs of
    one-line headings read on the fast path are one HEADINGS block each (heading_runs.py)."""
    source = normalise(markdown)
    if not fast_path:
        return _parsed_blocks(block_parser().parse(source), lambda line: line)
    plain, runs = _classify_groups(source, collapse_headings)
    if not runs:
        return plain, [(block.first_line, block.page) for block in plain if block.page]
    parsed: list[RawBlock] = []
    marks: PageMarks = []
    for batch in _batches(runs):
        found, found_marks = _parsed_runs(source, batch)
        parsed += found
        marks += found_marks
    marks += [(block.first_line, block.page) for block in plain if block.page]
    return sorted(plain + parsed, key=lambda block: block.first_line), sorted(marks)


def _batches(runs: list[_Run]) -> Iterator[list[_Run]]:
    """Consecutive runs of about PARSE_BATCH_CHARS characters together (a longer run alone)."""
    batch: list[_Run] = []
    size = 0
    for run in runs:
        if batch and size + run.end - run.start > PARSE_BATCH_CHARS:
            yield batch
            batch, size = [], 0
        batch.append(run)
        size += run.end - run.start
    if batch:
        yield batch


def _parsed_runs(source: str, runs: list[_Run]) -> tuple[list[RawBlock], PageMarks]:
    """The blocks and page marks of `runs`, parsed in one call joined by the sentinel, their
    lines numbered as in the document."""
    text = SENTINEL.join(source[run.start : run.end] for run in runs)
    firsts, sizes = [], []
    joined_line = 0
    for run in runs:
        firsts.append(joined_line)
        sizes.append(run.end_line - run.first_line)
        joined_line += run.end_line - run.first_line + SENTINEL_LINES

    def to_document_line(line: int) -> int | None:
        index = bisect.bisect_right(firsts, line) - 1
        inside = line - firsts[index]
        return runs[index].first_line + inside if inside < sizes[index] else None

    return _parsed_blocks(block_parser().parse(text), to_document_line)


def _classify_groups(source: str, collapse: bool) -> tuple[list[RawBlock], list[_Run]]:
    """Plain groups as paragraphs, and the runs of other groups the parser must see."""
    plain = HeadingRuns(collapse)
    runs: list[_Run] = []
    run_first: tuple[int, int] | None = None  # (line, offset) where the current run starts
    track = _Track()
    line, offset = 0, 0
    find, count = source.find, source.count
    first_opens, later_opens = BLOCK_START_RE.match, LATER_BLOCK_START_RE.search  # (opens_block)
    add_plain = plain.blocks.append  # (HeadingRuns extends its list in place, never rebinds it)
    for match in GROUP_RE.finditer(source):
        start, end = match.span()
        line += count("\n", offset, start)
        offset = start
        clear = track.open_block is None and not track.guessed  # nothing open, nor may be
        if clear and not (first_opens(source, start, end) or later_opens(source, start, end)):
            # A paragraph (most groups): as _plain_blocks reads it, without the list and call.
            if run_first is not None:
                runs.append(_Run(run_first[0], line, run_first[1], start))
                run_first = None
            lines = count("\n", start, end) + 1
            if plain.running or plain.pending:  # (HeadingRuns.add of a paragraph, inline)
                plain.cut()
            add_plain(_new(RawBlock, (TEXT, line, line + lines, 0, "", 0)))
            line, offset = line + lines - 1, end  # (its line ends are not counted again)
            continue
        if (  # a heading between blank lines, with nothing open (500,000 in 2 MB): read here
            collapse
            and run_first is None
            and clear
            and source[offset] == "#"
            and find("\n", offset, end) < 0
        ):
            heading = simple_lines.atx_heading(match.group())
            if heading is not None:
                plain.add_heading(_new(RawBlock, (BlockKind.HEADING, line, line + 1, *heading, 0)))
                continue
        blocks = (
            None if track.open_block is not None else _plain_blocks(source, match, line, collapse)
        )
        if blocks is not None and track.guessed:
            track = _Track(_left_open(source[track.clean_from : match.start()]), certain=True)
            blocks = None if track.open_block is not None else blocks
        if blocks is not None:
            if run_first is not None:
                runs.append(_Run(run_first[0], line, run_first[1], match.start()))
                run_first = None
            plain.extend(blocks)
            continue
        plain.cut()  # the parser's blocks come between
        if run_first is None:
            run_first = (line, match.start())
            track = _Track(clean_from=match.start())
        may_open = FENCE_OR_HTML_RE.search(source, match.start(), match.end())
        if track.open_block is not None or may_open:
            track = _track_open_block(match.group(), match.start(), track)
    return plain.done(), runs + _last_run(source, run_first)


def _last_run(source: str, run_first: tuple[int, int] | None) -> list[_Run]:
    """The run still open at the end of the text (from its (line, offset)), if any."""
    if run_first is None:
        return []
    return [_Run(run_first[0], source.count("\n") + 1, run_first[1], len(source))]


def _plain_blocks(
    source: str, group: re.Match[str], line: int, collapse: bool = False
) -> list[RawBlock] | None:
    """The blocks of a group read without the parser (None: the parser must read it): a
    paragraph, one-line list items, a pipe table, a one-line HTML comment, or paragraphs and
    headings (simple_lines)."""
    start, end = group.span()
    if not opens_block(source, start, end):  # a paragraph (most groups)
        lines = source.count("\n", start, end) + 1
        return [_new(RawBlock, (BlockKind.TEXT, line, line + lines, 0, "", 0))]
    text = group.group()
    first = text[0]  # each construct below starts with its own characters: test only that one
    if first == "#" and "\n" not in text:  # a heading between blank lines (500,000 in 2 MB)
        heading = simple_lines.atx_heading(text)
        if heading is not None:
            return [RawBlock(BlockKind.HEADING, line, line + 1, *heading)]
    if (
        first in ITEM_START_CHARS
        and ITEM_LINES_RE.fullmatch(text)
        and not THEMATIC_BREAK_RE.search(text)
        and not NEXT_LINE_INDENTED_RE.match(source, group.end())  # it would continue the item
    ):
        items = text.count("\n") + 1
        return [RawBlock(BlockKind.TEXT, line + i, line + i + 1) for i in range(items)]
    if first == "|" and PIPE_LINES_RE.fullmatch(text) and _opens_pipe_table(text):
        return [RawBlock(BlockKind.TABLE, line, line + text.count("\n") + 1)]
    if first == "<" and COMMENT_LINES_RE.fullmatch(text):
        return [_comment_block(comment, line + i) for i, comment in enumerate(text.split("\n"))]
    return simple_group_blocks(text, line, collapse)


def _comment_block(comment: str, line: int) -> RawBlock:
    """The block of a line holding an HTML comment (as _parsed_blocks reads markdown-it's)."""
    text = comment.strip()
    marker = PAGE_MARKER_RE.fullmatch(text)
    page = int(marker.group(1)) if marker else 0
    # (a boxes line, of all format comments, tried first: a page of them after each document)
    is_format = page or BOXES_LINE_RE.fullmatch(text) or is_format_comment(text)
    return _new(
        RawBlock, (BlockKind.MARKER if is_format else BlockKind.TEXT, line, line + 1, 0, "", page)
    )


def _opens_pipe_table(group: str) -> bool:
    """markdown-it's table test for a group's first two lines (both starting with "|"): a
    delimiter row of :?-+:? cells (empty ones only at the ends), as many as the header's cells."""
    lines = group.split("\n", 2)
    if len(lines) < 2 or not DELIMITER_ROW_RE.fullmatch(lines[1]):
        return False
    cells = [mdTrim(cell) for cell in lines[1].split("|")]
    inner = cells[1:-1]
    if any(not DELIMITER_CELL_RE.fullmatch(cell) for cell in inner):
        return False
    aligns = len(inner) + sum(1 for cell in (cells[0], cells[-1]) if cell)
    if any(cell and not DELIMITER_CELL_RE.fullmatch(cell) for cell in (cells[0], cells[-1])):
        return False
    header = escapedSplit(mdTrim(lines[0]))
    if header and header[0] == "":
        header.pop(0)
    if header and header[-1] == "":
        header.pop()
    return 0 < len(header) == aligns


def _track_open_block(group: str, start: int, track: _Track) -> _Track:
    """The tracking state after the lines of `group` (which starts at offset `start`)."""
    offset = start
    for text in group.split("\n"):
        offset += len(text) + 1
        if track.open_block is None:
            opened = _opened_by(text)
            if opened is not None:
                track = _Track(opened, certain=False, guessed=True, clean_from=track.clean_from)
        elif track.open_block.ends_at(text):
            # A block the parser confirmed is top-level: the line after it starts clean.
            track = _Track(clean_from=offset) if track.certain else replace(track, open_block=None)
    return track


def _opened_by(line: str) -> _OpenBlock | None:
    """The fence or HTML block (types 1-5) that `line` opens at the top level, as markdown-it
    reads an opening line (its own HTML start conditions, in its order), or None."""
    text = line.lstrip(" ")
    if len(line) - len(text) > MAX_BLOCK_INDENT:
        return None
    fence = FENCE_OPEN_RE.fullmatch(text)
    if fence and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
        return _fence_block(fence.group(1))
    if not text.startswith("<"):
        return None
    for opener, end, _ in HTML_SEQUENCES:
        if opener.search(text):
            ends_on_blank_line = bool(end.search(""))  # types 6 and 7 stop at a blank line
            return None if ends_on_blank_line or end.search(text) else _OpenBlock(end, False)
    return None


def _fence_block(marks: str) -> _OpenBlock:
    # The closing fence: same character, at least as long, nothing but spaces after it.
    closing = re.compile(rf" {{0,3}}{re.escape(marks[0])}{{{len(marks)},}}[ \t]*")
    return _OpenBlock(closing, whole_line=True)


def _left_open(text: str) -> _OpenBlock | None:
    """The top-level fence or HTML block that `text` (from a clean start, ending after a blank
    line) leaves open, as markdown-it reads it: the block that swallows a paragraph after it."""
    probe_line = text.count("\n")
    tokens = block_parser().parse(text + SENTINEL)
    last = next(token for token in reversed(tokens) if token.level == 0 and token.nesting >= 0)
    if last.type == "paragraph_open" and last.map is not None and last.map[0] == probe_line:
        return None
    if last.type == "fence":
        return _fence_block(last.markup)
    if last.type == "html_block":
        first = last.content.split("\n", 1)[0].lstrip(" ")
        end = next(end for opener, end, _ in HTML_SEQUENCES if opener.search(first))
        return _OpenBlock(end, whole_line=False)
    return NEVER_CLOSED  # not expected (nothing else spans a blank line): parse the rest


def _parsed_blocks(
    tokens: list[Token], to_line: Callable[[int], int | None]
) -> tuple[list[RawBlock], list[tuple[int, int]]]:
    blocks: list[RawBlock] = []
    marks: list[tuple[int, int]] = []
    for index, token in enumerate(tokens):
        if token.map is None or token.nesting < 0:
            continue
        first = to_line(token.map[0])
        if first is None:
            continue  # the sentinel paragraph
        last = first + token.map[1] - token.map[0]
        marker = _page_marker(token)
        if marker:
            marks.append((first, marker))
        if token.level == 1 and token.type == "list_item_open":
            blocks.append(RawBlock(BlockKind.TEXT, first, last))
        elif token.level > 0 and token.type in UNBREAKABLE and blocks:
            # A table or code inside a list item or quote: the whole block is never cut.
            blocks[-1] = blocks[-1]._replace(kind=BlockKind.CODE)
        elif token.level != 0 or token.type in ("bullet_list_open", "ordered_list_open"):
            continue
        elif token.type == "heading_open":
            text = " ".join(tokens[index + 1].content.split())
            blocks.append(RawBlock(BlockKind.HEADING, first, last, int(token.tag[1:]), text))
        else:
            blocks.append(RawBlock(_block_kind(token, marker), first, last, page=marker))
    return blocks, marks


def _page_marker(token: Token) -> int:
    if token.type != "html_block":
        return 0
    match = PAGE_MARKER_RE.fullmatch(token.content.strip())
    return int(match.group(1)) if match else 0


def _block_kind(token: Token, marker: int) -> BlockKind:
    if token.type == "table_open":
        return BlockKind.TABLE
    if token.type in ("fence", "code_block"):
        return BlockKind.CODE
    if marker or (token.type == "html_block" and is_format_comment(token.content)):
        return BlockKind.MARKER
    return BlockKind.TEXT

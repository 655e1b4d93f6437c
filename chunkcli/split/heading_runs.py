"""Long runs of empty headings -> one block each (`BlockKind.HEADINGS`).

A document of nothing but headings (500,000 `# h` lines in 2 MB) made a block, a piece, a path
and a name per heading: about 370 bytes each, 96 times the input. A run of at least
`RUN_MIN_HEADINGS` one-line ATX headings with no text between them (blank lines allowed) is
kept as one block instead; its lines are read again only where they matter: the heading path of
the text after the run (layout.heading_paths) and its cuts between lines when it is over the
limit (plan.py). Shorter runs, as in any ordinary document, stay one block per heading.
"""

from __future__ import annotations

import re
from collections import deque

from chunkcli.split.kinds import BlockKind, RawBlock

# No document seen has more than a few dozen headings in a row without text under them (a
# contents list set as headings); past this many the run is degenerate input.
RUN_MIN_HEADINGS = 256
# The headings at a run's end left as blocks: about the number of `# h` lines in half of an
# 800-token chunk, the most the planner glues above a block (plan.split_oversized).
RUN_TAIL_HEADINGS = 64
# The lines of a run in the original text (any line end: \n, \r\n, a lone \r); the blank
# ones read as no heading.
RUN_LINE_RE = re.compile(r"[^\r\n]+")
MAX_LEVEL = 6
_new = tuple.__new__


class HeadingRuns:
    """Blocks in order, with runs of one-line ATX headings of `RUN_MIN_HEADINGS` or more
    collapsed (when `collapse`), less their last `RUN_TAIL_HEADINGS`: those stay blocks of their
    own, so the text after a run keeps the headings just above it in its chunk, as the planner
    glues headings to the block after them. `cut()` marks where blocks not seen here come in."""

    def __init__(self, collapse: bool) -> None:
        self.collapse = collapse
        # (extended in place, never rebound: the block finder appends paragraphs to it itself)
        self.blocks: list[RawBlock] = []
        self.pending: deque[RawBlock] = deque()  # the run while short, then its last headings
        self.run_first = self.run_last = self.run_level = 0  # the collapsed run so far
        self.run_title: str | None = None  # the text of its first H1
        self.running = False

    def add(self, block: RawBlock) -> None:
        kind = block.kind
        if not self.collapse or not (
            kind is BlockKind.HEADINGS
            or (kind is BlockKind.HEADING and block.last_line == block.first_line + 1)
        ):
            if self.running or self.pending:  # (most blocks come with no run to end)
                self.cut()
            self.blocks.append(block)
            return
        pending = self.pending
        if kind is BlockKind.HEADINGS:  # a run of a group: what came before joins it
            while pending:
                self._extend(pending.popleft())
            self._extend(block)
            return
        self.add_heading(block)

    def add_heading(self, block: RawBlock) -> None:
        """`add` for a one-line heading (the block finder's quick path: once a call)."""
        if not self.collapse:
            self.blocks.append(block)
            return
        pending = self.pending
        pending.append(block)
        if len(pending) > RUN_TAIL_HEADINGS and (self.running or len(pending) >= RUN_MIN_HEADINGS):
            while len(pending) > RUN_TAIL_HEADINGS:
                self._extend(pending.popleft())

    def extend(self, blocks: list[RawBlock]) -> None:
        for block in blocks:
            self.add(block)

    def _extend(self, block: RawBlock) -> None:
        if not self.running:
            self.running = True
            self.run_first, self.run_level = block.first_line, MAX_LEVEL + 1
        self.run_last = block.last_line
        if block.level < self.run_level:
            self.run_level = block.level
        if block.level == 1 and self.run_title is None:
            self.run_title = block.heading

    def cut(self) -> None:
        """The run so far ends here."""
        if self.running:
            title = self.run_title if self.run_title is not None else ""
            self.blocks.append(
                _new(
                    RawBlock,
                    (BlockKind.HEADINGS, self.run_first, self.run_last, self.run_level, title, 0),
                )
            )
            self.running, self.run_title = False, None
        self.blocks += self.pending
        self.pending.clear()

    def done(self) -> list[RawBlock]:
        self.cut()
        return self.blocks

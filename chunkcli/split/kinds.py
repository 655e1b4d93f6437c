"""The block kinds and line-range records of the block finder (blocks.py, simple_lines.py)."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class BlockKind(StrEnum):
    HEADING = "heading"
    TEXT = "text"  # paragraph, list item, block quote, HTML, rule
    TABLE = "table"
    CODE = "code"
    # A figure block (markdown_format): its start comment to its end comment, caption, image
    # link and words between, as ONE block that is never cut between its parts (scan.py).
    FIGURE = "figure"
    MARKER = "marker"  # a page marker, or another chunkcli comment (page 0): no content
    # A long run of one-line ATX headings with no text between them, as ONE block (heading
    # mode only, heading_runs.py): level is the run's lowest, heading the text of its first H1.
    HEADINGS = "headings"


class RawBlock(NamedTuple):
    """A top-level block as a line range. (The per-block records of split are NamedTuples:
    immutable like a frozen dataclass, and three times cheaper to build.)"""

    kind: BlockKind
    first_line: int
    last_line: int  # exclusive
    level: int = 0  # heading level
    heading: str = ""  # heading text, one line
    page: int = 0  # MARKER: the page number

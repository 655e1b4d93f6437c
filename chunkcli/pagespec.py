"""Page selections as people type them: "3", "3-7", "2-", "1,3-5" -> sorted 1-based page numbers,
and page numbers back into that form for messages."""

from __future__ import annotations

import re
from collections.abc import Iterable

from chunkcli.errors import UsageError

# No real PDF comes near this many pages; the cap keeps "1-999999999" from building a huge tuple.
MAX_PAGE = 100_000
PART = re.compile(r"^(\d+)(-(\d*))?$")  # "2-" runs to the last page


def parse_page_spec(spec: str) -> tuple[int, ...]:
    """Parse a page selection into sorted, unique 1-based page numbers.

    Accepts comma-separated pages and inclusive ranges ("1,3-5" -> (1, 3, 4, 5)), and open
    ranges ("2-": page 2 to the last, as pages up to MAX_PAGE); spaces are ignored.
    Raises UsageError naming the bad part.
    """
    pages: set[int] = set()
    parts = [part.strip() for part in spec.replace(" ", "").split(",")]
    if not any(parts):
        raise UsageError(f"--pages: empty page selection {spec!r}: use e.g. 3, 3-7 or 1,3-5")
    for part in parts:
        pages.update(_parse_part(part, spec))
    return tuple(sorted(pages))


def _parse_part(part: str, spec: str) -> range:
    match = PART.match(part)
    if match is None:
        raise UsageError(
            f"--pages: bad page selection {spec!r}: {part!r} is not a page or a range like 3-7"
        )
    first = int(match.group(1))
    if match.group(2) and not match.group(3):
        last = max(first, MAX_PAGE)  # an open range: pages past the file's last are ignored
    else:
        last = int(match.group(3) or first)
    if first < 1:
        raise UsageError(f"--pages: bad page selection {spec!r}: pages are numbered from 1")
    if last < first:
        raise UsageError(f"--pages: bad page selection {spec!r}: range {part!r} runs backwards")
    if last > MAX_PAGE:
        raise UsageError(f"--pages: bad page selection {spec!r}: pages stop at {MAX_PAGE}")
    return range(first, last + 1)


def format_page_ranges(pages: Iterable[int]) -> str:
    """(1, 2, 3, 5, 7, 8) -> "1-3, 5, 7-8": the inverse of parse_page_spec, for messages."""
    runs: list[list[int]] = []
    for page in sorted(set(pages)):
        if runs and page == runs[-1][-1] + 1:
            runs[-1].append(page)
        else:
            runs.append([page])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else f"{run[0]}" for run in runs)

"""The pieces of one document with what the planner asks about them: token sums over ranges,
heading paths, and the retrieval prefix of a path (counted once per distinct path)."""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import TypeAlias

from chunkcli.split.counting import longest_token_bytes
from chunkcli.split.heading_runs import MAX_LEVEL, RUN_LINE_RE
from chunkcli.split.options import SplitOptions
from chunkcli.split.scan import BOUNDABLE, Piece, PieceKind
from chunkcli.split.simple_lines import atx_heading
from chunkcli.tokens import TokenCounter

TITLE = -1  # the path element that stands for the document title
PATH_SEPARATOR = " › "
# Encodings whose pre-split never joins a newline with the character after it ("\s*[\r\n]+"):
# for them the count of pieces that start at line starts is the sum of their counts.
# (gpt2/r50k/p50k split "\n\n#" as "\n", "\n", "#" but "\n\n" at the end as one piece.)
ADDITIVE_ENCODINGS = frozenset({"cl100k_base", "o200k_base"})

# Encodings whose pre-split ends a piece where a path line's " › " starts, after a name that
# ends on a non-space (its runs of letters, digits and punctuation stop at a space, and " ›"
# then starts a piece of its own), and reads each name's characters as it reads them alone:
# the count of a path line of such names is the sum of its segments' counts (tested on random
# names against the count of the whole line). Not o200k_base: nothing offline tests it.
PATH_ADDITIVE_ENCODINGS = frozenset({"cl100k_base"})

Path = tuple[int, ...]  # indices of heading pieces, outermost first (TITLE for the title)
Ints: TypeAlias = "array[int]"  # of "q"
# Paths whose prefix is remembered by path (past that, by their names only): every heading
# has a path of its own, and a document of 500,000 headings kept an entry for each.
PREFIX_CACHE_PATHS = 65_536


@dataclass(frozen=True, slots=True)
class Layout:
    markdown: str
    pieces: tuple[Piece, ...]
    paths: tuple[Path, ...]  # the heading path of every piece (a heading is inside itself)
    names: dict[int, str]  # path element -> heading text
    # Machine integers (a tuple of ints took 36 bytes a piece; 500,000 headings fit in 2 MB):
    cumulative: Ints  # cumulative[i] = tokens of pieces[:i]
    content_cumulative: Ints  # content_cumulative[i] = content pieces in pieces[:i]
    heading_indices: tuple[int, ...]  # the indices of the HEADING(S) pieces, ascending
    count_tokens: TokenCounter
    options: SplitOptions
    sums_exact: bool  # summed piece counts are exact counts (see ADDITIVE_ENCODINGS)
    max_token_bytes: int | None  # the longest token of the counter in bytes, when known
    # Pieces whose count may be a lower bound (over the limit: scan.BOUNDABLE), ascending.
    bounded: tuple[int, ...] = ()
    prefix_cache: dict[Path, tuple[str, int]] = field(default_factory=dict)
    # The same path line under another path (sibling headings of one name): counted once.
    named_prefix_cache: dict[tuple[str, ...], tuple[str, int]] = field(default_factory=dict)
    # The count of each segment of the path lines (a name, " › " and a name, ...), or None
    # where its name is not whitespace-clean (_path_line_tokens).
    segment_counts: dict[str, int | None] = field(default_factory=dict)

    @property
    def max_tokens(self) -> int:
        return self.options.max_tokens

    def tokens(self, lo: int, hi: int) -> int:
        """Summed token counts of pieces[lo:hi]."""
        return self.cumulative[hi] - self.cumulative[lo]

    def common_path(self, lo: int, hi: int) -> Path:
        """The deepest heading path that contains the text of pieces[lo:hi]: headings before
        the first text (glued on, with no text of their own) do not count."""
        if self.has_content(lo, hi):
            while not self.pieces[lo].is_content:
                lo += 1
        path = self.paths[lo]
        # Only a heading starts another path object (heading_paths): with none after lo in
        # the range, and lo no run of headings (the text after a run has the path after it),
        # every piece has lo's.
        indices = self.heading_indices
        after = bisect.bisect_right(indices, lo)
        if (after == len(indices) or indices[after] >= hi) and (
            self.pieces[lo].kind is not PieceKind.HEADINGS
        ):
            return path
        merged: Path | None = None  # the last path merged in: `path` is a prefix of it
        for other in self.paths[lo + 1 : hi]:
            # Runs of pieces share one path object: each object is merged in once a run.
            if other is not path and other is not merged:
                path, merged = common_prefix(path, other), other
                if not path or path == (TITLE,):
                    break  # every path starts so: it cannot get shorter
        return path

    def prefix(self, path: Path) -> tuple[str, int]:
        """The path line put before a chunk's body, and its token count."""
        cached = self.prefix_cache.get(path)
        if cached is None:
            names = tuple(self.names[element] for element in path)
            cached = self.named_prefix_cache.get(names)
            if cached is None:
                cached = self.named_prefix_cache[names] = self._fitted_prefix(list(names))
            if len(self.prefix_cache) < PREFIX_CACHE_PATHS:
                self.prefix_cache[path] = cached
        return cached

    def _fitted_prefix(self, names: list[str]) -> tuple[str, int]:
        """The path line, shortened when it would take over max_prefix_share of the limit:
        first the middle headings give way to "…", then all but the deepest, then its end."""
        limit = int(self.max_tokens * self.options.settings.max_prefix_share)
        shorter = [names, [names[0], "…", names[-1]], names[-1:]] if len(names) > 2 else [names]
        if len(names) == 2:
            shorter.append(names[-1:])
        for candidate in shorter:
            text = PATH_SEPARATOR.join(candidate) + "\n\n" if candidate else ""
            tokens = self._path_line_tokens(candidate, text) if text else 0
            if tokens <= limit:
                return text, tokens
        deepest = names[-1]
        low, high = 0, len(deepest)  # the longest start of the deepest heading that fits
        while low < high:
            middle = (low + high + 1) // 2
            if self.count_tokens(deepest[:middle] + "…\n\n") <= limit:
                low = middle
            else:
                high = middle - 1
        text = deepest[:low] + "…\n\n" if low else ""
        return text, self.count_tokens(text) if text else 0

    def _path_line_tokens(self, names: list[str], text: str) -> int:
        """The count of `text`, the path line of `names`: where PATH_ADDITIVE_ENCODINGS says
        it is exact, the sum of the counts of its segments (the first name; " › " and each
        next name; the last with the blank line), each segment counted once for the document
        (the title and the upper headings start every path line: 2,517 path lines of 200
        characters were counted whole, 5 % of a split of the real-Markdown bench text)."""
        if len(names) < 2 or not self.sums_exact:
            return self.count_tokens(text)
        if self.options.encoding not in PATH_ADDITIVE_ENCODINGS:
            return self.count_tokens(text)
        last = len(names) - 1
        total = 0
        for index, name in enumerate(names):
            segment = name if index == 0 else PATH_SEPARATOR + name
            segment += "\n\n" if index == last else ""
            counts = self.segment_counts
            tokens = counts.get(segment, -1)
            if tokens == -1:
                clean = bool(name) and name == " ".join(name.split())
                tokens = counts[segment] = self.count_tokens(segment) if clean else None
            if tokens is None:
                return self.count_tokens(text)
            total += tokens
        return total

    def fits(self, lo: int, hi: int) -> bool:
        """Whether pieces[lo:hi] with their prefix fit the limit, by summed counts."""
        return self.prefix(self.common_path(lo, hi))[1] + self.tokens(lo, hi) <= self.max_tokens

    def checked_count(self, summed: int, text: Callable[[], str]) -> int:
        """The exact count of `text()`: `summed` when sums are exact, else a recount."""
        return summed if self.sums_exact else self.count_tokens(text())

    def exact_sum(self, lo: int, hi: int) -> bool:
        """Whether the summed count of pieces[lo:hi] is exact: no piece in it has a lower
        bound for its count. (The planner never puts such a piece whole into a plan: it is
        over the limit and cut into windows; a plan that did would be recounted.)"""
        bounded = self.bounded
        if not bounded:  # (most documents: no paragraph of tens of kilobytes)
            return True
        k = bisect.bisect_left(bounded, lo)
        return k == len(bounded) or bounded[k] >= hi

    def content_count(self, lo: int, hi: int) -> int:
        """How many of pieces[lo:hi] are content (not headings, not page markers)."""
        return self.content_cumulative[hi] - self.content_cumulative[lo]

    def headings_between(self, lo: int, hi: int) -> list[int]:
        """Indices of the HEADING pieces among pieces[lo:hi]."""
        indices = self.heading_indices
        return list(indices[bisect.bisect_left(indices, lo) : bisect.bisect_left(indices, hi)])

    def has_content(self, lo: int, hi: int) -> bool:
        return self.content_cumulative[hi] > self.content_cumulative[lo]

    def content_end(self, pos: int, floor: int) -> int:
        """`pos` moved back over trailing whitespace, not below `floor` (str.rstrip: a piece can
        end in a million blank lines)."""
        text = self.markdown
        if pos <= floor or not text[pos - 1].isspace():
            return pos
        return floor + len(text[floor:pos].rstrip())


def common_prefix(a: Path, b: Path) -> Path:
    if a is b:
        return a
    size = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        size += 1
    return a if size == len(a) else a[:size]


def find_title(pieces: tuple[Piece, ...], override: str | None, stem: str) -> tuple[str, int]:
    """The title (override, else first H1, else the file name stem) and the H1's piece index
    (a run of headings whose lowest level is 1 holds it: its `heading` is that H1's text)."""
    first_h1 = next(
        (i for i, p in enumerate(pieces) if p.kind in HEADING_KINDS and p.level == 1), TITLE
    )
    if override is not None:
        return override, first_h1
    if first_h1 != TITLE:
        return pieces[first_h1].heading, first_h1
    return stem, TITLE


HEADING_KINDS = frozenset({PieceKind.HEADING, PieceKind.HEADINGS})
RUN_ELEMENT_BASE = -2  # the heading at offset o inside a run is path element -2 - o (< TITLE)
_Open = tuple[int, Path]  # (level, path) of an open heading


def heading_paths(
    pieces: tuple[Piece, ...],
    title_index: int,
    has_title: bool,
    markdown: str = "",
    run_names: dict[int, str] | None = None,
    headings: Sequence[int] | None = None,
) -> tuple[Path, ...]:
    """Each piece's path: the title, then the open headings (levels may skip: H1 -> H3 is fine).

    A run of headings (PieceKind.HEADINGS) has the path its headings share; its headings are
    read from `markdown` for the path after it, and those still open after it are named in
    `run_names` (element RUN_ELEMENT_BASE - offset of the line). `headings`: the indices of
    the HEADING(S) pieces, when the caller has them (only they change the path: the pieces
    between two of them share one path object, set by the list, not a step a piece)."""
    base: Path = (TITLE,) if has_title else ()
    if headings is None:
        headings = [i for i, p in enumerate(pieces) if p.kind in HEADING_KINDS]
    stack: list[_Open] = []
    current = base
    paths: list[Path] = []
    for index in headings:
        paths += [current] * (index - len(paths))  # the pieces since the last heading
        piece = pieces[index]
        if piece.kind is PieceKind.HEADING:
            while stack and stack[-1][0] >= piece.level:
                stack.pop()
            parent = stack[-1][1] if stack else base
            current = parent if index == title_index else (*parent, index)
            stack.append((piece.level, current))
            paths.append(current)
            continue
        while stack and stack[-1][0] >= piece.level:  # a run of headings
            stack.pop()
        paths.append(stack[-1][1] if stack else base)
        named = _open_after_run(markdown, piece, stack, base, index == title_index)
        if run_names is not None:
            run_names.update(named)
        current = stack[-1][1] if stack else base
    paths += [current] * (len(pieces) - len(paths))
    return tuple(paths)


def _open_after_run(
    markdown: str, run: Piece, stack: list[_Open], base: Path, holds_title: bool
) -> dict[int, str]:
    """`stack` taken through the headings of `run`; the names of those left open.

    Only the headings still open at the run's end change the stack: each is shallower than
    every heading after it, so they are found reading the run backwards, and the reading stops
    at an H1 (2 MB of `# h`: one line read, where a pass over all the run's lines took a
    third of split's time). The stack below the run (the caller popped what the run closes)
    stays; the open headings go on it in order, each the child of the one before."""
    if markdown.find("\r", run.start, run.end) >= 0:  # (lines may end in \r alone)
        return _open_after_run_forward(markdown, run, stack, base, holds_title)
    names = {}
    for offset, level, name, is_title in _open_at_run_end(markdown, run, holds_title):
        parent = stack[-1][1] if stack else base
        if is_title:  # the title H1: its path is its parent's, as for a piece
            stack.append((level, parent))
            continue
        element = RUN_ELEMENT_BASE - offset
        stack.append((level, (*parent, element)))
        names[element] = name
    return names


def _open_at_run_end(
    markdown: str, run: Piece, holds_title: bool
) -> list[tuple[int, int, str, bool]]:
    """(offset, level, name, is the title) of the headings of `run` open at its end, in order.
    (With `holds_title`, the run's first H1 is the title: an open H1 is, when no H1 is before
    it, so the reading goes on past it until it meets one.)"""
    found: list[tuple[int, int, str, bool]] = []
    shallowest = MAX_LEVEL + 1  # of the headings after the line being read
    end = run.end
    while end > run.start:
        cut = markdown.rfind("\n", run.start, end)
        start = cut + 1 if cut >= 0 else run.start
        heading = _run_heading(markdown[start:end]) if start < end else None
        end = cut if cut >= 0 else run.start
        if heading is None:
            continue  # a blank line
        level, name = heading
        if shallowest == 1:  # an H1 was open: is there one before it?
            if level == 1:
                return found[::-1]  # there is: the open H1 is not the title
            continue
        if level < shallowest:
            found.append((start, level, name, False))
            shallowest = level
            if level == 1 and not holds_title:
                break
    if holds_title and shallowest == 1:
        offset, level, name, _ = found[-1]
        found[-1] = (offset, level, name, True)
    return found[::-1]


def _open_after_run_forward(
    markdown: str, run: Piece, stack: list[_Open], base: Path, holds_title: bool
) -> dict[int, str]:
    """`stack` taken through the headings of `run`, line by line; the names of those left
    open (read again from their lines: keeping every heading's name took a dict entry per
    heading). For runs with a carriage return in them, and the definition in the tests."""
    for match in RUN_LINE_RE.finditer(markdown, run.start, run.end):
        heading = _run_heading(match.group())
        if heading is None:
            continue  # a blank line
        level = heading[0]
        while stack and stack[-1][0] >= level:
            stack.pop()
        parent = stack[-1][1] if stack else base
        if holds_title and level == 1:
            holds_title = False  # the title H1: its path is its parent's, as for a piece
            stack.append((level, parent))
        else:
            stack.append((level, (*parent, RUN_ELEMENT_BASE - match.start())))
    names = {}
    for _, path in stack:
        if path and path[-1] <= RUN_ELEMENT_BASE and path[-1] not in names:
            offset = RUN_ELEMENT_BASE - path[-1]
            line = RUN_LINE_RE.match(markdown, offset)
            heading = _run_heading(line.group()) if line else None
            names[path[-1]] = heading[1] if heading else ""
    return names


def _run_heading(line: str) -> tuple[int, str] | None:
    return atx_heading(line.replace("\0", "\ufffd"))  # (NUL read as blocks.normalise reads it)


def make_layout(
    markdown: str,
    pieces: tuple[Piece, ...],
    title: tuple[str, int],
    count_tokens: TokenCounter,
    options: SplitOptions,
    sums_exact: bool,
) -> Layout:
    """Layout of scanned pieces; `title` is (title text, index of the title H1 or TITLE)."""
    title_text, title_index = title
    run_names: dict[int, str] = {}
    headings = tuple(i for i, p in enumerate(pieces) if p.kind in HEADING_KINDS)
    paths = heading_paths(pieces, title_index, bool(title_text), markdown, run_names, headings)
    names = {i: pieces[i].heading for i in headings if pieces[i].kind is PieceKind.HEADING}
    names.update(run_names)
    names[TITLE] = title_text
    cumulative = array("q", accumulate((p.tokens for p in pieces), initial=0))
    content = array("q", accumulate((p.is_content for p in pieces), initial=0))
    limit = options.max_tokens
    bounded = (
        tuple(i for i, p in enumerate(pieces) if p.tokens > limit and p.kind in BOUNDABLE)
        if sums_exact
        else ()
    )
    return Layout(
        markdown,
        pieces,
        paths,
        names,
        cumulative,
        content,
        headings,
        count_tokens,
        options,
        sums_exact,
        # With sums exact the counter is the offline encoding, whose vocabulary is known.
        longest_token_bytes(options.encoding) if sums_exact else None,
        bounded,
    )

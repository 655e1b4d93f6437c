"""Pages and their text -> Issues: scanned, blank and garbage pages, documents with almost no text.

Page statuses come from `convert` (a ConvertResult, or the page markers it writes into Markdown).
Garbage is also measured on the text itself, because Markdown from other tools carries no marker:
NUL, U+FFFD, `(cid:N)` and private-use glyphs, or CJK text with a space between every character.
"""

from __future__ import annotations

import bisect
import itertools
import re
from array import array
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from chunkcli.charclasses import (
    CID_RUN,
    CJK_LETTER_CLASS,
    CJK_LETTER_RE,
    LATIN1_LETTER,
    count_whitespace,
    unusable_share,
)
from chunkcli.check.options import CheckOptions
from chunkcli.check.scan import LineKind, LineView, ScannedMarkdown
from chunkcli.check.wording import examples, pages_phrase, quote
from chunkcli.model import Issue, PageStatus, Severity

ALNUM_RUN = re.compile(r"[^\W_]+")
CID = CID_RUN
CJK_CHAR = CJK_LETTER_RE
SPACED_CJK = re.compile(f"(?<=[{CJK_LETTER_CLASS}]) (?=[{CJK_LETTER_CLASS}])")
# Without page markers, text is judged in windows of about a page's worth of characters, so that
# a few garbled pages are not diluted by a long clean document.
WINDOW_CHARS = 3000
# Below this many visible characters a page's share of bad glyphs is noise (a PUA bullet or two).
GARBAGE_MIN_CHARS = 20
# Spaced CJK is judged on pages with at least this many CJK characters.
SPACED_CJK_MIN_CHARS = 20
# Share of CJK characters followed by a space and another CJK character. Japanese and Chinese
# have ~0; Korean puts a space between words of 2-4 syllables (~0.25-0.45); text with a space
# after every character is near 1.0.
SPACED_CJK_SHARE = 0.7
# A text page with fewer letters and digits than this holds a figure, a divider or a title only.
NEAR_EMPTY_CHARS = 10
# Documents of at least this many pages may open or close with a picture (a cover) that is fine.
COVER_MIN_PAGES = 3
# Latin-1 letters (À..ÿ) on this share of a page: mojibake, not a language (Icelandic, the
# heaviest user, stays near 0.15).
MOJIBAKE_SHARE = 0.3


@dataclass(frozen=True, slots=True)
class PageFindings:
    blank: tuple[int, ...]
    scanned: tuple[int, ...]
    garbage: tuple[int, ...]  # unusable by status or by measured text
    issues: tuple[Issue, ...]


def is_bad_char(char: str) -> bool:
    """NUL and other controls, U+FFFD, or a private-use code point (a glyph with no meaning)."""
    code = ord(char)
    if code < 32:
        return char not in "\t\n\r"
    return char == "\ufffd" or 0x7F <= code <= 0x9F or 0xE000 <= code <= 0xF8FF or code >= 0xF0000


def is_latin1_letter(char: str) -> bool:
    """À..ÿ without × and ÷ (punctuation such as the middle dot of "·····" leaders is left out)."""
    return 0xC0 <= ord(char) <= 0xFF and char not in "×÷"


def mojibake_share(text: str) -> float:
    """Share of visible characters that are Latin-1 letters: text decoded from another encoding
    ("ÏýÖÿ"). French or German text has a few percent; mojibake has most."""
    visible = len(text) - count_whitespace(text)
    if visible < GARBAGE_MIN_CHARS or text.isascii():
        return 0.0
    return len(LATIN1_LETTER.findall(text)) / visible


def garbage_share(text: str) -> tuple[float, int]:
    """(share of bad glyphs among visible characters, visible count); `(cid:N)` is one glyph."""
    return unusable_share(text)


def spaced_cjk_share(text: str) -> float:
    """Share of CJK characters followed by ' ' and another CJK character (0 below the minimum)."""
    cjk = 0 if text.isascii() else len(CJK_CHAR.findall(text))
    if cjk < SPACED_CJK_MIN_CHARS:
        return 0.0
    return len(SPACED_CJK.findall(text)) / cjk


def alnum_count(text: str, enough: float | None = None) -> int:
    """Letters and digits of `text` outside `(cid:N)` runs (which would count their letters),
    counted by runs; with `enough`, counting stops once there are that many."""
    rest = CID.sub("", text) if "(cid:" in text else text
    if enough is None:
        return sum(map(len, ALNUM_RUN.findall(rest)))
    found = 0
    for run in ALNUM_RUN.finditer(rest):
        found += run.end() - run.start()
        if found >= enough:
            break
    return found


def check_pages(
    scan: ScannedMarkdown,
    statuses: Mapping[int, PageStatus],
    options: CheckOptions,
    page_shares: Mapping[int, float] | None = None,
    content_pages: frozenset[int] | None = None,
) -> PageFindings:
    """Page issues from statuses (convert's verdicts) and from the text of each page.

    `content_pages`, when the PDF was converted here or convert's boxes trailer lists them, are
    the pages on which convert found text that is not a running head or page number (so a page
    of furniture alone is not missing text: it is no defect of the conversion).

    `page_shares` gives each page's area as a share of an A4 page (capped at 1; unknown = 1), so
    that a one-line banner page is not expected to hold a page's worth of text.
    """
    blank = pages_with(statuses, PageStatus.BLANK)
    scanned = pages_with(statuses, PageStatus.IMAGE_ONLY)
    marked_garbage = pages_with(statuses, PageStatus.GARBAGE)
    damaged = pages_with(statuses, PageStatus.DAMAGED)
    units = text_units(scan)
    measured, measured_pages = measured_garbage(units, set(marked_garbage), options)
    # Blank pages are empty on purpose (separators); scanned ones still owe their text.
    shares = page_shares or {}
    owing = [p for p in statuses if p not in blank]
    a4_pages = sum(shares.get(p, 1.0) for p in owing) if statuses else 1.0
    issues = [
        *([garbage_status_issue(marked_garbage)] if marked_garbage else []),
        *([damaged_issue(damaged)] if damaged else []),
        *measured,
        *scanned_issues(scanned, statuses),
        *([blank_issue(blank)] if blank else []),
        *near_empty_issues(units, statuses, measured_pages | carried_by_table(scan, statuses)),
        *missing_text_issues(units, statuses, carried_by_table(scan, statuses), content_pages),
        *almost_empty(units, max(len(owing), 1), a4_pages, options),
    ]
    garbage = sorted(set(marked_garbage) | measured_pages)
    return PageFindings(blank, scanned, tuple(garbage), tuple(issues))


def pages_with(statuses: Mapping[int, PageStatus], status: PageStatus) -> tuple[int, ...]:
    return tuple(page for page, found in statuses.items() if found == status)


def scanned_issues(scanned: tuple[int, ...], statuses: Mapping[int, PageStatus]) -> list[Issue]:
    """A warning for pages that need OCR; a note for a cover picture."""
    covers = cover_pages(scanned, statuses)
    inner = tuple(p for p in scanned if p not in covers)
    return [
        *([scanned_issue(inner, len(statuses))] if inner else []),
        *([cover_issue(covers)] if covers else []),
    ]


def garbage_status_issue(pages: tuple[int, ...]) -> Issue:
    return Issue(
        "pages.garbage",
        Severity.FAIL,
        f"unusable text layer on {pages_phrase(pages)} (glyphs without Unicode meaning): "
        "treat as scanned and OCR them",
        page=pages[0],
    )


def damaged_issue(pages: tuple[int, ...]) -> Issue:
    return Issue(
        "pages.damaged",
        Severity.WARN,
        f"damaged {pages_phrase(pages)}: MuPDF could not read all of it, content may be missing "
        "(re-export or repair the PDF)",
        page=pages[0],
    )


@dataclass(frozen=True, slots=True)
class TextUnit:
    """A page's text, or (without page markers) a window of about a page's worth of lines."""

    page: int | None
    first_line: int
    last_line: int
    text: str

    @property
    def name(self) -> str:
        if self.page is not None:
            return f"page {self.page}"
        if self.first_line == self.last_line:
            return f"line {self.first_line}"
        return f"lines {self.first_line}-{self.last_line}"


def text_units(scan: ScannedMarkdown) -> list[TextUnit]:
    """Pages when the Markdown has page markers, else windows of WINDOW_CHARS characters: each
    the run of consecutive lines of one page, or lines up to the first that fills a window."""
    lines = scan.lines
    texts = lines.texts()  # (each line's record is not needed: its text, and two numbers a unit)
    if scan.markers:
        pages = lines.pages()
        bounds = page_runs(lines, pages)
    else:
        pages, bounds = [None] * len(lines), window_bounds(texts)
    rows = lines.rows  # (line number = row + 1)
    return [
        TextUnit(pages[start], rows[start] + 1, rows[end - 1] + 1, "\n".join(texts[start:end]))
        for start, end in bounds
    ]


def page_runs(lines: LineView, pages: Sequence[int | None]) -> list[tuple[int, int]]:
    """[start, end) of each run of consecutive lines on one page (`pages`: the lines')."""
    bounds: list[tuple[int, int]] = []
    for start, end in lines.marker_runs():
        if bounds and pages[bounds[-1][0]] == pages[start]:  # (a page marked twice)
            start = bounds.pop()[0]
        bounds.append((start, end))
    return bounds


def window_bounds(texts: Sequence[str]) -> list[tuple[int, int]]:
    """[start, end) of each window: it ends with the first line that brings it to WINDOW_CHARS
    characters (found by bisection on the running total, not a step per line)."""
    totals = array("q", itertools.accumulate(map(len, texts)))  # (a list: 40 bytes a line)
    bounds: list[tuple[int, int]] = []
    start = 0
    while start < len(texts):
        before = totals[start - 1] if start else 0
        end = bisect.bisect_left(totals, before + WINDOW_CHARS, lo=start) + 1
        end = min(end, len(texts))
        bounds.append((start, end))
        start = end
    return bounds


def measured_garbage(
    units: Sequence[TextUnit], skip: set[int], options: CheckOptions
) -> tuple[list[Issue], set[int]]:
    """One issue per kind of garbage (bad glyphs, mojibake, spaced CJK) naming where it is, and
    the pages found."""
    by_kind: dict[str, list[tuple[TextUnit, str]]] = defaultdict(list)
    for unit in units:
        if unit.page not in skip:
            finding = garbage_kind(unit.text, options)
            if finding is not None:
                by_kind[finding[0]].append((unit, finding[1]))
    issues = [garbage_issue(kind, found) for kind, found in by_kind.items()]
    pages = {u.page for found in by_kind.values() for u, _ in found if u.page is not None}
    return issues, pages


def garbage_kind(text: str, options: CheckOptions) -> tuple[str, str] | None:
    """(kind, what was measured) for garbage text; None for usable text."""
    if len(text) < GARBAGE_MIN_CHARS:  # fewer visible characters still (a page of a few words)
        return None
    share, visible = garbage_share(text)
    if visible < GARBAGE_MIN_CHARS:
        return None
    if share >= options.garbage_share:
        return "glyphs", f"{share:.0%} of {visible} characters"
    latin1 = mojibake_share(text)
    if latin1 >= MOJIBAKE_SHARE:
        return "mojibake", f"{latin1:.0%} of {visible} characters"
    if spaced_cjk_share(text) >= SPACED_CJK_SHARE:
        return "spaced", f"{spaced_cjk_share(text):.0%} of CJK characters"
    return None


GARBAGE_WORDING = {
    "glyphs": (
        "text.garbage",
        "are NUL, U+FFFD, (cid:N) or private-use glyphs: the text layer is unusable (OCR it)",
    ),
    "mojibake": (
        "text.garbage",
        "are Latin-1 letters: mojibake from a broken font encoding (OCR it)",
    ),
    "spaced": (
        "text.spaced-cjk",
        "are followed by a space: CJK text spaced between every character will not match a query",
    ),
}


def garbage_issue(kind: str, found: list[tuple[TextUnit, str]]) -> Issue:
    """'pages 18-19 (page 18: 11% of 1340 characters) are NUL, ...' for one kind of garbage."""
    code, verdict = GARBAGE_WORDING[kind]
    first, measured = found[0]
    pages = [unit.page for unit, _ in found if unit.page is not None]
    where = pages_phrase(pages) if pages else examples([unit.name for unit, _ in found])
    detail = f"{where}: {measured}" if len(found) == 1 else f"{where} ({first.name}: {measured})"
    example = f", e.g. {quote(sample_of_latin1(first.text), 16)}" if kind == "mojibake" else ""
    return Issue(
        code,
        Severity.FAIL,
        f"{detail} {verdict}{example}",
        line=first.first_line,
        page=first.page,
    )


def sample_of_latin1(text: str) -> str:
    return "".join(char for char in text if is_latin1_letter(char))[:12]


def scanned_issue(pages: tuple[int, ...], total: int) -> Issue:
    return Issue(
        "pages.scanned",
        Severity.WARN,
        f"{len(pages)} of {total} pages have no text layer (scanned or pictures), "
        f"their content is missing until OCR: {pages_phrase(pages)}",
        page=pages[0],
    )


def carried_by_table(scan: ScannedMarkdown, statuses: Mapping[int, PageStatus]) -> set[int]:
    """Empty text pages after a page that ends in a table: convert moved their rows up into it."""
    if not statuses:
        return set()
    lines = scan.lines  # (each page's last line is the last of one of its runs)
    last_kind = {lines.page(end - 1): lines.kind(end - 1) for _, end in lines.marker_runs()}
    carried: set[int] = set()
    previous = None
    for page in sorted(statuses):
        if page in last_kind:
            previous = last_kind[page]
        elif statuses[page] == PageStatus.TEXT and previous == LineKind.TABLE:
            carried.add(page)
    return carried


def near_empty_issues(
    units: Sequence[TextUnit], statuses: Mapping[int, PageStatus], skip: set[int]
) -> list[Issue]:
    """A note naming text pages with hardly any letters (a figure page, a section divider);
    pages in `skip` (garbage, or emptied into a continued table) are left out."""
    wanted = {p for p, status in statuses.items() if status == PageStatus.TEXT and p not in skip}
    letters: dict[int, int] = defaultdict(int)  # up to NEAR_EMPTY_CHARS: enough to judge
    for unit in units:
        if unit.page in wanted and letters[unit.page] < NEAR_EMPTY_CHARS:
            letters[unit.page] += alnum_count(unit.text, NEAR_EMPTY_CHARS)
    near_empty = [page for page in statuses if page in wanted and letters[page] < NEAR_EMPTY_CHARS]
    if not near_empty:
        return []
    return [
        Issue(
            "pages.near-empty",
            Severity.OK,
            f"{pages_phrase(near_empty)} with fewer than {NEAR_EMPTY_CHARS} letters and digits "
            "(figures or dividers? their content is not in the text)",
            page=near_empty[0],
        )
    ]


def missing_text_issues(
    units: Sequence[TextUnit],
    statuses: Mapping[int, PageStatus],
    skip: set[int],
    content_pages: frozenset[int] | None,
) -> list[Issue]:
    """A warning naming text pages with nothing at all under their marker although a
    neighbouring page has text (without the PDF or convert's boxes trailer) or convert found
    text on them (with either): the
    page's text was lost between the PDF and this Markdown. Pages in `skip` (emptied into a
    table continued from the page before) are left out."""
    with_text = {unit.page for unit in units if unit.page is not None and unit.text.strip()}
    order = sorted(statuses)
    missing = []
    for k, page in enumerate(order):
        if statuses[page] != PageStatus.TEXT or page in with_text or page in skip:
            continue
        if content_pages is not None:
            if page in content_pages:
                missing.append(page)
        elif any(0 <= j < len(order) and order[j] in with_text for j in (k - 1, k + 1)):
            missing.append(page)
    if not missing:
        return []
    return [
        Issue(
            "pages.missing-text",
            Severity.WARN,
            f"nothing under the marker of text {pages_phrase(missing)}: their text is missing "
            "(cut out, or lost by the tool that wrote this Markdown)",
            page=missing[0],
        )
    ]


def cover_pages(scanned: tuple[int, ...], statuses: Mapping[int, PageStatus]) -> tuple[int, ...]:
    """First/last pages without text whose neighbour has text: a cover picture, not a scan."""
    if len(statuses) < COVER_MIN_PAGES:
        return ()
    numbers = sorted(statuses)
    ends = ((numbers[0], numbers[1]), (numbers[-1], numbers[-2]))
    return tuple(
        end for end, neighbour in ends if end in scanned and statuses[neighbour] == PageStatus.TEXT
    )


def cover_issue(pages: tuple[int, ...]) -> Issue:
    return Issue(
        "pages.image-cover",
        Severity.OK,
        f"{pages_phrase(pages)} without a text layer at the start or end of the document "
        "(a cover or back picture; OCR it if it holds text)",
        page=pages[0],
    )


def blank_issue(pages: tuple[int, ...]) -> Issue:
    return Issue(
        "pages.blank",
        Severity.OK,
        f"{pages_phrase(pages)} {'is' if len(pages) == 1 else 'are'} blank "
        "(nothing to index; fine when deliberate)",
        page=pages[0],
    )


def almost_empty(
    units: Sequence[TextUnit], page_count: int, a4_pages: float, options: CheckOptions
) -> list[Issue]:
    """Fail when the letters and digits fall short of min_chars_per_page per A4 page's worth."""
    # Counted unit by unit until there are enough (a list of every character was 8 objects a
    # byte; the whole text of a document without markers was one unit).
    needed = options.min_chars_per_page * a4_pages
    chars = 0
    for unit in units:
        chars += alnum_count(unit.text)
        if chars >= needed:
            return []
    over = f" over {page_count} pages" if page_count > 1 else ""
    return [
        Issue(
            "document.almost-empty",
            Severity.FAIL,
            f"almost no text: {chars} letters and digits{over} "
            f"(expected at least {options.min_chars_per_page} a page)",
        )
    ]

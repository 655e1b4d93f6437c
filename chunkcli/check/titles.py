"""Title and heading path -> Issues: a title that is no title, a heading that is only a label.

The title (first H1) and the heading path prefix every chunk, so a bad one spoils every chunk's
embedding: a page number, a URL or a "Downloaded from" stamp promoted to H1 fails the document.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from chunkcli.charclasses import CJK_LETTER_RE
from chunkcli.check.scan import Heading, ScannedMarkdown
from chunkcli.check.wording import quote, where
from chunkcli.model import Chunk, Issue, Severity

# A title needs at least this many letters: "12 %", "IV" or "3.1" name nothing ...
TITLE_MIN_LETTERS = 3
# ... or this many CJK/Hangul characters, each about a syllable or a word: 目次, 목차, 文書 are
# real titles (found by the Korean table-of-contents and Japanese tests).
TITLE_MIN_CJK = 2
# Stamps and links that PDF viewers, repositories and print drivers put at the top of a page.
NOT_A_TITLE = re.compile(r"^\s*(?:https?://|www\.|source\s*:|downloaded\s+from\b)", re.I)
# A sentence fragment: Latin text whose first word is all lower case ("of the committee on"; a
# title starts with a capital, and names like "iPhone" or "arXiv" have one inside), or that ends
# in a word or mark that leads on to more (a preposition, article, conjunction, comma, hyphen).
FRAGMENT_START = re.compile(r"^[a-z]+\b(?![-.]?[A-Z])")
FRAGMENT_END = re.compile(
    r"(?:[,\-–&]|\b(?:of|the|and|or|to|in|for|with|on|a|an|by|from|at|as|that|which|is|are))$",
    re.I,
)
# A heading in the path of at least this share of the chunks (and of this many chunks) frames
# the document; below that count a short document proves nothing.
HOLLOW_PATH_SHARE = 0.6
HOLLOW_MIN_CHUNKS = 5
# ... and with fewer characters of its own text than this (up to the next heading) is a label
# (a list fragment promoted to H2), not a section.
HOLLOW_MAX_OWN_CHARS = 20


def check_titles(scan: ScannedMarkdown, chunks: Sequence[Chunk]) -> list[Issue]:
    """The title's defects (fail) and hollow headings over most chunks (warn)."""
    first_h1 = scan.headings.levels.find(1)
    title = scan.headings[first_h1] if first_h1 >= 0 else None
    issues = [] if title is None else bad_title(title)
    issues.extend(hollow_headings(scan, chunks, title))
    return issues


def title_defect(text: str) -> str | None:
    """Why `text` cannot be a document title, or None."""
    if any(ch == "\ufffd" or unicodedata.category(ch) == "Cc" for ch in text):
        return "holds U+FFFD or control characters"
    if NOT_A_TITLE.match(text):
        return "is a URL or a source stamp"
    if FRAGMENT_START.match(text.strip()) or FRAGMENT_END.search(text.strip()):
        return "is a sentence fragment (starts in lower case or ends mid-phrase)"
    cjk = len(CJK_LETTER_RE.findall(text))
    if cjk < TITLE_MIN_CJK and sum(1 for ch in text if ch.isalpha()) < TITLE_MIN_LETTERS:
        return f"has fewer than {TITLE_MIN_LETTERS} letters (a number or percentage?)"
    return None


def bad_title(title: Heading) -> list[Issue]:
    reason = title_defect(title.text)
    if reason is None:
        return []
    return [
        Issue(
            "headings.bad-title",
            Severity.FAIL,
            f"title {quote(title.text)} at {where(title.line, title.page)} {reason}: "
            "it prefixes every chunk",
            line=title.line,
            page=title.page,
        )
    ]


def own_text_chars(scan: ScannedMarkdown, k: int) -> int:
    """Characters of text between heading k and the next heading (counted for the headings
    a check asks about only: counting it for every heading took a tenth of check's time on
    documents made of headings)."""
    rows = scan.heading_rows
    stop = rows[k + 1] if k + 1 < len(rows) else len(scan.lines)
    return sum(len(line.text.strip()) for line in scan.lines[rows[k] + 1 : stop])


def path_counts(chunks: Sequence[Chunk]) -> Counter[str]:
    """How many chunks have each heading text in their path (once per chunk)."""
    return Counter(name for chunk in chunks for name in set(chunk.heading_path))


def hollow_headings(
    scan: ScannedMarkdown, chunks: Sequence[Chunk], title: Heading | None
) -> list[Issue]:
    if len(chunks) < HOLLOW_MIN_CHUNKS or not scan.headings:
        return []
    in_paths = path_counts(chunks)
    if not any(count / len(chunks) >= HOLLOW_PATH_SHARE for count in in_paths.values()):
        return []  # (no heading is in enough paths: nothing below can be reported)
    issues: list[Issue] = []
    reported: set[str] = set()  # one issue per heading text: its share is the same for all
    headings = scan.headings
    for row, text in enumerate(headings.texts):  # (a record only for a heading in many paths)
        if not text or text in reported:
            continue
        share = in_paths[text] / len(chunks)
        if share < HOLLOW_PATH_SHARE:
            continue
        heading = headings[row]
        if title is not None and heading.number == title.number:
            continue
        if own_text_chars(scan, row) >= HOLLOW_MAX_OWN_CHARS:
            continue
        issues.append(
            Issue(
                "headings.hollow",
                Severity.WARN,
                f"heading {quote(heading.text)} at {where(heading.line, heading.page)} is in the "
                f"path of {share:.0%} of the chunks but has almost no text of its own "
                "(a fragment promoted to a heading?)",
                line=heading.line,
                page=heading.page,
            )
        )
        reported.add(heading.text)
    return issues

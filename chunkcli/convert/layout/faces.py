"""Type faces: which face the body text is set in, and which lines stand apart from it.

Japanese documents mark headings with a face, not a weight: a Gothic (sans) heading over
Mincho (serif) text, both reported as regular (cloud_policy_20210910.pdf: "１.１ 背景と目的"
in ＭＳ ゴシック over ＭＳ 明朝 at the same 12 pt). A line in another face than the body's is
emphasised just as a bold one is.
"""

from __future__ import annotations

import functools
import operator
import re
from collections import Counter

from chunkcli.charclasses import KANA_HAN_RE
from chunkcli.model import Document, Line

# A subset font's name starts with six capitals and a plus ("ABCDEF+MS-Gothic").
_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")


# A line is set in one face when that face carries at least this share of its visible
# characters: a Japanese line with a word in a Latin face is still a Mincho line, but a line
# that is half Latin face is no evidence of a change of face.
ONE_FACE_SHARE = 0.8
# A line in capitals holds at least this many of them: a word, not a list's "A." or "II" ...
MIN_CAPITALS = 4
# ... and they are at least this share of its visible characters: words, not a reference's
# "5719–5728. PMLR." (DP-Bench 01030000000193: its page numbers in another face).
CAPITALS_SHARE = 0.5


def face_name(line: Line) -> str:
    """The font carrying most of the line's visible characters, without a subset prefix."""
    return _face_and_share(line)[0]


def _face_and_share(line: Line) -> tuple[str, float]:
    if len(line.spans) == 1:  # most lines: no tally
        span = line.spans[0]
        # (str.isspace is what strip() removes: no stripped copy is made)
        return (_face(span.font), 1.0) if span.text and not span.text.isspace() else ("", 0.0)
    weights: dict[str, int] = {}  # (a plain dict: a Counter costs more than the tally here)
    for span in line.spans:
        weights[span.font] = weights.get(span.font, 0) + len(span.text.strip())
    total = sum(weights.values())
    if not total:
        return "", 0.0
    # The first font of the largest weight, as Counter.most_common(1) picks it.
    font, count = max(weights.items(), key=operator.itemgetter(1))
    return _face(font), count / total


@functools.lru_cache(maxsize=1024)  # asked for most lines; a document uses a few dozen fonts
def _face(font: str) -> str:
    """A font's name without its subset prefix."""
    return _SUBSET_PREFIX.sub("", font)


def face_changes(last: Line, line: Line) -> bool:
    """Two lines, each set in one face, in different faces, that a paragraph does not run
    across: a Japanese or Chinese line and the next (a Gothic heading above Mincho text, at the
    same size and weight: cloud_policy_20210910.pdf), or a line in capitals and one in lower
    case (a section heading in the capitals of a sans face over serif text, at nearly the body
    size: olmocr-multi_column_miss.pdf's "CORPORATE SOCIAL RESPONSIBILITY: THE CONTEXT" ran
    into its first paragraph)."""
    cjk = _has_kana_han(last.text) and _has_kana_han(line.text)
    if not cjk and in_capitals(last) == in_capitals(line):
        return False
    (face_a, share_a), (face_b, share_b) = _face_and_share(last), _face_and_share(line)
    return min(share_a, share_b) >= ONE_FACE_SHARE and bool(face_a) and face_a != face_b


def _has_kana_han(text: str) -> bool:
    """`text` holds kana or a Han ideograph (KANA_HAN_RE), none of which is ASCII: ASCII text,
    which Python knows to be ASCII without a look, is not searched (this runs twice for each
    pair of lines a paragraph may join)."""
    return not text.isascii() and KANA_HAN_RE.search(text) is not None


def in_capitals(line: Line) -> bool:
    """A line of words in capitals, not code (an identifier in a monospace face)."""
    # (the text asked first: most lines hold a lower-case letter near their start)
    return capitals_only(line.text) and not any(span.monospace for span in line.spans)


def capitals_only(text: str) -> bool:
    """The letters that have a case are all capitals, and there are enough of them to be
    words ("CONTEXT", not the "A" of a list or "II")."""
    # (map over str methods: no Python frame per character; this runs twice a line pair)
    if any(map(str.islower, text)):
        return False
    capitals = sum(map(str.isupper, text))
    visible = len(text) - text.count(" ")
    return capitals >= MIN_CAPITALS and capitals >= CAPITALS_SHARE * visible


def body_face(document: Document, body_size: float) -> str:
    """The face carrying the most characters among lines at the body size ("" with none)."""
    weights: Counter[str] = Counter()
    for page in document.pages:
        for block in page.blocks:
            for line in block.lines:
                if round(line.size * 2) / 2 == body_size:
                    weights[face_name(line)] += len(line.text)
    return weights.most_common(1)[0][0] if weights else ""


def set_apart(line: Line, body: str) -> bool:
    """The line is bold, or set in a named face other than the body's."""
    if line.bold:
        return True
    face = face_name(line)
    return bool(body) and bool(face) and face != body

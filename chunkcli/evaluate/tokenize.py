"""Text -> BM25 terms, for Latin scripts, Japanese and Korean alike, without a dictionary.

NFKC first (full-width Ｐｙｔｈｏｎ and half-width ｶﾀｶﾅ become the ordinary forms), then lower
case. A run of letters and digits in a script that separates words with spaces is one term
("ps", "100" for "PS-100"). A run of kana/kanji or of Hangul becomes its overlapping character
bigrams ("個人情報" -> "個人", "人情", "情報"): Japanese has no spaces between words, and Korean
glues particles to words ("정보는", "정보를"), so a word-level term would rarely match; bigrams
are what Lucene's CJKAnalyzer does and need no model. A run of one character is one term.
Punctuation and symbols are dropped.
"""

from __future__ import annotations

import re
import unicodedata

from chunkcli.charclasses import HANGUL_CLASS, KANA_HAN_CLASS

# Kana and kanji (with the iteration marks 々〆) and Hangul, from the one home of script ranges.
# The katakana middle dot ・ is in the kana block but separates words (ジョン・スミス): a space.
_KANA_KANJI = KANA_HAN_CLASS + "\u3005\u3006"
_HANGUL = HANGUL_CLASS
_MIDDLE_DOT = "\u30fb"
_TERM_RUN = re.compile(rf"[{_KANA_KANJI}]+|[{_HANGUL}]+|[^\W_{_KANA_KANJI}{_HANGUL}]+")
_BIGRAM_RUN = re.compile(rf"[{_KANA_KANJI}{_HANGUL}]")


def tokenize(text: str) -> list[str]:
    """The BM25 terms of `text`, in order (repeats kept: BM25 counts them)."""
    terms: list[str] = []
    normalized = unicodedata.normalize("NFKC", text).lower().replace(_MIDDLE_DOT, " ")
    for run in _TERM_RUN.findall(normalized):
        if len(run) > 1 and _BIGRAM_RUN.match(run):
            terms.extend(run[i : i + 2] for i in range(len(run) - 1))
        else:
            terms.append(run)
    return terms

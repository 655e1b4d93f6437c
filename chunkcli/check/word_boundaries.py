"""Text lines -> Issues: Korean words glued together, English words left hyphenated.

Both break the tokens a retriever matches on: a 20-syllable Hangul run is no word anyone
searches for, and `ex-periment` is not `experiment`. Spaced CJK (the opposite) is in pages.py.
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from chunkcli.charclasses import HANGUL_SYLLABLE_CLASS
from chunkcli.check.options import FindingLimits
from chunkcli.check.scan import LineKind, LineView, ScannedMarkdown, TextLine
from chunkcli.check.wording import examples, pages_phrase, quote
from chunkcli.model import Issue, Severity

# Korean words (with their particles) are rarely longer than about 8 syllables; a run of this
# many without a space is several words glued together ...
# (Syllables only: the compatibility jamo "ㆍ" is the Korean interpunct of word lists,
# 심각도ㆍ전파력ㆍ격리수준ㆍ신고시기 in docling-normal_4pages.pdf, a clean list, not a run.)
# A comma or full stop with no space after it does not part words either ("대학등록금,대중교통,
# 택시" is four words glued): the syllables on both sides count as one run.
# One such run is enough (a glued sentence). Evidence, the Hangul runs of the clean conversions
# of ../shared/corpus and DP-Bench (2026-12-03): the longest compound nouns hold 10-14 syllables
# (중증급성호흡기증후군 10, 지방탄소중립녹색성장위원회를 14); every run of 15+ is words glued in
# the PDF's own text layer (헌법재판소장으로부터헌법소원심판 16, 추정가격의상당가격해당입찰가격 15,
# a novel's line of 27 in a font test), none a single word.
GLUED_HANGUL_RUN = re.compile(f"[{HANGUL_SYLLABLE_CLASS}](?:[,.]?[{HANGUL_SYLLABLE_CLASS}]){{14,}}")
# A shorter run (from this many syllables) is glued when it holds GLUED_MIN_WORDS words or more
# by the document's own spacing (HangulSpacing.words_in): a glued sentence of short words
# ("밀폐공간으로유입을방지할것", 13) is as long as a long compound noun, but has word ends inside.
GLUED_CANDIDATE_MIN = 8
GLUED_HANGUL_CANDIDATE = re.compile(
    f"[{HANGUL_SYLLABLE_CLASS}](?:[,.]?[{HANGUL_SYLLABLE_CLASS}]){{{GLUED_CANDIDATE_MIN - 1},}}"
)
HANGUL_WORD = re.compile(f"[{HANGUL_SYLLABLE_CLASS}]+")
# (A comma or stop inside a shorter run parts it here: "현기증,구토,두통등을" is a list that any
# tokenizer splits at its commas, no run of glued words.)
LONG_HANGUL_WORD = re.compile(f"[{HANGUL_SYLLABLE_CLASS}]{{{GLUED_CANDIDATE_MIN},}}")
# Four words: the clean Korean conversions of ../shared/corpus (the documents not already failed
# for 15+ runs) hold runs of 8-14 syllables of at most 3.63 words (급성흡입독성시험결과 3.63,
# 한국표준질병사인분류 3.33, 지방탄소중립녹색성장위원회를 3.30); the sentences of 12-14 syllables
# glued by the harness (bench/check_harness.py, seeds 1-20) hold 4.17-5.23 (but see below).
GLUED_MIN_WORDS = 4.0
# A syllable's word-end (word-start) share is drawn towards this share of the document's mean
# rate, as if seen this many more times: one seen once or never says little, and what the
# document does not show ending words is taken as inside one. Word ends must be the document's
# own evidence: with the mean itself (1.0), a short notice's agency name 한국소프트웨어산업협회
# (11 syllables, nothing else to go by) held 4.06 words, a 14-syllable compound beside one
# sentence 4.9; with half, 2.61 and 3.18, while the glued sentences of the harness keep 4.17+
# (all but one: pdfjs-bug1627427, a one-line font test whose seven other words show no word
# ends of the run: 3.05, missed below 15 syllables).
SPACING_PRIOR_SHARE = 0.5
SPACING_PRIOR_WEIGHT = 2.0
# A document's mean word length is drawn towards Korean's own, as if it had this many more
# words of that length: a short document says little of its spacing (a table of 25 words, half
# of them letter-spaced "현 행", "개 정 안", has a mean of 1.9 syllables, which would make the
# compound 탄소중립녹색성장 four words). 3 syllables: the clean Korean conversions of the corpus
# have 2.74-3.45 (docling-normal_4pages 3.08, 국회회의록 3.45, 덕신 2.80).
KOREAN_WORD_SYLLABLES = 3.0
SPACING_PRIOR_WORDS = 20
# A two-part hyphenated word (not inside a longer chain such as state-of-the-art).
HYPHENATED = re.compile(r"(?<![-\w])([A-Za-z]{2,})-([a-z]{2,})(?![-\w])")
# Kept line-end hyphen, decided per occurrence with wordfreq's English list (Zipf scale): the
# joined form is a word (as convert decides when it joins lines: chunkcli/convert/joining.py) ...
# (2.0, not 3.0 as until 2026-12-04: a rarer joined word whose rarer half is rarer still, by the
# margin below, is broken into fragments: secreta-rial 2.72 (secreta 1.74), regi-mens 2.76
# (regi 2.45); no form of the clean corpus and DP-Bench conversions newly judged kept.)
JOINED_WORD_MIN_ZIPF = 2.0
# ... and more common than the rarer half by this margin: a compound's halves are words as
# common as the joined spelling (web-site +0.35, e-mail -0.04, on-line -0.30, co-operate -0.71,
# non-linear -0.85), a broken word's are fragments (de-fined +0.86, import-ant +1.58,
# experi-ment +2.38, infor-mation +3.90). Measured with wordfreq "large", 2026-12-03.
JOINED_MARGIN_ZIPF = 0.5
# A rarer joined word counts too when a half is no word at all (not in the list): borrowi-ngs
# (borrowings 2.77), pneumoco-ccal (2.24); compounds' halves are words or prefixes that the list
# holds (pre, bio, non, co, x). Joined forms below this are unknown: no evidence either way.
RARE_JOINED_MIN_ZIPF = 1.0
WORD_LIST = "large"  # "small" lacks encoder, ple, tokenization
# A right half that is a suffix English never sets apart with a hyphen: the word was broken
# before its ending (kind-ness, time-less, reinforce-ment, tinker-ing), whatever the halves'
# frequencies say ("ness" 3.6 and "less" 5.5 are words of the list too).
UNHYPHENATED_SUFFIXES = frozenset(
    "ness less ment ments ly ity ities tion tions sion sions ing ings ous ive ible ance ence"
    " ism".split()
)
# A hyphenated form whose joined spelling is a common word but whose halves are words as common
# (some-what, sum-mary, per-sons, con-sent: a word broken into two words; well-being, set-up,
# e-mail: a compound) cannot be told by the list alone. In a paragraph where another form is
# surely a kept line-end hyphen it is taken as one too: a converter that kept one line end's
# hyphen kept every line end's of that paragraph (harness seeds 1-20: a case of two forms, one
# of them such a pair of words, was most of the kept-hyphens misses).
AMBIGUOUS_JOINED_MIN_ZIPF = 3.0
# Kangxi radicals and the CJK radicals supplement: look-alikes of ideographs that some fonts map
# their glyphs to ("⽤" for "用"); a reader types, and a retriever matches, the ideograph.
# (convert folds them: chunkcli.charclasses.fold_ideograph_variants.) One in a line of text
# is enough: next to a letter or a digit ("使⽤", "11⽉4⽇"), and also set apart by spaces or
# brackets, as OCR and spaced text write them ("平成 29 年 1 ⽉ 20 ⽇", "(⼀) 総則"), or alone on
# its line ("⼆" as a section number). Only a line of radicals and nothing else, two or more (a
# radical table's row, "⼀ ⼁ ⼂"), passes. (Until 2026-12-04 one had to touch a letter or digit:
# kangxi misses of the harness at seeds 4-8, a line of OCR'd or spaced text each.)
RADICAL = "[\u2e80-\u2eff\u2f00-\u2fdf]"
RADICALS = re.compile(RADICAL)
WORD_CHARACTER = re.compile(r"\w")
PROSE_KINDS = (LineKind.PARAGRAPH, LineKind.LIST, LineKind.HEADING, LineKind.TABLE)


def check_word_boundaries(
    scan: ScannedMarkdown, limits: FindingLimits = FindingLimits()
) -> list[Issue]:
    # Each line's text is a part of a Markdown line between non-word characters (or such parts
    # joined by spaces), so a run or form in a line is in the Markdown too: without one there
    # (or with too few distinct forms), no line needs reading.
    if scan.text.isascii():
        glued = radicals = False
    else:
        glued = bool(GLUED_HANGUL_CANDIDATE.search(scan.text))
        radicals = bool(RADICALS.search(scan.text))
    hyphenated = distinct_matches(HYPHENATED, scan.text, limits.hyphenated_min)
    if not (glued or hyphenated or radicals):
        return []
    prose = scan.lines.only(PROSE_KINDS)
    return (
        (glued_hangul(prose) if glued else [])
        + (hyphenated_words(prose, limits) if hyphenated else [])
        + (radical_letters(prose) if radicals else [])
    )


def radical_letters(lines: LineView) -> list[Issue]:
    """Kangxi radicals (and supplement radicals) written inside CJK text, among `lines`."""
    found: list[tuple[TextLine, str]] = []
    for line in lines:
        radicals = RADICALS.findall(line.text)
        if radicals and (len(radicals) == 1 or WORD_CHARACTER.search(line.text)):
            found.append((line, radicals[0]))
    if not found:
        return []
    first = found[0][0]
    shown = [f"{quote(char)} (U+{ord(char):04X}, line {line.number})" for line, char in found]
    return [
        Issue(
            "text.ideograph-variants",
            Severity.WARN,
            f"Kangxi radicals instead of ideographs on {len(found)} line(s) (a font's glyph "
            f"mapping; searches for the ideograph miss them): {examples(shown)}",
            line=first.number,
            page=first.page,
        )
    ]


def distinct_matches(pattern: re.Pattern[str], text: str, wanted: int) -> bool:
    """Whether `pattern` matches at least `wanted` distinct strings in `text`."""
    seen: set[str] = set()
    for match in pattern.finditer(text):
        seen.add(match.group(0))
        if len(seen) >= wanted:
            return True
    return len(seen) >= wanted


@dataclass(frozen=True, slots=True)
class HangulSpacing:
    """How a document spaces its Korean: its Hangul words (runs between spaces and marks) and,
    per syllable, how often it stands at all, ends a word, starts one."""

    words: Counter[str]
    syllables: Counter[str]
    ends: Counter[str]
    starts: Counter[str]

    @classmethod
    def of(cls, text: str) -> HangulSpacing:
        found = HANGUL_WORD.findall(text)
        return cls(
            Counter(found),
            Counter("".join(found)),
            Counter(word[-1] for word in found),
            Counter(word[0] for word in found),
        )

    def words_in(self, word: str) -> float:
        """How many words the Hangul run `word` holds by the document's spacing without its
        own occurrences: the geometric mean of two counts, its syllables over the document's
        mean word length (see SPACING_PRIOR_WORDS), and one plus the word ends expected
        between its syllables, each judged by the share of the syllable before that ends words
        and of the one after that starts them (a naive Bayes of the two; each share drawn
        towards SPACING_PRIOR_SHARE)."""
        own = self.words[word]
        words = sum(self.words.values()) - own + SPACING_PRIOR_WORDS
        syllables = sum(self.syllables.values()) - own * len(word)
        end_rate = words / (syllables + SPACING_PRIOR_WORDS * KOREAN_WORD_SYLLABLES)
        prior_odds = end_rate / (1 - end_rate)
        weight, unseen = SPACING_PRIOR_WEIGHT, SPACING_PRIOR_SHARE * end_rate
        expected_ends = 0.0
        for before, after in zip(word, word[1:], strict=False):
            ends = self.ends[before] - (own if before == word[-1] else 0)
            starts = self.starts[after] - (own if after == word[0] else 0)
            end_share = (ends + weight * unseen) / (
                self.syllables[before] - own * word.count(before) + weight
            )
            start_share = (starts + weight * unseen) / (
                self.syllables[after] - own * word.count(after) + weight
            )
            odds = end_share / (1 - end_share) * start_share / (1 - start_share) / prior_odds
            expected_ends += odds / (1 + odds)
        return float((len(word) * end_rate * (1 + expected_ends)) ** 0.5)


def glued_hangul(lines: LineView) -> list[Issue]:
    """Pages with Hangul runs that are several words glued, among `lines`: 15+ syllables, or
    GLUED_MIN_WORDS by the document's spacing."""
    texts = lines.texts()
    whole = "\n".join(texts)
    if not GLUED_HANGUL_CANDIDATE.search(whole):
        return []  # (one search of the whole text instead of one per line, mostly)
    spacing: HangulSpacing | None = None
    runs: dict[int | None, list[tuple[int, str]]] = defaultdict(list)  # page -> (position, run)
    for position, line in enumerate(lines):
        for run in GLUED_HANGUL_CANDIDATE.findall(line.text):
            if GLUED_HANGUL_RUN.fullmatch(run):
                runs[line.page].append((position, run))
                continue
            spacing = spacing or HangulSpacing.of(whole)
            for word in LONG_HANGUL_WORD.findall(run):
                if spacing.words_in(word) >= GLUED_MIN_WORDS:
                    runs[line.page].append((position, word))
    if not runs:
        return []
    first_line = lines[min(found[0][0] for found in runs.values())]
    shown = [quote(run, 30) for found in runs.values() for _, run in found]
    pages = [page for page in runs if page is not None]
    on = f" on {pages_phrase(pages)}" if pages else ""
    return [
        Issue(
            "text.glued-words",
            Severity.FAIL,
            f"Korean words glued together{on}: {runs_phrase(sum(map(len, runs.values())))} "
            f"without a space (15+ syllables, or {GLUED_MIN_WORDS:.0f}+ words by the "
            f"document's own spacing; first at line {first_line.number}), e.g. "
            f"{examples(shown)}",
            line=first_line.number,
            page=first_line.page,
        )
    ]


@functools.lru_cache(maxsize=8192)
def zipf(word: str) -> float:
    """wordfreq's English Zipf frequency of a lower-case word (0.0: not in the list); wordfreq
    is imported on first use (its list costs ~0.5 s), by documents with hyphenated words only."""
    import wordfreq

    return float(wordfreq.zipf_frequency(word, "en", wordlist=WORD_LIST))


def hyphen_verdict(left: str, right: str) -> bool | None:
    """Whether `left-right` (lower case) is one word broken at a former line end: True, False,
    or None when the list cannot tell (see AMBIGUOUS_JOINED_MIN_ZIPF)."""
    joined = zipf(left + right)
    rarer_half = min(zipf(left), zipf(right))
    if joined >= JOINED_WORD_MIN_ZIPF and joined - rarer_half >= JOINED_MARGIN_ZIPF:
        return True
    if joined >= RARE_JOINED_MIN_ZIPF and (rarer_half == 0.0 or right in UNHYPHENATED_SUFFIXES):
        return True
    return None if joined >= AMBIGUOUS_JOINED_MIN_ZIPF else False


def is_kept_hyphen(left: str, right: str) -> bool:
    """Whether `left-right` is surely one word broken at a former line end."""
    return hyphen_verdict(left, right) is True


def runs_phrase(count: int) -> str:
    return f"{count} Hangul run" + ("" if count == 1 else "s")


def hyphenated_words(lines: LineView, limits: FindingLimits) -> list[Issue]:
    """Words kept hyphenated at former line ends, each occurrence judged by wordfreq, and in a
    paragraph with a sure one, by the paragraph too."""
    found: dict[str, TextLine] = {}  # form -> its first line
    verdicts: dict[str, bool | None] = {}
    for line in lines:
        if "-" not in line.text:
            continue
        undecided = []
        sure = False
        for match in HYPHENATED.finditer(line.text):
            form = match.group(0)
            if form not in verdicts:
                left, right = match.group(1).casefold(), match.group(2).casefold()
                verdicts[form] = hyphen_verdict(left, right)
            if verdicts[form]:
                found.setdefault(form, line)
                sure = True
            elif verdicts[form] is None:
                undecided.append(form)
        if sure:
            for form in undecided:
                found.setdefault(form, line)
    if len(found) < limits.hyphenated_min:
        return []
    first = min(found.values(), key=lambda line: line.number)
    shown = [f"{quote(form)} (line {line.number})" for form, line in found.items()]
    return [
        Issue(
            "text.hyphenated-words",
            Severity.WARN,
            f"{len(found)} words kept hyphenated at former line ends (the joined word is a "
            f"word and its halves are fragments, or the paragraph holds such a word): "
            f"{examples(shown)}",
            line=first.number,
            page=first.page,
        )
    ]

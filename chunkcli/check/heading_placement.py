"""Headings -> Issues: a heading dropped into the middle of a sentence.

When the text before a heading stops without sentence punctuation and the text after it goes on
in lower case, the heading is a running head or a margin label placed inside a sentence: the
sentence is cut in two chunks, each under a wrong heading path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chunkcli.charclasses import SENTENCE_END_CHARS
from chunkcli.check.reading_order import LIST_MARKER
from chunkcli.check.scan import LineKind, LineView, ScannedMarkdown, TextLine
from chunkcli.check.wording import examples, quote
from chunkcli.model import Issue, Severity

# The text before goes on: it ends in a letter, a comma or a hyphen.
OPEN_END = re.compile(r"[A-Za-z,\-]$")
LOWER_START = re.compile(r"^[a-z]")
# Reported from this many: each one cuts a sentence, so one is already worth a warning.
MID_SENTENCE_MIN = 1


def check_heading_placement(scan: ScannedMarkdown) -> list[Issue]:
    if not scan.headings:
        return []
    found: list[TextLine] = []
    lines = scan.lines
    between_paragraphs = (LineKind.PARAGRAPH, LineKind.HEADING, LineKind.PARAGRAPH)
    for start in lines.find_sequence(between_paragraphs):  # (records only around those)
        before, heading, after = lines[start : start + 3]
        text = before.text.rstrip()
        if text.endswith(SENTENCE_END_CHARS) or not OPEN_END.search(text):
            continue
        if LOWER_START.match(after.text.lstrip()):
            found.append(heading)
    if len(found) < MID_SENTENCE_MIN:
        return []
    shown = [f"{quote(h.text, 40)} (line {h.number})" for h in found]
    return [
        Issue(
            "headings.mid-sentence",
            Severity.WARN,
            f"{len(found)} heading(s) placed in the middle of a sentence (the text before does "
            f"not end it, the text after goes on in lower case): {examples(shown)}",
            line=found[0].number,
            page=found[0].page,
        )
    ]


# --- headings cut from their words, and lines that are no headings ----------------------------

# A heading that is only a section number ("3.2", "IV.", "(a)"), or an article or chapter
# number with no title ("제4조", "第三章": the title is the line after it). ("제3장 총칙" is not
# one: it has words.) Letters count in Korean and Japanese order too ("가.", "ル ." as OCR
# reads the iroha enumerator ル.).
BARE_NUMBER = re.compile(
    r"^(?:\(?\d{1,3}(?:\.\d{1,3})*[.)]?|\(?[IVXLC]{1,6}[.)]?|[\u2160-\u217f][.)]?"
    r"|\(?[a-z][.)]|[가-하][.)]|[イロハニホヘトチリヌルヲワカヨタレソツネナラム]\s?[.．)）]"
    r"|제\s?\d{1,4}\s?[조장절관편]"
    r"|第[\d一二三四五六七八九十百]{1,6}[条章節款編])\s?[:：]?$"
)
# A heading that ends leading on to more: an article, preposition, conjunction or determiner,
# a modal verb that needs its verb ("WHAT YOU CAN" + "DO"; not "will" and "may", nouns too), a
# label that needs its number ("Chapter", "SECTION"), or a comma, hyphen, ampersand or slash
# ("How to get Tagged /" + "accessible PDF?"); in Korean, Japanese and Chinese a case
# particle, an attributive that needs its noun (위한, における) or the ordinal mark before a
# number (제, 第). Words that also end nouns (과: 결과, 의:
# 회의, 的: 目的) are left out, and so are words that end phrasal verbs and titles ("Set Up",
# "Looking Ahead", "Before and After").
OPEN_HEADING_END = re.compile(
    r"(?:[,\-–&/]|\b(?:of|the|and|or|nor|to|in|for|with|on|a|an|by|from|at|as|into|via|about"
    r"|between|among|against|towards?|versus|vs|upon|than|within|across|including|regarding"
    r"|concerning|per|onto|whether|which|its|their|our|your|these|those"
    r"|can|cannot|could|should|would|must|shall|might"
    r"|chapter|section|article|appendix|annex|volume|no)"
    r"|(?:을|를|에서|으로|및|위한|대한|관한|통한|따른|의한|향한|(?<!\S)제|第)"
    r"|(?:における|に関する|による|ための|への|での|(?<!も)の)|(?:关于|与|及))$",
    re.I,
)
# Brackets a heading can open and leave for the next line to close ("44. 고용정책 기본법
# 일부개정법률안(정태호 의원" + "대표발의)", "（利用者支払可能" + "延滞率見込額・極度額）"): a
# heading with more of them opened than closed leads on (harness: 2 of the 22 split headings
# missed, no new clean alarm).
OPENING_BRACKETS = "([{（【「『〈《［"
CLOSING_BRACKETS = ")]}）】」』〉》］"
# Continues: starts in lower case or with the punctuation that joins on ("- Stock-Based"), or,
# in a script without case, with a conjunction that joins two nouns and starts no heading of
# its own ("#### 일반현황" + "및 연혁", "及び" / "並びに" / "又は": the "and" and "or" of
# Korean and Japanese headings; harness seeds 1-3: the Korean rests that stood before a table),
# or with a Japanese particle before an ideograph: a particle ties to the noun before it and
# opens nothing ("## “Yigal”" + "の出現頻度 (95年)"; words that begin with these kana go on in
# kana: はじめに, のみ, もし).
CONTINUED_START = re.compile(
    r"^(?:[a-z]|[-–,;:)]|(?:및|또는|혹은|및/또는)(?:\s|$)"
    r"|及び|並びに|又は|若しくは|および|ならびに|または|もしくは"
    r"|[のをがにへでとはも](?=[\u4e00-\u9fff]))"
)
# A heading written letter-spaced ("H O W  C A N", "보 안"): words of one letter each, at least
# this many; a rest that goes on letter-spaced is the same heading (a wrap inside it: "## H O W
# C A N Y O" + "U H E L P ?", "### 보 안" + "확 약 서(대표자용)").
LETTER_SPACED_MIN = 2
# A word of a title-case phrase: capitalised, a short function word, or a number ("Word
# Processing Tools", "Status of Business"; capitals too: "LEVELS OF RIGOR"; "Part VI. Chapter
# Six - Comparing"; not a word with a colon or comma: "Reagents:", "Berwick,"). A capitalised
# word may stand in quotes ("The “Mineralogy”") or be an abbreviation ("U.S."), a number may
# end in a dash ("02- Prepare"), and prepositions stay in lower case however long ("Choosing
# between Observer Models"). (Matched word by word: one pattern over the whole phrase
# backtracked for seconds on long lines.)
TITLE_CASE_WORD = re.compile(
    r"[“\"‘']?[A-Z](?:[\w'’-]|\.(?=\w))*\.?[”\"’']?|[a-z]{1,3}|[A-Z]{1,3}|\d[\w.]*[-–]?|[-–&]"
    r"|about|above|across|after|against|along|among|around|before|behind|below|beneath"
    r"|beside|between|beyond|during|except|from|inside|into|like|near|onto|over|since|than"
    r"|through|toward|towards|under|until|upon|versus|with|within|without"
)
# The rest of a cut heading is a short line without a sentence end: at most this many words
# (headings run 2-15 words; a sentence of text after a heading is longer or ends with a stop:
# 8 words missed "II. Set Up" + "the Restriction Digests of the “Suspect” and “Evidence” DNA").
SPLIT_TAIL_MAX_WORDS = 12
SPLIT_TAIL_MAX_CHARS = 100
# A rest of one capitalised abbreviation goes with a title-case heading in mixed case
# ("## Advantages of Tagged" + "PDF"; no new clean alarm on the corpus, DP-Bench, retrieval-ja).
ACRONYM = re.compile(r"[A-Z]{2,6}")
# A rest that ends a sentence is a heading's only this short (a heading's second line); body
# text after a heading ending in "の" (あの, この: "that", "this") runs longer.
STOPPED_TAIL_MAX_CHARS = 40
# After a bare number the whole heading is the rest, and may be as long as a heading
# ("3." + "Perspective of supply and demand balance of wood pellets and cost structure in
# Japan", 14 words).
NUMBERED_TAIL_MAX_WORDS = 20
NUMBERED_TAIL_MAX_CHARS = 160
# Body text: a line after the rest longer than this, or a list or table (a contents list under
# "Contents" is short lines after short lines).
BODY_MIN_CHARS = 80
# ... or a sentence of this many words ("## 6. Related" + "Work" + "We now discuss works that
# are closely related to ours.", 10 words; a short line with a stop such as "Inc." is no body).
BODY_SENTENCE_MIN_WORDS = 6
SENTENCE_STOPS = tuple(".!?。！？")
# The rest of a heading in a script without case (Korean, Japanese, Chinese) carries no mark of
# its own: a phrase of letters only (no digit, bracket or stop), this short, between the
# heading and a paragraph of body text, is no paragraph of its own ("## 13. 폐기시" +
# "주의사항", "### ベビーフード自主規格第 V" + "版発行にあたって"). 12 characters: the rest
# of a cut heading in the harness runs 1-8; in the clean conversions of the corpus, DP-Bench
# and retrieval-ja (--ocr never) no such line stands before a paragraph on its heading's page
# (one, "はじめに", on the next), and many stand before lists, tables and other short lines
# (labels of diagrams): those are left alone.
CASELESS_TAIL_MAX_CHARS = 12
CASELESS_PHRASE = re.compile(r"[^\W\d_]+(?: [^\W\d_]+)*")
# A rest whose last word ends in a colon ends a heading in a document whose headings end so, at
# least this many of them ("#### Part B" + "Services:" beside "#### Durable Medical Equipment,
# Prosthetics, Orthotics and Supplies:"); elsewhere a title-case word with a colon is a label
# ("Reagents:").
COLON_HEADINGS_MIN = 2
# A paragraph that opens with an enumerator is the first item of a list convert did not mark as
# one ("### 3. 상세" + "요구사항" + "가. 기능 요구사항(...)"): body after a caseless rest.
ENUMERATED = re.compile(
    r"(?:[가-하]\.|[\u2460-\u2473\u3251-\u325f]|[（(]\d{1,2}[)）]|[一二三四五六七八九十]、)"
)
# A caption: a figure/table label and its number, in the languages convert reads.
CAPTION = re.compile(
    r"^(?:fig(?:ure)?\.?|table|chart|graph|exhibit|plate|그림|표|図|表|图)\s*"
    r"[A-Z]?\d{1,3}(?:[.\-]\d{1,3})*\s*[.:：]?(?:\s|$)",
    re.I,
)
# A contents entry: leaders (dots, middle dots, ellipses) before a page number at the end. (Tried
# only where a run of leaders starts, and never given back: a heading of 20,000 dots took 10.7 s
# with a plain repeat.)
CONTENTS_ENTRY = re.compile(r"(?<![.·・…‥\s])(?:\s*[.·・…‥]){2,}+\s*\d{1,4}$")


def check_heading_shapes(scan: ScannedMarkdown) -> list[Issue]:
    """Headings cut from their words (headings.split), and captions or contents entries made
    headings (headings.promoted)."""
    if not scan.headings:
        return []
    return split_headings(scan) + promoted_headings(scan)


def split_headings(scan: ScannedMarkdown) -> list[Issue]:
    found: list[TextLine] = []
    unmarked: list[tuple[TextLine, str]] = []  # (heading, rest) of no mark: in the contents?
    lines = scan.lines
    colon_ends = sum(text.rstrip().endswith(":") for text in scan.headings.texts)
    style = HeadingStyle(colon_ends >= COLON_HEADINGS_MIN)
    for start in heading_tails(lines):
        heading, tail = lines[start : start + 2]
        if heading.level < 2 or tail.page != heading.page:
            continue  # (a title is followed by its authors or subtitle; a rest is on its page)
        text, rest = heading.text.strip(), tail.text.strip()
        if is_promoted(text):
            continue  # (a caption or contents entry made a heading: headings.promoted says so)
        if tail.kind == LineKind.LIST:  # a rest that begins with a dash or a number reads
            rest = LIST_MARKER.sub("", rest, count=1)  # as a list item ("#### 04" + "- Create")
            cut = is_cut(text, rest, body_after(lines, start + 2), style)
        else:
            cut = is_cut_paragraph(text, rest, lines, start + 2, style)
        if cut:
            found.append(heading)
        elif len(rest) <= SPLIT_TAIL_MAX_CHARS and not rest.endswith(SENTENCE_STOPS):
            unmarked.append((heading, rest))
    if unmarked:
        entries = contents_entries(scan.text)
        found.extend(
            h
            for k, (h, rest) in enumerate(unmarked)
            if entry_key(f"{h.text} {rest}") in entries
            or (k < WHOLE_ELSEWHERE_MAX_SEARCHES and said_whole_elsewhere(scan.text, h.text, rest))
        )
        found.sort(key=lambda heading: heading.number)
    if not found:
        return []
    shown = [f"{quote(h.text, 30)} (line {h.number})" for h in found]
    return [
        Issue(
            "headings.split",
            Severity.WARN,
            f"{len(found)} heading(s) cut from their words (a bare number, or a heading that "
            f"leads on, then a short line that continues it): {examples(shown)}",
            line=found[0].number,
            page=found[0].page,
        )
    ]


# An entry of a contents list: its words, leaders (dots, middle dots, ellipses) and a page
# number at the end of a line (CONTENTS_ENTRY). A heading and the short line after it that
# together are one entry's words are one heading cut in two ("#### 제안서" + "목차 및 작성방법",
# listed as "3. 제안서 목차 및 작성방법······ 32"; "### 1. 요구사항" + "분류"). Lines are looked at
# only where two leaders stand together (found by a search that starts on a character class:
# the entry pattern over the whole text cost 0.19 s CPU on 8.8 MB of conversions, this 0.01 s).
LEADER_PAIR = re.compile(r"[.·・…‥][ \t]*[.·・…‥]")
# What an entry and a heading are compared by: no list mark, section number or spaces.
ENTRY_NUMBER = re.compile(
    r"^(?:[-*+]\s+)?(?:\(?\d{1,3}(?:\.\d{1,3})*[.)]?|\(?[IVXLC]{1,6}[.)]|[\u2160-\u217f][.)]?"
    r"|제\s?\d{1,4}\s?[조장절관편]|第[\d一二三四五六七八九十百]{1,6}[条章節款編])\s*"
)


def contents_entries(markdown: str) -> set[str]:
    """The entry_key of each line of `markdown` that ends in leaders and a page number."""
    entries = set()
    pair = LEADER_PAIR.search(markdown)
    while pair:
        line_start = markdown.rfind("\n", 0, pair.start()) + 1
        line_end = markdown.find("\n", pair.end())
        line_end = len(markdown) if line_end < 0 else line_end
        line = markdown[line_start:line_end].rstrip()
        entry = CONTENTS_ENTRY.search(line)
        if entry:
            entries.add(entry_key(line[: entry.start()]))
        pair = LEADER_PAIR.search(markdown, line_end)
    return entries


# A heading and the short line after it whose words stand together, in one line, elsewhere in
# the document (the body names its own section, a table repeats a heading's words) are one
# heading cut in two: "## 커피전문점·제과점·편의점 2%" + "빅포인트 적립" over "적립한도 없이
# 커피전문점·제과점·편의점 2% 빅포인트 적립"; "## 기후위기 대응을 위한 탄소중립ㆍ녹색성장" +
# "기본법" over "기후위기 대응을 위한 탄소중립ㆍ녹색성장 기본법 일부를 ..." (harness seeds 1-3: the
# rests of no mark, in Korean and Japanese, before a table or another heading). The joined
# words must be this long (letters without spaces) to say anything ...
WHOLE_ELSEWHERE_MIN_CHARS = 8
# ... and a document's pairs are searched for at most this many times (one pass over the text
# each: 2 MB of short headings and lines must not take a search per pair).
WHOLE_ELSEWHERE_MAX_SEARCHES = 64


def said_whole_elsewhere(markdown: str, heading: str, rest: str) -> bool:
    """Whether `heading` (without its section number) and `rest`, joined by a space, stand in
    `markdown` (where the pair itself is two lines, so never itself)."""
    phrase = f"{ENTRY_NUMBER.sub('', heading.strip(), count=1)} {rest}"
    if len(phrase) - phrase.count(" ") < WHOLE_ELSEWHERE_MIN_CHARS:
        return False
    if not any(ch.isalpha() for ch in rest):  # (a page number: "The MuPDF C API" + "5" is
        return False  # an entry of a contents list without leaders, "The MuPDF C API 5")
    return phrase in markdown


def entry_key(text: str) -> str:
    return "".join(ENTRY_NUMBER.sub("", text.strip(), count=1).split())


def heading_tails(lines: LineView) -> list[int]:
    """Positions of headings followed by a paragraph line, or by a list of one item."""
    after_paragraph = lines.find_sequence((LineKind.HEADING, LineKind.PARAGRAPH))
    lone_items = [
        start
        for start in lines.find_sequence((LineKind.HEADING, LineKind.LIST))
        if start + 2 >= len(lines) or lines.kind(start + 2) != LineKind.LIST
    ]
    return sorted(after_paragraph + lone_items)


def body_after(lines: LineView, position: int) -> bool:
    """Whether the line at `position` is body text: a long paragraph line or a sentence, a list
    or a table."""
    if position >= len(lines):
        return False
    line = lines[position]
    if line.kind != LineKind.PARAGRAPH or len(line.text) > BODY_MIN_CHARS:
        return True
    words = len(line.text.split())
    if line.text.rstrip().endswith(SENTENCE_STOPS) and words >= BODY_SENTENCE_MIN_WORDS:
        return True
    return line.text.rstrip().endswith((":", "：")) and introduces_list(lines, position + 1)


def introduces_list(lines: LineView, position: int) -> bool:
    """Whether the line at `position` is a list item or table row: a label ending in a colon
    before it opens the body ("## III. Electrophorese" + "Digests" + "Reagents:" + "- ...")."""
    return position < len(lines) and lines.kind(position) in (LineKind.LIST, LineKind.TABLE)


def is_cut_paragraph(
    text: str, rest: str, lines: LineView, after: int, style: HeadingStyle
) -> bool:
    """is_cut for a rest that is a paragraph line (the line at `after` follows it), or the rest
    is a short phrase of a script without case before a paragraph of body text: a long line, a
    sentence or an enumerated item."""
    if is_cut(text, rest, body_after(lines, after), style):
        return True
    if after >= len(lines) or text.endswith(SENTENCE_STOPS) or not is_caseless_phrase(rest):
        return False
    following = lines[after]
    line = following.text.strip()
    return following.kind == LineKind.PARAGRAPH and (
        len(line) > BODY_MIN_CHARS
        or line.endswith(SENTENCE_STOPS)
        or ENUMERATED.match(line) is not None
    )


@dataclass(frozen=True, slots=True)
class HeadingStyle:
    """How a document's own headings are written, as far as a rest is judged by it."""

    colon_ends: bool  # COLON_HEADINGS_MIN+ headings end in a colon ("Supplies:")


def is_promoted(text: str) -> bool:
    return CAPTION.match(text) is not None or CONTENTS_ENTRY.search(text) is not None


def is_cut(text: str, rest: str, body_follows: bool, style: HeadingStyle) -> bool:
    """Whether heading `text` and the short line `rest` after it are one heading cut in two:
    the heading is a bare number or leads on, the rest continues it, or (with body text after
    the rest) both are in title case, or both in capitals: a title-case line of a few words
    with no stop is no sentence of text. (Short lines followed by more short lines, as a
    contents list under "Contents", are left alone: they were most of the false alarms on the
    clean corpus conversions without that condition.)"""
    bare = BARE_NUMBER.match(text) is not None
    words, most_words, most_chars = rest.split(), SPLIT_TAIL_MAX_WORDS, SPLIT_TAIL_MAX_CHARS
    if bare:
        most_words, most_chars = NUMBERED_TAIL_MAX_WORDS, NUMBERED_TAIL_MAX_CHARS
    if len(rest) > most_chars or len(words) > most_words:
        return False
    if leaves_open(rest):
        return False  # (a block opens: "## CHAPTER 32. COLORSPACE" + "enum fz_colorspace {")
    if letter_spaced(text) and LETTER_SPACED_START.match(rest):
        return True
    if rest.endswith(SENTENCE_STOPS):
        # (after a heading that leads on, or as a title-case rest that goes on in lower case,
        # a rest as short as a heading's may end a sentence: "## Earth and" + "Moon, Drawn to
        # Scale.", "## Earth and Moon, Drawn" + "to Scale."; not "memory usage.", a sentence
        # from the page before under a running head)
        leads_on = OPEN_HEADING_END.search(text) is not None or (
            LOWER_START.match(rest) is not None and is_title_case(rest[:-1])
        )
        return len(rest) <= STOPPED_TAIL_MAX_CHARS and leads_on
    if OPEN_HEADING_END.search(text):
        return True
    if bare or CONTINUED_START.match(rest) or leaves_open(text):
        return True
    named = without_qualifier(rest)  # ("Other" + "Information (If an item does not apply)")
    if style.colon_ends and named.endswith(":"):
        named = named[:-1]  # ("#### Part B" + "Services:" where headings end so)
    return (
        body_follows
        and (same_case(text, named) or ACRONYM.fullmatch(named) is not None)
        and is_title_case(text)
        and is_title_case(named)
        and any(w[:1].isupper() for w in named.split())
    )


def letter_spaced(text: str) -> bool:
    """Words of one letter each (a section number before them aside), LETTER_SPACED_MIN+."""
    words = SECTION_NUMBER_PREFIX.sub("", text).split()
    return len(words) >= LETTER_SPACED_MIN and all(
        len(word) == 1 and word.isalpha() for word in words
    )


# A rest that goes on letter-spaced: a letter alone, then a space, a bracket or the end ("서(대표
# 자용)" after "### 보 안 확 약").
LETTER_SPACED_START = re.compile(r"[^\W\d_](?:\s|[(（「『\[]|$)")
# A leading section number, left out when a heading's words are looked at.
SECTION_NUMBER_PREFIX = re.compile(r"^\d{1,3}(?:\.\d{1,3})*\.?\s+")
# A bracketed qualifier at the end of a rest: "Information (If an item does not apply to you,
# enter “N/A.”)": the words before it are what is judged title case. (A rest that is only a
# qualifier says nothing: "3.3 Roles" + "(Web Annex A)", "A Torn Note" + "(A torn note found
# in a conspirator's pocket.)" are subtitles set apart on purpose in the clean corpus, 27 of
# them; harness seeds 1-3 had 2 such cuts.)
TRAILING_QUALIFIER = re.compile(r"\s+[(（［\[][^()（）\[\]［］]*[)）］\]]$")


def without_qualifier(rest: str) -> str:
    return TRAILING_QUALIFIER.sub("", rest)


def same_case(text: str, rest: str) -> bool:
    """The rest and the heading, or the heading's last word of two letters or more, both in
    capitals or both with lower-case letters (a wrap goes on as the words before it: "##
    Section 1 – PATIENT" + "INFORMATION"; "Part B" + "Services" by "Part"; "Risk of COVID-19"
    + "Infection" by the heading)."""
    lettered = [word for word in text.split() if sum(ch.isalpha() for ch in word) >= 2]
    rest_lower = any(ch.islower() for ch in rest)
    return any(any(ch.islower() for ch in part) == rest_lower for part in (text, *lettered[-1:]))


def is_caseless_phrase(rest: str) -> bool:
    """A few words of letters only, none of them with case (Hangul, kana, ideographs)."""
    return (
        len(rest) - rest.count(" ") <= CASELESS_TAIL_MAX_CHARS
        and CASELESS_PHRASE.fullmatch(rest) is not None
        and rest.lower() == rest.upper()
    )


def leaves_open(text: str) -> bool:
    """Whether `text` opens more brackets than it closes."""
    opened = sum(text.count(ch) for ch in OPENING_BRACKETS)
    return opened > sum(text.count(ch) for ch in CLOSING_BRACKETS)


def is_title_case(text: str) -> bool:
    words = text.split()
    return bool(words) and all(TITLE_CASE_WORD.fullmatch(word) for word in words)


def promoted_headings(scan: ScannedMarkdown) -> list[Issue]:
    found = [
        heading
        for heading, text in zip(scan.headings, scan.headings.texts, strict=True)
        if is_promoted(text.strip())
    ]
    if not found:
        return []
    shown = [f"{quote(h.text, 40)} (line {h.number})" for h in found]
    return [
        Issue(
            "headings.promoted",
            Severity.WARN,
            f"{len(found)} caption(s) or contents entries made heading(s): they open sections "
            f"of the chunks that hold nothing of theirs: {examples(shown)}",
            line=found[0].number,
            page=found[0].page,
        )
    ]

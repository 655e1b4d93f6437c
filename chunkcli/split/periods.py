"""Dates and periods in résumés, CVs and logs -> ISO `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.

The forms read (each a named pattern below):

- Japanese `2019年4月`, `2019年4月1日`, Korean `2019년 4월`, `2019년 4월 1일` (spaces allowed,
  full-width digits too: `２０１９年４月`);
- numeric `2024-02-14`, `2019-04`, `2019.04`, `2019/04/01`, Korean dotted `2019. 3.`, and month
  first `04/2019`, `04.2019`;
- English `Mar 2021`, `March 2021`, `Sept. 2019`, `Feb 14, 2024`, `14 Feb 2024`;
- a bare year only as one end of a range (`2013 - 2017`, `2015年～2019年`): alone a year is any
  number in a sentence;
- ranges joined by `～ 〜 ~ - – — to から より 부터`, closed by a second date or a word for
  "now" (`現在`, `在職中`, `현재`, `재직중`, `Present`, `Current`, `now`), or left open
  (`2022年4月～`), which is "now" as well.

A period is (start, end): a single date is both ends; "now" is an end of None.
"""

from __future__ import annotations

import re
from typing import NamedTuple

FULL_WIDTH = str.maketrans("０１２３４５６７８９～－／．", "0123456789~-/.")
YEAR = r"(?:19|20)\d{2}"
_SP = r"[ \t\u3000]*"
# 2019年4月(1日) / 2019년 4월 (1일): the month is required (a bare 2019年 is a year in prose).
CJK_DATE = rf"{YEAR}{_SP}[年년]{_SP}\d{{1,2}}{_SP}[月월](?:{_SP}\d{{1,2}}{_SP}[日일])?"
# 2024-02-14, 2019-04, 2019.04, 2019/04/01 (the same separator twice).
NUMERIC_DATE = rf"{YEAR}(?P<sep>[-./])\d{{1,2}}(?:(?P=sep)\d{{1,2}})?(?![\d.])"
# Korean dotted dates: 2019. 3. / 2019. 3. 1. (a dot after every part).
DOTTED_DATE = rf"{YEAR}\.[ ]?\d{{1,2}}\.(?:[ ]?\d{{1,2}}\.)?(?!\d)"
# Month first, as European CVs write it: 04/2019, 04.2019.
MONTH_YEAR_DATE = rf"(?<![A-Za-z\d./])\d{{1,2}}[./]{YEAR}(?![\d./])"
MONTH_NAMES = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
# Mar 2021, March 2021, Feb 14, 2024, 14 Feb 2024.
ENGLISH_DATE = rf"(?:\d{{1,2}}[ \t]+)?{MONTH}[ \t]+(?:\d{{1,2}},?[ \t]+)?{YEAR}"
# A year as one end of a range: 2013, 2013年, 2013년.
RANGE_YEAR = rf"{YEAR}(?:{_SP}[年년])?(?![\d年년月월.\-/])"
DATE = rf"(?:{CJK_DATE}|{DOTTED_DATE}|{NUMERIC_DATE}|{MONTH_YEAR_DATE}|{ENGLISH_DATE})"
PRESENT_WORDS = (
    r"(?:現在|在職中|在籍中|至今|현재|재직[ \t]?중|(?:Present|Current|Now|Today)(?![A-Za-z]))"
)
RANGE_SEPARATOR = rf"{_SP}(?:[~〜\-–—―−]|to|から|より|부터){_SP}"
OPEN_END = rf"{_SP}[~〜]{_SP}(?:まで|까지)?(?=$|[ \t\u3000|,、)）\]])"
RANGE_TAIL = rf"(?:{_SP}(?:まで|까지))?"
PERIOD_RE = re.compile(
    rf"(?P<start>{DATE})(?:{RANGE_SEPARATOR}(?:(?P<end>{DATE.replace('sep', 'sep2')})"
    rf"|(?P<present>{PRESENT_WORDS})){RANGE_TAIL}|(?P<open>{OPEN_END}))?"
    rf"|(?P<year_start>{RANGE_YEAR}){RANGE_SEPARATOR}"
    rf"(?:(?P<year_end>{RANGE_YEAR})|(?P<year_present>{PRESENT_WORDS})){RANGE_TAIL}",
    re.IGNORECASE,
)
# After a date, these make it part of a sentence ("2021年4月より、…", "2021년 4월에"), not an
# item's period line.
SENTENCE_PARTICLE_RE = re.compile(r"[ \t\u3000]*(?:に|は|より|から|まで|の|、|，|에|의|부터)")
# A date "as of" which a document is written (2024年4月1日現在, 2024년 4월 1일 기준, As of Apr
# 2024) dates the document, not an item.
AS_OF_AFTER_RE = re.compile(r"[ \t\u3000]*(?:現在|時点|현재|기준)")
AS_OF_BEFORE_RE = re.compile(r"(?:as[ \t]+of|dated?)[ \t:]*$", re.IGNORECASE)
YEAR_RE = re.compile(YEAR)
_NUMBERS_RE = re.compile(r"\d+")
_MONTH_NAME_RE = re.compile(MONTH, re.IGNORECASE)


class Period(NamedTuple):
    """ISO ends of a period; end None: up to now. `start`/`end` of the text matched too."""

    start_iso: str
    end_iso: str | None
    start: int  # offsets of the match in the text searched
    end: int


def find_period(text: str) -> Period | None:
    """The first date or period in `text` whose dates are real dates, or None."""
    plain = text.translate(FULL_WIDTH)  # (same length: offsets stay)
    if not YEAR_RE.search(plain):
        return None  # most lines: no year, no need to try every form at every position
    for match in PERIOD_RE.finditer(plain):
        period = _period_of(match)
        if period is not None:
            return period
    return None


def _period_of(match: re.Match[str]) -> Period | None:
    if match.group("year_start"):
        first = _iso(match.group("year_start"))
        last = None if match.group("year_present") else _iso(match.group("year_end"))
        if first is None or (match.group("year_end") and last is None):
            return None
        return Period(first, last, match.start(), match.end())
    first = _iso(match.group("start"))
    if first is None:
        return None
    if match.group("present") or match.group("open"):
        return Period(first, None, match.start(), match.end())
    if match.group("end"):
        last = _iso(match.group("end"))
        if last is None:
            return None
        return Period(first, last, match.start(), match.end())
    return Period(first, first, match.start(), match.end())


def _iso(date: str) -> str | None:
    """'2019年4月' -> '2019-04', 'Feb 14, 2024' -> '2024-02-14'; None for month 13 or day 32."""
    month_name = _MONTH_NAME_RE.search(date)
    numbers = [int(n) for n in _NUMBERS_RE.findall(date)]
    year = next((n for n in numbers if n >= 1900), None)
    if year is None:
        return None
    rest = numbers[:]
    rest.remove(year)
    month: int | None
    if month_name:
        month = MONTH_NAMES[month_name.group().lower()[:3]]
        day = rest[0] if rest else None
    else:
        month = rest[0] if rest else None
        day = rest[1] if len(rest) > 1 else None
    if month is None:
        return f"{year:04d}"
    if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
        return None
    return f"{year:04d}-{month:02d}" + (f"-{day:02d}" if day is not None else "")

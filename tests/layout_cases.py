"""Generated layout cases for issue #8, one or more per defect class, with checks on Markdown.

Each case is a small PDF (built with `tests.pdf_factory`) reduced from a defect seen on a real
document, plus checks any tool's Markdown can be scored on. The tests (tests/test_layout_cases.py)
require chunkcli to pass every check; bench/quality_bench.py scores chunkcli and pymupdf4llm on
the same cases and reports a pass rate per class.

Checks (dicts, in the spirit of olmOCR-bench's unit tests):
  present / absent   the text occurs / does not occur in the normalised Markdown
  order              `before` occurs and starts before `after`
  heading            some Markdown heading line (any level) has exactly this text
  not_heading        no heading line has this text (or contains it, with `contains`)
  title              the first heading of the document is an H1 with exactly this text
  no_title_like      no H1 line matches this regular expression
  paragraph          the text lies inside one Markdown paragraph (no blank line, page marker or
                     heading inside it)
  table_row          some pipe-table row (the header row included) has exactly these `cells`
  tables             the Markdown holds exactly `count` pipe tables
Normalising removes HTML comments, heading and emphasis markers and collapses whitespace.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

from tests.pdf_factory import (
    Item,
    Rect,
    RtlText,
    Rule,
    Text,
    TextRow,
    make_pdf,
    rtl_width,
    text_width,
    wrap_text,
    wrapped_paragraph,
)

LANDSCAPE = (842.0, 595.0)
PORTRAIT = (595.0, 842.0)

CLASS_NAMES = {
    1: "narrow gutters",
    2: "spreads and rotated pages",
    3: "margin headings",
    4: "body-size numbered headings",
    5: "titles and heading paths",
    6: "running heads and stamps",
    7: "tables: booktabs, annex continuations",
    8: "sentences across column and page breaks",
    9: "right-to-left lines",
    10: "cover pages",
}

Check = dict[str, Any]


@dataclass(frozen=True)
class Case:
    name: str
    cls: int
    pages: Sequence[Sequence[Item]]
    checks: tuple[Check, ...]
    page_size: tuple[float, float] = PORTRAIT
    rotate: int = 0  # /Rotate applied to every page after drawing
    outline: tuple[tuple[int, str, int], ...] = field(default=())

    def build(self, folder: Path) -> Path:
        path = make_pdf(
            folder / f"{self.name}.pdf", self.pages, page_size=self.page_size, outline=self.outline
        )
        if self.rotate:
            with pymupdf.open(str(path)) as doc:
                for page in doc:
                    page.set_rotation(self.rotate)
                doc.save(str(path) + ".tmp", garbage=3, deflate=True, no_new_id=True)
            Path(str(path) + ".tmp").replace(path)
        return path


# --- checking ---------------------------------------------------------------------------------

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def normalise(markdown: str) -> str:
    text = _COMMENT.sub(" ", markdown)
    text = re.sub(r"^[ \t]{0,3}#{1,6}[ \t]+", "", text, flags=re.MULTILINE)
    text = re.sub(r"\*+|\\(?=[^\w\s])", "", text)
    return re.sub(r"\s+", " ", text).strip()


def headings(markdown: str) -> list[tuple[int, str]]:
    """(level, text) of every ATX heading line, emphasis markers removed."""
    found = []
    for line in markdown.splitlines():
        match = _HEADING.match(line)
        if match:
            found.append((len(match.group(1)), re.sub(r"\*+", "", match.group(2)).strip()))
    return found


def failures(case: Case, markdown: str) -> list[str]:
    """One message per failed check of `case` on `markdown` (empty: all passed)."""
    return [message for check in case.checks if (message := _failure(check, markdown))]


def _failure(check: Check, markdown: str) -> str:
    kind = check["type"]
    text = normalise(markdown)
    found = headings(markdown)
    names = [name for _, name in found]
    if kind == "present":
        return "" if normalise(check["text"]) in text else f"missing: {check['text']!r}"
    if kind == "absent":
        return f"still there: {check['text']!r}" if normalise(check["text"]) in text else ""
    if kind == "order":
        before, after = normalise(check["before"]), normalise(check["after"])
        if before not in text or after not in text:
            return f"order: not found {before!r} / {after!r}"
        return "" if text.index(before) < text.index(after) else f"{after!r} before {before!r}"
    if kind == "heading":
        return "" if check["text"] in names else f"no heading {check['text']!r} in {names}"
    if kind == "not_heading":
        bad = [
            n
            for n in names
            if (check["text"] in n if check.get("contains") else n == check["text"])
        ]
        return f"heading {bad}" if bad else ""
    if kind == "title":
        first = found[0] if found else None
        return "" if first == (1, check["text"]) else f"title is {first}, not {check['text']!r}"
    if kind == "paragraph":
        wanted = normalise(check["text"])
        blocks = [normalise(b) for b in re.split(r"\n\s*\n", markdown)]
        return "" if any(wanted in b for b in blocks) else f"not in one paragraph: {wanted!r}"
    if kind == "table_row":
        rows = [row for table in pipe_tables(markdown) for row in table]
        wanted = [normalise(c) for c in check["cells"]]
        return "" if wanted in rows else f"no table row {wanted}"
    if kind == "tables":
        count = len(pipe_tables(markdown))
        return "" if count == check["count"] else f"{count} tables, not {check['count']}"
    if kind == "no_title_like":
        bad = [n for level, n in found if level == 1 and re.search(check["pattern"], n)]
        return f"H1 {bad}" if bad else ""
    raise ValueError(f"unknown check type {kind}")


_PIPE = re.compile(r"(?<!\\)\|")
_DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


def pipe_tables(markdown: str) -> list[list[list[str]]]:
    """The rows (normalised cells) of every GFM pipe table: a header line, a delimiter row and
    the rows under it."""
    tables: list[list[list[str]]] = []
    lines = markdown.splitlines()
    index = 0
    while index < len(lines) - 1:
        if "|" in lines[index] and _DELIMITER.match(lines[index + 1]):
            rows = [lines[index]]
            index += 2
            while index < len(lines) and lines[index].strip().startswith("|"):
                rows.append(lines[index])
                index += 1
            tables.append([_cells(row) for row in rows])
        else:
            index += 1
    return tables


def _cells(row: str) -> list[str]:
    cells = _PIPE.split(row.strip())
    if row.strip().startswith("|"):
        cells = cells[1:]
    if cells and row.strip().endswith("|"):
        cells = cells[:-1]
    return [normalise(c.replace("\\|", "|")) for c in cells]


# --- building blocks --------------------------------------------------------------------------

BODY = (
    "Operators record every inspection of the thermal controller in the maintenance log and "
    "compare the readings with the limits the manufacturer gives for each model and season"
)
_BODY_WORDS = BODY.split()


def body(n: int) -> str:
    """BODY with its words rotated by `n`: each page's text differs, as real pages do."""
    shift = n % len(_BODY_WORDS)
    return " ".join(_BODY_WORDS[shift:] + _BODY_WORDS[:shift])


# Short words, as a justified register column has them: its word gaps stay narrow.
SHORT_WORDS = (
    "the log of each unit is kept by the crew at the site and read out at the end of a shift so "
    "that the next crew can see what was done and what is still to do on the line"
)
JA_BODY = "本ガイドラインは、事業者が製品の安全性を確保するために実施すべき事項を定めるものである。"


def column(x: float, y: float, width: float, text: str, size: float = 9.0) -> list[Item]:
    return wrapped_paragraph(x, y, width, text, size)


def justified_column(
    x: float, y: float, width: float, words: Sequence[str], size: float = 9.0
) -> list[Item]:
    """Lines filled to `width` one word at a time, each line one Text at the column's left."""
    lines = wrap_text(" ".join(words), width, size)
    return [Text(x, y + i * size * 1.3, line, size=size) for i, line in enumerate(lines)]


def _register_words(tag: str, count: int) -> list[str]:
    return [
        f"{tag}{i}" if i % 5 == 0 else w
        for i, w in enumerate((BODY + " ").split() * (count // 20 + 1))
    ][:count]


# --- class 1: narrow gutters ------------------------------------------------------------------


def three_narrow_columns() -> Case:
    """A government register: three columns 7 pt apart; MuPDF joins columns 2 and 3 line by
    line when their lines share baselines."""
    width, gutter, x0 = 160.0, 7.0, 40.0
    texts = []
    for index in range(3):
        words = (
            f"Column {'ABC'[index]} opens here. {SHORT_WORDS}. {SHORT_WORDS}. "
            f"Column {'ABC'[index]} closes."
        )
        texts.append(_fill_lines(words, width, 9.0))
    # Drawn row by row, as such registers are typeset: MuPDF then continues one line across
    # the gutter.
    items: list[Item] = [
        TextRow(
            100 + i * 11.7,
            tuple(
                piece
                for index, lines in enumerate(texts)
                if i < len(lines)
                for piece in justified(
                    x0 + index * (width + gutter), width, lines[i], 9.0, last=i == len(lines) - 1
                )
            ),
            size=9.0,
        )
        for i in range(max(len(t) for t in texts))
    ]
    checks: list[Check] = [
        {"type": "order", "before": "Column B closes.", "after": "Column C opens here."},
        {"type": "present", "text": " ".join(texts[1][:3])},
        {"type": "present", "text": " ".join(texts[2][:3])},
    ]
    return Case("narrow_three_columns", 1, [items], tuple(checks))


def justified(
    x: float, width: float, line: str, size: float, last: bool = False
) -> list[tuple[float, str]]:
    """(x, word) pieces spreading `line` over `width` (a paragraph's last line is not spread)."""
    words = line.split()
    widths = [text_width(w, size) for w in words]
    space = text_width(" ", size)
    if not last and len(words) > 1:
        space = (width - sum(widths)) / (len(words) - 1)
    pieces, left = [], x
    for word, advance in zip(words, widths, strict=True):
        pieces.append((left, word))
        left += advance + space
    return pieces


def _fill_lines(text: str, width: float, size: float) -> list[str]:
    """Wrapped lines that end close to `width` (the last line may be short)."""
    return wrap_text(text, width, size)


def chart_beside_column() -> Case:
    """A white paper: the left column holds a chart's labels and values, the right column
    the prose; the two share baselines 8 pt apart."""
    items: list[Item] = []
    prose = _fill_lines(
        f"The prose column starts. {SHORT_WORDS}. {SHORT_WORDS}. The prose column ends.", 250, 10
    )
    labels = ["Region North 12.4", "Region South 9.8", "Region East 15.1", "Region West 7.3"] * 3
    for i, line in enumerate(prose):  # label then prose, row by row
        pieces = ((294 - text_width(labels[i], 10), labels[i]),) if i < len(labels) else ()
        prose_pieces = justified(300, 250, line, 10, last=i == len(prose) - 1)
        items.append(TextRow(120 + i * 14, (*pieces, *prose_pieces), size=10))
    checks: list[Check] = [
        {"type": "present", "text": " ".join(prose[:4])},
        {"type": "order", "before": "The prose column starts.", "after": "The prose column ends."},
    ]
    return Case("chart_beside_column", 1, [items], tuple(checks))


# --- class 2: spreads and rotated pages -------------------------------------------------------


def spread() -> Case:
    """Two printed A5 pages exported side by side on one landscape PDF page."""
    items: list[Item] = []
    for side, (x, tag, number) in enumerate(((40.0, "Left", "12"), (461.0, "Right", "13"))):
        items.append(Text(x, 40, f"Field Guide · Part {side + 1}", size=8))
        items += wrapped_paragraph(
            x, 80, 340, f"{tag} page begins. {BODY}. {BODY}. {tag} page ends.", 10
        )
        items.append(Text(x + 165, 570, number, size=8))
    checks: list[Check] = [
        {"type": "order", "before": "Left page ends.", "after": "Right page begins."},
        {"type": "order", "before": "Left page begins.", "after": "Left page ends."},
        {"type": "absent", "text": "ends. Right"},
    ]
    return Case("spread_two_pages", 2, [items], tuple(checks), page_size=LANDSCAPE)


def rotated_page() -> Case:
    """A page whose content is drawn sideways and shown upright with /Rotate 90."""
    lines = [f"Line {n} of the rotated filing reads in order." for n in range(1, 9)]
    items: list[Item] = [Text(60, 80 + 16 * i, line, size=11) for i, line in enumerate(lines)]
    checks: list[Check] = [
        {"type": "order", "before": lines[0], "after": lines[1]},
        {"type": "order", "before": lines[3], "after": lines[7]},
        {"type": "present", "text": " ".join(lines[:3])},
    ]
    return Case("rotate_90", 2, [items], tuple(checks), rotate=90)


# --- class 3: margin headings -----------------------------------------------------------------


def margin_headings() -> Case:
    """A manual with section headings in a narrow left column beside their body text."""
    items: list[Item] = []
    sections = [
        ("2.3.59.1.5", "Program Controls"),
        ("2.3.59.1.6", "Alarm Limits"),
        ("2.3.59.1.7", "Service Records"),
    ]
    y = 100.0
    checks: list[Check] = []
    for number, name in sections:
        items.append(Text(40, y, number, size=10, bold=True))
        items.append(Text(40, y + 13, name, size=10, bold=True))
        body = wrap_text(f"{name} body starts. {BODY}. {name} body ends.", 370, 10)
        items += [Text(180, y + i * 13, line, size=10) for i, line in enumerate(body)]
        checks.append({"type": "order", "before": name, "after": f"{name} body starts."})
        y += 13 * len(body) + 30
    checks += [
        {"type": "order", "before": "Program Controls body ends.", "after": "Alarm Limits"},
        {"type": "order", "before": "Alarm Limits body ends.", "after": "Service Records"},
    ]
    return Case("margin_headings", 3, [items], tuple(checks))


def margin_article_numbers() -> Case:
    """Regulations with 第一条/第二条/第三条 in a margin column beside each article."""
    items: list[Item] = []
    y = 100.0
    checks: list[Check] = []
    for number in ("第一条", "第二条", "第三条"):
        items.append(Text(50, y, number, size=10.5, cjk=True))
        body = wrap_text(number[1] + "番目の規定。" + JA_BODY, 400, 10.5, cjk=True)
        items += [Text(120, y + i * 15, line, size=10.5, cjk=True) for i, line in enumerate(body)]
        checks.append({"type": "order", "before": number, "after": number[1] + "番目の規定"})
        y += 15 * len(body) + 12
    checks.append({"type": "absent", "text": "第一条第二条"})
    checks.append({"type": "absent", "text": "第一条 第二条"})
    return Case("margin_article_numbers", 3, [items], tuple(checks))


# --- class 4: body-size numbered headings ---------------------------------------------------


def bold_numbered_headings(with_outline: bool) -> Case:
    heads = [
        "1.1 Scope of the assessment",
        "1.2 Risk assessment of the thermal controller",
        "1.3 Residual risks and their owners",
    ]
    items: list[Item] = []
    y = 90.0
    for head in heads:
        items.append(Text(50, y, head, size=10, bold=True))
        body = wrap_text(f"{BODY}. {BODY}.", 480, 10)
        items += [Text(50, y + 14 * (i + 1), line, size=10) for i, line in enumerate(body)]
        y += 14 * (len(body) + 1) + 6
    outline = tuple((1, h, 1) for h in heads) if with_outline else ()
    checks = tuple({"type": "heading", "text": h} for h in heads)
    name = "bold_numbered_outline" if with_outline else "bold_numbered_headings"
    return Case(
        name,
        4,
        [items],
        checks + ({"type": "not_heading", "text": "Operators", "contains": True},),
        outline=outline,
    )


def run_in_headings() -> Case:
    """Bold numbered headings that run into their paragraph on the same line."""
    heads = ["2.1 Inspection intervals", "2.2 Replacement of sensors", "2.3 Records"]
    items: list[Item] = []
    y = 90.0
    for n, head in enumerate(heads):
        lines = wrap_text(f"{body(n)}. {body(n + 2)}.", 480, 10)
        first = lines[0].split()
        lead = " ".join(first[: max(1, len(first) - 4)])
        rest = wrap_text(
            " ".join(first[len(lead.split()) :] + " ".join(lines[1:]).split()), 480, 10
        )
        items.append(Text(50, y, head, size=10, bold=True))
        items.append(Text(50 + text_width(head, 10, bold=True) + 4, y, lead, size=10))
        items += [Text(50, y + 14 * (i + 1), line, size=10) for i, line in enumerate(rest)]
        y += 14 * (len(rest) + 1) + 8
    checks = tuple({"type": "heading", "text": h} for h in heads)
    return Case(
        "run_in_headings",
        4,
        [items],
        checks + ({"type": "not_heading", "text": "Operators", "contains": True},),
    )


def consecutive_margin_articles() -> Case:
    """第一条/第二条/第三条 in a margin column on consecutive lines, one-line articles beside."""
    items: list[Item] = []
    checks: list[Check] = []
    for i, number in enumerate(("第一条", "第二条", "第三条", "第四条")):
        y = 100 + 16 * i
        items.append(Text(50, y, number, size=10.5, cjk=True))
        items.append(Text(130, y, f"{number[1]}番目の規定を定める。", size=10.5, cjk=True))
        checks.append({"type": "order", "before": number, "after": f"{number[1]}番目の規定"})
    items += [
        Text(130, 180 + 15 * i, line, size=10.5, cjk=True)
        for i, line in enumerate(wrap_text(JA_BODY * 4, 400, 10.5, cjk=True))
    ]
    checks += [
        {"type": "absent", "text": "第一条第二条"},
        {"type": "not_heading", "text": "第一条第二条", "contains": True},
    ]
    return Case("consecutive_margin_articles", 4, [items], tuple(checks))


def consecutive_articles() -> Case:
    """第一条, 第二条, 第三条 each on its own line (bold at body size), text on the next lines."""
    items: list[Item] = []
    y = 90.0
    for number in ("第一条", "第二条", "第三条"):
        items.append(Text(50, y, number, size=10.5, bold=True, cjk=True))
        items.append(Text(50, y + 15, "（" + number[1] + "）", size=10.5, bold=True, cjk=True))
        y += 30
    y += 10
    items += [
        Text(50, y + i * 15, line, size=10.5, cjk=True)
        for i, line in enumerate(wrap_text(JA_BODY * 3, 480, 10.5, cjk=True))
    ]
    checks: tuple[Check, ...] = (
        {"type": "not_heading", "text": "第一条第二条", "contains": True},
        {"type": "absent", "text": "第一条第二条"},
        {"type": "absent", "text": "第一条 第二条"},
        {"type": "order", "before": "第一条", "after": "第二条"},
    )
    return Case("consecutive_articles", 4, [items], checks)


def enumerators_drawn_apart() -> Case:
    """①, ②, ③ drawn apart from their text on the same row (a Japanese slide deck: the mark at
    x=71, its text at x=107): three items, not ① and ② run together."""
    texts = (
        "標準化対象事務に係る根拠法令の施行日：機能要件等の実装が実質的に求められる日",
        "標準化法に基づく省令の施行日：標準準拠システムへの適合の義務が生じる日",
        "標準準拠システムへの適合基準日：機能要件等に適合するものとする基準日",
    )
    items: list[Item] = [
        Text(50, 90, "次の三つの観点から関係性を整理する必要がある。", size=10.5, cjk=True)
    ]
    for i, (mark, text) in enumerate(zip("①②③", texts, strict=True)):
        items += [
            Text(50, 120 + 18 * i, mark, size=10.5, cjk=True),
            Text(72, 120 + 18 * i, text, size=10.5, cjk=True),
        ]
    # No wider body text below: the items' lines are the column's full width, as on the slide.
    items.append(
        Text(50, 190, "以上の三つの日付については、基本的に同一の日付とする。", size=10.5, cjk=True)
    )
    checks: tuple[Check, ...] = (
        {"type": "absent", "text": "求められる日②"},
        {"type": "absent", "text": "生じる日③"},
        {"type": "order", "before": "① 標準化対象", "after": "② 標準化法"},
        {"type": "order", "before": "② 標準化法", "after": "③ 標準準拠"},
    )
    return Case("enumerators_drawn_apart", 4, [items], checks)


# --- class 5: titles and heading paths ------------------------------------------------------


def _body_pages(count: int, heads: Sequence[str] = ()) -> list[list[Item]]:
    pages: list[list[Item]] = []
    for n in range(count):
        items: list[Item] = []
        y = 90.0
        if n < len(heads):
            items.append(Text(50, y, heads[n], size=14, bold=True))
            y += 30
        items += wrapped_paragraph(50, y, 480, f"{body(n)}. {body(n + 3)}. {body(n + 5)}.", 10)
        items += wrapped_paragraph(50, y + 120, 480, f"{body(n + 7)}. {body(n + 9)}.", 10)
        pages.append(items)
    return pages


def title_on_two_lines() -> Case:
    """A report cover: a large chart figure value, then the title set on two lines."""
    cover: list[Item] = [
        Text(200, 150, "Annual Report on the", size=24, bold=True),
        Text(180, 182, "Thermal Controller Market", size=24, bold=True),
        Text(230, 400, "-2.85%  -3.57%", size=30),
        Text(260, 440, "1", size=40),
    ]
    checks: tuple[Check, ...] = (
        {"type": "title", "text": "Annual Report on the Thermal Controller Market"},
        {"type": "not_heading", "text": "-2.85% -3.57%"},
        {"type": "not_heading", "text": "1"},
        {"type": "no_title_like", "pattern": r"^[\d\s.,%+\-−]+$"},
    )
    return Case(
        "title_two_lines", 5, [cover, *_body_pages(2, ["1. Overview", "2. Findings"])], checks
    )


def _centred(text: str, y: float, size: float, cjk: bool = False) -> Text:
    width = text_width(text, size, bold=not cjk, cjk=cjk)
    return Text((PORTRAIT[0] - width) / 2, y, text, size=size, bold=True, cjk=cjk)


def centred_title_lines() -> Case:
    """A title centred on two lines of very different widths (their starts 150 pt apart)."""
    cover: list[Item] = [
        _centred("Safe Operation of Thermal Controllers", 150, 24),
        _centred("in Plants", 182, 24),
        Text(60, 400, "Prepared for the plant operators", size=12),
    ]
    return Case(
        "title_centred_lines",
        5,
        [cover, *_body_pages(2, ["1. Overview", "2. Findings"])],
        (
            {"type": "title", "text": "Safe Operation of Thermal Controllers in Plants"},
            {"type": "not_heading", "text": "in Plants"},
        ),
    )


def title_with_colon() -> Case:
    """The first line of a two-line title ends with a colon."""
    cover: list[Item] = [
        Text(60, 150, "Thermal Controllers:", size=26, bold=True),
        Text(60, 184, "A Field Guide to Safe Operation", size=26, bold=True),
    ]
    title = "Thermal Controllers: A Field Guide to Safe Operation"
    return Case(
        "title_with_colon",
        5,
        [cover, *_body_pages(2, ["1. Overview", "2. Findings"])],
        ({"type": "title", "text": title},),
    )


def japanese_title_lines() -> Case:
    """A Japanese title centred on two lines: one H1, joined without a space."""
    cover: list[Item] = [
        _centred("消費生活用製品の", 200, 26, cjk=True),
        _centred("安全確保に関するガイドライン", 238, 26, cjk=True),
        _centred("2021年（令和3年）9月10日", 430, 14, cjk=True),
        _centred("経済産業省", 460, 14, cjk=True),
    ]
    body: list[list[Item]] = []
    for n, head in enumerate(("1. 目的", "2. 適用範囲")):
        items: list[Item] = [Text(50, 80, head, size=14, bold=True, cjk=True)]
        items += [
            Text(50, 120 + 15 * i, line, size=10.5, cjk=True)
            for i, line in enumerate(wrap_text(JA_BODY * (3 + n), 480, 10.5, cjk=True))
        ]
        body.append(items)
    return Case(
        "title_japanese_lines",
        5,
        [cover, *body],
        (
            {"type": "title", "text": "消費生活用製品の安全確保に関するガイドライン"},
            {"type": "not_heading", "text": "安全確保に関するガイドライン"},
            {"type": "not_heading", "text": "2021年（令和3年）9月10日"},
        ),
    )


def source_line_is_no_title() -> Case:
    """A statistics extract opens with its source URL in bold, then a real title."""
    first: list[Item] = [
        Text(50, 40, "Source: https://stats.example.org/tables/2024/12", size=9, bold=True),
        Text(50, 58, "Downloaded from https://stats.example.org on 3 May 2024", size=9),
        Text(50, 100, "Household Energy Use 2024", size=20, bold=True),
        *wrapped_paragraph(50, 140, 480, f"{BODY}. {BODY}.", 10),
    ]
    checks: tuple[Check, ...] = (
        {"type": "title", "text": "Household Energy Use 2024"},
        {"type": "not_heading", "text": "Source:", "contains": True},
        {"type": "not_heading", "text": "Downloaded from", "contains": True},
    )
    return Case("source_line_title", 5, [first, *_body_pages(1)], checks)


def chart_labels_are_no_headings() -> Case:
    """Figure labels and chart values set larger than body text are not section headings."""
    page: list[Item] = [
        Text(50, 80, "Energy Outlook", size=22, bold=True),
        *wrapped_paragraph(50, 120, 480, f"{BODY}. {BODY}.", 10),
        Text(80, 300, "42 %", size=16),
        Text(200, 300, "17 %", size=16),
        Text(320, 300, "2019  2020  2021", size=12),
        Text(80, 330, "Figure 3", size=12),
        *wrapped_paragraph(50, 380, 480, f"{BODY}. {BODY}.", 10),
    ]
    checks: tuple[Check, ...] = (
        {"type": "title", "text": "Energy Outlook"},
        {"type": "not_heading", "text": "42 %"},
        {"type": "not_heading", "text": "17 %"},
        {"type": "not_heading", "text": "2019 2020 2021"},
        {"type": "not_heading", "text": "Figure 3"},
    )
    return Case("chart_labels", 5, [page, *_body_pages(1)], checks)


# --- class 6: running heads and stamps ---------------------------------------------------------


def chapter_running_heads() -> Case:
    """A running head that names the current chapter changes every two pages."""
    chapters = [
        "Chapter 1 · Introduction",
        "Chapter 2 · Maintenance History",
        "Chapter 3 · Results",
    ]
    pages: list[list[Item]] = []
    for n in range(6):
        items: list[Item] = [Text(50, 40, chapters[n // 2], size=8, italic=True)]
        items += wrapped_paragraph(50, 90, 480, f"Page {n + 1} text. {body(n)}. {body(n + 4)}.", 10)
        items.append(Text(290, 810, str(n + 1), size=8))
        pages.append(items)
    checks: tuple[Check, ...] = tuple(
        [{"type": "absent", "text": c} for c in chapters]
        + [{"type": "not_heading", "text": "Chapter", "contains": True}]
    )
    return Case("chapter_running_heads", 6, pages, checks)


def downloaded_stamp() -> Case:
    """A 'Downloaded from …' stamp on every page, set sideways in the right margin."""
    pages: list[list[Item]] = []
    for n in range(3):
        items: list[Item] = wrapped_paragraph(50, 90, 480, f"Page {n + 1} text. {body(n)}.", 10)
        items.append(
            Text(
                570,
                700,
                f"Downloaded from https://journals.example.org by guest on {n + 10} May 2024",
                size=7,
                rotate=90,
            )
        )
        pages.append(items)
    case = Case(
        "downloaded_stamp",
        6,
        pages,
        (
            {"type": "absent", "text": "Downloaded from"},
            {"type": "present", "text": "Page 3 text."},
        ),
    )
    return case


def one_page_footer() -> Case:
    page: list[Item] = [
        Text(50, 80, "Notice of Inspection", size=18, bold=True),
        *wrapped_paragraph(50, 120, 480, f"{BODY}. {BODY}. {BODY}.", 10),
        Text(270, 815, "Page 1 of 1", size=8),
    ]
    return Case(
        "one_page_footer",
        6,
        [page],
        (
            {"type": "absent", "text": "Page 1 of 1"},
            {"type": "present", "text": "Notice of Inspection"},
        ),
    )


def lone_page_number_one_page() -> Case:
    page: list[Item] = [
        *wrapped_paragraph(50, 100, 480, f"{BODY}. {BODY}. {BODY}.", 10),
        Text(295, 815, "7", size=9),
    ]
    return Case(
        "one_page_number",
        6,
        [page],
        (
            {
                "type": "absent",
                "text": "limits the manufacturer gives for each model and season. 7",
            },
            {"type": "absent", "text": "season 7"},
        ),
    )


def numbered_captions_at_page_tops() -> Case:
    """Annex tables captioned 別表第1, 別表第2, 別表第3 at the top of consecutive pages."""
    pages: list[list[Item]] = []
    for n in range(1, 5):
        items: list[Item] = [Text(50, 50, f"別表第{n}", size=10.5, cjk=True)]
        items += [
            Text(50, 90 + 15 * i, line, size=10.5, cjk=True)
            for i, line in enumerate(
                wrap_text(f"第{n}表の説明。" + JA_BODY * 2, 480, 10.5, cjk=True)
            )
        ]
        pages.append(items)
    checks = tuple({"type": "present", "text": f"別表第{n}"} for n in range(1, 5))
    return Case("numbered_captions", 6, pages, checks)


# --- class 7: tables (booktabs, annex continuations) ------------------------------------------

MODELS = ("Baseline", "Ridge", "Lasso", "Random forest", "Gradient boosting", "MLP", "Ours")
SCORES = (
    ("71.2", "0.84", "12"),
    ("73.5", "0.86", "14"),
    ("72.9", "0.85", "9"),
    ("78.1", "0.90", "41"),
    ("79.4", "0.91", "55"),
    ("80.2", "0.92", "63"),
    ("83.6", "0.94", "38"),
)


def booktabs(
    x: float,
    y: float,
    widths: Sequence[float],
    table: Sequence[Sequence[str]],
    size: float = 9.0,
    midrules_before: Sequence[int] = (),
) -> tuple[list[Item], float]:
    """A LaTeX booktabs table (`table[0]` is its header): a thick top rule, a rule under the
    header, a thick bottom rule (all drawn as filled bars, as LaTeX draws them), no vertical
    rules; the first column left aligned, the others right aligned; an extra thin rule above
    each body row in `midrules_before`. Returns the items and the y under the bottom rule."""
    header, rows = table[0], table[1:]
    pitch = size * 1.35
    right = x + sum(widths)
    items: list[Item] = [Rect(x, y, right, y + 0.8, width=0, fill_gray=0.0)]

    def row_items(cells: Sequence[str], baseline: float, bold: bool = False) -> list[Item]:
        placed: list[Item] = []
        left = x
        for index, (cell, width) in enumerate(zip(cells, widths, strict=True)):
            cell_x = (
                left + 4 if index == 0 else left + width - 4 - text_width(cell, size, bold=bold)
            )
            placed.append(Text(cell_x, baseline, cell, size=size, bold=bold))
            left += width
        return placed

    baseline = y + 0.8 + size * 1.2
    items += row_items(header, baseline, bold=True)
    rule_y = baseline + size * 0.45
    items.append(Rect(x, rule_y, right, rule_y + 0.5, width=0, fill_gray=0.0))
    baseline = rule_y + size * 1.35
    for index, row in enumerate(rows):
        if index in midrules_before:
            rule_y = baseline - size * 1.05
            items.append(Rect(x, rule_y, right, rule_y + 0.5, width=0, fill_gray=0.0))
            baseline += size * 0.4
        items += row_items(row, baseline)
        baseline += pitch
    bottom = baseline - pitch + size * 0.5
    items.append(Rect(x, bottom, right, bottom + 0.8, width=0, fill_gray=0.0))
    return items, bottom + 0.8


def _paper_text(x: float, y: float, width: float, n: int, size: float = 10.0) -> list[Item]:
    return wrapped_paragraph(x, y, width, f"{body(n)}. {body(n + 2)}. {body(n + 4)}.", size)


def booktabs_table() -> Case:
    """A paper's results table in booktabs style between two paragraphs."""
    items = _paper_text(60, 90, 475, 0)
    items.append(Text(60, 190, "Table 2: Accuracy, AUC and training time of each model.", size=9))
    table, bottom = booktabs(
        150,
        200,
        (130, 60, 50, 60),
        [("Model", "Acc.", "AUC", "Time"), *[(m, *s) for m, s in zip(MODELS, SCORES, strict=True)]],
    )
    items += table + _paper_text(60, bottom + 30, 475, 5)
    checks: tuple[Check, ...] = (
        {"type": "tables", "count": 1},
        {"type": "table_row", "cells": ["Model", "Acc.", "AUC", "Time"]},
        {"type": "table_row", "cells": ["Random forest", "78.1", "0.90", "41"]},
        {"type": "table_row", "cells": ["Ours", "83.6", "0.94", "38"]},
    )
    return Case("booktabs_table", 7, [items], checks)


def booktabs_with_midrule() -> Case:
    """Booktabs with a second rule above the last row (the paper's own method): four rules,
    one band holding six rows between bands of one row."""
    table, bottom = booktabs(
        150,
        120,
        (130, 60, 50, 60),
        [("Model", "Acc.", "AUC", "Time"), *[(m, *s) for m, s in zip(MODELS, SCORES, strict=True)]],
        midrules_before=(6,),
    )
    items = [*_paper_text(60, 60, 475, 1), *table, *_paper_text(60, bottom + 30, 475, 3)]
    checks: tuple[Check, ...] = (
        {"type": "tables", "count": 1},
        {"type": "table_row", "cells": ["Model", "Acc.", "AUC", "Time"]},
        {"type": "table_row", "cells": ["Lasso", "72.9", "0.85", "9"]},
        {"type": "table_row", "cells": ["Ours", "83.6", "0.94", "38"]},
    )
    return Case("booktabs_midrule", 7, [items], checks)


def booktabs_two_tables() -> Case:
    """Two booktabs tables of the same width stacked in one column, a caption between them."""
    first, bottom = booktabs(
        150,
        120,
        (130, 60, 50, 60),
        [
            ("Model", "Acc.", "AUC", "Time"),
            *[(m, *s) for m, s in zip(MODELS[:4], SCORES[:4], strict=True)],
        ],
    )
    caption = Text(150, bottom + 24, "Table 3: The same models on the held-out plants.", size=9)
    second, end = booktabs(
        150,
        bottom + 34,
        (130, 60, 50, 60),
        [
            ("Model", "Acc.", "AUC", "Time"),
            *[(m, *s) for m, s in zip(MODELS[3:], SCORES[:4], strict=True)],
        ],
    )
    items = [
        *_paper_text(60, 60, 475, 2),
        *first,
        caption,
        *second,
        *_paper_text(60, end + 30, 475, 6),
    ]
    checks: tuple[Check, ...] = (
        {"type": "tables", "count": 2},
        {"type": "table_row", "cells": ["Ridge", "73.5", "0.86", "14"]},
        {"type": "table_row", "cells": ["MLP", "72.9", "0.85", "9"]},
        {"type": "present", "text": "Table 3: The same models on the held-out plants."},
    )
    return Case("booktabs_two_tables", 7, [items], checks)


def booktabs_in_a_column() -> Case:
    """A two-column paper page: a narrow booktabs table at the top of the right column."""
    left = _paper_text(50, 70, 240, 0, size=9) + _paper_text(50, 330, 240, 4, size=9)
    table, bottom = booktabs(
        305,
        70,
        (110, 45, 45),
        [("Model", "Acc.", "AUC"), *[(m, s[0], s[1]) for m, s in zip(MODELS, SCORES, strict=True)]],
        size=8,
    )
    right = wrapped_paragraph(
        305, bottom + 25, 240, f"After the table the right column goes on. {body(7)}.", 9
    )
    checks: tuple[Check, ...] = (
        {"type": "tables", "count": 1},
        {"type": "table_row", "cells": ["Gradient boosting", "79.4", "0.91"]},
        {"type": "order", "before": "Gradient boosting", "after": "After the table the right"},
        {
            "type": "order",
            "before": "Operators record every inspection of the thermal",
            "after": "Gradient boosting",
        },
    )
    return Case("booktabs_in_a_column", 7, [left + table + right], checks)


ANNEX_ITEMS = (
    "電気用品",
    "ガス用品",
    "石油機器",
    "乳幼児用ベッド",
    "携帯用レーザー応用装置",
    "浴槽用温水循環器",
    "ライター",
    "圧力なべ",
    "乗車用ヘルメット",
    "登山用ロープ",
    "石油給湯機",
    "石油ふろがま",
    "石油ストーブ",
)


def _annex_rows(start: int, count: int) -> list[tuple[str, str, str]]:
    return [
        (str(i + 1), ANNEX_ITEMS[i], str((i * 37) % 90 + 10)) for i in range(start, start + count)
    ]


def _unruled_rows(y: float, rows: Sequence[Sequence[str]], size: float = 10.5) -> list[Item]:
    """Rows of an annex table without rules: number, item, a right-aligned count."""
    items: list[Item] = []
    for i, (number, item, count) in enumerate(rows):
        baseline = y + 18 * i
        items += [
            Text(60, baseline, number, size=size),
            Text(120, baseline, item, size=size),
            Text(420 - text_width(count, size), baseline, count, size=size),
        ]
    return items


def annex_continued_unruled() -> Case:
    """An annex table without rules ends page 1; its last two rows go on at the top of page 2
    without the header (too few to be a table by themselves)."""
    header: list[Item] = [
        Text(60, 100, "番号", size=10.5),
        Text(120, 100, "品目", size=10.5),
        Text(400, 100, "件数", size=10.5),
    ]
    first = [
        Text(60, 70, "別表第一（第三条関係）", size=12),
        *header,
        *_unruled_rows(118, _annex_rows(0, 10)),
    ]
    second = [
        *_unruled_rows(80, _annex_rows(10, 2)),
        *wrapped_paragraph(60, 150, 400, "備考　" + JA_BODY * 3, 10.5, cjk=True),
    ]
    checks: tuple[Check, ...] = (
        {"type": "tables", "count": 2},
        {"type": "table_row", "cells": ["11", "石油給湯機", "20"]},
        {"type": "table_row", "cells": ["12", "石油ふろがま", "57"]},
        {"type": "present", "text": "備考　" + JA_BODY},
    )
    return Case("annex_continued_unruled", 7, [first, second], checks)


def _framed_rows(
    y: float, rows: Sequence[Sequence[str]], header: Sequence[str] = (), size: float = 10.0
) -> list[Item]:
    """A table framed by vertical rules, a rule under its header, none between its rows."""
    xs, pitch = (60.0, 110.0, 360.0, 440.0), 18.0
    items: list[Item] = [Rule(xs[0], y, xs[-1], y)]
    top = y
    if header:
        items += [
            Text(x + 4, y + 13, h, size=size, bold=True) for x, h in zip(xs, header, strict=False)
        ]
        y += pitch
        items.append(Rule(xs[0], y, xs[-1], y))
    for number, item, count in rows:
        items += [
            Text(xs[0] + 4, y + 13, number, size=size),
            Text(xs[1] + 4, y + 13, item, size=size),
            Text(xs[3] - 4 - text_width(count, size), y + 13, count, size=size),
        ]
        y += pitch
    items.append(Rule(xs[0], y, xs[-1], y))
    return items + [Rule(x, top, x, y) for x in xs]


def annex_continued_framed() -> Case:
    """Annex B framed by vertical rules runs two rows onto page 2, no header, no row rules."""
    parts = [
        "Valve",
        "Gasket",
        "Sensor",
        "Relay",
        "Fuse",
        "Fan",
        "Pump",
        "Filter",
        "Hose",
        "Seal",
        "Bearing",
        "Spring",
    ]
    rows = [(str(i + 1), f"{name} assembly", str(4 + i * 3)) for i, name in enumerate(parts)]
    first = [
        Text(60, 80, "Annex B: Spare parts per unit", size=12, bold=True),
        *_framed_rows(100, rows[:10], ("No.", "Part", "Qty")),
    ]
    second = [
        *_framed_rows(80, rows[10:]),
        *wrapped_paragraph(60, 150, 380, f"Notes. {BODY}. {BODY}.", 10),
    ]
    checks: tuple[Check, ...] = (
        {"type": "tables", "count": 2},
        {"type": "table_row", "cells": ["11", "Bearing assembly", "34"]},
        {"type": "table_row", "cells": ["12", "Spring assembly", "37"]},
        {"type": "present", "text": f"Notes. {BODY}."},
    )
    return Case("annex_continued_framed", 7, [first, second], checks)


def table_then_prose() -> Case:
    """A table ends page 1 and page 2 opens with prose: the prose stays prose."""
    first = [Text(60, 70, "別表第二", size=12), *_unruled_rows(100, _annex_rows(0, 10))]
    second = wrapped_paragraph(60, 80, 360, f"{BODY}. {BODY}. {BODY}.", 10)
    return Case(
        "table_then_prose",
        7,
        [first, second],
        (
            {"type": "tables", "count": 1},
            {"type": "present", "text": f"{BODY}. {BODY}."},
        ),
    )


# --- class 8: sentences across column and page breaks ------------------------------------------

JA_SENTENCES = (
    "事業者は、製品の設計から廃棄までの各段階において安全性を確保するための措置を講じなければならない。",
    "前項の措置には、使用者が誤って操作した場合にも危害が生じないようにする設計上の配慮が含まれる。",
    "事業者は、製品の事故に関する情報を収集し、その原因を調査して再発防止のための対策を定めるものとする。",
    "調査の結果は、経営責任者に報告するとともに、関係する部署及び取引先と速やかに共有しなければならない。",
    "また、消費者からの問い合わせに対応する窓口を設け、その連絡先を製品及び取扱説明書に表示するものとする。",
)


def _ja_lines(width: float, size: float, sentences: Sequence[str]) -> list[str]:
    """The sentences wrapped, each numbered ("三番目に、…") so that no stretch of text repeats."""
    text = "".join(f"{_kanji_number(n + 1)}番目に、{s}" for n, s in enumerate(sentences))
    return wrap_text(text, width, size, cjk=True)


def _kanji_number(n: int) -> str:
    digits = "〇一二三四五六七八九"
    tens, ones = divmod(n, 10)
    return ("" if tens == 0 else "十" if tens == 1 else digits[tens] + "十") + (
        digits[ones] if ones else ""
    )


def _cut_mid_sentence(lines: Sequence[str], around: int) -> int:
    """The first line count from `around` on after which a sentence goes on."""
    index = around
    while lines[index - 1].endswith(("。", "」")):
        index += 1
    return index


def ja_column_break() -> Case:
    """Two Japanese columns: the paragraph at the foot of the left column goes on at the head
    of the right column in mid-sentence."""
    size, pitch = 10.5, 15.0
    lines = _ja_lines(230, size, JA_SENTENCES * 3)
    cut = _cut_mid_sentence(lines, 30)
    items: list[Item] = [
        Text(50, 90 + pitch * i, line, size=size, cjk=True) for i, line in enumerate(lines[:cut])
    ]
    items += [
        Text(315, 90 + pitch * i, line, size=size, cjk=True) for i, line in enumerate(lines[cut:])
    ]
    checks: tuple[Check, ...] = (
        {"type": "present", "text": _sentence_across(lines, cut)},
        {"type": "paragraph", "text": "".join(lines)},
    )
    return Case("ja_column_break", 8, [items], checks)


def _ja_page(lines: Sequence[str], number: int, size: float = 10.5) -> list[Item]:
    items: list[Item] = [
        Text(50, 90 + 15.0 * i, line, size=size, cjk=True) for i, line in enumerate(lines)
    ]
    items.append(Text(292, 815, str(number), size=8))
    return items


def ja_page_break() -> Case:
    """A Japanese paragraph that fills page 1 and goes on at the top of page 2 mid-sentence."""
    lines = _ja_lines(480, 10.5, JA_SENTENCES * 3)
    cut = _cut_mid_sentence(lines, len(lines) - 4)
    pages = [
        [Text(50, 60, "第1章　総則", size=14, bold=True, cjk=True), *_ja_page(lines[:cut], 1)],
        _ja_page(lines[cut:], 2),
    ]
    checks: tuple[Check, ...] = (
        {"type": "present", "text": _sentence_across(lines, cut)},
        {"type": "paragraph", "text": _sentence_across(lines, cut)},
    )
    return Case("ja_page_break", 8, pages, checks)


def _sentence_across(lines: Sequence[str], cut: int) -> str:
    """The sentence that the break after `lines[:cut]` cuts in two."""
    before, after = "".join(lines[:cut]), "".join(lines[cut:])
    return before[before.rindex("。") + 1 :] + after[: after.index("。") + 1]


def en_page_break() -> Case:
    """An English paragraph cut by a page break in mid-sentence."""
    words = _register_words("unit", 260)
    sentences = [" ".join(words[i : i + 13]) + "." for i in range(0, len(words), 13)]
    lines = wrap_text(" ".join(s[0].upper() + s[1:] for s in sentences), 480, 10)
    cut = next(
        i
        for i in range(len(lines) - 3, 0, -1)
        if not lines[i - 1].endswith(".") and lines[i][0].islower()
    )
    pages = [
        [Text(50, 90 + 14 * i, line, size=10) for i, line in enumerate(lines[:cut])],
        [Text(50, 90 + 14 * i, line, size=10) for i, line in enumerate(lines[cut:])],
    ]
    before, after = " ".join(lines[:cut]), " ".join(lines[cut:])
    sentence = before[before.rindex(". ") + 2 :] + " " + after[: after.index(".") + 1]
    return Case("en_page_break", 8, pages, ({"type": "paragraph", "text": sentence},))


# --- class 9: right-to-left lines -------------------------------------------------------------

AR_TITLE = "تقرير الصيانة السنوي"
# Runs in reading order: (text, right to left?). Digits and Latin read left to right inside.
AR_MIXED: tuple[tuple[str, bool], ...] = (
    ("سجل المشغلون ", True),
    ("1,250", False),
    (" عملية فحص في عام ", True),
    ("2024", False),
    (" وفق معيار ", True),
    ("ISO 9001", False),
    (" المعتمد.", True),
)
AR_BRACKETS: tuple[tuple[str, bool], ...] = (
    ("تفاصيل الفحص (انظر الجدول ", True),
    ("3", False),
    (") مرفقة بالتقرير.", True),
)
AR_WORDS = (
    "يسجل المشغلون كل فحص لوحدة التحكم الحراري في سجل الصيانة ويقارنون القراءات بالحدود التي "
    "يحددها المصنع لكل طراز وموسم ثم يرسلون التقرير إلى المهندس المسؤول عن الموقع"
).split()
# Set with the lam-alef ligature glyph (ﻻ), which a reader reads and types as lam, alef.
AR_LIGATURE: tuple[tuple[str, bool], ...] = (
    ("\ufefb توجد أعطال في ", True),
    ("3", False),
    (" وحدات من أصل ", True),
    ("40", False),
    (".", True),
)
HE_MIXED: tuple[tuple[str, bool], ...] = (
    ("הצוות בדק ", True),
    ("12", False),
    (" יחידות בשנת ", True),
    ("2024", False),
    (" לפי תקן ", True),
    ("ISO 9001", False),
    (".", True),
)


def logical(runs: Sequence[tuple[str, bool]]) -> str:
    return "".join(text for text, _ in runs)


def rtl_lines(words: Sequence[str], width: float, size: float) -> list[str]:
    """Arabic words wrapped to `width` (reading order inside each line)."""
    lines: list[str] = []
    for word in words:
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and rtl_width(((candidate, True),), size) <= width:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


def rtl_paragraph(
    right: float, y: float, width: float, words: Sequence[str], size: float, drawn: str
) -> tuple[list[Item], list[str]]:
    """A justified Arabic paragraph (its last line not spread), and its lines."""
    lines = rtl_lines(words, width, size)
    items: list[Item] = [
        RtlText(
            right,
            y + i * size * 1.5,
            ((line, True),),
            size=size,
            drawn=drawn,
            justify=0.0 if i == len(lines) - 1 else width,
        )
        for i, line in enumerate(lines)
    ]
    return items, lines


def arabic_report(drawn: str) -> Case:
    """An Arabic report page: a title, a line mixing Arabic, digits and a Latin standard name,
    a line with brackets, and a justified paragraph; drawn in visual or in logical order."""
    items: list[Item] = [
        RtlText(545, 80, ((AR_TITLE, True),), size=20, drawn=drawn),
        RtlText(545, 130, AR_MIXED, size=12, drawn=drawn),
        RtlText(545, 160, AR_BRACKETS, size=12, drawn=drawn),
        RtlText(545, 190, AR_LIGATURE, size=12, drawn=drawn),
    ]
    paragraph, lines = rtl_paragraph(545, 230, 400, AR_WORDS, 12, drawn)
    items += paragraph
    checks: list[Check] = [
        {"type": "title", "text": AR_TITLE},
        {"type": "present", "text": logical(AR_MIXED)},
        {"type": "present", "text": logical(AR_BRACKETS)},
        {"type": "present", "text": "لا توجد أعطال في 3 وحدات من أصل 40."},
        {"type": "present", "text": " ".join(lines)},
        {"type": "order", "before": logical(AR_MIXED), "after": logical(AR_BRACKETS)},
    ]
    return Case(f"arabic_report_{drawn}", 9, [items], tuple(checks))


def arabic_two_columns() -> Case:
    """Two Arabic columns: the right one is read first."""
    right_words = ["العمود", "الأيمن", "يبدأ", "هنا", *AR_WORDS, "نهاية", "العمود", "الأيمن"]
    left_words = ["العمود", "الأيسر", "يبدأ", "هنا", *AR_WORDS[::-1], "نهاية", "العمود", "الأيسر"]
    right_items, right_lines = rtl_paragraph(555, 100, 230, right_words, 11, "visual")
    left_items, left_lines = rtl_paragraph(270, 100, 230, left_words, 11, "visual")
    checks: list[Check] = [
        {"type": "order", "before": "نهاية العمود الأيمن", "after": "العمود الأيسر يبدأ هنا"},
        {"type": "present", "text": " ".join(right_lines)},
        {"type": "present", "text": " ".join(left_lines)},
    ]
    # Drawn left column first, as some producers do: order must come from positions.
    return Case("arabic_two_columns", 9, [left_items + right_items], tuple(checks))


def hebrew_line() -> Case:
    items: list[Item] = [RtlText(545, 100, HE_MIXED, size=12, drawn=drawn) for drawn in ("visual",)]
    items.append(
        RtlText(
            545,
            130,
            (("שורה שנייה נכתבה בסדר לוגי ", True), ("(A4)", False), (".", True)),
            size=12,
            drawn="logical",
        )
    )
    return Case(
        "hebrew_lines",
        9,
        [items],
        (
            {"type": "present", "text": logical(HE_MIXED)},
            {"type": "present", "text": "שורה שנייה נכתבה בסדר לוגי (A4)."},
        ),
    )


def arabic_word_in_english() -> Case:
    """An English sentence quoting one Arabic word: only the word reads right to left."""
    before, after = "The Arabic word ", " means a maintenance record in the form."
    word = "سجل الصيانة"
    x = 50 + text_width(before, 11)
    width = rtl_width(((word, True),), 11)
    items: list[Item] = [
        Text(50, 100, before, size=11),
        RtlText(x + width, 100, ((word, True),), size=11),
        Text(x + width, 100, after, size=11),
        *wrapped_paragraph(50, 130, 480, f"{BODY}. {BODY}.", 11),
    ]
    return Case(
        "arabic_word_in_english", 9, [items], ({"type": "present", "text": before + word + after},)
    )


# --- class 10: cover pages ----------------------------------------------------------------


def ministry_cover() -> Case:
    cover: list[Item] = [
        Text(120, 200, "製品安全ガイドライン", size=26, bold=True, cjk=True),
        Text(230, 420, "2023年3月", size=14, cjk=True),
        Text(220, 445, "経済産業省", size=14, cjk=True),
        Text(200, 470, "改訂 2024年4月1日", size=14, cjk=True),
    ]
    body: list[list[Item]] = []
    for n, head in enumerate(("1. 目的", "2. 適用範囲")):
        items: list[Item] = [Text(50, 80, head, size=14, bold=True, cjk=True)]
        items += [
            Text(50, 120 + 15 * i, line, size=10.5, cjk=True)
            for i, line in enumerate(wrap_text(JA_BODY * (3 + n), 480, 10.5, cjk=True))
        ]
        body.append(items)
    checks: tuple[Check, ...] = (
        {"type": "title", "text": "製品安全ガイドライン"},
        {"type": "not_heading", "text": "経済産業省"},
        {"type": "not_heading", "text": "2023年3月"},
        {"type": "not_heading", "text": "改訂 2024年4月1日"},
        {"type": "heading", "text": "1. 目的"},
        {"type": "present", "text": "経済産業省"},
    )
    return Case("ministry_cover", 10, [cover, *body], checks)


def company_cover() -> Case:
    cover: list[Item] = [
        Text(60, 60, "ACME Controls GmbH", size=16, bold=True),
        Text(60, 250, "Service Manual TC-200", size=28, bold=True),
        Text(60, 300, "Revision 4 · 12 March 2024", size=14),
    ]
    checks: tuple[Check, ...] = (
        {"type": "title", "text": "Service Manual TC-200"},
        {"type": "not_heading", "text": "ACME Controls GmbH"},
        {"type": "not_heading", "text": "Revision 4 · 12 March 2024"},
        {"type": "heading", "text": "1. Overview"},
    )
    return Case(
        "company_cover", 10, [cover, *_body_pages(2, ["1. Overview", "2. Findings"])], checks
    )


KO_BODY = (
    "위원장은 회의를 개의하고 의사일정에 따라 안건을 상정하였으며 "
    "위원들은 법률안의 내용을 심사하였다. "
)


def masthead_minutes() -> Case:
    """Assembly minutes (corpus: 국회회의록): the first page opens with a masthead - the session
    above the title on the left, the title, the publisher letter-spaced on the right - and the
    agenda runs on below it; no other heading follows in the whole document."""
    first: list[Item] = [
        Text(63, 114, "제414회국회 (임시회)", size=16, cjk=True),
        Text(193, 140, "환경노동위원회회의록", size=23, cjk=True),
        Text(421, 180, "국 회 사 무 처", size=15, cjk=True),
    ]
    first += [
        Text(54, 220 + 16 * i, line, size=10.5, cjk=True)
        for i, line in enumerate(wrap_text(KO_BODY * 8, 480, 10.5, cjk=True))
    ]
    later: list[Item] = [
        Text(54, 80 + 16 * i, line, size=10.5, cjk=True)
        for i, line in enumerate(wrap_text(KO_BODY * 12, 480, 10.5, cjk=True))
    ]
    checks: tuple[Check, ...] = (
        {"type": "title", "text": "환경노동위원회회의록"},
        {"type": "not_heading", "text": "제414회국회 (임시회)"},
        {"type": "not_heading", "text": "국 회 사 무 처"},
        {"type": "present", "text": "국 회 사 무 처"},
        {"type": "order", "before": "제414회국회 (임시회)", "after": "환경노동위원회회의록"},
    )
    return Case("masthead_minutes", 10, [first, later], checks)


BUILDERS: tuple[Callable[[], Case], ...] = (
    three_narrow_columns,
    chart_beside_column,
    spread,
    rotated_page,
    margin_headings,
    margin_article_numbers,
    lambda: bold_numbered_headings(False),
    lambda: bold_numbered_headings(True),
    consecutive_articles,
    run_in_headings,
    consecutive_margin_articles,
    enumerators_drawn_apart,
    title_on_two_lines,
    centred_title_lines,
    title_with_colon,
    japanese_title_lines,
    source_line_is_no_title,
    chart_labels_are_no_headings,
    chapter_running_heads,
    downloaded_stamp,
    one_page_footer,
    lone_page_number_one_page,
    numbered_captions_at_page_tops,
    booktabs_table,
    booktabs_with_midrule,
    booktabs_two_tables,
    booktabs_in_a_column,
    annex_continued_unruled,
    annex_continued_framed,
    table_then_prose,
    ja_column_break,
    ja_page_break,
    en_page_break,
    lambda: arabic_report("visual"),
    lambda: arabic_report("logical"),
    arabic_two_columns,
    hebrew_line,
    arabic_word_in_english,
    ministry_cover,
    company_cover,
    masthead_minutes,
)


def all_cases() -> list[Case]:
    return [build() for build in BUILDERS]

"""Provenance (issue 29): every chunk's boxes on the PDF page, the same by every route
(`split x.pdf`, `convert -o x.md` then `split x.md`, `convert | split -`), and chunk ids
that survive an edit elsewhere in the document (a page deleted, a paragraph inserted)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pymupdf
from pdf_factory import Text, make_pdf, wrapped_paragraph
from typer.testing import CliRunner

from chunkcli.cli import app
from chunkcli.convert.joining import join_lines_at
from chunkcli.convert.pipeline import convert_pdf
from chunkcli.jsonl import chunk_from_dict, chunk_to_dict, chunk_to_flat_dict
from chunkcli.markdown_format import (
    PageBoxes,
    format_page_boxes,
    parse_boxes,
    without_page_markers,
)
from chunkcli.model import Chunk, PageBox
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.split.boxes import box_index, chunk_boxes

runner = CliRunner()
LEFT_X, RIGHT_X, COLUMN_WIDTH = 56.0, 315.0, 225.0
PARAGRAPHS_PER_COLUMN = 3
WORDS_PER_PARAGRAPH = 40
MAX_TOKENS = "400"  # chunks of two or three paragraphs: they run across columns and pages


def words(page: int, column: str, paragraph: int) -> str:
    """A paragraph of words found nowhere else in the document (`cLbah`: page 2, left column,
    paragraph b, word 07), a full stop every eight words. Letters, not digits: lines that
    differ only in their digits from page to page are running heads."""
    items = [
        f"{LETTERS[page]}{column}{LETTERS[paragraph]}{LETTERS[i // 10]}{LETTERS[i % 10]}"
        for i in range(WORDS_PER_PARAGRAPH)
    ]
    return " ".join(w + ("." if i % 8 == 7 else "") for i, w in enumerate(items))


LETTERS = "abcdefghij"
# Headings that differ in words (ones that differ only in a number are read as running heads).
HEADINGS = ("", "Birch and its bark", "", "Cedar in the hills", "", "Maple syrup harvests")
WORD_RE = re.compile(r"[a-j][LR][a-j]{3}")


def column_items(page: int, column: str, x: float, skip: int = -1) -> list[Text]:
    items: list[Text] = []
    top = 120.0
    for paragraph in range(PARAGRAPHS_PER_COLUMN):
        if paragraph == skip:
            continue
        lines = wrapped_paragraph(x, top, COLUMN_WIDTH, words(page, column, paragraph))
        items += lines  # type: ignore[arg-type]
        top = lines[-1].y + 26  # type: ignore[attr-defined]
    return items


def two_column_pdf(path: Path, pages: int = 4, skip: tuple[int, int] = (-1, -1)) -> Path:
    """`pages` pages of two columns of three paragraphs, a heading over every odd page (a
    section runs over two pages); `skip` = (page, paragraph) leaves that paragraph out of the
    left column (the document before an insert)."""
    drawn = []
    for page in range(1, pages + 1):
        left_skip = skip[1] if skip[0] == page else -1
        items = [Text(LEFT_X, 80, HEADINGS[page], size=16, bold=True)]
        items = items if page % 2 else []
        items += column_items(page, "L", LEFT_X, left_skip)
        items += column_items(page, "R", RIGHT_X)
        drawn.append(items)
    return make_pdf(path, drawn)


def word_places(pdf: Path) -> dict[str, tuple[int, float, float]]:
    """Every word of the PDF -> (page, centre x, centre y)."""
    places = {}
    with pymupdf.open(pdf) as doc:
        for page in doc:
            for x0, y0, x1, y1, word, *_ in page.get_text("words"):
                places[word.strip(".")] = (page.number + 1, (x0 + x1) / 2, (y0 + y1) / 2)
    return places


def share_inside(chunk: dict[str, object], places: dict[str, tuple[int, float, float]]) -> float:
    """The share of the chunk's body words (those of the PDF) that lie inside its boxes."""
    found = [places[w] for w in WORD_RE.findall(str(chunk["body"]))]
    boxes = chunk["boxes"]
    assert isinstance(boxes, list)

    def inside(page: int, x: float, y: float) -> bool:
        return any(
            b["page"] == page
            and b["bbox"][0] <= x <= b["bbox"][2]
            and b["bbox"][1] <= y <= b["bbox"][3]
            for b in boxes
        )

    return sum(inside(*place) for place in found) / len(found) if found else 1.0


def records(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines()]


def test_boxes_hold_the_chunks_words_and_are_the_same_by_all_three_routes(tmp_path: Path) -> None:
    pdf = two_column_pdf(tmp_path / "report.pdf")
    direct = runner.invoke(app, ["split", str(pdf), "--max-tokens", MAX_TOKENS])
    converted = runner.invoke(app, ["convert", str(pdf), "-o", str(tmp_path / "report.md")])
    from_file = runner.invoke(
        app, ["split", str(tmp_path / "report.md"), "--max-tokens", MAX_TOKENS]
    )
    piped = runner.invoke(app, ["convert", str(pdf)])
    from_stdin = runner.invoke(app, ["split", "-", "--max-tokens", MAX_TOKENS], input=piped.stdout)
    for result in (direct, converted, from_file, piped, from_stdin):
        assert result.exit_code == 0, result.output
    routes = [records(r.stdout) for r in (direct, from_file, from_stdin)]
    boxes = [[chunk["boxes"] for chunk in route] for route in routes]
    assert boxes[0] == boxes[1] == boxes[2]
    chunks = routes[0]
    places = word_places(pdf)
    good = [share_inside(chunk, places) >= 0.9 for chunk in chunks]
    assert len(chunks) >= 12 and all(good)  # the goal is 90 % of chunks; here every one
    # Chunks that run from the left column into the right one, or onto the next page, get a
    # box for each run; none gets more than a page and column can give.
    runs = [len(chunk["boxes"]) for chunk in chunks]  # type: ignore[arg-type]
    assert max(runs) >= 2
    for chunk in chunks:
        pages = {b["page"] for b in chunk["boxes"]}  # type: ignore[union-attr]
        assert pages <= set(range(int(chunk["page_start"]), int(chunk["page_end"]) + 1))  # type: ignore[call-overload]


def test_a_deleted_page_keeps_the_ids_of_unchanged_chunks(tmp_path: Path) -> None:
    pdf = two_column_pdf(tmp_path / "report.pdf", pages=5)
    with pymupdf.open(pdf) as doc:
        doc.delete_page(2)  # page 3
        shorter = doc.tobytes()
    options = SplitOptions(max_tokens=int(MAX_TOKENS), doc_id="report.pdf")
    before = split_markdown(convert_pdf(pdf).markdown, options)
    after = split_markdown(convert_pdf(shorter, name=pdf).markdown, options)

    def key(chunk: Chunk) -> tuple[tuple[str, ...], str]:
        return chunk.heading_path, without_page_markers(chunk.body)

    after_ids = {key(c): c.id for c in after}
    unchanged = [c for c in before if key(c) in after_ids]
    assert len(unchanged) >= len(before) * 3 // 5  # pages 1-2 and 4-5 of 5
    assert [c.id for c in unchanged] == [after_ids[key(c)] for c in unchanged]
    # pages after the deleted one are renumbered: same ids, pages and boxes say where they are
    moved = [c for c in after if (c.page_start or 0) >= 3]
    assert moved and all(box.page >= 3 for c in moved for box in c.boxes)


def test_a_paragraph_inserted_elsewhere_keeps_the_ids_of_other_sections(tmp_path: Path) -> None:
    before_pdf = two_column_pdf(tmp_path / "before.pdf", skip=(2, 1))
    after_pdf = two_column_pdf(tmp_path / "after.pdf")
    options = SplitOptions(max_tokens=int(MAX_TOKENS), doc_id="report.pdf")
    before = split_markdown(convert_pdf(before_pdf).markdown, options)
    after = split_markdown(convert_pdf(after_pdf).markdown, options)
    after_ids = {c.id for c in after}
    others = [c for c in before if c.heading_path[-1] != HEADINGS[1]]
    assert len(others) >= 5 and all(c.id in after_ids for c in others)


# --- the trailer ------------------------------------------------------------------------------

PAGE = "<!-- page 1 -->\n\n# Title\n\nOne line\nof text."


def test_the_boxes_trailer_round_trips_and_ends_the_content() -> None:
    boxes = PageBoxes(1, "0000abcd", ((17, 24, 72, 80, 300, 92), (26, 34, 72, 93, 300, 104)))
    line = format_page_boxes(boxes)
    assert line == "<!-- boxes page=1 crc=0000abcd 17,7,72,80,300,92 2,8,72,93,300,104 -->"
    markdown = f"{PAGE}\n\n{line}\n"
    trailer = parse_boxes(markdown)
    assert trailer is not None and trailer.pages == {1: boxes}
    assert markdown[: trailer.content_end] == PAGE + "\n"
    assert parse_boxes(PAGE + "\n") is None


def test_chunk_boxes_merge_a_column_run_and_drop_an_edited_page() -> None:
    from chunkcli.markdown_format import page_crc

    text = "<!-- page 1 -->\n\nLeft one. Left two.\n\nRight one."
    segments = (
        (17, 27, 50, 100, 280, 112),
        (27, 36, 50, 113, 270, 125),
        (38, 48, 310, 100, 540, 112),
    )
    line = format_page_boxes(PageBoxes(1, page_crc(text), segments))
    markdown = f"{text}\n\n{line}\n"
    trailer = parse_boxes(markdown)
    index = box_index(markdown, ((0, 1),), trailer)
    assert chunk_boxes(index, markdown, 17, 48) == (
        PageBox(1, (50, 100, 280, 125)),  # the two left lines: one run
        PageBox(1, (310, 100, 540, 112)),  # the right column: a jump up, a new box
    )
    assert chunk_boxes(index, markdown, 28, 36) == (PageBox(1, (50, 113, 270, 125)),)
    assert chunk_boxes(index, markdown, 36, 38) == ()  # only the blank line between blocks
    edited = markdown.replace("Left two", "Left 2!!")
    assert chunk_boxes(box_index(edited, ((0, 1),), parse_boxes(edited)), edited, 17, 48) == ()


def test_a_trailer_changes_no_chunk_but_adds_boxes(tmp_path: Path) -> None:
    pdf = two_column_pdf(tmp_path / "report.pdf", pages=2)
    markdown = convert_pdf(pdf).markdown
    trailer = parse_boxes(markdown)
    assert trailer is not None
    bare = markdown[: trailer.content_end]
    options = SplitOptions(max_tokens=int(MAX_TOKENS))
    with_boxes, without = split_markdown(markdown, options), split_markdown(bare, options)
    strip = [(c.id, c.body, c.start, c.end, c.tokens) for c in with_boxes]
    assert strip == [(c.id, c.body, c.start, c.end, c.tokens) for c in without]
    assert all(c.boxes for c in with_boxes) and not any(c.boxes for c in without)


def test_boxes_in_json_nested_flat_and_back() -> None:
    markdown = "<!-- page 1 -->\n\nOne line of text.\n"
    line = format_page_boxes(
        PageBoxes(
            1,
            __import__("chunkcli.markdown_format").markdown_format.page_crc(markdown.rstrip("\n")),
            ((17, 34, 72, 80, 300, 92),),
        )
    )
    chunk = split_markdown(f"{markdown}\n{line}\n", SplitOptions(), source="a.md")[0]
    assert chunk_to_dict(chunk)["boxes"] == [{"page": 1, "bbox": [72, 80, 300, 92]}]
    assert chunk_to_flat_dict(chunk)["boxes"] == '[{"page":1,"bbox":[72,80,300,92]}]'
    assert chunk_from_dict(chunk_to_dict(chunk)) == chunk
    assert (
        chunk_from_dict(chunk_to_flat_dict(chunk) | {"split_config": {}, "metadata": {}}).boxes
        == chunk.boxes
    )


def test_line_starts_in_joined_text() -> None:
    assert join_lines_at(["Hello infor-", "mation here.", "", "third line"]) == (
        "Hello information here. third line",
        [0, 11, -1, 24],
    )
    assert join_lines_at(["", "a", "日本", "語"]) == ("a日本語", [-1, 0, 1, 3])


def test_page_markers_are_not_part_of_the_id_text() -> None:
    assert (
        without_page_markers("A.\n\n<!-- page 7: ocr conf=0.91 engine=tesseract -->\n\nB.")
        == "A.\n\nB."
    )
    first = "# T\n\n<!-- page 1 -->\n\nA.\n\n<!-- page 2 -->\n\nB.\n"
    second = first.replace("page 2", "page 9")
    ids = [
        [c.id for c in split_markdown(m, SplitOptions(), source="t.md")] for m in (first, second)
    ]
    assert ids[0] == ids[1]


def test_check_reads_past_the_trailer(tmp_path: Path) -> None:
    from chunkcli.check import check_markdown
    from chunkcli.markdown_format import without_boxes

    markdown = convert_pdf(two_column_pdf(tmp_path / "report.pdf", pages=2)).markdown
    assert "<!-- boxes page=2 " in markdown
    issues = [(i.code, i.line) for i in check_markdown(markdown).issues]
    assert issues == [(i.code, i.line) for i in check_markdown(without_boxes(markdown)).issues]


def test_vertical_columns_side_by_side_are_one_run() -> None:
    from chunkcli.markdown_format import page_crc

    text = "<!-- page 1 -->\n\n縦書きの一行目二行目"
    # two vertical lines, right to left, over the same height; then one far down-left
    segments = (
        (17, 22, 500, 100, 512, 300),
        (22, 25, 484, 100, 496, 280),
        (25, 27, 60, 500, 72, 560),
    )
    line = format_page_boxes(PageBoxes(1, page_crc(text), segments))
    markdown = f"{text}\n\n{line}\n"
    index = box_index(markdown, ((0, 1),), parse_boxes(markdown))
    assert chunk_boxes(index, markdown, 17, 27) == (
        PageBox(1, (484, 100, 512, 300)),
        PageBox(1, (60, 500, 72, 560)),
    )


def test_a_trailer_written_by_hand_never_breaks_split() -> None:
    page = "<!-- page 1 -->\n\nText."
    crc = __import__("chunkcli.markdown_format").markdown_format.page_crc(page)
    for segments in ("9,-3,1,1,2,2", "0,99,1,1,2,2", "1,2,3", "-,1", "17,5,1,1,2,2 -10,2,1,1,2,2"):
        markdown = f"{page}\n\n<!-- boxes page=1 crc={crc} {segments} -->\n"
        chunks = split_markdown(markdown, SplitOptions())  # (a line not read is a comment)
        assert [(c.body.rstrip("\n"), c.boxes) for c in chunks] == [("Text.", ())]
    good = f"{page}\n\n<!-- boxes page=1 crc={crc} 17,5,1,1,2,2 -->\n"
    assert split_markdown(good, SplitOptions())[0].boxes == (PageBox(1, (1, 1, 2, 2)),)

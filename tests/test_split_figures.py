"""split and figure blocks (markdown_format): one piece, never cut but inside its words, kind
figure when alone, the image links on every chunk that holds one; Markdown written by hand."""

from __future__ import annotations

import pytest

from chunkcli.jsonl import chunk_from_dict, chunk_to_dict, chunk_to_flat_dict
from chunkcli.markdown_format import FigureBlock, format_figure
from chunkcli.model import Chunk, ChunkKind
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.split.counting import counter_per_span
from chunkcli.split.kinds import BlockKind
from chunkcli.split.scan import scan_markdown
from chunkcli.tokens import tiktoken_counter

FIGURE = (
    "<!-- figure -->\n\n"
    "Figure 3. Sales by region\n\n"
    "![Figure 3. Sales by region](images/report-p3-1.png)\n\n"
    "<!-- figure words: ocr conf=0.82 engine=tesseract -->\n\n"
    "North South 2019 2020 120 80\n\n"
    "<!-- /figure -->"
)
REPORT = (
    "# Report\n\n"
    "Sales grew in every region last year, and the north led the growth.\n\n"
    f"{FIGURE}\n\n"
    "The south caught up in the second half of the year.\n"
)
COUNT = tiktoken_counter("cl100k_base")


def split(markdown: str, max_tokens: int = 800, **options: object) -> list[Chunk]:
    settings = SplitOptions(max_tokens=max_tokens, **options)  # type: ignore[arg-type]
    return split_markdown(markdown, settings, source="report.md")


def holders(chunks: list[Chunk], start: int, end: int) -> list[Chunk]:
    return [c for c in chunks if c.start < end and c.end > start]


def test_the_figure_block_is_one_piece() -> None:
    scan = scan_markdown(REPORT, counter_per_span(REPORT, len))
    kinds = [(piece.kind, REPORT[piece.start : piece.end]) for piece in scan.pieces]
    assert kinds[2] == (BlockKind.FIGURE, FIGURE + "\n\n")
    assert [kind for kind, _ in kinds] == [
        BlockKind.HEADING,
        BlockKind.TEXT,
        BlockKind.FIGURE,
        BlockKind.TEXT,
    ]
    slow = scan_markdown(REPORT, counter_per_span(REPORT, len), fast_path=False)
    assert slow.pieces == scan.pieces


def test_a_figure_alone_is_a_figure_chunk_with_its_image() -> None:
    chunks = split(REPORT, max_tokens=60)
    assert [(c.kind, c.images) for c in chunks] == [
        (ChunkKind.SECTION, ()),
        (ChunkKind.FIGURE, ("images/report-p3-1.png",)),
        (ChunkKind.SECTION, ()),
    ]
    figure = chunks[1]
    assert figure.body == FIGURE + "\n\n" and figure.prefix == "Report\n\n"
    assert figure.heading_path == ("Report",)
    assert figure.tokens == COUNT(figure.text) == 62


def test_a_figure_among_paragraphs_gives_the_section_its_image() -> None:
    [chunk] = split(REPORT)
    assert chunk.kind is ChunkKind.SECTION and chunk.images == ("images/report-p3-1.png",)
    assert chunk.body == REPORT


def test_a_figure_over_the_limit_is_cut_in_its_words_repeating_its_caption() -> None:
    words = " ".join(f"Region {n} sold {n * 7} units." for n in range(60))
    markdown = REPORT.replace("North South 2019 2020 120 80", words)
    chunks = split(markdown, max_tokens=120)
    start = markdown.index("<!-- figure -->")
    end = markdown.index("<!-- /figure -->") + len("<!-- /figure -->")
    parts = holders(chunks, start, end)
    assert [c.kind for c in parts] == [ChunkKind.FIGURE_PART] * 5
    assert all(c.images == ("images/report-p3-1.png",) for c in parts)
    assert parts[0].start == start and parts[0].prefix == "Report\n\n"
    assert parts[0].body.startswith(FIGURE.split("North")[0])
    assert all(c.prefix == "Report\n\nFigure 3. Sales by region\n\n" for c in parts[1:])
    assert parts[-1].end == end and parts[-1].body.endswith("units.\n\n<!-- /figure -->")
    for chunk in chunks:
        assert markdown[chunk.start : chunk.end] == chunk.body
        assert chunk.tokens == COUNT(chunk.text) and chunk.tokens <= 120 and not chunk.oversize
    read = " ".join(c.body.split("-->\n\n")[-1] for c in parts[:-1])
    assert " ".join(read.split()) + " " + parts[-1].body.split("\n\n")[0] == words


def test_a_figure_without_words_over_the_limit_stays_whole_and_oversize() -> None:
    caption = "Figure 9. " + "A very long caption that goes on. " * 20
    markdown = "# Report\n\n" + format_figure(FigureBlock(caption.strip(), "img/a.png")) + "\n"
    chunks = split(markdown, max_tokens=50)
    assert [(c.kind, c.oversize, c.images) for c in chunks] == [
        (ChunkKind.FIGURE, True, ("img/a.png",))
    ]
    assert chunks[0].body == markdown


def test_words_of_a_figure_are_never_read_as_headings_tables_or_articles() -> None:
    words = "第3条 売上\n| a | b |\n| --- | --- |\n| 1 | 2 |"
    figure = format_figure(FigureBlock("図1 構成", "", words, None, None))
    markdown = f"# 規程\n\n第1条 この規程は適用する。\n\n{figure}\n\n第2条 次の通り。\n"
    for mode in ("heading", "laws", "qa", "items", "rows", "auto"):
        chunks = split(markdown, max_tokens=800, mode=mode)
        start = markdown.index("<!-- figure -->")
        end = markdown.index("<!-- /figure -->") + len("<!-- /figure -->")
        [holder] = holders(chunks, start, end)
        assert holder.start <= start and holder.end >= end, mode
        assert all(markdown[c.start : c.end] == c.body for c in chunks)


@pytest.mark.parametrize("mode", ["heading", "laws", "qa", "items", "rows"])
def test_every_mode_keeps_a_figure_whole_and_names_its_image(mode: str) -> None:
    markdown = "# Report\n\n" + "\n\n".join(
        f"## Part {n}\n\nQ. What is part {n}?\n\nA. It is the part numbered {n}.\n\n{FIGURE}"
        for n in range(3)
    )
    chunks = split(markdown, max_tokens=120, mode=mode)
    offset = 0
    for _ in range(3):
        start = markdown.index("<!-- figure -->", offset)
        end = offset = markdown.index("<!-- /figure -->", start) + len("<!-- /figure -->")
        [holder] = holders(chunks, start, end)
        assert holder.images == ("images/report-p3-1.png",)
    assert sum(len(c.images) for c in chunks) == 3


def test_a_figure_with_no_end_or_cut_by_a_heading_stays_ordinary_blocks() -> None:
    unclosed = (
        "# Report\n\n<!-- figure -->\n\nFigure 1. Map\n\n## Next\n\nText.\n\n<!-- /figure -->\n"
    )
    chunks = split(unclosed, max_tokens=20)
    assert ChunkKind.FIGURE not in [c.kind for c in chunks]
    assert [c.heading_path for c in chunks] == [("Report",), ("Report", "Next")]
    scan = scan_markdown(unclosed, counter_per_span(unclosed, len))
    assert BlockKind.FIGURE not in [piece.kind for piece in scan.pieces]


def test_figure_comments_in_code_or_a_list_bound_no_figure() -> None:
    fenced = f"# Report\n\n```\n{FIGURE}\n```\n"
    listed = "# Report\n\n- <!-- figure -->\n\n  Figure 1\n\n- <!-- /figure -->\n"
    for markdown in (fenced, listed):
        scan = scan_markdown(markdown, counter_per_span(markdown, len))
        assert BlockKind.FIGURE not in [piece.kind for piece in scan.pieces]


def test_offsets_stay_exact_with_crlf_and_a_byte_order_mark() -> None:
    markdown = "\ufeff" + REPORT.replace("\n", "\r\n")
    chunks = split(markdown, max_tokens=60)
    assert [c.kind for c in chunks] == [ChunkKind.SECTION, ChunkKind.FIGURE, ChunkKind.SECTION]
    assert all(markdown[c.start : c.end] == c.body for c in chunks)
    assert chunks[1].images == ("images/report-p3-1.png",)


def test_ids_of_other_chunks_do_not_change_when_a_figure_does() -> None:
    before = split(REPORT, max_tokens=60)
    after = split(REPORT.replace("120 80", "125 80"), max_tokens=60)
    assert [c.id for c in before][::2] == [c.id for c in after][::2]
    assert before[1].id != after[1].id
    assert split(REPORT, max_tokens=60) == before


def test_images_in_json_lines() -> None:
    chunk = split(REPORT, max_tokens=60)[1]
    data = chunk_to_dict(chunk)
    assert data["images"] == ["images/report-p3-1.png"]
    keys = list(data)
    assert keys[keys.index("content_sha256") + 1 : keys.index("start")] == ["images"]
    assert chunk_from_dict(data) == chunk
    plain = split(REPORT, max_tokens=60)[0]
    assert chunk_to_dict(plain)["images"] == [] and "images" not in chunk_to_flat_dict(plain)
    assert chunk_to_flat_dict(chunk)["images"] == ["images/report-p3-1.png"]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_long_figure_is_cut_in_its_words_with_any_line_end(newline: str) -> None:
    lines = [f"Region {n} sold {n * 7} units" for n in range(80)]
    figure = format_figure(FigureBlock("Figure 4. Units", "img/u.png", "\n".join(lines)))
    markdown = ("# Report\n\n" + figure + "\n").replace("\n", newline)
    chunks = split(markdown, max_tokens=100)
    assert len(chunks) > 3 and {c.kind for c in chunks} == {ChunkKind.FIGURE_PART}
    assert all(c.images == ("img/u.png",) for c in chunks)
    assert chunks[0].body.startswith("# Report" + newline * 2 + "<!-- figure -->")
    assert all(c.prefix == "Report\n\nFigure 4. Units\n\n" for c in chunks[1:])
    assert chunks[-1].body.endswith("units" + newline * 2 + "<!-- /figure -->")
    for chunk in chunks:
        assert markdown[chunk.start : chunk.end] == chunk.body
        assert chunk.tokens == COUNT(chunk.text) <= 100
    read = [line for c in chunks for line in c.body.splitlines() if line.startswith("Region")]
    assert read == lines

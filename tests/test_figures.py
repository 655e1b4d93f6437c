"""Figures on text pages: found, their captions attached, their words read, logos left out."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pymupdf
import pytest
from typer.testing import CliRunner, Result

from chunkcli.cli import app
from chunkcli.convert import ConvertOptions, convert_pdf
from chunkcli.convert.ocr.options import OcrMode, OcrOptions
from chunkcli.convert.options import ImageOptions
from chunkcli.markdown_format import FIGURE_START_RE, parse_figure
from chunkcli.model import BlockKind, ConvertResult

INTRO = "Sales rose in every region this year, as the chart below shows for each quarter."
AFTER = "The north region grew fastest, helped by two new stores opened in the spring."


def _chart_png(labels: tuple[str, ...], fontname: str = "helv") -> bytes:
    """A bar chart drawn on its own page and rendered to pixels: bars, an axis, labels."""
    doc = pymupdf.open()
    page = doc.new_page(width=320, height=200)
    page.draw_line((30, 170), (300, 170), width=1)
    for k, label in enumerate(labels):
        x = 45 + k * 85
        page.draw_rect(pymupdf.Rect(x, 170 - 40 * (k + 1), x + 50, 170), fill=(0.3, 0.5, 0.8))
        page.insert_text((x, 188), label, fontsize=12, fontname=fontname)
    page.insert_text((30, 20), labels[0] + " " + labels[-1], fontsize=12, fontname=fontname)
    return bytes(page.get_pixmap(dpi=200).tobytes("png"))


def _logo_png() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=60, height=60)
    page.draw_circle((30, 30), 25, fill=(0.8, 0.1, 0.1))
    return bytes(page.get_pixmap(dpi=100).tobytes("png"))


def _report(
    caption: str = "Figure 1. Sales by region",
    labels: tuple[str, ...] = ("North", "South", "West"),
    fontname: str = "helv",
) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 90), INTRO, fontsize=10)
    page.insert_image(pymupdf.Rect(72, 110, 392, 310), stream=_chart_png(labels, fontname))
    page.insert_text((72, 326), caption, fontsize=10, fontname=fontname)
    page.insert_text((72, 370), AFTER, fontsize=10)
    return bytes(doc.tobytes())


def _figures(result: ConvertResult) -> list[tuple[str, str]]:
    blocks = [b for p in result.document.pages for b in p.blocks if b.kind == BlockKind.FIGURE]
    return [(b.figure.caption, b.figure.words) for b in blocks if b.figure is not None]


def test_a_raster_chart_becomes_a_figure_with_its_caption_and_words() -> None:
    result = convert_pdf(_report())
    [(caption, words)] = _figures(result)
    assert caption == "Figure 1. Sales by region"
    assert words.split() == ["North", "West", "North", "South", "West"]
    markdown = result.markdown
    assert markdown.index(INTRO) < markdown.index("<!-- figure -->") < markdown.index(AFTER)
    # The caption is written once, inside the figure block.
    assert markdown.count("Figure 1. Sales by region") == 1
    start = markdown.index("<!-- figure -->")
    block = markdown[start : markdown.index("<!-- /figure -->") + len("<!-- /figure -->")]
    figure = parse_figure(block)
    assert figure is not None and figure.caption == "Figure 1. Sales by region"
    assert figure.words_from_ocr and figure.ocr_confidence is not None


def test_japanese_labels_are_read_in_japanese() -> None:
    result = convert_pdf(_report("図1 地域別の売上", ("北部", "南部", "西部"), fontname="japan"))
    [(caption, words)] = _figures(result)
    assert caption == "図1 地域別の売上"
    assert "北部" in words and "西部" in words


def test_with_ocr_never_the_figure_keeps_its_caption_and_reads_nothing() -> None:
    result = convert_pdf(_report(), ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER)))
    assert _figures(result) == [("Figure 1. Sales by region", "")]
    assert "North" not in result.markdown


def test_a_logo_on_every_page_is_no_figure() -> None:
    doc = pymupdf.open()
    logo = _logo_png()
    for k in range(4):
        page = doc.new_page(width=595, height=842)
        page.insert_image(pymupdf.Rect(480, 30, 560, 110), stream=logo)
        page.insert_text(
            (72, 200), f"Section {k + 1} of the handbook explains one rule.", fontsize=10
        )
    result = convert_pdf(bytes(doc.tobytes()))
    assert _figures(result) == []
    assert FIGURE_START_RE.search(result.markdown) is None


def test_two_figures_side_by_side_are_read_column_by_column() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_image(pymupdf.Rect(50, 100, 290, 250), stream=_chart_png(("North", "South")))
    page.insert_text((50, 266), "Figure 1. This year", fontsize=10)
    page.insert_image(pymupdf.Rect(305, 100, 545, 250), stream=_chart_png(("East", "West")))
    page.insert_text((305, 266), "Figure 2. Last year", fontsize=10)
    result = convert_pdf(bytes(doc.tobytes()))
    figures = _figures(result)
    assert [caption for caption, _ in figures] == ["Figure 1. This year", "Figure 2. Last year"]
    assert "North" in figures[0][1] and "East" in figures[1][1]
    assert result.markdown.index("Figure 1. This year") < result.markdown.index("East")


def test_a_photo_without_words_is_a_figure_only_when_its_picture_is_written() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 90), INTRO, fontsize=10)
    page.insert_image(pymupdf.Rect(72, 110, 272, 310), stream=_logo_png())
    page.insert_text((72, 330), AFTER, fontsize=10)
    pdf = bytes(doc.tobytes())
    plain = convert_pdf(pdf)
    assert _figures(plain) == []  # nothing to index, and no cut between the paragraphs
    assert FIGURE_START_RE.search(plain.markdown) is None
    with_images = convert_pdf(pdf, ConvertOptions(images=ImageOptions("/tmp/unused", "img")))
    assert _figures(with_images) == [("", "")]
    assert "![](img/bytes-p1-1.png)" in with_images.markdown
    assert [name for name, _ in with_images.images] == ["bytes-p1-1.png"]


def _convert_cli(*args: str | Path) -> Result:
    return CliRunner().invoke(app, ["convert", *map(str, args), "--jobs", "1"])


def test_images_are_written_and_linked_from_the_markdown_s_folder(tmp_path: Path) -> None:
    (tmp_path / "report.pdf").write_bytes(_report())
    out = tmp_path / "out" / "report.md"
    result = _convert_cli(tmp_path / "report.pdf", "-o", out, "--images", tmp_path / "img")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "img").iterdir()) == ["report-p1-1.png"]
    png = (tmp_path / "img" / "report-p1-1.png").read_bytes()
    assert png.startswith(b"\x89PNG") and pymupdf.Pixmap(png).width == 667  # 320 pt at 150 dpi
    markdown = out.read_text(encoding="utf-8")
    assert "![Figure 1. Sales by region](../img/report-p1-1.png)" in markdown


def test_images_of_a_folder_mirror_its_tree_and_markdown_on_stdout_links_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "in" / "sub").mkdir(parents=True)
    (tmp_path / "in" / "a.pdf").write_bytes(_report())
    (tmp_path / "in" / "sub" / "a.pdf").write_bytes(_report("Figure 2. Costs"))
    result = _convert_cli(
        tmp_path / "in", "-o", f"{tmp_path / 'md'}/", "--images", tmp_path / "img"
    )
    assert result.exit_code == 0, result.output
    images = sorted(
        p.relative_to(tmp_path / "img").as_posix() for p in (tmp_path / "img").rglob("*.png")
    )
    assert images == ["a-p1-1.png", "sub/a-p1-1.png"]
    nested = (tmp_path / "md" / "sub" / "a.md").read_text(encoding="utf-8")
    assert "![Figure 2. Costs](../../img/sub/a-p1-1.png)" in nested
    monkeypatch.chdir(tmp_path)
    result = _convert_cli(Path("in") / "a.pdf", "--images", "pics")
    assert "![Figure 1. Sales by region](pics/a-p1-1.png)" in result.stdout
    assert (tmp_path / "pics" / "a-p1-1.png").exists()


def test_without_images_nothing_but_markdown_is_written(tmp_path: Path) -> None:
    (tmp_path / "report.pdf").write_bytes(_report())
    result = _convert_cli(tmp_path / "report.pdf", "-o", tmp_path / "report.md")
    assert result.exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md", "report.pdf"]
    assert "![" not in (tmp_path / "report.md").read_text(encoding="utf-8")


def _vector_chart_page(page: pymupdf.Page, top: float) -> None:
    """A bar chart drawn as paths with text-layer labels: values in the bars, names below,
    axis values left of the bars."""
    for k, (name, value) in enumerate((("Tokyo", 30), ("Osaka", 55), ("Nagoya", 80))):
        x = 120 + k * 90
        page.draw_rect(pymupdf.Rect(x, top + 100 - value, x + 50, top + 100), fill=(0.2, 0.4, 0.8))
        page.insert_text((x + 15, top + 96), str(value), fontsize=9)
        page.insert_text((x + 5, top + 115), name, fontsize=9)
    page.draw_line((110, top + 100), (400, top + 100), width=0.8)
    page.draw_line((110, top), (110, top + 100), width=0.8)
    for tick in (0, 50, 100):
        page.insert_text((80, top + 103 - tick), str(tick), fontsize=9)


def test_a_vector_chart_gathers_its_labels_as_the_figure_s_words() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 90), INTRO, fontsize=10)
    _vector_chart_page(page, 120)
    page.insert_text((72, 262), "Figure 2. Visitors by city (thousands)", fontsize=10)
    page.insert_text((72, 300), AFTER, fontsize=10)
    result = convert_pdf(bytes(doc.tobytes()), ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER)))
    [(caption, words)] = _figures(result)
    assert caption == "Figure 2. Visitors by city (thousands)"
    assert words == "100\n50\n30 55 80\n0\nTokyo Osaka Nagoya"
    markdown = result.markdown
    assert "<!-- figure words: text layer -->" in markdown
    assert markdown.index(INTRO) < markdown.index("Figure 2.") < markdown.index(AFTER)
    assert "| Tokyo" not in markdown  # not read as a table either


def test_a_box_around_a_paragraph_and_a_shaded_table_are_no_figures() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.draw_rect(pymupdf.Rect(60, 70, 540, 140), fill=(0.9, 0.9, 0.95))
    page.insert_textbox(pymupdf.Rect(70, 80, 530, 140), INTRO + " " + AFTER, fontsize=10)
    for row in range(4):
        for col in range(3):
            box = pymupdf.Rect(72 + col * 150, 200 + row * 20, 72 + (col + 1) * 150, 220 + row * 20)
            page.draw_rect(box, color=(0, 0, 0), fill=(0.85, 0.85, 0.85) if row == 0 else None)
            page.insert_text((box.x0 + 5, box.y1 - 6), f"Item {row}-{col}", fontsize=9)
    result = convert_pdf(bytes(doc.tobytes()), ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER)))
    assert _figures(result) == []
    assert "| Item 0-0 | Item 0-1 | Item 0-2 |" in result.markdown


def test_split_of_a_pdf_writes_the_images_its_chunks_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "report.pdf").write_bytes(_report())
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["split", "report.pdf", "--images", "img", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    chunks = [json.loads(line) for line in result.stdout.splitlines()]
    assert [c["images"] for c in chunks if c["images"]] == [["img/report-p1-1.png"]]
    assert (tmp_path / "img" / "report-p1-1.png").read_bytes().startswith(b"\x89PNG")


def test_a_figure_is_not_read_once_the_file_s_time_limit_has_run_out() -> None:
    ocr = OcrOptions(deadline=time.monotonic() - 1.0)
    result = convert_pdf(_report(), ConvertOptions(ocr=ocr))
    assert _figures(result) == [("Figure 1. Sales by region", "")]
    assert result.warnings == ("<bytes>: 1 figure(s) not read by OCR: the time limit ran out",)


def test_figures_side_by_side_are_read_left_to_right_before_a_note_below_them() -> None:
    from chunkcli.convert.layout.order import order_blocks
    from chunkcli.model import BBox, Block, Figure, Line, Span

    def figure(box: BBox) -> Block:
        return Block(BlockKind.FIGURE, (), box, 1, figure=Figure(region=box))

    note_box = BBox(522, 520, 773, 539)  # starts a point above the right figure's bottom
    note = Block(
        BlockKind.PARAGRAPH, (Line((Span("Source: council", note_box),), note_box),), note_box, 1
    )
    right, left = figure(BBox(415, 259, 764, 521)), figure(BBox(40, 259, 391, 522))
    ordered = order_blocks((right, note, left))
    assert [b.bbox.x0 for b in ordered] == [40, 415, 522]


@pytest.mark.parametrize("command", ["convert", "split"])
def test_images_are_refused_on_ray_whose_workers_would_not_write_them(
    tmp_path: Path, command: str
) -> None:
    (tmp_path / "report.pdf").write_bytes(_report())
    args = [command, str(tmp_path / "report.pdf"), "--images", str(tmp_path / "img")]
    result = CliRunner().invoke(app, [*args, "--engine", "ray"])
    assert result.exit_code == 2
    assert "--images" in result.output and "is not available with --engine ray" in result.output
    assert not (tmp_path / "img").exists()

"""A law article's bracketed caption goes with the article's heading, never with the text before."""

from __future__ import annotations

from pathlib import Path

from conftest import heading_lines
from pdf_factory import Text, make_pdf, wrap_text

from chunkcli.convert import convert_pdf
from chunkcli.split import SplitOptions, split_markdown

ARTICLES = (
    (
        "（目的）",
        "第一条",
        "この法律は、自動車の使用の適正を図り、もつて公共の福祉を増進することを目的とする。",
    ),
    (
        "（使用の停止）",
        "第二条",
        "国土交通大臣は、自動車の使用者がこの法律の規定に違反したときは、六月以内の期間を定めて、"
        "当該自動車の使用を停止することができる。",
    ),
    (
        "（報告）",
        "第三条の二",
        "国土交通大臣は、自動車の使用者に対し、その業務に関し報告をさせることができる。",
    ),
)


def _statute(path: Path, number_apart: bool) -> Path:
    """Captions above articles; the number in bold on its own line, or opening the text."""
    items = [Text(72, 80, "自動車の使用に関する法律", size=16)]
    y = 120.0
    for caption, number, text in ARTICLES:
        items.append(Text(83, y, caption))
        y += 16
        if number_apart:
            items.append(Text(72, y, number, bold=True))
            y += 16
        for line in wrap_text(text if number_apart else f"{number}\u3000{text}", 440, 11, cjk=True):
            items.append(Text(72, y, line))
            y += 16
    return make_pdf(path, [items])


def test_a_caption_above_an_article_number_heading_joins_that_heading(tmp_path: Path) -> None:
    markdown = convert_pdf(_statute(tmp_path / "law.pdf", number_apart=True)).markdown
    assert heading_lines(markdown) == [
        "# 自動車の使用に関する法律",
        "## 第一条（目的）",
        "## 第二条（使用の停止）",
        "## 第三条の二（報告）",
    ]
    assert "目的とする。\n" in markdown  # the next caption is not glued to this sentence


def test_captions_and_article_paragraphs_keep_their_own_lines(tmp_path: Path) -> None:
    markdown = convert_pdf(_statute(tmp_path / "law.pdf", number_apart=False)).markdown
    assert heading_lines(markdown) == ["# 自動車の使用に関する法律"]
    for caption, number, _ in ARTICLES:
        assert f"\n{caption}\n\n{number}\u3000" in markdown


def test_laws_mode_heading_paths_agree_with_the_headings(tmp_path: Path) -> None:
    markdown = convert_pdf(_statute(tmp_path / "law.pdf", number_apart=True)).markdown
    chunks = split_markdown(markdown, SplitOptions(mode="laws"))
    assert [c.heading_path[-1] for c in chunks] == [
        "第一条（目的）",
        "第二条（使用の停止）",
        "第三条の二（報告）",
    ]

"""Tables continued on the next page without a header (convert/tables/continued.py) and booktabs
stacks cut at a caption (chunkcli.convert.tables.detect.cut_at_captions)."""

from __future__ import annotations

from pathlib import Path

from chunkcli.convert.pipeline import ConvertOptions, convert_pdf
from chunkcli.markdown_format import without_boxes
from tests.layout_cases import _annex_rows, _unruled_rows
from tests.pdf_factory import Text, make_pdf

HEADER = [
    Text(60, 100, "番号", size=10.5),
    Text(120, 100, "品目", size=10.5),
    Text(400, 100, "件数", size=10.5),
]


def _markdown(path: Path) -> str:
    return without_boxes(convert_pdf(path, ConvertOptions()).markdown).split("\n\n", 1)[1]


def test_a_table_runs_on_over_two_pages_each_part_under_its_page(tmp_path: Path) -> None:
    # The numbers of the rows at the top of each page are cells, not page numbers.
    pages = [
        [*HEADER, *_unruled_rows(118, _annex_rows(0, 4))],
        _unruled_rows(80, _annex_rows(4, 2)),
        _unruled_rows(80, _annex_rows(6, 1)),
    ]  # numbers in the top band of every page
    assert _markdown(make_pdf(tmp_path / "t.pdf", pages)) == (
        "<!-- page 1 -->\n\n| 番号 | 品目 | 件数 |\n| --- | --- | --- |\n| 1 | 電気用品 | 10 |\n"
        "| 2 | ガス用品 | 47 |\n| 3 | 石油機器 | 84 |\n| 4 | 乳幼児用ベッド | 31 |\n\n"
        "<!-- page 2 -->\n\n| 番号 | 品目 | 件数 |\n| --- | --- | --- |\n"
        "| 5 | 携帯用レーザー応用装置 | 68 |\n| 6 | 浴槽用温水循環器 | 15 |\n\n"
        "<!-- page 3 -->\n\n| 番号 | 品目 | 件数 |\n| --- | --- | --- |\n| 7 | ライター | 52 |\n"
    )


def test_a_wrapped_cell_line_joins_its_row(tmp_path: Path) -> None:
    second = [
        *_unruled_rows(80, _annex_rows(4, 2)),
        Text(120, 80 + 18 * 2, "（業務用を除く）", size=10.5),
    ]
    pages = [[*HEADER, *_unruled_rows(118, _annex_rows(0, 4))], second]
    page_2 = _markdown(make_pdf(tmp_path / "t.pdf", pages)).split("<!-- page 2 -->\n\n")[1]
    assert page_2 == (
        "| 番号 | 品目 | 件数 |\n| --- | --- | --- |\n"
        "| 5 | 携帯用レーザー応用装置 | 68 |\n"
        "| 6 | 浴槽用温水循環器（業務用を除く） | 15 |\n"
    )


def test_text_below_the_table_on_its_page_ends_it(tmp_path: Path) -> None:
    first = [*HEADER, *_unruled_rows(118, _annex_rows(0, 4)), Text(60, 300, "以上", size=10.5)]
    pages = [first, _unruled_rows(80, _annex_rows(4, 2))]
    page_2 = _markdown(make_pdf(tmp_path / "t.pdf", pages)).split("<!-- page 2 -->\n\n")[1]
    assert "|" not in page_2

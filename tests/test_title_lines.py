"""A title set on several lines is one block (chunkcli.convert.layout.headings.join_title_lines)."""

from __future__ import annotations

from chunkcli.convert.layout.headings import NOT_A_HEADING, join_title_lines
from chunkcli.model import BBox, Block, BlockKind, Line, Span


def _block(text: str, x0: float, top: float, size: float = 24.0, bold: bool = True) -> Block:
    box = BBox(x0, top, x0 + 12 * len(text), top + size * 1.2)
    line = Line((Span(text, box, size=size, bold=bold),), box)
    return Block(BlockKind.PARAGRAPH, (line,), box, 1)


def _texts(blocks: tuple[Block, ...]) -> list[list[str]]:
    return [[line.text for line in b.lines] for b in blocks]


def test_stacked_lines_of_the_largest_type_join() -> None:
    blocks = (
        _block("Safe Operation of", 100, 100),
        _block("Thermal Controllers", 80, 133),
        _block("Body text follows here", 50, 200, size=10, bold=False),
    )
    assert _texts(join_title_lines(blocks, 10.0)) == [
        ["Safe Operation of", "Thermal Controllers"],
        ["Body text follows here"],
    ]


def test_lines_far_apart_or_of_another_weight_or_a_sentence_stay_apart() -> None:
    apart = (_block("ACME Controls", 100, 100), _block("Service Manual", 100, 300))
    weight = (_block("Annual Report", 100, 100), _block("Thermal Markets", 100, 133, bold=False))
    sentence = (_block("Read this first.", 100, 100), _block("Then the manual", 100, 133))
    side_by_side = (_block("Left", 50, 100), _block("Right", 400, 100))
    for blocks in (apart, weight, sentence, side_by_side):
        assert _texts(join_title_lines(blocks, 10.0)) == _texts(blocks)


def test_nothing_joins_without_type_larger_than_the_body() -> None:
    blocks = (_block("One", 100, 100, size=11), _block("Two", 100, 114, size=11))
    assert join_title_lines(blocks, 10.0) == blocks


def test_a_cover_date_with_its_era_is_no_heading() -> None:
    assert NOT_A_HEADING.match("2021 年（令和3 年）9 月10 日")
    assert NOT_A_HEADING.match("2023年3月")
    assert not NOT_A_HEADING.match("2021年度の実績")


def test_a_title_line_ending_in_a_particle_goes_on_in_a_smaller_type() -> None:
    blocks = (
        _block("2020年の", 90, 200, size=32.0, bold=False),
        _block("スーパーマーケット動向", 90, 245, size=26.0, bold=False),
        _block("全国スーパーマーケット協会", 90, 300, size=12.0, bold=False),
        _block("本報告書は販売動向をまとめたものである。", 72, 400, size=10.5, bold=False),
    )
    assert _texts(join_title_lines(blocks, 10.5)) == [
        ["2020年の", "スーパーマーケット動向"],
        ["全国スーパーマーケット協会"],
        ["本報告書は販売動向をまとめたものである。"],
    ]


def test_a_complete_title_line_keeps_a_smaller_subtitle_apart() -> None:
    blocks = (
        _block("スーパーマーケット白書", 90, 200, size=32.0, bold=False),
        _block("2020年版", 90, 245, size=26.0, bold=False),
        _block("本報告書は販売動向をまとめたものである。", 72, 400, size=10.5, bold=False),
    )
    assert _texts(join_title_lines(blocks, 10.5)) == [
        ["スーパーマーケット白書"],
        ["2020年版"],
        ["本報告書は販売動向をまとめたものである。"],
    ]

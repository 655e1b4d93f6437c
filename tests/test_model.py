"""model.quick_init: the faster __init__ of the hot dataclasses keeps what dataclasses gives."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from chunkcli.model import BBox, Block, BlockKind, Line, Span, quick_init


def test_quick_init_keeps_parameters_defaults_and_derived_fields() -> None:
    box = BBox(1.0, 2.0, 3.0, 4.0)
    line = Line((Span("ab ", box, size=9.0, bold=True), Span("C", box, size=12.04)), box)
    assert str(inspect.signature(Span)) == (
        "(text, bbox, font='', size=10.0, bold=False, italic=False, monospace=False)"
    )
    assert (line.text, line.size, line.bold) == ("ab C", 9.0, False)  # 2 of 3 characters bold
    block = Block(BlockKind.PARAGRAPH, (line,), box, 3, column=2)
    assert (block.level, block.column, block.header_rows, block.figure) == (0, 2, 1, None)


def test_quick_init_classes_stay_frozen_hashable_and_picklable() -> None:
    box = BBox(1.0, 2.0, 3.0, 4.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        box.x0 = 0.0  # type: ignore[misc]
    assert hash(box) == hash(BBox(1.0, 2.0, 3.0, 4.0)) and box == BBox(1.0, 2.0, 3.0, 4.0)
    assert dataclasses.replace(box, x1=5.0) == BBox(1.0, 2.0, 5.0, 4.0)
    line = Line((Span("x", box),), box)
    assert pickle.loads(pickle.dumps(line)) == line


def test_quick_init_refuses_a_default_factory() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class WithFactory:
        items: list[int] = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError, match="default_factory"):
        quick_init(WithFactory)

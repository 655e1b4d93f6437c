"""model.quick_init: the faster __init__ of the hot dataclasses keeps what dataclasses gives."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from chunkcli.model import BBox, Block, BlockKind, Chunk, ChunkKind, Line, Span, quick_init


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


def test_quick_init_calls_a_default_factory_once_per_instance() -> None:
    @quick_init
    @dataclasses.dataclass(frozen=True, slots=True)
    class WithFactory:
        name: str
        items: list[int] = dataclasses.field(default_factory=list)

    first, second = WithFactory("a"), WithFactory("b")
    assert first.items == [] and first.items is not second.items
    given = [1]
    assert WithFactory("c", given).items is given
    assert WithFactory(name="d", items=[2]) == WithFactory("d", [2])
    assert str(inspect.signature(WithFactory)).startswith("(name, items=")


def test_chunk_keeps_its_signature_and_fresh_dicts() -> None:
    chunk = Chunk("i", "d", "s", "h", "t", (), ChunkKind.SECTION, "", "b", 0, 1, None, None, 1)
    other = Chunk("i", "d", "s", "h", "t", (), ChunkKind.SECTION, "", "b", 0, 1, None, None, 1)
    assert chunk == other and chunk.split_config == {} and chunk.metadata == {}
    assert chunk.split_config is not other.split_config
    assert (chunk.oversize, chunk.markdown_sha256, chunk.boxes, chunk.images) == (False, "", (), ())
    with pytest.raises(dataclasses.FrozenInstanceError):
        chunk.tokens = 2  # type: ignore[misc]

"""Scale-out: convert and split a corpus on a distributed engine (Ray Data).

rows.py is the engine-free unit of work (one document's bytes -> rows); ray_engine.py runs it
on Ray. Ray is an optional extra (chunkcli[ray]) and is imported only by ray_engine.
"""

from chunkcli.distributed.rows import (
    ChunkRows,
    ConvertJob,
    ErrorRow,
    MarkdownRow,
    SplitJob,
    convert_document,
    split_document,
)

__all__ = [
    "ChunkRows",
    "ConvertJob",
    "ErrorRow",
    "MarkdownRow",
    "SplitJob",
    "convert_document",
    "split_document",
]

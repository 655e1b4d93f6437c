"""--engine local|ray: convert and split on a Ray cluster."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from chunkcli.cli.common import (
    EXIT_FAILED,
    err_console,
    plural,
    print_error,
    print_note,
    reporting_errors,
    write_output,
)
from chunkcli.workers import WorkerPool

if TYPE_CHECKING:
    from chunkcli.convert.options import ConvertOptions
    from chunkcli.inputs import ReadOptions
    from chunkcli.split import SplitOptions


ENGINE_OPTION = typer.Option(
    "--engine",
    metavar="local|ray",
    help="local: this machine's processes; ray: a Ray cluster (pip install 'chunkcli[ray]').",
)
RAY_ADDRESS_OPTION = typer.Option(
    "--ray-address",
    metavar="ADDRESS",
    help="With --engine ray: the cluster to join (auto, ray://host:10001, host:6379); "
    "default: start a local one with --jobs CPUs.",
)
SPLIT_FORMAT_OPTION = typer.Option(
    "--format",
    metavar="jsonl|parquet",
    help="parquet (--engine ray): -o DIR/ or a URI gets chunks/ and errors/ Parquet datasets.",
)


class Engine(StrEnum):
    """--engine: where documents are worked on."""

    LOCAL = "local"  # this machine's worker processes
    RAY = "ray"  # a Ray cluster


class SplitFormat(StrEnum):
    """split --format: how chunks are written."""

    JSONL = "jsonl"  # JSON Lines, one chunk a line (every engine)
    PARQUET = "parquet"  # Parquet datasets of chunks and errors (--engine ray)


ENGINES = tuple(Engine)


def chosen_engine(engine: str, ray_address: str | None) -> Engine:
    if engine not in ENGINES:
        raise typer.BadParameter("must be local or ray", param_hint="--engine")
    if ray_address is not None and engine != Engine.RAY:
        raise typer.BadParameter("needs --engine ray", param_hint="--ray-address")
    return Engine(engine)


def split_format(output_format: str) -> SplitFormat:
    if output_format not in tuple(SplitFormat):
        raise typer.BadParameter("must be jsonl or parquet", param_hint="--format")
    return SplitFormat(output_format)


def convert_on_ray(
    inputs: list[str],
    out_dir: Path,
    options: ConvertOptions,
    *,
    pool: WorkerPool,
    address: str | None,
) -> None:
    """Every PDF under `inputs` converted on Ray -> out_dir, the same files and summary as
    the local folder mode."""
    from chunkcli.batch import find_pdfs, summary_lines
    from chunkcli.distributed.ray_engine import RaySettings, convert_to_folder
    from chunkcli.distributed.rows import ConvertJob

    with reporting_errors():
        pdfs = find_pdfs([Path(i) for i in inputs])
        job = ConvertJob(options, pool)
        summary = convert_to_folder(pdfs, out_dir, job, RaySettings(address, pool))
    for line in summary_lines(summary):
        err_console().print(line, markup=False, soft_wrap=True)
    if summary.failures:
        raise typer.Exit(EXIT_FAILED)


def split_on_ray(  # noqa: PLR0913 - split's flags for Ray, passed on by name
    paths: list[str],
    output: str | None,
    options: SplitOptions,
    read: ReadOptions,
    *,
    address: str | None,
    output_format: SplitFormat,
    quiet: bool,
) -> None:
    """split --engine ray: the chunks of every input, JSON Lines identical to the local run's
    (or Parquet); a file that fails is one line on stderr and exit 1, the others' chunks are
    written."""
    from chunkcli.distributed.ray_engine import RaySettings, split_to_jsonl, split_to_parquet
    from chunkcli.distributed.rows import SplitJob
    from chunkcli.inputs import find_inputs

    if output_format == SplitFormat.PARQUET and output in (None, "-"):
        raise typer.BadParameter("--format parquet needs -o DIR/ or a URI", param_hint="--output")
    if "-" in paths:
        raise typer.BadParameter("--engine ray reads files, not stdin ('-')")
    skip = (
        Path(output) if output not in (None, "-") and output_format == SplitFormat.JSONL else None
    )
    files = find_inputs(paths, skip=skip)
    job, settings = SplitJob(options, read), RaySettings(address, read.pool)
    if output_format == SplitFormat.PARQUET:
        errors = split_to_parquet(files, job, settings, str(output))
        written = f"wrote Parquet to {output}"
    else:
        outcome = split_to_jsonl(files, job, settings)
        errors, written = outcome.errors, f"wrote {plural(outcome.chunks, 'chunk')} to {output}"
        write_output(output, outcome.jsonl)
    for error in errors:
        print_error(error)
    print_note(written, quiet or output in (None, "-"))
    if errors:
        raise typer.Exit(EXIT_FAILED)

"""convert and split on Ray Data: file paths -> read_binary_files -> one stateful worker per
CPU (map_batches) -> rows -> JSON Lines, Parquet or Markdown files.

Every file is one batch (PDFs differ a thousandfold in cost, so one file per batch balances
the workers best); a worker runs chunkcli.distributed.rows on it and returns an Arrow table
with one row per chunk, or one error row. Nothing a file does fails the job: errors are rows,
kept apart as the errors dataset. The driver only lists the inputs and collects the output.

Order: JSON Lines and Markdown outputs are sorted back into the local run's order (input
order, then chunk order), so they are byte-identical to `--engine local`. Parquet parts come
in the order Ray finishes them; each row carries `order` (the input's position in the listed
inputs) and `chunk_index`, and sorting on those two gives the local order.
"""

# ray and pyarrow carry partial annotations at best.
# mypy: disallow-untyped-calls=False

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import socket
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from chunkcli.distributed.rows import (
    ChunkRows,
    ConvertJob,
    ErrorRow,
    MarkdownRow,
    SplitJob,
    convert_document,
    split_document,
)
from chunkcli.errors import ChunkcliError, UsageError
from chunkcli.inputs import InputFile

if TYPE_CHECKING:
    from chunkcli.batch import BatchSummary
from chunkcli.batch import BatchSummary, FileOutcome
from chunkcli.convert import load_convert_stage
from chunkcli.files import write_atomic
from chunkcli.jsonl import (
    CHUNK_FIELDS,
    ITEM_FIELDS,
    chunk_from_dict,
    chunk_to_dict,
    chunk_to_json,
)
from chunkcli.tokens import check_available
from chunkcli.workers import WorkerPool

# Set before Ray is imported: no usage report to the Ray project (no network at run time),
# no dashboard process, and no Ray Data progress bars in place of chunkcli's own output.
RAY_ENVIRONMENT = {
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_USAGE_STATS_PROMPT_ENABLED": "0",
    "RAY_DISABLE_DOCKER_CPU_WARNING": "1",
    "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0",
}
# One file per batch: see the module docstring.
FILES_PER_BATCH = 1
# CPUs a read task reserves. Reading a file is I/O; with the default (1 CPU) the workers,
# one per CPU, hold every CPU and the reads never get one: measured here, the job hung.
READ_TASK_CPUS = 0
# A local cluster listens on loopback only (its own processes are its only clients).
LOCAL_NODE_IP = "127.0.0.1"
INSTALL_HINT = "--engine ray needs Ray: pip install 'chunkcli[ray]'"


@dataclass(frozen=True, slots=True)
class RaySettings:
    """Where to run: an existing cluster's address (None: start a local one for this run), and
    the worker pool: `pool.jobs` workers (None: one per CPU of the cluster; a local cluster
    gets `pool.jobs` CPUs), each document under `pool.timeout_s`."""

    address: str | None = None
    pool: WorkerPool = WorkerPool()


@dataclass(frozen=True, slots=True)
class SplitOutcome:
    """The chunks as JSON Lines in the local run's order, and the error lines in input order."""

    jsonl: str
    chunks: int
    errors: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RayInput:
    """One input file: its position in the listed inputs, the input as found (its path as
    given names it in chunks and errors), and the path Ray reads it from (absolute)."""

    order: int
    item: InputFile
    path: str


def list_inputs(files: Sequence[InputFile]) -> tuple[RayInput, ...]:
    """The inputs as Ray reads them; names stay as given (`source` in every chunk)."""
    return tuple(RayInput(i, f, os.path.abspath(f.path)) for i, f in enumerate(files))


# --- the cluster ------------------------------------------------------------------------------


def import_ray(*, data: bool = True) -> Any:
    """ray (with ray.data unless `data` is False: 2 s more), with the environment that keeps
    it offline and quiet; UsageError if missing."""
    for name, value in RAY_ENVIRONMENT.items():
        os.environ.setdefault(name, value)
    try:
        import ray

        if data:
            import ray.data
    except ImportError:
        raise UsageError(INSTALL_HINT) from None
    logging.getLogger("ray").setLevel(logging.WARNING)
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    return ray


@contextlib.contextmanager
def ray_cluster(settings: RaySettings) -> Iterator[Any]:
    """Connect to `settings.address`, or start a local cluster with `pool.jobs` CPUs; shut down on
    exit what this call started. An already initialised Ray (a test session) is reused."""
    if settings.address is not None:
        for name, value in RAY_CONNECT_ENVIRONMENT.items():  # read as Ray loads
            os.environ.setdefault(name, value)
    ray = import_ray(data=False)
    if ray.is_initialized():
        yield import_ray()
        return
    if settings.address is not None:
        endpoint = _reachable_endpoint(ray, settings.address)  # before ray.data's 2 s
        ray = import_ray()
        _connect(ray, settings.address, endpoint)
    else:
        ray = import_ray()
        ray.init(
            address="local",
            num_cpus=settings.pool.processes,
            include_dashboard=False,
            _node_ip_address=LOCAL_NODE_IP,
            logging_level=logging.WARNING,
            log_to_driver=False,
        )
    try:
        _quiet_data(ray)
        yield ray
    finally:
        ray.shutdown()


# Seconds the cluster's address has to accept a TCP connection before chunkcli says it cannot
# be reached: ray.init retries an address nobody listens on for minutes (measured with Ray
# 2.60 on a closed port: a warning every 5 s, still retrying after 100 s), and a cluster that
# is up accepts in milliseconds, even across a network.
CONNECT_TIMEOUT_S = 3
# Something that accepts connections but is not a Ray cluster (a proxy, another service) held
# ray.init for 40 s an attempt and 20 attempts (Ray 2.60, measured: a port that closes every
# connection at once). Set before ray.init, unless the environment sets them: one attempt,
# each of its steps (connect, pubsub, cluster id) CONNECT_TIMEOUT_S; ~10 s in all, and a
# cluster that is up answers the first time in milliseconds. Ray reads them as it loads.
RAY_CONNECT_ENVIRONMENT = {
    "RAY_gcs_server_port_wait_time_s": "1",
    "RAY_gcs_rpc_server_connect_timeout_s": str(CONNECT_TIMEOUT_S),
    "RAY_py_gcs_connect_timeout_s": str(CONNECT_TIMEOUT_S),
}
START_ONE = "start one there (ray start --head) or leave out --ray-address for a local cluster"


def _reachable_endpoint(ray: Any, address: str) -> str:
    """host:port of the cluster `address` names, once it accepts a TCP connection; one line
    (ChunkcliError) when it does not within CONNECT_TIMEOUT_S."""
    host, port = _cluster_endpoint(ray, address)
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__  # TimeoutError has no strerror
        raise ChunkcliError(
            f"--ray-address {address}: no Ray cluster answers at {host}:{port} ({reason}): "
            f"{START_ONE}"
        ) from None
    return f"{host}:{port}"


# What Ray's native client logs when the cluster refuses a driver without its token (Ray 2.60:
# "Failed to get cluster ID from GCS server: Unauthenticated: RPC error: InvalidAuthToken: ...");
# ray.init itself then raises a bare ConnectionError.
TOKEN_REFUSED = ("Unauthenticated", "InvalidAuthToken")
TOKEN_HINT = (
    "the cluster wants token authentication: set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN to its "
    "token (`ray get-auth-token` on the head node prints it; or RAY_AUTH_TOKEN_PATH to a file "
    "holding it)"
)
# Ray's native log line: "[date time,ms W pid tid] file.cc:210: message".
_NATIVE_LOG_PREFIX = re.compile(r"^\[[^\]]*\] \S+: ")


def _connect(ray: Any, address: str, endpoint: str) -> None:
    """ray.init on an existing cluster, its failures in one line: a cluster that wants a
    token, anything else at `endpoint` that does not answer as a Ray cluster. Ray's native
    client logs why each attempt failed on file descriptor 2: kept aside, read for the reason."""
    with tempfile.TemporaryFile() as log:
        try:
            with _native_stderr_to(log):
                ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
            return
        except ray.exceptions.AuthenticationError:
            raise ChunkcliError(f"--ray-address {address}: {TOKEN_HINT}") from None
        except (ConnectionError, TimeoutError, RuntimeError, ValueError) as exc:
            log.seek(0)
            logged = log.read().decode("utf-8", "replace").strip().splitlines()
            error = exc
    if any(word in line for line in logged for word in TOKEN_REFUSED):
        raise ChunkcliError(f"--ray-address {address}: {TOKEN_HINT}")
    reason = _NATIVE_LOG_PREFIX.sub("", logged[-1]) if logged else _first_line(error)
    raise ChunkcliError(
        f"--ray-address {address}: {endpoint} does not answer as a Ray cluster: {reason}"
    )


@contextlib.contextmanager
def _native_stderr_to(target: IO[bytes]) -> Iterator[None]:
    """File descriptor 2 points at `target` while the block runs (native code writes there
    directly, past sys.stderr)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        os.dup2(target.fileno(), 2)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def _cluster_endpoint(ray: Any, address: str) -> tuple[str, int]:
    """The host and port `address` means, as ray.init reads it: ray://host:port is a Ray
    Client server; auto and host:port go through Ray's own lookup (RAY_ADDRESS, the cluster
    `ray start` last started, localhost as the node's address)."""
    from ray._private import services  # no public API names the address ray.init will use

    try:
        if address.startswith("ray://"):
            host, _, port = address.removeprefix("ray://").rpartition(":")
        else:
            host, _, port = services.canonicalize_bootstrap_address_or_die(address).rpartition(":")
        return host.strip("[]"), int(port)
    except (ConnectionError, ValueError) as exc:
        raise ChunkcliError(f"--ray-address {address}: {_first_line(exc)}: {START_ONE}") from None


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _quiet_data(ray: Any) -> None:
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.print_on_execution_start = False


def _workers(ray: Any, settings: RaySettings) -> int:
    if settings.pool.jobs is not None:
        return settings.pool.jobs
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


# --- the workers --------------------------------------------------------------------------------


class SplitWorker:
    """A Ray Data actor: split (or convert, then split) each file of a batch into chunk rows.

    Its constructor pays the imports and the tokenizer load once per worker process."""

    def __init__(self, job: SplitJob, names: dict[str, tuple[int, InputFile]]) -> None:
        check_available(job.split.encoding)
        self.job, self.names = job, names

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        rows: list[dict[str, object]] = []
        for path, data in zip(batch["path"].to_pylist(), batch["bytes"].to_pylist(), strict=True):
            order, item = self.names.get(path, (-1, InputFile(path, path.endswith(".pdf"))))
            rows += split_rows(order, split_document(item, data, self.job))
        return pa.Table.from_pylist(rows, schema=split_schema())


class ConvertWorker:
    """A Ray Data actor: convert each PDF of a batch into one Markdown row or an error row."""

    def __init__(self, job: ConvertJob, names: dict[str, tuple[int, InputFile]]) -> None:
        load_convert_stage()  # PyMuPDF's import, paid once per worker
        self.job, self.names = job, names

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        rows = []
        for path, data in zip(batch["path"].to_pylist(), batch["bytes"].to_pylist(), strict=True):
            order, item = self.names.get(path, (-1, InputFile(path, True)))
            rows.append(markdown_row(order, convert_document(item.path, data, self.job)))
        return pa.Table.from_pylist(rows, schema=convert_schema())


# --- rows <-> Arrow ---------------------------------------------------------------------------


def split_schema() -> Any:
    """order, chunk_index, error, then the JSON Lines fields (split_config and metadata as
    JSON text: their keys vary with the options, and Parquet stores no empty struct; boxes as
    JSON text too, as --flat-metadata writes them)."""
    import pyarrow as pa

    types = {
        "heading_path": pa.list_(pa.string()),
        "images": pa.list_(pa.string()),
        "start": pa.int64(),
        "end": pa.int64(),
        "page_start": pa.int64(),
        "page_end": pa.int64(),
        "tokens": pa.int64(),
        "oversize": pa.bool_(),
        "ocr_confidence": pa.float64(),
        "item_index": pa.int64(),
    }
    fields = [
        pa.field("order", pa.int64()),
        pa.field("chunk_index", pa.int64()),
        pa.field("error", pa.string()),
    ]
    fields += [pa.field(name, types.get(name, pa.string())) for name in CHUNK_FIELDS]
    # --mode items: null on the rows of other chunks (row_to_json then writes no item fields)
    fields += [pa.field(name, types.get(name, pa.string())) for name in ITEM_FIELDS]
    return pa.schema(fields)


def split_rows(order: int, result: ChunkRows | ErrorRow) -> list[dict[str, object]]:
    """One row per chunk, or one error row (its chunk fields null)."""
    if isinstance(result, ErrorRow):
        return [{"order": order, "chunk_index": 0, "error": result.error, "source": result.source}]
    rows = []
    for index, chunk in enumerate(result.chunks):
        row: dict[str, object] = {"order": order, "chunk_index": index, "error": None}
        row.update(chunk_to_dict(chunk))
        row["split_config"] = json.dumps(row["split_config"], ensure_ascii=False)
        row["metadata"] = json.dumps(row["metadata"], ensure_ascii=False)
        row["boxes"] = json.dumps(
            row["boxes"], separators=(",", ":")
        )  # (read back by chunk_from_dict)
        rows.append(row)
    return rows


def row_to_json(row: dict[str, Any]) -> str:
    """A chunk row back into its JSON Lines line, the same bytes as the local run writes."""
    config, metadata = json.loads(row["split_config"]), json.loads(row["metadata"])
    data = dict(row, split_config=config, metadata=metadata)
    return chunk_to_json(chunk_from_dict(data))


def convert_schema() -> Any:
    import pyarrow as pa

    pages = pa.list_(pa.int64())
    return pa.schema([
        ("order", pa.int64()), ("source", pa.string()), ("error", pa.string()),
        ("markdown", pa.string()), ("pages", pa.int64()), ("blank", pages),
        ("image_only", pages), ("garbage", pages), ("seconds", pa.float64()),
        ("warnings", pa.list_(pa.string())),
    ])  # fmt: skip


def markdown_row(order: int, result: MarkdownRow | ErrorRow) -> dict[str, object]:
    if isinstance(result, ErrorRow):
        return {"order": order, "source": result.source, "error": result.error}
    outcome = result.outcome
    return {
        "order": order, "source": result.source, "error": None, "markdown": result.markdown,
        "pages": outcome.pages, "blank": list(outcome.blank),
        "image_only": list(outcome.image_only), "garbage": list(outcome.garbage),
        "seconds": outcome.seconds, "warnings": list(outcome.warnings),
    }  # fmt: skip


# --- the pipelines ------------------------------------------------------------------------------


def _mapped(ray: Any, inputs: Sequence[RayInput], worker: type, job: object, jobs: int) -> Any:
    """read_binary_files -> map_batches(worker): the dataset of rows, not yet executed."""
    names = {entry.path: (entry.order, entry.item) for entry in inputs}
    files = ray.data.read_binary_files(
        [item.path for item in inputs], include_paths=True, num_cpus=READ_TASK_CPUS
    )
    return files.map_batches(
        worker,
        fn_constructor_kwargs={"job": job, "names": names},
        batch_size=FILES_PER_BATCH,
        batch_format="pyarrow",
        compute=ray.data.ActorPoolStrategy(size=jobs),
        num_cpus=1,
    )


def _rows(dataset: Any) -> Iterator[dict[str, Any]]:
    for batch in dataset.iter_batches(batch_format="pyarrow", batch_size=None):
        yield from batch.to_pylist()


def split_to_jsonl(
    files: Sequence[InputFile], job: SplitJob, settings: RaySettings
) -> SplitOutcome:
    """Split every input on Ray; the JSON Lines come back in the local run's order."""
    inputs = list_inputs(files)
    with ray_cluster(settings) as ray:
        rows = list(_rows(_mapped(ray, inputs, SplitWorker, job, _workers(ray, settings))))
    rows.sort(key=lambda row: (row["order"], row["source"], row["chunk_index"]))
    chunks = [row_to_json(row) + "\n" for row in rows if row["error"] is None]
    errors = tuple(row["error"] for row in rows if row["error"] is not None)
    return SplitOutcome("".join(chunks), len(chunks), errors)


def split_to_parquet(
    files: Sequence[InputFile], job: SplitJob, settings: RaySettings, out_dir: str
) -> tuple[str, ...]:
    """Split every input on Ray into Parquet: `out_dir`/chunks/ (the chunk rows) and
    `out_dir`/errors/ (order, source, error); `out_dir` may be a local folder or a URI that
    pyarrow's filesystems know (s3://, gs://, abfs://, hdfs://). Returns the error lines."""
    inputs = list_inputs(files)
    target = out_dir if "://" in out_dir else os.path.abspath(out_dir)
    with ray_cluster(settings) as ray:
        from ray.data.expressions import col

        rows = _mapped(ray, inputs, SplitWorker, job, _workers(ray, settings)).materialize()
        chunks = rows.filter(expr=col("error").is_null()).drop_columns(["error"])
        errors = rows.filter(expr=col("error").is_not_null())
        errors = errors.select_columns(["order", "source", "error"]).materialize()
        chunks.write_parquet(_join(target, "chunks"))
        if errors.count():
            errors.write_parquet(_join(target, "errors"))
        found = sorted((row["order"], row["error"]) for row in errors.take_all())
    return tuple(error for _, error in found)


def convert_rows(
    pdfs: Sequence[str], job: ConvertJob, settings: RaySettings
) -> Iterator[dict[str, Any]]:
    """Convert every PDF on Ray; yield one row per PDF (Markdown or error), in input order."""
    inputs = list_inputs([InputFile(pdf, is_pdf=True) for pdf in pdfs])
    with ray_cluster(settings) as ray:
        rows = list(_rows(_mapped(ray, inputs, ConvertWorker, job, _workers(ray, settings))))
    yield from sorted(rows, key=lambda row: (row["order"], row["source"]))


def _join(base: str, name: str) -> str:
    return base.rstrip("/") + "/" + name if "://" in base else str(Path(base, name))


def convert_to_folder(
    pdfs: Sequence[tuple[Path, Path]], out_dir: Path, job: ConvertJob, settings: RaySettings
) -> BatchSummary:
    """`chunkcli convert` of (pdf, relative .md) pairs on Ray: the driver writes each
    Markdown file (atomically) under `out_dir`, as the local batch does; a failed PDF writes
    nothing. The summary lists the outcomes in input order."""
    started = time.perf_counter()
    outcomes = []
    for row, (pdf, relative) in zip(
        convert_rows([str(p) for p, _ in pdfs], job, settings), pdfs, strict=True
    ):
        if row["error"] is not None:
            outcomes.append(FileOutcome(pdf, None, error=row["error"]))
            continue
        write_atomic(out_dir / relative, row["markdown"], make_parents=True)
        outcomes.append(FileOutcome(
            pdf, out_dir / relative, pages=row["pages"], blank=tuple(row["blank"]),
            image_only=tuple(row["image_only"]), garbage=tuple(row["garbage"]),
            seconds=row["seconds"], warnings=tuple(row["warnings"]),
        ))  # fmt: skip
    return BatchSummary(tuple(outcomes), time.perf_counter() - started)

"""`chunkcli sync`: re-index only what changed (upsert/delete lines)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from chunkcli.cli.common import (
    EXIT_FAILED,
    OCR_DEFAULTS,
    POOL_DEFAULTS,
    SPLIT_DEFAULTS,
    ConvertFlags,
    FlatMetadataOption,
    JobsOption,
    KeepHiddenTextOption,
    ModeOption,
    NoTablesOption,
    OcrDpiOption,
    OcrEngineOption,
    OcrLangOption,
    OcrModeOption,
    OcrPageTimeOption,
    PasswordOption,
    QuietOption,
    RowsPerChunkOption,
    TimeoutOption,
    app,
    one_line_when_stopped,
    plural,
    print_error,
    print_note,
    reporting_errors,
    require_max_tokens_floor,
    require_utf8,
)
from chunkcli.split import SplitOptions
from chunkcli.split.options import SplitMode, parse_meta
from chunkcli.workers import WorkerPool

if TYPE_CHECKING:
    from chunkcli.sync import SyncPlan


@app.command()
@one_line_when_stopped("the manifest is as it was (the next run writes the same changes again)")
def sync(  # noqa: PLR0913 - one parameter per documented flag
    corpus: Annotated[
        Path,
        typer.Argument(
            metavar="DIR",
            help="The corpus root: Markdown files or PDFs under it.",
            show_default=False,
        ),
    ],
    manifest: Annotated[
        Path,
        typer.Option(
            "--manifest",
            "-m",
            metavar="FILE",
            help="SQLite manifest of what the index holds (created on the first run).",
        ),
    ],
    output: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE|-",
            help="Changes as JSON Lines (written atomically); '-' for stdout.",
        ),
    ],
    max_tokens: Annotated[
        int, typer.Option(min=1, metavar="N", help="As for split.")
    ] = SPLIT_DEFAULTS.max_tokens,
    min_tokens: Annotated[
        int, typer.Option(min=0, metavar="N", help="As for split.")
    ] = SPLIT_DEFAULTS.min_tokens,
    overlap_sentences: Annotated[
        int, typer.Option(min=0, metavar="N", help="As for split.")
    ] = SPLIT_DEFAULTS.overlap_sentences,
    encoding: Annotated[
        str, typer.Option(metavar="NAME", help="As for split.")
    ] = SPLIT_DEFAULTS.encoding,
    split_on: Annotated[
        str, typer.Option(metavar="h2|h3", help="As for split.")
    ] = SPLIT_DEFAULTS.split_on,
    meta: Annotated[
        list[str] | None,
        typer.Option(metavar="KEY=VALUE", help="Copied into every chunk; repeatable."),
    ] = None,
    password: PasswordOption = None,
    no_tables: NoTablesOption = False,
    keep_hidden_text: KeepHiddenTextOption = False,
    ocr: OcrModeOption = OCR_DEFAULTS.mode.value,
    ocr_lang: OcrLangOption = OCR_DEFAULTS.lang,
    ocr_dpi: OcrDpiOption = OCR_DEFAULTS.dpi,
    ocr_engine: OcrEngineOption = OCR_DEFAULTS.engine.value,
    timeout: TimeoutOption = POOL_DEFAULTS.timeout_s,
    ocr_page_time: OcrPageTimeOption = POOL_DEFAULTS.ocr_page_time_s,
    jobs: JobsOption = None,
    quiet: QuietOption = False,
    flat_metadata: FlatMetadataOption = False,
    mode: ModeOption = SPLIT_DEFAULTS.mode,
    rows_per_chunk: RowsPerChunkOption = SPLIT_DEFAULTS.rows_per_chunk,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the summary; write no file, no manifest.")
    ] = False,
    full: Annotated[
        bool, typer.Option("--full", help="Re-emit every chunk of every document (rebuild).")
    ] = False,
) -> None:
    """Re-index only what changed: upsert/delete lines for a vector store.

    Walks DIR, converts and splits only documents whose bytes or options changed since the
    manifest's last run, and writes one line per change: {"op": "upsert", <the chunk>} or
    {"op": "delete", "id": ..., "doc_id": ...}. Removed or renamed files delete their chunks;
    nothing changed writes an empty file. Document ids are paths relative to DIR. A document
    that fails to convert keeps its previous chunks (exit 1). Apply the changes file after each
    run: the next run overwrites it.

    \b
    Example:
      chunkcli sync docs/ --manifest index.db -o changes.jsonl --flat-metadata
    """
    from chunkcli.inputs import ReadOptions
    from chunkcli.jsonl import check_flat_metadata
    from chunkcli.sync import SyncOptions, sync_corpus

    with reporting_errors():
        require_max_tokens_floor(max_tokens)
        require_utf8("--meta", *(meta or []))
        # No --pages: an index of a page selection would change with the selection unseen.
        flags = ConvertFlags(
            None, password, no_tables, ocr, ocr_lang, ocr_dpi, ocr_engine, keep_hidden_text
        )
        read = ReadOptions(flags.options(), WorkerPool(jobs, timeout, ocr_page_time))
        split_options = SplitOptions(
            max_tokens=max_tokens,
            min_tokens=min_tokens,
            overlap_sentences=overlap_sentences,
            encoding=encoding,
            metadata=parse_meta(meta or []),
            split_on=split_on,
            mode=SplitMode.parse(mode),
            rows_per_chunk=rows_per_chunk,
        ).validated()
        if flat_metadata:
            check_flat_metadata(split_options.metadata, split_options.config(split_options.mode))
        options = SyncOptions(split_options, flat_metadata, full, read)
        result = sync_corpus(corpus, manifest, output, options, dry_run=dry_run)
    for failure in result.plan.failures:
        print_error(f"{failure.error} (previous chunks kept)")
    print_note(_sync_summary(result.plan, dry_run), quiet)
    if result.plan.failures:
        raise typer.Exit(EXIT_FAILED)


def _sync_summary(plan: SyncPlan, dry_run: bool) -> str:
    count, c = plural, plan.count
    head = "dry run: would write" if dry_run else "wrote"
    return (
        f"{count(len(plan.changes) - c('deleted'), 'document')}: {c('added')} added, "
        f"{c('changed')} changed, {c('unchanged')} unchanged, {c('deleted')} deleted, "
        f"{c('failed')} failed; {head} {count(plan.upserts, 'upsert')}, "
        f"{count(plan.deletes, 'delete')} ({plan.chunks} chunks indexed)"
    )

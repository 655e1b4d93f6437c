"""`chunkcli eval`: retrieval scores on gold answer spans."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from chunkcli.cli.common import (
    OCR_DEFAULTS,
    POOL_DEFAULTS,
    ConvertFlags,
    JobsOption,
    KeepHiddenTextOption,
    NoTablesOption,
    OcrDpiOption,
    OcrEngineOption,
    OcrLangOption,
    OcrModeOption,
    OcrPageTimeOption,
    OutputOption,
    PagesOption,
    PasswordOption,
    QuietOption,
    TimeoutOption,
    app,
    exit_on_failures,
    print_error,
    print_note,
    reporting_errors,
    write_output,
)
from chunkcli.errors import UsageError
from chunkcli.workers import WorkerPool

if TYPE_CHECKING:
    from chunkcli.inputs import ReadOptions
    from chunkcli.model import InputFailure


@app.command("eval")
def eval_(  # noqa: PLR0913 - one parameter per documented flag
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="GOLD|DOC...",
            help="The gold file (JSON Lines; '-' = stdin, sources relative to the current "
            "folder); with --make-gold, the PDFs or Markdown files to draft it from.",
            show_default=False,
        ),
    ],
    config: Annotated[
        list[str] | None,
        typer.Option(
            "--config",
            "-c",
            metavar='NAME="OPTIONS"',
            help='A split configuration to score, e.g. small="--max-tokens 300"; repeatable '
            "(default: split's defaults, named default).",
        ),
    ] = None,
    k: Annotated[
        str, typer.Option("--k", metavar="K,K,...", help="Ranks to score at.")
    ] = "1,3,5,10",
    as_json: Annotated[bool, typer.Option("--json", help="JSON instead of Markdown.")] = False,
    output: OutputOption = None,
    embed: Annotated[
        str | None,
        typer.Option(
            metavar="MODULE:CALLABLE",
            help="Rank by your embedding function (list of texts -> list of vectors) "
            "instead of BM25; nothing is downloaded.",
        ),
    ] = None,
    timings: Annotated[
        bool, typer.Option(help="Report split and query latency (--no-timings: byte-identical).")
    ] = True,
    make_gold: Annotated[
        bool, typer.Option("--make-gold", help="Write a template gold file for DOC... instead.")
    ] = False,
    pages: PagesOption = None,
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
) -> None:
    """Score retrieval on gold answer spans and compare split configurations, offline.

    Each gold line is {"question", "source" (relative to the gold file), "answer" (a verbatim
    span of the converted Markdown) or "start"/"end", optional "page", "condition",
    "occurrence"}. Sources are converted once and split once per config; every chunk of every
    source is indexed with BM25 (Latin words, Japanese/Korean character bigrams).

    \b
    Examples:
      chunkcli eval gold.jsonl -c small="--max-tokens 300" -c large="--max-tokens 800"
      chunkcli eval --make-gold docs/*.pdf -o gold.jsonl

    Exit code 1: a source cannot be read or an answer is not found; 2: bad options or input.
    """
    from chunkcli.inputs import ReadOptions

    failures: list[InputFailure] = []
    with reporting_errors():
        flags = ConvertFlags(
            pages, password, no_tables, ocr, ocr_lang, ocr_dpi, ocr_engine, keep_hidden_text
        )
        read = ReadOptions(flags.options(), WorkerPool(jobs, timeout, ocr_page_time))
        if make_gold:
            text = _draft_gold(paths, output, read, failures)
        else:
            text = _eval_report(paths, config or [], k, embed, read, as_json, timings)
        if len(failures) < len(paths):  # nothing is written when every document failed
            write_output(output, text)
            print_note(f"wrote {output}", quiet or output in (None, "-"))
    exit_on_failures(failures, len(paths), quiet)


def _eval_report(  # noqa: PLR0913 - the command's options, passed on
    paths: list[str], configs: list[str], ks: str, embed: str | None, read: ReadOptions,
    as_json: bool, timings: bool,
) -> str:  # fmt: skip
    from chunkcli import evaluate  # the eval stage (BM25, the splitter) loads when eval runs

    if len(paths) != 1:
        raise UsageError(f"eval takes one gold file, got {len(paths)} (--make-gold takes many)")
    report = evaluate.run_eval(
        Path(paths[0]),
        evaluate.parse_configs(configs),
        evaluate.parse_ks(ks),
        _eval_retriever(embed),
        gold_text=_decoded_stdin() if paths[0] == "-" else None,
        read=read,
    )
    return (evaluate.to_json if as_json else evaluate.to_markdown)(report, timings)


def _decoded_stdin() -> str:
    from chunkcli.evaluate import GoldError

    try:
        return sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GoldError(f"<stdin>: not UTF-8 text (bad byte at offset {exc.start})") from None


def _draft_gold(
    paths: list[str], output: str | None, read: ReadOptions, failures: list[InputFailure]
) -> str:
    """The template gold file, its sources relative to where it is written; a document that
    cannot be read is reported (and added to `failures`), the others are still drafted."""

    from chunkcli.evaluate import make_gold
    from chunkcli.evaluate.sources import read_sources

    base = Path(output).parent if output not in (None, "-") else Path.cwd()
    files = [Path(p) for p in paths]
    drafted = []
    for path, result in zip(files, read_sources(files, read), strict=True):
        if isinstance(result, str):
            drafted.append(
                (Path(os.path.relpath(path.resolve(), base.resolve())).as_posix(), result)
            )
        else:
            failures.append(result)
            print_error(result.error)
    return make_gold(drafted)


if TYPE_CHECKING:
    from chunkcli.evaluate.run import RetrieverFactory


def _eval_retriever(embed: str | None) -> RetrieverFactory:
    from chunkcli.evaluate.retriever import Bm25Retriever, EmbeddingRetriever, load_embed

    if embed is None:
        return Bm25Retriever
    function = load_embed(embed)
    return lambda texts: EmbeddingRetriever(texts, function, embed)

"""The command line: parse options, call the library, print. No document logic lives here."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

import typer
from rich.console import Console

from chunkcli.errors import ChunkcliError

app = typer.Typer(
    name="chunkcli",
    help="Turn PDFs into GitHub-Flavored Markdown, then into retrieval-ready chunks, "
    "and check a corpus before indexing.\n\n"
    "Pipeline: chunkcli convert report.pdf | chunkcli split - > chunks.jsonl",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
err_console = Console(stderr=True, highlight=False)


@contextlib.contextmanager
def reporting_errors() -> Iterator[None]:
    """Turn a library error into one line on stderr and exit code 1."""
    try:
        yield
    except ChunkcliError as exc:
        err_console.print(f"[red]error:[/red] {exc}", markup=True, soft_wrap=True)
        raise typer.Exit(1) from None


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


# --- convert -------------------------------------------------------------------------------
# (written in the convert issue)

# --- split ---------------------------------------------------------------------------------
# (written in the split issue)

# --- check ---------------------------------------------------------------------------------
# (written in the check issue)

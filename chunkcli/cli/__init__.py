"""The command line: parse options, call the library, print. No document logic lives here.

One module per command (convert, split, sync, check, eval); `common` holds what they share
(the app, exit codes, shared options, error and progress output), `engines` the Ray engine.
Every command follows the same conventions (docs/conventions.md). A command imports the machinery
it runs (the input layer, the batch runner, its stage) when it runs: the only imports of
chunkcli's own modules inside functions (tests/test_import_rules.py holds every other module to
top-level imports), so that `--help` costs 0.13 s of CPU and Markdown-only work never loads
PyMuPDF.
"""

from __future__ import annotations

from chunkcli.cli.common import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, app

# Importing the command modules registers their commands on `app`, in the order `--help`
# lists them (the order of a day's work): kept out of import sorting on purpose.
# isort: off
from chunkcli.cli import convert, split, sync, check, evaluation  # noqa: F401
# isort: on

__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "app"]

"""The command line: parse options, call the library, print. No document logic lives here.

One module per command (convert, split, sync, check, eval); `common` holds what they share
(the app, exit codes, shared options, error and progress output), `engines` the Ray engine.
Every command follows the same conventions (README, "Exit codes"). Heavy modules (PyMuPDF above
all) are imported inside the commands, so that `--help` and Markdown-only work never pay for them.
"""

from __future__ import annotations

# Importing the command modules registers their commands on `app`, in the order `--help` lists.
from chunkcli.cli import check, convert, evaluation, split, sync  # noqa: F401
from chunkcli.cli.common import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, app

__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "app"]

"""Errors the library raises; the CLI turns each into a one-line message and exit code 1."""

from __future__ import annotations


class ChunkcliError(Exception):
    """Base class: the message is one line that names the file and the reason."""


class PdfOpenError(ChunkcliError):
    """The file cannot be read as a PDF (missing, empty, not a PDF, corrupt, encrypted)."""


class ConversionTimeout(ChunkcliError):
    """Converting one file took longer than its time limit."""


class EncodingUnavailable(ChunkcliError):
    """A tiktoken encoding is not available offline."""


class UsageError(ChunkcliError):
    """Options that cannot work together or out-of-range values."""

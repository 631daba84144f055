"""The one error type of the reporting package."""

from __future__ import annotations


class ReportError(ValueError):
    """Input the reporting cannot use (no store, unknown run, unreadable run folder).

    The message is one line naming the path or run, so the CLI can print it as is.
    """

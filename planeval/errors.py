"""The exceptions planeval raises for bad input.

Bad input (an unreadable PDDL file, a malformed log record, a missing directory) must reach the
user as one line naming the file, line and field, never as a traceback. Everything planeval
raises on purpose is a `PlanevalError` whose message already is that line, so the CLI can print
`str(error)` and exit with status 2. Bad *plans* are not errors: they are scored as failures.
"""

from __future__ import annotations


class PlanevalError(ValueError):
    """Bad input; the message is a complete one-line explanation
    (`source: line L, column C: what is wrong`, see `planeval.syntax_errors`)."""


class FormulaError(PlanevalError):
    """A formula that cannot be read, uses a construct the reader does not support, or is too
    large to normalise (DNFs and prime-implicant sets can grow exponentially, so limits stop
    the work instead of letting it run away)."""

"""The one exception planeval raises for bad input.

Bad input (an unreadable PDDL file, a malformed log record, a missing directory) must reach the
user as one line naming the file, line and field, never as a traceback. Everything planeval
raises on purpose is a `PlanevalError` whose message already is that line, so the CLI can print
`str(error)` and exit with status 2. Bad *plans* are not errors: they are scored as failures.
"""

from __future__ import annotations


class PlanevalError(ValueError):
    """Bad input; the message is a complete one-line explanation (file:line: what is wrong)."""

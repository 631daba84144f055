"""The CLI's process ends without the interpreter's teardown after a run that succeeded.

Once a run's command has returned, Python still joins the threads and calls every exit handler
(Prefect's, logging's flush), and then frees every object of every module one by one: after a
run (Prefect, pandas, pyarrow, matplotlib loaded) that last part takes 0.5-1 s and writes
nothing. `end_without_teardown(code)` skips it: an exit handler registered before any other
(this module is imported with the package, so it runs last) flushes stdout and stderr and ends
the process with `os._exit(code)`.

Only the program itself asks for it (`cli.main()` without arguments, for run, demo and
rerun, exit code 0); in-process callers (tests) and every error path end as Python ends them.
When the flush fails (stdout closed under a pipe), Python's own exit reports it as usual.
"""

from __future__ import annotations

import atexit
import os
import sys

_code: list[int] = []


def end_without_teardown(code: int) -> None:
    """When this process exits, end it with `code` right after the last exit handler."""
    _code[:] = [code]


def _last_exit_handler() -> None:
    if not _code:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(_code[0])


atexit.register(_last_exit_handler)

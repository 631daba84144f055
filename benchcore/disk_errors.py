"""Write errors that name the file.

A full disk (`[Errno 28] No space left on device`) or an exceeded quota fails the `write` or
`close` of a file that opened fine, and Python's error then names no path: the user learns that
some write failed, not which, nor where to make room. `names_the_file` adds the path.
"""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: Errors that mean "no room": reported as one line naming the file, without a traceback.
NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


@contextmanager
def names_the_file(path: str | Path) -> Iterator[None]:
    """Re-raise an OSError that names no file as one naming `path`."""
    try:
        yield
    except OSError as error:
        if error.filename is not None or error.errno is None:
            raise
        raise OSError(error.errno, error.strerror, str(path)) from None


def is_no_room(error: BaseException | None) -> bool:
    """Whether `error` is a full disk or an exceeded quota."""
    return isinstance(error, OSError) and error.errno in NO_ROOM

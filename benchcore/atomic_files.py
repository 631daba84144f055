"""Writing a file whole or not at all: every table, record, log and report a run leaves is
written to a temporary name beside it and renamed over it.

Why: a file written in place and cut short (the disk filled, the process was killed) is read
later as if it were whole. A results table cut at 8,192 bytes holds the first rows of the run
and nothing says the rest are gone, so a rerun, the report and the store would take it as the
run's outcome. `os.replace` within one folder is atomic: a reader sees the old file or the new
one, never a part. A write that fails removes its temporary file and leaves the old file as it
was, and its error names the file (pandas and the `write` calls raise `[Errno 28] No space left
on device` with no file name).

No `fsync`: what this guards against is the writing process failing (a full disk, a kill),
after which the kernel still writes what it was given; a power cut is not the case at hand, and
a sync per file would cost a 1,000-instance run's plan logs a second each.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

TEMPORARY_SUFFIX = ".tmp"


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path beside `path` to write; on leaving the block it is renamed to `path`,
    or removed when the block raised. The folder is created when missing."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = target.parent / f".{target.name}.{secrets.token_hex(4)}{TEMPORARY_SUFFIX}"
    # Created empty with the usual permissions (umask applied), unlike mkstemp's 0600.
    os.close(os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        yield scratch
        os.replace(scratch, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(scratch)
        if isinstance(error, OSError) and error.errno is not None and (
                error.filename is None or error.filename == str(scratch)):
            raise OSError(error.errno, error.strerror or str(error), str(target)) from error
        raise


def write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> Path:
    """`Path.write_text`, whole or not at all."""
    with replacing(path) as scratch:
        scratch.write_text(text, encoding=encoding)
    return Path(path)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """`Path.write_bytes`, whole or not at all."""
    with replacing(path) as scratch:
        scratch.write_bytes(data)
    return Path(path)

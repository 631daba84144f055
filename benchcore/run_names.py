"""Names that become file and folder names, checked before any work.

A run id names `results/<run-id>/`; a model's name becomes part of the planning experiment's
folder, the transcript files and the store's rows. A run id such as `../x`, `/abs`, `.`,
`store` (the results store's own folder) or one holding a NUL wrote tables outside `results/`
or into the store and ended in tracebacks; a 300-character model name failed only after every
LLM call was paid (`File name too long`). These checks run when the configuration is read.
"""

from __future__ import annotations

import re
import unicodedata

#: Longest run id: a folder name with room to spare under the 255-byte limit of most systems.
MAX_RUN_ID = 128
#: Longest model name: with the approach, prompt format and suffixes, a file name stays well
#: under 255 bytes (real model names are under 100 characters).
MAX_MODEL_NAME = 128

_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_RESERVED = frozenset({"store"})


def run_id_problem(run_id: str) -> str | None:
    """Why `run_id` cannot name a run folder, or None."""
    if not run_id:
        return "is empty"
    if len(run_id) > MAX_RUN_ID:
        return f"is {len(run_id)} characters long (at most {MAX_RUN_ID})"
    if not _RUN_ID.fullmatch(run_id):
        return ("must be letters, digits, '.', '_' or '-', starting with a letter or digit "
                "(it names a folder under the results directory)")
    if run_id.lower() in _RESERVED or run_id.lower().startswith("run_id="):
        return f"{run_id!r} is the results store's own folder"
    return None


def model_name_problem(name: str) -> str | None:
    """Why a model's `name` cannot be used in file names and tables, or None."""
    if not name.strip():
        return "is empty"
    if len(name) > MAX_MODEL_NAME:
        return f"is {len(name)} characters long (at most {MAX_MODEL_NAME})"
    if any(unicodedata.category(c).startswith("C") for c in name):
        return "holds a control character"
    return None

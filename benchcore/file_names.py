"""File names made from names the user chose (models, pipelines, experiments, domains): one
name, one file, never two names in one file.

Why: replacing the characters a file name cannot hold (`a/b` and `a:b` both become `a-b`)
maps different names to one file, and then two models' plan logs or transcripts overwrite each
other with no error: half the results are gone and the tables say nothing. So a name is kept
as written only when it is plainly a file name already (letters and digits, single `.`, `_` or
`-` between them, at most `MAX_KEPT` characters); any other name becomes its readable part plus
`+` and a hash of the exact name (`a-b+1f2e3d4c5b`). No kept name holds a `+`, so a kept name
never equals a hashed one, and two hashed names differ in their hash. Names of several parts
are joined by `__`, which no part holds either (a part with `__` is hashed), so the parts can
be told apart again: (`a__b`, `c`) and (`a`, `b__c`) are two files.

Case is kept: on a case-insensitive file system (macOS, Windows) `Model` and `model` would
still share a file.
"""

from __future__ import annotations

import hashlib
import re

MAX_KEPT = 100      # longer names are cut and hashed: a file name holds at most 255 bytes
READABLE = 60       # characters of a hashed name's readable part
HASH_CHARS = 10     # 40 bits: no two names of one run share a hash in practice
_KEPT = re.compile(r"[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*")
_UNSAFE = re.compile(r"[^A-Za-z0-9]+")
SEPARATOR = "__"


def file_name(*parts: str, suffix: str = "") -> str:
    """The file name of `parts` (one or more names) plus `suffix` (e.g. ".jsonl")."""
    if not parts:
        raise ValueError("file_name needs at least one name")
    return SEPARATOR.join(_part(part) for part in parts) + suffix


def _part(name: str) -> str:
    if len(name) <= MAX_KEPT and _KEPT.fullmatch(name):
        return name
    readable = _UNSAFE.sub("-", name).strip("-")[:READABLE].strip("-") or "name"
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_CHARS]
    return f"{readable}+{digest}"

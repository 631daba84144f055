"""A short, one-line rendering of any value for an error message.

Input that is wrong is shown to say what was wrong, but a value may be huge (a 300 MB string, a
list an alias bomb built, a million-element row): `str()` of it would build all of it and print
a line nobody can read. `excerpt` never looks at more than a bounded part of the value.
"""

from __future__ import annotations

import reprlib

#: Characters of an excerpt at most.
EXCERPT_LENGTH = 80

_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxtuple, _REPR.maxdict = 2, 4, 4, 4
_REPR.maxset = _REPR.maxfrozenset = _REPR.maxdeque = _REPR.maxarray = 4
_REPR.maxstring, _REPR.maxlong, _REPR.maxother = EXCERPT_LENGTH, 40, EXCERPT_LENGTH


def excerpt(value: object, limit: int = EXCERPT_LENGTH) -> str:
    """`repr(value)` cut to at most `limit` characters on one line (`...` marks a cut)."""
    text = _REPR.repr(value)
    text = " ".join(text.split()) if any(c in text for c in "\n\r\t") else text
    return text if len(text) <= limit else text[: limit - 3] + "..."

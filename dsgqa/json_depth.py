"""How deeply a JSON text nests, found without parsing it.

spark_dsg's C++ JSON reader recurses once per level: a scene graph with 100,000 nested arrays
in its `metadata` kills the process with SIGSEGV, no message, no traceback. Python's own
parser would recurse too (and a raised recursion limit only moves the crash), so the depth is
counted from the bytes: strings are removed, the brackets left over are summed as +1/-1, all at
C speed (a 200 KB graph in about 5 ms, a twentieth of what spark_dsg takes to load it).
"""

from __future__ import annotations

import re
from itertools import accumulate

#: Deepest nesting accepted in a scene-graph file; Hydra's files nest about 6 levels.
MAX_JSON_DEPTH = 256

# A JSON string, escapes included (the unrolled form: no backtracking per character).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_DELTA = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def json_depth(data: bytes) -> int:
    """The deepest nesting of arrays and objects in `data` (0 for a scalar). Brackets inside
    strings do not count; an unbalanced text gives the depth it reaches."""
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_DELTA.__getitem__, brackets)), default=0)

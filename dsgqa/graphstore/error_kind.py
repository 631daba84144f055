"""Why a model's query failed, as one word: the `query_error_kind` results column.

- `syntax`: not Cypher (our grammar or Neo4j rejects it, an unknown variable or function);
- `dialect`: valid Neo4j Cypher the embedded engine cannot run (no translation, or the engine
  refused or failed on what the translation produced);
- `schema`: a name the graph cannot have where Neo4j raises too (a point field other than x,
  y, z); an unknown label, type or node key is not an error (the translator reads it as Neo4j
  does: no match, NULL), but an engine's "does not exist" that still gets through is `schema`;
- `refused`: the write guard stopped it;
- `timeout`: it ran out of time;
- `memory`: it ran out of the engine's memory cap. A resource limit like the timeout, counted
  apart from both the model's errors and the engine's: the embedded engines hold in memory
  what Neo4j streams (Ladybug materializes every shortest path to every node before it keeps
  the ones ending where the query asked: 2 GB for 24 paths), so the same query may or may not
  exhaust Neo4j; charging either side would move a score with the engine;
- `runtime`: an error Neo4j raises as well (division of integers by zero, an integer
  overflow, `range()` with a step of 0, `LIMIT -1`, a percentile outside [0, 1]).

The kind says who lost the point, so on the embedded engines an error charges the model only
when its message is one Neo4j would give too: an engine's internal failure on a valid query
("Cannot evaluate expression with type PROPERTY", a hash join it cannot build, a crash) is
`dialect`, however it is worded. A message nobody listed is `dialect` for the same reason:
charging the model with an engine's error moves its score with the engine.
"""

from __future__ import annotations

import re

from dsgqa.dialect import NEO4J_FUNCTIONS
from dsgqa.graphstore.write_guard import WRITE_KEYWORDS

ERROR_KINDS: tuple[str, ...] = ("syntax", "dialect", "schema", "refused", "timeout", "memory",
                                "runtime")

_UNKNOWN_FUNCTION = re.compile(r"function (\S+) does not exist", re.IGNORECASE)
_NOT_A_STATEMENT = re.compile(r"^(\S+) is not allowed: only read queries")
_NOT_IN_SCOPE = re.compile(r"variable (\S+?) is not in scope", re.IGNORECASE)
# Embedded-engine errors Neo4j raises too, for the same query and the same rows (the Cypher
# Manual: integer division or modulo by zero, integer overflow, range() with step 0, a SKIP or
# LIMIT that is no non-negative integer; the percentile functions' argument check, which our
# own UDF makes, as it makes Neo4j's "/ by zero" for a float over the integer 0
# (`dialect/lazy_divisors.py`); a shortest path whose two ends are one node, checked by our
# UDF where Neo4j meets the row, `dialect/shortest_ends.py`; a property read of a string or
# a number on a row that reaches it, `dialect/scalar_reads.py`). Integer arithmetic overflows,
# not a float cast to an integer: `toInteger(NaN)` or of 1e20 overflows the engines' CAST
# where Java's (long) cast, which Neo4j calls, gives 0 and Long.MAX_VALUE. A string
# function's negative or NULL length is not among them: the engines may evaluate it on rows
# Neo4j never reaches (a WHERE of an OPTIONAL MATCH after a MATCH that found nothing), so it
# is `dialect`.
_NEO4J_RAISES_TOO = re.compile(
    r"runtime exception: (divide|modulo) by zero"
    r"|overflow exception: value -?\d+ [-+*/%] -?\d+ is not within int64 range"
    r"|runtime exception: step of range cannot be 0"
    r"|the number of rows to skip/limit must be a non-negative integer"
    r"|valueerror: percentile .* is not between 0\.0 and 1\.0"
    r"|valueerror: the shortest path algorithm does not work when the start and end nodes"
    r"|valueerror: type mismatch: expected a map but was"
    r"|valueerror: (precision argument to 'round\(\)' cannot be negative"
    r"|unknown rounding mode|rounding necessary|integer, .*, is too large"
    r"|/ by zero)")
# The memory cap: the engine's own message (`KuzuStore` names the limit) or a query worker the
# cap killed; Neo4j's transaction memory limit.
_MEMORY_CAP = re.compile(r"exceeded the memory limit|query worker died \(memory limit"
                         r"|memorypooloutofmemoryerror|outofmemoryerror")


def guard_kind(message: str) -> str:
    """A write-guard refusal is `refused`, unless the text did not start like Cypher at all."""
    start = _NOT_A_STATEMENT.match(message)
    if start and start.group(1).upper() not in WRITE_KEYWORDS:
        return "syntax"
    return "refused"


def engine_error_kind(error: str, backend: str, query: str = "") -> str:
    """The kind of an error message from `GraphStore.query` (after the write guard passed).
    `query`: the model's text, to tell its own unknown variables from the translator's."""
    text = error or ""
    lower = text.lower()
    if "timed out" in lower or "transactiontimedout" in lower or "interrupted" in lower:
        return "timeout"
    if _MEMORY_CAP.search(lower):
        return "memory"
    if backend == "neo4j":
        if "statement.syntaxerror" in lower or "procedurenotfound" in lower:
            return "syntax"
        if "accessmode" in lower or "forbidden" in lower:
            return "refused"
        return "runtime"
    if _NEO4J_RAISES_TOO.search(lower):
        return "runtime"
    unknown = _UNKNOWN_FUNCTION.search(text)
    if unknown:
        return "dialect" if unknown.group(1).lower() in NEO4J_FUNCTIONS else "syntax"
    if "binder exception" in lower:
        if ("table" in lower and "does not exist" in lower) or "cannot find property" in lower:
            return "schema"
        if _unknown_variable(text, query) or "not defined" in lower:
            return "syntax"
    return "dialect"


def _unknown_variable(error: str, query: str) -> bool:
    """Whether the engine names a variable out of scope that the model wrote: one the
    translator made (`_rel1`, `_outer2`) out of scope is the translator's failure."""
    missing = _NOT_IN_SCOPE.search(error)
    if missing is None:
        return False
    name = missing.group(1).strip("`")
    return not query or re.search(rf"(?<![\w`]){re.escape(name)}(?![\w`])|`{re.escape(name)}`",
                                  query) is not None

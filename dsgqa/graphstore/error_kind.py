"""Why a model's query failed, as one word: the `query_error_kind` results column.

- `syntax`: not Cypher (our grammar or Neo4j rejects it, an unknown variable or function);
- `dialect`: valid Neo4j Cypher the embedded engine cannot run (no translation, or the engine
  refused what the translation produced);
- `schema`: an unknown label, relationship type or property;
- `refused`: the write guard stopped it;
- `timeout`: it ran out of time;
- `runtime`: anything else the engine raised while running it.
"""

from __future__ import annotations

import re

from dsgqa.dialect import NEO4J_FUNCTIONS
from dsgqa.graphstore.write_guard import WRITE_KEYWORDS

ERROR_KINDS: tuple[str, ...] = ("syntax", "dialect", "schema", "refused", "timeout", "runtime")

_UNKNOWN_FUNCTION = re.compile(r"function (\S+) does not exist", re.IGNORECASE)
_NOT_A_STATEMENT = re.compile(r"^(\S+) is not allowed: only read queries")
# Engine failures where Neo4j returns NULL instead: the engine's fault, not the model's.
_ENGINE_NOT_NEO4J = re.compile(r"list_extract\(list, index\): index=-?\d+ is out of range"
                               r"|conversion exception: cast failed")


def guard_kind(message: str) -> str:
    """A write-guard refusal is `refused`, unless the text did not start like Cypher at all."""
    start = _NOT_A_STATEMENT.match(message)
    if start and start.group(1).upper() not in WRITE_KEYWORDS:
        return "syntax"
    return "refused"


def engine_error_kind(error: str, backend: str) -> str:
    """The kind of an error message from `GraphStore.query` (after the write guard passed)."""
    text = error or ""
    lower = text.lower()
    if "timed out" in lower or "transactiontimedout" in lower or "interrupted" in lower:
        return "timeout"
    if backend == "neo4j":
        if "statement.syntaxerror" in lower or "procedurenotfound" in lower:
            return "syntax"
        if "accessmode" in lower or "forbidden" in lower:
            return "refused"
        return "runtime"
    if _ENGINE_NOT_NEO4J.search(lower):
        return "dialect"  # Neo4j gives NULL here (an index past the end, toInteger('x'))
    if "parser exception" in lower:
        return "dialect"  # our grammar accepted it: the engine's parser refused our translation
    unknown = _UNKNOWN_FUNCTION.search(text)
    if unknown:
        return "dialect" if unknown.group(1).lower() in NEO4J_FUNCTIONS else "syntax"
    if "binder exception" in lower:
        if ("table" in lower and "does not exist" in lower) or "cannot find property" in lower:
            return "schema"
        if "not in scope" in lower or "not defined" in lower:
            return "syntax"
        return "dialect"  # Neo4j is dynamically typed; Kuzu's binder is not
    return "runtime"

"""What every graph database behind the QA track offers, and the value types it returns.

The stages only see `GraphStore`: `load` once (read-write), then `query` for the model's Cypher,
which is read-only, time-limited, row-capped and never raises for a bad query: a syntax error, a
write attempt or a timeout is data (`valid=False` + `error`), because the model's mistakes are
what the benchmark measures.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from dsgqa.dialect.functions import mixed_list, mixed_value, property_map
from dsgqa.scene_graph import EDGE_TYPES, LABELS, SceneGraph

# Engine-internal keys of Kuzu node/rel values; offsets mean nothing to a reader of the rows.
_INTERNAL_KEYS = frozenset({"_id", "_src", "_dst"})


class GraphStoreError(RuntimeError):
    """The database itself failed (unreachable, cannot open, cannot load); one-line message.

    Never raised for the model's Cypher: that is `QueryResult(valid=False)`."""


@dataclass
class QueryResult:
    """Rows of one query, cut at `max_rows` (then `truncated`); plain JSON-able Python values."""

    columns: list[str]
    rows: list[list[Any]]
    truncated: bool = False
    valid: bool = True
    error: str | None = None
    seconds: float = 0.0

    @classmethod
    def failure(cls, error: str, seconds: float = 0.0) -> QueryResult:
        return cls(columns=[], rows=[], truncated=False, valid=False, error=error, seconds=seconds)


@dataclass(frozen=True)
class SchemaFacts:
    """What the loaded database holds, as the schema description presents it."""

    node_counts: dict[str, int]
    properties: dict[str, list[tuple[str, str]]]  # label -> [(name, type)]
    edge_endpoints: dict[str, list[tuple[str, str, int]]]  # type -> [(from, to, count)]
    classes: dict[str, list[str]] = field(default_factory=dict)  # label -> class names
    # type -> the bound a variable-length pattern over it needs at most (`hop_limits.py`)
    hop_limits: dict[str, int] = field(default_factory=dict)


class GraphStore(ABC):
    """One scene graph in one database; see the module docstring for the contract."""

    backend: str
    # The dialect's way to count nodes per label and edges per type (rows of [name, count]).
    NODE_COUNTS_QUERY: str
    EDGE_COUNTS_QUERY: str
    # Rows of [type, source nodeSymbol, target nodeSymbol], one per stored relationship.
    EDGE_LIST_QUERY: str
    # The largest upper bound the engine accepts in a variable-length pattern (None: no cap).
    MAX_VAR_LENGTH: int | None = None

    @abstractmethod
    def load(self, graph: SceneGraph) -> None:
        """Replace the database content with `graph`, in batches."""

    @abstractmethod
    def query(self, cypher: str, *, timeout_s: float = 10.0, max_rows: int = 200,
              distinct_rows: bool = False, max_hops: int | None = None) -> QueryResult:
        """Run untrusted Cypher read-only; thread-safe; never raises for a bad query.

        `distinct_rows`: drop a row equal to one read before, before the row cap counts it
        (a translated UNION the engine runs as UNION ALL, `dsgqa.dialect.union_parts`).
        `max_hops`: the largest variable-length bound the query needs, where it is above the
        embedded engines' default of 30 (`Translation.max_hops`); Neo4j has no such bound."""

    @abstractmethod
    def checksum(self) -> str:
        """Hash of all nodes, properties and edges, to prove a query changed nothing."""

    @abstractmethod
    def _trusted(self, cypher: str) -> list[list[Any]]:
        """Our own read queries (no guard, no row cap); failures are database errors."""

    def counts(self) -> dict[str, int]:
        """Nodes per label and edges per type (every schema label and type, zero if empty)."""
        counts = dict.fromkeys((*LABELS, *EDGE_TYPES), 0)
        for name, n in [*self._trusted(self.NODE_COUNTS_QUERY),
                        *self._trusted(self.EDGE_COUNTS_QUERY)]:
            counts[name] = n
        return counts

    def hop_limits(self) -> dict[str, int]:
        """Per relationship type, a variable-length bound no shortest path in the graph exceeds
        (capped at the engine's maximum), read from the stored relationships."""
        from dsgqa.graphstore.hop_limits import hop_limits

        return hop_limits(self._trusted(self.EDGE_LIST_QUERY), self.MAX_VAR_LENGTH)

    @abstractmethod
    def schema_facts(self) -> SchemaFacts:
        """Labels, properties, edge endpoints and class names, read from the database."""

    def schema_description(self) -> str:
        """The schema text for the prompt, generated from the loaded database."""
        from dsgqa.graphstore.schema_description import describe_schema

        return describe_schema(self.schema_facts())

    @abstractmethod
    def close(self) -> None:
        """Release the database (and any worker processes)."""

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def plain_value(value: Any) -> Any:
    """A database value as plain JSON-able Python: rows are cached, compared and shown to models.

    Decimals (Kuzu's sum of integers) become int or float; dates become ISO text; node and rel
    values lose engine-internal ids but keep `_label` and their properties."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dict):
        held, one = mixed_value(value)
        if held:  # a value of one of several kinds, as the translator wrote it
            return plain_value(one)
        items = mixed_list(value)
        if items is not None:  # a Neo4j list of mixed types, as the translator wrote it
            return [plain_value(v) for v in items]
        properties = property_map(value)
        if properties is not None:  # a node's properties as one map, as the translator wrote it
            return {str(k): plain_value(v) for k, v in properties.items()}
        # Ladybug spells the internal keys in capitals (`_ID`, `_LABEL`); Kuzu in lower case.
        return {_key(str(k)): plain_value(v) for k, v in value.items()
                if str(k).lower() not in _INTERNAL_KEYS}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain_value(v) for v in value]
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


# Ladybug's capitals for the keys Kuzu spells in lower case (a node's label, a path's parts).
_CAPITAL_KEYS = {"_LABEL": "_label", "_NODES": "_nodes", "_RELS": "_rels"}


def _key(key: str) -> str:
    return _CAPITAL_KEYS.get(key, key)


def content_hash(node_rows: list[Any], edge_rows: list[Any], extra: Any = None) -> str:
    """Order-independent sha256 over node rows, edge rows and any extra catalog facts."""
    canon = [
        sorted(json.dumps(r, sort_keys=True, default=str) for r in node_rows),
        sorted(json.dumps(r, sort_keys=True, default=str) for r in edge_rows),
        json.dumps(extra, sort_keys=True, default=str),
    ]
    return hashlib.sha256(json.dumps(canon).encode()).hexdigest()


def one_line(error: BaseException | str, limit: int = 500) -> str:
    """Engine messages span lines (with a caret under the query); results keep one line."""
    text = " ".join(str(error).split())
    return text[:limit] or (type(error).__name__ if isinstance(error, BaseException) else "error")

"""The two ways a model's query can fail before it reaches the engine."""

from __future__ import annotations


class CypherSyntaxError(ValueError):
    """Not Cypher at all (our openCypher grammar rejects it); scored as `syntax`."""


class DialectError(ValueError):
    """Valid Neo4j Cypher that the embedded engine cannot express; scored as `dialect`."""

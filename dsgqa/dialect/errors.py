"""The three ways a model's query can fail before it reaches the engine."""

from __future__ import annotations


class CypherSyntaxError(ValueError):
    """Not Cypher at all (our openCypher grammar rejects it); scored as `syntax`."""


class DialectError(ValueError):
    """Valid Neo4j Cypher that the embedded engine cannot express; scored as `dialect`."""


class CypherSchemaError(ValueError):
    """Cypher naming a label, relationship type or property the graph does not have (in that
    case: Neo4j's names are case-sensitive, the engines' are not); scored as `schema`."""

"""Neo4j-dialect compatibility for the embedded engines.

Models write Cypher for Heracles' Neo4j graph; Kuzu and Ladybug speak a different dialect.
`translate` parses the model's query with a real openCypher grammar (`cypher.lark`), rewrites
what Kuzu spells differently (named passes in `rewrite.py`) and prints Kuzu Cypher (`emit.py`).
Pure library: no Prefect, no database.
"""

from dsgqa.dialect.errors import CypherSchemaError, CypherSyntaxError, DialectError
from dsgqa.dialect.rewrite import NEO4J_FUNCTIONS
from dsgqa.dialect.translate import KUZU_DIALECT, Translation, translate, translator_version

__all__ = ["KUZU_DIALECT", "NEO4J_FUNCTIONS", "CypherSchemaError", "CypherSyntaxError",
           "DialectError", "Translation", "translate", "translator_version"]

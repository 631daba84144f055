"""`translate`: the model's Neo4j Cypher -> the query the embedded engine runs."""

from __future__ import annotations

from dataclasses import dataclass

from lark import Tree

from benchcore.names import EMBEDDED_BACKENDS, Backend
from dsgqa.dialect.emit import Emitter
from dsgqa.dialect.errors import CypherSchemaError, CypherSyntaxError, DialectError
from dsgqa.dialect.hop_bounds import needed_hops
from dsgqa.dialect.parser import parse_text
from dsgqa.dialect.path_patterns import SYNTAX as PATH_PATTERN_SYNTAX
from dsgqa.dialect.result_order import ResultOrder, final_order
from dsgqa.dialect.return_texts import (
    Misaligned,
    keep_return_texts,
    keep_return_texts_from_positions,
)
from dsgqa.dialect.rewrite import Rewriter

Target = Backend
# Engines that speak Kuzu's dialect (Ladybug is a Kuzu fork with the same Cypher).
KUZU_DIALECT: frozenset[str] = frozenset(EMBEDDED_BACKENDS)


@dataclass(frozen=True)
class Translation:
    """The query to run, the names of the rewrites that produced it (empty: unchanged) and,
    for the embedded engines (whose translation parses the query), how the query orders its
    result (`result_order.final_order`; None: it does not). Read from the parse the
    translation makes anyway (a second parse costs ~0.6 ms). `distinct_rows`: the reader must
    drop repeated rows as it reads them (a UNION the engine runs as UNION ALL)."""

    query: str
    rewrites: tuple[str, ...] = ()
    order: ResultOrder | None = None
    distinct_rows: bool = False
    max_hops: int | None = None   # how deep a variable-length pattern must go (`hop_bounds`)


def translate(query: str, target: Target = "kuzu") -> Translation:
    """Rewrite `query` for `target`. Neo4j gets the query unchanged.

    Raises `CypherSyntaxError` when the text is not Cypher, `CypherSchemaError` when it names a
    label, type or property the graph does not have, and `DialectError` when it is valid
    Neo4j Cypher the engine cannot express. Never raises anything else for any input text."""
    if target not in KUZU_DIALECT:
        return Translation(query)
    root, query = _parse_with_return_texts(query)
    try:
        order = final_order(root)   # before the passes rewrite the tree
    except Exception:   # a tree shape it did not foresee: ordered, ties unknown (kept as run)
        order = ResultOrder(keys=None)
    rewriter = Rewriter(query, target)
    try:
        rewritten = rewriter.run(root)
        text = Emitter().emit(rewritten)
    except (CypherSchemaError, CypherSyntaxError, DialectError):
        raise
    except RecursionError:
        raise CypherSyntaxError("the query nests too deeply") from None
    except Exception as exc:  # a tree shape the passes did not foresee: never crash the run
        raise DialectError(f"cannot translate ({type(exc).__name__}: {exc})") from None
    hops = needed_hops(rewritten) if "*" in text else None
    return Translation(text, tuple(rewriter.applied), order, rewriter.distinct_rows, hops)


def _parse_with_return_texts(query: str) -> tuple[Tree, str]:
    """The parse tree (and its text) with every unaliased RETURN item's `original_text`: from
    the tokens of a parse without spans, or, where the tokens do not line up with the tree or
    Neo4j 5's path patterns are lowered (whose messages quote the pattern as written), from a
    parse with them."""
    if PATH_PATTERN_SYNTAX.search(query) is None:
        root, text = parse_text(query, positions=False)
        try:
            keep_return_texts(root, text, root.tokens)
            return root, text
        except Misaligned:
            pass
    root, text = parse_text(query)
    keep_return_texts_from_positions(root, text)
    return root, text


def translator_version() -> str:
    """Hash of the grammar and the translator's sources: cached query results that went through
    the translator are invalid once either changes."""
    import hashlib

    from dsgqa.dialect import parser

    digest = hashlib.sha256(parser.GRAMMAR.read_bytes())
    # Every module of the package: a pass lives in its own module (uniqueness, endpoints, ...).
    for source in sorted(parser.GRAMMAR.parent.glob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]

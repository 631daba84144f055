"""`translate`: the model's Neo4j Cypher -> the query the embedded engine runs."""

from __future__ import annotations

from dataclasses import dataclass

from lark import Tree

from benchcore.names import EMBEDDED_BACKENDS, Backend
from dsgqa.dialect.emit import Emitter
from dsgqa.dialect.errors import CypherSchemaError, CypherSyntaxError, DialectError
from dsgqa.dialect.parser import parse_text
from dsgqa.dialect.result_order import ResultOrder, final_order
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


def translate(query: str, target: Target = "kuzu") -> Translation:
    """Rewrite `query` for `target`. Neo4j gets the query unchanged.

    Raises `CypherSyntaxError` when the text is not Cypher, `CypherSchemaError` when it names a
    label, type or property the graph does not have, and `DialectError` when it is valid
    Neo4j Cypher the engine cannot express. Never raises anything else for any input text."""
    if target not in KUZU_DIALECT:
        return Translation(query)
    root, query = parse_text(query)
    try:
        order = final_order(root)   # before the passes rewrite the tree
    except Exception:   # a tree shape it did not foresee: ordered, ties unknown (kept as run)
        order = ResultOrder(keys=None)
    _keep_return_texts(root, query)
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
    return Translation(text, tuple(rewriter.applied), order, rewriter.distinct_rows)


def _keep_return_texts(root: Tree, query: str) -> None:
    """Remember the text of each unaliased RETURN item: Neo4j names the column after it."""
    for clause in root.iter_subtrees_topdown():
        if clause.data != "return_clause":
            continue
        for items in clause.children[0].children:
            if not (isinstance(items, Tree) and items.data == "proj_items"):
                continue
            for item in items.children:
                if isinstance(item, Tree) and len(item.children) == 1 and not item.meta.empty:
                    item.original_text = query[item.meta.start_pos:item.meta.end_pos]


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

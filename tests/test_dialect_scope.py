"""Names and their scopes as Neo4j 5 reads them: a WITH's WHERE reading a projected expression
(`with_where_aliases`), a comprehension's own variable named like another (`lambda_names`),
normalize()'s normal-form keyword, and properties() of a node read for a key its label lacks.
Rows on both engines are in `tests/cypher_fuzz/regressions.py`; here the translations, and the
nearby queries Neo4j rejects, which must stay the model's syntax error on both engines."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path
from typing import Any

import pytest

from dsgqa.dialect import CypherSyntaxError, DialectError, translate
from dsgqa.dialect.lambda_names import REWRITE as LAMBDA_NAMES
from dsgqa.dialect.with_where_aliases import REWRITE as WITH_WHERE_ALIASES
from tests.cypher_fuzz import graphs
from tests.cypher_fuzz.engines import BACKENDS, run_engines
from tests.cypher_fuzz.regressions import GRAPH
from tests.ladybug_run import require_ladybug

TARGETS = ["kuzu", "ladybug"]
OBJECTS = "MATCH (o:Object) "


# ------------------------------------------------------------------ a WITH's WHERE

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("query", "where"), [
    # Neo4j's aliasWhere: the projected expression, whole or inside another, is the alias.
    (OBJECTS + "WITH o.class AS kind, count(o) AS n WHERE o.class <> 'seating' RETURN kind, n",
     "WHERE kind <> 'seating'"),
    (OBJECTS + "WITH DISTINCT o.class AS kind WHERE o.class STARTS WITH 's' RETURN kind",
     "WHERE kind STARTS WITH 's'"),
    (OBJECTS + "WITH o.class AS kind, count(o) AS n WHERE size(o.class) > 4 RETURN kind, n",
     "WHERE size(kind) > 4"),
    # function names in any case, parentheses and the quotes of a name are no difference
    (OBJECTS + "WITH toLower(o.`class`) AS kind, count(o) AS n WHERE (TOLOWER(o.class)) = 'a' "
     "RETURN kind, n", "WHERE kind = 'a'"),
    # a variable passed on under another name is read as that name
    (OBJECTS + "WITH o AS obj, count(o) AS n WHERE o.class = 'a' RETURN obj, n",
     "WHERE obj.class = 'a'"),
    # and inside a comprehension or a quantifier (Neo4j's language server accepts them there)
    (OBJECTS + "WITH o.class AS kind, count(o) AS n WHERE any(x IN [1] WHERE o.class = 'a') "
     "RETURN kind, n", "kind = 'a'"),
    # a WITH that neither aggregates nor is DISTINCT: the same rewrite
    ("MATCH (r:Room) WITH r.nodeSymbol AS s WHERE r.nodeSymbol <> 'R1' RETURN s",
     "WHERE s <> 'R1'"),
])
def test_a_with_s_where_reads_its_projected_expressions_as_their_aliases(
        target: str, query: str, where: str) -> None:
    translation = translate(query, target)
    assert where in translation.query
    assert WITH_WHERE_ALIASES in translation.rewrites


@pytest.mark.parametrize("target", TARGETS)
def test_an_aggregate_of_the_with_in_its_where_is_the_column(target: str) -> None:
    """No aggregate in a WHERE (which Neo4j rejects) is left: it reads the column (Kuzu's
    translation names the count apart, `free_aggregates`)."""
    translation = translate(OBJECTS + "WITH o.class AS kind, count(o) AS n WHERE count(o) > 1 "
                            "RETURN kind, n", target)
    assert "WHERE count" not in translation.query
    assert WITH_WHERE_ALIASES in translation.rewrites


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("query", [
    # `o` is the class string there: o.class reads a redefined name and stays as written
    OBJECTS + "WITH o.class AS o, count(*) AS n WHERE o.class = 'lamp' RETURN o, n",
    # an alias is no projected expression of its own
    OBJECTS + "WITH o.class AS kind, count(*) AS n WHERE kind <> 'x' RETURN kind, n",
    # `WITH o` names no alias (Neo4j keeps only explicitly aliased items)
    OBJECTS + "WITH o, count(*) AS n WHERE o.class <> 'x' RETURN o, n",
])
def test_what_neo4j_does_not_alias_stays_as_written(target: str, query: str) -> None:
    assert WITH_WHERE_ALIASES not in translate(query, target).rewrites


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("query", "name"), [
    (OBJECTS + "WITH o.class AS kind, count(*) AS n WHERE o.name <> 'x' RETURN kind, n", "o"),
    (OBJECTS + "WITH DISTINCT o.class AS kind WHERE o.center.z > 0 RETURN kind", "o"),
    # only an equal expression is aliased, not one it is part of
    (OBJECTS + "WITH o.class + 'a' AS kind, count(*) AS n WHERE o.class <> 'x' RETURN kind, n",
     "o"),
    # names and keys are case-sensitive
    (OBJECTS + "WITH o.class AS kind, count(*) AS n WHERE o.CLASS <> 'x' RETURN kind, n", "o"),
    # Neo4j's rewrite enters no subquery, pattern comprehension or pattern predicate
    (OBJECTS + "WITH o.class AS kind, count(*) AS n "
     "WHERE COUNT { MATCH (p:Object) WHERE p.class = o.class } > 1 RETURN kind, n", "o"),
    (OBJECTS + "WITH o.class AS kind, count(*) AS n WHERE size([(a)-->(x) | o.class]) > 0 "
     "RETURN kind, n", "o"),
    (OBJECTS + "WITH o AS p, count(*) AS n WHERE (o)-->() RETURN p, n", "o"),
])
def test_an_earlier_variable_after_an_aggregating_with_stays_a_syntax_error(
        target: str, query: str, name: str) -> None:
    with pytest.raises(CypherSyntaxError, match=f"declared before the WITH/RETURN: {name}$"):
        translate(query, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("query", [
    # names a subquery or a pattern comprehension declares for itself are its own
    OBJECTS + "WITH o.class AS kind, count(*) AS n WHERE n > 1 AND EXISTS { MATCH (o) } "
    "RETURN kind, n",
    OBJECTS + "WITH o.class AS kind, count(*) AS n "
    "WHERE COUNT { MATCH (p:Object) WHERE p.class = kind } > 1 RETURN kind, n",
    OBJECTS + "WITH o.class AS kind, count(*) AS n "
    "WHERE size([(a:Room)-->(x) WHERE x.class = kind | a]) > 0 RETURN kind, n",
    # a comprehension's own variable; every name through a star
    OBJECTS + "WITH o.class AS kind, collect(o) AS os WHERE all(x IN os WHERE x.class = kind) "
    "RETURN kind",
    OBJECTS + "WITH *, count(*) AS n WHERE o.class <> 'x' RETURN o, n",
])
def test_names_in_scope_after_an_aggregating_with_pass_the_check(target: str,
                                                                 query: str) -> None:
    # an engine's limit elsewhere in the query is no verdict on its names
    with contextlib.suppress(DialectError):
        translate(query, target)


@pytest.mark.parametrize("target", TARGETS)
def test_a_comprehension_rebinding_a_variable_of_a_projected_expression_is_refused(
        target: str) -> None:
    query = (OBJECTS + "WITH o.class AS kind, collect(o) AS objs "
             "WHERE any(o IN objs WHERE o.class = kind) RETURN kind")
    with pytest.raises(DialectError, match="rebinds a variable"):
        translate(query, target)


# ------------------------------------------------------------------ comprehension variables

@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("query", "expected"), [
    ("MATCH p = (a:Room)-[r:ROOM_CONNECTED*1..2]->(b:Room) RETURN [r IN [1, 2] | r * 2] AS t",
     "list_transform([1, 2], _each1 -> _each1 * 2) AS t"),
    ("MATCH (x:Room) RETURN [x IN [1, 2] | x * 2] AS k, x.nodeSymbol AS s",
     "list_transform([1, 2], _each1 -> _each1 * 2) AS k, x.nodeSymbol AS s"),
    # the list a comprehension runs over, and reduce's initial value, read the outer name
    ("WITH [1, 2] AS x RETURN [x IN x | x + 1] AS k",
     "list_transform(x, _each1 -> _each1 + 1) AS k"),
    ("WITH 3 AS n RETURN reduce(n = n, y IN [1] | n + y) AS k",
     "(_each1, y) -> _each1 + y"),
    # a nested comprehension's own x is its own
    ("WITH 1 AS x RETURN [x IN [1] | [x IN [x, 3] | x]] AS k",
     "_each2 -> _each2"),
    # names are case-sensitive in Neo4j, not in the engines' binders: X is not x
    ("MATCH (x:Room) RETURN [X IN [1, 2] | x.nodeSymbol + X] AS k",
     "_each1 -> CASE WHEN x.nodeSymbol IS NULL OR _each1 IS NULL"),
])
def test_a_comprehension_variable_named_like_another_gets_a_fresh_name(
        target: str, query: str, expected: str) -> None:
    translation = translate(query, target)
    assert expected in translation.query
    assert LAMBDA_NAMES in translation.rewrites


@pytest.mark.parametrize("target", TARGETS)
def test_a_comprehension_variable_no_other_variable_has_keeps_its_name(target: str) -> None:
    translation = translate("WITH [1, 2] AS xs RETURN [x IN xs | x * 2] AS l", target)
    assert "x -> x * 2" in translation.query
    assert LAMBDA_NAMES not in translation.rewrites


@pytest.mark.parametrize("target", TARGETS)
def test_a_comprehension_variable_a_subquery_reads_keeps_its_name(target: str) -> None:
    """The pass does not rename inside subqueries: the engines refuse it as before."""
    translation = translate("MATCH (x:Room) RETURN [x IN [1] WHERE EXISTS { MATCH (x) }] AS k",
                            target)
    assert LAMBDA_NAMES not in translation.rewrites


# ------------------------------------------------------------------ normalize()

@pytest.mark.parametrize("target", TARGETS)
def test_normalize_s_normal_form_is_a_keyword_in_any_case(target: str) -> None:
    translation = translate("RETURN normalize('a', NFD) AS nfd, normalize('b', nfkc) AS k",
                            target)
    assert translation.query == ("RETURN neo4j_normalize('a', 'NFD') AS nfd, "
                                 "neo4j_normalize('b', 'NFKC') AS k")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("query", [
    "RETURN normalize('a', 'NFD') AS x",
    "RETURN normalize('a', `NFD`) AS x",
    "RETURN normalize('a', NFE) AS x",
    "WITH 'NFD' AS form RETURN normalize('a', form) AS x",
])
def test_normalize_s_second_argument_is_no_expression(target: str, query: str) -> None:
    with pytest.raises(CypherSyntaxError, match="Invalid normal form"):
        translate(query, target)


@pytest.mark.parametrize("target", TARGETS)
def test_normalize_returns_a_string(target: str) -> None:
    """size() of it is a string's size (it was refused as of a type the query does not show)."""
    query = translate("RETURN size(normalize('\u00e9', NFD)) AS n", target).query
    assert query == "RETURN neo4j_text_size(neo4j_normalize('\u00e9', 'NFD')) AS n"


# ------------------------------------------------------------------ properties()

@pytest.mark.parametrize("target", TARGETS)
def test_properties_of_a_node_for_a_key_its_label_lacks_is_null(target: str) -> None:
    query = translate("MATCH (r:Room) RETURN properties(r).bbox_dim AS a, "
                      "properties(r)['bbox_center'] AS b", target).query
    assert query == ("MATCH (r:Room) RETURN CAST(NULL AS STRUCT(x DOUBLE, y DOUBLE, z DOUBLE)) "
                     "AS a, CAST(NULL AS STRUCT(x DOUBLE, y DOUBLE, z DOUBLE)) AS b")


@pytest.mark.parametrize("target", TARGETS)
def test_properties_of_an_object_reads_its_box(target: str) -> None:
    query = translate("MATCH (o:Object) RETURN properties(o).bbox_dim AS a", target).query
    assert query == "MATCH (o:Object) RETURN o.bbox_dim AS a"


# ------------------------------------------------------------------ on both engines

# Queries Neo4j rejects at compile time near the fixed forms: the model's syntax error on both
# engines, wherever the failure is found (the translator or the engine's binder).
REJECTED = [
    OBJECTS + "WITH o.class AS kind, count(*) AS n WHERE o.name = '' RETURN kind, n",
    OBJECTS + "WITH DISTINCT o.class AS kind WHERE O.class = 'lamp' RETURN kind",
    "MATCH p = (a:Room)-[r:ROOM_CONNECTED*1..2]->(b:Room) "
    "RETURN [x IN relationships(p) | type(x)] AS t, x",
    "MATCH p = (a:Room)-[r:ROOM_CONNECTED*1..2]->(b:Room) "
    "RETURN reduce(n = 0, r IN relationships(p) | n + 1) + n AS k",
    "WITH [1, 2] AS xs RETURN [x IN xs | x * 2] AS l, x",
    "RETURN normalize('a', 'NFD') AS nfd",
    "RETURN NFD AS x",
]


@pytest.fixture(scope="module")
def rejected_results() -> dict[str, list[dict[str, Any]]]:
    require_ladybug()
    with tempfile.TemporaryDirectory(prefix="scope-") as scratch:
        path = graphs.write_spark_dsg(GRAPH, Path(scratch) / "graph.json")
        results = run_engines([{"graph": str(path), "queries": REJECTED}])
    return {backend: results[backend][0] for backend in BACKENDS}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("index", range(len(REJECTED)))
def test_a_nearby_query_neo4j_rejects_is_a_syntax_error(
        rejected_results: dict[str, list[dict[str, Any]]], backend: str, index: int) -> None:
    result = rejected_results[backend][index]
    assert not result["valid"] and result["kind"] == "syntax", (
        f"{REJECTED[index]}\n  {result['kind']}: {result['error']}\n  {result['executed']}")

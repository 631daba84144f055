"""The fuzzer's reference evaluator on pattern lists whose patterns start from two nodes bound
before the clause (`OPTIONAL MATCH (a)-->(x), (b)-->(y)`, the MATCH of a COUNT or EXISTS
subquery or of a CALL body), on the regression graph (`tests/cypher_fuzz/regressions.py`).

The generator draws these forms (`comma_outer_patterns`, `subquery_two_patterns`,
`call_two_imports`) and the reference alone says what Neo4j returns for them, so it is pinned
here to rows worked out by hand from the Cypher Manual: every outer node stands for its row's
value, one MATCH's patterns never bind one relationship twice ("Patterns": relationship
isomorphism), a pattern from a NULL node matches nothing, and an OPTIONAL MATCH that matches
nothing gives one row of NULLs. The regression cases of the same names, as ASTs, and the
queries printed from them are checked to be the cases' own (but for parentheses).
"""

from __future__ import annotations

import pytest

from tests.cypher_fuzz import ast as A
from tests.cypher_fuzz.reference import run
from tests.cypher_fuzz.refgraph import RefGraph
from tests.cypher_fuzz.regressions import CASES, GRAPH

OUT, BOTH = "out", "both"


def node(var: str | None, label: str | None = None, symbol: str | None = None) -> A.NodePat:
    props = (("nodeSymbol", A.Lit(symbol)),) if symbol else ()
    return A.NodePat(var, label, props)


def hop(start: str, rel: str, end: str | None, direction: str = OUT,
        rel_var: str | None = None) -> A.PathPat:
    return A.PathPat((node(start), A.RelPat(rel_var, (rel,), direction), node(end)))


def prop(var: str, key: str) -> A.Prop:
    return A.Prop(A.Var(var), key)


ROOM_PAIRS = A.Match(False, (A.PathPat((node("a", "Room"), A.RelPat(None, ("ROOM_CONNECTED",),
                                                                    OUT), node("b", "Room"))),))
PAIR_ITEMS = ((prop("a", "nodeSymbol"), "a"), (prop("b", "nodeSymbol"), "b"))
TWO_CONTAINS = (hop("a", "CONTAINS", "x"), hop("b", "CONTAINS", "y"))

QUERIES: dict[str, A.Query] = {
    "optional_match_two_patterns_from_two_outer_nodes": A.Query(((
        ROOM_PAIRS, A.Match(True, TWO_CONTAINS),
        A.Projection("RETURN", (*PAIR_ITEMS, (A.Agg("count", A.Var("y")), "n")))),)),
    "count_two_patterns_from_two_outer_nodes_where_reads_outer": A.Query(((
        ROOM_PAIRS,
        A.Projection("RETURN", (*PAIR_ITEMS, (A.Subquery("COUNT", TWO_CONTAINS, A.BinOp(
            "<", A.Prop(prop("y", "center"), "x"), A.Prop(prop("a", "center"), "x"))),
            "n")))),)),
    "call_body_two_patterns_from_two_outer_nodes": A.Query(((
        ROOM_PAIRS,
        A.Call(("a", "b"), (A.Match(False, TWO_CONTAINS),
                            A.Projection("RETURN", ((A.Agg("count", None), "c"),))), scoped=True),
        A.Projection("RETURN", (*PAIR_ITEMS, (A.Var("c"), "c")))),)),
    "optional_match_two_patterns_one_outer_node_null": A.Query(((
        A.Match(False, (A.PathPat((node("a", "Room"),)),)),
        A.Match(True, (A.PathPat((node("a"), A.RelPat(None, ("ROOM_CONNECTED",), OUT),
                                  node("b", "Room", "R3"))),)),
        A.Match(True, (hop("a", "CONTAINS", "x"), hop("b", "CONTAINS", "y"))),
        A.Projection("RETURN", ((prop("a", "nodeSymbol"), "a"),
                                (A.Agg("count", A.Var("x")), "n")))),)),
    "count_two_patterns_from_two_outer_nodes_one_null": A.Query(((
        A.Match(False, (A.PathPat((node("a", "Room"),)),)),
        A.Match(True, (A.PathPat((node("a"), A.RelPat(None, ("ROOM_CONNECTED",), OUT),
                                  node("b", "Room", "R1"))),)),
        A.Projection("RETURN", ((prop("a", "nodeSymbol"), "a"),
                                (A.Subquery("COUNT", TWO_CONTAINS, None), "n")))),)),
    "match_two_patterns_second_from_an_optional_null_node": A.Query(((
        A.Match(False, (A.PathPat((node("a", "Room"),)),)),
        A.Match(True, (A.PathPat((node("a"), A.RelPat(None, ("ROOM_CONNECTED",), OUT),
                                  node("b", "Room"))),),
                A.BinOp("=", prop("b", "nodeSymbol"), A.Lit("R1"))),
        A.Match(False, TWO_CONTAINS),
        A.Projection("RETURN", ((prop("a", "nodeSymbol"), "a"), (prop("x", "nodeSymbol"), "x"),
                                (prop("y", "nodeSymbol"), "y")))),)),
    "match_two_patterns_from_two_outer_nodes_after_a_chain": A.Query(((
        A.Match(False, (A.PathPat((node("a"), A.RelPat(None, (), "in"), node("b"),
                                   A.RelPat(None, (), "in"), node("c"))),)),
        A.Match(False, (A.PathPat((node("c"), A.RelPat(None, (), "in"), node("y"))),
                        A.PathPat((node("b"), A.RelPat(None, (), OUT), node("z"))))),
        A.Projection("RETURN", ((A.Agg("count", None), "n"),))),)),
    "count_two_patterns_from_two_outer_nodes_another_rows_count": A.Query(((
        A.Match(False, (A.PathPat((node("a", "Room"), A.RelPat(None, ("ROOM_CONNECTED",), OUT),
                                   node("b"))),)),
        A.Projection("RETURN", (*PAIR_ITEMS, (A.Subquery("COUNT", (
            hop("a", "CONTAINS", "x"),
            A.PathPat((node("b"), A.RelPat(None, (), "in"), node("y")))), None), "n")))),)),
    "exists_two_patterns_from_two_outer_nodes": A.Query(((
        A.Match(False, (A.PathPat((node("a", "Room"), A.RelPat(None, ("ROOM_CONNECTED",), OUT),
                                   node("b"))),)),
        A.Projection("RETURN", (*PAIR_ITEMS, (A.Subquery("EXISTS", (
            hop("a", "CONTAINS", "x"),
            A.PathPat((node("b"), A.RelPat(None, (), "in"), node("y")))), None), "e")))),)),
    "exists_in_where_two_patterns_from_two_outer_nodes": A.Query(((
        A.Match(False, ROOM_PAIRS.patterns, A.Subquery("EXISTS", tuple(
            A.PathPat((node(start), A.RelPat(None, ("CONTAINS",), OUT), node(None, "MeshPlace"),
                       A.RelPat(None, ("CONTAINS",), OUT), node(end, "Object")))
            for start, end in (("a", "x"), ("b", "y"))), A.BinOp(
                "<", A.Prop(prop("x", "center"), "x"), A.Prop(prop("y", "center"), "x")),
            bare=True)),
        A.Projection("RETURN", PAIR_ITEMS)),)),
    "exists_two_patterns_from_two_outer_nodes_one_null": A.Query(((
        A.Match(False, (A.PathPat((node("a", "Room"),)),)),
        A.Match(True, (A.PathPat((node("a"), A.RelPat(None, ("ROOM_CONNECTED",), OUT),
                                  node("b", "Room", "R1"))),)),
        A.Projection("RETURN", ((prop("a", "nodeSymbol"), "a"),
                                (A.Subquery("EXISTS", TWO_CONTAINS, None), "e")))),)),
    "not_exists_two_patterns_from_two_outer_nodes": A.Query(((
        A.Match(False, ROOM_PAIRS.patterns, A.Not(A.Subquery("EXISTS", (
            A.PathPat((node("a"), A.RelPat(None, ("CONTAINS",), OUT), node("x", "MeshPlace"))),
            A.PathPat((node("b"), A.RelPat(None, ("CONTAINS",), OUT), node("y", "Place")))),
            None, bare=True))),
        A.Projection("RETURN", PAIR_ITEMS)),)),
}


def _bare(text: str) -> str:
    """The text without parentheses (the AST prints every operation in them)."""
    return text.replace("(", "").replace(")", "")


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_reference_gives_the_hand_checked_rows(name: str) -> None:
    case = next(c for c in CASES if c.name == name)
    assert _bare(QUERIES[name].render()) == _bare(case.query)
    result = run(QUERIES[name], RefGraph(GRAPH))
    assert sorted(result.rows) == sorted(case.rows)  # type: ignore[arg-type]


def test_one_relationship_is_never_bound_by_two_patterns_of_one_match() -> None:
    """R1 and R2 (ROOM_CONNECTED stored both ways; R2 also meets R3): undirected, a = R1 has 2
    relationships and b = R2 has 4, of which 2 are a's. Of the 8 pairs, the 2 that bind one
    relationship twice are not matches: 6."""
    query = A.Query(((
        A.Match(False, (A.PathPat((node("a", "Room", "R1"),)),
                        A.PathPat((node("b", "Room", "R2"),)))),
        A.Match(True, (hop("a", "ROOM_CONNECTED", "x", BOTH),
                       hop("b", "ROOM_CONNECTED", "y", BOTH))),
        A.Projection("RETURN", ((A.Agg("count", None), "n"),))),))
    assert run(query, RefGraph(GRAPH)).rows == [[6]]


def test_a_match_from_a_null_node_drops_the_row_and_a_subquery_counts_nothing() -> None:
    """b is NULL for R1 and R3 (only R2 -> R3 reaches R3): a MATCH whose later pattern starts
    from b keeps R2's rows only (x = P2, y = R2 through either stored direction), and a COUNT
    whose later pattern starts from b is 0 on the other rows."""
    optional_b = A.Match(True, (A.PathPat((node("a"), A.RelPat(None, ("ROOM_CONNECTED",), OUT),
                                           node("b", "Room", "R3"))),))
    rooms = A.Match(False, (A.PathPat((node("a", "Room"),)),))
    matched = A.Query(((
        rooms, optional_b,
        A.Match(False, (hop("a", "CONTAINS", "x"), hop("b", "ROOM_CONNECTED", "y", BOTH))),
        A.Projection("RETURN", ((prop("a", "nodeSymbol"), "a"), (prop("y", "nodeSymbol"), "y")),
                     order=(A.SortItem(A.Var("y")),))),))
    assert run(matched, RefGraph(GRAPH)).rows == [["R2", "R2"], ["R2", "R2"]]
    counted = A.Query(((
        rooms, optional_b,
        A.Projection("RETURN", ((prop("a", "nodeSymbol"), "a"), (A.Subquery(
            "COUNT", (hop("a", "CONTAINS", "m"), hop("b", "ROOM_CONNECTED", "m2", BOTH)), None),
            "n")), order=(A.SortItem(A.Var("a")),))),))
    assert run(counted, RefGraph(GRAPH)).rows == [["R1", 0], ["R2", 2], ["R3", 0]]

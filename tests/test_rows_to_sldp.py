"""rows_to_sldp: rows printed in the shape of the solution, one case per answer shape.

The oracle scores only as well as this formatting, so every shape a fidelity question can have
is here: number, string, list, set, dict, point, and sets/lists/dicts of points, from both
point values (Kuzu structs, Neo4j point objects) and x, y, z columns.
"""

from __future__ import annotations

import pytest
from neo4j.spatial import CartesianPoint

from benchcore.llm.base import CallContext, ModelConfig
from dsgqa.oracle import OracleClient
from dsgqa.questions import Question
from dsgqa.rows_to_sldp import rows_to_sldp
from dsgqa.sldp import parse_sldp, sldp_equals

XYZ = ["x", "y", "z"]
STRUCT = {"x": 1.0, "y": 2.0, "z": 3.0}


@pytest.mark.parametrize(
    ("columns", "rows", "like", "expected"),
    [
        # numbers and strings
        (["count(o)"], [[65]], "3", "65"),
        (["avg"], [[0.009]], "1.5", "0.009"),
        (["r.nodeSymbol"], [["R1"]], "R9", "R1"),
        (["s"], [["R1:lounge:22"]], '"a:b"', '"R1:lounge:22"'),
        # lists and sets of scalars
        (["n"], [["b"], ["a"]], "[a]", "[b, a]"),
        (["n"], [["b"], ["a"]], "<a>", "<a, b>"),
        (["c"], [[["R2", "R1"]]], "[a]", "[R2, R1]"),
        (["c"], [[["R2", "R1"]]], "<a>", "<R1, R2>"),
        (["m", "n"], [["P59110", 12]], "[P1, 3]", "[P59110, 12]"),
        (["route"], [[["R1", "R2", "R3"]], [["R1", "R4", "R3"]]], "<[a, b]>",
         "<[R1, R2, R3], [R1, R4, R3]>"),
        # dicts
        (["k", "v"], [["R2", 3], ["R1", 1]], "{a: 1}", "{R1: 1, R2: 3}"),
        (["k", "v"], [[0, 59], [2, 5]], "{1: 1}", "{0: 59, 2: 5}"),
        (["k", "v"], [["R1", 1], ["R1", 2]], "{a: 1}", "<[R1, 1], [R1, 2]>"),
        # one point: a Kuzu struct, a Neo4j point, three columns, a list of three numbers
        (["r.center"], [[STRUCT]], "POINT(0 0 0)", "POINT(1.0 2.0 3.0)"),
        (["r.center"], [[CartesianPoint((1.0, 2.0, 3.0))]], "POINT(0 0 0)",
         "POINT(1.0 2.0 3.0)"),
        (["o.center.x", "o.center.y", "o.center.z"], [[1.0, 2.0, 3.0]], "POINT(0 0 0)",
         "POINT(1.0 2.0 3.0)"),
        (["p"], [[[1.0, 2.0, 3.0]]], "POINT(0 0 0)", "POINT(1.0 2.0 3.0)"),
        (["x", "y"], [[1.0, 2.0]], "POINT(0 0)", "POINT(1.0 2.0)"),
        # sets and lists of points
        (["o.center"], [[STRUCT], [{"x": 0.0, "y": 0.0, "z": 0.0}]], "<POINT(9 9 9)>",
         "<POINT(0.0 0.0 0.0), POINT(1.0 2.0 3.0)>"),
        (XYZ, [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], "<POINT(9 9 9)>",
         "<POINT(0.0 0.0 0.0), POINT(1.0 2.0 3.0)>"),
        (XYZ, [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], "[POINT(9 9 9)]",
         "[POINT(1.0 2.0 3.0), POINT(0.0 0.0 0.0)]"),
        (XYZ, [[1.0, 2.0, 3.0]], "[POINT(9 9 9)]", "[POINT(1.0 2.0 3.0)]"),
        (["centers"], [[[STRUCT, {"x": 0.0, "y": 0.0, "z": 0.0}]]], "[POINT(9 9 9)]",
         "[POINT(1.0 2.0 3.0), POINT(0.0 0.0 0.0)]"),
        (["c"], [[[[1.0, 2.0, 3.0]]]], "<POINT(9 9 9)>", "<POINT(1.0 2.0 3.0)>"),
        # dicts of points: a point column, or a key column and x, y, z columns
        (["room", "center"], [["R2", STRUCT], ["R1", STRUCT]], "{a: POINT(0 0 0)}",
         "{R1: POINT(1.0 2.0 3.0), R2: POINT(1.0 2.0 3.0)}"),
        (["room", *XYZ], [["R2", 1.0, 2.0, 3.0], ["R1", 0.0, 0.0, 0.0]],
         "{a: POINT(0 0 0)}", "{R1: POINT(0.0 0.0 0.0), R2: POINT(1.0 2.0 3.0)}"),
        (["room", *XYZ], [["R2", 1.0, 2.0, 3.0]], "{}", "{R2: POINT(1.0 2.0 3.0)}"),
        # lists mixing a name and a point
        (["name", *XYZ], [["O1", 1.0, 2.0, 3.0], ["O2", 0.0, 0.0, 0.0]],
         "<[a, POINT(0 0 0)]>", "<[O1, POINT(1.0 2.0 3.0)], [O2, POINT(0.0 0.0 0.0)]>"),
        (["name", "c.x", "c.y", "c.z"], [["O1", 1.0, 2.0, 3.0]], None,
         "<[O1, POINT(1.0 2.0 3.0)]>"),
        # no hint: x, y, z columns still make points
        (XYZ, [[1.0, 2.0, 3.0]], None, "POINT(1.0 2.0 3.0)"),
        (["pos_x", "pos_y", "pos_z"], [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], None,
         "<POINT(0.0 0.0 0.0), POINT(1.0 2.0 3.0)>"),
        # numbers that are not coordinates stay numbers
        (["a", "b", "c"], [[1, 2, 3]], "[1, 2, 3]", "[1, 2, 3]"),
        (["a", "b", "c"], [[1, 2, 3], [4, 5, 6]], "<[1, 2, 3]>", "<[1, 2, 3], [4, 5, 6]>"),
        (["k", "lo", "hi"], [["R1", 1, 2]], "{a: [1, 2]}", "{R1: [1, 2]}"),
        # empty results
        (["c"], [], "<>", "<>"),
        (XYZ, [], "[]", "[]"),
        (["room", *XYZ], [], "{}", "{}"),
    ],
)
def test_rows_take_the_shape_of_the_solution(columns, rows, like, expected):
    text = rows_to_sldp(columns, rows, like=like)
    assert text == expected
    parse_sldp(text)


def test_only_the_shape_of_the_solution_is_read():
    rows = [["R2", 1.0, 2.0, 3.0]]
    columns = ["room", *XYZ]
    assert rows_to_sldp(columns, rows, like="{R7: POINT(5 5 5)}") == rows_to_sldp(
        columns, rows, like="{a: POINT(0 0 0)}")


def test_oracle_answers_with_the_reference_query_and_the_solution_shape():
    question = Question(uid="q", question="Where are the lights?", cypher="MATCH (o) RETURN o",
                        solution="<POINT(0 0 0)>",
                        correctness_comparator={"comparison_type": "SLDP"})
    oracle = OracleClient(ModelConfig(name="oracle", provider="oracle"), {"q": question})
    assert oracle.complete([], CallContext("q", "cypher")).text == "MATCH (o) RETURN o"
    rows = [[-5.0, -17.1, 2.16], [6.94, -3.15, 2.23]]
    reply = oracle.complete([], CallContext("q", "refine", {"columns": XYZ, "rows": rows}))
    assert sldp_equals(reply.text, "<POINT(6.94 -3.15 2.23), POINT(-5 -17.1 2.16)>")
    assert oracle.complete([], CallContext("other", "refine")).text == ""

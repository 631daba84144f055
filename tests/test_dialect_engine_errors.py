"""Regression cases the engines failed on with an internal error after translation.

The regression test (`tests/test_dialect_fuzz.py`) takes any engine error for a refusal, so it
would not notice such a case failing again. Here each must be answered with Neo4j's rows, on
the engines named (a case Kuzu refuses for another reason names Ladybug alone).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.cypher_fuzz import graphs
from tests.cypher_fuzz.compare import rows_agree
from tests.cypher_fuzz.engines import BACKENDS, run_engines
from tests.cypher_fuzz.reference import Result
from tests.cypher_fuzz.regressions import CASES, GRAPH
from tests.ladybug_run import require_ladybug

BOTH = BACKENDS
# Regression case -> the engines that must answer it.
ANSWERED: dict[str, tuple[str, ...]] = {
    # A MATCH's WHERE moved after it kept its distinct-relationship test ("_rel1 is not in
    # scope").
    "moved_match_where_keeps_relationship_uniqueness": BOTH,
    # "Cannot evaluate expression with type PROPERTY" / "SUBQUERY".
    "sum_of_a_count_reading_a_node_outside_its_pattern": BOTH,
    "case_over_a_count_reading_a_node_outside_its_pattern_then_grouped": BOTH,
    "count_subquery_in_an_unwind_list": BOTH,
    "case_over_a_subquery_reading_its_start_node_then_an_optional_where": BOTH,
    # "Cannot evaluate expression with type AGGREGATE_FUNCTION".
    "aggregate_of_no_variable_below_a_property_in_an_optional_where": BOTH,
    "count_subquery_reading_an_aggregate_of_no_variable": BOTH,
    "average_of_a_constant_read_by_a_count_in_a_string": BOTH,
    "aggregate_grouped_beside_a_value_computed_from_it": BOTH,
    "aggregate_read_twice_after_its_with": BOTH,
    # Ladybug: "Unable to construct a hash join without any join condition"; Kuzu lost R3 in
    # the optional one.
    "count_from_a_node_with_a_property_map_sorted_beside_that_property": BOTH,
    "exists_from_a_node_with_a_property_map_grouped_beside_that_property": BOTH,
    # Kuzu refuses it: a COUNT from a node an OPTIONAL MATCH may leave NULL, inside arithmetic
    # (`+ 1`), is read wrong there in other forms (`0 + COUNT { }`, `2 * COUNT { }`).
    "count_from_an_optional_node_with_a_property_map": ("ladybug",),
    # Kuzu's worker crashed (SIGSEGV) on label() of a list element or any other expression.
    "type_of_a_relationship_of_a_path": BOTH,
    "type_of_a_computed_relationship_that_may_be_null": BOTH,
    # Kuzu: "Expression in WITH must be aliased"; both: a variable-length path passed on
    # without its relationships ("Cannot evaluate expression with type PROPERTY").
    "path_passed_on_by_with": BOTH,
    "optional_path_through_with_star": BOTH,
    "variable_length_path_passed_on_by_with_then_grouped": BOTH,
    # "Divide by zero" on the rows a CASE or coalesce() keeps away from the division.
    "integer_division_kept_away_by_case_and_coalesce": BOTH,
    # Kuzu's worker crashed; it now refuses the shape.
    "sum_of_counts_from_an_optional_node_with_a_property_map": ("ladybug",),
    # "Cannot evaluate expression with type PATTERN" / "PROPERTY" (the NULL guard of an
    # optional path around its aggregate); Ladybug: "LENGTH() expects a path", Kuzu failed
    # an assertion (length() of a path read back from a list).
    "aggregates_of_an_optional_path": BOTH,
    "count_of_an_optional_one_hop_path": BOTH,
    "length_of_paths_read_back_from_a_list": BOTH,
    # Neo4j's same-node error raised before the WHERE that keeps the row away from the
    # search; Ladybug: "Lower bound of shortest/all_shortest path must be 1".
    "shortest_path_ends_an_earlier_match_binds_filtered_in_its_where": BOTH,
    "optional_shortest_path_ends_filtered_in_its_where": BOTH,
    "all_shortest_paths_ends_filtered_in_its_where": BOTH,
    "shortest_path_whose_start_fails_its_node_predicate": ("ladybug",),
    "zero_length_shortest_path_between_two_nodes": BOTH,
    # shortestPath() as an expression was charged as a pattern expression ("syntax").
    "shortest_path_expression_read_per_row": BOTH,
    "shortest_path_expression_passed_on_by_with": BOTH,
    "shortest_path_expression_without_a_path": BOTH,
    "all_shortest_paths_expression_counted": BOTH,
    # A node collected (or held by a map) and named again in a pattern.
    "collected_nodes_unwound_named_as_nodes": BOTH,
    "node_in_a_collected_map_read_back_as_a_node": BOTH,
    # A property read of a string no row reaches, of NULL, or in a branch never taken.
    "property_of_a_string_no_row_reaches": BOTH,
    "property_of_a_null_string": BOTH,
    "property_of_a_string_kept_away_by_case": BOTH,
    # m[k] of a map the query writes (was refused as a property read with a computed key).
    "written_map_read_by_a_computed_key": BOTH,
    "written_map_read_by_a_property_key": BOTH,
    "map_of_aggregates_read_by_a_computed_key": BOTH,
    # round() of a number in a list of mixed kinds (was refused as Neo4j's type error).
    "round_of_a_number_in_a_mixed_list": BOTH,
    "round_of_an_integer_in_a_mixed_list": BOTH,
    "round_of_a_coordinate_in_a_pair": BOTH,
    # A lambda over a list of maps every row holds the same (was refused for reduce()).
    "reduce_over_a_written_list_of_maps_on_every_row": BOTH,
    "comprehension_over_a_written_list_of_maps_on_every_row": BOTH,
}

# Regression case -> the kind of error it must fail with on both engines (Neo4j's error,
# charged to the model; the regression test takes any error where Neo4j raises).
RAISED: dict[str, str] = {
    "optional_shortest_path_searching_one_node_at_both_ends": "runtime",
    "shortest_path_to_every_room_meets_its_start": "runtime",
    "shortest_path_expression_at_one_node": "runtime",
    # Neo4j's compile-time type mismatch, not the engines' binder error on the id() test.
    "map_named_as_a_node": "syntax",
    "collected_maps_unwound_named_as_nodes": "syntax",
    "property_shadowing_its_node_named_as_a_node": "syntax",
    # Neo4j's per-row "expected a map but was ..." (the engines' binder refused the read).
    "property_of_a_string_that_shadowed_its_node": "runtime",
    "property_of_a_property": "runtime",
    "property_of_a_point_field": "runtime",
    "property_of_a_string_literal": "syntax",
}


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, dict[str, Any]]]:
    """backend -> case name -> the worker's result, for the cases above."""
    require_ladybug()
    cases = [case for case in CASES if case.name in ANSWERED or case.name in RAISED]
    with tempfile.TemporaryDirectory(prefix="engine-errors-") as scratch:
        path = graphs.write_spark_dsg(GRAPH, Path(scratch) / "graph.json")
        out = run_engines([{"graph": str(path), "queries": [c.query for c in cases]}])
    return {backend: {case.name: row for case, row in zip(cases, out[backend][0], strict=True)}
            for backend in BACKENDS}


def test_every_named_case_exists() -> None:
    assert set(ANSWERED) | set(RAISED) <= {case.name for case in CASES}


@pytest.mark.parametrize(("name", "backend"), [
    (name, backend) for name in RAISED for backend in BOTH])
def test_raised_as_neo4j_raises(results: dict[str, dict[str, dict[str, Any]]], name: str,
                                backend: str) -> None:
    result = results[backend][name]
    assert not result["valid"] and result["kind"] == RAISED[name], (name, result["error"])


@pytest.mark.parametrize(("name", "backend"), [
    (name, backend) for name, engines in ANSWERED.items() for backend in engines])
def test_answered_with_neo4j_rows(results: dict[str, dict[str, dict[str, Any]]], name: str,
                                  backend: str) -> None:
    case = next(c for c in CASES if c.name == name)
    result = results[backend][name]
    assert result["valid"], f"{case.query}\n  {backend}: {result['error']}"
    expected = Result([], case.rows, [1] * len(case.rows) if case.ordered else [len(case.rows)])
    assert rows_agree(expected, result["rows"]), (case.rows, result["rows"])

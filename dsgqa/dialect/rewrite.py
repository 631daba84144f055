"""Rewrite passes: Neo4j Cypher (as the model writes it for Heracles) -> Kuzu's dialect.

Each pass is named; the names of the passes that changed something become the `rewrites`
column. A pass keeps Neo4j's meaning where Kuzu differs, not only its syntax:

- var-length patterns get TRAIL (Neo4j never repeats a relationship in a match; Kuzu walks);
- relationship positions of one MATCH that could bind the same relationship must differ
  (Neo4j's relationship isomorphism, `uniqueness.py`);
- list indexes, slices and substring() move from 0-based to 1-based;
- collect() and sum() over nothing give [] and 0, as in Neo4j (Kuzu gives NULL);
- toInteger() truncates (Kuzu's CAST rounds);
- points are {x, y, z} structs (see docs/graph_layout.md), so point() builds one and
  point.distance() is the Euclidean distance.

Anything Neo4j accepts that has no faithful Kuzu form raises `DialectError`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import ClassVar

from lark import Token, Tree

from dsgqa.dialect.absent_properties import REWRITE as ABSENT_PROPERTIES
from dsgqa.dialect.absent_properties import null_absent_properties
from dsgqa.dialect.anchor_maps import REWRITE as ANCHOR_MAPS
from dsgqa.dialect.anchor_maps import move_anchor_maps
from dsgqa.dialect.bound_labels import REWRITE as BOUND_LABELS
from dsgqa.dialect.bound_labels import test_labels_of_bound_nodes
from dsgqa.dialect.call_subqueries import REWRITE as CALL_SUBQUERIES
from dsgqa.dialect.call_subqueries import inline_call_subqueries
from dsgqa.dialect.captures import REWRITE as CAPTURES
from dsgqa.dialect.captures import (
    affected,
    by_position,
    mark_shared_sources,
    mark_shortest_paths,
    walked,
)
from dsgqa.dialect.case_conditions import REWRITE as CASE_CONDITIONS
from dsgqa.dialect.case_conditions import compare_case_conditions
from dsgqa.dialect.collect_membership import REWRITE as COLLECT_MEMBERSHIP
from dsgqa.dialect.collect_membership import expand_collect_memberships
from dsgqa.dialect.collect_subqueries import REWRITE as COLLECT_SUBQUERIES
from dsgqa.dialect.collect_subqueries import comprehend_collect_subqueries
from dsgqa.dialect.compile_errors import refuse_compile_errors
from dsgqa.dialect.computed_labels import REWRITE as COMPUTED_LABELS
from dsgqa.dialect.computed_labels import read_computed_labels
from dsgqa.dialect.computed_nodes import REWRITE as COMPUTED_NODES
from dsgqa.dialect.computed_nodes import rebind_computed_nodes
from dsgqa.dialect.constant_projections import REWRITE as CONSTANT_PROJECTIONS
from dsgqa.dialect.constant_projections import cut_constant_projections
from dsgqa.dialect.count_joins import REWRITE as COUNT_JOINS
from dsgqa.dialect.count_joins import keep_count_joins
from dsgqa.dialect.count_keys import REWRITE as COUNT_KEYS
from dsgqa.dialect.count_keys import compare_count_keys_with_true
from dsgqa.dialect.cross_types import (
    CHAIN_REWRITE,
    chained_comparison,
    compare_across_types,
    compare_written_lists,
    element_kind_differs,
    note_null_free_members,
    note_null_free_operands,
    refuse_container_members,
    refuse_mixed_result,
    refuse_type_errors,
    text_test_on_non_text,
)
from dsgqa.dialect.cross_types import REWRITE as CROSS_TYPES
from dsgqa.dialect.cross_types import kind as cross_kind
from dsgqa.dialect.distinct_lists import REWRITE as DISTINCT_LISTS
from dsgqa.dialect.distinct_lists import (
    WRITTEN_DISTINCT,
    key_written_distincts,
    refuse_null_holding_distincts,
)
from dsgqa.dialect.emit import Emitter, plain_name, quote_string, unquote_string
from dsgqa.dialect.empty_filters import REWRITE as EMPTY_FILTERS
from dsgqa.dialect.empty_filters import guard_empty_filters
from dsgqa.dialect.endpoints import Endpoints
from dsgqa.dialect.errors import CypherSyntaxError, DialectError
from dsgqa.dialect.filter_conditions import REWRITE as FILTER_CONDITIONS
from dsgqa.dialect.filter_conditions import compare_filter_conditions
from dsgqa.dialect.float_sums import REWRITE as SUMS_IN_PLACE
from dsgqa.dialect.float_sums import decide_sums_in_place
from dsgqa.dialect.free_aggregates import REWRITE as FREE_AGGREGATES
from dsgqa.dialect.free_aggregates import unwind_free_aggregates
from dsgqa.dialect.functions import MIXED_LIST_KEY, PROPERTIES_KEY, UDFS
from dsgqa.dialect.grouped_node_reads import REWRITE as GROUPED_NODE_READS
from dsgqa.dialect.grouped_node_reads import return_grouped_reads_via_with
from dsgqa.dialect.hop_bounds import bound_trail
from dsgqa.dialect.hop_lists import REWRITE as HOP_LISTS
from dsgqa.dialect.hop_lists import read_hops_as_lists
from dsgqa.dialect.label_expressions import REWRITE as LABEL_EXPRESSIONS
from dsgqa.dialect.label_expressions import (
    needs_universe,
    predicate_labels,
    resolve_label_expressions,
    resolve_node_labels,
)
from dsgqa.dialect.lambda_aggregates import REWRITE as LAMBDA_AGGREGATES
from dsgqa.dialect.lambda_aggregates import hoist_lambda_aggregates
from dsgqa.dialect.lambda_names import REWRITE as LAMBDA_NAMES
from dsgqa.dialect.lambda_names import fresh_lambda_names
from dsgqa.dialect.lambda_sources import REWRITE as LAMBDA_SOURCES
from dsgqa.dialect.lambda_sources import lambdas_outside_cases
from dsgqa.dialect.layout_names import (
    check_property_names,
    names_collide,
)
from dsgqa.dialect.lazy_divisors import REWRITE as LAZY_DIVISORS
from dsgqa.dialect.lazy_divisors import guard_divisors, mark_lazy_lambdas
from dsgqa.dialect.list_folds import REWRITE as LIST_FOLDS
from dsgqa.dialect.list_folds import unfold_list_folds
from dsgqa.dialect.list_sort_keys import REWRITE as LIST_SORT_KEYS
from dsgqa.dialect.list_sort_keys import expand_list_sort_keys
from dsgqa.dialect.map_shapes import MAP_ENTRY, align_maps
from dsgqa.dialect.map_shapes import REWRITE as MAP_FIELDS
from dsgqa.dialect.mixed_results import REWRITE as MIXED_RESULTS
from dsgqa.dialect.mixed_results import hold_mixed_columns, mark_mixed_columns
from dsgqa.dialect.nan_values import AGGREGATE_REWRITE as NAN_AGGREGATES
from dsgqa.dialect.nan_values import (
    NAN_SOURCES,
    false_for_nan,
    mark_nan_comparison,
    nan_names,
    refuse_nan_keys,
    sort_nan_last,
)
from dsgqa.dialect.nan_values import ORDER_REWRITE as NAN_ORDER
from dsgqa.dialect.nan_values import REWRITE as NAN_COMPARISONS
from dsgqa.dialect.neo4j_functions import NEO4J_5_FUNCTIONS
from dsgqa.dialect.nested_lambdas import REWRITE as NESTED_LAMBDAS
from dsgqa.dialect.nested_lambdas import read_row_in_nested_lambdas
from dsgqa.dialect.null_anchors import refuse_null_anchored_subqueries
from dsgqa.dialect.null_operands import REWRITE as NULL_OPERATION
from dsgqa.dialect.null_operands import (
    is_null_operation,
    null_of_operation,
    type_null_arguments,
)
from dsgqa.dialect.null_struct import REWRITE as NULL_STRUCT
from dsgqa.dialect.null_struct import guarded, needs_guard
from dsgqa.dialect.number_results import REWRITE as NUMBER_RESULTS
from dsgqa.dialect.number_results import float_number_results
from dsgqa.dialect.optional_paths import REWRITE as OPTIONAL_PATHS
from dsgqa.dialect.optional_paths import null_unmatched_paths, refuse_outer_label_tests
from dsgqa.dialect.order_barrier import AGGREGATES, add_order_barriers, groups, has_aggregate
from dsgqa.dialect.order_barrier import REWRITE as ORDER_BARRIER
from dsgqa.dialect.order_by import REWRITE_COLUMN as ORDER_COLUMNS
from dsgqa.dialect.order_by import (
    check_order_aggregates,
    fix_order_by,
    order_by_columns,
)
from dsgqa.dialect.ordered_distinct import REWRITE as ORDERED_DISTINCT
from dsgqa.dialect.ordered_distinct import keep_ordered_distinct
from dsgqa.dialect.outer_anchors import REWRITE as OUTER_ANCHORS
from dsgqa.dialect.outer_anchors import anchor_outer_nodes
from dsgqa.dialect.outer_values import REWRITE as OUTER_VALUES
from dsgqa.dialect.outer_values import pass_outer_values
from dsgqa.dialect.pair_tables import REWRITE as PAIR_TABLES
from dsgqa.dialect.pair_tables import tabulate_nested_quantifiers
from dsgqa.dialect.passing_withs import REWRITE as PASSING_WITHS
from dsgqa.dialect.passing_withs import drop_passing_withs
from dsgqa.dialect.path_filter import REWRITE as PATH_FILTER
from dsgqa.dialect.path_filter import push_path_filters
from dsgqa.dialect.path_items import REWRITE as PATH_ITEMS
from dsgqa.dialect.path_items import alias_path_items
from dsgqa.dialect.path_parts import REWRITE as PATH_PARTS
from dsgqa.dialect.path_parts import carry_path_segments
from dsgqa.dialect.path_patterns import REWRITE as PATH_PATTERNS
from dsgqa.dialect.path_patterns import SYNTAX as PATH_PATTERN_SYNTAX
from dsgqa.dialect.path_patterns import lower_path_patterns
from dsgqa.dialect.pattern_filters import REWRITE as PATTERN_FILTERS
from dsgqa.dialect.pattern_filters import defer_pattern_filters
from dsgqa.dialect.pattern_lists import REWRITE as PATTERN_LISTS
from dsgqa.dialect.pattern_lists import (
    collect_pattern_comprehensions,
    refuse_ranked_leftovers,
)
from dsgqa.dialect.projection_checks import check_grouping, check_projections
from dsgqa.dialect.quantifier_nulls import REWRITE as QUANTIFIER_NULLS
from dsgqa.dialect.quantifier_nulls import keep_quantifier_nulls
from dsgqa.dialect.reduce_folds import REWRITE as REDUCE_FOLDS
from dsgqa.dialect.reduce_folds import refold
from dsgqa.dialect.reduce_hoists import REWRITE as REDUCE_HOISTS
from dsgqa.dialect.reduce_hoists import hoist_row_reading_folds
from dsgqa.dialect.regex_patterns import refuse_java_only_patterns
from dsgqa.dialect.removed_syntax import (
    may_call_unknown_functions,
    refuse_bang_equals,
    refuse_removed_syntax,
    refuse_unknown_functions,
)
from dsgqa.dialect.repeated_relationships import (
    MAY_REPEAT,
    match_nothing_for_repeated_relationships,
)
from dsgqa.dialect.repeated_relationships import REWRITE as REPEATED_RELATIONSHIPS
from dsgqa.dialect.scalar_reads import REWRITE as SCALAR_READS
from dsgqa.dialect.scalar_reads import guard_scalar_reads, may_read_scalars
from dsgqa.dialect.shortest_ends import COALESCE_REWRITE as SHORTEST_COALESCE
from dsgqa.dialect.shortest_ends import REWRITE as SHORTEST_ENDS
from dsgqa.dialect.shortest_ends import case_for_test_coalesce, check_shortest_ends
from dsgqa.dialect.shortest_expressions import REWRITE as SHORTEST_EXPRESSIONS
from dsgqa.dialect.shortest_expressions import hoist_shortest_expressions
from dsgqa.dialect.signed_zeros import NEGATIVE_ZERO_TEXT, refuse_negative_zero_order
from dsgqa.dialect.simple_case import REWRITE as SIMPLE_CASE
from dsgqa.dialect.simple_case import searched_cases
from dsgqa.dialect.split_patterns import REWRITE as SPLIT_PATTERNS
from dsgqa.dialect.split_patterns import split_patterns_after_optional
from dsgqa.dialect.star_columns import REWRITE as STAR_COLUMNS
from dsgqa.dialect.star_columns import STAR_RETURN, sort_star_columns
from dsgqa.dialect.subquery_parts import REWRITE as SUBQUERY_PARTS
from dsgqa.dialect.subquery_parts import split_subquery_parts
from dsgqa.dialect.subquery_values import REWRITE as SUBQUERY_VALUES
from dsgqa.dialect.subquery_values import compute_subqueries_first
from dsgqa.dialect.ternary_nulls import REWRITE as TERNARY_NULLS
from dsgqa.dialect.ternary_nulls import TERNARY_CALLS, null_free_ternaries
from dsgqa.dialect.tree_facts import TreeFacts
from dsgqa.dialect.trees import (
    BINDERS,
    NON_NULL_LITERALS,
    all_of,
    any_of,
    binds,
    call,
    cast,
    child_of,
    clone,
    column_name,
    function_name,
    int_lit,
    mentions,
    name,
    node_names,
    nothing_but_nulls,
    null_when_null,
    own_node,
    scope_after,
    skip_after_lone_order,
    tree,
    union_parts,
    var,
    without,
)
from dsgqa.dialect.type_predicates import GATE as TYPE_PREDICATE_TEXT
from dsgqa.dialect.type_predicates import REWRITE as TYPE_PREDICATES
from dsgqa.dialect.type_predicates import fold_type_predicates
from dsgqa.dialect.types import (
    FLOAT_SUM,
    KUZU_SCALAR_TYPES,
    NODE_KEYS,
    NUMBERS,
    OBJECT_KEYS,
    POINT_2D,
    POINT_PROPERTIES,
    UNKNOWN,
    WrittenMap,
    annotate_types,
    ctype,
    element,
    layout_keys,
    typed,
)
from dsgqa.dialect.union_parts import DISTINCT_REWRITE as UNION_DISTINCT
from dsgqa.dialect.union_parts import REWRITE as UNION_PARTS
from dsgqa.dialect.union_parts import read_union_as_all, skip_union_parts
from dsgqa.dialect.uniqueness import REWRITE as UNIQUENESS
from dsgqa.dialect.uniqueness import FreshNames, Uniqueness
from dsgqa.dialect.unknown_names import REWRITE as UNKNOWN_NAMES
from dsgqa.dialect.unknown_names import match_nothing, null_unknown_keys
from dsgqa.dialect.utf16_text import beyond_bmp, refuse_utf16_order
from dsgqa.dialect.variable_case import check_variable_case
from dsgqa.dialect.with_where_aliases import REWRITE as WITH_WHERE_ALIASES
from dsgqa.dialect.with_where_aliases import alias_with_wheres
from dsgqa.dialect.with_where_scope import REWRITE as WITH_WHERE_SCOPE
from dsgqa.dialect.with_where_scope import widen_with_wheres
from dsgqa.dialect.wrapped_subqueries import refuse_wrapped_outer_subqueries
from dsgqa.dialect.written_lists import REWRITE as WRITTEN_LISTS
from dsgqa.dialect.written_lists import unroll_written_lists
from dsgqa.dialect.zero_hops import refuse_zero_hops_off_tables
from dsgqa.scene_graph import EDGE_TYPES, LABELS

# Text that a query needing these passes holds: CASE; COLLECT {; a label or type expression's
# operators or Neo4j 4's `:A:B`.
_CASE_WORD = re.compile(r"\bcase\b", re.IGNORECASE)
_IN_WORD = re.compile(r"\bin\b", re.IGNORECASE)
# An ORDER BY whose key may be a written list.
_LIST_SORT_KEY = re.compile(r"\[.*\bORDER\s+BY\b|\bORDER\s+BY\b.*\[",
                            re.IGNORECASE | re.DOTALL)
# A WITH (not the first clause) that may be DISTINCT or cut its rows.
_CUT_WITH = re.compile(r"\S.*\bWITH\b.*\b(?:DISTINCT|SKIP|OFFSET|LIMIT)\b",
                       re.IGNORECASE | re.DOTALL)
_DISTINCT_COLLECT = re.compile(r"\bcollect\s*\(\s*DISTINCT\b", re.IGNORECASE)
_CALL_BRACE = re.compile(r"\bCALL\s*(\([^)]*\))?\s*\{", re.IGNORECASE)
# The types of a written map's fields that `m[k]` reads by a CASE over its keys.
_KEYED_FIELDS = frozenset({"str", "int", "float", "bool"})
MAP_KEY_READS = "m[key] of a written map->CASE over its keys"
_REDUCE_WORD = re.compile(r"\breduce\s*\(", re.IGNORECASE)
# A name after `:`, `|`, `&` or `!` (a label or type, among map keys and other names) that the
# layout does not spell so: the unknown-names pass may have work.
# (or after GQL's `IS`: `(n IS Room)`, `n IS Room`, not `IS NULL` and the other IS tests)
_LABEL_OR_TYPE = re.compile(
    r"(?:[:|&!]|\bIS\s+(?!(?:NOT|NULL|TYPED|NORMALIZED|NFK?[CD])\b))\s*`?(\w+)",
    re.IGNORECASE)
_LAYOUT_NAMES = frozenset(LABELS) | frozenset(EDGE_TYPES)


# A pattern's property map, `(n:Label {key: ..})` or `[r {key: ..}]`, and the keys in it.
_PATTERN_MAP = re.compile(r"[(\[][^()\[\]{}]*\{([^{}]*)\}")
_MAP_KEY = re.compile(r"`?([A-Za-z_]\w*)`?\s*:")


def _may_name_unknown(text: str) -> bool:
    return any(n not in _LAYOUT_NAMES for n in _LABEL_OR_TYPE.findall(text)) or any(
        k not in _KNOWN_DOTTED for body in _PATTERN_MAP.findall(text)
        for k in _MAP_KEY.findall(body))


# A key read with `.key` (or `{.key}`) or `['key']`: the unknown-keys pass may have work when one
# is not a layout key or point field (`point.distance` and other names after a dot pass too).
_DOTTED_NAME = re.compile(r"\.\s*`?([A-Za-z_]\w*)")
_KNOWN_DOTTED = frozenset(OBJECT_KEYS) | POINT_PROPERTIES | frozenset(
    {"x", "y", "z", "distance", "withinBBox", "withinbbox"})


_NAMED_RELATIONSHIP = re.compile(r"\[\s*`?[A-Za-z_]\w*`?\s*[:*\]{]")


def _may_read_unknown_key(text: str) -> bool:
    """(A relationship has no key at all, so a named one may be read for one; a node's
    properties() held in a variable lacks the keys its label lacks, `bbox_dim` of a room.)"""
    return "['" in text or '["' in text or _NAMED_RELATIONSHIP.search(text) is not None or any(
        n not in _KNOWN_DOTTED for n in _DOTTED_NAME.findall(text)) \
        or _PROPERTIES_CALL.search(text) is not None


_PROPERTIES_CALL = re.compile(r"\bproperties\s*\(", re.IGNORECASE)


_AGGREGATE_WORD = re.compile(r"\b(?:collect|count|sum|avg|min|max|stdevp?|percentile\w*)\s*\(",
                             re.IGNORECASE)
_SUBQUERY_BRACE = re.compile(r"\b(?:exists|count)\s*\{", re.IGNORECASE)
# An aggregate after ORDER BY (the gate of `check_order_aggregates`).
_ORDER_BY_AGGREGATE = re.compile(r"\bORDER\s+BY\b.*\b(?:collect|count|sum|avg|min|max|stdevp?|"
                                 r"percentile\w*)\s*\(", re.IGNORECASE | re.DOTALL)
_QUANTIFIER_WORD = re.compile(r"\b(?:any|all|none|single)\s*\(", re.IGNORECASE)
_SUM_WORD = re.compile(r"\bsum\s*\(", re.IGNORECASE)
_COLLECT_BRACE = re.compile(r"\bcollect\s*\{", re.IGNORECASE)
_LABEL_EXPRESSION = re.compile(r"[|&!%]|:\s*(?:`[^`]*`|\w+)\s*:")
_WITH_WHERE = re.compile(r"\bWITH\b.*\bWHERE\b", re.IGNORECASE | re.DOTALL)
_FINISH_WORD = re.compile(r"\bFINISH\b", re.IGNORECASE)

# Neo4j built-ins with no faithful Kuzu form: refusing them is a dialect failure, not a syntax one.
UNSUPPORTED_FUNCTIONS = frozenset({
    "date",
    "datetime", "localdatetime", "localtime", "time", "duration", "timestamp", "randomuuid",
    "valuetype",
    "tointegerlist", "tofloatlist", "tostringlist", "tobooleanlist",
})
# Neo4j built-ins, for telling an engine's "unknown function" apart from a made-up function.
NEO4J_FUNCTIONS = NEO4J_5_FUNCTIONS


def _refuse_finish(root: Tree) -> None:
    """Neo4j 5.19's FINISH: the query runs and returns no column and no row (the Cypher Manual,
    clauses/finish). A read query has no effect to run it for, and the engines cannot return
    no column, so it is refused (after Neo4j's compile-time checks, which it passed)."""
    if any(node.data == "finish" for node in root.iter_subtrees()):
        raise DialectError("FINISH (a query that returns no column and no row; the engines "
                           "always return one)")


def _name_rows_of_empty_scopes(root: Tree, names: FreshNames) -> None:
    """A standalone ORDER BY / SKIP / LIMIT (`WITH *`, `parser.py`) after MATCHes that name
    nothing (`MATCH (:Room) LIMIT 2 RETURN count(*)`): Neo4j keeps the rows, which the engines'
    `WITH *` refuses ("not allowed when there are no variables in scope"), so a node of the
    last MATCH is named and projected instead (read by nothing after; a later `RETURN *` is
    Neo4j's error, raised before this). Not a constant: both engines ignore the LIMIT of a
    `WITH 0 AS x LIMIT 2`."""
    for part in union_parts(root):
        clauses = [c for c in part.children if isinstance(c, Tree)]
        for at, clause in enumerate(clauses):
            if getattr(clause, "standalone", None) and at \
                    and all(c.data == "match" for c in clauses[:at]) \
                    and not scope_after(clauses[:at]):
                made = own_node(clauses[at - 1], set(), names, "_rows")
                if made is not None:
                    child_of(clause.children[0], "proj_items").children = [
                        tree("proj_item", var(made))]


def arith(left: object, op: str, right: object) -> Tree:
    kind = {"*": "STAR", "/": "MUL_OP", "%": "MUL_OP", "^": "POW_OP"}.get(op, "ADD_OP")
    return tree("arith", left, Token(kind, op), right)


def prop(base: object, key: str) -> Tree:
    return tree("prop", base, name(key))


def key_name(key: str) -> Tree:
    """A property or field name node for `key`, backquoted when it is not an identifier."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return name(key)
    return tree("name", Token("QUOTED_NAME", "`" + key.replace("`", "``") + "`"))


def _int_value(node: object) -> int | None:
    if isinstance(node, Tree) and node.data == "int_lit":
        return int(str(node.children[0]), 0)
    if isinstance(node, Tree) and node.data == "unary" and str(node.children[0]) == "-":
        inner = _int_value(node.children[1])
        return None if inner is None else -inner
    return None


def _slice_bound(base: object, bound: object, offset: int) -> Tree:
    """A Neo4j slice bound as a Kuzu position: `offset` is 1 for the start (0-based -> 1-based)
    and 0 for the end (exclusive 0-based = inclusive 1-based); negative bounds count from the
    end and stop at the list's start."""
    value = _int_value(bound)
    if value is not None and value >= 0:
        return int_lit(value + offset)
    from_end = arith(call("size", base), "+", bound)
    clamped = tree("case_when", tree("compare", from_end, Token("COMP_OP", "<"), int_lit(0)),
                   int_lit(offset))
    shifted = arith(from_end, "+", int_lit(offset)) if offset else from_end
    if value is not None:
        return tree("case_expr", clamped, shifted)
    counted = arith(bound, "+", int_lit(offset)) if offset else bound
    return tree("case_expr",
                tree("case_when", tree("compare", bound, Token("COMP_OP", ">="), int_lit(0)),
                     counted), clamped, shifted)


# A cartesian point's crs and srid by its dimension (Neo4j's names and EPSG-style codes).
POINT_TYPES = ("point", POINT_2D)
_POINT_CRS = {"crs": {"point": "cartesian-3d", POINT_2D: "cartesian"},
              "srid": {"point": 9157, POINT_2D: 7203}}


def _plus_one(index: object) -> Tree:
    """A 0-based Neo4j index as Kuzu's 1-based one (negative indexes count from the end in
    both)."""
    value = _int_value(index)
    if value is not None:
        return int_lit(value + 1) if value >= 0 else index  # type: ignore[return-value]
    return tree("case_expr",
                tree("case_when", tree("compare", index, Token("COMP_OP", ">="), int_lit(0)),
                     arith(index, "+", int_lit(1))),
                index)


class Rewriter:
    """One translation: walks the tree, applies the passes, remembers which ones fired.

    `target` is the engine (`kuzu` or `ladybug`): the dialect is one, but Ladybug needs passes
    of its own around its engine bugs (`order_barrier`)."""

    # Rules rewritten before their children, by method name: a dict of bound methods kept on
    # the rewriter would make every translation a reference cycle for the garbage collector.
    _PRE: ClassVar[dict[str, str]] = {
        "pattern_predicate": "pre_pattern_predicate",
        "path_function": "pre_path_function",
        "call": "pre_call",
        "list_comp_map": "pre_list_comp_map",
        "list_comp": "pre_list_comp_map",
        "index": "pre_key_access",
        "prop": "pre_key_access",
        "arith": "pre_arith",
        "compare": "pre_compare",
        "in_": "pre_in_",
        "case_expr": "pre_case_expr",
        "with_clause": "pre_with_clause",
        "return_clause": "pre_return_clause",
    }

    def __init__(self, source: str, target: str = "kuzu") -> None:
        self.source = source
        # Text beyond ASCII in the query: the engines count a string's grapheme clusters where
        # Neo4j counts code points ('A\u030a' is 1 long to them, 2 to Neo4j).
        # (`\u0301` in a literal, or normalize()'s decomposed text, count too)
        self.non_ascii = not source.isascii() or re.search(
            r"\\[uU]|\bnormalize\s*\(|\bNORMALIZED\b", source, re.IGNORECASE) is not None
        self.target = target
        self.nan_names: frozenset[str] | None = None   # set by run()
        # Whether a map's integer fields were written as floats (`map_shapes.py`), set by run().
        self.number_fields = False
        self.lambda_names: set[str] = set()   # set by run()
        self.applied: list[str] = []
        self.distinct_rows = False  # the reader drops repeated rows (`union_parts`)

    def note(self, rewrite: str) -> None:
        if rewrite not in self.applied:
            self.applied.append(rewrite)

    def run(self, root: Tree) -> Tree:
        tokens = list(root.scan_values(
            lambda v: isinstance(v, Token) and v.type in ("NAME", "QUOTED_NAME", "STRING")))
        taken = {plain_name(t) for t in tokens if t.type != "STRING"}
        keys = {unquote_string(str(t)) for t in tokens if t.type == "STRING"}   # n['key']
        # Passes that only some queries need are gated on the text (a false alarm costs time).
        names = FreshNames(taken)
        self.names = names
        # Neo4j 5's quantified and selective path patterns as the classic forms, first: every
        # pass below reads those (and, through the gates, their text).
        written = lower_path_patterns(root, names, self.source) \
            if PATH_PATTERN_SYNTAX.search(self.source) else None
        if written is not None:
            self.note(PATH_PATTERNS)
            self.source += written
        if may_call_unknown_functions(self.source):
            refuse_unknown_functions(root)   # on the model's calls, before a pass writes any
        if "!=" in self.source:
            refuse_bang_equals(root)
        # Neo4j's own rewrite before its semantic analysis: the query as Neo4j reads it.
        if _WITH_WHERE.search(self.source) and alias_with_wheres(root):
            self.note(WITH_WHERE_ALIASES)
        if MAY_REPEAT.search(self.source) \
                and match_nothing_for_repeated_relationships(root, names):
            self.note(REPEATED_RELATIONSHIPS)   # Neo4j warns and matches nothing
        refuse_compile_errors(root, self.source)   # on the query as written
        check_grouping(root, self.source)
        if _ORDER_BY_AGGREGATE.search(self.source):
            check_order_aggregates(root)   # Neo4j's after its alias rewrite, as written
        if _LIST_SORT_KEY.search(self.source) and expand_list_sort_keys(root, names):
            self.note(LIST_SORT_KEYS)
        if _FINISH_WORD.search(self.source):
            _refuse_finish(root)
        _name_rows_of_empty_scopes(root, names)
        if STAR_RETURN.search(self.source) and sort_star_columns(root):
            self.note(STAR_COLUMNS)   # on the query as written, before CALL { } is inlined
        if _CALL_BRACE.search(self.source) and inline_call_subqueries(root, names):
            self.note(CALL_SUBQUERIES)
        if _may_name_unknown(self.source) and match_nothing(root):
            self.note(UNKNOWN_NAMES)
        if _IN_WORD.search(self.source) and fresh_lambda_names(root, names):
            self.note(LAMBDA_NAMES)   # before `hop_lists` reads the variable-length names
        collide = names_collide(taken | {k for k in keys if k.isidentifier()})
        if collide:
            check_variable_case(root)
        if "*" in self.source and read_hops_as_lists(root, self.target):
            self.note(HOP_LISTS)
        if _CASE_WORD.search(self.source) and searched_cases(root):
            self.note(SIMPLE_CASE)
        counting = _SUBQUERY_BRACE.search(self.source) is not None   # EXISTS { } / COUNT { }
        subqueries = counting or _COLLECT_BRACE.search(self.source) is not None
        if subqueries and unroll_written_lists(root):
            self.note(WRITTEN_LISTS)
        if subqueries and drop_passing_withs(root):
            self.note(PASSING_WITHS)
        if subqueries and _COLLECT_BRACE.search(self.source) and expand_collect_memberships(root):
            self.note(COLLECT_MEMBERSHIP)
        if subqueries and comprehend_collect_subqueries(root):
            self.note(COLLECT_SUBQUERIES)
        if counting and split_subquery_parts(root):
            self.note(SUBQUERY_PARTS)
        if _LABEL_EXPRESSION.search(self.source) and resolve_label_expressions(root):
            self.note(LABEL_EXPRESSIONS)
        shortest = "shortest" in self.source.lower()
        if shortest and hoist_shortest_expressions(root, names):
            self.note(SHORTEST_EXPRESSIONS)
        if shortest and check_shortest_ends(root):
            self.note(SHORTEST_ENDS)
        # Lambdas the pass below copies count as the text's (`mark_shared_sources`).
        lambdas = len(_IN_WORD.findall(self.source))
        if WRITTEN_DISTINCT.search(self.source):
            annotate_types(root)   # its NULL marks, before the keys' comprehensions hoist
            if key_written_distincts(root, names):
                self.note(DISTINCT_LISTS)
                lambdas += 2
        if _IN_WORD.search(self.source) and _AGGREGATE_WORD.search(self.source) \
                and hoist_lambda_aggregates(root, names):
            self.note(LAMBDA_AGGREGATES)
        if _QUANTIFIER_WORD.search(self.source) and keep_quantifier_nulls(root):
            self.note(QUANTIFIER_NULLS)
            lambdas += 2
        annotate_types(root)
        if test_labels_of_bound_nodes(root):   # reads the scopes just annotated
            self.note(BOUND_LABELS)
            annotate_types(root)   # the label tests it wrote
        if self.non_ascii and beyond_bmp(keys):
            refuse_utf16_order(root)   # reads the types just annotated
        if NEGATIVE_ZERO_TEXT.search(self.source):
            refuse_negative_zero_order(root)
        if _DISTINCT_COLLECT.search(self.source):
            refuse_null_holding_distincts(root)
        if TYPE_PREDICATE_TEXT.search(self.source) and fold_type_predicates(root):
            self.note(TYPE_PREDICATES)   # reads the types just annotated
        if MAP_ENTRY.search(self.source) and align_maps(root):
            self.note(MAP_FIELDS)
            self.number_fields = True
        if "OPTIONAL" in self.source.upper():
            refuse_outer_label_tests(root)   # reads the scopes the types were annotated with
        if _REDUCE_WORD.search(self.source) and unfold_list_folds(root, names):
            self.note(LIST_FOLDS)
            annotate_types(root)   # the comprehensions they became
        if _SUM_WORD.search(self.source) and decide_sums_in_place(root):
            self.note(SUMS_IN_PLACE)
        if _may_read_unknown_key(self.source) and null_unknown_keys(root):
            # before the case check: Neo4j reads `o.Class` as NULL
            self.note(UNKNOWN_NAMES)
        if collide:
            check_property_names(root)
        if "bbox" in self.source and null_absent_properties(root):
            self.note(ABSENT_PROPERTIES)
        divides = "/" in self.source or "%" in self.source
        reads_values = may_read_scalars(self.source)
        if (divides or reads_values) and _REDUCE_WORD.search(self.source):
            mark_lazy_lambdas(root)   # before a fold leaves its branch
        if _REDUCE_WORD.search(self.source) and hoist_row_reading_folds(root, names):
            self.note(REDUCE_HOISTS)
        if self.target == "ladybug" and len(_IN_WORD.findall(self.source)) > 1 \
                and tabulate_nested_quantifiers(root, names):   # Kuzu crashes on the tables
            self.note(PAIR_TABLES)
        if lambdas > 1:   # two lambdas at least
            mark_shared_sources(root)
        if shortest:
            mark_shortest_paths(root)
        # Names that may hold NaN, for comparisons and the places Neo4j groups or orders NaN.
        self.nan_names = nan_names(root) if NAN_SOURCES.search(self.source) else None
        if self.nan_names is not None:
            refuse_nan_keys(root, self.nan_names)
            if sort_nan_last(root, self.nan_names):
                self.note(NAN_ORDER)
        refuse_removed_syntax(root)  # reads the types; before any rewrite writes Kuzu's calls
        check_projections(root)
        if "DISTINCT" in self.source.upper() and keep_ordered_distinct(root, names):
            self.note(ORDERED_DISTINCT)
        mixed_columns = mark_mixed_columns(root)
        if float_number_results(root):
            self.note(NUMBER_RESULTS)
        self.node_names = node_names(root)
        # Paths a MATCH names (`length()` of any other path is measured, `_length`).
        self.path_names = {plain_name(p.children[0]) for p in root.find_data("pattern")
                           if len(p.children) == 3} if "length" in self.source.lower() else set()
        if collect_pattern_comprehensions(root, names, self._comprehension_chain):
            self.note(PATTERN_LISTS)
        refuse_ranked_leftovers(root)
        self.uniqueness = Uniqueness(names)
        if self.target == "ladybug":
            refuse_zero_hops_off_tables(root)
        Endpoints(names, self.note).run(root)
        # Names lambdas bind: a list one of them names is walked as written (a lambda over
        # positions inside it would read the outer one's parameter, which the engines refuse).
        self.lambda_names = {n for sub in root.iter_subtrees() for n in binds(sub)} \
            if len(_IN_WORD.findall(self.source)) > 1 else set()   # a lambda and an IN test
        if divides and guard_divisors(root):
            self.note(LAZY_DIVISORS)   # on the annotated tree, its conditions still Neo4j's
        if reads_values and guard_scalar_reads(root):
            self.note(SCALAR_READS)   # the same, for Neo4j's per-row type error
        result = self.visit(root)
        self._on_translation(result, shortest, mixed_columns)
        return result

    def _on_translation(self, result: Tree, shortest: bool,
                        mixed_columns: list[tuple[Tree, dict[int, str]]]) -> None:
        """The passes that run on the translation, in order. Each runs only where the tree
        holds what it looks for (`tree_facts.py`); the facts are read again after a pass
        that changed the tree."""
        facts = TreeFacts(result)

        def fired(rewrite: str) -> None:
            nonlocal facts
            self.note(rewrite)
            facts = TreeFacts(result)

        if shortest and case_for_test_coalesce(result):
            fired(SHORTEST_COALESCE)
        if facts.has("subquery", "map_literal") and move_anchor_maps(result, self.target):
            fired(ANCHOR_MAPS)
        if self.target == "kuzu" and read_computed_labels(result):
            fired(COMPUTED_LABELS)
        if (facts.has("subquery") or facts.optional_where) and self._pass_outer_values(result):
            fired(OUTER_VALUES)
        if facts.has("subquery") \
                and compute_subqueries_first(result, self.names, self.uniqueness.expand_stars):
            fired(SUBQUERY_VALUES)
        if facts.has("with_clause") and unwind_free_aggregates(
                result, self.names, self.uniqueness.expand_stars, self.target):
            fired(FREE_AGGREGATES)
        if self.target == "kuzu":  # on the outer-value lists the pass above made
            refuse_null_anchored_subqueries(result)
            refuse_wrapped_outer_subqueries(result, self.names.generated)
        if facts.has("subquery") and keep_count_joins(result):
            fired(COUNT_JOINS)
        if facts.calls_any(TERNARY_CALLS) and null_free_ternaries(result):
            fired(TERNARY_NULLS)
        # on the filters the passes above wrote (every one comes from an `IN`)
        if _IN_WORD.search(self.source) and guard_empty_filters(result, self.names):
            fired(EMPTY_FILTERS)
        # after the NULL guards the passes above write
        if facts.lambda_calls and facts.has("case_expr") and lambdas_outside_cases(result):
            fired(LAMBDA_SOURCES)
        if facts.has("case_expr") and compare_case_conditions(result):
            fired(CASE_CONDITIONS)
        if self.target == "kuzu" and compare_filter_conditions(result):
            fired(FILTER_CONDITIONS)
        if facts.has("union") and skip_union_parts(result):
            fired(UNION_PARTS)
        self.distinct_rows = facts.has("union") and read_union_as_all(result)
        if self.distinct_rows:
            fired(UNION_DISTINCT)
        if facts.has("with_clause") \
                and carry_path_segments(result, self.names, self.uniqueness.expand_stars):
            fired(PATH_PARTS)
        if hold_mixed_columns(result, mixed_columns):
            fired(MIXED_RESULTS)
        if rebind_computed_nodes(result, self.names, self.uniqueness.expand_stars):
            fired(COMPUTED_NODES)
            # a subquery from a computed node reads it now (`id(_node1) = id(room)`)
            if compute_subqueries_first(result, self.names, self.uniqueness.expand_stars):
                fired(SUBQUERY_VALUES)
        if (facts.has("subquery") or facts.optional_match) \
                and anchor_outer_nodes(result, self.names, self.target):
            fired(OUTER_ANCHORS)
        if facts.has("subquery") and compare_count_keys_with_true(result, self.names):
            fired(COUNT_KEYS)   # on the id() equalities the pass above writes too
        if _CUT_WITH.search(self.source) and cut_constant_projections(result, self.names):
            fired(CONSTANT_PROJECTIONS)
        if _AGGREGATE_WORD.search(self.source) \
                and return_grouped_reads_via_with(result, self.names, self.node_names):
            fired(GROUPED_NODE_READS)
        if facts.has("with_clause", "where") and widen_with_wheres(result):
            fired(WITH_WHERE_SCOPE)
        if self.target == "kuzu" and alias_path_items(result):   # after every added WITH
            fired(PATH_ITEMS)
        if facts.lambda_calls > 1 and read_row_in_nested_lambdas(result):
            # on the lambdas every pass wrote
            fired(NESTED_LAMBDAS)
        if self.target == "kuzu" and facts.optional_match and split_patterns_after_optional(result):
            fired(SPLIT_PATTERNS)
        if self.target == "ladybug" and (facts.has("where") or facts.has("map_literal")) \
                and defer_pattern_filters(
                result, self.names, self.uniqueness.expand_stars):   # on every filter written
            fired(PATTERN_FILTERS)

    def _pass_outer_values(self, root: Tree) -> bool:
        """After every other pass on the parts of the query (a subquery's own parts have no
        room for a WITH): see `outer_values`; later stars are spelled out without the names it
        makes. Whether any part changed."""
        query = root.children[0] if root.data == "start" else root
        changed = False
        for part in query.children:
            if isinstance(part, Tree) and part.data == "single_query" \
                    and pass_outer_values(part, self.names, self.target):
                changed = True
                self.uniqueness.expand_stars(part)
        return changed

    def visit(self, node: object) -> object:
        if not isinstance(node, Tree):
            return node
        pre = self._PRE.get(str(node.data))
        if pre is not None:
            node = getattr(self, pre)(node)
        # The operands' types, read by type-directed rewrites after the operands were rewritten.
        node.child_types = [ctype(child) for child in node.children]
        if node.data in BINDERS and node.children and isinstance(node.children[0], Tree) \
                and node.children[0].data == "in_":
            node.children[0].is_binding = True  # `x IN list` of a comprehension, not a test
        node.children = [self.visit(child) for child in node.children]
        post = getattr(self, f"r_{node.data}", None)
        return post(node) if post is not None else node

    # ---------------------------------------------------------------- patterns
    def pre_path_function(self, node: Tree) -> Tree:
        fname = plain_name(node.children[0]).lower()
        modes = {"shortestpath": "SHORTEST", "allshortestpaths": "ALL SHORTEST"}
        if fname in ("any", "all"):   # Neo4j 5.21's path selector `p = ANY ((a)-->(b))`
            raise DialectError("a path selector (ANY, ALL): Neo4j 5 syntax the translator "
                               "does not read")
        if fname not in modes:
            raise CypherSyntaxError(f"{plain_name(node.children[0])}() is not a path function")
        chain = node.children[1]
        rels = [c for c in chain.children if c.data.startswith("rel_")]
        if len(rels) != 1:
            raise DialectError(f"{fname}() over more than one relationship")
        rel = rels[0]
        detail = next((c for c in rel.children if isinstance(c, Tree)), None)
        if detail is None:
            detail = tree("rel_detail")
            rel.children.insert(1, detail)
        length = next((c for c in detail.children if c.data == "var_length"), None)
        mode = tree("recursion_mode", Token("RECURSION_MODE", modes[fname]))
        if length is None:  # shortestPath over a single hop
            length = tree("var_length", Token("STAR", "*"), mode, tree(
                "range_span", Token("INT", "1"), Token("DOTDOT", ".."), Token("INT", "1")))
            position = len([c for c in detail.children if c.data in ("name", "rel_types")])
            detail.children.insert(position, length)
        else:
            length.children.insert(1, mode)
        chain.shortest = modes[fname]  # read by the path-filter pass (`path_filter.py`)
        self.note("shortestPath->SHORTEST" if fname == "shortestpath"
                  else "allShortestPaths->ALL SHORTEST")
        return chain

    @staticmethod
    def _from_zero_hops(var_length: Tree) -> bool:
        return any(isinstance(c, Tree) and c.data.startswith("range") and
                   str(c.children[0]) in ("0", "0x0") for c in var_length.children)

    def r_var_length(self, node: Tree) -> Tree:
        if self.target == "kuzu" and self._from_zero_hops(node):
            raise DialectError("a variable-length pattern from 0 hops on Kuzu (it counts "
                               "zero-length paths differently; Ladybug runs it)")
        if any(isinstance(c, Tree) and c.data == "recursion_mode" for c in node.children):
            return node
        node.children.insert(1, tree("recursion_mode", Token("RECURSION_MODE", "TRAIL")))
        self.note("var-length->TRAIL")
        bound_trail(node)
        return node

    def r_match(self, node: Tree) -> Tree:
        """Neo4j's relationship isomorphism within the clause (see `uniqueness`)."""
        pattern_list = next(c for c in node.children
                            if isinstance(c, Tree) and c.data == "pattern_list")
        if push_path_filters(node, self.target, self.names):
            self.note(PATH_FILTER)
        if self.uniqueness.apply(node, pattern_list):
            self.note(UNIQUENESS)
        return node

    def r_subquery_pattern(self, node: Tree) -> Tree:
        if self.uniqueness.apply(node, node.children[0]):
            self.note(UNIQUENESS)
        return node

    def r_single_query(self, node: Tree) -> Tree:
        if self.target == "ladybug" and add_order_barriers(node, self.names):
            self.note(ORDER_BARRIER)
        self.uniqueness.expand_stars(node)
        if null_unmatched_paths(node, self.names):
            self.note(OPTIONAL_PATHS)
        return node

    def r_node_labels(self, node: Tree) -> Tree:
        seps = {str(c.children[0]) for c in node.children if c.data == "label_sep"}
        if seps & {":", "&"}:
            raise DialectError("a node pattern requiring two labels (:A:B or :A&B)")
        if seps:
            self.note("label alternation->:A:B")
        return node

    def pre_pattern_predicate(self, node: Tree) -> Tree:
        chain = self._comprehension_chain(node)
        self.note("pattern predicate->EXISTS")
        return tree("subquery", var("EXISTS"),
                    tree("subquery_pattern", tree("pattern_list", tree("pattern", chain))))

    def _comprehension_chain(self, pattern: Tree) -> Tree:
        """The `chain` of a pattern written as an expression (`(r)-[:T]->(n)`), or of a
        COLLECT's node-only MATCH (`collect_subqueries.py`)."""
        first, *rest = pattern.children
        if not rest:
            return tree("chain", self._node(first))
        rel, tail = rest
        items = [self._node(first), rel]
        for i, part in enumerate(tail.children):
            items.append(part if i % 2 else self._node(part))
        return tree("chain", *items)

    def _node(self, node: Tree) -> Tree:
        """An expression that stood for a node in a pattern predicate, as a node pattern."""
        if node.data == "node_pattern":
            return node
        if node.data == "empty_node":
            return tree("node_pattern")
        if node.data == "anon_node":
            return tree("node_pattern", *node.children)
        if node.data == "paren":
            inner = node.children[0]
            properties = None
            if inner.data == "map_projection":
                entries = inner.children[1:]
                if not all(e.data == "proj_key" for e in entries):
                    raise CypherSyntaxError("not a node pattern")
                properties = tree("map_literal", *[tree("map_entry", *e.children)
                                                   for e in entries])
                inner = inner.children[0]
            labels = []
            while inner.data == "has_label":
                labels.insert(0, inner.children[1])
                inner = inner.children[0]
            if getattr(inner, "by_position", False):
                raise DialectError("a pattern from an element of a comprehension over nodes "
                                   "(the element is read by position, `captures.py`)")
            if inner.data != "var":
                raise CypherSyntaxError("not a node pattern")
            parts: list[Tree] = [inner.children[0]]
            if labels:   # `(a:A:B)` is both labels, as `:A:B` in a pattern
                label_node = tree("node_labels", *labels)
                if resolve_node_labels(label_node):
                    self.note(LABEL_EXPRESSIONS)
                parts.append(label_node)
            if properties is not None:
                parts.append(properties)
            return tree("node_pattern", *parts)
        raise CypherSyntaxError("not a node pattern")

    # ---------------------------------------------------------------- clauses
    def _distinct_beside_aggregate(self, projection: Tree) -> None:
        """Kuzu 0.11.3 gives 0 for count(*) (and sum()) beside a DISTINCT aggregate."""
        if self.target != "kuzu":
            return
        calls = [sub for sub in projection.iter_subtrees()
                 if sub.data in ("call", "call_star", "call_distinct")
                 and function_name(sub.children[0]).lower() in AGGREGATES]
        if len(calls) > 1 and any(sub.data == "call_distinct" for sub in calls):
            raise DialectError("a DISTINCT aggregate beside another aggregate on Kuzu (it "
                               "miscounts the other; Ladybug runs it)")

    def _null_point_keys(self, projection: Tree) -> None:
        """Kuzu 0.11.3 puts a NULL point in several DISTINCT or grouping keys (its stale
        fields, `null_struct.py`): `RETURN DISTINCT n2.center` of a node an OPTIONAL MATCH did
        not find gave NULL twice, and `RETURN DISTINCT o.bbox_center` of objects without a box
        three times (fuzz seed 8484). A CASE around it did not help. A map of such a node (a
        map projection, properties()) is a struct too."""
        if self.target != "kuzu":
            return
        if not groups(projection):
            return
        for item in child_of(projection, "proj_items").children:
            if not isinstance(item, Tree) or has_aggregate(item.children[0]):
                continue
            for read in _point_values(item):
                if read.data == "prop" and plain_name(read.children[1]) in POINT_PROPERTIES \
                        and isinstance(read.children[0], Tree) \
                        and read.children[0].data == "var" \
                        and (getattr(read.children[0], "nullable", False)
                             or plain_name(read.children[1]) != "center") \
                        and getattr(read, "ctype", "") == "point":
                    raise DialectError("a point that may be NULL (a box, or of a node an "
                                       "OPTIONAL MATCH may leave NULL) as a DISTINCT or grouping "
                                       "key on Kuzu (it splits the NULLs into several groups; "
                                       "Ladybug runs it)")
            for sub in item.children[0].iter_subtrees():
                if getattr(sub, "map_of_nullable", False):
                    # `RETURN n3 {.class}, size(collect(DISTINCT ..))` of an unmatched n3 came
                    # out as three NULL groups (fuzz seed 4242)
                    raise DialectError("a map of a node an OPTIONAL MATCH may leave NULL as a "
                                       "DISTINCT or grouping key on Kuzu (it splits the NULLs "
                                       "into several groups; Ladybug runs it)")

    def _whole_map_keys(self, projection: Tree) -> None:
        """Kuzu 0.11.3 splits a group whose key is a struct with a NULL field: `RETURN
        properties(o), count(*)` of an object without a box gave two rows of one object. A
        node's whole map (properties(), `n {.*}`) as a DISTINCT or grouping key is refused
        there, read on the query as written."""
        if self.target != "kuzu" or not groups(projection):
            return
        for item in child_of(projection, "proj_items").children:
            if not isinstance(item, Tree) or has_aggregate(item.children[0]):
                continue
            for sub in item.children[0].iter_subtrees():
                whole = (sub.data == "call" and function_name(sub.children[0]).lower()
                         == "properties") or (sub.data == "map_projection" and any(
                             isinstance(e, Tree) and e.data == "proj_all" for e in sub.children))
                if whole:
                    raise DialectError("a node's whole map (properties(), n {.*}) as a DISTINCT "
                                       "or grouping key on Kuzu (a key whose NULL fields split "
                                       "the group; Ladybug runs it)")

    def pre_with_clause(self, node: Tree) -> Tree:
        self._whole_map_keys(node.children[0])
        if order_by_columns(node.children[0], is_return=False):   # as Neo4j compares them
            self.note(ORDER_COLUMNS)
        return node

    def pre_return_clause(self, node: Tree) -> Tree:
        self._whole_map_keys(node.children[0])
        if order_by_columns(node.children[0], is_return=True):
            self.note(ORDER_COLUMNS)
        return node

    def r_with_clause(self, node: Tree) -> Tree:
        projection = node.children[0]
        self._distinct_beside_aggregate(projection)
        self._null_point_keys(projection)
        if skip_after_lone_order(projection):
            self.note("WITH ORDER BY->SKIP 0")
        for rewrite in fix_order_by(projection, is_return=False):
            self.note(rewrite)
        self._zero_safe_sort_keys(projection)
        return node

    def r_return_clause(self, node: Tree) -> Tree:
        """Unaliased items whose text a rewrite changed keep Neo4j's column name (the text), as
        do all of them where the ORDER BY holds a subquery: both engines fail to bind one
        beside an unaliased `m.nodeSymbol` ("Cannot bind as node pattern")."""
        projection = node.children[0]
        self._distinct_beside_aggregate(projection)
        self._null_point_keys(projection)
        proj_items = child_of(projection, "proj_items")
        order = child_of(projection, "order")
        named_all = order is not None and any(
            sub.data == "subquery" for sub in order.iter_subtrees())
        emitter = Emitter()
        for item in proj_items.children:
            if not isinstance(item, Tree) or len(item.children) != 1:
                continue
            original = getattr(item, "original_text", None)
            if original is None:
                continue
            emitted = emitter.emit(item.children[0])
            if named_all or "".join(emitted.split()) != "".join(original.split()):
                item.children.append(column_name(original))
        for rewrite in fix_order_by(projection, is_return=True):
            self.note(rewrite)
        self._zero_safe_sort_keys(projection)
        return node

    def r_call_subquery(self, node: Tree) -> Tree:
        raise DialectError("CALL { ... } subqueries have no Kuzu equivalent")

    def r_call_procedure(self, node: Tree) -> Tree:
        raise DialectError("procedure calls (CALL ...) have no Kuzu equivalent")

    def r_subquery(self, node: Tree) -> Tree:
        keyword = function_name(node.children[0]).lower()
        if keyword not in ("exists", "count"):
            raise DialectError(f"{keyword.upper()} {{ ... }} subqueries have no Kuzu equivalent")
        body = node.children[1]
        if body.data == "query":
            clauses = [c for sq in body.children if isinstance(sq, Tree)
                       and sq.data == "single_query" for c in sq.children]
            if len(clauses) != 1 or clauses[0].data != "match" or any(
                    isinstance(c, Token) for c in clauses[0].children):
                raise DialectError(f"{keyword.upper()} {{ ... }} with more than MATCH ... WHERE")
        self._node_null_tests(body)
        return node

    def _node_null_tests(self, body: Tree) -> None:
        """Inside a subquery both engines take an outer node for NULL in `x IS NULL` / `x IS
        NOT NULL` (`EXISTS { MATCH (r)<--(m) WHERE x IS NOT NULL }` was false for every x, and
        an OPTIONAL MATCH with such a WHERE found nothing), while they read its properties
        right. Every node has a nodeSymbol in Heracles' layout, so the test reads that."""
        for test in body.iter_subtrees():
            if test.data in ("is_null", "is_not_null") and isinstance(test.children[0], Tree) \
                    and test.children[0].data == "var" \
                    and plain_name(test.children[0].children[0]) in self.node_names:
                test.children[0] = prop(test.children[0], "nodeSymbol")
                self.note("node IS NULL in a subquery->nodeSymbol IS NULL")

    # ---------------------------------------------------------------- expressions
    def pre_call(self, node: Tree) -> Tree:
        fname = function_name(node.children[0]).lower()
        args = node.children[1:]
        if fname == "coalesce":
            refuse_mixed_result(node)
        if fname in ("any", "all", "none", "single") and len(args) == 1 \
                and isinstance(args[0], Tree) and args[0].data == "where_arg":
            binding, test = args[0].children
            if isinstance(binding, Tree) and binding.data == "in_" \
                    and binding.children[0].data == "var" \
                    and affected(plain_name(binding.children[0].children[0]),
                                 binding.children[1], [test]):
                args[0].children[1:] = by_position(binding, [test], self.names, False)
                self.note(CAPTURES)
        if fname == "keys" and len(args) == 1 and isinstance(args[0], Tree) \
                and args[0].data == "call" and len(args[0].children) == 2 \
                and function_name(args[0].children[0]).lower() == "properties":
            node.children[1] = args[0].children[1]   # the keys of a node's map are its keys
        if fname == "reduce" and _is_reduce(args) and refold(node, self.names):
            self.note(REDUCE_FOLDS)
        if fname == "exists" and len(args) == 1 and isinstance(args[0], Tree) \
                and args[0].data == "pattern_predicate":
            return self.pre_pattern_predicate(args[0])
        if fname == "size" and len(args) == 1 and isinstance(args[0], Tree) \
                and args[0].data in ("list_comp", "list_comp_map") \
                and isinstance(args[0].children[0], Tree) \
                and args[0].children[0].data == "pattern_predicate":
            return self._count_comprehension(args[0])
        return node

    def _count_comprehension(self, comprehension: Tree) -> Tree:
        """`size([(a)-->(b) WHERE p | x])` is the number of matches: `COUNT { MATCH ... WHERE p }`
        (the list has one element per match, whatever x is)."""
        subquery = self.pre_pattern_predicate(comprehension.children[0])
        subquery.children[0] = var("COUNT")
        if comprehension.data == "list_comp":
            subquery.children[1].children.append(tree("where", comprehension.children[1]))
        self.note("size(pattern comprehension)->COUNT")
        return subquery

    def pre_list_comp_map(self, node: Tree) -> Tree:
        if isinstance(node.children[0], Tree) and node.children[0].data == "pattern_predicate":
            if getattr(node, "from_collect", False):
                raise DialectError("a COLLECT { } subquery used where it cannot become an "
                                   "OPTIONAL MATCH and collect() (only in a WITH's or RETURN's "
                                   "items after MATCHes; its size() is counted)")
            raise DialectError("pattern comprehensions [(a)-->(b) | ...] have no Kuzu equivalent "
                               "(size() of one is counted)")
        binding = node.children[0]
        if isinstance(binding, Tree) and binding.data == "in_" \
                and binding.children[0].data == "var":
            bound = plain_name(binding.children[0].children[0])
            bodies = node.children[1:]
            filter_only = node.data == "list_comp" and len(bodies) == 1
            if affected(bound, binding.children[1], bodies):
                node.children[1:] = by_position(binding, bodies, self.names, filter_only)
                self.note(CAPTURES)
        return node

    def pre_key_access(self, node: Tree) -> Tree:
        """`properties(n)['k']`, `properties(n).k` and `m['k']` read one property or field: as
        `n.k` / `m.k` (Kuzu has no map value for a node, and Ladybug cannot index a struct with a
        string)."""
        base, key = node.children[0], node.children[1]
        if node.data == "index":
            if not (isinstance(key, Tree) and key.data == "str_lit"):
                return node
            field = key_name(unquote_string(str(key.children[0])))
        else:
            field = key
        if isinstance(base, Tree) and base.data == "call" \
                and function_name(base.children[0]).lower() == "properties" \
                and len(base.children) == 2:
            self.note("properties(n)[key]->n.key")
            result = tree("prop", base.children[1], field)
        elif node.data == "index":
            self.note("map[key]->map.key")
            result = tree("prop", base, field)
        else:
            return node
        result.ctype = ctype(node)  # type: ignore[attr-defined]
        return result

    def r_has_label(self, node: Tree) -> Tree:
        """`n:A` as `label(n) = 'A'`; a label expression as the labels it allows, ORed
        (`label_expressions.py`). NULL for a NULL subject, as in Neo4j."""
        subject, expression = node.children
        self.note("label predicate->label()")
        kind = ctype(subject)
        if kind in ("node", "rel"):
            universe = LABELS if kind == "node" else EDGE_TYPES
        elif needs_universe(expression):
            raise DialectError("a label expression with `!` or `%` on a value that may not be "
                               "a node")
        else:
            universe = (*LABELS, *EDGE_TYPES)
        allowed = predicate_labels(expression, universe)
        result = any_of([tree("compare", call("label", clone(subject)), Token("EQ", "="),
                              tree("str_lit", Token("STRING", quote_string(label))))
                         for label in allowed]) if allowed else tree("false_lit")
        # Both engines give label() of a NULL node its pattern's one label ('Place' after an
        # OPTIONAL MATCH (r)-->(p:Place) that found nothing): NULL is tested first.
        return null_when_null(subject, result)

    def _zero_safe_sort_keys(self, projection: Tree) -> None:
        """Neo4j sorts -0.0 just below 0.0 (`Double.compare`, `signed_zeros.py`); the engines
        sort it below every negative number. Adding 0.0 turns -0.0 into 0.0 and leaves every
        other float as it is (and an integer's order too): the two zeros then tie, where
        Neo4j puts the rows of -0.0 first (a known difference; a `-0.0` literal is refused).
        Every key whose Neo4j type is a float gets it, whatever the key became: a computed
        value (`ceil(x - 3.5)`), an aggregate or function the translator rewrote
        (`percentileDisc` into a UDF call), a column or variable holding one (`UNWIND ... AS x
        ... ORDER BY x`, a WITH's alias). The type is the one the annotator gave the key before
        any rewrite (`child_types`, read in the ORDER BY's scope, where a projected alias has
        its expression's type): a rewritten key is a new node with no type of its own. A stored
        property read as it is (`o.center.x`, or a column of this projection holding one) is
        left alone: the graphs hold no -0.0."""
        order = next((c for c in projection.children
                      if isinstance(c, Tree) and c.data == "order"), None)
        if order is None:
            return
        stored = {plain_name(item.children[1])
                  for item in child_of(projection, "proj_items").children
                  if isinstance(item, Tree) and len(item.children) > 1
                  and item.children[0].data == "prop"}
        for sort_item in order.children:
            kinds = getattr(sort_item, "child_types", None)
            key = sort_item.children[0]
            if not kinds or kinds[0] not in ("float", "number", FLOAT_SUM) or key.data == "prop" \
                    or (key.data == "var" and plain_name(key.children[0]) in stored):
                continue
            sort_item.children[0] = arith(key, "+", tree("float_lit", Token("FLOAT", "0.0")))
            self.note("ORDER BY float->+ 0.0")

    def r_prop(self, node: Tree) -> Tree:
        point_type = node.child_types[0] if node.child_types else None
        key = plain_name(node.children[1])
        if point_type is not None and point_type.startswith("list<"):
            # `collect(m) AS places .. places.class`: Neo4j's semantic analysis rejects it
            raise CypherSyntaxError("Type mismatch: expected Map, Node, Relationship, Point, "
                                    "Duration, Date, Time, LocalTime, LocalDateTime or DateTime "
                                    f"but was a list (reading .{key})")
        if point_type in POINT_TYPES and key in _POINT_CRS:
            # Every point here is cartesian: its crs and srid follow from its dimension.
            self.note("point crs/srid->literal")
            value = _POINT_CRS[key][point_type]
            literal = tree("str_lit", Token("STRING", f"'{value}'")) if key == "crs" \
                else int_lit(value)
            return null_when_null(node.children[0], literal)
        return self.point_field(node)

    def _written_map_read(self, node: Tree) -> Tree | None:
        """`m[k]` of a map the query writes, whose keys are known, with a string key: the
        field the row's key names, NULL for any other key (Neo4j's map lookup), as
        `CASE k WHEN 'a' THEN m.a .. END`; None where the map's fields are not all of one
        scalar type (the engines would make the CASE's results one type), or the key may be
        no string (Neo4j raises for one)."""
        fields = node.child_types[0] if node.child_types else None
        if not isinstance(fields, WrittenMap) or node.child_types[1:] != ["str"] \
                or len({*fields.fields.values()}) != 1 \
                or next(iter(fields.fields.values())) not in _KEYED_FIELDS \
                or not all(field.isidentifier() for field in fields.fields) \
                or len({field.lower() for field in fields.fields}) != len(fields.fields):
            return None   # (the engines' field names are plain and caseless)
        base, key = node.children
        whens = []
        for field in fields.fields:
            read = tree("prop", clone(base), name(field))
            whens.append(tree("case_when", tree("str_lit", Token("STRING", quote_string(field))),
                              guarded(read) if self.target == "kuzu" else read))
        self.note(MAP_KEY_READS)
        return tree("case_expr", key, *whens)

    def point_field(self, node: Tree) -> Tree:
        """On Kuzu, a point's field guarded against its NULL-struct bug (`null_struct.py`)."""
        if self.target != "kuzu" or not needs_guard(node):
            return node
        self.note(NULL_STRUCT)
        return guarded(node)

    def r_index(self, node: Tree) -> Tree:
        base, index = node.children
        keyed = self._written_map_read(node)
        if keyed is not None:
            return keyed
        if (node.child_types and node.child_types[0] in ("node", "rel", "map", "point")) \
                or node.child_types[1:] == ["str"]:
            # `n[key]` with a computed key (a literal key became `n.key` before): Neo4j reads
            # the property named by the row's value; the engines index lists only.
            raise DialectError("a property read with a computed key (n[key])")
        if node.child_types and node.child_types[0] == "list<mixed>":
            position = _int_value(index)
            if position is None or position < 0:
                raise DialectError("an index into a list of mixed types other than a "
                                   "non-negative literal")
            self.note("index of mixed-type list->field")
            field = tree("prop", base, name(f"{MIXED_LIST_KEY}{position}"))
            # Kuzu reads a field of a NULL struct as another value (`null_struct.py`).
            return guarded(field) if self.target == "kuzu" else field
        self.note("index->1-based")
        if getattr(node, "by_position", False):   # `xs[_i]` of a walk over 0..size - 1: in range
            return tree("index", base, arith(index, "+", int_lit(1)))
        kuzu_type = KUZU_SCALAR_TYPES.get(element(node.child_types[0])) if node.child_types \
            else None
        if kuzu_type is not None:
            # Neo4j: NULL past either end; Kuzu's list_extract fails (inside a CASE too, which
            # it evaluates for every row). A one-element slice is empty there, and a typed NULL
            # after it is then the element read.
            position = _plus_one(index)
            return tree("index", call("list_concat",
                                      call("list_slice", base, position, clone(position)),
                                      _null_list(kuzu_type)), int_lit(1))
        # A list of nodes or structs has no typed NULL to pad it with: a position past either
        # end reads at a NULL index, which the engines answer with NULL (a CASE around the read
        # would still evaluate it, and fail, on every row).
        size = call("size", clone(base))
        position = _int_value(index)
        if position is not None:   # `xs[0]`: its size is all that can put it out of range
            inside = tree("compare", size, Token("COMP_OP", ">"),
                          int_lit(position if position >= 0 else -position - 1))
        else:
            inside = tree("and_", tree("compare", clone(index), Token("COMP_OP", "<"), size),
                          tree("compare", clone(index), Token("COMP_OP", ">="),
                               tree("unary", Token("ADD_OP", "-"), clone(size))))
        return tree("index", base, tree("case_expr", tree("case_when", inside,
                                                          _plus_one(index)), tree("null_lit")))

    def r_slice(self, node: Tree) -> Tree:
        """Neo4j's `xs[a..b]` (0-based, end excluded, a negative bound counts from the end,
        bounds clamped to the list) as Kuzu's `list_slice(xs, begin, end)` (1-based, end
        included)."""
        base, *rest = node.children
        split = next(i for i, c in enumerate(rest) if isinstance(c, Token) and c.type == "DOTDOT")
        low = rest[0] if split == 1 else None
        high = rest[split + 1] if split + 1 < len(rest) else None
        start = int_lit(1) if low is None else _slice_bound(base, low, 1)
        end = call("size", base) if high is None else _slice_bound(base, high, 0)
        self.note("slice->list_slice")
        return call("list_slice", base, start, end)

    def r_in_(self, node: Tree) -> Tree:
        """`x IN list` with Neo4j's NULLs: NULL when the list holds a NULL and no match (Kuzu:
        false, so `NOT (2 IN [1, NULL])` kept rows Neo4j drops), false for an empty list even when
        x is NULL (Kuzu: NULL). A non-empty literal list of non-NULL literals needs nothing."""
        if getattr(node, "is_binding", False):
            return node
        value, items = node.children
        # Neo4j's IN is equality: no element of another kind of value matches (the engines
        # convert, or refuse).
        across = element_kind_differs(node.child_types[0], node.child_types[1])
        if not across:
            refuse_container_members(node)
        if self.target == "kuzu" and node.child_types[0] in ("node", "rel"):
            # Kuzu 0.11.3: `a IN rs` was false for a node a relationship pattern reached
            # (`MATCH (a)-[:R]->(b) WHERE a IN rs`), true for the same node scanned alone.
            raise DialectError("a node or relationship searched for in a list, on Kuzu (it "
                               "misses nodes a relationship pattern reached; Ladybug runs it)")
        if not across and isinstance(items, Tree) and items.data == "list_literal" \
                and items.children and all(
                isinstance(c, Tree) and c.data in NON_NULL_LITERALS for c in items.children):
            return node
        if nothing_but_nulls(items):
            # `x IN []` is false and `x IN [null]` NULL whatever x is; the engines type such a
            # literal INT64[] and refuse it beside a string.
            self.note("IN->NULL-aware CASE")
            return tree("false_lit") if not items.children else cast(tree("null_lit"), "BOOLEAN")
        self.note("IN->NULL-aware CASE")

        def copy_of(part: object) -> object:
            return clone(part)
        element = self.names.fresh("_x")
        walk = _walk_positions(items) and not mentions(items, self.lambda_names)
        holds_null = self._holds_null(items, element, walk)
        empty = tree("compare", call("size", copy_of(items)), Token("EQ", "="), int_lit(0))
        return tree("case_expr",
                    tree("case_when", tree("is_null", copy_of(items)), tree("null_lit")),
                    tree("case_when", empty, tree("false_lit")),
                    tree("case_when", tree("is_null", copy_of(value)), tree("null_lit")),
                    tree("case_when", tree("false_lit") if across
                         else self._member(node, value, items, element, walk), tree("true_lit")),
                    tree("case_when", holds_null, tree("null_lit")),
                    tree("false_lit"))

    def pre_in_(self, node: Tree) -> Tree:
        if not getattr(node, "is_binding", False):
            none_left = self._same_kind_members(node)
            if none_left is not None:
                return none_left
            note_null_free_members(node)
        return node

    def _same_kind_members(self, node: Tree) -> Tree | None:
        """`x IN [a literal list of several kinds]` as `x IN` its elements of x's kind and its
        NULLs: Neo4j's IN is equality, which no value of another kind satisfies, and the engines
        hold a list of several kinds as a struct, which `IN` cannot search (`'2' IN ['-1.5',
        false, 0.5]` was true on both)."""
        value, items = node.children
        if not (isinstance(items, Tree) and items.data == "list_literal"
                and ctype(items) == "list<mixed>"):
            return
        if isinstance(value, Tree) and value.data == "null_lit":   # NULL IN a non-empty list
            items.children = [tree("null_lit")]
            items.ctype = "list<null>"  # type: ignore[attr-defined]
            return
        wanted = cross_kind(ctype(value))
        if wanted is None or wanted == "list":
            raise DialectError("IN over a list of several kinds of value, for a value whose "
                               "kind the query does not show")
        kept = [c for c in items.children if isinstance(c, Tree) and (
            c.data == "null_lit" or cross_kind(ctype(c)) == wanted)]
        self.note("IN a list of several kinds->its elements of the value's kind")
        if not kept:   # none of x's kind in a non-empty list: false, NULL for a NULL x
            return typed(tree("case_expr", tree("case_when", tree("is_null", value),
                                                tree("null_lit")), tree("false_lit")), "bool")
        items.children = kept
        kinds = {ctype(c) for c in kept if c.data != "null_lit"}
        items.ctype = f"list<{kinds.pop()}>" if len(kinds) == 1 else (  # type: ignore[attr-defined]
            "list<float>" if kinds else "list<null>")
        return None

    def pre_compare(self, node: Tree) -> Tree:
        if is_null_operation(node):
            self.note(NULL_OPERATION)
            return null_of_operation(node)
        chain = chained_comparison(node)
        if chain is None:
            note_null_free_operands(node)
            pairwise = compare_written_lists(node, self.nan_names)
            if pairwise is not None:
                self.note(CROSS_TYPES)
                return pairwise
            if self.nan_names is not None:
                mark_nan_comparison(node, self.nan_names)
            return node
        self.note(CHAIN_REWRITE)
        return chain

    def r_compare(self, node: Tree) -> Tree:
        if len(node.children) == 3 and str(node.children[1]) in ("<", "<=", ">", ">=") \
                and {node.child_types[0], node.child_types[2]} & {"point", POINT_2D}:
            # The Cypher Manual: points are not ordered, so `<` of them is NULL (the engines
            # compared the structs field by field: `a.center < b.center` held for 10 pairs).
            self.note("point < point->NULL")
            return tree("null_lit")
        across = compare_across_types(node)
        if across is not None:
            self.note(CROSS_TYPES)
            return across
        if self.target == "kuzu" and len(node.children) == 3 \
                and str(node.children[1]) in ("=", "<>", "!=") \
                and node.child_types[0] == node.child_types[2] \
                and node.child_types[0] in ("node", "rel"):
            # Kuzu 0.11.3 crashed (SIGSEGV) on `x <> l` of a collected node and a node of the
            # row in a lambda (`[x IN rooms WHERE x <> l]`, the sixteenth held-out round); the
            # same node is the same internal id, which it compares right.
            self.note("node = node->id(..) = id(..)")
            node.children[0] = call("id", node.children[0])
            node.children[2] = call("id", node.children[2])
            return node
        if getattr(node, "nan", False):
            self.note(NAN_COMPARISONS)
            return false_for_nan(node)
        return self._empty_text_by_length(node)

    def _text_test(self, node: Tree) -> Tree:
        across = text_test_on_non_text(node)
        if across is None:
            return node
        self.note(CROSS_TYPES)
        return across

    r_starts_with = r_ends_with = _text_test

    def r_regex(self, node: Tree) -> Tree:
        refuse_java_only_patterns(node)
        checked = self._text_test(node)
        if checked is not node:   # an operand that is no string: NULL
            return checked
        self.note("=~->neo4j_regex_match")
        return call("neo4j_regex_match", node.children[0], node.children[-1])

    def pre_case_expr(self, node: Tree) -> Tree:
        refuse_mixed_result(node)
        return node

    def _empty_text_by_length(self, node: Tree) -> Tree:
        """On Kuzu, a string compared with '' by length: Kuzu's `=` missed the '' pieces of
        `split()`'s result (`any(x IN split(s, 'R') WHERE x = '')` false) on a connection that
        had run other queries, while `size(x) = 0` holds for '' alone and is NULL for NULL, as
        `x = ''` is in Neo4j."""
        if self.target != "kuzu" or len(node.children) != 3:
            return node
        left, op, right = node.children
        if str(op) not in ("=", "<>", "!="):
            return node
        for text, other, kind in ((left, right, node.child_types[2]),
                                  (right, left, node.child_types[0])):
            if isinstance(text, Tree) and text.data == "str_lit" \
                    and not unquote_string(str(text.children[0])) and kind == "str":
                self.note("= ''->size() = 0")
                return tree("compare", call("size", other), op, int_lit(0))
        return node

    def r_contains(self, node: Tree) -> Tree:
        """`s CONTAINS ''` is true in Neo4j; both engines say false. Only a literal, non-empty
        search text needs nothing."""
        text, search = node.children
        if text_test_on_non_text(node) is not None:
            return self._text_test(node)
        if isinstance(search, Tree) and search.data == "str_lit" \
                and unquote_string(str(search.children[0])):
            return node
        self.note("CONTAINS->empty text is contained")
        return tree("case_expr",
                    tree("case_when", tree("or_", tree("is_null", clone(text)),
                                           tree("is_null", clone(search))), tree("null_lit")),
                    tree("case_when", tree("compare", call("size", clone(search)),
                                           Token("EQ", "="), int_lit(0)),
                         tree("true_lit")),
                    node)

    def _member(self, node: Tree, value: object, items: object, element: str,
                walk: bool) -> Tree:
        """Whether `value` (not NULL here) equals a non-NULL element. On Kuzu a list of strings
        is searched for '' by length: Kuzu's `list_contains` and `=` take a NULL element of such
        a list for '' (`'' IN ['', NULL]` came out NULL, `list_contains([NULL], '')` is true)
        and missed the '' of `split()`'s result on a connection that had run other queries,
        while `size(x) = 0` holds for '' alone. A non-empty value is searched with
        `list_contains` on the list itself, which no NULL element matches. A list a row holds
        (`walk`) is searched for '' by position: beside another lambda over it, both engines
        computed a lambda calling a function of a string element wrong (`WITH
        split(n.nodeSymbol, '1') AS xs RETURN '' IN xs, ('' IN xs) IS NULL` was false for
        'P31', whose split holds '')."""
        if self.target == "kuzu" and node.child_types[1] == "list<str>":
            empty = tree("compare", call("size", clone(value)), Token("EQ", "="), int_lit(0))
            piece = tree("index", clone(items), var(element)) if walk else var(element)
            empties = call("list_filter", call("range", int_lit(1), call("size", clone(items)))
                           if walk else clone(items), tree("lambda_", name(element), tree(
                               "compare", call("size", piece), Token("EQ", "="), int_lit(0))))
            found_empty = tree("compare", call("size", empties), Token("COMP_OP", ">"),
                               int_lit(0))
            found = call("list_contains", clone(items), clone(value))
            if isinstance(value, Tree) and value.data == "str_lit":  # known: one test
                return found if unquote_string(str(value.children[0])) else found_empty
            return tree("or_", tree("paren", tree("and_", empty, found_empty)),
                        tree("paren", tree("and_", tree("not_", tree("paren", clone(empty))),
                                           found)))
        if walk:
            present = call("list_transform", _positions_where(items, element, "is_not_null"),
                           tree("lambda_", name(element), tree("index", clone(items),
                                                               var(element))))
        else:
            present = call("list_filter", clone(items), tree(
                "lambda_", name(element), tree("is_not_null", var(element))))
        return tree("in_", clone(value), present)

    @staticmethod
    def _holds_null(items: object, element: str, walk: bool) -> Tree:
        found = _positions_where(items, element, "is_null") if walk \
            else call("list_filter", clone(items), tree("lambda_", name(element),
                                                        tree("is_null", var(element))))
        return tree("compare", call("size", found), Token("COMP_OP", ">"), int_lit(0))

    def r_list_literal(self, node: Tree) -> Tree:
        """A list of values of different types, as a struct that rows turn back into the list
        (`functions.MIXED_LIST_KEY`)."""
        if ctype(node) != "list<mixed>":
            return node
        self.note("mixed-type list->struct")
        return tree("map_literal", *[tree("map_entry", name(f"{MIXED_LIST_KEY}{i}"), child)
                                     for i, child in enumerate(node.children)])

    def r_map_projection(self, node: Tree) -> Tree:
        subject, *entries = node.children
        if any(entry.data == "proj_all" for entry in entries):
            return self.node_property_map(subject, ctype(subject), entries)
        fields = []
        for entry in entries:
            if entry.data == "proj_prop":
                fields.append(tree("map_entry", entry.children[0],
                                   prop(subject, plain_name(entry.children[0]))))
            else:
                fields.append(tree("map_entry", *entry.children))
        self.note("map projection->struct")
        projected = tree("map_literal", *fields)
        # Neo4j's projection of a NULL node or map is NULL, not a map of NULLs (which
        # collect() keeps, count() counts and coalesce() takes).
        if subject.data != "var":
            return projected
        return self._map_of(subject, projected)

    @staticmethod
    def _map_of(subject: Tree, projected: Tree) -> Tree:
        """The map of a node variable, NULL where the node is; marked when the node may be
        NULL (`_null_point_keys` reads the mark)."""
        result = null_when_null(subject, projected, always=getattr(subject, "element", False))
        result.map_of_nullable = getattr(subject, "nullable", True)  # type: ignore[attr-defined]
        return result

    def node_property_map(self, subject: Tree, kind: str, entries: list[Tree]) -> Tree:
        """`properties(n)` or `n {.*, ...}` of a node: a struct of the layout's keys its labels
        have (`functions.PROPERTIES_KEY` names the ones a NULL means absent), then the other
        entries; NULL for a NULL node. Where the labels are not known (a node from a list) a
        key of another label cannot be read."""
        if kind != "node" or subject.data != "var":
            raise DialectError("properties() or a map projection with .* of anything but a "
                               "node variable")
        keys = layout_keys(getattr(subject, "labels", None))
        if keys is None:   # a node of a pattern reads any label's keys; one from a list cannot
            if getattr(subject, "computed", True):
                raise DialectError("properties() or .* of a node whose labels are not known")
            keys = OBJECT_KEYS
        self.note("properties of a node->struct of the layout's keys")
        fields = {key: tree("map_entry", key_name(key), prop(clone(subject), key))
                  for key in keys}
        absent = list(keys)   # keys whose NULL means absent: those only `.*` brings
        for entry in entries:
            if entry.data in ("proj_prop", "proj_key"):
                # `.k` or `k: v` next to `.*`: the key is there, NULL or not (the later entry
                # wins in Neo4j)
                key = plain_name(entry.children[0])
                value = prop(clone(subject), key) if entry.data == "proj_prop" \
                    else entry.children[1]
                fields.pop(key, None)
                fields[key] = tree("map_entry", entry.children[0], value)
                if key in absent:
                    absent.remove(key)
        absent_keys = tree("str_lit", Token("STRING", quote_string(",".join(absent))))
        projected = tree("map_literal", tree("map_entry", name(PROPERTIES_KEY), absent_keys),
                         *fields.values())
        return self._map_of(subject, projected)

    def r_list_comp(self, node: Tree) -> Tree:
        binding, predicate, *mapping = node.children
        variable, source = self._binding(binding)
        result = call("list_filter", source, tree("lambda_", variable, predicate))
        if mapping:
            result = call("list_transform", result, tree("lambda_", variable, mapping[0]))
        self.note("list comprehension->list_filter/list_transform")
        return result

    def r_list_comp_map(self, node: Tree) -> Tree:
        binding, mapping = node.children
        variable, source = self._binding(binding)
        self.note("list comprehension->list_filter/list_transform")
        transformed = call("list_transform", source, tree("lambda_", variable, mapping))
        if walked(node):   # positions written in another type (`reduce_folds`)
            transformed.positions = True  # type: ignore[attr-defined]
        return transformed

    @staticmethod
    def _binding(node: object) -> tuple[Tree, object]:
        if not (isinstance(node, Tree) and node.data == "in_" and node.children[0].data == "var"):
            raise CypherSyntaxError("a list comprehension needs `variable IN list`")
        return node.children[0].children[0], node.children[1]

    def pre_arith(self, node: Tree) -> Tree:
        """A `+` chain that makes a string (`r.nodeSymbol + ':' + n`) as one `str_concat` of its
        terms: Neo4j concatenates a number's toString() and gives NULL when any term is NULL;
        Kuzu has no STRING + INT64 and takes a NULL string for ''. `||` is read as `+` first."""
        if is_null_operation(node):
            self.note(NULL_OPERATION)
            return null_of_operation(node)
        if str(node.children[1]) == "||" and "null" in map(ctype, node.children[::2]):
            self.note("||->+")
            return tree("null_lit")   # Kuzu has no STRING + NULL
        self._concatenation_as_plus(node)
        if str(node.children[1]) != "+" or ctype(node) != "str":
            return node
        terms: list[object] = []
        current: object = node
        while isinstance(current, Tree) and current.data == "arith" \
                and str(current.children[1]) == "+" and ctype(current) == "str":
            terms.insert(0, current.children[2])
            current = current.children[0]
        terms.insert(0, current)
        concat = tree("str_concat", *terms)
        concat.ctype = "str"  # type: ignore[attr-defined]
        return concat

    def _concatenation_as_plus(self, node: Tree) -> None:
        """`a || b` (Neo4j 5.19, GQL's concatenation) as `a + b` down the chain it heads: the
        same value where both are strings or both lists (a NULL operand: `pre_arith`). Neo4j
        raises on any other pair; where the operands' types are not known to be such a pair,
        refused."""
        current: object = node
        while isinstance(current, Tree) and current.data == "arith" \
                and str(current.children[1]) in ("+", "||"):
            if str(current.children[1]) == "||":
                left, right = (ctype(child) for child in current.children[::2])
                known = {left, right} - {"null"}
                if not (known <= {"str"} or all(t.startswith("list<") for t in known)):
                    raise DialectError("|| of operands not known to be two strings or two lists "
                                       f"({left} || {right}: Neo4j raises on other values)")
                self.note("||->+")
                current.children[1] = Token("ADD_OP", "+")
            current = current.children[0]

    def r_str_concat(self, node: Tree) -> Tree:
        self.note("string + value->NULL-aware concatenation")
        checks: list[Tree] = []
        parts: list[Tree] = []
        for term, kind in zip(node.children, node.child_types, strict=True):
            if kind == "null":
                return tree("null_lit")
            if not (isinstance(term, Tree) and term.data in NON_NULL_LITERALS):
                checks.append(tree("is_null", clone(term)))
            parts.append(as_string(term, kind if kind in ("int", "float", "number", FLOAT_SUM,
                                                          "bool") else "str"))
        joined: Tree = parts[0]
        for part in parts[1:]:
            joined = arith(joined, "+", part)
        if not checks:
            return joined
        test = checks[0]
        for check in checks[1:]:
            test = tree("or_", test, check)
        return tree("case_expr", tree("case_when", test, tree("null_lit")), joined)

    def r_arith(self, node: Tree) -> Tree:
        """`[1, 2] + 3` appends and `0 + [1]` prepends in Neo4j; Kuzu's + takes two lists."""
        op = str(node.children[1])
        if op in ("/", "%") and self.number_fields and UNKNOWN in node.child_types:
            raise DialectError("/ or % of a value of a map whose field is an integer in some "
                               "rows and a float in others (the engines hold it as a float)")
        if op in ("/", "%") and "number" in node.child_types:
            raise DialectError("/ or % of a value that is an integer in some rows and a float in "
                               "others (the engines hold it as a float: 3 / 2 would be 1.5)")
        if op in ("/", "%") and FLOAT_SUM in node.child_types and (
                "float" not in node.child_types or node.child_types[2] == FLOAT_SUM):
            self.note("/ or % of a float sum->neo4j_sum_arith")
            return call("neo4j_sum_arith", node.children[0], node.children[2],
                        tree("str_lit", Token("STRING", f"'{op}'")),
                        tree("true_lit" if node.child_types[0] == "int" else "false_lit"))
        if str(node.children[1]) != "+" or len(node.child_types) != 3:
            return node
        left, _op, right = node.child_types
        for side, other in ((0, right), (2, left)):
            # `names + [null]`: a list of NULLs is INT64[] to the engines; the other's type.
            kuzu_type = KUZU_SCALAR_TYPES.get(element(other))
            if kuzu_type and nothing_but_nulls(node.children[side]):
                self.note("list of NULLs->typed")
                node.children[side] = cast(node.children[side], f"{kuzu_type}[]")
        if left.startswith("list<") != right.startswith("list<") and UNKNOWN not in (left, right):
            self.note("list + value->list_append/list_prepend")
            if left.startswith("list<"):
                return call("list_append", node.children[0], node.children[2])
            return call("list_prepend", node.children[2], node.children[0])
        return node

    def r_call_distinct(self, node: Tree) -> Tree:
        fname = function_name(node.children[0]).lower()
        if fname in AGGREGATES and type_null_arguments(node):
            self.note(NULL_OPERATION)
        if fname == "collect" and len(node.children) == 3:
            # Neo4j keeps each value's first arrival (after an ORDER BY: the sorted order);
            # the engines' collect(DISTINCT) came out in hash order (`UNWIND ['sign', 'light',
            # 'decor', 'appliance', ...] AS x RETURN collect(DISTINCT x)` put 'trash' 4th).
            # list_distinct keeps first occurrences, and collect() the rows' order.
            self.note("collect(DISTINCT)->list_distinct(collect)")
            collected = call("collect", node.children[2])
            return call("list_distinct", call("coalesce", collected, tree("list_literal")))
        if fname in _COLLECTED_AGGREGATES:
            collected = tree("call_distinct", var("collect"), *node.children[1:3])
            return self._collected_aggregate(fname, collected, node.children[3:])
        return self._empty_aggregate(node, fname)

    def _collected_aggregate(self, fname: str, collected: Tree, rest: list) -> Tree:
        """`stDev(x)` as `neo4j_stdev(collect(x))`: collect() groups like the aggregate and skips
        NULLs as it does; the function (`functions.py`) computes Neo4j's value."""
        self.note(f"{fname}->{_COLLECTED_AGGREGATES[fname]}(collect)")
        # Kuzu's collect() of only NULLs is NULL; Neo4j's aggregates see no values.
        return call(_COLLECTED_AGGREGATES[fname], call("coalesce", collected, tree("list_literal")),
                    *rest)

    def r_call(self, node: Tree) -> Tree:
        fname = function_name(node.children[0]).lower()
        if fname in AGGREGATES and type_null_arguments(node):
            self.note(NULL_OPERATION)
        args = node.children[1:]
        refuse_type_errors(fname, node)
        if "list<mixed>" in node.child_types[1:] and fname not in ("collect", "coalesce"):
            raise DialectError(f"{fname}() of a list of mixed types (the engines hold it as a "
                               "struct)")
        if fname in ("any", "all", "none", "single") and self.target == "kuzu" \
                and len(args) == 1 and isinstance(args[0], Tree) and args[0].data == "where_arg":
            source = args[0].children[0].children[1]
            # Any list may be NULL but a literal and the path functions a shortest-path filter
            # reads (`path_filter.py` must still see none()/all() over nodes(p)).
            path_function = isinstance(source, Tree) and source.data == "call" and \
                function_name(source.children[0]).lower() in ("nodes", "relationships", "rels")
            if isinstance(source, Tree) and source.data != "list_literal" and not path_function:
                # Kuzu answers all(x IN NULL ...) with false; Neo4j with NULL.
                self.note("quantifier over NULL->NULL")
                return tree("case_expr", tree("case_when", tree("is_null", clone(source)),
                                              tree("null_lit")), node)
        handler = _FUNCTIONS.get(fname)
        if handler is not None:
            return handler(self, node, args)
        if getattr(node, "nan_order", False) and fname in ("min", "max"):
            self.note(NAN_AGGREGATES)   # `nan_values.py`
            return call(f"neo4j_{fname}_float", call(
                "coalesce", call("collect", args[0]), tree("list_literal")))
        if fname in _COLLECTED_AGGREGATES and args:
            if fname == "percentiledisc" and node.child_types[1] == "int":
                self.note("percentiledisc->neo4j_percentile_disc_int(collect)")
                return call("neo4j_percentile_disc_int", call(
                    "coalesce", call("collect", args[0]), tree("list_literal")), *args[1:])
            return self._collected_aggregate(fname, call("collect", args[0]), args[1:])
        if fname in UNSUPPORTED_FUNCTIONS:
            raise DialectError(f"{fname}() has no Kuzu equivalent")
        if fname.startswith(("apoc.", "gds.", "db.", "dbms.")):
            raise DialectError(f"{fname}() has no Kuzu equivalent")
        return node

    def _empty_aggregate(self, node: Tree, fname: str) -> Tree:
        if fname == "collect":
            self.note("collect->coalesce(collect, [])")
            return call("coalesce", node, tree("list_literal"))
        if fname == "sum":
            self.note("sum->coalesce(sum, 0)")
            total = call("coalesce", node, int_lit(0))
            if node.child_types[1:2] == ["int"]:
                return total
            self.note("sum->sum + 0")
            return _positive_zero(total, ctype(node))
        if fname == "avg":
            self.note("avg->avg + 0")
            return _positive_zero(node, ctype(node))
        return node


def _walk_positions(items: object) -> bool:
    """Whether `IN`'s NULL tests walk the list's positions: both engines evaluate `x IS NULL`
    in a lambda over a list a row holds (an UNWIND's, a WITH's, one built per row) against
    another row's list after a filter, or wrongly beside another lambda (`4 IN a` was false for
    `[3, 4]` after `WITH a WHERE a[0] = 3`); by position they are right. A literal list is
    the same in every row, and a list holding an aggregate cannot sit in a lambda."""
    if not isinstance(items, Tree) or items.data == "list_literal" or has_aggregate(items):
        return False
    # A list a row holds: a variable, or one read from a list or map variable. A list computed
    # in place (`split(n.nodeSymbol, '1')`) keeps the lambda: by position, its UDF would run
    # in a lambda, which a WHERE's XOR of two such tests then got wrong on Ladybug.
    return any(sub.data == "var" and ctype(sub).startswith(("list<", "map"))
               for sub in items.iter_subtrees())


def _positions_where(items: object, position: str, test: str) -> Tree:
    """The engine's (1-based) positions of `items` whose element passes `test` (`is_null` or
    `is_not_null`)."""
    return call("list_filter", call("range", int_lit(1), call("size", clone(items))),
                tree("lambda_", name(position), tree(test, tree("index", clone(items),
                                                                var(position)))))


def _point_values(node: Tree) -> list[Tree]:
    """The trees under `node` whose value itself is kept (not a field read off it, `p.x`, and
    not inside a subquery)."""
    found = []
    for child in node.children:
        if not isinstance(child, Tree) or child.data == "subquery":
            continue
        if child.data == "prop" and isinstance(child.children[0], Tree) \
                and child.children[0].data == "prop":
            continue   # `n.center.x`: the field, not the point
        found.append(child)
        found += _point_values(child)
    return found


def _positive_zero(total: Tree, total_type: str) -> Tree:
    """`(total + 0)`: Neo4j's sum() and avg() start from the integer 0 and add each value, so
    in Java they are never -0.0 (0 + (-0.0) is 0.0), where both engines give -0.0 for
    `sum(ceil(-0.5))` or `avg(ceil(-0.5))` (toString() then prints '-0.0'). Adding the integer
    0 turns -0.0 into 0.0, keeps every other value and keeps an integer sum an integer."""
    out = tree("paren", arith(total, "+", int_lit(0)))
    out.ctype = total_type  # type: ignore[attr-defined]
    return out


def _arity(fname: str, args: list[object], *counts: int) -> None:
    if len(args) not in counts:
        raise CypherSyntaxError(f"{fname}() takes {' or '.join(map(str, counts))} arguments")


def _to_integer(rw: Rewriter, node: Tree, args: list) -> Tree:
    _arity("toInteger", args, 1)
    (value,) = args
    if isinstance(value, Tree) and value.data == "int_lit":
        return value
    if node.child_types[1] == "str":   # Neo4j's parse: NULL for text that is no number
        rw.note("toInteger(text)->neo4j_to_integer")
        or_null = function_name(node.children[0]).lower() == "tointegerornull"
        return call("neo4j_to_integer_or_null" if or_null else "neo4j_to_integer", value)
    if node.child_types[1] == "bool":   # Neo4j: true 1, false 0 (the engines cannot CAST it)
        rw.note("toInteger(boolean)->CASE")
        return tree("case_expr", tree("case_when", tree("is_null", clone(value)),
                                      tree("null_lit")),
                    tree("case_when", value, int_lit(1)), int_lit(0))
    rw.note("toInteger->CAST")
    as_double = cast(value, "DOUBLE")
    # Neo4j truncates toward zero; Kuzu's CAST to INT64 rounds.
    truncated = arith(call("sign", as_double), "*", call("floor", call("abs", as_double)))
    return cast(truncated, "INT64")


def _sign(rw: Rewriter, node: Tree, args: list) -> Tree:
    """`sign(-0.0)` is 0 in Neo4j (Java's signum keeps -0.0, which becomes the integer 0); both
    engines say -1 (`sign(ceil(-0.5))`). Adding 0.0 turns -0.0 into 0.0 and keeps every other
    sign; an integer argument needs nothing."""
    _arity("sign", args, 1)
    if node.child_types[1] == "int":
        return node
    rw.note("sign->sign(x + 0.0)")
    signed = call("sign", arith(args[0], "+", tree("float_lit", Token("FLOAT", "0.0"))))
    # Java's signum of NaN is NaN, which Neo4j's integer result makes 0; the engines say -1.
    value = args[0]
    return tree("case_expr", tree("case_when", tree("compare", clone(value), Token(
        "COMP_OP", "<>"), clone(value)), int_lit(0)), signed) if rw.nan_names is not None \
        else signed


def _e(rw: Rewriter, node: Tree, args: list) -> Tree:
    """`e()`, which the engines lack: Java's `Math.E`, the same double as Python's."""
    _arity("e", args, 0)
    rw.note("e()->literal")
    return tree("float_lit", Token("FLOAT", repr(math.e)))


def _haversin(rw: Rewriter, node: Tree, args: list) -> Tree:
    """`haversin(x)`, which the engines lack: Neo4j computes `(1 - cos(x)) / 2`."""
    _arity("haversin", args, 1)
    rw.note("haversin->(1 - cos) / 2")
    return tree("paren", arith(tree("paren", arith(tree("float_lit", Token("FLOAT", "1.0")), "-",
                                                   call("cos", args[0]))),
                               "/", tree("float_lit", Token("FLOAT", "2.0"))))


def _float_result(fname: str) -> Callable[[Rewriter, Tree, list], Tree]:
    """`floor()` and `ceil()` return a FLOAT in Neo4j whatever the argument; the engines keep an
    integer argument's type (`floor(1)` is 1, where Neo4j gives 1.0)."""
    def rewrite(rw: Rewriter, node: Tree, args: list) -> Tree:
        _arity(fname, args, 1)
        if node.child_types[1] == "float":
            return node
        rw.note(f"{fname}->CAST(AS DOUBLE)")
        return cast(node, "DOUBLE")
    return rewrite


# Text as Neo4j parses it (`functions.py`): the UDF and the rewrite's name.
_TEXT_PARSES = {"toFloat": ("neo4j_to_float", "toFloat(text)->neo4j_to_float"),
                "toBoolean": ("neo4j_to_boolean", "toBoolean(text)->neo4j_to_boolean")}


def _simple_cast(kuzu_type: str, label: str) -> Callable[[Rewriter, Tree, list], Tree]:
    """`toFloat()`/`toBoolean()` as a CAST; of text, as Neo4j parses it (`_TEXT_PARSES`);
    `toBoolean()` of an integer is whether it is not 0 (`CypherFunctions.toBoolean`; the
    engines cannot CAST it)."""
    def rewrite(rw: Rewriter, node: Tree, args: list) -> Tree:
        _arity(label, args, 1)
        if node.child_types[1] == "str":
            udf, note = _TEXT_PARSES[label]
            rw.note(note)
            return call(udf, args[0])
        if label == "toBoolean" and node.child_types[1] == "int":
            rw.note("toBoolean(integer)-><> 0")
            return tree("compare", args[0], Token("COMP_OP", "<>"), int_lit(0))
        rw.note(f"{label}->CAST")
        return cast(args[0], kuzu_type)
    return rewrite


# What each `...OrNull` conversion converts (Neo4j's `CypherFunctions`): of any other known
# type it is NULL, where the conversion without OrNull raises.
_CONVERTED = {"tofloatornull": ("DOUBLE", {"int", "float", "number", FLOAT_SUM, "str"}),
              "tointegerornull": ("INT64", {"int", "float", "number", FLOAT_SUM, "str", "bool"}),
              "tobooleanornull": ("BOOLEAN", {"bool", "str", "int"}),
              "tostringornull": ("STRING", {"int", "float", "number", FLOAT_SUM, "str", "bool",
                                            "point", "point2d"})}


def _or_null(rewrite: Callable[[Rewriter, Tree, list], Tree]
             ) -> Callable[[Rewriter, Tree, list], Tree]:
    """An `...OrNull` conversion: NULL of a value of a known type it does not convert (a
    list, a map, a point, a node; a float for `toBooleanOrNull`, a boolean for
    `toFloatOrNull`), else `rewrite`."""
    def or_null(rw: Rewriter, node: Tree, args: list) -> Tree:
        kuzu_type, converted = _CONVERTED[function_name(node.children[0]).lower()]
        value_type = node.child_types[1] if len(args) == 1 else UNKNOWN
        if value_type in (UNKNOWN, "null") or value_type in converted:
            return rewrite(rw, node, args)
        rw.note("conversion of another type->NULL")
        typed_null = cast(tree("null_lit"), kuzu_type)
        # the argument is still evaluated, as Neo4j evaluates it
        return tree("case_expr", tree("case_when", tree("is_null", args[0]), typed_null),
                    clone(typed_null))
    return or_null


def _rename(kuzu_name: str, label: str, arity: int | None = None
            ) -> Callable[[Rewriter, Tree, list], Tree]:
    """A Neo4j function the engines spell `kuzu_name` (a built-in, or a UDF of
    `functions.py`); `arity` checked where the callee would not check it itself."""
    def rewrite(rw: Rewriter, node: Tree, args: list) -> Tree:
        if arity is not None:
            _arity(label.split("->")[0], args, arity)
        rw.note(label)
        return call(kuzu_name, *args)
    return rewrite


def _type(rw: Rewriter, node: Tree, args: list) -> Tree:
    """`type(r)` as `label(r)`; NULL for a NULL relationship (the engines give an OPTIONAL
    MATCH's unmatched relationship of one type that type's name)."""
    _arity("type", args, 1)
    rw.note("type->label")
    (arg,) = args
    if rw.target == "kuzu" and arg.data != "var":
        return call("label", arg)   # guarded with the struct read Kuzu needs there
    return null_when_null(arg, call("label", arg))


def _is_empty(rw: Rewriter, node: Tree, args: list) -> Tree:
    """`isEmpty(x)` of a list or a string: whether it has no element or character (NULL for
    NULL). A map's, or a value of a type the query does not show, is refused."""
    _arity("isEmpty", args, 1)
    (arg,) = args
    arg_type = node.child_types[1]
    rw.note("isEmpty->size() = 0")
    if arg_type.startswith("list<"):
        return tree("compare", call("size", arg), Token("EQ", "="), int_lit(0))
    if arg_type == "str":
        return tree("compare", arg, Token("EQ", "="), tree("str_lit", Token("STRING", "''")))
    raise DialectError("isEmpty() of a map, or of a value the query does not show to be a "
                       "list or a string")


def _labels(rw: Rewriter, node: Tree, args: list) -> Tree:
    """`labels(x)` as the one-label list `[label(x)]`; NULL for a NULL node (Neo4j), where the
    list would hold NULL. A variable no OPTIONAL MATCH bound is never NULL."""
    _arity("labels", args, 1)
    rw.note("labels->[label()]")
    (arg,) = args
    return null_when_null(arg, tree("list_literal", call("label", arg)))


def _point(rw: Rewriter, node: Tree, args: list) -> Tree:
    _arity("point", args, 1)
    (spec,) = args
    if not (isinstance(spec, Tree) and spec.data == "map_literal"):
        raise DialectError("point() of anything but a {x, y[, z]} map")
    fields = {plain_name(e.children[0]).lower(): e.children[1] for e in spec.children}
    crs = fields.pop("crs", None)
    fields.pop("srid", None)
    if crs is not None and not (isinstance(crs, Tree) and crs.data == "str_lit"
                                and "cartesian" in str(crs.children[0]).lower()):
        raise DialectError("geographic points (crs other than cartesian)")
    if set(fields) not in ({"x", "y"}, {"x", "y", "z"}):
        raise DialectError("point() other than cartesian {x, y[, z]}")
    rw.note("point->struct")
    entries = []
    computed = []   # coordinates that may be NULL
    for axis in ("x", "y", "z"):
        if axis in fields:
            value = fields[axis]
            if isinstance(value, Tree) and value.data == "int_lit":
                value = tree("float_lit", Token("FLOAT", f"{int(str(value.children[0]), 0)}.0"))
            elif not (isinstance(value, Tree) and value.data == "float_lit"):
                computed.append(value)
                value = cast(value, "DOUBLE")
            entries.append(tree("map_entry", name(axis), value))
    point = tree("map_literal", *entries)
    if not computed:
        return point
    # The Cypher Manual: a NULL argument gives a NULL point (the struct would hold NULLs, and
    # count(), coalesce(), IS NULL and collect() would take it for a point).
    return tree("case_expr", tree("case_when", any_of([tree("is_null", clone(v))
                                                        for v in computed]), tree("null_lit")),
                point)


def _axes(point: object, point_type: str) -> tuple[str, ...] | None:
    """The axes of a point argument (rewritten: a point literal is a map by now); None for
    a value not known to be a point."""
    if isinstance(point, Tree) and point.data == "map_literal":
        return tuple(plain_name(e.children[0]) for e in point.children)
    return {"point": ("x", "y", "z"), POINT_2D: ("x", "y")}.get(point_type)


def _distance(label: str) -> Callable[[Rewriter, Tree, list], Tree]:
    def rewrite(rw: Rewriter, node: Tree, args: list) -> Tree:
        _arity(label, args, 2)
        a, b = args
        a_axes, b_axes = _axes(a, node.child_types[1]), _axes(b, node.child_types[2])
        if "null" in node.child_types[1:] or (a_axes and b_axes and set(a_axes) != set(b_axes)):
            rw.note(f"{label}->sqrt")
            # A 2D and a 3D point have no distance in Neo4j; a typed NULL, which an aggregate
            # over it can read (a bare NULL has type ANY: "vector with ANY type" on Ladybug).
            return cast(tree("null_lit"), "DOUBLE")
        if a_axes is None or b_axes is None:
            raise DialectError(f"{label}() of a value the query does not show to be a 2-D or "
                               "3-D point")
        axes = list(a_axes)
        rw.note(f"{label}->sqrt")
        total: Tree | None = None
        for axis in axes:
            term = arith(tree("paren", arith(rw.point_field(prop(clone(a), axis)), "-",
                                             rw.point_field(prop(clone(b), axis)))),
                         "^", int_lit(2))
            total = term if total is None else arith(total, "+", term)
        return call("sqrt", total)
    return rewrite


def _within_bbox(rw: Rewriter, node: Tree, args: list) -> Tree:
    """`point.withinBBox(p, lowerLeft, upperRight)`: Neo4j's cartesian calculator tests each
    coordinate against the two corners, both ends included; NULL where an argument is NULL or
    the three points are not of one coordinate system (a 2-D box around a 3-D centre)."""
    _arity("point.withinBBox", args, 3)
    kinds = node.child_types[1:]
    rw.note("point.withinBBox->coordinate comparisons")
    if "null" in kinds or (set(kinds) == {"point", POINT_2D}):
        return cast(tree("null_lit"), "BOOL")
    if len(set(kinds)) != 1 or kinds[0] not in ("point", POINT_2D):
        raise DialectError("point.withinBBox() of values the query does not show to be points "
                           "of one cartesian coordinate system")
    point, low, high = args
    tests = []
    for axis in _axes(point, kinds[0]) or ():
        field = rw.point_field(prop(clone(point), axis))
        tests += [tree("compare", rw.point_field(prop(clone(low), axis)), Token("COMP_OP", "<="),
                       field),
                  tree("compare", clone(field), Token("COMP_OP", "<="),
                       rw.point_field(prop(clone(high), axis)))]
    may_be_null = [tree("is_null", clone(a)) for a in args
                   if not (isinstance(a, Tree) and a.data == "map_literal")]
    if not may_be_null:
        return tree("paren", all_of(tests))
    return tree("case_expr", tree("case_when", any_of(may_be_null), tree("null_lit")),
                tree("paren", all_of(tests)))


def _head(rw: Rewriter, node: Tree, args: list) -> Tree:
    _arity("head", args, 1)
    rw.note("head/last->index")
    return _safe_index(args[0], int_lit(1), element(node.child_types[1]), first=True)


def _last(rw: Rewriter, node: Tree, args: list) -> Tree:
    _arity("last", args, 1)
    rw.note("head/last->index")
    return _safe_index(args[0], tree("unary", Token("ADD_OP", "-"), int_lit(1)),
                       element(node.child_types[1]), first=False)


def _null_list(kuzu_type: str) -> Tree:
    """`[NULL]` as a list of `kuzu_type` (a bare `[NULL]` is INT64[] to the engines)."""
    return cast(tree("list_literal", tree("null_lit")), f"{kuzu_type}[]")


def _safe_index(lst: object, index: Tree, element_type: str, first: bool) -> Tree:
    """The first or last element, NULL for an empty list as in Neo4j (Kuzu's list_extract
    fails). A list of scalars gets a typed NULL on the far end, so the read never fails: a
    CASE on the size was evaluated for every row where its list held a lambda (`head([x IN cs
    WHERE x = 'floor'])` failed as soon as one row had no floor). Other lists are read at a
    NULL index where they are empty."""
    kuzu_type = KUZU_SCALAR_TYPES.get(element_type)
    if kuzu_type is not None:
        pad = _null_list(kuzu_type)
        padded = call("list_concat", lst, pad) if first else call("list_concat", pad, lst)
        return tree("index", padded, index)
    # No typed NULL to pad a list of nodes or structs with: an empty list is read at a NULL
    # index, which gives NULL (a CASE around the read evaluated it on every row, and failed).
    return tree("index", lst, tree("case_expr", tree("case_when", tree(
        "compare", call("size", clone(lst)), Token("EQ", "="), int_lit(0)), tree("null_lit")),
        index))


def _tail(rw: Rewriter, node: Tree, args: list) -> Tree:
    _arity("tail", args, 1)
    rw.note("tail->list_slice")
    return call("list_slice", args[0], int_lit(2), call("size", args[0]))


def _positions_checked(fname: str, node: Tree, args: list, first: int) -> bool:
    """Whether the lengths and starts from `args[first]` on need Neo4j's checks
    (`text_functions.py`): anything but an integer literal. A float or a negative literal is
    refused."""
    for i in range(first, len(args)):
        if node.child_types[i + 1] in ("float", "number", FLOAT_SUM):
            raise DialectError(f"{fname}() with a length or start that is a float")
        value = _int_value(args[i])
        if value is not None and value < 0:
            # Neo4j raises where it evaluates the call; the engines may evaluate it on rows
            # Neo4j never reaches (a WHERE pushed into a scan), so the model is not charged.
            raise DialectError(f"{fname}() with a negative length or start (Neo4j raises an "
                               "error where it evaluates it)")
    return any(_int_value(arg) is None for arg in args[first:])


def _left_right(fname: str) -> Callable[[Rewriter, Tree, list], Tree]:
    """`left(s, n)` and `right(s, n)`: the engines' own where n is a literal they agree on."""
    def rewrite(rw: Rewriter, node: Tree, args: list) -> Tree:
        _arity(fname, args, 2)
        if not _positions_checked(fname, node, args, 1) and not rw.non_ascii:
            return node
        rw.note(f"{fname}->neo4j_{fname}")
        return call(f"neo4j_{fname}", *args)
    return rewrite


def _substring(rw: Rewriter, node: Tree, args: list) -> Tree:
    _arity("substring", args, 2, 3)
    if _positions_checked("substring", node, args, 1) or rw.non_ascii:
        rw.note("substring->neo4j_substring")
        return call("neo4j_substring" if len(args) == 3 else "neo4j_substring_from", *args)
    rw.note("substring->1-based")
    text, start = args[0], args[1]
    length = args[2] if len(args) == 3 else call("size", text)
    return call("substring", text, int_lit(_int_value(start) + 1), length)  # type: ignore[operator]


def _round(rw: Rewriter, node: Tree, args: list) -> Tree:
    """Neo4j's round(x) and round(x, 0) are Java's Math.round (`java_numbers.java_math_round`:
    ties up, -1.5 -> -1.0, held to a long); Kuzu's round goes away from zero. With a precision
    or a rounding mode Neo4j rounds the decimal digits Java prints (`functions.neo4j_round`)."""
    _arity("round", args, 1, 2, 3)
    kind = node.child_types[1]
    if kind not in (*NUMBERS, "null", UNKNOWN, "mixed"):
        # the CASTs below would read a number from text; Neo4j raises a type error
        raise DialectError(f"round() of a {kind} (Neo4j raises a type error)")
    # An element of a list of mixed kinds (`[['a', 0.5]][0][1]`): Neo4j rounds a number and
    # raises for anything else. The engines hold each position as one type, and the UDFs take
    # a number (an integer widened) and refuse text or a boolean when they bind the query
    # (`dialect`): no CAST, which would read a number from text.
    value = args[0] if kind == "mixed" else cast(args[0], "DOUBLE")
    if len(args) == 1 or (len(args) == 2 and _int_value(args[1]) == 0):
        rw.note("round(x)->neo4j_math_round")
        return call("neo4j_math_round", value)
    rw.note("round(x, precision)->neo4j_round")
    mode = args[2] if len(args) == 3 else tree("str_lit", Token("STRING", "''"))
    return call("neo4j_round", value, cast(args[1], "INT64"), mode)


def _exists(rw: Rewriter, node: Tree, args: list) -> Tree:
    # exists() of a pattern became a subquery before; of a property it is a syntax error in
    # Neo4j 5 (`removed_syntax`).
    raise DialectError("exists() of anything but a pattern")


def _is_reduce(args: list) -> bool:
    """`reduce(acc = init, x IN list | step)` as the grammar reads it."""
    return len(args) == 2 and isinstance(args[0], Tree) and args[0].data == "compare" \
        and len(args[0].children) == 3 and args[0].children[0].data == "var" \
        and str(args[0].children[1]) == "=" and isinstance(args[1], Tree) \
        and args[1].data == "pipe_arg" and isinstance(args[1].children[0], Tree) \
        and args[1].children[0].data == "in_" and args[1].children[0].children[0].data == "var"


def _reduce(rw: Rewriter, node: Tree, args: list) -> Tree:
    _arity("reduce", args, 2)
    if not _is_reduce(args):
        raise CypherSyntaxError("reduce() needs `accumulator = initial, x IN list | expr`")
    init, body = args
    variable, source = Rewriter._binding(body.children[0])
    accumulator = init.children[0].children[0]
    if affected(plain_name(variable), source,
                [without(body.children[1], plain_name(accumulator))], written=True):
        # (`captures.affected`: a list of nodes or structs a row holds, whatever the step
        # reads, unless every row holds the same list; a list of scalars a WITH passed on,
        # where the step reads the row, tests for NULL or calls a UDF)
        raise DialectError("reduce() over a list the engines' lambdas read from another row "
                           "(a list of nodes or structs a row holds, whatever the step reads, "
                           "or a list a WITH passed on whose step reads the row)")
    rw.note("reduce->list_reduce")
    seeded = call("list_concat", tree("list_literal", init.children[2]), source)
    return call("list_reduce", seeded, tree("lambda2", accumulator, variable, body.children[1]))


def _aggregate(rw: Rewriter, node: Tree, args: list) -> Tree:
    return rw._empty_aggregate(node, function_name(node.children[0]).lower())


def as_string(value: object, value_type: str) -> Tree:
    """`value` as the text Neo4j's toString() gives for a value of `value_type`."""
    if value_type == "str":
        return value  # type: ignore[return-value]
    if value_type == "int":
        return cast(value, "STRING")
    if value_type == "float":
        return call("neo4j_double_string", value)
    if value_type == FLOAT_SUM:
        return call("neo4j_sum_string", value)
    if value_type == "bool":
        return call("neo4j_bool_string", value)
    if value_type == "null":
        return tree("null_lit")
    if value_type in ("point", POINT_2D):
        return _point_text(value, ("x", "y", "z") if value_type == "point" else ("x", "y"))
    what = "a value whose type the query does not show" if value_type == "?" else \
        "a value that is an integer in some rows and a float in others" \
        if value_type == "number" else f"a value of type {value_type}"
    raise DialectError(f"toString() of {what} (Kuzu prints floats and booleans differently)")


def _point_text(point: object, axes: tuple[str, ...]) -> Tree:
    """Neo4j's text of a cartesian point (`PointValue.toString`): `point({x: 1.0, y: 2.5,
    crs: 'cartesian'})`, with `z` and crs 'cartesian-3d' in 3-D; NULL for NULL (tested first:
    Kuzu reads stale fields of a NULL struct)."""
    def text(part: str) -> Tree:
        return tree("str_lit", Token("STRING", quote_string(part)))
    joined: Tree = text("point({")
    for i, axis in enumerate(axes):
        joined = arith(arith(joined, "+", text(f"{', ' if i else ''}{axis}: ")), "+",
                       call("neo4j_double_string", prop(clone(point), axis)))
    crs = "cartesian-3d" if len(axes) == 3 else "cartesian"
    return tree("case_expr", tree("case_when", tree("is_null", clone(point)), tree("null_lit")),
                arith(joined, "+", text(f", crs: '{crs}'}})")))


def _to_string(rw: Rewriter, node: Tree, args: list) -> Tree:
    _arity("toString", args, 1)
    rw.note("toString->by type")
    return as_string(args[0], node.child_types[1])


def _reverse(rw: Rewriter, node: Tree, args: list) -> Tree:
    """reverse() of a list reverses the list (Kuzu's reverse() prints it as text first)."""
    _arity("reverse", args, 1)
    kind = node.child_types[1]
    if kind.startswith("list<"):
        rw.note("reverse(list)->list_reverse")
        return call("list_reverse", args[0])
    if kind in ("str", "null"):
        if rw.non_ascii:   # by code point, as Java's StringBuilder.reverse
            rw.note("reverse(text)->neo4j_reverse")
            return call("neo4j_reverse", args[0])
        return node
    raise DialectError("reverse() of a value whose type the query does not show")


def _size(rw: Rewriter, node: Tree, args: list) -> Tree:
    """size() of text counts code points in Neo4j; the engines count grapheme clusters,
    which differ beyond ASCII (a query with only ASCII text reads ASCII properties here)."""
    _arity("size", args, 1)
    if rw.non_ascii and node.child_types[1] in ("str", UNKNOWN):
        rw.note("size(text)->neo4j_text_size")
        if node.child_types[1] == "str":
            return call("neo4j_text_size", args[0])
        raise DialectError("size() of a value whose type the query does not show, in a query "
                           "with text beyond ASCII")
    return call("size", args[0])   # (char_length and character_length too)


def _length(rw: Rewriter, node: Tree, args: list) -> Tree:
    """`length(q)` of a path no MATCH names (an element of `collect(p)` read back by UNWIND,
    a comprehension or an index) is the number of its relationships, as Neo4j's length() of
    any path is. The engines' LENGTH() takes only a path a MATCH binds: Ladybug refuses the
    others ("LENGTH() expects a path or recursive relationship as input"), Kuzu fails an
    assertion; `size(rels(q))` reads such a path on both."""
    _arity("length", args, 1)
    (path,) = args
    if isinstance(path, Tree) and path.data == "var" and plain_name(path.children[0]) in \
            rw.path_names:
        return node
    rw.note("length(path of a list)->size(rels())")
    return call("size", call("rels", path))


def _split(rw: Rewriter, node: Tree, args: list) -> Tree:
    _arity("split", args, 2)
    if node.child_types[2].startswith("list<"):
        raise DialectError("split() on a list of delimiters")
    rw.note("split->neo4j_split")
    return call("neo4j_split", *args)


def _replace(rw: Rewriter, node: Tree, args: list) -> Tree:
    _arity("replace", args, 3)
    rw.note("replace->neo4j_replace")
    return call("neo4j_replace", *args)


def _trim(ends: str, label: str) -> Callable[[Rewriter, Tree, list], Tree]:
    """trim()/ltrim()/rtrim() (and Neo4j 5's btrim() and two-argument forms) as UDFs: the
    engines' own return garbage for a short result of a long text (`text_functions.py`)."""
    def rewrite(rw: Rewriter, node: Tree, args: list) -> Tree:
        _arity(label, args, 1, 2)
        if getattr(node, "trim_from", False) and len(args) == 2 and not (
                isinstance(args[1], Tree) and args[1].data == "str_lit"
                and len(unquote_string(str(args[1].children[0]))) == 1):
            raise DialectError("trim(.. c FROM s) with a c that is not one character (SQL's "
                               "trim takes one; Neo4j's answer for more is not known here)")
        mode = tree("str_lit", Token("STRING", f"'{ends}'"))
        rw.note(f"{label}->neo4j_trim")
        if len(args) == 1:
            return call("neo4j_trim", args[0], mode)
        return call("neo4j_trim_character", args[0], args[1], mode)
    return rewrite


def _normalize(rw: Rewriter, node: Tree, args: list) -> Tree:
    """normalize(s[, NFC|NFD|NFKC|NFKD]): the form is a keyword (the parser's `normal_form`),
    NFC by default; anything else there is Neo4j's "Invalid normal form"."""
    _arity("normalize", args, 1, 2)
    if len(args) == 2 and not (isinstance(args[1], Tree) and args[1].data == "normal_form"):
        raise CypherSyntaxError("Invalid normal form, expected NFC, NFD, NFKC, NFKD")
    form = str(args[1].children[0]) if len(args) == 2 else "NFC"
    rw.note("normalize->neo4j_normalize")
    return call("neo4j_normalize", args[0], tree("str_lit", Token("STRING", f"'{form}'")))


def _outside_load_csv(rw: Rewriter, node: Tree, args: list) -> Tree:
    """file() and linenumber(): NULL outside LOAD CSV (the Cypher Manual), which no read
    query here has."""
    _arity(function_name(node.children[0]), args, 0)
    rw.note("file/linenumber->NULL")
    return tree("null_lit")


def _java_angle(factor: float, label: str) -> Callable[[Rewriter, Tree, list], Tree]:
    """degrees()/radians() as Java's Math.toDegrees/toRadians compute them: one product by a
    constant (the engines divide by pi, which differs in the last bit)."""
    def rewrite(rw: Rewriter, node: Tree, args: list) -> Tree:
        _arity(label, args, 1)
        rw.note(f"{label}->Java's product")
        return arith(call("CAST", tree("cast_arg", args[0], name("DOUBLE"))), "*",
                     tree("float_lit", Token("FLOAT", repr(factor))))
    return rewrite


def _keys(rw: Rewriter, node: Tree, args: list) -> Tree:
    """keys(n): the layout's property names that are not NULL on n (an object without a box has
    no bbox keys); NULL for a NULL node. The same of a node's `properties()` held in a variable
    (its struct has the layout's keys, NULL where the node has none)."""
    _arity("keys", args, 1)
    kind = node.child_types[1]
    stored = kind.fields if isinstance(kind, WrittenMap) and kind.stored else None
    if kind != "node" and stored is None:
        raise DialectError("keys() of anything but a node or its properties()")
    rw.note("keys->layout properties")
    subject = args[0]
    labels = getattr(subject, "labels", None)

    def present(keys: tuple[str, ...]) -> Tree:
        names = []
        for key in keys:
            text = tree("str_lit", Token("STRING", quote_string(key)))
            if key in NODE_KEYS:
                names.append(text)  # every node has these (empty text where the file has none)
            else:
                names.append(tree("case_expr", tree("case_when", tree(
                    "is_null", prop(clone(subject), key)), tree("null_lit")), text))
        if len(names) == len(keys) and all(k in NODE_KEYS for k in keys):
            return tree("list_literal", *names)
        element = rw.names.fresh("_k")
        return call("list_filter", tree("list_literal", *names),
                    tree("lambda_", name(element), tree("is_not_null", var(element))))
    keys = tuple(stored) if stored is not None else layout_keys(labels)
    by_label = present(keys) if keys is not None else tree(
        "case_expr", call("label", clone(subject)),
        tree("case_when", tree("str_lit", Token("STRING", "'Object'")), present(OBJECT_KEYS)),
        present(NODE_KEYS))
    return tree("case_expr", tree("case_when", tree("is_null", clone(subject)),
                                  tree("null_lit")), by_label)


def _properties(rw: Rewriter, node: Tree, args: list) -> Tree:
    """`properties(n)`: the node's properties as Neo4j's map (`Rewriter.node_property_map`); Kuzu's
    own `properties(list, key)` passes through. (Ladybug's own properties(n) keeps a key whose
    value is NULL: an object without a box had `bbox_center: null`, absent in Neo4j.)"""
    if len(args) == 2:
        return node
    _arity("properties", args, 1)
    return rw.node_property_map(args[0], node.child_types[1], [])


def _element_id(rw: Rewriter, node: Tree, args: list) -> Tree:
    _arity("elementId", args, 1)
    rw.note("elementId->CAST(id)")
    # Neo4j's element ids are opaque strings; the internal id as text is one too, unique and
    # stable within a database, so comparisons that break symmetry keep their meaning. Neo4j 5
    # writes its own as '4:<database>:<id>': never equal to the text of an id() (`elementId(n) =
    # toString(id(n))` is false there), so the engine's gets a prefix of the same kind.
    return null_when_null(args[0], arith(tree("str_lit", Token("STRING", "'4:'")), "+",
                                         cast(call("id", clone(args[0])), "STRING")))


# Neo4j aggregates computed by a function of collect(x) (dsgqa/dialect/functions.py).
_COLLECTED_AGGREGATES = {
    "stdev": "neo4j_stdev", "stdevp": "neo4j_stdevp",
    "percentilecont": "neo4j_percentile_cont", "percentiledisc": "neo4j_percentile_disc",
}
assert set(_COLLECTED_AGGREGATES.values()) <= set(UDFS)


_FUNCTIONS: dict[str, Callable[[Rewriter, Tree, list], Tree]] = {
    "tointeger": _to_integer,
    "tointegerornull": _or_null(_to_integer),
    "tofloat": _simple_cast("DOUBLE", "toFloat"),
    "tofloatornull": _or_null(_simple_cast("DOUBLE", "toFloat")),
    "tostring": _to_string,
    "tostringornull": _or_null(_to_string),
    "toboolean": _simple_cast("BOOLEAN", "toBoolean"),
    "tobooleanornull": _or_null(_simple_cast("BOOLEAN", "toBoolean")),
    "type": _type,
    # The engines' log() is base 10; Neo4j's is the natural logarithm.
    "log": _rename("ln", "log->ln"),
    "e": _e,
    "exp": _rename("neo4j_exp", "exp->neo4j_exp", arity=1),
    "isnan": _rename("neo4j_is_nan", "isNaN->neo4j_is_nan", arity=1),
    "haversin": _haversin,
    "floor": _float_result("floor"),
    "ceil": _float_result("ceil"),
    "labels": _labels,
    "isempty": _is_empty,
    "relationships": _rename("rels", "relationships->rels"),
    "split": _split,
    "reverse": _reverse,
    "replace": _replace,
    "trim": _trim("both", "trim"),
    "btrim": _trim("both", "btrim"),
    "ltrim": _trim("leading", "ltrim"),
    "rtrim": _trim("trailing", "rtrim"),
    "keys": _keys,
    "size": _size,
    "length": _length,
    "char_length": _size,
    "character_length": _size,
    "normalize": _normalize,
    "file": _outside_load_csv,
    "linenumber": _outside_load_csv,
    # Java's RADIANS_TO_DEGREES and DEGREES_TO_RADIANS (JDK 9 and later).
    "degrees": _java_angle(180.0 / math.pi, "degrees"),
    "radians": _java_angle(math.pi / 180.0, "radians"),
    "properties": _properties,
    "elementid": _element_id,
    "point": _point,
    "point.distance": _distance("point.distance"),
    "point.withinbbox": _within_bbox,
    "head": _head,
    "last": _last,
    "tail": _tail,
    "substring": _substring,
    "left": _left_right("left"),
    "right": _left_right("right"),
    # Java's full case mapping ('ß' -> 'SS'); the engines map one code point to one.
    "toupper": _rename("neo4j_to_upper", "toUpper->neo4j_to_upper", arity=1),
    "upper": _rename("neo4j_to_upper", "upper->neo4j_to_upper", arity=1),
    "tolower": _rename("neo4j_to_lower", "toLower->neo4j_to_lower", arity=1),
    "lower": _rename("neo4j_to_lower", "lower->neo4j_to_lower", arity=1),
    "round": _round,
    "sign": _sign,
    "exists": _exists,
    "reduce": _reduce,
    "collect": _aggregate,
    "sum": _aggregate,
    "avg": _aggregate,
}

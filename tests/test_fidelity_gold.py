"""The fidelity set's committed solutions are the Python gold answers, and the set is broad.

The gold side is checked on its own (no Cypher engine involved): the YAML solutions equal what
tests/fidelity_gold.py computes from the JSON, and that module's reading of the JSON agrees with
spark_dsg's own (parents, children, siblings), which is where Heracles takes its edges from.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from dsgqa.questions import load_question_set
from dsgqa.sldp import Point, SLDPDict, SLDPList, SLDPSet, parse_sldp, sldp_equals
from tests import external, fidelity_gold

QUESTIONS = load_question_set(fidelity_gold.QUESTIONS).questions
CATEGORIES = ("counting", "sets", "dicts", "ordered_lists", "points", "distance", "hierarchy",
              "adjacency", "paths", "aggregation", "optional", "layout", "empty", "ties",
              "directed", "undirected", "var_length")
IDIOMS = {
    "idiom-toInteger": "toInteger(", "idiom-toFloat": "toFloat(", "idiom-toString": "toString(",
    "idiom-point-literal": "point({", "idiom-point-distance": "point.distance(",
    "idiom-shortestPath": "shortestPath(", "idiom-allShortestPaths": "allShortestPaths(",
    "idiom-type": "type(", "idiom-labels": "labels(", "idiom-size": "size(",
    "idiom-coalesce": "coalesce(", "idiom-collect-distinct": "collect(DISTINCT",
    "idiom-case": "CASE", "idiom-optional-match": "OPTIONAL MATCH", "idiom-round": "round(",
    "idiom-exists-subquery": "EXISTS {", "idiom-list-comprehension": " IN ",
    "idiom-with-order-by": "ORDER BY", "idiom-bbox": "bbox_", "idiom-unwind": "UNWIND ",
    "idiom-count-subquery": "COUNT {", "idiom-head": "head(", "idiom-reduce": "reduce(",
    "idiom-any": "any(", "idiom-is-null": "IS NULL", "idiom-sqrt": "sqrt(", "idiom-skip": "SKIP ",
    "idiom-startNode": "startNode(", "idiom-in-list": " IN [", "idiom-pattern-predicate": "NOT (",
    "idiom-return-center": ".center", "idiom-return-node": "RETURN DISTINCT o",
    "idiom-collect": "collect(", "idiom-relationship-uniqueness": "]-",
    # Neo4j 5 idioms without a direct Kuzu form; a pattern where one substring cannot say it.
    "idiom-aggregate-in-order-by": re.compile(r"ORDER BY (count|avg|sum|min|max)\("),
    "idiom-string-concat": "' + ", "idiom-split": "split(", "idiom-mixed-list": "collect([",
    "idiom-stDev": "stDev(", "idiom-stDevP": "stDevP(", "idiom-percentileCont": "percentileCont(",
    "idiom-percentileDisc": "percentileDisc(", "idiom-replace": "replace(", "idiom-keys": "keys(",
    "idiom-properties": "properties(", "idiom-elementId": "elementId(",
    "idiom-negative-index": re.compile(r"\[-\d+\]"),
    "idiom-negative-slice": re.compile(r"\[(-\d+\.\.|\d*\.\.-\d+)\]"),
    "idiom-pattern-comprehension": re.compile(r"\[\([^|]*\|"),
    "idiom-pattern-comprehension-where": re.compile(r"\[\([^|]* WHERE [^|]*\|"),
    "idiom-alias-shadows-variable": re.compile(r"RETURN (\w+)\.\w+ AS \1\b"),
    "idiom-index-property": re.compile(r"\[-?\d+\]\.\w"),
    "idiom-optional-point-field": re.compile(r"OPTIONAL MATCH .*\b(\w+)\b.*\1\.center"),
    "idiom-shortestPath-where": re.compile(r"shortestPath\(.*\)\s+WHERE (none|all)\("),
    "idiom-union": re.compile(r"\bUNION\b"),
    "idiom-chained-comparison": re.compile(r"[<>]=? [\w.]+ [<>]=? "),
    "idiom-cross-product": re.compile(r"MATCH \([^()]*\), \("),
    "idiom-all-abs": re.compile(r"WITH .* WHERE .*all\(\w+ IN \w+ WHERE abs\("),
    "idiom-call-subquery": re.compile(r"\bCALL\s*(\(\w*\)\s*)?\{"),
    "idiom-nested-quantifier": re.compile(r"\[\w+ IN \w+ WHERE (any|all|none)\(\w+ IN "),
    "idiom-regex-lookaround": "=~ '^(?!",
    "idiom-call-with": re.compile(r"\bCALL\s*\(\w+\)\s*\{\s*MATCH [^}]* WITH "),
    "idiom-reduce-distinct": re.compile(r"reduce\(\w+ = \[\], .*CASE WHEN \w+ IN \w+ THEN"),
    "idiom-map-projection": re.compile(r"\w+ \{\.\w+"),
    "idiom-head-collect": "head(collect(",
    "idiom-double-bar": " || ",
    "idiom-keyword-alias": re.compile(r"\bAS (all|any|index|union|exists|single|none)\b"),
    "idiom-map-projection-all": re.compile(r"\w+ \{\.\*"),
    "idiom-unwind-range": "UNWIND range(",
    "idiom-distinct-limit": re.compile(r"WITH DISTINCT [^\n]* LIMIT \d"),
    "idiom-none-null-test": re.compile(r"none\(\w+ IN nodes\(\w+\) WHERE \w+\.bbox_"),
    "idiom-any-null-test": re.compile(r"any\(\w+ IN \w+ WHERE \w+\.bbox_"),
    "idiom-ratio-nan": re.compile(r"\) / toFloat\(count\("),
    "idiom-point-null": re.compile(r"coalesce\(point\(\{"),
    "idiom-startNode-path-index": re.compile(r"startNode\(relationships\(\w+\)\[-?\d+\]\)"),
    "idiom-collect-subquery-distinct": re.compile(r"COLLECT \{[^}]*RETURN DISTINCT"),
}


@pytest.fixture(scope="module")
def graph() -> fidelity_gold.Graph:
    return fidelity_gold.load_graph()


@pytest.fixture(scope="module")
def gold(graph) -> dict[str, str]:
    return fidelity_gold.answers(graph)


def test_every_question_has_exactly_one_gold_answer():
    assert sorted(q.uid for q in QUESTIONS) == sorted(fidelity_gold.GOLD)


@external.needs(external.EXAMPLE_DSG)
@pytest.mark.parametrize("question", QUESTIONS, ids=[q.uid for q in QUESTIONS])
def test_yaml_solution_is_the_gold_answer(gold, question):
    assert sldp_equals(question.solution, gold[question.uid], tol=1e-3), (
        f"{question.uid}: YAML says {question.solution}, gold says {gold[question.uid]}; "
        "run `python -m tests.fidelity_gold`")


@external.needs(external.EXAMPLE_DSG)
def test_yaml_is_what_the_generator_writes(gold):
    text = fidelity_gold.QUESTIONS.read_text()
    assert fidelity_gold.rewrite_solutions(text, gold) == text


def test_set_is_big_and_broad_enough():
    assert len(QUESTIONS) >= 60
    tags = Counter(tag for q in QUESTIONS for tag in q.tags)
    for tag in CATEGORIES:
        assert tags[tag] >= 2, tag
    kinds = (SLDPList, SLDPSet, SLDPDict, Point, int, float, str)
    shapes = {kind for q in QUESTIONS for kind in kinds
              if isinstance(parse_sldp(q.solution), kind)}
    assert shapes == set(kinds)
    nested = {(type(v).__name__, type(next(iter(_items(v)))).__name__)
              for q in QUESTIONS if _items(v := parse_sldp(q.solution))}
    for pair in [("SLDPSet", "Point"), ("SLDPList", "Point"), ("SLDPDict", "Point"),
                 ("SLDPSet", "SLDPList")]:
        assert pair in nested, pair


def _items(value: object) -> list:
    if isinstance(value, SLDPDict):
        return [v for _, v in value.items]
    return list(value) if isinstance(value, SLDPList | SLDPSet) else []


@pytest.mark.parametrize("question", QUESTIONS, ids=[q.uid for q in QUESTIONS])
def test_idiom_tags_name_what_the_query_uses(question):
    assert question.cypher and question.correctness_comparator.comparison_type == "SLDP"
    assert any(tag in CATEGORIES for tag in question.tags), question.tags
    for tag in question.tags:
        if tag.startswith("idiom-"):
            assert _uses(IDIOMS[tag], question.cypher), (tag, question.cypher)
        else:
            assert tag in CATEGORIES, tag


def _uses(marker: str | re.Pattern[str], cypher: str) -> bool:
    """A substring marker, or a pattern for idioms one substring cannot name (an alias that
    shadows its variable, a WHERE inside a pattern comprehension)."""
    if isinstance(marker, str):
        return marker in cypher
    return marker.search(" ".join(cypher.split())) is not None


def test_every_idiom_is_covered():
    used = {tag for q in QUESTIONS for tag in q.tags}
    assert set(IDIOMS) <= used


@external.needs(external.EXAMPLE_DSG)
def test_gold_reading_agrees_with_spark_dsg(graph):
    """The JSON walk sees the same nodes, parents and siblings as spark_dsg, the library
    Heracles' loader calls (siblings are its same-layer edges, one per direction)."""
    spark_dsg = pytest.importorskip("spark_dsg")
    dsg = spark_dsg.DynamicSceneGraph.load(str(fidelity_gold.EXAMPLE))

    def symbols(ids) -> set[str]:
        return {spark_dsg.NodeSymbol(i).str(True) for i in ids}

    seen = set()
    for node in dsg.nodes:
        name = node.id.str(True)
        if name not in graph.nodes:
            continue
        seen.add(name)
        assert symbols(node.siblings()) == graph.neighbours.get(name, set()), name
        assert symbols(node.children()) == graph.children.get(name, set()), name
        assert symbols(node.parents()) == graph.parents.get(name, set()), name
        assert tuple(node.attributes.position) == pytest.approx(graph.nodes[name].center)
    assert seen == set(graph.nodes)
    rooms = {r.symbol for r in graph.of("Room")}
    room_edges = [e for e in dsg.edges if symbols([e.source, e.target]) <= rooms]
    assert graph.stored_edges("ROOM_CONNECTED") == 2 * len(room_edges)

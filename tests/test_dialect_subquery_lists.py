"""EXISTS / COUNT bodies of several MATCH clauses (`subquery_parts.py`): one MATCH of their
patterns, without relationship uniqueness between clauses. The rows on both engines are
checked by `tests/cypher_fuzz/regressions.py` (`*_of_two_matches_*`)."""

from __future__ import annotations

import pytest

from dsgqa.dialect import translate
from dsgqa.dialect.errors import CypherSyntaxError, DialectError


@pytest.mark.parametrize("target", ["ladybug", "kuzu"])
def test_matches_of_a_count_body_become_one_pattern_list(target):
    made = translate("MATCH (r:Room) RETURN COUNT { MATCH (r)-[:CONTAINS]->(m) WHERE "
                     "m.class = 'a' MATCH (m)-[:CONTAINS]->(o) WHERE o.class <> m.class } AS n",
                     target).query
    if target == "kuzu":
        assert "COUNT { MATCH (r)-[:CONTAINS]->(m), (m)-[:CONTAINS]->(o) WHERE (m.class = 'a') " \
               "AND (o.class <> m.class) }" in made
    else:   # the same, its tests after the pattern (`pattern_filters.py`)
        assert "COUNT { MATCH (r)-[_rel1:CONTAINS]->(m), (m)-[_rel2:CONTAINS]->(o) WHERE CASE " \
               "WHEN" in made and "THEN ((m.class = 'a') AND (o.class <> m.class))" in made
        assert "_rel1 <> _rel2" not in made   # two clauses: no uniqueness between them


def test_no_relationship_uniqueness_between_clauses():
    """Neo4j: a relationship is bound at most once within one MATCH clause only."""
    two = translate("MATCH (r:Room) RETURN COUNT { MATCH (r)-[:CONTAINS]->(m) "
                    "MATCH (r)-[:CONTAINS]->(n) } AS c", "ladybug").query
    assert "<>" not in two
    one = translate("MATCH (r:Room) RETURN COUNT { MATCH (r)-[:CONTAINS]->(m), "
                    "(r)-[:CONTAINS]->(n) } AS c", "ladybug").query
    assert "<>" in one
    within = translate("MATCH (r:Room) RETURN COUNT { MATCH (r)-[:CONTAINS]->(m)-[:CONTAINS]->"
                       "(o), (m)-[:CONTAINS]->(p) MATCH (r)-[:CONTAINS]->(n) } AS c",
                       "kuzu").query
    assert "(r)-[:CONTAINS]->(n)" in within   # unnamed: paired with none of clause one's
    assert "_rel1 <> _rel2 AND _rel1 <> _rel3 AND _rel2 <> _rel3" in within


def test_exists_body_of_matches_and_a_return():
    made = translate("MATCH (r:Room) WHERE EXISTS { MATCH (r)-->(m) MATCH (m)-->(o) "
                     "RETURN o } RETURN r", "ladybug").query
    assert "EXISTS { MATCH (r)-[]->(m), (m)-[]->(o) }" in made


@pytest.mark.parametrize("cypher", [
    # an OPTIONAL MATCH keeps rows a plain MATCH drops
    "MATCH (r:Room) RETURN COUNT { MATCH (r)-->(m) OPTIONAL MATCH (m)-->(o) } AS n",
    # one relationship joined across clauses (one pattern list would match nothing)
    "MATCH (r:Room) RETURN COUNT { MATCH (r)-[e:CONTAINS]->(m) MATCH (r)-[e]->(n) } AS n",
    # a WHERE that reads a name only a later clause binds (Neo4j: not defined)
    "MATCH (r:Room) RETURN COUNT { MATCH (r)-->(m) WHERE n.class = 'a' MATCH (r)-->(n) } AS c",
    # DISTINCT rows the count cannot see
    "MATCH (r:Room) RETURN COUNT { MATCH (r)-->(m) MATCH (m)-->(o) RETURN DISTINCT o } AS n",
])
def test_other_bodies_stay_refused(cypher):
    with pytest.raises((DialectError, CypherSyntaxError)):
        translate(cypher, "ladybug")


def test_union_all_of_parts_of_several_matches():
    made = translate("MATCH (r:Room) RETURN COUNT { MATCH (r)-->(m) MATCH (m)-->(o) "
                     "UNION ALL MATCH (r)-->(m) MATCH (m)-->(o) WHERE o.class = 'a' } AS n",
                     "ladybug").query
    assert "(COUNT { MATCH (r)-[]->(m), (m)-[]->(o) } + COUNT { MATCH (r)-[]->(m), " \
           "(m)-[]->(o) WHERE (o.class = 'a') }) AS n" in made


# `v IN COLLECT { .. }` (`collect_membership.py`): Neo4j's three-valued IN as EXISTS tests.
COLLECTED = "COLLECT { MATCH (r)-[:CONTAINS]->(o:Object) WHERE o.center.z > 0 RETURN o.class }"


@pytest.mark.parametrize("target", ["ladybug", "kuzu"])
def test_membership_in_a_collect_subquery_is_two_exists_tests(target):
    made = translate(f"MATCH (r:Room) WHERE NOT 'sign' IN {COLLECTED} RETURN r", target).query
    assert made == (
        "MATCH (r:Room) WHERE NOT (EXISTS { MATCH (r)-[:CONTAINS]->(o:Object) WHERE "
        "(o.center.z > 0) AND o.class = 'sign' } OR (EXISTS { MATCH (r)-[:CONTAINS]->"
        "(o:Object) WHERE (o.center.z > 0) AND ('sign' IS NULL OR o.class IS NULL) } AND "
        "NULL)) RETURN r")


def test_is_empty_of_a_collect_subquery_is_not_exists():
    made = translate("MATCH (r:Room) RETURN isEmpty(COLLECT { MATCH (r)-->(m) RETURN m }) "
                     "AS e", "ladybug").query
    assert "(NOT EXISTS { MATCH (r)-[]->(m) }) AS e" in made


@pytest.mark.parametrize("cypher", [
    # a name only the body declares: Neo4j's undefined variable
    "MATCH (r:Room) WHERE o.class IN COLLECT { MATCH (r)-->(o) RETURN o.class } RETURN r",
    # an element that is no property (a list of them may hold NULLs IN compares otherwise)
    "MATCH (r:Room) WHERE ['a'] IN COLLECT { MATCH (r)-->(o) RETURN [o.class] } RETURN r",
    # a RETURN that cuts the list
    "MATCH (r:Room) WHERE 'a' IN COLLECT { MATCH (r)-->(o) RETURN o.class LIMIT 1 } RETURN r",
    # more than one MATCH, or an OPTIONAL one
    "MATCH (r:Room) WHERE 'a' IN COLLECT { MATCH (r)-->(m) MATCH (m)-->(o) RETURN o.class } "
    "RETURN r",
    "MATCH (r:Room) WHERE 'a' IN COLLECT { OPTIONAL MATCH (r)-->(o) RETURN o.class } RETURN r",
    # a value read three times must not change between reads
    "MATCH (r:Room) WHERE toString(rand()) IN COLLECT { MATCH (r)-->(o) RETURN o.class } "
    "RETURN r",
])
def test_other_memberships_are_not_rewritten(cypher):
    with pytest.raises((DialectError, CypherSyntaxError)):
        translate(cypher, "ladybug")


def test_a_comprehension_over_a_collect_subquery_is_not_a_membership_test():
    with pytest.raises(DialectError):
        translate(f"MATCH (r:Room) WHERE any(c IN {COLLECTED} WHERE c = 'a') RETURN r", "kuzu")

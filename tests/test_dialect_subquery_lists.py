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
    assert "COUNT { MATCH (r)-[:CONTAINS]->(m), (m)-[:CONTAINS]->(o) WHERE (m.class = 'a') " \
           "AND (o.class <> m.class) }" in made


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

"""Queries Neo4j 5 rejects when it compiles them are the model's syntax errors here too
(`compile_errors.py`, `scope_errors.py`), and the valid queries beside them are not.

Each rejected query and each accepted one was checked with Neo4j's own semantic analysis
(`@neo4j-cypher/language-support`'s `lintCypherQuery` with a `CYPHER 5` prefix) and against
Neo4j 5's front-end source, which the docstrings of the two modules name.
"""

from __future__ import annotations

import contextlib
import re

import pytest

from dsgqa.dialect import CypherSyntaxError, DialectError, translate

_CONCLUDE = "Query cannot conclude with"
_IMPORTING = "Importing WITH should consist only of simple references to outside variables."
_SHADOW = "is shadowing a variable with the same name from the outer scope"

REJECTED = [
    # A SKIP or LIMIT reading a variable (`ASTSlicingPhrase.containsNoVariables`).
    ("MATCH (r:Room) WITH count(r) AS rooms MATCH (o:Object) RETURN o.nodeSymbol AS s "
     "ORDER BY s LIMIT rooms", "It is not allowed to refer to variables in LIMIT"),
    ("MATCH (r:Room) RETURN r.nodeSymbol AS s ORDER BY s SKIP size(r.nodeSymbol)",
     "It is not allowed to refer to variables in SKIP"),
    # An aggregate in what a lambda evaluates per element (the list it walks may be one).
    ("MATCH (r:Room)-[:CONTAINS]->(m) RETURN r.nodeSymbol AS s, "
     "any(x IN collect(m.class) WHERE count(m) > 30) AS l ORDER BY s",
     r"Invalid use of aggregating function count\(\.\.\.\) in this context"),
    ("MATCH (r:Room)-[:CONTAINS]->(m) RETURN r.nodeSymbol AS s, "
     "[x IN collect(m.class) WHERE x = 'floor' | size(collect(m))] AS l",
     r"aggregating function collect\(\.\.\.\)"),
    ("MATCH (r:Room)-[:CONTAINS]->(m) RETURN reduce(t = 0, x IN collect(m.class) | t + "
     "count(m)) AS l", r"aggregating function count\(\.\.\.\)"),
    ("MATCH (r:Room)-[:CONTAINS]->(m) RETURN [x IN [1] | stDev(x)] AS l",
     r"aggregating function stDev\(\.\.\.\)"),
    ("MATCH (r:Room) RETURN [(r)-->(m) WHERE count(m) > 1 | m] AS l",
     r"aggregating function count\(\.\.\.\)"),
    ("MATCH (n) RETURN all(x IN [1, 2, 3] WHERE count(*) = 0) AS a",
     "Can't use aggregating expressions inside of expressions executing over lists"),
    ("MATCH (n) RETURN [x IN [1, 2, 3] | count(*)] AS a", "Can't use aggregating expressions"),
    # A query or a CALL { } body that ends in a returning CALL, a MATCH or a WITH; a RETURN
    # before another clause.
    ("MATCH (r:Room) CALL { WITH r MATCH (r)-[:CONTAINS]->(m) RETURN count(m) AS c }",
     f"{_CONCLUDE} CALL"),
    ("MATCH (r:Room) CALL (r) { MATCH (r)-[:CONTAINS]->(m) }", f"{_CONCLUDE} MATCH"),
    ("MATCH (r:Room) CALL (r) { MATCH (r)-[:CONTAINS]->(m) WITH m } RETURN r",
     f"{_CONCLUDE} WITH"),
    ("MATCH (r:Room) RETURN r MATCH (m) RETURN m", "RETURN can only be used at the end"),
    # CALL { } scope: imports of names not in scope, returned names the outer query has, an
    # importing WITH that does more than import.
    ("MATCH (r:Room) CALL (x) { RETURN 1 AS one } RETURN count(*) AS n",
     "Variable `x` not defined"),
    ("MATCH (r:Room) CALL (room) { MATCH (room)-[:CONTAINS]->(m:MeshPlace) "
     "RETURN count(m) AS places } RETURN r.nodeSymbol AS room, places",
     "Variable `room` not defined"),
    ("MATCH (r:Room) WITH r.class AS k CALL (r) { RETURN 1 AS c } RETURN c",
     "Variable `r` not defined"),
    ("MATCH (r:Room) CALL { WITH x MATCH (r)-->(m) RETURN count(m) AS c } RETURN r, c",
     "Variable `x` not defined"),
    ("MATCH (r:Room) CALL { WITH r MATCH (r)-->(m) WITH m RETURN r.class AS c } RETURN c",
     "Variable `r` not defined"),
    ("MATCH (r:Room) CALL (r) { MATCH (r)-->(m) WHERE m.x = q.x RETURN m.x AS c } RETURN c",
     "Variable `q` not defined"),
    ("MATCH (r:Room) CALL (r) { MATCH (r)-[:CONTAINS]->(m) RETURN r, count(m) AS places } "
     "RETURN places", "Variable `r` already declared in outer scope"),
    ("MATCH (r:Room), (m:Object) CALL { MATCH (x)-[:CONTAINS]->(m) RETURN m } RETURN m",
     "Variable `m` already declared in outer scope"),
    ("MATCH (r:Room) CALL (r) { WITH 1 AS x RETURN x AS r } RETURN r",
     "Variable `r` already declared in outer scope"),
    ("MATCH (r:Room) CALL { WITH r WHERE r.class = 'hallway' MATCH (r)-->(m) "
     "RETURN count(m) AS c } RETURN c", f"{_IMPORTING} WHERE is not allowed."),
    ("MATCH (r:Room) CALL { WITH DISTINCT r MATCH (r)-->(m) RETURN count(m) AS c } RETURN c",
     "DISTINCT is not allowed"),
    ("MATCH (r:Room) CALL { WITH r ORDER BY r.x MATCH (r)-->(m) RETURN count(m) AS c } "
     "RETURN c", "ORDER BY is not allowed"),
    ("MATCH (r:Room) CALL { WITH r LIMIT 1 MATCH (r)-->(m) RETURN count(m) AS c } RETURN c",
     "LIMIT is not allowed"),
    ("MATCH (r:Room) CALL { WITH r, 1 AS k MATCH (r)-->(m) RETURN count(m) AS c } RETURN c",
     "Aliasing or expressions are not supported"),
    ("MATCH (r:Room) CALL { WITH * WHERE r.x > 1 MATCH (r)-->(m) RETURN count(m) AS c } "
     "RETURN c", "WHERE is not allowed"),
    # A named path, or an UNWIND alias, whose name is in scope.
    ("MATCH p = (a:Room)-[:ROOM_CONNECTED]->(b:Room) MATCH p = (b)-[:ROOM_CONNECTED]->(c:Room) "
     "RETURN count(*) AS n", "Variable `p` already declared"),
    ("MATCH p = (a:Room)-->(b) WITH p MATCH p = (b)-->(c) RETURN count(*) AS n",
     "Variable `p` already declared"),
    ("MATCH p = (a:Room)-->(b) WITH * OPTIONAL MATCH p = (b)-->(c) RETURN count(*) AS n",
     "Variable `p` already declared"),
    ("MATCH p = (a:Room)-->(b), p = (b)-->(c) RETURN count(*) AS n",
     "Variable `p` already declared"),
    ("MATCH (p:Room) MATCH p = (a)-->(b) RETURN count(*) AS n", "Variable `p` already declared"),
    ("MATCH p = shortestPath((a:Room)-[*]-(b:Room)) MATCH p = (a)-->(c) RETURN count(*) AS n",
     "Variable `p` already declared"),
    ("MATCH (n) UNWIND [1] AS n RETURN n", "Variable `n` already declared"),
    # One name, two kinds of value.
    ("MATCH (r:Room)-[:CONTAINS]->(m:MeshPlace) MATCH (m)-[r:CONTAINS]->(o:Object) "
     "RETURN m.nodeSymbol AS place, o.nodeSymbol AS obj",
     r"Type mismatch: r defined with conflicting type Node \(expected Relationship\)"),
    ("MATCH (a)-[r]->(b) WITH r AS x MATCH (x)-->(c) RETURN count(*) AS n",
     r"x defined with conflicting type Relationship \(expected Node\)"),
    ("MATCH p = (a)-->(b) MATCH (p)-->(c) RETURN count(*) AS n",
     r"p defined with conflicting type Path \(expected Node\)"),
    ("MATCH (a)-[r]->(b) MATCH (c)-[r*]->(d) RETURN count(*) AS n",
     r"r defined with conflicting type Relationship \(expected List<Relationship>\)"),
    ("MATCH (a)-[r]->(b) WHERE EXISTS { (r)-->(c) } RETURN count(*) AS n",
     r"r defined with conflicting type Relationship \(expected Node\)"),
    ("MATCH (a)-[r]->(b) RETURN [(r)-->(c) | c] AS n",
     r"r defined with conflicting type Relationship \(expected Node\)"),
    ("MATCH (a)-[r]->(b) CALL (r) { MATCH (r)-->(c) RETURN count(c) AS k } RETURN k",
     r"r defined with conflicting type Relationship \(expected Node\)"),
    # A new variable in EXISTS / COUNT / COLLECT, or in `CALL (x)`, named like an outer one.
    ("MATCH (r:Room) WITH r, r.class AS kind WHERE EXISTS { MATCH (r)-[:ROOM_CONNECTED]->(n) "
     "WITH n.class AS kind WHERE kind = 'lounge' } RETURN r.nodeSymbol AS room, kind",
     f"The variable `kind` {_SHADOW}"),
    ("MATCH (r:Room)-->(m) RETURN COUNT { MATCH (r)-->(n) WITH n AS m RETURN m } AS c",
     f"`m` {_SHADOW}"),
    ("MATCH (r:Room) WITH r, r.class AS kind RETURN COUNT { MATCH (r)-->(n) "
     "RETURN n.class AS kind } AS c", f"`kind` {_SHADOW}"),
    ("MATCH (r:Room) WITH r, r.class AS kind WHERE EXISTS { UNWIND [1] AS kind RETURN kind } "
     "RETURN r", f"`kind` {_SHADOW}"),
    ("MATCH p = (a:Room)-->(b) WHERE EXISTS { MATCH p = (b)-->(c) } RETURN count(*) AS n",
     f"`p` {_SHADOW}"),
    ("MATCH (r:Room) CALL (r) { WITH 'x' AS r RETURN 1 AS c } RETURN c", f"`r` {_SHADOW}"),
    ("MATCH (r:Room), (m) CALL (r) { UNWIND [1] AS r RETURN 1 AS c } RETURN c",
     f"`r` {_SHADOW}"),
    # A shortest path whose pattern has other than one relationship, a property map on it, or
    # a minimal length other than 0 or 1, in a MATCH or as an expression
    # (`SemanticPatternCheck`: checkContainsSingle, checkLength).
    ("MATCH (a:Room), (b:Room) MATCH p = shortestPath((a)-[:ROOM_CONNECTED*2..]-(b)) RETURN p",
     r"shortestPath\(\.\.\.\) does not support a minimal length different from 0 or 1"),
    ("MATCH (a:Room), (b:Room) MATCH p = allShortestPaths((a)-[:ROOM_CONNECTED*3]-(b)) "
     "RETURN p", r"allShortestPaths\(\.\.\.\) does not support a minimal length"),
    ("MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room {nodeSymbol: 'R4'}) "
     "RETURN length(shortestPath((a)-[:ROOM_CONNECTED*2..5]-(b))) AS l",
     "does not support a minimal length different from 0 or 1"),
    ("MATCH (a:Room), (b:Room) MATCH p = shortestPath((a)-[:ROOM_CONNECTED*]-(b)-[:CONTAINS]->"
     "(c)) RETURN p", r"shortestPath\(\.\.\.\) requires a pattern containing a single "
     "relationship"),
    ("MATCH p = shortestPath((a:Room)) RETURN p", "requires a pattern containing a single"),
    ("MATCH (a:Room), (b:Room) RETURN shortestPath((a)-[:ROOM_CONNECTED* {x: 1}]-(b)) AS p",
     r"shortestPath\(\.\.\.\) contains properties \{x: 1\}\. This is currently not "
     "supported"),
    # type(), startNode() or endNode() of a relationship list or a path; a property read of a
    # path or a list (`SemanticFunctionCheck`, `SemanticExpressionCheck`).
    ("MATCH (a:Room)-[r:ROOM_CONNECTED*1..2]-(b) RETURN type(r) AS t",
     "Type mismatch: expected Relationship but was List<Relationship>"),
    ("MATCH (a:Room)-[r:ROOM_CONNECTED*1..2]-(b) WHERE type(r) = 'x' RETURN a",
     "expected Relationship but was List<Relationship>"),
    ("MATCH (a:Room)-[r:ROOM_CONNECTED*1..2]-(b) WITH r RETURN startNode(r) AS s",
     "expected Relationship but was List<Relationship>"),
    ("MATCH (a:Room)-[r:ROOM_CONNECTED]-(b) WITH collect(r) AS rs RETURN endNode(rs) AS e",
     "expected Relationship but was List<Relationship>"),
    ("MATCH p = (a:Room)-[:ROOM_CONNECTED*1..2]-(b) RETURN type(p) AS t",
     "Type mismatch: expected Relationship but was Path"),
    ("MATCH p = (a:Room)-[:ROOM_CONNECTED*1..2]-(b) RETURN p.length AS l",
     "Type mismatch: expected Map, Node, Relationship, Point, Duration, Date, Time, LocalTime, "
     "LocalDateTime or DateTime but was Path"),
    ("MATCH p = (a:Room)-[:ROOM_CONNECTED*1..2]-(b) WITH collect(p) AS ps "
     "RETURN [q IN ps | q.nodeSymbol] AS l", "but was Path"),
    ("MATCH (a:Room)-[r:ROOM_CONNECTED*1..2]-(b) RETURN r.x AS x",
     "but was List<Relationship>"),
    ("MATCH p = (a:Room)-[:ROOM_CONNECTED*1..2]-(b) RETURN nodes(p).nodeSymbol AS s",
     "but was List<Node>"),
    ("MATCH p = (a:Room)-[:ROOM_CONNECTED*1..2]-(b) RETURN p['x'] AS x",
     "Type mismatch: expected Map, Node or Relationship but was Path"),
    # Label expressions: `:` between labels beside `|`, `&`, `!`, `%` (Neo4j's
    # LabelExpressionsInPatternsNormalized), `|:` in a node's, IS beside `:`, and a
    # relationship's `|:` beside a variable, a property map, a WHERE, a length or `!`.
    ("MATCH (n:Object:MeshPlace|Object) WHERE n.class IN ['structure', 'seating'] "
     "RETURN count(n) AS nodes", "Mixing label expression symbols"),
    ("MATCH (n:Room:!MeshPlace) RETURN count(n) AS n", "Mixing label expression symbols"),
    ("MATCH (n:Room&MeshPlace:Object) RETURN count(n) AS n", "Mixing label expression symbols"),
    ("MATCH (n:(Room|Object):Place) RETURN n", "Mixing label expression symbols"),
    ("MATCH (n:Room:%) RETURN n", "Mixing label expression symbols"),
    ("MATCH (n:Room|:MeshPlace) RETURN count(n) AS n", r"not allowed to contain '\|:'"),
    ("MATCH (n) WHERE n:Room|:Object RETURN n", r"not allowed to contain '\|:'"),
    ("MATCH (n IS Room:Object) RETURN n", "Mixing the IS keyword with colon"),
    ("MATCH (a:Room)-[r:CONTAINS|:ROOM_CONNECTED]->(b:Room) RETURN count(r) AS n",
     "colon in the separation of alternative relationship types"),
    ("MATCH (a:Room)-[:ROOM_CONNECTED|:CONTAINS*1..2]->(b:Room) RETURN count(*) AS n",
     "colon in the separation of alternative relationship types"),
    ("MATCH ()-[:CONTAINS|:ROOM_CONNECTED {a: 1}]->() RETURN 1 AS x",
     "colon in the separation of alternative relationship types"),
    ("MATCH ()-[:CONTAINS|:ROOM_CONNECTED WHERE true]->() RETURN 1 AS x",
     "colon in the separation of alternative relationship types"),
    ("MATCH ()-[:CONTAINS|:ROOM_CONNECTED|!OBJECT_CONNECTED]->() RETURN 1 AS x",
     "colon in the separation of alternative relationship types"),
    ("RETURN EXISTS { ()-[r:CONTAINS|:ROOM_CONNECTED]->() } AS x",
     "colon in the separation of alternative relationship types"),
    # COLLECT { } returns one column (CollectExpression's check).
    ("MATCH (r:Room) RETURN r.nodeSymbol AS room, COLLECT { MATCH (r)-[:CONTAINS]->(m:MeshPlace) "
     "RETURN m.nodeSymbol, m.class } AS places", "A Collect Expression must end with a single"),
    ("MATCH (r:Room) RETURN COLLECT { MATCH (r)-->(m) RETURN m.x AS a, m.y AS b UNION "
     "MATCH (r)-->(m) RETURN m.x AS a, m.y AS b } AS x", "A Collect Expression must end"),
    # FINISH and the standalone ORDER BY / SKIP / LIMIT end a query only as Neo4j allows.
    ("MATCH (n) FINISH RETURN n", "FINISH can only be used at the end of the query"),
    ("MATCH (n) RETURN n UNION MATCH (n) FINISH", "must have the same return column names"),
    ("MATCH (r:Room) ORDER BY r.x", f"{_CONCLUDE} ORDER BY"),
    ("MATCH (r:Room) RETURN r LIMIT 2 SKIP 1", f"{_CONCLUDE} SKIP"),
    ("MATCH (r:Room) RETURN r ORDER BY r.x LIMIT 2 ORDER BY r.y", f"{_CONCLUDE} ORDER BY"),
    # Type predicates: a closed dynamic union is NOT NULL in every type or in none.
    ("RETURN 1 IS :: INTEGER NOT NULL | FLOAT AS x", "Closed Dynamic Union must be nullable"),
    ("RETURN 1 IS :: INTEGER | FLOAT NOT NULL AS x", "Closed Dynamic Union must be nullable"),
    # Quantified path patterns Neo4j rejects.
    ("MATCH (:Room {nodeSymbol: 'R1'}) ((x:Room)-[:ROOM_CONNECTED]->+(y:Room)){1,2} (b:Room) "
     "RETURN count(*) AS n", "not allowed to be nested"),
    ("MATCH (:Room {nodeSymbol: 'R1'}) ((x:Room)-[:ROOM_CONNECTED*1..2]->(y:Room)){1,2} "
     "(b:Room) RETURN count(*) AS n", "Mixing variable-length relationships"),
    ("MATCH p = shortestPath((:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED]-+"
     "(:Room {nodeSymbol: 'R5'})) RETURN length(p) AS n", "single relationship"),
    # A syntax error beside arithmetic that looks like a quantifier stays the model's.
    ("MATCH (r) WHERE (toFloat(r.x))*2 > 1 RETURN r r", "unexpected"),
]

ACCEPTED = [
    # A SKIP or LIMIT of an expression without variables (a lambda's own variable is none).
    "MATCH (r:Room) RETURN r.nodeSymbol AS s ORDER BY s SKIP size([x IN [1, 2] | x]) "
    "LIMIT toInteger(2 * 1.5)",
    # Shortest paths of minimal length 0 or 1, or a single hop; an element of a relationship
    # list read as a relationship; a property of a node of a path.
    "MATCH (a:Room), (b:Room) MATCH p = shortestPath((a)-[:ROOM_CONNECTED*1]-(b)) RETURN p",
    "MATCH (a:Room), (b:Room) MATCH p = shortestPath((a)-[:ROOM_CONNECTED*0..5]-(b)) RETURN p",
    "MATCH (a:Room), (b:Room) MATCH p = shortestPath((a)-[:ROOM_CONNECTED]-(b)) WHERE a <> b "
    "RETURN p",
    "MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room {nodeSymbol: 'R4'}) "
    "RETURN length(shortestPath((a)-[:ROOM_CONNECTED*..5]-(b))) AS l",
    "MATCH (a:Room)-[r:ROOM_CONNECTED*1..2]-(b) RETURN [x IN r | type(x)] AS t, "
    "type(r[0]) AS first, last(r).x AS x",
    "MATCH (a:Room)-[r:ROOM_CONNECTED]-(b) RETURN type(r) AS t, r.x AS x, startNode(r) AS s",
    "MATCH p = (a:Room)-[:ROOM_CONNECTED*1..2]-(b) RETURN nodes(p)[0].nodeSymbol AS s, "
    "[n IN nodes(p) | n.nodeSymbol] AS l, length(p) AS k",
    "MATCH (r:Room) RETURN point.distance(r.center, r.center) AS d",
    # Neo4j puts a WITH * between OPTIONAL MATCH and MATCH before it checks the query
    # (`insertWithBetweenOptionalMatchAndMatch`): its "MATCH cannot follow OPTIONAL MATCH" is
    # never reached.
    "OPTIONAL MATCH (r:Room {nodeSymbol: 'R1'}) MATCH (r)-[:CONTAINS]->(m) RETURN count(*) AS n",
    "MATCH (r:Room) RETURN count(*) AS n UNION OPTIONAL MATCH (r:Room {nodeSymbol: 'R9'}) "
    "MATCH (m:MeshPlace) RETURN count(*) AS n",
    "OPTIONAL MATCH (r:Room) UNWIND [1] AS x MATCH (r)-[:CONTAINS]->(m) RETURN count(*) AS n",
    # Aggregates as the list a lambda walks, as reduce()'s start, around a lambda, or inside a
    # subquery the lambda holds.
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN [x IN collect(m) | x.class] AS l",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN any(x IN collect(m) WHERE x.class = 'a') AS l",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN reduce(t = count(m), x IN collect(m.class) | t + 1) "
    "AS l",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN count([x IN [1] | x]) AS l",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN collect([x IN [m] | x.class]) AS l",
    "MATCH (r:Room)-[:CONTAINS]->(m) RETURN [x IN [1] | COUNT { (r)-->() }] AS l",
    "MATCH (r:Room) RETURN size([(r)-->(m) | m]) AS l, count(*) AS c",
    # A unit subquery may end a query; a CALL whose body returns, followed by a RETURN.
    "MATCH (r:Room) CALL (r) { MATCH (r)-[:CONTAINS]->(m) RETURN count(m) AS c } RETURN c",
    # Imports in scope, renamed returns, a body's own WITH after the import.
    "UNWIND [1] AS x CALL (x) { RETURN x + 1 AS c } RETURN c",
    "MATCH (r:Room) CALL (r) { MATCH (r)-[:CONTAINS]->(m) RETURN r AS room, count(m) AS places } "
    "RETURN places",
    "MATCH (r:Room) CALL { WITH r WITH r WHERE r.class = 'hallway' MATCH (r)-->(m) "
    "RETURN count(m) AS c } RETURN c",
    "MATCH (r:Room) CALL (r) { WITH r WHERE r.class = 'hallway' MATCH (r)-->(m) "
    "RETURN count(m) AS c } RETURN c",
    "MATCH (r:Room) CALL { WITH r AS r MATCH (r)-->(m) RETURN count(m) AS c } RETURN c",
    "MATCH (r:Room) CALL { WITH 1 AS k WHERE k > 0 MATCH (q)-->(m) RETURN count(m) AS c } "
    "RETURN c",
    "MATCH (r:Room) CALL (r) { MATCH (r)-->(m) WITH m RETURN r.class AS c } RETURN c",
    "MATCH (r:Room) CALL { WITH r MATCH (r)-->(m) WITH m ORDER BY r.x RETURN m.x AS c } RETURN c",
    "MATCH (r:Room) CALL { WITH r MATCH (r)-->(m) RETURN m {.x, k: r.y} AS c } RETURN c",
    "MATCH (r:Room) CALL { WITH r MATCH (r)-->(m) RETURN [(m)-->(q) | q.x] AS c } RETURN c",
    "MATCH (r:Room) CALL { WITH r MATCH (r)-->(m) RETURN reduce(t = 0, x IN collect(m) | t + 1) "
    "AS n } RETURN r.nodeSymbol AS s, n",
    "MATCH (r:Room) CALL { WITH r WITH 'x' AS r RETURN 1 AS c } RETURN c",
    "MATCH (r:Room), (m:Object) CALL (r) { MATCH (r)-[:CONTAINS]->(m) RETURN count(m) AS c } "
    "RETURN c",
    "MATCH (r:Room), (m) CALL (r) { WITH 1 AS m RETURN m AS c } RETURN c",
    "MATCH p = (a:Room)-->(b) CALL { MATCH p = (x)-->(y) RETURN count(p) AS c } RETURN c",
    "MATCH (r:Room) WITH r.nodeSymbol AS sym CALL { WITH sym MATCH (x:Room {nodeSymbol: sym}) "
    "RETURN x.class AS cls } RETURN sym, cls",
    "MATCH (r:Room)-[:CONTAINS]->(m) WITH r, collect(m) AS ms CALL (r, ms) { UNWIND ms AS m2 "
    "RETURN count(m2) AS c } RETURN r.nodeSymbol AS s, c",
    # Paths named again once out of scope, or in another scope.
    "MATCH p = (a:Room)-[:ROOM_CONNECTED]->(b:Room) WITH b MATCH p = (b)-[:ROOM_CONNECTED]->(c) "
    "RETURN count(*) AS n",
    "MATCH p = (a:Room)-->(b) WITH min(length(p)) AS l MATCH p = (x)-->(y) "
    "RETURN l, count(p) AS n",
    "MATCH p = (a:Room)-->(b) RETURN [p = (b)-->(c) | length(p)] AS l",
    "MATCH p = (a:Room)-->(b) RETURN count(*) AS n UNION MATCH p = (a:Room)-->(b) "
    "RETURN count(*) AS n",
    "UNWIND [1, 2] AS x WITH x * 2 AS y UNWIND [3] AS x RETURN x, y",
    # Nodes and relationships bound again as what they are; names of one part in another.
    "MATCH (a)-[r]->(b) MATCH (c)-[r]->(d) RETURN count(*) AS n",
    "MATCH (a)-[r]->(b) WITH r MATCH (c)-[r]->(d) RETURN count(*) AS n",
    "MATCH (a)-[r*]->(b) MATCH (c)-[r*]->(d) RETURN count(*) AS n",
    "MATCH (a)-[r]->(b) WITH a MATCH (r)-->(c) RETURN count(*) AS n",
    "MATCH (a)-[r]->(b) RETURN count(*) AS n UNION MATCH (r)-->(c) RETURN count(*) AS n",
    "MATCH (a)-[r]->(b) CALL { MATCH (r)-->(c) RETURN count(c) AS k } RETURN k",
    "MATCH (a)-[r]->(b) RETURN [r IN [1] | r] AS n",
    "MATCH (n) MATCH (n:Room) RETURN count(*) AS c",
    # Subqueries that read, pass on or return outer names, or bind lambdas named like them.
    "MATCH (r:Room) WITH r, r.class AS kind WHERE EXISTS { MATCH (r)-->(n) "
    "WITH n, n.class AS k WHERE k = kind RETURN n } RETURN r",
    "MATCH (r:Room) WITH r, r.class AS kind WHERE EXISTS { MATCH (r)-->(n) "
    "WITH kind AS kind RETURN kind } RETURN r",
    "MATCH (r:Room) WITH r, r.class AS kind WHERE EXISTS { MATCH (r)-->(n) "
    "WITH n MATCH (r)-->(n) RETURN n } RETURN r",
    "MATCH (r:Room)-->(m) RETURN COUNT { MATCH (r)-->(n) RETURN r } AS c",
    "MATCH (r:Room)-->(m) WHERE EXISTS { MATCH (r)-->(n) WHERE any(m IN [1] WHERE m = 1) } "
    "RETURN r",
    "MATCH (r:Room)-->(m) WHERE EXISTS { MATCH (r)-->(n) WHERE size([(n)-->(m) | m]) = 1 } "
    "RETURN r",
    # Neo4j 4's `:A:B` (both labels), a parenthesised single label, and `[:A|:B]` alone.
    "MATCH (n:Room:Object) RETURN count(n) AS n",
    "MATCH (n:Room:(Object)) RETURN count(n) AS n",
    "MATCH (a:Room)-[:CONTAINS|:ROOM_CONNECTED]->(b) RETURN count(*) AS n",
    "MATCH ()-[:CONTAINS|:ROOM_CONNECTED|OBJECT_CONNECTED]->() RETURN count(*) AS n",
    "MATCH ()-[:(CONTAINS|:ROOM_CONNECTED)]->() RETURN count(*) AS n",
    # GQL's IS label expressions, and `is` as a variable.
    "MATCH (n IS Room|MeshPlace) RETURN count(n) AS n",
    "MATCH (n IS Room&Object) RETURN count(n) AS n",
    "MATCH (n) WHERE n IS Room|Object RETURN count(n) AS n",
    "MATCH (n) RETURN [x IN [n] WHERE x IS Room | x.nodeSymbol] AS l",
    "MATCH (is:Room) WHERE is IS NOT NULL RETURN is.nodeSymbol AS s",
    "MATCH ()-[is*1..2]->() RETURN count(is) AS n",
    "MATCH ()-[r IS CONTAINS]->() RETURN count(r) AS n",
    # COLLECT { } of one column, in each UNION part; FINISH at the end of each part.
    "MATCH (r:Room) RETURN COLLECT { MATCH (r)-->(m) RETURN m.nodeSymbol AS a UNION "
    "MATCH (r)-->(m) RETURN m.class AS a } AS x",
    "MATCH (n) FINISH UNION MATCH (n) FINISH",
    "MATCH (n) WITH n LIMIT 1 FINISH",
    # Standalone ORDER BY / SKIP / OFFSET / LIMIT between clauses, and OFFSET for SKIP.
    "MATCH (r:Room) WITH r LIMIT 2 SKIP 1 RETURN r.nodeSymbol AS s",
    "MATCH (r:Room) SKIP 1 LIMIT 2 OFFSET 1 RETURN r.nodeSymbol AS s",
    "MATCH (r:Room) ORDER BY r.nodeSymbol SKIP 1 OFFSET 1 RETURN r.nodeSymbol AS s",
    "UNWIND [3, 1, 2] AS x ORDER BY x RETURN collect(x) AS l",
    "MATCH (r:Room) RETURN r.nodeSymbol AS s ORDER BY s OFFSET 2",
    # Type predicates in every spelling, and the clause keywords as names.
    "MATCH (n) WHERE n.nodeSymbol :: STRING WITH n RETURN count(n) AS c",
    "RETURN 1 IS :: INTEGER < 3 AS x",
    "RETURN (1 IS :: INTEGER) IS :: BOOLEAN AS x",
    "RETURN 1 IS NOT TYPED INTEGER AS x",
    "RETURN 1 :: INTEGER! AS x",
    "MATCH (n) RETURN n.offset AS offset, n.finish AS finish, n.typed AS typed",
    "WITH 1 AS offset, 2 AS finish, 3 AS normalized RETURN offset, finish, normalized",
]


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize(("cypher", "message"), REJECTED)
def test_a_query_neo4j_rejects_is_a_syntax_error(target, cypher, message):
    with pytest.raises(CypherSyntaxError, match=message):
        translate(cypher, target)


@pytest.mark.parametrize("target", ["kuzu", "ladybug"])
@pytest.mark.parametrize("cypher", ACCEPTED)
def test_a_valid_query_beside_them_is_no_syntax_error(target, cypher):
    """Translated, or refused as the engines' shortfall (`dialect`), never the model's."""
    with contextlib.suppress(DialectError):
        translate(cypher, target)


@pytest.mark.parametrize(("cypher", "message"), [
    ("MATCH (a:Room)-[:ROOM_CONNECTED]->{1,0x2}(b) RETURN b", "unexpected"),   # lexer: at ]
    ("MATCH (a:Room)((x)-[:ROOM_CONNECTED]->(y)){0o1}(b) RETURN b", "Invalid input '0o1'"),
    ("MATCH (a:Room)((x)-[:ROOM_CONNECTED]->(y)){01}(b) RETURN b", "Invalid input '01'"),
    ("MATCH (a:Room)-[:ROOM_CONNECTED*0x1]->(b) RETURN b", "Invalid input '0x1'"),
    ("MATCH (a:Room)-[:ROOM_CONNECTED*1..0x2]->(b) RETURN b", "Invalid input '0x2'"),
    ("RETURN 01 AS n", "octal integer literal syntax `01`"),
])
def test_a_bound_not_in_decimal_is_neo4j_s_error(cypher, message):
    """Neo4j 5's ranges and quantifiers take `UNSIGNED_DECIMAL_INTEGER` only; `01` is the octal
    syntax it no longer reads."""
    with pytest.raises(CypherSyntaxError, match=re.escape(message)):
        translate(cypher, "ladybug")


@pytest.mark.parametrize("cypher", [
    "MATCH (a:Room)-[:ROOM_CONNECTED]->{1_0}(b) RETURN b",        # was charged as syntax
    "MATCH (a:Room)-[:ROOM_CONNECTED]-{,1_0}(b) RETURN b",
    "MATCH (a:Room)((x)-[:ROOM_CONNECTED]->(y)){1,1_0}(b) RETURN b",
    "MATCH (a:Room)-[:ROOM_CONNECTED*1..1_0]->(b) RETURN b",
    "MATCH (a:Room) WHERE a.center.x > 10.05 RETURN [0, 0x1F, 0o17, 1_000] AS xs",
])
def test_decimal_bounds_with_underscores_and_other_integers_are_read(cypher):
    translate(cypher, "ladybug")


@pytest.mark.parametrize("cypher", [
    "MATCH (o:Object) RETURN o.center.x IS :: FLOAT IS NOT NULL AS a",
    "MATCH (o:Object) RETURN o.center.x IS NULL IS NULL AS a",
    "MATCH (o:Object) RETURN o.center.x :: FLOAT IS NULL AS a",
    "MATCH (o:Object) RETURN o.name IS NORMALIZED IS NOT NULL AS a",
    "MATCH (o:Object) RETURN o.name STARTS WITH 'a' IS NULL AS a",
    "MATCH (o:Object) WHERE o.name IN ['a'] IN [true] RETURN o",
])
def test_two_predicates_after_one_operand_are_neo4j_s_error(cypher):
    """Neo4j 5's `expression7: expression6 comparisonExpression6?` (Cypher5Parser.g4): one
    IS NULL / IS :: T / STARTS WITH / IN / =~ / IS NORMALIZED after an operand."""
    with pytest.raises(CypherSyntaxError, match="Invalid input"):
        translate(cypher, "ladybug")


@pytest.mark.parametrize("cypher", [
    "MATCH (o:Object) RETURN (o.center.x IS :: FLOAT) IS NOT NULL AS a",
    "MATCH (o:Object) RETURN o.center.x IS :: FLOAT NOT NULL AS a",
    "MATCH (o:Object) RETURN o.center.x IS :: FLOAT = true AS a",
    "MATCH (o:Object) RETURN o.center.x IS NULL AND o.name IS NOT NULL AS a",
    "MATCH (o:Object) RETURN [x IN [o.name] WHERE x IS NOT NULL] AS a",
    "MATCH (o:Object) RETURN o.name IN ['a'] = (o.name IS NULL) AS a",
])
def test_one_predicate_per_operand_is_read(cypher):
    translate(cypher, "ladybug")

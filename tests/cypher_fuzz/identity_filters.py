"""Queries with a test that is true on every row and reads a node's or relationship's identity.

Such a test must not change a count: each case is a pair (the query without the test, the
query with it), and both must give the same rows on an engine. Ladybug 0.22.0 lost rows on
hundreds of these before `dsgqa/dialect/pattern_filters.py` (the shapes and the measurement are in
its docstring); the patterns are chains of three relationships, in every direction, with the
test on each of their elements, in a MATCH, an OPTIONAL MATCH, a COUNT and an EXISTS subquery,
reading an outer node, and across two MATCH clauses; and (`anchored`) chains fixed at one
node, compared between the engines. The example Hydra graph is needed: on
the fuzzer's small graphs a node has too few neighbours for the defect to show.

`python -m tests.cypher_fuzz.identity_filters [N]` runs N pairs (all without N) on both
engines and prints, per engine, the pairs tried, refused and differing.
"""

from __future__ import annotations

import itertools
import random
import sys

NAMES = ("y", "c", "b", "z")
ARROWS = ("-[{r}]->", "<-[{r}]-", "-[{r}]-")
# Always true on a bound element, each reading its identity in another way.
ON_ANY = ("id({v}) IS NOT NULL", "{v} = {v}", "NOT {v} IS NULL")
ON_NODE = ("size(labels({v})) > 0", "({v}:Object OR NOT {v}:Object)", "{v}.nodeSymbol <> 'X'")
ON_REL = ("type({v}) <> 'X'",)
ROOMS = "MATCH (x:Room) "
PAIRS = "MATCH (x:Room)-[:ROOM_CONNECTED]->(w) "


def _chains() -> list[str]:
    chains = []
    for dirs in itertools.product(range(len(ARROWS)), repeat=3):
        text = f"({NAMES[0]})"
        for i, d in enumerate(dirs):
            text += ARROWS[d].format(r=f"r{i}") + f"({NAMES[i + 1]})"
        chains.append(text)
    return chains


def _contexts(chain: str, test: str) -> list[tuple[str, str]]:
    """(without, with) the test, in each place a filter can stand."""
    anchored = f"(x)-[q]-{chain}"
    return [
        (f"MATCH {chain} RETURN count(*) AS n", f"MATCH {chain} WHERE {test} RETURN count(*) AS n"),
        (f"{ROOMS}OPTIONAL MATCH {anchored} RETURN count(*) AS n, count(q) AS m",
         f"{ROOMS}OPTIONAL MATCH {anchored} WHERE {test} RETURN count(*) AS n, count(q) AS m"),
        (f"{ROOMS}RETURN sum(COUNT {{ MATCH {anchored} }}) AS n",
         f"{ROOMS}RETURN sum(COUNT {{ MATCH {anchored} WHERE {test} }}) AS n"),
        (f"{ROOMS}RETURN count(*) AS n, sum(CASE WHEN EXISTS {{ MATCH {anchored} }} "
         "THEN 1 ELSE 0 END) AS m",
         f"{ROOMS}RETURN count(*) AS n, sum(CASE WHEN EXISTS {{ MATCH {anchored} WHERE {test} }} "
         "THEN 1 ELSE 0 END) AS m"),
    ]


def cases() -> list[tuple[str, str]]:
    """Every pair, in a fixed order (shuffled with a fixed seed, so a prefix mixes shapes)."""
    found: list[tuple[str, str]] = []
    for chain in _chains():
        for element in (*NAMES, "r0", "r1", "r2"):
            tests = ON_ANY + (ON_NODE if element in NAMES else ON_REL)
            for test in tests:
                found += _contexts(chain, test.format(v=element))
        # a test reading an outer node the pattern does not name
        outer = "(b <> w OR b = w)"
        anchored = f"(x)-[q]-{chain}"
        found += [
            (f"{PAIRS}OPTIONAL MATCH {anchored} RETURN count(*) AS n, count(q) AS m",
             f"{PAIRS}OPTIONAL MATCH {anchored} WHERE {outer} RETURN count(*) AS n, "
             "count(q) AS m"),
            (f"{PAIRS}RETURN sum(COUNT {{ MATCH {anchored} }}) AS n",
             f"{PAIRS}RETURN sum(COUNT {{ MATCH {anchored} WHERE {outer} }}) AS n"),
        ]
        # the test in the first of two MATCH clauses
        cut = chain.index("(c)") + 3
        first, rest = chain[:cut], "(c)" + chain[cut:]
        for element in ("y", "c", "r0"):
            found.append((f"MATCH {first} MATCH {rest} RETURN count(*) AS n",
                          f"MATCH {first} WHERE id({element}) IS NOT NULL MATCH {rest} "
                          "RETURN count(*) AS n"))
    random.Random(24).shuffle(found)
    return found


def anchored() -> list[str]:
    """Chains with one node fixed by its symbol (`(b {nodeSymbol: 'P754'})`, as models anchor
    a pattern), whose rows must be the same on both engines: Ladybug lost rows here too (80
    chains through P754, Ladybug 41; Kuzu's equal a count in Python over the edge list)."""
    found = []
    for chain in _chains():
        for node in ("c", "b"):
            for symbol in ("P754", "R1"):
                fixed = chain.replace(f"({node})", f"({node} {{nodeSymbol: '{symbol}'}})")
                found.append(f"MATCH {fixed} RETURN count(*) AS n")
    random.Random(24).shuffle(found)
    return found


def main(argv: list[str]) -> int:
    from tests.cypher_fuzz.engines import BACKENDS, run_engines
    from tests.external import EXAMPLE_DSG, path

    pairs = cases()[: int(argv[0])] if argv else cases()
    queries = sorted({q for pair in pairs for q in pair})
    at = {q: i for i, q in enumerate(queries)}
    results = run_engines([{"graph": str(path(EXAMPLE_DSG)), "queries": queries}])
    for backend in BACKENDS:
        rows = results[backend][0]
        refused = differ = 0
        for without, with_test in pairs:
            plain, tested = rows[at[without]], rows[at[with_test]]
            if not tested["valid"]:
                refused += 1
            elif tested["rows"] != plain["rows"]:
                differ += 1
                print(f"{backend}: {plain['rows']} -> {tested['rows']}: {with_test}")
        print(f"{backend}: {len(pairs)} pairs, {refused} refused, {differ} differing")
    fixed = anchored()
    found = run_engines([{"graph": str(path(EXAMPLE_DSG)), "queries": fixed}])
    kuzu, ladybug = found["kuzu"][0], found["ladybug"][0]
    differ = sum(1 for k, lb in zip(kuzu, ladybug, strict=True) if k["rows"] != lb["rows"])
    print(f"anchored: {len(fixed)} queries, {differ} differing between the engines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

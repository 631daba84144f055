"""Shrink failing queries: drop RETURN items, WHERE clauses, ORDER BY/SKIP/LIMIT, OPTIONAL
MATCH clauses and later patterns of a pattern list (none whose variables something else reads)
and UNION parts while each engine still fails the same way (`disagree`, `blamed` with the same
error, or `answered` where Neo4j raises).

Cheap on purpose: each step runs the candidates of every query being shrunk in one engine call
per engine, keeps for each query the shortest candidate that still fails the same way on the
same engines, and stops after a few steps.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tests.cypher_fuzz import ast as A
from tests.cypher_fuzz import graphs
from tests.cypher_fuzz.differential import (
    Trial,
    Verdict,
    expected_plain,
    expected_rows,
    judge,
    message_class,
)
from tests.cypher_fuzz.engines import BACKENDS, run_engines
from tests.cypher_fuzz.generate import Generated
from tests.cypher_fuzz.refgraph import RefGraph

STEPS = 4


@dataclass
class Shrunk:
    """The smallest form found: the query, Neo4j's rows (or error) and each engine's verdict."""

    generated: Generated
    expected: list[list[Any]] | str
    verdicts: dict[str, Verdict]


def same_failure(want: Verdict, got: Verdict) -> bool:
    """Whether `got` fails as `want` did (a blamed query with the same error)."""
    return got.outcome == want.outcome and (want.outcome != "blamed" or (
        got.kind == want.kind and message_class(got.error) == message_class(want.error)))


def candidates(q: A.Query) -> Iterator[A.Query]:
    if len(q.parts) > 1:
        for i in range(len(q.parts)):
            yield A.Query((q.parts[i],))
    for p, part in enumerate(q.parts):
        for c, clause in enumerate(part):
            for new in _clause_variants(clause):
                if new is None and _binds_what_follows_reads(part, c):
                    continue  # the reference may not notice: no row need reach the read
                if isinstance(new, A.Match) and _unbinds_what_is_read(part, c, new):
                    continue
                clauses = list(part)
                if new is None:
                    del clauses[c]
                else:
                    clauses[c] = new
                parts = list(q.parts)
                parts[p] = tuple(clauses)
                yield A.Query(tuple(parts), q.union_all)


def _names(node: object) -> set[str]:
    """Every variable `node` binds or reads."""
    return {n.name for n in A.walk(node) if isinstance(n, A.Var)} | {
        n.var for n in A.walk(node) if isinstance(n, (A.NodePat, A.RelPat)) and n.var} | {
        n.path_var for n in A.walk(node) if isinstance(n, A.PathPat) and n.path_var}


def _binds_what_follows_reads(part: tuple[A.Clause, ...], c: int) -> bool:
    """Whether clause `c` binds a variable (not bound before it) that a later clause reads."""
    return bool((_names(part[c:c + 1]) - _names(part[:c])) & _names(part[c + 1:]))


def _unbinds_what_is_read(part: tuple[A.Clause, ...], c: int, new: A.Match) -> bool:
    """Whether `new`, clause `c` with a pattern dropped, no longer binds a variable that it or
    a later clause reads (the reference may not notice where no row reaches the read)."""
    old = part[c]
    assert isinstance(old, A.Match)
    lost = _names(old.patterns) - _names(new.patterns) - _names(part[:c])
    return bool(lost & (_names(new) | _names(part[c + 1:])))


def _clause_variants(clause: A.Clause) -> Iterator[A.Clause | None]:
    if isinstance(clause, A.Match):
        if clause.where is not None:
            yield replace(clause, where=None)
        for i in range(1, len(clause.patterns)):   # a later pattern of a pattern list
            yield replace(clause, patterns=clause.patterns[:i] + clause.patterns[i + 1:])
        if clause.optional:
            yield None
    if isinstance(clause, A.Projection):
        if clause.order:
            yield replace(clause, order=(), skip=None, limit=None)
        if clause.where is not None:
            yield replace(clause, where=None)
        if clause.kind == "RETURN" and len(clause.items) > 1:
            for i, (_, alias) in enumerate(clause.items):
                items = clause.items[:i] + clause.items[i + 1:]
                order = tuple(s for s in clause.order if s.expr != A.Var(alias)
                              and s.expr != clause.items[i][0])
                yield replace(clause, items=items, order=order)


def shrink_many(items: list[tuple[graphs.GraphSpec, Generated, dict[str, Verdict]]]
                ) -> list[Shrunk | None]:
    """For each (graph, query, the verdicts to keep per engine): the smallest form found, or
    None when no smaller form still fails the same way."""
    best: list[Shrunk | None] = [None] * len(items)
    current: list[Generated | None] = [gen for _, gen, _ in items]
    refs = [RefGraph(spec) for spec, _, _ in items]
    with tempfile.TemporaryDirectory(prefix="cypher-fuzz-shrink-") as scratch:
        paths = [graphs.write_spark_dsg(spec, Path(scratch) / f"g{i}.json")
                 for i, (spec, _, _) in enumerate(items)]
        for _ in range(STEPS):
            trials: list[list[Trial]] = []
            for k, gen in enumerate(current):
                options = dict.fromkeys(candidates(gen.query)) if gen is not None else {}
                found = []
                for q in options:
                    cand = gen.with_query(q)  # type: ignore[union-attr]
                    try:
                        result = expected_rows(cand, refs[k])
                    except (AssertionError, KeyError, TypeError):
                        continue  # the candidate reads a variable it no longer binds
                    if not isinstance(result, str):
                        found.append(Trial(k, cand, result))
                trials.append(found)
            if not any(trials):
                break
            results = run_engines([{"graph": str(paths[k]),
                                    "queries": [t.generated.text for t in trials[k]]}
                                   for k in range(len(items))], BACKENDS)
            for k, (_, _, keep) in enumerate(items):
                still = []
                for i, trial in enumerate(trials[k]):
                    verdicts = {b: judge(trial, results[b][k][i]) for b in BACKENDS}
                    if all(same_failure(want, verdicts[b]) for b, want in keep.items()):
                        still.append((len(trial.generated.text), trial, verdicts))
                if not still:
                    current[k] = None
                    continue
                _, trial, verdicts = min(still, key=lambda s: s[0])
                current[k] = trial.generated
                best[k] = Shrunk(trial.generated, expected_plain(trial), verdicts)
    return best

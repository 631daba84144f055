"""Shrink a disagreeing query: drop RETURN items, WHERE clauses, ORDER BY/SKIP/LIMIT,
OPTIONAL MATCH clauses and UNION parts while the engines still disagree with the reference.

Cheap on purpose: each step runs every candidate in one engine call, keeps the shortest that
still disagrees on the same engines, and stops after a few steps.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from tests.cypher_fuzz import ast as A
from tests.cypher_fuzz.differential import Trial, expected_plain, run_queries
from tests.cypher_fuzz.generate import Generated
from tests.cypher_fuzz.graphs import GraphSpec

STEPS = 4


def candidates(q: A.Query) -> Iterator[A.Query]:
    if len(q.parts) > 1:
        for i in range(len(q.parts)):
            yield A.Query((q.parts[i],))
    for p, part in enumerate(q.parts):
        for c, clause in enumerate(part):
            for new in _clause_variants(clause):
                clauses = list(part)
                if new is None:
                    del clauses[c]
                else:
                    clauses[c] = new
                parts = list(q.parts)
                parts[p] = tuple(clauses)
                yield A.Query(tuple(parts), q.union_all)


def _clause_variants(clause: A.Clause) -> Iterator[A.Clause | None]:
    if isinstance(clause, A.Match):
        if clause.where is not None:
            yield replace(clause, where=None)
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


def shrink(spec: GraphSpec, generated: Generated, backends: list[str]
           ) -> tuple[str, list[list[Any]], dict[str, Any]] | None:
    """The smallest form found: (query, expected rows, rows per engine), or None."""
    best: tuple[str, list[list[Any]], dict[str, Any]] | None = None
    current = generated.query
    for _ in range(STEPS):
        options = list(dict.fromkeys(candidates(current)))
        if not options:
            break
        gens = [Generated(q, generated.constructs) for q in options]
        try:
            trials, verdicts = run_queries(spec, gens)
        except Exception:  # a candidate the reference cannot read: stop shrinking
            break
        still = [i for i, t in enumerate(trials) if isinstance(t, Trial) and all(
            verdicts[b][i] is not None and verdicts[b][i].outcome == "disagree"  # type: ignore
            for b in backends)]
        if not still:
            break
        i = min(still, key=lambda k: len(gens[k].text))
        trial = trials[i]
        assert isinstance(trial, Trial)
        current = options[i]
        best = (gens[i].text, expected_plain(trial),
                {b: verdicts[b][i].rows for b in verdicts})  # type: ignore[union-attr]
    return best

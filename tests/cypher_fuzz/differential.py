"""One fuzz round: random graphs, random queries, expected rows (or Neo4j's error) from the
reference evaluator, actual rows from the translator on each engine, and a verdict per query
and engine.

Verdicts on a query Neo4j answers:
- `agree`: the engine gave Neo4j's rows;
- `refused`: an honest refusal: the query failed as `dialect` (the translator or the engine
  could not run valid Neo4j Cypher), ran out of time, or its rows were cut (truncated);
- `blamed`: the query failed with another kind (`runtime`, `syntax`, `schema`, ...): the
  benchmark charges the model with the engine's failure;
- `disagree`: other rows and nothing said so: a silent difference.
Verdicts on a query Neo4j rejects with an error (a type error, a negative length):
- `agree`: the engine raised too, of whatever kind;
- `answered`: the engine returned rows: a model's query that fails on Neo4j would score here.
Queries whose rows Neo4j leaves open are `skipped` before any engine sees them.
"""

from __future__ import annotations

import random
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.cypher_fuzz import graphs, reference
from tests.cypher_fuzz.compare import plain, rows_agree
from tests.cypher_fuzz.engines import BACKENDS, run_engines
from tests.cypher_fuzz.generate import Generated, Generator
from tests.cypher_fuzz.refgraph import RefGraph
from tests.cypher_fuzz.values import CypherError, Nondeterministic

OUTCOMES = ("agree", "refused", "disagree", "blamed", "answered")
# Failures that say "this engine cannot run it" (or not within its limits), charging nobody.
HONEST_KINDS = ("dialect", "timeout", "memory")


@dataclass(frozen=True)
class Neo4jError:
    """The reference's answer for a query on which Neo4j raises an error."""

    message: str


@dataclass
class Trial:
    graph: int
    generated: Generated
    expected: reference.Result | Neo4jError


@dataclass
class Verdict:
    outcome: str  # one of OUTCOMES
    kind: str  # query_error_kind of a failed query, "truncated" for cut rows
    rows: list[list[Any]]
    executed: str
    error: str


@dataclass
class Round:
    specs: list[graphs.GraphSpec]
    trials: list[Trial]
    verdicts: dict[str, list[Verdict]]
    skipped: Counter = field(default_factory=Counter)


def expected_rows(gen: Generated, graph: RefGraph) -> reference.Result | Neo4jError | str:
    """The reference's rows, Neo4j's error, or why the query is skipped."""
    try:
        return reference.run(gen.query, graph)
    except Nondeterministic as exc:
        return f"open: {exc}"
    except CypherError as exc:
        return Neo4jError(str(exc))
    except (AssertionError, KeyError, TypeError) as exc:  # the generator's mistake, not Neo4j's
        return f"generator error: {type(exc).__name__} {exc}"


def make_trials(rng: random.Random, n_graphs: int, per_graph: int, workdir: Path
                ) -> tuple[list[graphs.GraphSpec], list[Path], list[Trial], Counter]:
    specs, paths, trials = [], [], []
    skipped: Counter = Counter()
    gen = Generator(rng)
    for g in range(n_graphs):
        spec = graphs.random_graph(rng)
        path = graphs.write_spark_dsg(spec, workdir / f"graph{g}.json")
        graphs.load(path, spec)  # the product reads what the spec says, or this raises
        specs.append(spec)
        paths.append(path)
        ref = RefGraph(spec)
        made = 0
        attempts = 0
        while made < per_graph and attempts < per_graph * 4:
            attempts += 1
            generated = gen.query()
            result = expected_rows(generated, ref)
            if isinstance(result, str):
                skipped[result.split(":")[0]] += 1
                continue
            trials.append(Trial(g, generated, result))
            made += 1
    return specs, paths, trials, skipped


def judge(trial: Trial, result: dict[str, Any]) -> Verdict:
    rows = result["rows"] or []
    if not result["valid"]:
        kind = result["kind"] or "runtime"
        if isinstance(trial.expected, Neo4jError):
            outcome = "agree"
        else:
            outcome = "refused" if kind in HONEST_KINDS else "blamed"
        return Verdict(outcome, kind, [], result["executed"], result["error"])
    kind = "truncated" if result.get("truncated") else ""
    if isinstance(trial.expected, Neo4jError):
        return Verdict("answered", kind, rows, result["executed"], "")
    if kind:
        return Verdict("refused", kind, rows, result["executed"], "")
    outcome = "agree" if rows_agree(trial.expected, rows) else "disagree"
    return Verdict(outcome, "", rows, result["executed"], "")


def run_round(seed: int, n_graphs: int, per_graph: int,
              backends: tuple[str, ...] = BACKENDS) -> Round:
    """Draw, evaluate, run and judge one batch (all engine work in one call per engine)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="cypher-fuzz-") as scratch:
        specs, paths, trials, skipped = make_trials(rng, n_graphs, per_graph, Path(scratch))
        jobs = [{"graph": str(paths[g]), "queries": [t.generated.text for t in trials
                                                     if t.graph == g]} for g in range(n_graphs)]
        results = run_engines(jobs, backends)
    verdicts: dict[str, list[Verdict]] = {}
    for backend in backends:
        position = Counter()
        out = []
        for trial in trials:
            i = position[trial.graph]
            position[trial.graph] += 1
            out.append(judge(trial, results[backend][trial.graph][i]))
        verdicts[backend] = out
    return Round(specs, trials, verdicts, skipped)


def run_queries(spec: graphs.GraphSpec, generated: list[Generated],
                backends: tuple[str, ...] = BACKENDS) -> tuple[list[Trial | str],
                                                                dict[str, list[Verdict | None]]]:
    """Fixed queries on one fixed graph: the regression cases and the minimiser use this."""
    ref = RefGraph(spec)
    trials: list[Trial | str] = []
    for gen in generated:
        result = expected_rows(gen, ref)
        trials.append(result if isinstance(result, str) else Trial(0, gen, result))
    runnable = [t for t in trials if isinstance(t, Trial)]
    with tempfile.TemporaryDirectory(prefix="cypher-fuzz-") as scratch:
        path = graphs.write_spark_dsg(spec, Path(scratch) / "graph.json")
        graphs.load(path, spec)
        results = run_engines([{"graph": str(path),
                                "queries": [t.generated.text for t in runnable]}], backends)
    verdicts: dict[str, list[Verdict | None]] = {}
    for backend in backends:
        it = iter(results[backend][0])
        verdicts[backend] = [judge(t, next(it)) if isinstance(t, Trial) else None
                             for t in trials]
    return trials, verdicts


def message_class(error: str) -> str:
    """An error message with its numbers blanked, so one defect is one group."""
    first = next((line for line in error.strip().splitlines() if line.strip()), "(no message)")
    return re.sub(r"\d+", "#", first)[:200]


def expected_plain(trial: Trial) -> list[list[Any]] | str:
    """The expected rows in the engines' form, or Neo4j's error, for printing."""
    if isinstance(trial.expected, Neo4jError):
        return f"Neo4j error: {trial.expected.message}"
    return [[plain(c) for c in row] for row in trial.expected.rows]

"""The translator's semantic differential fuzzer in CI (tests/cypher_fuzz).

Two parts, both on Kuzu and on Ladybug (each engine in its own interpreter):
- hand-checked regression cases (`tests/cypher_fuzz/regressions.py`): every silent difference
  the fuzzer found, shrunk, with Neo4j's rows worked out by hand;
- a fixed sample of random queries over random scene graphs, expected rows (or Neo4j's error)
  from the reference evaluator.
A query Neo4j answers must get its rows or be refused as `dialect` (or time out). Three things
fail, because a benchmark would score them wrong and nobody would know: other rows without an
error (`disagree`); an error of another kind (`blamed`: `runtime`, `syntax` or `schema` charge
the model with the engine's failure); rows for a query on which Neo4j raises (`answered`: a
model's query that fails on Neo4j would score).

Defects not fixed yet are listed once, below (`KNOWN`, `KNOWN_IN_SAMPLE`, `KNOWN_BLAMED`,
`KNOWN_ANSWERED`), each with what is wrong; remove an entry when its fix lands (a fixed
regression case then fails as XPASS).
`benchmarks/bench_dialect_fuzz.py` runs the fuzzer for as long as you like.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.cypher_fuzz import graphs
from tests.cypher_fuzz.compare import rows_agree
from tests.cypher_fuzz.differential import (
    Neo4jError,
    Round,
    Trial,
    Verdict,
    expected_plain,
    run_round,
)
from tests.cypher_fuzz.engines import BACKENDS, run_engines
from tests.cypher_fuzz.reference import Result
from tests.cypher_fuzz.regressions import CASES, GRAPH, Case
from tests.ladybug_run import require_ladybug

# (regression case, engine) -> what is wrong; the case is expected to fail there (other rows,
# an error of another kind than dialect, or rows where Neo4j raises).
KNOWN: dict[tuple[str, str], str] = {
}

# Disagreements in the random sample that these defects explain: (engines, constructs of
# which the query must use one, the defect). Remove an entry when its fix lands.
KNOWN_IN_SAMPLE: list[tuple[frozenset[str], frozenset[str], str]] = [
]

# Blamed verdicts in the random sample (a query Neo4j answers failed as runtime, syntax or
# schema) that these defects explain: (engines, text the error contains, the defect).
KNOWN_BLAMED: list[tuple[frozenset[str], str, str]] = [
]

# Answered verdicts in the random sample (rows for a query on which Neo4j raises) that these
# defects explain: (engines, constructs of which the query must use one, the defect).
KNOWN_ANSWERED: list[tuple[frozenset[str], frozenset[str], str]] = [
]


def explained(backend: str, trial: Trial, verdict: Verdict) -> str:
    """The listed defect that explains a failing verdict on `backend`, or ''."""
    constructs = trial.generated.constructs
    if verdict.outcome == "blamed":
        return next((why for engines, text, why in KNOWN_BLAMED
                     if backend in engines and text in verdict.error), "")
    table = {"disagree": KNOWN_IN_SAMPLE, "answered": KNOWN_ANSWERED}.get(verdict.outcome, [])
    return next((why for engines, names, why in table
                 if backend in engines and names & constructs), "")

SAMPLE_SEED = 20_253
SAMPLE_GRAPHS = 4
SAMPLE_QUERIES = 30


@pytest.fixture(scope="module")
def regression_rows() -> dict[str, list[dict[str, Any]]]:
    """Every regression case on both engines, one engine start each."""
    require_ladybug()
    with tempfile.TemporaryDirectory(prefix="fuzz-regressions-") as scratch:
        path = graphs.write_spark_dsg(GRAPH, Path(scratch) / "graph.json")
        graphs.load(path, GRAPH)
        results = run_engines([{"graph": str(path), "queries": [c.query for c in CASES]}])
    return {backend: results[backend][0] for backend in BACKENDS}


@pytest.fixture(scope="module")
def sample() -> Round:
    require_ladybug()
    return run_round(SAMPLE_SEED, SAMPLE_GRAPHS, SAMPLE_QUERIES)


def _case_params() -> list[Any]:
    params = []
    for i, case in enumerate(CASES):
        for backend in BACKENDS:
            reason = KNOWN.get((case.name, backend))
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            params.append(pytest.param(i, backend, id=f"{case.name}-{backend}", marks=marks))
    return params


@pytest.mark.parametrize(("index", "backend"), _case_params())
def test_regression_case(regression_rows: dict[str, list[dict[str, Any]]], index: int,
                         backend: str) -> None:
    """Neo4j's rows, or a refusal as `dialect`; never other rows, nor another kind of error.
    Where Neo4j raises, an error of any kind."""
    case: Case = CASES[index]
    result = regression_rows[backend][index]
    if case.rows is None:
        assert not result["valid"], (
            f"{case.query}\n  expected an error ({case.why})\n  got      {result['rows']}\n"
            f"  executed {result['executed']}")
        return
    if not result["valid"]:
        assert result["kind"] == "dialect", (
            f"{case.query}\n  refused as {result['kind']!r}, not as dialect: {result['error']}\n"
            f"  executed {result['executed']}")
        return
    expected = Result([], case.rows, [1] * len(case.rows) if case.ordered else [len(case.rows)])
    assert rows_agree(expected, result["rows"]), (
        f"{case.query}\n  expected {case.rows} ({case.why})\n  got      {result['rows']}\n"
        f"  executed {result['executed']}")


def test_regression_graph_is_read_as_written(tmp_path: Path) -> None:
    """The product's loader reads the regression graph's file as the spec says."""
    graphs.load(graphs.write_spark_dsg(GRAPH, tmp_path / "g.json"), GRAPH)


def _unexplained(sample: Round, backend: str, outcome: str) -> list[str]:
    out = []
    for trial, verdict in zip(sample.trials, sample.verdicts[backend], strict=True):
        if verdict.outcome != outcome or explained(backend, trial, verdict):
            continue
        got = verdict.error if outcome == "blamed" else verdict.rows
        out.append(f"{trial.generated.text}\n    expected {expected_plain(trial)}\n"
                   f"    {backend}: {got}\n    executed {verdict.executed}")
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_random_sample_has_no_silent_difference(sample: Round, backend: str) -> None:
    """A fixed sample of random queries: none gets other rows than Neo4j's without an error."""
    unexplained = _unexplained(sample, backend, "disagree")
    assert not unexplained, (f"{len(unexplained)} silent difference(s) on {backend}:\n"
                             + "\n".join(unexplained))


@pytest.mark.parametrize("backend", BACKENDS)
def test_random_sample_blames_no_engine_failure_on_the_model(sample: Round,
                                                             backend: str) -> None:
    """A query Neo4j answers either runs or is refused as `dialect`: a runtime, syntax or
    schema error would score the engine's failure as the model's mistake."""
    unexplained = _unexplained(sample, backend, "blamed")
    assert not unexplained, (f"{len(unexplained)} engine failure(s) blamed on the model on "
                             f"{backend}:\n" + "\n".join(unexplained))


@pytest.mark.parametrize("backend", BACKENDS)
def test_random_sample_answers_no_query_neo4j_rejects(sample: Round, backend: str) -> None:
    """A query on which Neo4j raises an error fails here too (any kind of error will do)."""
    unexplained = _unexplained(sample, backend, "answered")
    assert not unexplained, (f"{len(unexplained)} query(ies) Neo4j rejects answered on "
                             f"{backend}:\n" + "\n".join(unexplained))


def test_sample_is_large_enough(sample: Round) -> None:
    """The sample keeps its size: a generator change that makes most queries open (skipped)
    or refused would quietly stop testing anything."""
    assert len(sample.trials) >= SAMPLE_GRAPHS * SAMPLE_QUERIES * 0.9
    agreed = sum(v.outcome == "agree" for v in sample.verdicts["ladybug"])
    assert agreed >= len(sample.trials) * 0.6
    assert any(isinstance(t.expected, Neo4jError) for t in sample.trials), (
        "no query in the sample on which Neo4j raises: the answered check tests nothing")


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_generated_query_is_refused_for_a_form_the_translator_forgot(backend: str) -> None:
    """Translation only, over many generated queries: a refusal must name what the engine
    lacks, never the printer meeting a form no pass rewrote (`cannot print list_comp`: a check
    that printed the original tree refused every comprehension, slice and map projection
    beside an aggregate or an ORDER BY, and the fuzzer counted it as an honest refusal) nor a
    pass failing (`cannot translate (NameError ...)`)."""
    import random

    from dsgqa.dialect.errors import CypherSyntaxError, DialectError
    from dsgqa.dialect.translate import translate
    from tests.cypher_fuzz.generate import Generator

    generator = Generator(random.Random(20261126))
    unprintable = []
    for _ in range(800):
        query = generator.query().text
        try:
            translate(query, backend)
        except DialectError as error:
            if str(error).startswith(("cannot print", "cannot translate")):   # our failures
                unprintable.append(f"{error}: {query}")
        except CypherSyntaxError:  # the other tests check these against Neo4j's
            continue
    assert not unprintable, "\n".join(unprintable[:5])

"""The passes `Rewriter` skips where the tree lacks their construct (`tree_facts.py`) change no
translation: every query the translator's tests, the question sets, the fuzzer's regression
cases and a sample of the fuzzer's random queries hold is translated with the gates as they
are and with every gate open, and the two must be the same text, rewrites, order and
refusal. A gate that skipped a pass it should have run shows up here as a different
translation, before it could score a model wrong."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from dsgqa.dialect import rewrite as rewrite_module
from dsgqa.dialect import translate
from dsgqa.dialect.tree_facts import TreeFacts
from dsgqa.questions import load_question_set
from tests.cypher_fuzz.generate import Generator
from tests.cypher_fuzz.regressions import CASES

ROOT = Path(__file__).resolve().parents[1]
_CLAUSE_STARTS = ("MATCH", "OPTIONAL", "RETURN", "WITH", "UNWIND", "CALL")


class _AllOpen(TreeFacts):
    """Facts that say every construct is present: every gate open."""

    def __init__(self, root: object) -> None:
        super().__init__(root)   # type: ignore[arg-type]
        self.lambda_calls = 2
        self.optional_where = self.optional_match = True

    def has(self, *kinds: str) -> bool:
        return True

    def calls_any(self, names: frozenset[str]) -> bool:
        return True


def _test_module_queries() -> list[str]:
    """Every string literal of the dialect test modules that reads like a query."""
    found: list[str] = []
    for path in sorted((ROOT / "tests").glob("test_dialect*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.lstrip().upper().startswith(_CLAUSE_STARTS):
                found.append(node.value)
    return found


def _corpus() -> list[str]:
    queries = _test_module_queries()
    for name in ("fidelity/example_questions.yaml", "demo/apartment_questions.yaml"):
        queries += [q.cypher for q in load_question_set(ROOT / "questions" / name).questions]
    queries += [case.query for case in CASES]
    generator = Generator(random.Random(20261128))
    queries += [generator.query().text for _ in range(400)]
    return list(dict.fromkeys(queries))


def _outcome(query: str, target: str) -> tuple[object, ...]:
    try:
        out = translate(query, target)   # type: ignore[arg-type]
    except Exception as exc:   # the refusal and its message must be the same too
        return (type(exc).__name__, str(exc))
    return (out.query, out.rewrites, repr(out.order), out.distinct_rows, out.max_hops)


@pytest.mark.parametrize("target", ["ladybug", "kuzu"])
def test_gates_change_no_translation(target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = _corpus()
    assert len(corpus) > 1500, "the corpus lost its queries"
    gated = [_outcome(q, target) for q in corpus]
    monkeypatch.setattr(rewrite_module, "TreeFacts", _AllOpen)
    opened = [_outcome(q, target) for q in corpus]
    differ = [(q, g, o) for q, g, o in zip(corpus, gated, opened, strict=True) if g != o]
    assert not differ, "\n\n".join(f"{q}\n  gated: {g}\n  open:  {o}" for q, g, o in differ[:5])
    # the gates did skip passes (else this test checks nothing): most queries lack a UNION
    assert sum("UNION" not in q.upper() for q in corpus) > len(corpus) // 2

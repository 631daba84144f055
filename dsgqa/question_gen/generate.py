"""Generate a question set for a scene graph: propose, check twice, pick a balanced selection.

Deterministic for a seed: every category gets its own random stream (so adding a template to one
category leaves the others' candidates unchanged), candidates are interleaved template by
template, every one is checked, and `per_category` of those that pass make the category, the
difficulty tiers taking turns (`balance.py`, tiers from `difficulty.py`).

One fact, one question: a candidate whose fact (`Candidate.fact_key`) an earlier category's
question asks is dropped before the check, one that a question of its own category asks while
choosing, so restated questions do not inflate a score. Degenerate answers (0, empty, every
other room) are kept only up to `degenerate_cap` per category: a model that finds nothing would
get them right. The trivial baselines are then scored on the set (`baseline_scores.py`), and the
report and the file's header state their scores.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from random import Random
from typing import Any

import yaml

from benchcore import atomic_files
from benchcore.names import DEFAULT_EMBEDDED_BACKEND
from dsgqa.graphstore import GraphStore, open_graph_store
from dsgqa.question_gen.balance import Passed, Selection, balanced
from dsgqa.question_gen.baseline_scores import baseline_scores
from dsgqa.question_gen.candidate import Candidate
from dsgqa.question_gen.definitions import preamble
from dsgqa.question_gen.degenerate import degenerate_cap, why_degenerate
from dsgqa.question_gen.difficulty import tier_tag
from dsgqa.question_gen.gold import DROP_DEGENERATE, DROP_DUPLICATE, check
from dsgqa.question_gen.report import Report
from dsgqa.question_gen.set_header import generator_block, header_text
from dsgqa.question_gen.templates import CATEGORIES, MODULES
from dsgqa.question_gen.view import GraphView
from dsgqa.questions import Question
from dsgqa.scene_graph import SceneGraph

DEFAULT_PER_CATEGORY = 30


@dataclass(frozen=True)
class Generated:
    """The questions (YAML-ready mappings, in output order), the report, and the set's
    preamble: the definitions its questions use without stating them ('' for none)."""

    questions: list[dict[str, Any]]
    report: Report
    preamble: str = ""


def generate(graph: SceneGraph, *, seed: int = 0, per_category: int = DEFAULT_PER_CATEGORY,
             categories: Sequence[str] = CATEGORIES, db_root: Path | None = None,
             backend: str = DEFAULT_EMBEDDED_BACKEND) -> Generated:
    """Questions for `graph`, each answered in Python and by its Cypher on `backend`."""
    unknown = sorted(set(categories) - set(CATEGORIES))
    if unknown:
        raise ValueError(f"unknown categories {', '.join(unknown)}: choose from "
                         f"{', '.join(CATEGORIES)}")
    started = time.perf_counter()
    report = Report(graph.fingerprint(), graph.source, seed, per_category)
    view = GraphView.of(graph)
    chosen: list[Candidate] = []
    asked: set[tuple[str, ...]] = set()   # fact keys of the questions kept so far
    answers: dict[tuple[str, str], str] = {}   # (name, question) -> its reference query's answer
    cap = degenerate_cap(per_category)
    report.degenerate_cap = cap
    with tempfile.TemporaryDirectory(prefix="question-gen-") as scratch:
        store = open_graph_store(backend, graph, db_root=db_root or Path(scratch))
        try:
            for module in MODULES:
                if module.CATEGORY not in categories:
                    continue
                rng = Random(f"{seed}:{module.CATEGORY}")
                proposed = module.candidates(view, rng)
                report.proposed[module.CATEGORY] = len(proposed)
                passed = _passed(store, view, _interleaved(proposed, rng), asked, report,
                                 module.CATEGORY, answers)
                selection = balanced(passed, per_category, cap, asked)
                _count(report, module.CATEGORY, passed, selection)
                chosen += [p.candidate for p in selection.chosen]
            records = _records(chosen)
            report.scores = baseline_scores(
                store, [Question.model_validate(r) for r in records],
                {r["uid"]: answers[r["name"], r["question"]] for r in records})
        finally:
            store.close()
    report.facts = len(asked)
    report.seconds = time.perf_counter() - started
    return Generated(records, report, preamble(k for c in chosen for k in c.defines))


def _passed(store: GraphStore, view: GraphView, candidates: Iterable[Candidate],
            asked: set[tuple[str, ...]], report: Report, category: str,
            answers: dict[tuple[str, str], str]) -> list[Passed]:
    """The candidates that pass the check, in order; `answers` gains their reference query's
    answers. Every candidate is checked (not only until the category is full), so the report's
    drop counts describe the whole graph, and the tiers can be balanced from all of them; but
    not one whose fact an earlier category asks, nor one whose fact and tier an earlier
    informative candidate that passed shares (choosing in order, `balanced` would never reach
    it)."""
    passed = []
    shadowed: set[tuple[tuple[str, ...], int]] = set()
    for candidate in candidates:
        report.examined[category] += 1
        if candidate.fact_key() in asked or (candidate.fact_key(), candidate.tier) in shadowed:
            report.drops[(category, DROP_DUPLICATE)] += 1
            continue
        verdict = check(store, candidate)
        if not verdict.kept:
            report.drops[(category, verdict.reason)] += 1
            report.examples.setdefault(verdict.reason, f"{candidate.name}: {verdict.detail}")
            continue
        answers[candidate.name, candidate.question] = verdict.cypher_answer
        trivial = why_degenerate(candidate, view)
        passed.append(Passed(candidate, trivial))
        if not trivial:
            shadowed.add((candidate.fact_key(), candidate.tier))
    return passed


def _count(report: Report, category: str, passed: list[Passed], selection: Selection) -> None:
    """What the category kept and dropped while choosing, by tier and template."""
    report.kept[category] = len(selection.chosen)
    report.degenerate[category] = sum(bool(p.trivial) for p in selection.chosen)
    for reason, dropped in ((DROP_DUPLICATE, selection.duplicates),
                            (DROP_DEGENERATE, selection.degenerate)):
        if dropped:
            report.drops[(category, reason)] += len(dropped)
    for dropped in selection.degenerate[:1]:
        report.examples.setdefault(DROP_DEGENERATE, f"{dropped.candidate.name}: {dropped.trivial}")
    for p in passed:
        report.available[(category, p.candidate.tier)] += 1
    for p in selection.chosen:
        report.tiers[(category, p.candidate.tier)] += 1
        report.templates[p.candidate.template] += 1


def _interleaved(candidates: list[Candidate], rng: Random) -> Iterable[Candidate]:
    """Shuffled within each template, then one from each template in turn, so a category's
    first questions cover all its templates."""
    groups: dict[str, list[Candidate]] = {}
    for candidate in sorted(candidates, key=lambda c: (c.template, c.name, c.question)):
        groups.setdefault(candidate.template, []).append(candidate)
    for group in groups.values():
        rng.shuffle(group)
    for row in zip_longest(*groups.values()):
        yield from (c for c in row if c is not None)


def _records(chosen: list[Candidate]) -> list[dict[str, Any]]:
    """Question mappings in heracles_agents' format plus `cypher`; uids by category; the tier
    is the last tag."""
    records = []
    counters: dict[str, int] = {}
    for candidate in chosen:
        counters[candidate.category] = counters.get(candidate.category, 0) + 1
        tags = [*dict.fromkeys((candidate.category, candidate.template, *candidate.tags)),
                tier_tag(candidate.tier)]
        records.append({
            "uid": f"{candidate.category}-{counters[candidate.category]:03d}",
            "name": candidate.name,
            "question": candidate.question,
            "solution": candidate.solution(),
            "correctness_comparator": _comparator("PDDL" if candidate.is_pddl else "SLDP"),
            "tags": _Flow(tags),
            "cypher": candidate.cypher,
        })
    return records


def _comparator(kind: str) -> dict[str, str]:
    return {"comparison_type": kind, "relation": "equal"}


def write_question_set(generated: Generated, path: Path) -> Path:
    """The YAML file: a comment header, the scene graph's label, the generator's settings and
    counts (`set_header.py`), the preamble when the questions need one, and the questions (one
    block per question, long strings folded)."""
    report = generated.report
    body: dict[str, Any] = {
        "scene_graph": {"fingerprint": report.fingerprint, "source": report.source},
        "generator": generator_block(report),
    }
    if generated.preamble:
        body["preamble"] = generated.preamble
    body["questions"] = generated.questions
    text = yaml.dump(body, Dumper=_Dumper, sort_keys=False, width=96, allow_unicode=True)
    return atomic_files.write_text(path, header_text(report, generated.preamble) + text)


class _Flow(list):
    """A list written on one line (`tags: [counting, by_class]`)."""


class _Dumper(yaml.SafeDumper):
    """Safe YAML that folds long strings (`>-`) and writes tags as flow lists, so the file
    reads like the hand-written sets."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    foldable = " " in value and "\n" not in value and value == value.strip()
    style = ">" if len(value) > 60 and foldable else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _flow(dumper: yaml.SafeDumper, value: _Flow) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=True)


_Dumper.add_representer(str, _text)
_Dumper.add_representer(_Flow, _flow)

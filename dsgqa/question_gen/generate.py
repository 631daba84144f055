"""Generate a question set for a scene graph: propose, check twice, pick a balanced selection.

Deterministic for a seed: every category gets its own random stream (so adding a template to one
category leaves the others' candidates unchanged), candidates are interleaved template by
template, every one is checked, and the first `per_category` that pass make the category.

One fact, one question: a candidate whose fact (`Candidate.fact_key`) an earlier question of the
set already asks, in this category or an earlier one, is dropped before the check, so restated
questions do not inflate a score. Degenerate answers (0, empty, every other room) are kept only
up to `degenerate_cap` per category: a model that finds nothing would get them right.
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
from dsgqa.graphstore import open_graph_store
from dsgqa.question_gen.candidate import Candidate
from dsgqa.question_gen.degenerate import degenerate_cap, why_degenerate
from dsgqa.question_gen.gold import DROP_DEGENERATE, DROP_DUPLICATE, check
from dsgqa.question_gen.report import Report
from dsgqa.question_gen.templates import CATEGORIES, MODULES
from dsgqa.question_gen.view import GraphView
from dsgqa.scene_graph import SceneGraph

DEFAULT_PER_CATEGORY = 30


@dataclass(frozen=True)
class Generated:
    """The questions (YAML-ready mappings, in output order) and the report."""

    questions: list[dict[str, Any]]
    report: Report


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
    chosen: list[tuple[Candidate, str]] = []
    asked: set[tuple[str, ...]] = set()   # fact keys of the questions kept so far
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
                report.kept[module.CATEGORY] = 0
                report.degenerate[module.CATEGORY] = 0
                for candidate in _interleaved(proposed, rng):
                    # Every candidate is checked (not only until the category is full), so the
                    # report's drop counts describe the whole graph, not where the quota ended.
                    report.examined[module.CATEGORY] += 1
                    if candidate.fact_key() in asked:
                        report.drops[(module.CATEGORY, DROP_DUPLICATE)] += 1
                        continue
                    verdict = check(store, candidate)
                    trivial = why_degenerate(candidate, view) if verdict.kept else ""
                    if not verdict.kept:
                        report.drops[(module.CATEGORY, verdict.reason)] += 1
                        report.examples.setdefault(verdict.reason,
                                                   f"{candidate.name}: {verdict.detail}")
                    elif report.kept[module.CATEGORY] >= per_category:
                        continue
                    elif trivial and report.degenerate[module.CATEGORY] >= cap:
                        report.drops[(module.CATEGORY, DROP_DEGENERATE)] += 1
                        report.examples.setdefault(DROP_DEGENERATE, f"{candidate.name}: {trivial}")
                    else:
                        report.kept[module.CATEGORY] += 1
                        report.degenerate[module.CATEGORY] += bool(trivial)
                        report.templates[candidate.template] += 1
                        asked.add(candidate.fact_key())
                        chosen.append((candidate, candidate.solution()))
        finally:
            store.close()
    report.facts = len(asked)
    report.seconds = time.perf_counter() - started
    return Generated(_records(chosen), report)


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


def _records(chosen: list[tuple[Candidate, str]]) -> list[dict[str, Any]]:
    """Question mappings in heracles_agents' format plus `cypher`; uids by category."""
    records = []
    counters: dict[str, int] = {}
    for candidate, solution in chosen:
        counters[candidate.category] = counters.get(candidate.category, 0) + 1
        tags = list(dict.fromkeys((candidate.category, candidate.template, *candidate.tags)))
        records.append({
            "uid": f"{candidate.category}-{counters[candidate.category]:03d}",
            "name": candidate.name,
            "question": candidate.question,
            "solution": solution,
            "correctness_comparator": _comparator("PDDL" if candidate.is_pddl else "SLDP"),
            "tags": _Flow(tags),
            "cypher": candidate.cypher,
        })
    return records


def _comparator(kind: str) -> dict[str, str]:
    return {"comparison_type": kind, "relation": "equal"}


def write_question_set(generated: Generated, path: Path) -> Path:
    """The YAML file: a comment header, the scene graph's label, the generator's settings and
    the questions (one block per question, long strings folded)."""
    report = generated.report
    header = (
        f"# Generated by `nlp-dsg-benchmark questions generate` for {report.source}.\n"
        "# Each solution was computed twice, in plain Python over the loaded scene graph and by\n"
        "# the reference `cypher` (Heracles' layout, Neo4j dialect) on the embedded engine; only\n"
        "# questions whose two answers agree, with no other answer within tolerance, are kept.\n"
        "# Tags: the category first, then the template and its features.\n"
        f"# One fact, one question: the {report.total} questions ask {report.facts} distinct "
        "facts; at most\n"
        f"# {report.degenerate_cap} per category has a degenerate answer (0, empty, every other "
        "node of a kind).\n"
    )
    body = {
        "scene_graph": {"fingerprint": report.fingerprint, "source": report.source},
        "generator": {"seed": report.seed, "per_category": report.per_category,
                      "categories": {c: n for c, n in report.kept.items()},
                      "distinct_facts": report.facts,
                      "degenerate_cap": report.degenerate_cap,
                      "degenerate": {c: n for c, n in report.degenerate.items()}},
        "questions": generated.questions,
    }
    text = yaml.dump(body, Dumper=_Dumper, sort_keys=False, width=96, allow_unicode=True)
    return atomic_files.write_text(path, header + text)


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

"""`nlp-dsg-benchmark questions generate`: write a checked question set for a scene graph."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchcore.terminal_text import printable
from dsgqa.question_gen.generate import generate, write_question_set
from dsgqa.question_gen.report import shared_share
from dsgqa.questions import load_question_set
from dsgqa.scene_graph import load_scene_graph


def generate_command(scene_graph: str, out: str, *, seed: int, per_category: int,
                     categories: Sequence[str] | None = None, db_root: str | None = None,
                     compare_seed: int | None = None) -> int:
    """Generate, write, re-read the file as the benchmark will, and print the report; with
    `compare_seed`, also generate that seed's set and say how many question texts both share
    (how much a new seed changes the set)."""
    if per_category < 1:
        raise ValueError("--per-category must be at least 1")
    graph = load_scene_graph(scene_graph)
    options = {"categories": categories} if categories else {}
    generated = generate(graph, seed=seed, per_category=per_category,
                         db_root=Path(db_root) if db_root else None, **options)
    path = write_question_set(generated, Path(out))
    written = load_question_set(path)
    print(printable(generated.report.text(), keep_newlines=True))
    print(f"wrote {len(written.questions)} questions to {path}")
    if compare_seed is not None:
        other = generate(graph, seed=compare_seed, per_category=per_category,
                         db_root=Path(db_root) if db_root else None, **options)
        share = shared_share((q["question"] for q in generated.questions),
                             (q["question"] for q in other.questions))
        print(f"seed {seed} vs seed {compare_seed}: {share:.0%} of the question texts are shared")
    return 0

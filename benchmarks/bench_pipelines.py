"""QA pipeline figures: LLM calls, tokens and seconds per question per pipeline, and the
in-context prompt's size.

    .venv/bin/python benchmarks/bench_pipelines.py

- The demo questions through feed-forward, agentic (tool calls and the text protocol),
  in-context (compact and full) and codegen (where its bubblewrap sandbox can run; the oracle
  writes each question's hand-written `code:` solution), answered by the oracle (its token
  counts are estimates of its prompts and replies), in one real run of the benchmark (the CLI,
  a temporary Prefect API); then the same run again, which must make 0 fresh calls.
- The in-context prompt for the example Hydra graph (`../shared/data/dsg/example_dsg.json`) in
  both variants: characters and estimated tokens, for the longest demo question.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from pathlib import Path

import pandas as pd
import yaml

from benchcore import external_data
from dsgqa.code_sandbox import sandbox_problem
from dsgqa.in_context import estimate_tokens, serialize
from dsgqa.prompts import in_context_messages
from dsgqa.scene_graph import load_scene_graph

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / ".venv/bin/nlp-dsg-benchmark"
EXAMPLE = external_data.path_or_fetched(external_data.EXAMPLE_DSG)
PIPELINES = ["feedforward", {"kind": "agentic"}, {"kind": "agentic", "name": "agentic_text",
             "models": ["text-protocol"]}, "in_context", {"kind": "in_context",
                                                          "variant": "full"}]
if sandbox_problem() is None:
    PIPELINES.append("codegen")


def _config(tmp: Path) -> Path:
    models = [{"name": "reference-cypher", "provider": "oracle"},
              {"name": "text-protocol", "provider": "oracle", "tool_protocol": "text"}]
    pipelines = [p if isinstance(p, dict) and p.get("models") else
                 ({"kind": p} if isinstance(p, str) else p) | {"models": ["reference-cypher"]}
                 for p in PIPELINES]
    config = {"run_id": "pipelines", "results_dir": str(tmp / "results"),
              "cache_dir": str(tmp / "cache"), "models": models,
              "qa": {"questions": str(ROOT / "questions/demo/apartment_questions.yaml"),
                     "scene_graph": str(ROOT / "questions/demo/apartment_dsg.json"),
                     "db_root": str(tmp / "graphs"), "pipelines": pipelines},
              "report": False}
    path = tmp / "run.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def _run(config: Path, tmp: Path) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([str(CLI), "run", "--config", str(config)], capture_output=True,
                          text=True, check=True, cwd=tmp)
    last = [line for line in done.stdout.splitlines() if "LLM calls made fresh" in line]
    return time.perf_counter() - started, last[-1] if last else ""


def demo_figures() -> None:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        config = _config(tmp)
        fresh_s, fresh = _run(config, tmp)
        cached_s, cached = _run(config, tmp)
        summary = pd.read_csv(tmp / "results/pipelines/qa_summary.csv")
        rows = pd.read_csv(tmp / "results/pipelines/qa_results.csv")
    per_q = summary.assign(
        calls_per_q=summary["llm_calls"] / summary["items"],
        tokens_per_q=(summary["tokens"] / summary["items"]).round(0),
        seconds_per_q=(summary["seconds"] / summary["items"]).round(3))
    context = rows.groupby("pipeline")["context_tokens"].mean().round(0)
    per_q = per_q.assign(context_tokens=per_q["pipeline"].map(context))
    print("Demo questions (28) per pipeline, oracle answers:")
    print(per_q[["model", "pipeline", "accuracy", "calls_per_q", "tokens_per_q",
                 "seconds_per_q", "context_tokens"]].to_string(index=False))
    print(f"run fresh: {fresh_s:.1f} s ({fresh})")
    print(f"run again: {cached_s:.1f} s ({cached})")


def in_context_sizes() -> None:
    graph = load_scene_graph(EXAMPLE)
    questions = yaml.safe_load((ROOT / "questions/demo/apartment_questions.yaml").read_text())
    longest = max((q["question"] for q in questions["questions"]), key=len)
    print(f"In-context prompt for {EXAMPLE.name} ({len(graph.nodes)} nodes):")
    for variant in ("compact", "full"):
        text = serialize(graph, variant)
        prompt = "".join(m["content"] for m in in_context_messages(longest, text, variant,
                                                                     "SLDP"))
        print(f"  {variant:8} graph text {len(text):7,} chars ~{estimate_tokens(text):6,} tokens;"
              f" whole prompt {len(prompt):7,} chars ~{estimate_tokens(prompt):6,} tokens")


if __name__ == "__main__":
    in_context_sizes()
    demo_figures()

"""Small synthetic run folders, laid out as the benchmark flow writes them, for the reporting
tests: a few questions and planning instances whose verdicts a test chooses."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from pathlib import Path

import pandas as pd

QUESTIONS = [f"q{n:02d}" for n in range(1, 11)]
TAGS = ["counting", "sets;hierarchy", "paths", "counting;position", "sets"]
QA_MODELS = ["gpt-a", "gpt-b"]
DOMAINS = ["blocksworld", "gripper"]
INSTANCES = ["instance-1", "instance-2", "instance-3"]
PLAN_MODEL = "gpt-a"
EXPERIMENT = "gpt-a_non-incremental_pddl"
REPLY = "(pick-up a)\n(stack a b)"
# What an unsolved instance's log says: a reply with markup in it (the report must escape it)
# and the failure the evaluation found.
BAD_REPLY = "Sure! <plan>\n(pick-up a)\n(stack a c)\n</plan>"
FAILURE_DETAIL = "Step 2 (line 3), (stack a c), is not executable: (clear c) must hold."


def write_inputs(root: Path, question_text: str = "questions: v1\n") -> dict[str, str]:
    """Question set, scene graph and planning data whose content hashes are the versions."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "questions.yaml").write_text(question_text)
    (root / "scene.json").write_text('{"nodes": []}\n')
    for domain in DOMAINS:
        (root / "planning" / domain).mkdir(parents=True, exist_ok=True)
        (root / "planning" / domain / "domain.pddl").write_text(f"(define (domain {domain}))\n")
    return {"questions": str(root / "questions.yaml"), "scene_graph": str(root / "scene.json"),
            "data_dir": str(root / "planning")}


def write_run(
    results: Path, run_id: str, inputs: dict[str, str], *,
    wrong: Collection[tuple[str, str]] = (), unsolved: Collection[tuple[str, str]] = (),
    qa: bool = True, planning: bool = True, models: Collection[str] = QA_MODELS,
    tags: Sequence[str] = TAGS, questions: Sequence[str] = QUESTIONS,
) -> Path:
    """One run folder. `wrong` holds (model, uid) answered wrongly, `unsolved` holds
    (domain, instance) the planning model failed; everything else is right. Question n has
    `tags[n % len(tags)]` (tags joined by `;`)."""
    run_dir = results / run_id
    run_dir.mkdir(parents=True)
    config = {
        "run_id": run_id, "results_dir": str(results), "cache_dir": ".cache",
        "models": [{"name": m, "provider": "openai"} for m in models],
        "qa": {"questions": inputs["questions"], "scene_graph": inputs["scene_graph"],
               "backend": "kuzu"} if qa else None,
        "planning": {"data_dir": inputs["data_dir"], "approach": "non-incremental",
                     "domain_format": "pddl", "few_shot": False} if planning else None,
    }
    (run_dir / "config.json").write_text(json.dumps(config, indent=2))
    if qa:
        _qa_rows(models, set(wrong), tags, questions).to_csv(run_dir / "qa_results.csv",
                                                             index=False)
    if planning:
        _planning_tables(run_dir, set(unsolved))
    return run_dir


def generated_tags(questions: int, templates: int = 50, features: int = 12) -> list[str]:
    """Tags as `questions generate` writes them (category, template, a feature): with the
    defaults the generator's 10 categories + 50 templates + 12 features over `questions`
    questions, template n on fewer questions the larger n is, as in a real set."""
    from dsgqa.question_gen.templates import CATEGORIES

    return [f"{CATEGORIES[n % len(CATEGORIES)]};tmpl_{int(templates * (n / questions) ** 2):02d}"
            f";feat_{n % features:02d}" for n in range(questions)]


def _qa_rows(models: Collection[str], wrong: set[tuple[str, str]], tags: Sequence[str] = TAGS,
             questions: Sequence[str] = QUESTIONS) -> pd.DataFrame:
    rows = []
    for model in models:
        for index, uid in enumerate(questions):
            correct = (model, uid) not in wrong
            rows.append({
                "uid": uid, "name": f"question_{uid}", "tags": tags[index % len(tags)],
                "model": model, "backend": "kuzu", "cypher": "MATCH (n) RETURN count(n)",
                "valid_cypher": True, "n_rows": 1, "truncated": False, "query_error": "",
                "answer": "3" if correct else "4", "valid_answer": True, "correct": correct,
                "score_precision": 1.0 if correct else 0.0, "score_recall": 1.0 if correct else 0.0,
                "score_f1": 1.0 if correct else 0.0, "mismatch": "" if correct else "3 != 4",
                "prompt_tokens": 100, "completion_tokens": 20, "tokens": 120,
                "cost_usd": 0.0012, "seconds": 0.5, "error": "",
            })
    return pd.DataFrame(rows)


def _planning_tables(run_dir: Path, unsolved: set[tuple[str, str]]) -> None:
    rows = []
    for domain in DOMAINS:
        for instance in INSTANCES:
            solved = (domain, instance) not in unsolved
            rows.append({
                "experiment": EXPERIMENT, "domain": domain, "instance": instance,
                "model": PLAN_MODEL, "approach": "non-incremental", "success": solved,
                "solved_without_mistake": solved, "reached_goal": solved,
                "reached_goal_without_stopping": False, "predicted_goal_erroneously": "",
                "unsuccessful_reason": "" if solved else "not_executable", "n_mistakes": 0,
                "failure_kind": "" if solved else "precondition",
                "failure_detail": "" if solved else FAILURE_DETAIL,
                "failure_step": "" if solved else 2, "gold_class": "",
                "interaction_length": 1, "plan_length": 4, "gold_length": 4,
                "factor_plan_length": 1.0, "n_steps": 4, "n_executed": 4 if solved else 1,
                "execution_success": solved, "n_look_arounds": "",
                "n_look_arounds_after_mistakes": "", "goal_fraction": 1.0 if solved else 0.5,
                "state_goal_fraction": "", "relation_goal_fraction": 1.0 if solved else 0.5,
                "action_goal_fraction": "", "planning_lcs": 1.0, "planning_jaccard": 1.0,
            })
            log = run_dir / "plans" / EXPERIMENT / f"{domain}__{instance}.jsonl"
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(json.dumps({
                "experiment": EXPERIMENT, "domain": domain, "instance": instance,
                "model": PLAN_MODEL, "approach": "non-incremental",
                "attempts": [{"raw_reply": REPLY if solved else BAD_REPLY,
                              "feedback": "" if solved else FAILURE_DETAIL}],
                "meta": {"prompt_tokens": 300, "completion_tokens": 40, "llm_calls": 1,
                         "seconds": 1.5},
            }) + "\n")
    pd.DataFrame(rows).to_csv(run_dir / "plan_evaluation.csv", index=False)
    pd.DataFrame([{"experiment": EXPERIMENT, "model": PLAN_MODEL, "llm_calls": len(rows),
                   "prompt_tokens": 300 * len(rows), "completion_tokens": 40 * len(rows),
                   "cost_usd": 0.01}]).to_csv(run_dir / "plan_usage.csv", index=False)
    pd.DataFrame(columns=["item", "error"]).to_csv(run_dir / "plan_failures.csv", index=False)

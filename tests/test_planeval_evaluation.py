"""Evaluation from generation logs, AutoPlanBench's overview and the EAI-style aggregate report,
instance analysis and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from planeval.cli import main
from planeval.errors import PlanevalError
from planeval.evaluation import evaluate_logs, read_generation_log
from planeval.instances import analyze_instances, summarize_instances
from planeval.overview import load_evaluations, overview
from planeval.tables import write_table

BLOCKS = """(define (domain blocks) (:requirements :strips)
  (:predicates (on ?x ?y) (ontable ?x) (clear ?x) (handempty) (holding ?x))
  (:action pick-up :parameters (?x)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x)))
  (:action stack :parameters (?x ?y)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (not (holding ?x)) (not (clear ?y)) (clear ?x) (handempty) (on ?x ?y)))
  (:action unstack :parameters (?x ?y)
    :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (clear ?y) (not (clear ?x)) (not (handempty)) (not (on ?x ?y)))))"""
PROBLEM = """(define (problem two) (:domain blocks) (:objects a b)
  (:init (ontable a) (ontable b) (clear a) (clear b) (handempty)) (:goal (on a b)))"""
GOLD = "(pick-up a)\n(stack a b)\n; cost = 2 (unit cost)\n"
INSTANCES = [f"instance-{i}" for i in range(1, 5)]


def values(column: pd.Series) -> list[object]:
    """Column values with pandas' missing markers (NaN/None) shown as None."""
    return [None if pd.isna(v) else v for v in column]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    (root / "blocks" / "adapted_instances").mkdir(parents=True)
    (root / "blocks" / "adapted_gold_plans").mkdir()
    (root / "blocks" / "domain.pddl").write_text(BLOCKS)
    for instance in INSTANCES:
        (root / "blocks" / "adapted_instances" / f"{instance}.pddl").write_text(PROBLEM)
        (root / "blocks" / "adapted_gold_plans" / f"{instance}_gold_plan.txt").write_text(GOLD)
    return root


def record(instance: str, approach: str, **fields: object) -> str:
    base = {"domain": "blocks", "instance": instance, "model": "m1", "approach": approach}
    return json.dumps({**base, **fields})


def attempts(*replies: str) -> list[dict[str, str]]:
    return [{"raw_reply": reply} for reply in replies]


def action(text: str) -> dict[str, str]:
    return {"type": "action", "raw_reply": f"I will do {text}", "action": text}


LOOK = {"type": "look_around", "raw_reply": "look around"}
DONE = {"type": "finished", "raw_reply": "You are finished"}


@pytest.fixture
def logs_dir(tmp_path: Path) -> Path:
    logs = tmp_path / "logs"
    logs.mkdir()
    non_incremental = [
        # solved on the second attempt (backprompting)
        record(
            "instance-1",
            "non-incremental",
            attempts=attempts("(stack a b)", "```\n(pick-up a)\n(stack a b)\n```"),
        ),
        # duplicated step; the generator's own claim of success is ignored
        record(
            "instance-2",
            "non-incremental",
            attempts=attempts("(pick-up a)\n(pick-up a)"),
            meta={"success": True},
        ),
        # executes, never reaches the goal
        record("instance-3", "non-incremental", attempts=attempts("(pick-up b)")),
        # reaches the goal, then undoes it; `actions` (the generator's reading) is what counts
        record(
            "instance-4",
            "non-incremental",
            attempts=[
                {"raw_reply": "chatter", "actions": ["(pick-up a)", "(stack a b)", "(unstack a b)"]}
            ],
        ),
    ]
    incremental = [
        record(
            "instance-1", "incremental", events=[action("(pick-up a)"), action("(stack a b)"), DONE]
        ),
        record(
            "instance-2",
            "incremental",
            events=[
                action("(stack a b)"),
                LOOK,
                LOOK,
                action("(pick-up a)"),
                action("(stack a b)"),
                DONE,
            ],
        ),
        record(
            "instance-3",
            "incremental",
            events=[action("(pick-up a)"), DONE, LOOK, action("(stack a b)")],
        ),
        record("instance-4", "incremental", events=[{"type": "action", "raw_reply": "(fly away)"}]),
    ]
    (logs / "ni.jsonl").write_text("\n".join(non_incremental) + "\n")
    (logs / "inc.jsonl").write_text("\n\n".join(incremental))
    return logs


def test_per_instance_rows_are_recomputed_from_the_logs(logs_dir: Path, data_dir: Path) -> None:
    table = evaluate_logs(logs_dir, data_dir).set_index(["experiment", "instance"])
    ni = table.loc["ni"]
    assert values(ni["success"]) == [True, False, False, False]
    assert values(ni["unsuccessful_reason"]) == [
        None,
        "not_executable",
        "not_reached_goal",
        "not_recog_goal",
    ]
    assert values(ni["failure_kind"]) == [
        None,
        "precondition",
        "goal_not_reached",
        "goal_not_reached",
    ]
    assert values(ni["gold_class"]) == [None, "additional_step", "missing_step", "additional_step"]
    assert values(ni["interaction_length"]) == [2, 1, 1, 1]
    assert ni.loc["instance-1", "factor_plan_length"] == 1.0
    assert ni.loc["instance-4", "reached_goal_without_stopping"]
    assert ni.loc["instance-3", "planning_lcs"] == 0.0
    assert ni["n_look_arounds"].isna().all() and ni["predicted_goal_erroneously"].isna().all()
    # the first failure in words, as the model's feedback phrases it
    assert pd.isna(ni.loc["instance-1", "failure_detail"])
    assert ni.loc["instance-2", "failure_detail"].startswith("Step 2")
    assert "goal is not reached" in ni.loc["instance-3", "failure_detail"]

    inc = table.loc["inc"]
    assert values(inc["success"]) == [True, True, False, False]
    assert values(inc["solved_without_mistake"]) == [True, False, False, False]
    assert values(inc["interaction_length"]) == [3, 4, 3, 1]
    assert values(inc["n_look_arounds"]) == [0, 2, 1, 0]
    assert values(inc["n_look_arounds_after_mistakes"]) == [0, 1, 1, 0]
    assert values(inc["unsuccessful_reason"]) == [None, None, "not_recog_goal", "not_executable"]
    # instance-3 ends with the goal holding but never says `finished` after it: its own label
    assert values(inc["failure_kind"]) == [
        None,
        "precondition",
        "not_recog_goal",
        "unknown_action",
    ]
    assert inc.loc["instance-4", "failure_detail"].startswith("Turn 1: ")
    assert "fly" in inc.loc["instance-4", "failure_detail"]
    assert "never said `finished`" in inc.loc["instance-3", "failure_detail"]
    assert inc.loc["instance-3", "goal_fraction"] == 1.0
    assert inc.loc["instance-3", "predicted_goal_erroneously"]
    assert inc.loc["instance-3", "reached_goal_without_stopping"]
    assert inc.loc["instance-2", "plan_length"] == 2 and inc.loc["instance-2", "n_steps"] == 3


def test_overview_has_seed_002_and_003_metrics(
    logs_dir: Path, data_dir: Path, tmp_path: Path
) -> None:
    write_table(evaluate_logs(logs_dir, data_dir), tmp_path / "eval" / "all.csv")
    table = overview(load_evaluations(tmp_path / "eval")).set_index("experiment")
    inc, ni = table.loc["inc"], table.loc["ni"]
    assert inc["n_instances"] == 4 and inc["n_solved_successfully"] == 2
    assert inc["n_solved_without_mistake"] == 1
    assert inc["n_reached_goal_without_stopping"] == 1
    assert inc["n_predicted_goal_erroneously"] == 1
    assert (inc["unsuccessful_bec_not_recog_goal"], inc["unsuccessful_bec_not_executable"]) == (
        1,
        1,
    )
    assert (inc["n_look_arounds"], inc["n_look_arounds_after_mistakes"]) == (3, 2)
    assert inc["avg_interaction_length"] == pytest.approx(11 / 4)
    assert inc["avg_length_successful_interactions"] == pytest.approx(3.5)
    assert inc["avg_optimal_plan_length"] == 2.0 and inc["avg_factor_plan_length"] == 1.0
    assert inc["successful_tasks"] == ["instance-1", "instance-2"]
    assert inc["successful_tasks_with_mistakes"] == ["instance-2"]
    assert ni["n_solved_successfully"] == ni["n_solved_without_mistake"] == 1
    assert pd.isna(ni["n_look_arounds"]) and pd.isna(ni["n_predicted_goal_erroneously"])
    assert (
        ni["unsuccessful_bec_not_reached_goal"],
        ni["unsuccessful_bec_not_recog_goal"],
        ni["unsuccessful_bec_not_executable"],
    ) == (1, 1, 1)
    # the action-sequence evaluation's aggregate report (EAI error taxonomy)
    assert ni["task_success_rate"] == 0.25 and ni["execution_success_rate"] == 0.75
    assert ni["rate_precondition"] == 0.25 and ni["rate_goal_not_reached"] == 0.5
    assert ni["rate_additional_step"] == 0.5 and ni["rate_missing_step"] == 0.25
    assert ni["total_goal"] == pytest.approx(0.25)  # only instance-1 ends with (on a b)


def test_tables_are_written_as_csv_markdown_and_json(
    logs_dir: Path, data_dir: Path, tmp_path: Path
) -> None:
    table = overview(evaluate_logs(logs_dir, data_dir))
    markdown = write_table(table, tmp_path / "o.md").read_text()
    assert markdown.startswith("| experiment") and "| NA " in markdown
    assert "instance-1, instance-2" in markdown
    assert pd.read_csv(write_table(table, tmp_path / "o.csv")).shape == table.shape
    assert len(json.loads(write_table(table, tmp_path / "o.json").read_text())) == 2
    with pytest.raises(PlanevalError, match="unknown table format"):
        write_table(table, tmp_path / "o.xlsx")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "log.jsonl:2: not JSON"),
        (
            json.dumps({"domain": "blocks", "instance": "i", "model": "m"}),
            "log.jsonl:2: field 'approach'",
        ),
        (record("instance-1", "sideways"), "log.jsonl:2: field 'approach'"),
        (record("instance-1", "incremental", events=[{"type": "dance"}]), "field 'events.0.type'"),
        (record("instance-1", "incremental", schema="planeval.generation/9"), "unknown version"),
    ],
)
def test_bad_log_records_name_file_line_and_field(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text(record("instance-1", "incremental") + "\n" + line + "\n")
    with pytest.raises(PlanevalError) as error:
        list(read_generation_log(path))
    assert message in str(error.value) and "\n" not in str(error.value)


def test_unknown_instance_is_reported_with_the_log_line(tmp_path: Path, data_dir: Path) -> None:
    logs = tmp_path / "l.jsonl"
    logs.write_text(record("instance-99", "incremental") + "\n")
    with pytest.raises(
        PlanevalError, match=r"l\.jsonl:1: .*instance-99\.pddl: no such problem file"
    ):
        evaluate_logs(logs, data_dir)


def test_instance_analysis(data_dir: Path) -> None:
    rows = analyze_instances(data_dir)
    assert len(rows) == 4
    first = rows.iloc[0]
    assert (
        first["n_objects"],
        first["n_init_facts"],
        first["n_goal_facts"],
        first["gold_plan_length"],
    ) == (2, 5, 1, 2)
    summary = summarize_instances(rows)
    assert summary.loc[0, "n_instances"] == 4 and summary.loc[0, "gold_plan_length_mean"] == 2


# ---------------------------------------------------------------- CLI
def test_cli_validate_exit_codes(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    domain = data_dir / "blocks" / "domain.pddl"
    problem = data_dir / "blocks" / "adapted_instances" / "instance-1.pddl"
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text("1. pick-up(a)\n2. stack(a, b)\n")
    bad.write_text("(stack a b)\n")
    assert main(["validate", str(domain), str(problem), str(good)]) == 0
    assert capsys.readouterr().out.startswith("VALID")
    assert main(["validate", str(domain), str(problem), str(bad), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["failure"]["kind"] == "precondition" and report["failure"]["unmet"] == [
        "(holding a)"
    ]
    gold = data_dir / "blocks" / "adapted_gold_plans" / "instance-1_gold_plan.txt"
    assert main(["validate", str(domain), str(problem), str(bad), "--gold", str(gold)]) == 1
    assert "kind precondition (missing_step)" in capsys.readouterr().out  # pick-up was skipped
    assert main(["validate", str(domain), str(problem), str(tmp_path / "missing.txt")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("planeval: error:") and "missing.txt" in err and err.count("\n") == 1
    assert main(["validate", str(problem), str(problem), str(good)]) == 2
    assert "expected (define (domain" in capsys.readouterr().err


def test_cli_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["validate", "only-one-arg"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_cli_evaluate_overview_analyze(
    logs_dir: Path, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evaluation = tmp_path / "eval" / "run.csv"
    assert main(["evaluate", str(logs_dir), "--gold", str(data_dir), "--out", str(evaluation)]) == 0
    assert "evaluated 8 runs (3 solved, 0 errors)" in capsys.readouterr().out
    assert main(["overview", str(evaluation.parent), "--out", str(tmp_path / "overview.md")]) == 0
    assert "| inc" in (tmp_path / "overview.md").read_text()
    out = tmp_path / "sizes.csv"
    assert (
        main(
            [
                "analyze-instances",
                str(data_dir),
                "--out",
                str(out),
                "--per-instance",
                str(tmp_path / "per.csv"),
            ]
        )
        == 0
    )
    assert pd.read_csv(out).loc[0, "domain"] == "blocks"
    assert len(pd.read_csv(tmp_path / "per.csv")) == 4
    assert main(["overview", str(tmp_path / "nothing"), "--out", str(out)]) == 2
    assert (
        main(["evaluate", str(logs_dir), "--gold", str(tmp_path / "nowhere"), "--out", str(out)])
        == 2
    )


def test_cli_as_a_process_prints_no_traceback(tmp_path: Path) -> None:
    broken = tmp_path / "d.pddl"
    broken.write_text("(define (domain d) (:requirements :fluents))")
    done = subprocess.run(
        [sys.executable, "-m", "planeval.cli", "validate", str(broken), str(broken), str(broken)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        f"planeval: error: {broken}: line 1, column 35: unsupported requirements :fluents "
        "(planeval simulates STRIPS/ADL without numbers or time)"
    )


def test_markdown_tables_show_names_as_written() -> None:
    from planeval.tables import to_markdown

    frame = pd.DataFrame({"instance": ["01", "p2"], "task_success_rate": [0.5, None]})
    lines = to_markdown(frame).splitlines()
    assert [line.split("|")[1].strip() for line in lines[2:]] == ["01", "p2"]
    assert "0.500" in lines[2] and "NA" in lines[3]

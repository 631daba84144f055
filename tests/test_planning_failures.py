"""Planning items that got no scored plan stay in the planning tables as unscored rows.

Whatever left an item without a plan (its model's whole generate-plan batch failed, the planner
baseline's batch failed, one item's computation raised, its re-simulation at evaluate-plans
raised), the item keeps its (model, instance) row: the `error` column says why, the overviews
count it in `n_errors` and leave it out of `n_instances` and the rates, and `plan_failures.csv`
names its model. A model never drops out of the tables because its batch failed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from benchcore.batch import Outcome
from benchcore.llm.base import ModelConfig
from benchcore.run_config import BenchmarkConfig, PlanningConfig
from planeval.search import Limits
from plangen.approaches import PLANNER_MODEL, planner_baseline
from plangen.loading import load_planning_tasks
from tests.conftest import PROJECT_ROOT

DEMO = PROJECT_ROOT / "questions/planning"
GRIPPER = ["gripper/instance-1", "gripper/instance-2", "gripper/instance-3"]
SCORED = ["success", "execution_success", "failure_kind", "unsuccessful_reason",
          "goal_fraction", "interaction_length"]


def _scripted(name: str, script: Path) -> ModelConfig:
    return ModelConfig(name=name, provider="scripted", script=str(script))


def _config(tmp_path: Path, run_id: str, models: list[ModelConfig],
            planner_baseline: bool) -> BenchmarkConfig:
    """Gripper only (three instances), planning only, every errored item tolerated: the tables
    are what these tests read."""
    return BenchmarkConfig(
        run_id=run_id, results_dir=str(tmp_path / "results"), cache_dir=str(tmp_path / "cache"),
        models=models, max_error_fraction=1.0,
        planning=PlanningConfig(data_dir=str(DEMO), domains=["gripper"],
                                planner_baseline=planner_baseline),
    )


def _tables(run_dir: Path) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The per-instance evaluation, the per-domain overview and the overall one."""
    return (pd.read_csv(run_dir / "plan_evaluation.csv"),
            pd.read_csv(run_dir / "plan_overview.csv").set_index("model"),
            pd.read_csv(run_dir / "plan_overview_overall.csv").set_index("model"))


def _assert_unscored_batch(run_dir: Path, model: str, cause: str) -> None:
    """Every gripper instance of `model` has an unscored row naming `cause`, is counted in
    `n_errors` of both overviews, and is listed in plan_failures.csv under that model."""
    evaluation, by_domain, overall = _tables(run_dir)
    rows = evaluation[evaluation["model"] == model]
    assert sorted(rows["domain"] + "/" + rows["instance"]) == GRIPPER
    assert rows["error"].str.contains(cause).all()
    assert rows[SCORED].isna().all().all()            # not scored as failed plans
    for overview in (by_domain, overall):
        row = overview.loc[model]
        assert (row["n_instances"], row["n_errors"]) == (0, 3)
        assert pd.isna(row["task_success_rate"]) and pd.isna(row["execution_success_rate"])
        assert row["unsuccessful_bec_not_executable"] == 0
    failures = pd.read_csv(run_dir / "plan_failures.csv")
    listed = failures[failures["model"] == model]
    assert sorted(listed["item"]) == GRIPPER and listed["error"].str.contains(cause).all()
    assert model in (run_dir / "plan_overview.md").read_text()


@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_a_failed_model_batch_keeps_its_rows_as_errors(tmp_path: Path) -> None:
    """A scripted model whose reply file is gone fails its whole generate-plan batch (the
    client cannot be built): its instances are errored rows beside the other model's plans."""
    from flows.benchmark import nlp_dsg_benchmark

    gone = _scripted("gone", tmp_path / "no-such-replies.yaml")
    config = _config(tmp_path, "model-down",
                     [_scripted("replies", DEMO / "scripted_replies.yaml"), gone],
                     planner_baseline=False)
    run = nlp_dsg_benchmark(config)
    run_dir = tmp_path / "results/model-down"
    _assert_unscored_batch(run_dir, gone.label, "gone batch failed")
    overall = _tables(run_dir)[2]
    assert (overall.loc["scripted:replies", "n_instances"],
            overall.loc["scripted:replies", "n_errors"]) == (3, 0)
    summary = run.planning
    assert (summary.items, summary.errors, summary.units) == (6, 3, 3)
    assert {r["model"] for r in summary.overall_records} == {"scripted:replies", gone.label}
    # The report's headline names the model with its errors and no rate (not a 0% one).
    headline = {r["model"]: r for r in run.headline_records}
    assert headline[gone.label] == {"model": gone.label, "plan_instances": 0, "plan_errors": 3}


@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_a_failed_planner_batch_keeps_the_baseline_rows_as_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The planner baseline's batch raising (a permanent fault: no retry) leaves the
    `planner:greedy` rows in the tables as errors; the model's plans are scored as usual."""
    import tasks.planning
    from flows.benchmark import nlp_dsg_benchmark

    def planner_crashes(*args: object, **kwargs: object) -> list[Outcome]:
        raise ValueError("planner crashed")

    monkeypatch.setattr(tasks.planning, "planner_batch", planner_crashes)
    config = _config(tmp_path, "planner-down",
                     [_scripted("replies", DEMO / "scripted_replies.yaml")],
                     planner_baseline=True)
    summary = nlp_dsg_benchmark(config).planning
    run_dir = tmp_path / "results/planner-down"
    _assert_unscored_batch(run_dir, PLANNER_MODEL, "planner crashed")
    evaluation = _tables(run_dir)[0]
    assert set(evaluation.query("model == @PLANNER_MODEL")["experiment"]) == {"planner-baseline"}
    assert _tables(run_dir)[2].loc["scripted:replies", "n_instances"] == 3
    assert (summary.items, summary.errors) == (6, 3)


@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_every_batch_failing_still_writes_the_tables(tmp_path: Path) -> None:
    """With no plan at all the tables are still written, every item an error, and the run then
    fails on its error budget, naming the cause, instead of on an empty plan folder."""
    from benchcore.run_summary import ErrorBudgetExceeded
    from flows.benchmark import nlp_dsg_benchmark

    gone = _scripted("gone", tmp_path / "no-such-replies.yaml")
    config = _config(tmp_path, "all-down", [gone], planner_baseline=False)
    state = nlp_dsg_benchmark(config.model_copy(update={"max_error_fraction": 0.5}),
                              return_state=True)
    with pytest.raises(ErrorBudgetExceeded, match=r"planning track: 3/3 items errored"):
        state.result()
    _assert_unscored_batch(tmp_path / "results/all-down", gone.label, "cannot read scripted")


def _gripper_tasks(data: Path) -> dict[str, object]:
    config = PlanningConfig(data_dir=str(data), domains=["gripper"])
    return {t.key: t for t in load_planning_tasks(config)}


def test_an_item_without_a_record_keeps_its_row(tmp_path: Path) -> None:
    """One item of a batch whose computation raised (its outcome holds only the error) is an
    unscored row of that batch's model and experiment, not a missing one."""
    from plangen.batches import planner_owner
    from plangen.results import PlanBatch, summarize_planning_run

    tasks = _gripper_tasks(DEMO)
    outcomes = [Outcome(uid=key, value=planner_baseline(task, "planner-baseline", Limits(20_000)))
                for key, task in tasks.items() if key != "gripper/instance-2"]
    outcomes.append(Outcome(uid="gripper/instance-2", error="planner-plan: MemoryError: "))
    summary = summarize_planning_run([PlanBatch(planner_owner(), outcomes)],
                                     tmp_path / "run/plans", str(DEMO), tmp_path / "run")
    evaluation = pd.read_csv(summary.paths["evaluation_csv"]).set_index("instance")
    assert evaluation.loc["instance-2", "error"] == "planner-plan: MemoryError: "
    assert evaluation.loc["instance-2", "model"] == PLANNER_MODEL
    assert evaluation.loc[["instance-1", "instance-3"], "success"].all()
    overall = pd.read_csv(summary.paths["overall_csv"]).iloc[0]
    assert (overall["n_instances"], overall["n_errors"]) == (2, 1)
    assert (summary.items, summary.errors, summary.units) == (3, 1, 3)


def test_an_item_that_cannot_be_evaluated_is_an_error_row(tmp_path: Path) -> None:
    """A plan whose re-simulation at evaluate-plans fails (here its problem file went away
    after generation) is an errored row: the other plans are still evaluated and written."""
    from plangen.batches import planner_owner
    from plangen.results import PlanBatch, summarize_planning_run

    data = tmp_path / "data"
    shutil.copytree(DEMO / "gripper", data / "gripper")
    tasks = _gripper_tasks(data)
    outcomes = [Outcome(uid=key, value=planner_baseline(task, "planner-baseline", Limits(20_000)))
                for key, task in tasks.items()]
    (data / "gripper/adapted_instances/instance-3.pddl").unlink()
    summary = summarize_planning_run([PlanBatch(planner_owner(), outcomes)],
                                     tmp_path / "run/plans", str(data), tmp_path / "run")
    evaluation = pd.read_csv(summary.paths["evaluation_csv"]).set_index("instance")
    assert "evaluate-plans" in evaluation.loc["instance-3", "error"]
    assert "no such problem file" in evaluation.loc["instance-3", "error"]
    assert evaluation.loc[["instance-1", "instance-2"], "success"].all()
    overall = pd.read_csv(summary.paths["overall_csv"]).iloc[0]
    assert (overall["n_instances"], overall["n_errors"]) == (2, 1)
    failures = pd.read_csv(summary.paths["failures_csv"])
    assert failures["item"].tolist() == ["gripper/instance-3"]
    assert summary.errors == 1

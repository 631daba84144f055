"""Names the user chose become file names one to one: two models whose names differ only in
characters a file name cannot hold (`a/b`, `a:b`) keep their own plan logs and transcripts."""

from __future__ import annotations

import itertools

from benchcore.file_names import file_name
from benchcore.run_config import PlanningConfig
from dsgqa.results import transcript_file
from planeval import evaluate_logs
from plangen.approaches import non_incremental
from plangen.loading import load_planning_tasks
from plangen.logs import write_generation_logs
from tests.conftest import PROJECT_ROOT
from tests.test_plangen import ReplyList

NAMES = ["a/b", "a:b", "a-b", "a_b", "a.b", "a b", "llama3:8b", "llama3-8b", "llama3_8b",
         "a__b", "a", "b", "b__c", "a+b", "A/B", "Qwen/Qwen2.5-7B-Instruct", "x" * 300,
         "x" * 299 + "y", "", ".", "..", "-a", "a-", "é", "e", "\x00", "a/../b"]


def test_different_names_never_share_a_file_name() -> None:
    singles = {name: file_name(name) for name in NAMES}
    assert len(set(singles.values())) == len(NAMES)
    pairs = {pair: file_name(*pair, suffix=".jsonl")
             for pair in itertools.product(NAMES[:14], repeat=2)}
    assert len(set(pairs.values())) == len(pairs)   # ("a__b", "c") is not ("a", "b__c")
    for name in [*singles.values(), *pairs.values()]:
        assert "/" not in name and "\x00" not in name and name not in ("", ".", "..")
        assert not name.startswith(".") and len(name.encode()) <= 255


def test_plain_names_stay_as_written() -> None:
    assert file_name("gpt-4o-mini") == "gpt-4o-mini"
    assert file_name("gpt-4o_non-incremental_pddl") == "gpt-4o_non-incremental_pddl"
    assert file_name("blocksworld", "instance-1", suffix=".jsonl") == \
        "blocksworld__instance-1.jsonl"
    assert file_name("llama3:8b").startswith("llama3-8b+")


def test_models_named_alike_keep_their_own_plan_logs_and_transcripts(tmp_path) -> None:
    planning = PlanningConfig(data_dir=str(PROJECT_ROOT / "questions/planning"),
                              domains=["blocksworld"], max_instances_per_domain=1)
    task = load_planning_tasks(planning)[0]
    records = []
    for label, reply in (("a/b", task.gold_plan), ("a:b", "(pick-up nothing)")):
        record = non_incremental(task, ReplyList([reply]), planning.experiment_name(label),
                                 "pddl", max_attempts=1)
        records.append({**record, "model": label})
    write_generation_logs(records, tmp_path / "plans")
    rows = evaluate_logs(tmp_path / "plans", planning.data_dir)
    assert sorted(zip(rows["model"], rows["success"], strict=True)) == [
        ("a/b", True), ("a:b", False)]
    assert rows["experiment"].nunique() == 2
    assert transcript_file("a/b", "agentic") != transcript_file("a:b", "agentic")

"""Plan scoring stays bounded against runaway or hostile replies: the gold-plan classification
is linear in the plan's length, and at most `MAX_PLAN_STEPS` steps are read from a reply (the
rest is a `too_long` failure, not silence)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from planeval import gold as gold_module
from planeval.dataset import PlanningData
from planeval.describe import describe_failure
from planeval.diagnosis import validate_plan
from planeval.evaluation import GenerationRecord, evaluate_record
from planeval.failures import FailureKind
from planeval.plan_text import MAX_PLAN_STEPS, PlanStep, parse_plan

DATA = Path(__file__).resolve().parents[1] / "questions" / "planning"


@pytest.fixture(scope="module")
def data() -> PlanningData:
    return PlanningData(DATA)


def _record(reply: str) -> GenerationRecord:
    return GenerationRecord.model_validate({
        "domain": "gripper", "instance": "instance-1", "model": "m",
        "approach": "non-incremental", "attempts": [{"raw_reply": reply}]})


def test_a_reply_longer_than_the_cap_is_read_up_to_it_and_fails_as_too_long(data) -> None:
    reply = "(move kitchen office)\n(move office kitchen)\n" * (MAX_PLAN_STEPS // 2 + 3)
    plan = parse_plan(reply, data.domain("gripper").actions)
    assert plan.cut and len(plan.items) == MAX_PLAN_STEPS
    report = validate_plan(data.domain("gripper"), data.problem("gripper", "instance-1"), plan)
    assert report.failure is not None and report.failure.kind is FailureKind.TOO_LONG
    assert report.failure.step == MAX_PLAN_STEPS + 1 and report.n_executed == MAX_PLAN_STEPS
    assert not report.executable and not report.valid
    assert f"more than {MAX_PLAN_STEPS:,} steps" in describe_failure(report)
    row = evaluate_record(_record(reply), data)
    assert row["failure_kind"] == "too_long" and row["n_steps"] == MAX_PLAN_STEPS
    # a failure within the cap is still the first failure
    early = "(drop ball1 office left)\n" + reply
    assert evaluate_record(_record(early), data)["failure_kind"] == "precondition"


@pytest.mark.timeout(60)   # a hang guard, not a speed target: it took hours when quadratic
def test_a_200000_step_reply_is_scored_in_bounded_time(data) -> None:
    reply = ("(move kitchen office)\n(drop ball1 office left)\n"
             + "(pick ball1 office left)\n" * 200_000)
    row = evaluate_record(_record(reply), data)
    assert row["failure_kind"] == "precondition" and row["failure_step"] == 2
    assert row["gold_class"] == "missing_step"


def _achieved_later_reference(task, plan: Sequence, failing_step: int, needed, gold,
                              gold_position) -> bool:
    """Rule 2a as first written (counting anew per step, quadratic): the linear one must
    decide every case the same way."""
    from planeval.grounding import GroundAction

    missing, wrongly_true = needed
    keys = [(s.name, s.args) if isinstance(s, PlanStep) else None for s in plan]
    for index in range(failing_step, len(plan)):
        key = keys[index]
        if key is None:
            continue
        achiever = task.ground(*key)
        if not isinstance(achiever, GroundAction) or not (
            achiever.possible_adds() & missing or achiever.possible_deletes() & wrongly_true
        ):
            continue
        if keys.count(key) < gold.actions.count(key):
            continue
        if gold_position is None:
            return True
        position = gold_module._nth_index(gold.actions, key, keys[: index + 1].count(key))
        if position is not None and position < gold_position:
            return True
    return False


@pytest.mark.parametrize("domain", ["gripper", "blocksworld", "delivery-robot"])
def test_the_linear_classification_decides_as_the_quadratic_one(data, domain,
                                                                 monkeypatch) -> None:
    rng = random.Random(7)
    compared = 0
    for instance in data.instance_names(domain)[:3]:
        gold_text = data.gold_plan(domain, instance)
        if gold_text is None:
            continue
        steps = parse_plan(gold_text).actions()
        problem, dom = data.problem(domain, instance), data.domain(domain)
        for _ in range(60):
            plan = list(steps)
            for _ in range(rng.randint(1, 4)):   # drop, swap, repeat, insert gold steps
                i, j = rng.randrange(len(plan)), rng.randrange(len(plan))
                match rng.randrange(4):
                    case 0 if len(plan) > 1:
                        del plan[i]
                    case 1:
                        plan[i], plan[j] = plan[j], plan[i]
                    case 2:
                        plan.insert(i, plan[j])
                    case _:
                        plan.insert(i, rng.choice(steps))
            text = "\n".join(plan)
            linear = validate_plan(dom, problem, text, gold_text)
            with monkeypatch.context() as patched:
                patched.setattr(gold_module, "_achieved_later", _achieved_later_reference)
                reference = validate_plan(dom, problem, text, gold_text)
            assert linear.failure == reference.failure, text
            compared += linear.failure is not None and linear.failure.gold_class is not None
    assert compared > 20

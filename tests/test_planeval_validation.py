"""validate_plan on the real data: every gold plan is valid, mutated plans fail as they should.

Mutations are applied at three positions of every gold plan (start, middle, end), so each
domain's quirks are covered without running tens of thousands of validations.
"""

from __future__ import annotations

from functools import cache

import pytest

from planeval.dataset import PlanningData
from planeval.describe import describe_failure
from planeval.diagnosis import validate_plan
from planeval.failures import FailureKind, GoldClass
from planeval.plan_text import parse_plan
from tests import external

DATA = external.path(external.PLANNING)
pytestmark = external.needs(external.PLANNING)


@cache
def data() -> PlanningData:
    return PlanningData(DATA)


def gold_plan_files() -> list[tuple[str, str]]:
    if not DATA.is_dir():
        return []
    return sorted(
        (path.parent.parent.name, path.name.removesuffix("_gold_plan.txt"))
        for path in DATA.glob("*/adapted_gold_plans/*_gold_plan.txt")
    )


def with_problem() -> list[tuple[str, str]]:
    """Every instance with a gold plan; one placeholder without the data (the module's marker
    skips it, naming the fetch command)."""
    return [
        (d, i)
        for d, i in gold_plan_files()
        if (DATA / d / "adapted_instances" / f"{i}.pddl").is_file()
    ]


def load(domain: str, instance: str):  # type: ignore[no-untyped-def]
    dataset = data()
    gold = dataset.gold_plan(domain, instance)
    assert gold is not None
    return dataset.domain(domain), dataset.problem(domain, instance), gold


def test_the_data_has_552_gold_plans_and_19_lack_a_problem_file() -> None:
    assert len(gold_plan_files()) == 552
    assert len(with_problem()) == 533


@pytest.mark.parametrize(("domain", "instance"), with_problem() or [("-", "-")], ids=lambda v: v)
def test_every_gold_plan_is_valid(domain: str, instance: str) -> None:
    dom, problem, gold = load(domain, instance)
    report = validate_plan(dom, problem, gold)
    assert report.valid, describe_failure(report)
    assert report.executable and report.goal_reached and report.failure is None
    assert report.n_executed == len(report.steps) == len(parse_plan(gold).steps)
    assert report.goal_reached_at == len(report.steps)  # gold plans never overshoot
    assert report.goal_fraction == 1.0


def positions(n: int) -> list[int]:
    return sorted({0, n // 2, n - 1})


def mutate(steps: list[str], k: int, how: str) -> list[str]:
    if how == "drop":
        return steps[:k] + steps[k + 1 :]
    if how == "duplicate":
        return [*steps[: k + 1], steps[k], *steps[k + 1 :]]
    if how == "swap":
        swapped = list(steps)
        swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
        return swapped
    raise ValueError(how)


@pytest.mark.parametrize("domain", sorted({d for d, _ in with_problem()}) or ["-"])
def test_mutated_gold_plans_get_the_right_verdict_and_kind(domain: str) -> None:
    counts = {"drop": 0, "duplicate": 0, "swap": 0}
    for dom_name, instance in with_problem():
        if dom_name != domain:
            continue
        dom, problem, gold = load(domain, instance)
        steps = parse_plan(gold).actions()
        n = len(steps)

        def check(plan: list[str], dom=dom, problem=problem, gold=gold):  # type: ignore[no-untyped-def]
            return validate_plan(dom, problem, "\n".join(plan), gold_plan=gold)

        # truncated: executes, goal not reached, the gold plan has the missing steps
        report = check(steps[:-1])
        if n == 1:  # no action left: a parsing error, not an empty plan that executes
            assert report.failure.kind is FailureKind.PARSE and not report.executable
        else:
            assert not report.valid and report.executable and not report.goal_reached
            assert report.failure.kind is FailureKind.GOAL_NOT_REACHED
            assert report.failure.step == n - 1
            assert report.failure.gold_class is GoldClass.MISSING_STEP
            assert report.failure.unmet and report.goal_fraction < 1.0

        objects = sorted(problem.all_objects)
        for k in positions(n):
            name, *args = steps[k][1:-1].split()
            # extra argument: VAL would accept it, we report arity at that step
            report = check([*steps[:k], f"({name} {' '.join(args)} {objects[0]})", *steps[k + 1 :]])
            assert (report.failure.kind, report.failure.step) == (FailureKind.ARITY, k + 1)
            assert report.n_executed == k and not report.executable
            # hallucinated action and object, malformed action; a prose line is no action
            report = check([*steps[:k], "(teleport-everything now)", *steps[k:]])
            assert (report.failure.kind, report.failure.step) == (FailureKind.UNKNOWN_ACTION, k + 1)
            report = check([*steps[:k], f"({name} {' '.join(args)}", *steps[k:]])
            assert (report.failure.kind, report.failure.line) == (FailureKind.PARSE, k + 1)
            assert check([*steps[:k], "what should I do next???", *steps[k:]]).valid
            if args:
                wrong = [name, "ghost_object_zz", *args[1:]]
                report = check([*steps[:k], f"({' '.join(wrong)})", *steps[k + 1 :]])
                assert (report.failure.kind, report.failure.step) == (
                    FailureKind.UNKNOWN_OBJECT,
                    k + 1,
                )
            for failure in (report.failure,):
                assert failure.gold_class is None  # grammar errors get no gold class

            # dropped step: if it breaks the plan, the gold plan has the missing step
            report = check(mutate(steps, k, "drop"))
            if not report.valid and n > 1:  # n == 1 leaves no action: a parsing error
                counts["drop"] += 1
                assert report.failure.kind in (
                    FailureKind.PRECONDITION,
                    FailureKind.GOAL_NOT_REACHED,
                )
                assert report.failure.gold_class is GoldClass.MISSING_STEP, describe_failure(report)
            # duplicated step: fails right at the copy, as an additional step
            report = check(mutate(steps, k, "duplicate"))
            if not report.valid:
                counts["duplicate"] += 1
                assert (report.failure.kind, report.failure.step) == (
                    FailureKind.PRECONDITION,
                    k + 2,
                )
                assert report.failure.gold_class is GoldClass.ADDITIONAL_STEP
            # swapped neighbours: when the swap itself breaks, it is a wrong order
            if k + 1 < n and steps[k] != steps[k + 1]:
                report = check(mutate(steps, k, "swap"))
                if (
                    not report.valid
                    and report.failure.kind is FailureKind.PRECONDITION
                    and (report.failure.step in (k + 1, k + 2))
                ):
                    counts["swap"] += 1
                    assert report.failure.gold_class is GoldClass.WRONG_ORDER, describe_failure(
                        report
                    )
    assert counts["drop"] > 0  # (movie98's actions can be repeated or reordered harmlessly)


def test_blocksworld_mutations_in_detail() -> None:
    dom, problem, gold = load("blocksworld_planbench", "instance-3")
    steps = parse_plan(gold).actions()
    assert steps[:2] == ["(unstack blue_block orange_block)", "(put-down blue_block)"]

    dropped = validate_plan(dom, problem, "\n".join(steps[1:]), gold_plan=gold)
    assert dropped.failure.kind is FailureKind.PRECONDITION and dropped.failure.step == 1
    assert dropped.failure.unmet == ("(holding blue_block)",)
    assert dropped.failure.gold_class is GoldClass.MISSING_STEP
    assert describe_failure(dropped) == (
        "Step 1 (line 1), (put-down blue_block), is not executable: (holding blue_block) is false."
    )

    swapped = validate_plan(
        dom, problem, "\n".join([steps[1], steps[0], *steps[2:]]), gold_plan=gold
    )
    assert swapped.failure.gold_class is GoldClass.WRONG_ORDER

    twice = validate_plan(dom, problem, "\n".join([steps[0], *steps]), gold_plan=gold)
    assert twice.failure.step == 2 and twice.failure.gold_class is GoldClass.ADDITIONAL_STEP
    assert "(handempty) is false" in describe_failure(twice)

    wrong_type_free = validate_plan(dom, problem, "(pick-up table)")
    assert wrong_type_free.failure.kind is FailureKind.UNKNOWN_OBJECT

    truncated = validate_plan(dom, problem, "\n".join(steps[:-1]))
    assert truncated.goal_reached_at is None and truncated.goal.relation_total == 2
    assert truncated.goal.relation_satisfied == 1 and truncated.goal_fraction == 0.5
    assert describe_failure(truncated) == (
        "The plan executes, but the goal is not reached: at the end "
        "(on yellow_block red_block) is false."
    )


def test_typed_domain_rejects_objects_of_the_wrong_type() -> None:
    dom, problem, _gold = load("gripper", "instance-2")
    by_type: dict[str, list[str]] = {}
    for name, types in problem.objects.items():
        by_type.setdefault(types[0], []).append(name)
    robot, room = by_type["robot"][0], by_type["room"][0]
    ball = by_type["object"][0]
    # (pick ?r - robot ?obj - object ?room - room ?g - gripper): a room is not a gripper
    report = validate_plan(dom, problem, f"(pick {robot} {ball} {room} {room})")
    assert (report.failure.kind, report.failure.step) == (FailureKind.TYPE, 1)
    assert f"argument 4 of 'pick', '{room}', is a room, not a gripper" in report.failure.detail
    # every object is an `object`, so a room may fill the untyped-looking ?obj slot
    report = validate_plan(dom, problem, f"(pick {robot} {room} {room} {by_type['gripper'][0]})")
    assert report.failure.kind is FailureKind.PRECONDITION


def test_data_network_the_domain_val_cannot_parse() -> None:
    dom, problem, gold = load("data-network18", "instance-3")
    assert validate_plan(dom, problem, gold).valid
    first = parse_plan(gold).actions()[0]
    broken = first.replace("numbers_3)", "numbers_4)")
    report = validate_plan(dom, problem, broken)
    assert report.failure.kind is FailureKind.PRECONDITION
    assert report.failure.unmet  # names the false (sum ...)/(usage ...) facts


def test_labyrinth_negative_preconditions_and_constants() -> None:
    dom, problem, gold = load("labyrinth23", "instance-2")
    steps = parse_plan(gold).actions()
    assert validate_plan(dom, problem, gold).valid
    # starting a second rotation while cards are moving violates (not (cards-moving))
    report = validate_plan(dom, problem, "\n".join([steps[0], steps[0]]))
    assert "(not (cards-moving))" in report.failure.unmet
    assert "(cards-moving) is true but must be false" in describe_failure(report)

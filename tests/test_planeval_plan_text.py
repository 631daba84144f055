"""Reading plans the way LLMs write them: the formats, and where the plan is in a reply."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planeval.describe import describe_failure
from planeval.diagnosis import validate_plan
from planeval.failures import FailureKind
from planeval.metrics import planning_lcs
from planeval.parser import parse_domain, parse_problem
from planeval.plan_text import LineError, PlanStep, parse_action, parse_plan

PICK_STACK = ["(pick-up a)", "(stack a b)"]
BLOCKS_ACTIONS = ("pick-up", "put-down", "stack", "unstack")


@pytest.mark.parametrize(
    "text",
    [
        "(pick-up a)\n(stack a b)",
        "pick-up a\nstack a b",
        "pick-up(a)\nstack(a, b)",
        "PICK-UP(A)\nStack(A,B)",
        "1. (pick-up a)\n2. (stack a b)",
        "1) pick-up a\n2) stack a b",
        "0: (pick-up a) [1]\n1: (stack a b) [1]",
        "0.000: (pick-up a) [1.000]\n1.000: (stack a b) [1.000]",
        "Step 1: (pick-up a)\nStep 2: (stack a b)",
        "Action 1: pick-up a\nAction 2 - stack a b",
        "First: (pick-up a)\nThen: (stack a b)",
        "- (pick-up a)\n* (stack a b)",
        "\n\n(pick-up a)   ; take it\n\n; a comment line\n(stack a b)\n; cost = 2 (unit cost)\n",
        "(pick-up a) (stack a b)",
        "(pick-up a), (stack a b)",
        "pick-up(a), stack(a,b)",
        "**1.** `(pick-up a)`\n**2.** `(stack a b)`",
        "Plan:\n(pick-up a)\n(stack a b)",
        '[{"action": "pick-up", "object": "a"}, {"action": "stack", "args": ["a", "b"]}]',
        '{"plan": ["(pick-up a)", "stack(a, b)"]}',
        '[["pick-up", "a"], ["STACK", "A", "B"]]',
        "Sure! Here is the plan.\n```\n(pick-up a)\n(stack a b)\n```\nThis stacks a on b.",
        'I think:\n```json\n[\n  {"action": "PICK-UP", "object": "a"},\n'
        '  {"action": "stack", "arguments": ["a", "b"]}\n]\n```\nDone!',
    ],
)
def test_formats_llms_write_give_the_same_steps(text: str) -> None:
    plan = parse_plan(text)
    assert plan.errors == ()
    assert plan.actions() == PICK_STACK


def test_seed_003_json_plan() -> None:
    plan = parse_plan(
        '[{"action": "LEFT_GRASP", "object": "candle_0"}, '
        '{"action": "RIGHT_PLACE_INSIDE", "object": "basket_0"}]'
    )
    assert plan.fmt == "json"
    assert plan.actions() == ["(left_grasp candle_0)", "(right_place_inside basket_0)"]


def test_unreadable_lines_are_reported_in_place_with_line_numbers() -> None:
    plan = parse_plan("(pick-up a)\nI am not sure what to do next!\n\n(stack a b)\n(((")
    assert [type(i) for i in plan.items] == [PlanStep, LineError, PlanStep, LineError]
    first, second = plan.errors
    assert (first.line, second.line) == (2, 5)
    assert "line 2" in first.message and "not sure" in first.text
    assert plan.steps[1].line == 4
    assert not plan.ok


def test_line_numbers_count_from_the_start_of_the_reply_even_inside_a_fence() -> None:
    plan = parse_plan("Here you go:\n\n```pddl\n(pick-up a)\nfly away!\n```\n")
    assert plan.steps[0].line == 4
    assert plan.errors[0].line == 5


def test_json_elements_get_their_own_line_numbers() -> None:
    plan = parse_plan('[\n {"action": "pick-up", "object": "a"},\n 42,\n {"action": "stack"}\n]')
    assert [type(i) for i in plan.items] == [PlanStep, LineError, PlanStep]
    assert [i.line for i in plan.items] == [2, 3, 4]


def test_the_first_fenced_block_that_parses_as_actions_is_the_plan() -> None:
    text = "Plan:\n```\n(pick-up a)\n(stack a b)\n```\nDraft:\n```\n(pick-up b)\n```\n```\n```"
    assert parse_plan(text).actions() == PICK_STACK
    assert parse_plan(text, BLOCKS_ACTIONS).actions() == PICK_STACK


def test_concurrent_sets_keep_their_group_and_order() -> None:
    plan = parse_plan("a1, {a2 x, a3(y)}, a4")
    assert plan.actions() == ["(a1)", "(a2 x)", "(a3 y)", "(a4)"]
    groups = [s.group for s in plan.steps]
    assert groups[0] is None and groups[3] is None
    assert groups[1] == groups[2] is not None


def test_header_lines_are_skipped_but_recorded() -> None:
    plan = parse_plan("Plan:\n(pick-up a)\nFinal answer:\n(stack a b)")
    assert plan.actions() == PICK_STACK
    assert plan.ignored == (1, 3)


def test_empty_reply_has_no_steps() -> None:
    assert parse_plan("").items == ()
    assert parse_plan("   \n; nothing\n").items == ()


def test_parse_action_wants_exactly_one_action() -> None:
    step = parse_action("  (Pick-Up A)  ")
    assert isinstance(step, PlanStep) and step.pddl == "(pick-up a)"
    assert isinstance(parse_action("(pick-up a) (stack a b)"), LineError)
    assert isinstance(parse_action(""), LineError)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*"()[]{},;:.`*-_ \n\"'ab1?!", "pick-up", "```"])).map("".join))
def test_any_text_is_read_without_crashing(text: str) -> None:
    plan = parse_plan(text)
    for item in plan.items:
        assert item.line >= 1
        if isinstance(item, PlanStep):
            assert item.name and " " not in item.name
    planning_lcs(text, text)  # the metric's reader must not crash either


# ------------------------------------------------ the extraction rules (prose is not an action)
BLOCKS = """(define (domain blocks) (:requirements :strips)
  (:predicates (on ?x ?y) (ontable ?x) (clear ?x) (handempty) (holding ?x))
  (:action pick-up :parameters (?x)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x)))
  (:action stack :parameters (?x ?y)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (not (holding ?x)) (not (clear ?y)) (clear ?x) (handempty) (on ?x ?y))))"""
PROBLEM = """(define (problem two) (:domain blocks) (:objects a b)
  (:init (ontable a) (ontable b) (clear a) (clear b) (handempty)) (:goal (on a b)))"""


def validate(reply: str):  # type: ignore[no-untyped-def]
    domain = parse_domain(BLOCKS)
    return validate_plan(domain, parse_problem(PROBLEM, domain), reply)


def test_a_reply_without_actions_is_a_parse_failure_not_a_hallucinated_action() -> None:
    assert parse_plan("I cannot help.", BLOCKS_ACTIONS).items == ()
    report = validate("I cannot help.")
    assert report.failure is not None and report.failure.kind is FailureKind.PARSE
    assert not report.executable and report.failure.step == 1
    assert "no action" in describe_failure(report)
    assert validate("").failure.kind is FailureKind.PARSE  # not an empty plan that executes


def test_prose_after_an_unfenced_plan_is_skipped() -> None:
    report = validate("(pick-up a)\n(stack a b)\nThis achieves the goal.")
    assert report.valid and report.steps == tuple(PICK_STACK)
    plan = parse_plan("pick-up a\nstack a b\nThis achieves the goal.", BLOCKS_ACTIONS)
    assert plan.actions() == PICK_STACK and plan.ignored == (3,)


def test_prose_before_an_unfenced_plan_is_skipped() -> None:
    report = validate("Here is how to put a on b:\nFirst we do this\n1. pick-up(a)\n2. stack(a, b)")
    assert report.valid and report.steps == tuple(PICK_STACK)


def test_a_second_fenced_block_of_final_state_facts_is_not_the_plan() -> None:
    reply = "```\n(pick-up a)\n(stack a b)\n```\nFinal state:\n```\n(on a b)\n(clear a)\n```"
    assert validate(reply).valid
    facts_first = "State:\n```pddl\n(ontable a)\n```\nPlan:\n```pddl\n(pick-up a)\n(stack a b)\n```"
    assert parse_plan(facts_first, BLOCKS_ACTIONS).actions() == PICK_STACK


def test_a_block_tagged_pddl_is_preferred() -> None:
    reply = "```\n(pick-up b)\n```\nBetter:\n```pddl\n(pick-up a)\n(stack a b)\n```"
    assert parse_plan(reply, BLOCKS_ACTIONS).actions() == PICK_STACK


def test_outside_fences_only_parentheses_or_known_names_make_an_action() -> None:
    plan = parse_plan("(fly a)\nfly(a)\nfly a\nstack a b\nDone (finally)", BLOCKS_ACTIONS)
    assert plan.actions() == ["(fly a)", "(stack a b)"]  # (fly a) stays a hallucinated action
    assert plan.ignored == (2, 3, 5)
    assert validate("(fly a)\n(stack a b)").failure.kind is FailureKind.UNKNOWN_ACTION


def test_a_malformed_action_outside_fences_is_a_parse_error_in_place() -> None:
    plan = parse_plan("(pick-up a)\n(stack a b\npick-up a, then stack it", BLOCKS_ACTIONS)
    assert [type(i) for i in plan.items] == [PlanStep, LineError, PlanStep, LineError]
    assert [e.line for e in plan.errors] == [2, 3]
    assert validate("(pick-up a)\n(stack a b").failure.kind is FailureKind.PARSE


def test_an_unfenced_plan_is_found_when_no_fenced_block_has_actions() -> None:
    reply = "Thinking:\n```\nwe need a on b\n```\n(pick-up a)\n(stack a b)"
    assert parse_plan(reply, BLOCKS_ACTIONS).actions() == PICK_STACK


def test_inside_the_chosen_fence_every_line_must_be_an_action() -> None:
    plan = parse_plan("```\n(pick-up a)\nthen do it!\n(stack a b)\n```", BLOCKS_ACTIONS)
    assert [type(i) for i in plan.items] == [PlanStep, LineError, PlanStep]


def test_one_action_per_turn_is_found_among_prose() -> None:
    step = parse_action("I will pick up a now.\n(pick-up a)", BLOCKS_ACTIONS)
    assert isinstance(step, PlanStep) and step.pddl == "(pick-up a)"
    assert isinstance(parse_action("I cannot help.", BLOCKS_ACTIONS), LineError)

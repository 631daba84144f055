"""Reading plans the way LLMs write them (issue 5's list of formats)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planeval.metrics import planning_lcs
from planeval.plan_text import LineError, PlanStep, parse_action, parse_plan

PICK_STACK = ["(pick-up a)", "(stack a b)"]


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


def test_last_fenced_block_with_actions_wins() -> None:
    text = "Draft:\n```\n(pick-up b)\n```\nFinal:\n```\n(pick-up a)\n(stack a b)\n```\n```\n```"
    assert parse_plan(text).actions() == PICK_STACK


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

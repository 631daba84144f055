"""The independent checker (tests/independent_check) on the shipped generated set: every question
is recognised from its text, and every answer it computes from the JSON alone equals the gold
one under the scorer, and none is ambiguous, so a new ambiguity in a regenerated set fails here
until it is looked at. The checker's own independence (what it may
import) and its power to catch a wrong gold answer are tested too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from tests import external
from tests.independent_check.__main__ import main
from tests.independent_check.check import Verdict, check_question, check_set
from tests.independent_check.compare import SLDP_TOLERANCE
from tests.independent_check.graph import load
from tests.independent_check.phrasings import recognise

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "questions/generated/example_dsg_questions.yaml"
CHECKER = ROOT / "tests/independent_check"
# What the checker may import of the project: the scorer, nothing that computes gold answers or
# loads the graph for the benchmark.
ALLOWED_PROJECT_IMPORTS = {"dsgqa.sldp", "dsgqa.pddl_goal", "tests.independent_check"}


@pytest.fixture(scope="module")
def verdicts() -> list[Verdict]:
    return check_set(SHIPPED, external.require(external.EXAMPLE_DSG))


@external.needs(external.EXAMPLE_DSG)
def test_the_shipped_set_agrees_with_the_independent_answers(verdicts):
    assert len(verdicts) == 300
    wrong = [(v.uid, v.verdict, v.gold, v.answer, v.note) for v in verdicts
             if v.verdict != "agree"]
    assert wrong == []


def _wrong(solution: str) -> str:
    """A solution changed just enough to be wrong: a count one too many, a length 2 cm off, a
    set with an extra member or a dict with an extra key, a point 2 cm off, a list with its
    first two swapped, a goal with one more atom, a class name misspelt."""
    if solution.startswith("POINT("):
        x, y, z = (float(v) for v in solution[6:-1].split())
        return f"POINT({x} {y} {z + 0.02})"
    if solution.startswith("{"):
        return solution[:-1] + ", X999: 1}"
    if solution.startswith("<"):
        return solution[:-1] + (", " if solution != "<>" else "") + "X999>"
    if solution.startswith("["):
        items = solution[1:-1].split(", ")
        return "[" + ", ".join([items[1], items[0], *items[2:]]) + "]"
    if solution.startswith("("):
        return f"(and {solution} (safe X999))"
    if solution.lstrip("-").isdigit():
        return str(int(solution) + 1)
    try:
        return str(float(solution) + 0.02)
    except ValueError:
        return solution + "X"     # a class name


@external.needs(external.EXAMPLE_DSG)
def test_a_wrong_gold_answer_is_a_disagreement():
    graph = load(external.require(external.EXAMPLE_DSG))
    data = yaml.safe_load(SHIPPED.read_text())
    first: dict[str, dict] = {}
    for question in data["questions"]:
        first.setdefault(question["tags"][1], question)
    assert len(first) >= 50
    for template, question in first.items():
        changed = {**question, "solution": _wrong(str(question["solution"]))}
        verdict = check_question(graph, changed, data["preamble"])
        assert verdict.verdict == "disagree", (template, verdict)
        assert "does not parse" not in verdict.note, (template, verdict)


@external.needs(external.EXAMPLE_DSG)
def test_a_question_whose_definitions_the_preamble_does_not_state_is_not_recognised():
    data = yaml.safe_load(SHIPPED.read_text())
    named = next(q for q in data["questions"] if q["tags"][0] == "references")
    assert recognise(named["question"], data["preamble"]) is not None
    assert recognise(named["question"]) is None
    reworded = data["preamble"].replace("never the D itself", "the D included")
    nearest = next(q for q in data["questions"] if q["tags"][1] == "nearest_described")
    assert recognise(nearest["question"], reworded) is None
    # The older templates' definitions are the preamble's too: a hop count needs what a hop is.
    hops = next(q for q in data["questions"] if q["tags"][1] == "room_hops")
    assert recognise(hops["question"], data["preamble"]) is not None
    assert recognise(hops["question"], data["preamble"].replace("Between rooms", "Among rooms")) \
        is None


def test_an_unknown_phrasing_or_a_changed_definition_is_not_recognised():
    assert recognise("How many objects of class 'box' are in the scene graph?") is not None
    assert recognise("How many boxes are there?") is None
    question = "How many different objects are in room R5?"
    stated = ("An object is in a room when the room CONTAINS a place or mesh place that CONTAINS "
              "the object.")
    changed = "An object is in a room when the room CONTAINS a place that CONTAINS the object."
    assert recognise(question, stated) is not None
    assert recognise(question, changed) is None
    assert recognise(question) is None


@external.needs(external.EXAMPLE_DSG)
def test_the_command_prints_the_tally_and_exits_zero(capsys):
    assert main([str(SHIPPED), str(external.require(external.EXAMPLE_DSG))]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["category", "agree", "disagree", "unparsed",
                                           "ambiguous"]
    assert out.splitlines()[11].split() == ["all", "300", "0", "0", "0"]


def test_the_checker_uses_the_scorers_tolerance():
    from dsgqa.stages.compare import SLDP_TOLERANCE as SCORER_TOLERANCE

    assert SLDP_TOLERANCE == SCORER_TOLERANCE


def test_the_checker_imports_nothing_of_the_generator_loader_store_or_translator():
    for path in sorted(CHECKER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in {"dsgqa", "benchcore", "planeval", "spark_dsg", "tests"}:
                    assert any(name == ok or name.startswith(ok + ".")
                               for ok in ALLOWED_PROJECT_IMPORTS), f"{path.name} imports {name}"

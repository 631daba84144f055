"""``answers compare A B [--pddl]``: verdict, scores, exit status (0 equal, 1 not, 2 malformed)."""

from __future__ import annotations

import pytest

from dsgqa.compare_cli import compare_command


def test_equal_answers_exit_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert compare_command("<O19, o30>", "<o30, O19>") == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == "equal"
    assert "f1:        1.000" in out
    assert err == ""


def test_unequal_answers_print_scores_and_exit_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert compare_command("<a, b>", "<a, b, c>") == 1
    out, _ = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "not equal"
    assert "precision: 1.000" in lines
    assert "recall:    0.667" in lines
    assert "f1:        0.800" in lines
    assert any(line.startswith("reason:") and "e.g. c" in line for line in lines)


def test_tolerance_is_passed_through(capsys: pytest.CaptureFixture[str]) -> None:
    assert compare_command("1.05", "1", tol=0.1) == 0
    assert compare_command("1.05", "1") == 1
    assert "relative error 5.00%" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("a", "b", "side"),
    [("[1, 2", "[1, 2]", "answer (A)"), ("<a>", "<a,>", "solution (B)"), ("", "1", "answer")],
)
def test_malformed_sldp_exits_two_with_one_line(
    capsys: pytest.CaptureFixture[str], a: str, b: str, side: str
) -> None:
    assert compare_command(a, b) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"error: {side}")
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_pddl_goals_partial_credit(capsys: pytest.CaptureFixture[str]) -> None:
    assert compare_command("(or (holding O19) (holding O30))", "(holding O19)", pddl=True) == 1
    out, _ = capsys.readouterr()
    assert out.splitlines()[:4] == [
        "not equal",
        "precision: 0.500",
        "recall:    1.000",
        "f1:        0.667",
    ]


def test_equivalent_pddl_goals_exit_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert compare_command("A", "(or (and A B) (and A (not B)))", pddl=True) == 0
    assert capsys.readouterr().out.startswith("equal\n")


def test_malformed_pddl_exits_two(capsys: pytest.CaptureFixture[str]) -> None:
    assert compare_command("(and (on a b)", "(on a b)", pddl=True) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: answer (A) is not valid PDDL goal: line 1, column 13")
    assert err.count("\n") == 1

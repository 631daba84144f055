"""Question files: valid sets load; every kind of bad file is one line naming file, line, field."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsgqa.questions import QuestionFileError, load_question_set

GOOD = """\
questions:
  - uid: q1
    name: count
    question: How many chairs?
    solution: 3
    correctness_comparator: {comparison_type: SLDP, relation: equal}
    tags: [counting]
    cypher: "MATCH (o:Object {class: 'chair'}) RETURN count(o)"
  - uid: q2
    question: Goal?
    solution: (holding O1)
    correctness_comparator: {comparison_type: PDDL}
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "questions.yaml"
    path.write_text(text)
    return path


def test_good_file_loads(tmp_path: Path) -> None:
    qs = load_question_set(_write(tmp_path, GOOD))
    assert [q.uid for q in qs.questions] == ["q1", "q2"]
    assert qs.questions[0].solution == "3"  # YAML number kept as SLDP text
    assert qs.questions[1].correctness_comparator.comparison_type == "PDDL"
    assert qs.fingerprint() == load_question_set(_write(tmp_path, GOOD)).fingerprint()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (GOOD.replace("uid: q2", "uid: q1"), ":9: question q1: field uid: duplicate uid"),
        (GOOD.replace("comparison_type: PDDL", "comparison_type: JSON"),
         ":12: question q2: field correctness_comparator.comparison_type: unknown value 'JSON' "
         "(accepted: 'SLDP' or 'PDDL', any case)"),
        (GOOD.replace("solution: (holding O1)", "solution: (holding O1"),
         ":11: question q2: field solution: not a valid PDDL goal"),
        (GOOD.replace("solution: 3", "solution: <a, b"),
         ":5: question q1: field solution: not a valid SLDP value"),
        (GOOD.replace("    question: Goal?\n", ""),
         ":9: question q2: field question: field required"),
        (GOOD.replace("tags: [counting]", "tagz: [counting]"),
         ":7: question q1: field tagz: unknown key 'tagz' (did you mean 'tags'?)"),
        (GOOD.replace("tags: [counting]", "tags: [counting"), ": malformed YAML"),
        ("questions: 3\n", ":1: expected a top-level `questions:` list"),
        ("questions:\n  - just text\n", ":2: question #1: expected a mapping"),
    ],
)
def test_bad_files_get_one_line_at_the_key(tmp_path: Path, text: str, expected: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(QuestionFileError) as caught:
        load_question_set(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    assert expected in message


def test_comparison_type_and_relation_in_any_case(tmp_path: Path) -> None:
    text = GOOD.replace("comparison_type: SLDP, relation: equal",
                        "comparison_type: sldp, relation: Equal")
    qs = load_question_set(_write(tmp_path, text.replace("comparison_type: PDDL",
                                                         "comparison_type: Pddl")))
    assert [q.correctness_comparator.comparison_type for q in qs.questions] == ["SLDP", "PDDL"]
    assert qs.questions[0].correctness_comparator.relation == "equal"


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(QuestionFileError, match="cannot read"):
        load_question_set(tmp_path / "nope.yaml")


def test_every_problem_at_once_and_a_typo_on_its_own_line(tmp_path: Path) -> None:
    """`soluton:` is named where it is written, with its near miss; the missing solution is
    the question's; the other questions' problems come in the same error, in file order."""
    text = (GOOD.replace("    solution: 3\n", "    soluton: 3\n")
            .replace("solution: (holding O1)", "solution: (holding O1")
            + "  - uid: q1\n    question: again?\n    solution: 1\n"
              "    correctness_comparator: {comparison_type: SLDP}\n")
    path = _write(tmp_path, text)
    with pytest.raises(QuestionFileError) as caught:
        load_question_set(path)
    assert caught.value.problems == [
        f"{path}:2: question q1: field solution: field required",
        f"{path}:5: question q1: field soluton: unknown key 'soluton' (did you mean "
        "'solution'?)",
        f"{path}:11: question q2: field solution: not a valid PDDL goal: "
        + caught.value.problems[2].split("not a valid PDDL goal: ")[1],
    ]
    assert str(caught.value).endswith("(and 2 more problems)")

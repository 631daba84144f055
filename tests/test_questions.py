"""Question files: valid sets load; every kind of bad file is one line naming file, line, field."""

from __future__ import annotations

import re
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


def _alias_bomb(levels: int, where: str = "uid") -> str:
    """A few hundred bytes whose aliases expand to 9**levels values."""
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    question = {"uid": "q1", "question": "q", "solution": "'1'", where: f"*a{levels - 1}"}
    body = "\n".join(f"    {k}: {v}" for k, v in question.items())
    head = "\nquestions:\n  - correctness_comparator: {comparison_type: SLDP}\n"
    return "\n".join(lines) + head + body + "\n"


@pytest.mark.parametrize("where", ["uid", "tags", "question"])
def test_an_alias_bomb_is_refused_in_one_short_line(tmp_path: Path, where: str) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(_alias_bomb(9, where))
    assert len(path.read_bytes()) < 700
    with pytest.raises(QuestionFileError) as caught:
        load_question_set(path)
    message = str(caught.value)
    assert re.match(rf"{re.escape(str(path))}:\d+: aliases expand beyond 100,000 values", message)
    assert "\n" not in message and len(message) < 300


def test_a_huge_wrong_value_is_shown_as_a_short_excerpt(tmp_path: Path) -> None:
    """Aliases within the bound may still build a large wrong value; the error shows only a
    short excerpt of it."""
    path = tmp_path / "big.yaml"
    path.write_text(_alias_bomb(4, "uid"))     # 9**4 = 6,561 values: allowed, but not a uid
    with pytest.raises(QuestionFileError) as caught:
        load_question_set(path)
    message = str(caught.value)
    assert "question [[" in message and "..." in message and len(message) < 300


def test_aliases_of_real_files_still_load(tmp_path: Path) -> None:
    path = tmp_path / "aliases.yaml"
    path.write_text("cmp: &cmp {comparison_type: SLDP}\nquestions:\n"
                    + "".join(f"  - {{uid: q{i}, question: q, solution: '1', "
                              "correctness_comparator: *cmp}\n" for i in range(300)))
    assert len(load_question_set(path).questions) == 300


def test_config_and_reply_script_files_refuse_alias_bombs(tmp_path: Path) -> None:
    from benchcore.llm.base import LLMError, ModelConfig
    from benchcore.llm.scripted import ScriptedClient
    from benchcore.run_config import ConfigError, load_config

    path = tmp_path / "bomb.yaml"
    path.write_text(_alias_bomb(9).replace("questions:", "models:"))
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert "aliases expand beyond 100,000 values" in str(caught.value)
    assert len(str(caught.value)) < 300
    with pytest.raises(LLMError) as caught:
        ScriptedClient.from_file(ModelConfig(name="s", provider="scripted", script=str(path)))
    assert "aliases expand beyond" in str(caught.value) and len(str(caught.value)) < 300


PREAMBLE = "The lounge is the one room whose class is 'lounge'."


def test_a_set_preamble_reaches_every_question_and_its_prompt(tmp_path: Path) -> None:
    from dsgqa.prompts import cypher_messages

    plain = load_question_set(_write(tmp_path, GOOD))
    with_preamble = load_question_set(_write(tmp_path, f"preamble: {PREAMBLE}\n" + GOOD))
    assert [q.preamble for q in with_preamble.questions] == [PREAMBLE, PREAMBLE]
    assert with_preamble.questions[0].prompt_text() == f"{PREAMBLE}\n\nHow many chairs?"
    assert PREAMBLE in cypher_messages(with_preamble.questions[0].prompt_text(), "")[1]["content"]
    # The prompt changes, so the cache keys do; a set without one keeps the ones it had.
    assert with_preamble.questions[0].fingerprint() != plain.questions[0].fingerprint()
    assert with_preamble.fingerprint() != plain.fingerprint()
    assert plain.questions[0].prompt_text() == "How many chairs?"
    assert plain.questions[0].fingerprint() == "0dd30b2af0b9d2f2"  # as before preambles


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("preamble: [a, b]\n" + GOOD, ":1: field preamble: expected text"),
        (GOOD.replace("    tags: [counting]\n", f"    preamble: {PREAMBLE}\n"),
         ":7: question q1: field preamble: a set-level key"),
    ],
)
def test_a_preamble_is_set_level_text(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(QuestionFileError) as caught:
        load_question_set(_write(tmp_path, text))
    assert expected in str(caught.value)

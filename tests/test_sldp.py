"""SLDP: the answer language and its comparator, tested against the semantics in the module
docstring of dsgqa.sldp."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsgqa.sldp import (
    MEMO_MAX_CHARS,
    Point,
    Score,
    SLDPDict,
    SLDPError,
    SLDPList,
    SLDPSet,
    SLDPString,
    format_sldp,
    parse_sldp,
    sldp_equals,
    sldp_score,
    to_sldp,
)

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------------------------------- parsing


def test_parses_every_kind_of_value() -> None:
    value = parse_sldp('[1, -2.5, 1e-3, kitchen, "dining table", <a>, {k: v}, POINT(1 2 3)]')
    assert value == SLDPList(
        (
            1,
            -2.5,
            0.001,
            "kitchen",
            "dining table",
            SLDPSet(("a",)),
            SLDPDict((("k", "v"),)),
            Point((1, 2, 3)),
        )
    )


def test_sets_and_lists_are_distinct_types() -> None:
    assert isinstance(parse_sldp("<1, 2>"), SLDPSet)
    assert isinstance(parse_sldp("[1, 2]"), SLDPList)
    assert not sldp_equals("<1, 2>", "[1, 2]")


def test_whitespace_between_tokens_is_ignored() -> None:
    assert parse_sldp(" \n[ 1 ,\t<a,b> ,{ k :POINT( 1  2 ) } ]\n") == parse_sldp(
        "[1, <a, b>, {k: POINT(1 2)}]"
    )


def test_numbers_keep_int_or_float() -> None:
    assert parse_sldp("3") == 3 and isinstance(parse_sldp("3"), int)
    assert isinstance(parse_sldp("3.0"), float)
    assert parse_sldp("-2.5E2") == -250.0
    assert parse_sldp("+.5") == 0.5


def test_quoted_strings_keep_spaces_punctuation_and_escapes() -> None:
    assert parse_sldp('"chair, red (left)"') == "chair, red (left)"
    assert parse_sldp("'kid\\'s room'") == "kid's room"
    assert parse_sldp('"say \\"hi\\" \\\\ there"') == 'say "hi" \\ there'
    assert parse_sldp('<"a, b", c>') == SLDPSet(("a, b", "c"))


def test_consecutive_bare_words_form_one_string() -> None:
    assert parse_sldp("<dining   table, chair>") == SLDPSet(("dining table", "chair"))


def test_point_keyword_only_with_its_parenthesis() -> None:
    value = parse_sldp("<point, pointer, point (1 2)>")
    assert value == SLDPSet(("point", "pointer", Point((1, 2))))


def test_empty_containers() -> None:
    assert parse_sldp("[]") == SLDPList()
    assert parse_sldp("< >") == SLDPSet()
    assert parse_sldp("{}") == SLDPDict()


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("[1, 2", "column 5"),  # unbalanced
        ("<a, b", "column 5"),
        ("{a: 1", "column 5"),
        ("[1]]", "column 4"),
        ("[1, 2,]", "column 7"),  # trailing commas
        ("<a,>", "column 4"),
        ("{a: 1,}", "column 7"),
        ("<a, b]", "column 6"),
        ("[1 2]", "column 4"),
        ("POINT(1, 2, 3)", "column 8"),
        ("POINT(1)", "column 8"),
        ("POINT(1 2 3 4)", "column 13"),
        ('"open quote', "column 1"),
        ("[1, 2]\n]", "line 2, column 1"),
    ],
)
def test_malformed_text_names_the_position(text: str, where: str) -> None:
    with pytest.raises(SLDPError, match=where) as caught:
        parse_sldp(text)
    assert "\n" not in str(caught.value)


def test_malformed_text_says_what_was_expected() -> None:
    with pytest.raises(SLDPError, match=r"unexpected '\]'; expected .*a number"):
        parse_sldp("[1, 2,]")


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_empty_text_is_an_error(text: str) -> None:
    with pytest.raises(SLDPError, match="empty"):
        parse_sldp(text)


def test_duplicate_keys_after_normalisation_are_an_error() -> None:
    with pytest.raises(SLDPError, match="duplicate dict key"):
        parse_sldp("{Kitchen: 1, kitchen : 2}")


def test_pathological_nesting_is_an_error_not_a_crash() -> None:
    with pytest.raises(SLDPError, match="nested deeper"):
        parse_sldp("[" * 500 + "]" * 500)
    assert parse_sldp("[" * 40 + "]" * 40) is not None


def test_sldp_error_is_a_value_error() -> None:
    assert issubclass(SLDPError, ValueError)


def test_repeated_texts_come_from_the_memo() -> None:
    text = "<O1, O2, POINT(1 2 3)>"
    assert parse_sldp(text) is parse_sldp(text)


def test_texts_longer_than_the_memo_limit_still_parse() -> None:
    text = "<" + ", ".join(f"POINT({i} {i} {i})" for i in range(MEMO_MAX_CHARS // 10)) + ">"
    assert len(text) > MEMO_MAX_CHARS
    assert len(parse_sldp(text)) == MEMO_MAX_CHARS // 10


# ----------------------------------------------------------------------------- equality


@pytest.mark.parametrize(
    ("a", "b", "tol", "equal"),
    [
        ("3", "3.0", 0.01, True),  # an int equals a float
        ("1.0", "1.01", 0.01, True),  # the boundary is inside
        ("1.0", "1.0101", 0.01, False),  # just past it
        ("-1.0", "-1.01", 0.01, True),
        ("100000.0", "100000.01", 0.01, True),
        ("1", "1.1", 0.1, True),
        ("1", "1.11", 0.1, False),
        ("1", "1.0", 0.0, True),  # tol 0 is exact
        ("1", "1.000001", 0.0, False),
        ("1e-3", "0.001", 0.0, True),
        ("1e999", "1e999", 0.01, True),  # infinities equal themselves
        ("1e999", "-1e999", 0.01, False),
    ],
)
def test_numbers_within_absolute_tolerance(a: str, b: str, tol: float, equal: bool) -> None:
    assert sldp_equals(a, b, tol=tol) is equal
    assert sldp_equals(b, a, tol=tol) is equal


def test_huge_integers_do_not_overflow() -> None:
    assert not sldp_equals(str(10**400), "1.5")
    assert sldp_equals(str(10**400), str(10**400))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Kitchen", "kitchen"),
        ('"  Living Room "', "living room"),
        ('"STRASSE"', "straße"),  # casefold, not just lower
        ("'dining table'", '"Dining Table"'),
    ],
)
def test_strings_equal_after_strip_and_casefold(a: str, b: str) -> None:
    assert sldp_equals(a, b)


def test_inner_whitespace_of_strings_still_counts() -> None:
    assert not sldp_equals('"living  room"', '"living room"')
    assert not sldp_equals('"a,b"', '"a, b"')


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("3", '"3"'),  # number vs string
        ("[1, 2]", "<1, 2>"),  # list vs set
        ("POINT(1 2)", "[1, 2]"),
        ("{a: 1}", "[a, 1]"),
        ("<>", "[]"),
        ("[]", "{}"),
    ],
)
def test_different_kinds_are_never_equal(a: str, b: str) -> None:
    assert not sldp_equals(a, b)
    assert sldp_score(a, b).f1 == 0.0


def test_lists_are_ordered_and_sized() -> None:
    assert sldp_equals("[1, 2, 3]", "[1.001, 2, 3]")
    assert not sldp_equals("[1, 2, 3]", "[3, 2, 1]")
    assert not sldp_equals("[1, 2]", "[1, 2, 2]")


def test_sets_ignore_order_and_duplicates() -> None:
    assert sldp_equals("<a, b, c>", "<c, A, b, b, a>")
    assert not sldp_equals("<a, b>", "<a, b, c>")
    assert not sldp_equals("<a, b, c>", "<a, b>")


def test_sets_use_mutual_inclusion_not_one_to_one_pairing() -> None:
    # 1.000 and 1.008 both equal 1.004: each side is included in the other.
    assert sldp_equals("<1.000, 1.008>", "<1.004>")
    # A chain where consuming partners greedily would strand 1.009.
    assert sldp_equals("<1.000, 1.009>", "<1.005, 1.014>")
    assert not sldp_equals("<1.000, 1.021>", "<1.010>")


def test_dicts_compare_keys_exactly_and_values_with_tolerance() -> None:
    assert sldp_equals("{Kitchen: 3, bed: POINT(1 2 3)}", "{bed: POINT(1.005 2 3), kitchen: 3.0}")
    assert sldp_equals("{1: a, 2.0: b}", "{2: b, 1.0: a}")
    assert not sldp_equals("{a: 1}", "{a: 2}")


def test_dicts_with_an_extra_key_differ_in_both_directions() -> None:
    # The reference compared the wrong variable in its second loop; not here.
    assert not sldp_equals("{a: 1}", "{a: 1, b: 2}")
    assert not sldp_equals("{a: 1, b: 2}", "{a: 1}")
    assert not sldp_equals("{a: 1, b: 2}", "{a: 1, c: 2}")


def test_points_coordinate_wise_and_same_dimension() -> None:
    assert sldp_equals("POINT(1 2 3)", "POINT(1.01 1.99 3)")
    assert not sldp_equals("POINT(1 2 3)", "POINT(1 2 3.011)")
    # POINT with 2 of the 3 coordinates given on the other side.
    assert not sldp_equals("POINT(1 2)", "POINT(1 2 3)")
    assert "has 2 coordinates, expected 3" in sldp_score("POINT(1 2)", "POINT(1 2 3)").reason


def test_nested_sets_of_points() -> None:
    solution = "<<POINT(1 2 3), POINT(4 5 6)>, <POINT(0 0 0)>, <>>"
    jittered = "<<>, <POINT(-0.005 0 0.004)>, <POINT(4.004 5 6), POINT(1 2.006 3)>>"
    assert sldp_equals(jittered, solution)
    too_far = "<<>, <POINT(-0.02 0 0)>, <POINT(4 5 6), POINT(1 2 3)>>"
    assert not sldp_equals(too_far, solution)


def test_empty_containers_equal_only_their_own_kind() -> None:
    assert sldp_equals("[]", "[ ]")
    assert sldp_equals("<>", "<>")
    assert sldp_equals("{}", "{}")
    assert not sldp_equals("<>", "<a>")


def test_tolerance_must_be_a_non_negative_number() -> None:
    with pytest.raises(ValueError, match="tolerance"):
        sldp_equals("1", "1", tol=-0.1)
    with pytest.raises(ValueError, match="tolerance"):
        sldp_equals("1", "1", tol=math.nan)


def test_malformed_text_raises_from_the_comparators() -> None:
    with pytest.raises(SLDPError):
        sldp_equals("[1, 2", "[1, 2]")
    with pytest.raises(SLDPError):
        sldp_score("<a>", "<a,>")


def test_parsed_values_and_text_are_interchangeable() -> None:
    assert sldp_equals(parse_sldp("<a, POINT(1 2 3)>"), "<POINT(1 2 3), a>")
    assert sldp_score("[1, 2]", parse_sldp("[1, 2]")).equal


def test_a_parsed_lone_string_is_not_read_again_as_text() -> None:
    chair = parse_sldp('"chair, red"')
    assert isinstance(chair, SLDPString) and chair == "chair, red"
    assert sldp_equals(chair, parse_sldp("'Chair, Red'"))
    assert not sldp_equals(parse_sldp('"42"'), parse_sldp("42"))  # a string is not a number
    assert sldp_score(parse_sldp('"[1]"'), "[1]").reason.startswith("string")


def _random_points(count: int, seed: int) -> list[tuple[float, float, float]]:
    rng = random.Random(seed)
    return [
        (
            round(rng.uniform(-50, 50), 3),
            round(rng.uniform(-50, 50), 3),
            round(rng.uniform(0, 3), 3),
        )
        for _ in range(count)
    ]


def _point_set(points: list[tuple[float, ...]]) -> str:
    return "<" + ", ".join("POINT(" + " ".join(map(repr, p)) + ")" for p in points) + ">"


def test_large_point_sets_match_under_shuffle_and_jitter() -> None:
    points = _random_points(2000, seed=7)
    rng = random.Random(8)
    shuffled = [(x + rng.uniform(-0.009, 0.009), y, z) for x, y, z in points]
    rng.shuffle(shuffled)
    assert sldp_equals(_point_set(shuffled), _point_set(points))
    shuffled[123] = (shuffled[123][0] + 0.05, *shuffled[123][1:])
    score = sldp_score(_point_set(shuffled), _point_set(points))
    assert not score.equal
    assert score.precision == pytest.approx(1999 / 2000)
    assert score.recall == pytest.approx(1999 / 2000)


# ----------------------------------------------------------------------------- partial credit


def test_equal_answers_score_one() -> None:
    assert sldp_score("<a, b>", "<b, a>") == Score(True, 1.0, 1.0, 1.0, "equal")


def test_set_partial_credit_is_precision_recall_of_the_matching() -> None:
    score = sldp_score("<a, b, c>", "<a, b, d, e>")
    assert (score.precision, score.recall) == (pytest.approx(2 / 3), pytest.approx(1 / 2))
    assert score.f1 == pytest.approx(4 / 7)
    assert "2 missing from the set, e.g. d" in score.reason
    assert "1 not in the solution, e.g. c" in score.reason


def test_set_partial_credit_ignores_duplicates() -> None:
    score = sldp_score("<a, a, a, x>", "<a, b>")
    assert (score.precision, score.recall) == (0.5, 0.5)


def test_list_partial_credit_is_lcs_based() -> None:
    score = sldp_score("[a, b, c, d]", "[a, c, d]")
    assert (score.precision, score.recall) == (0.75, 1.0)
    assert "list has 4 items, expected 3" in score.reason
    reordered = sldp_score("[a, b, c]", "[c, b, a]")
    assert reordered.precision == pytest.approx(1 / 3)


def test_list_partial_credit_on_long_lists() -> None:
    solution = [f"o{i}" for i in range(600)]
    answer = solution[:300] + solution[301:] + ["extra"]
    score = sldp_score(to_sldp(answer), to_sldp(solution))
    assert score.precision == pytest.approx(599 / 600)
    assert score.recall == pytest.approx(599 / 600)


def test_dict_partial_credit_per_key_and_recursive() -> None:
    score = sldp_score("{a: 1, b: 2}", "{a: 1, b: 3, c: 4}")
    assert (score.precision, score.recall) == (0.5, pytest.approx(1 / 3))
    nested = sldp_score("{a: <x, y>, b: 2}", "{a: <x>, b: 2}")
    # key a earns F1(<x, y> vs <x>) = 2/3, key b earns 1.
    assert nested.precision == pytest.approx((2 / 3 + 1) / 2)
    assert "at {a}" in nested.reason


def test_number_mismatch_reports_relative_error() -> None:
    score = sldp_score("12", "10")
    assert score == Score(False, 0.0, 0.0, 0.0, score.reason)
    assert "relative error 20.00%" in score.reason


def test_reason_gives_the_path_of_the_first_mismatch() -> None:
    score = sldp_score("[{x: 1}, {x: <a, b>}]", "[{x: 1}, {x: <a, c>}]")
    assert score.reason.startswith("at [1]{x}:")


def test_empty_answer_to_a_non_empty_question() -> None:
    score = sldp_score("<>", "<a, b>")
    assert (score.equal, score.precision, score.recall, score.f1) == (False, 1.0, 0.0, 0.0)


# ----------------------------------------------------------------------------- printing


@pytest.mark.parametrize(
    ("data", "text"),
    [
        ({"x": 1.5, "y": 2, "z": 0}, "{x: 1.5, y: 2, z: 0}"),
        ([["kitchen", 3], ["living room", 1]], '[[kitchen, 3], ["living room", 1]]'),
        ((1, "a"), "[1, a]"),
        (frozenset({"a"}), "<a>"),
        ([None, True, False], "[null, true, false]"),
        (math.inf, "1e999"),
        ('say "hi"', '"say \\"hi\\""'),
        ("", '""'),
    ],
)
def test_to_sldp_turns_rows_into_answers(data: object, text: str) -> None:
    assert to_sldp(data) == text
    assert sldp_equals(text, to_sldp(data), tol=0)


def test_to_sldp_sets_compare_as_sets() -> None:
    assert sldp_equals(to_sldp({"b", "a", "c"}), "<a, b, c>")


def test_to_sldp_rejects_what_sldp_cannot_say() -> None:
    with pytest.raises(SLDPError, match="NaN"):
        to_sldp([1.0, math.nan])
    with pytest.raises(SLDPError, match="keys"):
        to_sldp({(1, 2): "a"})


def test_format_sldp_rejects_non_values() -> None:
    with pytest.raises(SLDPError):
        format_sldp(object())  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- properties

_numbers = st.integers(-(10**9), 10**9) | st.floats(allow_nan=False, allow_infinity=False)
_strings = st.text(max_size=8) | st.from_regex(r"[A-Za-z_][\w\-.]{0,6}", fullmatch=True)
_points = st.lists(st.floats(-1e6, 1e6) | st.integers(-100, 100), min_size=2, max_size=3).map(
    lambda coords: Point(tuple(coords))
)


def _key_identity(pair: tuple[object, object]) -> object:
    key = pair[0]
    return key.strip().casefold() if isinstance(key, str) else key


def _dicts(values: st.SearchStrategy) -> st.SearchStrategy:
    keys = st.integers(-5, 5) | _strings
    return st.lists(st.tuples(keys, values), max_size=4, unique_by=_key_identity).map(
        lambda pairs: SLDPDict(tuple(pairs))
    )


_values = st.recursive(
    _numbers | _strings | _points,
    lambda inner: (
        st.lists(inner, max_size=4).map(lambda xs: SLDPList(tuple(xs)))
        | st.lists(inner, max_size=4).map(lambda xs: SLDPSet(tuple(xs)))
        | _dicts(inner)
    ),
    max_leaves=12,
)


def _jitter(value: object, rng: random.Random) -> object:
    """A nearby value: numbers moved by up to 2*tol, sets shuffled, strings re-cased."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value + rng.choice([0, 0, 0.005, -0.01, 0.011, 0.02])
    if isinstance(value, str):
        return value.upper() if rng.random() < 0.5 else value
    if isinstance(value, Point):
        return Point(tuple(_jitter(c, rng) for c in value.coords))
    if isinstance(value, SLDPSet):
        items = [_jitter(v, rng) for v in value.items]
        rng.shuffle(items)
        return SLDPSet(tuple(items))
    if isinstance(value, SLDPList):
        return SLDPList(tuple(_jitter(v, rng) for v in value.items))
    return SLDPDict(tuple((k, _jitter(v, rng)) for k, v in value.items))


def _arg(value: object) -> object:
    """A ``str`` argument is SLDP text, so a top-level string value goes in printed form."""
    return format_sldp(value) if isinstance(value, str) else value


@PROPERTY
@given(_values)
def test_equality_is_reflexive(value: object) -> None:
    assert sldp_equals(_arg(value), _arg(value))
    assert sldp_equals(_arg(value), _arg(value), tol=0)
    assert sldp_score(_arg(value), _arg(value)).f1 == 1.0


@PROPERTY
@given(_values, st.randoms(use_true_random=False))
def test_equality_and_scores_are_symmetric(value: object, rng: random.Random) -> None:
    value, other = _arg(value), _arg(_jitter(value, rng))
    forward, backward = sldp_score(value, other), sldp_score(other, value)
    assert sldp_equals(value, other) == sldp_equals(other, value) == forward.equal
    assert forward.equal == backward.equal
    assert forward.precision == pytest.approx(backward.recall)
    assert forward.recall == pytest.approx(backward.precision)


@PROPERTY
@given(_values)
def test_printed_values_parse_back_equal(value: object) -> None:
    text = format_sldp(value)
    parsed = parse_sldp(text)
    assert parsed == value  # structurally identical, so equal at any tolerance
    assert sldp_equals(text, _arg(value), tol=0)


_SLDP_ALPHABET = "[]<>{}(),: .-+eE0123456789POINTpointab_\"'\\\n\t"


@PROPERTY
@given(st.text(max_size=40) | st.text(alphabet=_SLDP_ALPHABET, max_size=40))
def test_parser_raises_only_sldp_errors_on_random_text(text: str) -> None:
    try:
        value = parse_sldp(text)
    except SLDPError as exc:
        assert "\n" not in str(exc)
    else:
        assert sldp_equals(format_sldp(value), text, tol=0)


def _naive_coverage(a: list[object], b: list[object]) -> tuple[float, float]:
    a, b = list(dict.fromkeys(a)), list(dict.fromkeys(b))
    hit_a = sum(any(sldp_equals(x, y) for y in b) for x in a)
    hit_b = sum(any(sldp_equals(y, x) for x in a) for y in b)
    return (hit_a / len(a) if a else 1.0), (hit_b / len(b) if b else 1.0)


_near_numbers = st.integers(0, 40).map(lambda k: k * 0.005)  # dense: many near-duplicates
_near_points = st.tuples(_near_numbers, _near_numbers, st.just(0.0)).map(Point)


@PROPERTY
@given(
    st.lists(_near_numbers | _near_points, min_size=9, max_size=30),
    st.lists(_near_numbers | _near_points, min_size=9, max_size=30),
)
def test_indexed_set_matching_agrees_with_brute_force(a: list, b: list) -> None:
    score = sldp_score(SLDPSet(tuple(a)), SLDPSet(tuple(b)))
    precision, recall = _naive_coverage(a, b)
    assert score.precision == pytest.approx(precision)
    assert score.recall == pytest.approx(recall)
    assert sldp_equals(SLDPSet(tuple(a)), SLDPSet(tuple(b))) == (precision == recall == 1.0)

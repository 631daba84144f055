"""A simple CASE (`CASE x WHEN v THEN ...`) as the searched CASE Neo4j defines it by.

Neo4j compares the subject with each WHEN value by `=`, so a NULL value never matches: `CASE 1
WHEN null THEN 'a' ELSE 'b' END` is 'b', and `CASE b.class WHEN null THEN 'none' ELSE 'has
one' END` is 'has one' for every row (the comparison is NULL). Both engines match a NULL WHEN
value with anything: 'a', and 'none' for a room holding the bicycle. Neo4j 5.18 also lets a WHEN
list values and comparisons with the subject left out (`WHEN 'seating', 'storage'`, `WHEN < 5`,
`WHEN IS NULL`, `WHEN IS :: INTEGER`), which the engines cannot parse.

So every simple CASE but one whose WHENs are single non-NULL literals (which the engines compare
as Neo4j does) becomes `CASE WHEN x = v1 OR x = v2 THEN ... END`, each WHEN operand
tested against a copy of the subject, before any other pass reads the tree: the comparisons are
then typed and rewritten like any other (`cross_types.py` for a subject and value of different
kinds). A subject that is not the same value each time it is read (`rand()`) is refused.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.errors import CypherSyntaxError, DialectError
from dsgqa.dialect.trees import NON_NULL_LITERALS, any_of, clone, function_name, tree

REWRITE = "simple CASE->searched CASE"
_TESTS = {"when_starts_with": "starts_with", "when_ends_with": "ends_with",
          "when_contains": "contains", "when_in": "in_", "when_regex": "regex"}
# The WHENs that are a test with its subject left out, and the test they are of it.
_TYPE_TESTS = {"when_is_typed": "is_typed", "when_is_not_typed": "is_not_typed",
               "when_is_normalized": "is_normalized",
               "when_is_not_normalized": "is_not_normalized"}
_SUBJECTLESS = frozenset({"when_compare", "when_is_null", "when_is_not_null", *_TESTS,
                          *_TYPE_TESTS})


def _test(subject: Tree, operand: Tree) -> Tree:
    """`subject` tested by one WHEN operand."""
    kind = operand.data if isinstance(operand, Tree) else ""
    if kind == "when_compare":
        op, value = operand.children
        return tree("compare", clone(subject), op, value)
    if kind == "when_is_null":
        return tree("is_null", clone(subject))
    if kind == "when_is_not_null":
        return tree("is_not_null", clone(subject))
    if kind in _TESTS:
        return tree(_TESTS[kind], clone(subject), operand.children[0])
    if kind in _TYPE_TESTS:   # `WHEN IS :: INTEGER`, `WHEN IS NFC NORMALIZED`
        return tree(_TYPE_TESTS[kind], clone(subject), operand.children[0])
    return tree("compare", clone(subject), Token("EQ", "="), operand)


def searched_cases(root: Tree) -> bool:
    """Rewrite every simple CASE in place (module docstring); whether there was one. A searched
    CASE whose WHEN lists operands, or leaves a comparison's subject out, is a syntax error."""
    changed = False
    for case in root.iter_subtrees():   # bottom-up: a CASE inside a subject is done first
        if case.data != "case_expr":
            continue
        first = case.children[0]
        simple = not (isinstance(first, Tree) and first.data == "case_when")
        whens = [c for c in case.children if isinstance(c, Tree) and c.data == "case_when"]
        if not simple:
            for when in whens:
                if len(when.children) != 2 or (isinstance(when.children[0], Tree)
                                               and when.children[0].data in _SUBJECTLESS):
                    raise CypherSyntaxError("a CASE without a subject lists a WHEN operand "
                                            "that needs one")
            continue
        if all(len(w.children) == 2 and isinstance(w.children[0], Tree)
               and w.children[0].data in NON_NULL_LITERALS for w in whens):
            continue   # one non-NULL literal per WHEN: the engines compare as Neo4j does
        if isinstance(first, Tree) and any(
                sub.data == "call" and function_name(sub.children[0]).lower() == "rand"
                for sub in first.iter_subtrees_topdown()):
            raise DialectError("a simple CASE over rand() (its subject is read once per WHEN)")
        for when in whens:
            *operands, result = when.children
            when.children = [any_of([_test(first, operand) for operand in operands]), result]
        case.children = case.children[1:]
        changed = True
    return changed

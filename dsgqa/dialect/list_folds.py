"""reduce() that builds a list from `[]`, as the list comprehension it stands for.

Models build lists with folds whose step reads the accumulator in a CASE or puts the value in
front, and neither engine folds those (`list_reduce` takes one type, and its step cannot test
the accumulator):

    reduce(cs = [], o IN objs | CASE WHEN o.class IN cs THEN cs ELSE cs + o.class END)
    reduce(acc = [], x IN xs | CASE WHEN x % 2 = 0 THEN acc + x ELSE acc END)
    reduce(acc = [], s IN ss | [s] + acc)

Each keeps or drops one value per element, in order, so it is a comprehension (`V(e)` is the
value the step appends for element `e`, `P` its test, which must not read the accumulator):

- `acc + V` for every element: `[x IN xs | V(x)]`; `[V] + acc`: `reverse([x IN xs | V(x)])`;
- `CASE WHEN P THEN acc + V ELSE acc END`: `[x IN xs WHERE P | V(x)]`; with the branches the
  other way round, a NULL test appends too: `[x IN xs WHERE NOT coalesce(P, false) | V(x)]`;
- `CASE WHEN V IN acc THEN acc ELSE acc + V END` keeps a value where the values before it do
  not hold it: every value it drops is one the accumulator already holds, and a NULL is always
  appended (`NULL IN acc` is false or NULL, so the ELSE runs), so `V IN acc` has the same
  three-valued answer as `V IN` every earlier value:

      CASE WHEN xs IS NULL THEN NULL ELSE [_i IN range(0, size(xs) - 1)
          WHERE NOT coalesce(V(xs[_i]) IN [_y IN xs[.._i] | V(_y)], false) | V(xs[_i])] END

  (the negated form, `CASE WHEN NOT V IN acc THEN acc + V ELSE acc END`, drops a NULL and then
  tests against a list without it, and is left as written).

`acc + V` appends V only where V is no list (`acc + l` of a list l concatenates): V is `[v]`,
or a value whose type the query shows is not a list. Runs once types are annotated; the
comprehension is typed again and translated as any other.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.parser import parse
from dsgqa.dialect.trees import (
    bare,
    call,
    clone,
    function_name,
    mentions,
    replace_bottom_up,
    shape,
    substitute,
    tree,
    var,
)
from dsgqa.dialect.types import UNKNOWN, ctype
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "reduce() building a list->list comprehension"
_DISTINCT = ("RETURN CASE WHEN __list IS NULL THEN NULL ELSE [__i IN range(0, size(__list) - 1) "
             "WHERE NOT coalesce(__value IN [__y IN __list[..__i] | __earlier], false) "
             "| __kept] END")


def _is_var(node: object, wanted: str) -> bool:
    return isinstance(node, Tree) and node.data == "var" \
        and plain_name(node.children[0]) == wanted


def _appended(step: object, acc: str, front: bool = False) -> Tree | None:
    """V of `acc + V` (or of `V + acc` where `front`), V appended as one value; else None."""
    if not (isinstance(step, Tree) and step.data == "arith" and len(step.children) == 3
            and str(step.children[1]) == "+"):
        return None
    mine, added = (step.children[2], step.children[0]) if front else \
        (step.children[0], step.children[2])
    if not _is_var(bare(mine), acc):
        return None
    added = bare(added)
    if isinstance(added, Tree) and added.data == "list_literal":
        return bare(added.children[0]) if len(added.children) == 1 else None
    if front:
        return None   # `V + acc` of a value V: V is put first only as `[V] + acc`
    kind = ctype(added)
    return added if kind != UNKNOWN and not kind.startswith("list<") else None


def _fold_parts(node: Tree) -> tuple[str, str, Tree, Tree] | None:
    """(accumulator, element, list, step) of `reduce(acc = [], x IN list | step)`, else None."""
    if node.data != "call" or function_name(node.children[0]).lower() != "reduce" \
            or len(node.children) != 3:
        return None
    init, body = node.children[1], node.children[2]
    if not (isinstance(init, Tree) and init.data == "compare" and len(init.children) == 3
            and init.children[0].data == "var" and str(init.children[1]) == "="
            and isinstance(init.children[2], Tree) and init.children[2].data == "list_literal"
            and not init.children[2].children):
        return None
    if not (isinstance(body, Tree) and body.data == "pipe_arg"
            and body.children[0].data == "in_" and body.children[0].children[0].data == "var"):
        return None
    return (plain_name(init.children[0].children[0]),
            plain_name(body.children[0].children[0].children[0]),
            body.children[0].children[1], bare(body.children[1]))


def _comprehension(element: str, source: Tree, value: Tree, test: Tree | None) -> Tree:
    binding = tree("in_", var(element), clone(source))
    if test is None:
        return tree("list_comp_map", binding, clone(value))
    return tree("list_comp", binding, clone(test), clone(value))


def _case_parts(step: object) -> tuple[Tree, Tree, Tree] | None:
    """(test, THEN, ELSE) of a searched CASE with one WHEN and an ELSE."""
    if not (isinstance(step, Tree) and step.data == "case_expr" and len(step.children) == 2):
        return None
    when, otherwise = step.children
    if not (isinstance(when, Tree) and when.data == "case_when"):
        return None
    return when.children[0], bare(when.children[1]), bare(otherwise)


def _rewritten(node: Tree, names: FreshNames) -> Tree | None:
    parts = _fold_parts(node)
    if parts is None:
        return None
    acc, element, source, step = parts
    value = _appended(step, acc)
    if value is not None and not mentions(value, {acc}):
        return _comprehension(element, source, value, None)
    value = _appended(step, acc, front=True)
    if value is not None and not mentions(value, {acc}):
        return call("reverse", _comprehension(element, source, value, None))
    case = _case_parts(step)
    if case is None:
        return None
    test, then, otherwise = case
    for kept, added, negate in ((otherwise, then, False), (then, otherwise, True)):
        value = _appended(added, acc)
        if not _is_var(kept, acc) or value is None or mentions(value, {acc}):
            continue
        if not mentions(test, {acc}):
            if negate:
                test = tree("not_", call("coalesce", clone(test), tree("false_lit")))
            return _comprehension(element, source, value, test)
        bare_test = bare(test)
        if negate and isinstance(bare_test, Tree) and bare_test.data == "in_" \
                and _is_var(bare(bare_test.children[1]), acc) \
                and shape(bare(bare_test.children[0])) == shape(value):
            return _distinct(element, source, value, names)
    return None


def _distinct(element: str, source: Tree, value: Tree, names: FreshNames) -> Tree:
    position, earlier = names.fresh("_d"), names.fresh("_dy")
    built = next(parse(_DISTINCT).find_data("case_expr"))   # the RETURN's expression
    at = tree("index", clone(source), var(position))
    return substitute(built, {
        "__list": source, "__i": var(position), "__y": var(earlier),
        "__value": substitute(clone(value), {element: at}),
        "__earlier": substitute(clone(value), {element: var(earlier)}),
        "__kept": substitute(clone(value), {element: at})})  # type: ignore[return-value]


def unfold_list_folds(root: Tree, names: FreshNames) -> bool:
    """Rewrite every list-building reduce() under `root`, in place; whether one was (the
    caller annotates the types again)."""
    return replace_bottom_up(
        root, lambda node: _rewritten(node, names) if node.data == "call" else None)

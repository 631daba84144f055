"""reduce() that keeps each value once, as the list comprehension it stands for.

Models collect distinct values in their first order with a fold whose step reads the
accumulator twice:

    reduce(cs = [], o IN objs | CASE WHEN o.class IN cs THEN cs ELSE cs + o.class END)

Neither engine folds a list whose step tests the accumulator (`list_reduce` takes one type and
the step reads it in a CASE), so these were refused. The fold keeps a value exactly where the
values before it do not hold it: every value it drops is one the accumulator already holds, and
a NULL is always appended (`NULL IN cs` is false or NULL, so the ELSE runs), so `v IN cs` has
the same three-valued answer as `v IN` every earlier value. Hence, with `V(e)` the value `v`
of element `e`:

    [_i IN range(0, size(objs) - 1)
        WHERE NOT coalesce(V(objs[_i]) IN [_y IN objs[.._i] | V(_y)], false) | V(objs[_i])]

and NULL for a NULL list. Only that form is read (`THEN cs ELSE cs + v` or `cs + [v]`, `v` not
a list literal of more than one value); the negated one (`CASE WHEN NOT v IN cs THEN cs + v
ELSE cs END`) drops a NULL and then tests against a list without it, and is left as written.
Runs before types are annotated: the comprehension is typed and translated as any other.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.parser import parse
from dsgqa.dialect.trees import bare, clone, function_name, mentions, shape, tree, var
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "reduce() keeping each value once->list comprehension"
_TEMPLATE = ("RETURN CASE WHEN __list IS NULL THEN NULL ELSE [__i IN range(0, size(__list) - 1) "
             "WHERE NOT coalesce(__value IN [__y IN __list[..__i] | __earlier], false) "
             "| __kept] END")


def _fold_parts(node: Tree) -> tuple[str, str, Tree, Tree] | None:
    """(accumulator, element, list, value) of a distinct-keeping reduce(), else None."""
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
    acc = plain_name(init.children[0].children[0])
    element = plain_name(body.children[0].children[0].children[0])
    value = _kept_value(bare(body.children[1]), acc)
    if value is None or mentions(value, {acc}):
        return None
    return acc, element, body.children[0].children[1], value


def _kept_value(step: object, acc: str) -> Tree | None:
    """v of `CASE WHEN v IN acc THEN acc ELSE acc + v END` (or `acc + [v]`), else None."""
    if not (isinstance(step, Tree) and step.data == "case_expr" and len(step.children) == 2):
        return None
    when, otherwise = step.children
    if not (isinstance(when, Tree) and when.data == "case_when"):
        return None
    test, then = (bare(c) for c in when.children)
    if not (_is_var(then, acc) and isinstance(test, Tree) and test.data == "in_"
            and _is_var(bare(test.children[1]), acc)):
        return None
    value = test.children[0]
    appended = bare(otherwise)
    if not (isinstance(appended, Tree) and appended.data == "arith"
            and len(appended.children) == 3 and str(appended.children[1]) == "+"
            and _is_var(bare(appended.children[0]), acc)):
        return None
    added = bare(appended.children[2])
    if isinstance(added, Tree) and added.data == "list_literal" and len(added.children) == 1:
        added = bare(added.children[0])
    if isinstance(value, Tree) and value.data == "list_literal":
        return None   # `acc + [a, b]` appends two values
    return value if shape(added) == shape(value) else None


def _is_var(node: object, wanted: str) -> bool:
    return isinstance(node, Tree) and node.data == "var" \
        and plain_name(node.children[0]) == wanted


def _substituted(node: object, variable: str, by: Tree) -> object:
    """A copy of `node` with each read of `variable` replaced by a copy of `by`."""
    if _is_var(node, variable):
        return clone(by)
    if not isinstance(node, Tree):
        return node
    return Tree(node.data, [_substituted(c, variable, by) for c in node.children])


def _comprehension(parts: tuple[str, str, Tree, Tree], names: FreshNames) -> Tree:
    _acc, element, source, value = parts
    position, earlier = names.fresh("_d"), names.fresh("_dy")
    built = next(parse(_TEMPLATE).find_data("case_expr"))   # the RETURN's expression
    at = tree("index", clone(source), var(position))
    fill = {"__list": source, "__i": var(position), "__y": var(earlier),
            "__value": _substituted(value, element, at),
            "__earlier": _substituted(value, element, var(earlier)),
            "__kept": _substituted(value, element, at)}

    def filled(node: object) -> object:
        if isinstance(node, Tree) and node.data == "var" \
                and plain_name(node.children[0]) in fill:
            return clone(fill[plain_name(node.children[0])])
        if not isinstance(node, Tree):
            return node
        return Tree(node.data, [filled(c) for c in node.children])
    return filled(built)  # type: ignore[return-value]


def unfold_distinct_folds(root: Tree, names: FreshNames) -> bool:
    """Rewrite every distinct-keeping reduce() under `root`, in place; whether one was."""
    changed = False

    def visit(node: object) -> object:
        nonlocal changed
        if not isinstance(node, Tree):
            return node
        node.children = [visit(c) for c in node.children]
        parts = _fold_parts(node) if node.data == "call" else None
        if parts is None:
            return node
        changed = True
        return _comprehension(parts, names)
    root.children = [visit(c) for c in root.children]
    return changed

"""A lambda over a list a CASE makes (Kuzu and Ladybug bug): the CASE goes outside the lambda.

Both engines evaluate a lambda over a list of nodes that a CASE returns with each element's
properties read from another row's node:

    MATCH (r:Room) WITH r.nodeSymbol AS k, coalesce(collect(r), []) AS xs
    RETURN k, list_transform(CASE WHEN xs IS NULL THEN NULL ELSE xs END, x -> x.nodeSymbol)

gave R22's row `['R20']`. The same CASE returned as it is, read by `list_extract` or unwound is
right, and so is the lambda over the list without the CASE. The translator writes such a CASE
as the NULL guard of a slice (`xs[..4]`), `tail()` and other list functions, so the fuzzer met
it in `[x IN xs[..4] | x.nodeSymbol]`.

So a lambda function (`list_transform`, `list_filter`, `list_reduce`, `any`/`all`/`none`/
`single`) whose list is a CASE becomes a CASE of that function over each branch:
`f(CASE WHEN c THEN a ELSE b END)` is `CASE WHEN c THEN f(a) ELSE f(b) END`, and a NULL branch
stays NULL, which is what each of them gives for a NULL list in Neo4j.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import bare, clone

REWRITE = "lambda over a CASE->CASE of lambdas"
# The engines' functions of a list and a lambda, and the quantifiers (`x IN list WHERE test`).
LAMBDA_FUNCTIONS = frozenset({"list_transform", "list_filter", "list_reduce"})
QUANTIFIERS = frozenset({"any", "all", "none", "single"})


def _source_slot(call: Tree) -> tuple[Tree, int] | None:
    """Where a lambda function's list is: (tree, child index), or None for another call."""
    callee = call.children[0]
    if callee.data != "var" or len(call.children) < 2:
        return None
    fname = plain_name(callee.children[0]).lower()
    if fname in LAMBDA_FUNCTIONS:
        return call, 1
    first = call.children[1]
    if fname in QUANTIFIERS and isinstance(first, Tree) and first.data == "where_arg" \
            and isinstance(first.children[0], Tree) and first.children[0].data == "in_":
        return first.children[0], 1
    return None


class _Distributor:
    def __init__(self) -> None:
        self.changed = False

    def visit(self, node: object) -> object:
        if not isinstance(node, Tree):
            return node
        node.children = [self.visit(child) for child in node.children]
        slot = _source_slot(node) if node.data == "call" else None
        source = bare(slot[0].children[slot[1]]) if slot is not None else None
        if slot is None or not (isinstance(source, Tree) and source.data == "case_expr"):
            return node
        self.changed = True
        parts = []
        for i, part in enumerate(source.children):
            if isinstance(part, Tree) and part.data == "case_when":
                test, value = part.children
                parts.append(Tree("case_when", [test, self._over(node, slot, value)]))
            elif i == 0:
                parts.append(part)   # the operand of a simple CASE (`CASE x WHEN ...`)
            else:
                parts.append(self._over(node, slot, part))   # ELSE
        return Tree("case_expr", parts)

    def _over(self, call: Tree, slot: tuple[Tree, int], branch: object) -> object:
        """The call with its list replaced by one branch of the CASE (a NULL stays NULL)."""
        if isinstance(branch, Tree) and branch.data == "null_lit":
            return branch
        holder, index = slot
        original = holder.children[index]
        holder.children[index] = branch
        copied = clone(call)
        holder.children[index] = original
        return self.visit(copied)


def lambdas_outside_cases(root: Tree) -> bool:
    """Apply the pass to the whole query; True when it changed something."""
    distributor = _Distributor()
    root.children = [distributor.visit(child) for child in root.children]
    return distributor.changed

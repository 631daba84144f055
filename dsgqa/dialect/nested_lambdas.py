"""A lambda over a list another lambda made from a variable of the row (Kuzu and Ladybug bug).

Both engines give a lambda function (`list_transform`, `list_filter`, `list_reduce`, `any`/
`all`/`none`/`single`) the wrong list when that list is itself the result of a lambda whose
body reads something besides its own element: a variable of the row, or of an enclosing
lambda. Measured on both, rooms at x = 0, 10 and 5:

    RETURN [x IN range(0, 12) WHERE x > a.center.x | x * 2]     -- every room: one room's list
    RETURN any(y IN [x IN [0.0, 5.0, 10.0] WHERE x > a.center.x] WHERE y > 7)  -- R2: true
    RETURN reduce(d = 0.0, x IN [i IN range(0, 1) | a.center.x + i] | d + x)   -- 11 for all
    list_transform(list_transform(range(0, 1), i -> a.center.x + i), x -> x * 2)
        -- [0.0, 22.0] for every room: the first row's first value, the last row's second

(the first is the translation of any comprehension with both a WHERE and a mapping). The inner
list alone, a non-lambda function of it (`size`, `list_sum`), and the same list computed in a
WITH before are right; wrapping it (`list_concat(inner, [])`) is not. What decides it is the
outer lambda's body: where it reads the inner one's variables too, both engines evaluate it row
by row and every form above is right (measured). So such an outer body reads them, in a way
that changes no value:

    x -> x * 2   becomes   x -> CASE WHEN a IS NULL THEN x * 2 ELSE x * 2 END

Read once every pass has run, on the lambdas the translation wrote. A variable an enclosing
lambda binds cannot be read that way (the engines: "Lambda paramName y cannot found", a
`dialect` failure).
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.lambda_sources import LAMBDA_FUNCTIONS, QUANTIFIERS
from dsgqa.dialect.trees import binds, clone, function_name, reads, tree, var

REWRITE = "lambda over a lambda's list->reads the row"


def _lambda_parts(node: Tree) -> tuple[object, object, set[str]] | None:
    """(list, body, the names the body binds) of a lambda function call, or None."""
    if node.data != "call" or not isinstance(node.children[0], Tree):
        return None
    fname = function_name(node.children[0]).lower()
    args = node.children[1:]
    if fname in LAMBDA_FUNCTIONS and len(args) == 2 and isinstance(args[1], Tree) \
            and args[1].data in ("lambda_", "lambda2"):
        params = {plain_name(p) for p in args[1].children[:-1]}
        return args[0], args[1].children[-1], params
    if fname in QUANTIFIERS and len(args) == 1 and isinstance(args[0], Tree) \
            and args[0].data == "where_arg" and isinstance(args[0].children[0], Tree) \
            and args[0].children[0].data == "in_":
        binding = args[0].children[0]
        return binding.children[1], args[0].children[1], binds(args[0])
    return None


def _reads_row(body: object, names: list[str]) -> Tree:
    """`body` reading `names` (`CASE WHEN a IS NULL THEN body ELSE body END`)."""
    tests = [tree("is_null", var(n)) for n in names]
    test = tests[0] if len(tests) == 1 else tree("or_", *tests)
    return tree("case_expr", tree("case_when", test, body), clone(body))


def read_row_in_nested_lambdas(root: Tree) -> bool:
    """Make every lambda over a list such a lambda made read its variables (see the module), in
    place; whether any did."""
    changed = False
    lambdas: dict[int, tuple[Tree, tuple[object, object, set[str]]]] = {}
    for node in root.iter_subtrees_topdown():   # a rewritten tree may share a subtree
        parts = _lambda_parts(node)
        if parts is not None:
            lambdas[id(node)] = (node, parts)
    if len(lambdas) < 2:
        return False
    for node, parts in lambdas.values():
        if not isinstance(parts[0], Tree):
            continue
        inner_parts = [_lambda_parts(inner) for inner in parts[0].iter_subtrees_topdown()]
        read = set().union(*(reads(found[1], found[2]) for found in inner_parts
                             if found is not None))
        own = reads(parts[1], parts[2])
        missing = sorted(read - own)
        if not missing:
            continue
        holder = node.children[-1]   # the lambda, or the quantifier's `x IN list WHERE test`
        holder.children[-1] = _reads_row(holder.children[-1], missing)
        node.reads_row = True  # type: ignore[attr-defined]
        changed = True
    if changed:
        _refuse_beside_another(root, lambdas)
    return changed


def _refuse_beside_another(root: Tree, lambdas: dict[int, tuple[Tree, object]]) -> None:
    """An OR or XOR holding such a lambda and another lambda function: Ladybug lost rows there
    even with the fix (`none(x IN [y IN split(n3.s, '1') WHERE y < n5.s] WHERE x = 'R') OR
    all(x IN ['a'] WHERE x = 'O')` kept one group of three, under variable-length patterns;
    `benchmarks/bench_dialect_fuzz.py --seed 2468`), and the same operands in the other order
    were right."""
    for node in root.iter_subtrees_topdown():
        if node.data not in ("or_", "xor_"):
            continue
        inside = [sub for sub in node.iter_subtrees_topdown() if id(sub) in lambdas]
        fixed = [sub for sub in inside if getattr(sub, "reads_row", False)]
        within = {id(part) for sub in fixed for part in sub.iter_subtrees_topdown()}
        if fixed and any(id(sub) not in within for sub in inside):
            raise DialectError("a list function over a list another one made from the row, "
                               "beside another list function in an OR (the engines lost rows "
                               "there)")

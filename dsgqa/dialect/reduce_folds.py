"""reduce() whose accumulator and elements differ in type, as a fold over one type.

Kuzu 0.11.3 and Ladybug 0.22.0 fold a list with `list_reduce(list, (acc, x) -> ...)`, which
takes the first element as the start: the translation seeds it with `list_concat([init],
list)`, so the start and the elements must share one type. Models mostly write folds whose
types differ, and both engines refused every one of them (`Cannot bind LIST_CONCAT`):

    reduce(s = '', n IN nodes(p) | s + n.nodeSymbol + '/')             -- a path as text
    reduce(d = 0.0, i IN range(0, size(nodes(p)) - 2) | d + point.distance(...))
    reduce(n = 0, x IN names | n + size(x))

Each step of these is `acc OP g(x)`, g not reading the accumulator: a left fold, so computing
g first changes nothing, and the fold then runs over values of the accumulator's type:

    reduce(s = '', n IN nodes(p) | s + n.nodeSymbol + '/')
    == reduce(s = '', _y IN [n IN nodes(p) | '' + n.nodeSymbol + '/'] | s + _y)

(text is concatenated from '' so a number in the chain is printed, not added: `s + 1.5 + 2.5`
appends '1.5' and '2.5'). `+` and `*` chains of any length qualify (for floats the sums are
grouped differently, a difference in the last bits only), `-` and `/` with one operand. An
integer start that meets floats becomes a float (`toFloat(0)`, the `number_results` rule).
A step that reads the accumulator elsewhere too reads its element through one expression
(`s + CASE WHEN s = '' THEN '' ELSE '/' END + n.nodeSymbol` reads only `n.nodeSymbol`): where
that expression has the accumulator's type, the fold runs over its values the same way:

    reduce(s = '', _y IN [n IN nodes(p) | n.nodeSymbol] | s + CASE ... END + _y)

Any other step of a number or text accumulator over a list of another type (one that reads
the element in several places: `s + CASE WHEN s = '' THEN '' ELSE '/' END + n.nodeSymbol +
n.class`) folds over the element's positions, written in the accumulator's type, and reads the
element by its position:

    reduce(s = '', _p IN [_i IN range(0, size(rooms) - 1) | toString(_i)] |
           s + CASE .. END + rooms[toInteger(_p)].nodeSymbol + rooms[toInteger(_p)].class)

(the list is computed again for each read, so not a list holding an aggregate, `rand()` or a
subquery). Other steps are left as written, and the engines refuse them.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.captures import positions_of, recomputes_badly
from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import (
    bare,
    call,
    clone,
    mentions,
    name,
    nothing_but_nulls,
    shape,
    substitute,
    tree,
    var,
)
from dsgqa.dialect.types import (
    KUZU_SCALAR_TYPES,
    NUMBERS,
    UNKNOWN,
    arith_type,
    ctype,
    element,
    typed,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "reduce() over another type->reduce() over the steps' values"
_TOKENS = {"+": "ADD_OP", "-": "ADD_OP", "*": "STAR", "/": "MUL_OP"}



def _steps(body: object, accumulator: str) -> tuple[str, list[object]] | None:
    """`acc OP a OP b ...` as (OP, [a, b, ...]), or None for any other step. A chain of numbers
    mixing `+` and `-` is `acc + (a - b ...)`: ("+", [a, -b, ...])."""
    steps: list[tuple[str, object]] = []   # (OP, operand), first step first
    node = bare(body)
    while isinstance(node, Tree) and node.data == "arith":
        steps.insert(0, (str(node.children[1]), node.children[2]))
        node = bare(node.children[0])
    ops = {op for op, _ in steps}
    operands = [operand for _, operand in steps]
    if ops == {"+", "-"} and ctype(body) in NUMBERS:
        ops = {"+"}
        operands = [operand if op == "+" else typed(
            tree("unary", Token("ADD_OP", "-"), tree("paren", operand)), ctype(operand))
            for op, operand in steps]
    if not (isinstance(node, Tree) and node.data == "var"
            and plain_name(node.children[0]) == accumulator) or len(ops) != 1:
        return None
    op = ops.pop()
    if op not in _TOKENS or (op in ("-", "/") and len(operands) > 1) \
            or any(mentions(operand, {accumulator}) for operand in operands):
        return None
    return op, operands


def _joined(op: str, operands: list[object], text: bool) -> Tree | object:
    """The operands of one step as one value: `'' + a + b` for text, `a OP b` for numbers."""
    parts = [typed(tree("str_lit", Token("STRING", "''")), "str"), *operands] if text \
        else operands
    value = parts[0]
    for part in parts[1:]:
        kind = arith_type(ctype(value), op, ctype(part))
        value = typed(tree("arith", value, Token(_TOKENS[op], op), part), kind)
    return value


def _float(value: object) -> Tree:
    return typed(call("toFloat", value), "float")


def refold(node: Tree, names: FreshNames, always: bool = False) -> bool:
    """Rewrite the reduce() call `node` (on the original tree) as the module says; whether it
    was. `always`: also where the types agree (`reduce_hoists.py` computes the values apart)."""
    seed, loop = node.children[1], node.children[2]
    accumulator = plain_name(seed.children[0].children[0])
    binding, body = loop.children
    start, body_type = ctype(seed.children[2]), ctype(body)
    unknown_values = always and body_type == UNKNOWN and start in NUMBERS
    if unknown_values:
        # Read from maps (`s + x.z`): taken for the start's type; other values make the
        # engines' fold fail to bind (a refusal), never another number.
        body_type = start
    if (start == element(ctype(binding.children[1])) == body_type and not always) \
            or UNKNOWN in (start, body_type):
        return False
    steps = _steps(body, accumulator)
    if steps is None:
        return _fold_one_read(loop, body, accumulator, binding, start, names) \
            or _fold_positions(loop, body, binding, start, body_type, names)
    op, operands = steps
    if start.startswith("list<") and body_type.startswith("list<"):
        return op == "+" and _fold_lists(seed, loop, accumulator, operands, body_type, names)
    text = body_type == "str"
    if not text and not (start in NUMBERS and body_type in NUMBERS):
        return False
    value = _joined(op, operands, text)
    if unknown_values and ctype(value) == UNKNOWN:
        value = typed(value, start)  # type: ignore[arg-type]
    if not text:
        if start == "int" and ctype(value) != "int":
            seed.children[2] = _float(seed.children[2])
        elif ctype(value) == "int" and start != "int":
            value = _float(value)
    values = typed(tree("list_comp_map", tree("in_", binding.children[0], binding.children[1]),
                         value), f"list<{ctype(value)}>")
    step = names.fresh("_y")
    loop.children = [tree("in_", var(step), values),
                     typed(tree("arith", typed(var(accumulator), body_type),
                                 Token(_TOKENS[op], op),
                                 typed(var(name(step)), ctype(value))), body_type)]
    return True


def _fold_lists(seed: Tree, loop: Tree, accumulator: str, operands: list[object],
                body_type: str, names: FreshNames) -> bool:
    """`reduce(acc = [], x IN xs | acc + v + [w])`: each step's values as one list, the fold
    their concatenation from a start of the same list type (`[]` is INT64[] to the engines)."""
    kinds = {element(ctype(o)) if ctype(o).startswith("list<") else ctype(o) for o in operands}
    kuzu_type = KUZU_SCALAR_TYPES.get(kinds.pop()) if len(kinds) == 1 else None
    if kuzu_type is None:
        return False
    body_type = f"list<{next(k for k, v in KUZU_SCALAR_TYPES.items() if v == kuzu_type)}>"
    parts = [o if ctype(o).startswith("list<") else typed(tree("list_literal", o), body_type)
             for o in operands]
    value = parts[0]
    for part in parts[1:]:
        value = typed(call("list_concat", value, part), body_type)
    start = seed.children[2]
    if nothing_but_nulls(start):
        seed.children[2] = typed(call("CAST", tree("cast_arg", start, name(f"{kuzu_type}[]"))),
                                  body_type)
    binding = loop.children[0]
    values = typed(tree("list_comp_map", tree("in_", binding.children[0], binding.children[1]),
                         value), f"list<{body_type}>")
    step = names.fresh("_y")
    loop.children = [tree("in_", var(step), values),
                     typed(call("list_concat", typed(var(accumulator), body_type),
                                 typed(var(name(step)), body_type)), body_type)]
    return True


# A position written in a number or text accumulator's type, and read back.
_POSITION_AS = {"int": None, "float": "toFloat", "str": "toString"}


def _fold_positions(loop: Tree, body: object, binding: Tree, start: str, body_type: str,
                    names: FreshNames) -> bool:
    """The fold over the element's positions (see the module)."""
    source = binding.children[1]
    if start not in _POSITION_AS or body_type != start or not isinstance(source, Tree) \
            or recomputes_badly(source) or not ctype(source).startswith("list<"):
        return False
    element_name = plain_name(binding.children[0].children[0])
    if isinstance(body, Tree) and any(sub.data == "node_pattern" and mentions(sub, {element_name})
                                      for sub in body.iter_subtrees()):
        return False   # a pattern cannot start at `rooms[_i]`
    position, step = names.fresh("_i"), names.fresh("_p")
    written = typed(var(name(position)), "int")
    if _POSITION_AS[start] is not None:
        written = typed(call(_POSITION_AS[start], written), start)
    values = typed(tree("list_comp_map", tree("in_", var(name(position)), positions_of(source)),
                        written), f"list<{start}>")
    values.positions = True  # type: ignore[attr-defined]
    read_back = typed(var(name(step)), start) if start == "int" \
        else typed(call("toInteger", typed(var(name(step)), start)), "int")
    element_of = typed(tree("index", clone(source), read_back), element(ctype(source)))
    element_of.by_position = True  # type: ignore[attr-defined]  # no node of a pattern
    loop.children = [tree("in_", var(name(step)), values),
                     substitute(body, {element_name: element_of})]
    return True


def _element_reads(node: object, accumulator: str, element_name: str) -> list[Tree]:
    """The largest parts of `node` that read the element and not the accumulator."""
    if not isinstance(node, Tree):
        return []
    reads = mentions(node, {element_name})
    if reads and not mentions(node, {accumulator}):
        return [node]
    if not reads:
        return []
    return [found for child in node.children
            for found in _element_reads(child, accumulator, element_name)]


def _fold_one_read(loop: Tree, body: object, accumulator: str, binding: Tree, start: str,
                   names: FreshNames) -> bool:
    """The step's one read of the element, folded over its values (see the module)."""
    element_name = plain_name(binding.children[0].children[0])
    reads = _element_reads(body, accumulator, element_name)
    if not reads or start not in KUZU_SCALAR_TYPES \
            or any(shape(read) != shape(reads[0]) for read in reads) \
            or ctype(reads[0]) != start:
        return False
    step = names.fresh("_y")
    values = typed(tree("list_comp_map", tree("in_", binding.children[0], binding.children[1]),
                         clone(reads[0])), f"list<{start}>")

    def replaced(node: object) -> object:
        if any(node is read for read in reads):
            return typed(var(name(step)), start)
        if isinstance(node, Tree):
            node.children = [replaced(child) for child in node.children]
        return node

    loop.children = [tree("in_", var(step), values), replaced(body)]
    return True

"""A natural-language rendering of a PDDL domain and problem, generated from the parsed PDDL.

Generated, not hand-written, so the description can never drift from the domain the simulator
checks against. The wording is deliberately plain: one sentence per action part and per fact.
"""

from __future__ import annotations

from planeval.pddl import (
    OBJECT,
    Action,
    And,
    Atom,
    Domain,
    Equals,
    Exists,
    ForAll,
    Formula,
    Imply,
    Not,
    Or,
    Problem,
    fact_to_pddl,
)


def _formula(formula: Formula) -> str:
    match formula:
        case Atom():
            return fact_to_pddl((formula.predicate, *formula.terms))
        case Equals():
            return f"{formula.left} is the same as {formula.right}"
        case Not(formula=inner):
            return f"not {_formula(inner)}"
        case And(parts=()):
            return "always"
        case And(parts=parts):
            return " and ".join(_formula(p) for p in parts)
        case Or(parts=parts):
            return "either " + " or ".join(_formula(p) for p in parts)
        case Imply():
            return f"if {_formula(formula.condition)} then {_formula(formula.consequence)}"
        case Exists() | ForAll():
            quant = "some" if isinstance(formula, Exists) else "every"
            names = ", ".join(v.name for v in formula.variables)
            return f"for {quant} {names}: {_formula(formula.body)}"
    return str(formula)


def _action(action: Action) -> str:
    params = ", ".join(
        p.name if p.types == (OBJECT,) else f"{p.name} (a {' or '.join(p.types)})"
        for p in action.parameters
    )
    adds = [str(e.atom) for e in action.effects if e.positive and e.is_simple]
    dels = [str(e.atom) for e in action.effects if not e.positive and e.is_simple]
    conditional = [e for e in action.effects if not e.is_simple]
    lines = [f"- {action.name}" + (f" with {params}" if params else "") + ":",
             f"  It can be done when: {_formula(action.precondition)}."]
    if adds:
        lines.append(f"  Afterwards these become true: {', '.join(adds)}.")
    if dels:
        lines.append(f"  Afterwards these become false: {', '.join(dels)}.")
    for effect in conditional:
        cond = _formula(effect.condition) if effect.condition is not None else "always"
        verb = "becomes true" if effect.positive else "becomes false"
        lines.append(f"  If {cond}, then {effect.atom} {verb}.")
    return "\n".join(lines)


def describe_domain(domain: Domain) -> str:
    actions = "\n".join(_action(a) for a in domain.actions.values())
    return (
        f"The world '{domain.name}' has these actions. Write an action as "
        f"(name arg1 arg2 ...), with the arguments in the order listed.\n{actions}"
    )


def describe_problem(problem: Problem) -> str:
    by_type: dict[str, list[str]] = {}
    for name, types in sorted(problem.all_objects.items()):
        by_type.setdefault(" or ".join(types), []).append(name)
    objects = "; ".join(f"{kind}: {', '.join(names)}" for kind, names in sorted(by_type.items()))
    facts = "\n".join(f"- {fact_to_pddl(f)}" for f in sorted(problem.init))
    return (
        f"Objects ({objects}).\nIn the initial state exactly these facts are true:\n{facts}\n"
        f"The goal is: {_formula(problem.goal)}."
    )

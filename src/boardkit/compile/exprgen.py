"""Checked expressions -> Python expression source.

The source reads the game through `s` (the runtime state) and procedure locals through `L`;
everything else it names is a module global of the generated program: constants `K_*`,
functions `F_*`, built-ins `_b_*` and the helpers bound by the runtime (`_attr`, `_each`,
`_add`, `_mul`).
"""

from __future__ import annotations

from boardkit.model import expr as m

_OPS = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "%", "==": "==", "!=": "!=", "<": "<", "<=": "<=",
        ">": ">", ">=": ">=", "in": "in", "not in": "not in"}


def zone_slot(z: m.ZoneRef, state: str = "s") -> str:
    """Source of the slot of one zone: an index into the state's zone lists."""
    if not z.args:
        return f"{state}.zslot[{z.name!r}]"
    return f"{state}.zslot[({z.name!r}, {', '.join(gen(a, state) for a in z.args)})]"


def var_key(name: str, args: tuple[m.Expr, ...], state: str = "s") -> str:
    if not args:
        return repr(name)
    return f"({name!r}, {', '.join(gen(a, state) for a in args)})"


def gen(node: m.Expr | m.KeyFunc, s: str = "s") -> str:  # noqa: C901, PLR0911, PLR0912
    """Python source of `node`; `s` names the state (another name where it is not `s`)."""
    if isinstance(node, m.Lit):
        return repr(node.value)
    if isinstance(node, m.ConstRef):
        return f"K_{node.name}"
    if isinstance(node, m.EnumList):
        return repr(list(node.members))
    if isinstance(node, m.Local):
        return f"L[{node.name!r}]"
    if isinstance(node, m.Bound):
        return node.ident
    if isinstance(node, m.OptionRef):
        return f"{s}.options[{node.name!r}]"
    if isinstance(node, m.StateRef):
        return f"list({s}.players)" if node.name == "players" else f"{s}.nplayers"
    if isinstance(node, m.VarRef):
        return f"{s}.vars[{var_key(node.name, node.args, s)}]"
    if isinstance(node, m.ZoneRef):
        return f"{s}.zones[{zone_slot(node, s)}]"
    if isinstance(node, m.Attr):
        return f"_attr({gen(node.obj, s)}, {node.name!r})"
    if isinstance(node, m.PieceAttr):
        return f"{node.piece.ident}.attrs[{node.name!r}]"
    if isinstance(node, m.BuiltinCall):
        args = [s] if node.needs_state else []
        args += [gen(a, s) for a in node.args]
        return f"_b_{node.name}({', '.join(args)})"
    if isinstance(node, m.GridCall):
        args = [s, zone_slot(node.zone, s), *(gen(a, s) for a in node.args)]
        return f"_b_{node.name}({', '.join(args)})"
    if isinstance(node, m.KeyFunc):
        return f"(lambda {node.cell.ident}: {gen(node.body, s)})"
    if isinstance(node, m.FuncCall):
        return f"F_{node.name}({''.join([s, *(', ' + gen(a, s) for a in node.args)])})"
    if isinstance(node, m.Unary):
        inner = gen(node.operand, s)
        return f"(not {inner})" if node.op == "not" else f"(-{inner})"
    if isinstance(node, m.Binary):
        left, right = gen(node.left, s), gen(node.right, s)
        if node.op == "+":
            return f"_add({s}, {left}, {right})"
        if node.op == "*":
            return f"_mul({left}, {right})"
        return f"({left} {_OPS[node.op]} {right})"
    if isinstance(node, m.BoolOp):
        return "(" + f" {node.op} ".join(gen(v, s) for v in node.values) + ")"
    if isinstance(node, m.Ternary):
        return f"({gen(node.then, s)} if {gen(node.cond, s)} else {gen(node.other, s)})"
    if isinstance(node, m.ListLit):
        return "[" + ", ".join(gen(x, s) for x in node.items) + "]"
    if isinstance(node, m.Where):
        var = node.it.ident
        return f"[{var} for {var} in _each({s}, {gen(node.coll, s)}) if {gen(node.cond, s)}]"
    if isinstance(node, m.ListComp):
        clauses = []
        for f in node.fors:
            clause = f"for {f.var.ident} in _each({s}, {gen(f.iter, s)})"
            if f.cond is not None:
                clause += f" if {gen(f.cond, s)}"
            clauses.append(clause)
        return f"[{gen(node.elt, s)} {' '.join(clauses)}]"
    msg = f"no source for {type(node).__name__}"
    raise TypeError(msg)

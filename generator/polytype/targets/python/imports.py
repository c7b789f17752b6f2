"""The imports a generated module keeps: the ones its code uses.

A flavor file that imports its runtime is rendered with every import it could need
(the names the runtime defines among them) and then keeps only the names its code
refers to, as ruff's F401 would: a name in code, in a string that is a type (an
annotation, `cast`'s first argument, a subscript, `TypeAliasType`'s value) or in
`__all__` (a re-export). A name the module defines itself is never imported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

_TYPE_CALLS = {"cast": 0, "TypeAliasType": 1}


def top_level_names(text: str) -> set[str]:
    """The names a module's top level defines (functions, classes, assignments)."""
    return _defined(ast.parse(text))


def prune_imports(text: str) -> str:
    """`text` with the top-level imports it does not use removed (`__future__` stays)."""
    tree = ast.parse(text)
    imports = [
        node
        for node in tree.body
        if isinstance(node, ast.Import)
        or (isinstance(node, ast.ImportFrom) and node.module != "__future__")
    ]
    if not imports:
        return text
    used = _used(node for node in tree.body if node not in imports)
    used -= _defined(tree)
    lines = text.split("\n")
    first, last = imports[0].lineno - 1, imports[-1].end_lineno or imports[-1].lineno
    region: list[str] = []
    cursor = first
    for node in imports:
        region.extend(lines[cursor : node.lineno - 1])
        region.extend(_kept(node, used))
        cursor = node.end_lineno or node.lineno
    collapsed: list[str] = []
    for line in region:
        if not line.strip() and (not collapsed or not collapsed[-1].strip()):
            continue
        collapsed.append(line)
    while collapsed and not collapsed[-1].strip():
        collapsed.pop()
    return "\n".join(lines[:first] + collapsed + lines[last:])


def _kept(node: ast.Import | ast.ImportFrom, used: set[str]) -> list[str]:
    if isinstance(node, ast.Import):
        return [
            f"import {alias.name}"
            for alias in node.names
            if (alias.asname or alias.name.split(".")[0]) in used
        ]
    names = [alias.name for alias in node.names if (alias.asname or alias.name) in used]
    if not names:
        return []
    return [f"from {'.' * node.level}{node.module or ''} import {', '.join(names)}"]


def _defined(tree: ast.Module) -> set[str]:
    return _defined_in(tree.body)


def _defined_in(body: list[ast.stmt]) -> set[str]:
    """The names `body` defines, in both branches of an `if` (`if TYPE_CHECKING:`) too."""
    names: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.If):
            names |= _defined_in(node.body) | _defined_in(node.orelse)
    return names


def _used(nodes: Iterable[ast.AST]) -> set[str]:
    used: set[str] = set()
    for top in nodes:
        if isinstance(top, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in top.targets
        ):
            used.update(_strings(top.value))
        for node in ast.walk(top):
            if isinstance(node, ast.Name):
                used.add(node.id)
            for expression in _type_expressions(node):
                used |= _names_in_strings(expression)
    return used


def _type_expressions(node: ast.AST) -> list[ast.expr]:
    """The parts of `node` that are types, where a string is a type too."""
    found: list[ast.expr] = []
    if isinstance(node, ast.AnnAssign):
        found.append(node.annotation)
        if isinstance(node.annotation, ast.Name) and node.annotation.id == "TypeAlias":
            if node.value is not None:
                found.append(node.value)
    elif isinstance(node, ast.arg) and node.annotation is not None:
        found.append(node.annotation)
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
        found.append(node.returns)
    elif isinstance(node, ast.Subscript):
        if not (isinstance(node.value, ast.Name) and node.value.id == "Literal"):
            found.append(node.slice)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        position = _TYPE_CALLS.get(node.func.id)
        if position is not None and len(node.args) > position:
            found.append(node.args[position])
    return found


def _names_in_strings(expression: ast.AST) -> set[str]:
    """The names in the strings of a type expression (forward references); the values of
    a `Literal[...]` are values, not types."""
    names: set[str] = set()
    if isinstance(expression, ast.Subscript) and isinstance(expression.value, ast.Name):
        if expression.value.id == "Literal":
            return names
    if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
        try:
            parsed = ast.parse(expression.value, mode="eval")
        except SyntaxError:
            return names
        names.update(inner.id for inner in ast.walk(parsed) if isinstance(inner, ast.Name))
        return names | _names_in_strings(parsed.body)
    for child in ast.iter_child_nodes(expression):
        names |= _names_in_strings(child)
    return names


def _strings(node: ast.expr) -> set[str]:
    return {
        item.value
        for item in ast.walk(node)
        if isinstance(item, ast.Constant) and isinstance(item.value, str)
    }

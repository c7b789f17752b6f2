"""Dispatch over IR kinds is exhaustive: a new kind fails type-checking wherever it is
not handled.

Targets (and the IR's own queries) branch over the kinds of `ir.TypeRef` and
`ir.NamedType` with `match` and a last `case _ as unreachable: assert_never(unreachable)`
(docs/architecture.md, "Dispatch over IR kinds"). Two tests hold the rule:

- no function of `targets/` or `ir/` branches over IR kinds with a chain of
  `isinstance` tests, which mypy cannot check for completeness;
- in a copy of the package whose `TypeRef` and `NamedType` each gain a kind, mypy
  reports every `assert_never` that the new kind reaches, in every target package.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import typing
from collections import Counter
from pathlib import Path

import mypy.api
from polytype import ir

PACKAGE = Path(ir.__file__).resolve().parent.parent
IR_KINDS = frozenset(
    kind.__name__ for kind in typing.get_args(ir.TypeRef) + typing.get_args(ir.NamedType)
)
CHECKED_AREAS = ("targets", "ir")
# every package of targets/ that renders output has its own exhaustive dispatch
TARGET_PACKAGES = (
    "base",
    "python",
    "python_dataclasses",
    "python_typeddicts",
    "python_pydantic",
    "elixir",
    "docs",
)
# this many `if`s testing one subject against IR kinds make a dispatch
CHAIN = 3


def _tested_subjects(test: ast.expr) -> set[str]:
    """The expressions `test` checks with `isinstance(x, <IR kind>)`."""
    found: set[str] = set()
    for node in ast.walk(test):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
        ):
            classes = node.args[1]
            for cls in classes.elts if isinstance(classes, ast.Tuple) else [classes]:
                name = cls.attr if isinstance(cls, ast.Attribute) else getattr(cls, "id", None)
                if name in IR_KINDS:
                    found.add(ast.unparse(node.args[0]))
    return found


def _isinstance_dispatch(source: str) -> list[tuple[int, str, str, int]]:
    """(line, function, subject, count) of every function whose own `if` statements test
    one subject against IR kinds `CHAIN` times or more."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        counts: Counter[str] = Counter()
        pending: list[ast.AST] = [function]
        while pending:
            for child in ast.iter_child_nodes(pending.pop()):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                    continue  # a nested function is looked at on its own
                if isinstance(child, ast.If):
                    counts.update(_tested_subjects(child.test))
                pending.append(child)
        found += [
            (function.lineno, function.name, subject, count)
            for subject, count in counts.items()
            if count >= CHAIN
        ]
    return found


def test_no_isinstance_chains_over_ir_kinds() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE)}:{line} {name}: {count} isinstance tests of {subject}"
        for area in CHECKED_AREAS
        for path in sorted((PACKAGE / area).rglob("*.py"))
        for line, name, subject, count in _isinstance_dispatch(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, "dispatch with match/assert_never instead:\n" + "\n".join(offenders)


def test_the_chain_rule_sees_a_chain() -> None:
    source = (
        "def f(t):\n"
        "    if isinstance(t, ir.Prim):\n        return 1\n"
        "    elif isinstance(t, (ir.ListOf, ir.MapOf)):\n        return 2\n"
        "    if isinstance(t, Ref) and t.name:\n        return 3\n"
        "    return 4\n"
    )
    assert _isinstance_dispatch(source) == [(1, "f", "t", 3)]
    assert _isinstance_dispatch(source.replace("Ref", "str")) == []


NEW_TYPE_REF = '''

@dataclass(frozen=True)
class NewTypeRef:
    """A kind no target knows yet."""

    inner: TypeRef
'''

NEW_NAMED_TYPE = '''

@dataclass(frozen=True)
class NewNamedType:
    """A kind no target knows yet."""

    name: str
'''


def _with_new_kinds(copy: Path) -> None:
    """Add a kind to `TypeRef` and one to `NamedType` in the package copied to `copy`."""
    for module, alias, kind, first in (
        ("type_refs.py", "TypeRef: TypeAlias = (\n", NEW_TYPE_REF, "    NewTypeRef\n    | "),
        ("named_types.py", "NamedType: TypeAlias = ", NEW_NAMED_TYPE, "NewNamedType | "),
    ):
        path = copy / "ir" / module
        text = path.read_text(encoding="utf-8")
        assert text.count(f"\n{alias}") == 1, f"{module} no longer defines {alias!r}"
        path.write_text(text.replace(f"\n{alias}", f"{kind}\n\n{alias}{first}"), encoding="utf-8")


def _partial_unions(package: Path) -> set[str]:
    """Names of the unions of some IR kinds that modules of `package` define at their top
    level, such as `HelperKind = (ir.ListOf | ir.TupleOf | ...)`."""
    found = set()
    for path in package.rglob("*.py"):
        for statement in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.BinOp):
                kinds = {
                    node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
                    for node in ast.walk(statement.value)
                    if not isinstance(node, ast.BinOp | ast.BitOr | ast.Load)
                }
                if kinds - {"ir"} <= IR_KINDS:
                    found |= {t.id for t in statement.targets if isinstance(t, ast.Name)}
    return found


def _assert_nevers(path: Path, partial: set[str]) -> list[int]:
    """The lines of `path` that call `assert_never`, but for those in a function over a
    part of the kinds (a parameter typed with one of the `partial` unions): a new kind
    never reaches it, mypy reports its caller instead."""
    lines = []
    for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(function, ast.FunctionDef):
            continue
        annotations = {ast.unparse(a.annotation) for a in function.args.args if a.annotation}
        if annotations & partial:
            continue
        lines += [
            node.lineno
            for node in ast.walk(function)
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "assert_never"
        ]
    return lines


def test_a_new_ir_kind_fails_type_checking_in_every_target(tmp_path: Path) -> None:
    copy = tmp_path / "polytype"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "templates"))
    _with_new_kinds(copy)
    stdout, stderr, _ = mypy.api.run(
        ["--strict", "--no-incremental", "--no-error-summary", "--cache-dir", os.devnull, str(copy)]
    )
    reported: dict[Path, set[int]] = {}
    for line in stdout.splitlines():
        found = re.match(r"(.+?\.py):(\d+): error: .*\bNew(TypeRef|NamedType)\b", line)
        if found:
            reported.setdefault(Path(found[1]), set()).add(int(found[2]))
    assert reported, stdout + stderr
    # every exhaustive dispatch sees the new kinds...
    partial = _partial_unions(copy)
    assert "HelperKind" in partial
    unchecked = [
        f"{path.relative_to(copy)}:{line}"
        for path in sorted(copy.rglob("*.py"))
        for line in _assert_nevers(path, partial)
        if line not in reported.get(path, set())
    ]
    assert not unchecked, "mypy did not report these for a new IR kind:\n" + "\n".join(unchecked)
    # ...and each target has some
    silent = [
        package
        for package in TARGET_PACKAGES
        if not any(path.is_relative_to(copy / "targets" / package) for path in reported)
    ]
    assert not silent, f"no error in {silent} for a new IR kind:\n{stdout}"

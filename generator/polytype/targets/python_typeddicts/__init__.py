"""Target: `typing.TypedDict` views of the JSON data, with validators that return their input.

`generated/python/<module>/typed_dicts.py` declares, for every named type, what
the JSON looks like on the wire: TypedDicts keyed by the JSON keys (camelCase
stays camelCase), `NotRequired[...]` for keys the schema does not require,
`X | None` for nullable values, `Literal` tags, string enums as `Literal`
aliases, unions as aliases, `JSONValue` for free-form JSON. `validate_<x>(data)`
checks data at runtime with the same rules, paths and messages as the
dataclass flavor (both render the checks of `python_codecs`) and returns the
very object it was given, unchanged.

The same render also writes the static checks of this flavor (see
`typecheck_files`) and, through `python_typeddict_tests`, its pytest suite.
"""

from __future__ import annotations

import json
import keyword
import math
import re
import textwrap
from dataclasses import dataclass

from polytype import ir
from polytype.diagnostics import json_type_name
from polytype.ir import unions
from polytype.ir.fixtures import FixtureCase
from polytype.ir.json_types import json_type_of
from polytype.ir.object_rules import rules_text
from polytype.ir.wording import checks_text
from polytype.targets.base import OutputFile, depth
from polytype.targets.base.formatting import LINE_LENGTH
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.base.render import RenderEnv, py_str
from polytype.targets.python.alias_order import alias_order, refs
from polytype.targets.python.checks import runtime_parts
from polytype.targets.python.codecs import Codecs
from polytype.targets.python.common import (
    constraint_note,
    isort_names,
    path_segment,
    py_literal,
    python_constants,
    unknown_doc,
    with_note,
)
from polytype.targets.python.flavors import TYPEDDICTS
from polytype.targets.python.snippet_views import HelperView
from polytype.targets.python_typeddicts import tests as python_typeddict_tests

TARGET = "python-typeddicts"
TYPECHECK_TARGET = "python-typeddicts-typecheck"

_CLASS_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")


# --- views -----------------------------------------------------------------


@dataclass(frozen=True)
class KeyView:
    key: str  # the JSON key as a Python string literal
    name: str  # the JSON key itself (class syntax only uses it when it is a plain identifier)
    annotation: str
    comment: str


@dataclass(frozen=True)
class TypedDictView:
    name: str
    doc: str
    functional: bool  # `X = TypedDict("X", {...})`: some key is not usable as a class attribute
    keys: tuple[KeyView, ...]
    validator: str
    body: tuple[str, ...]
    keys_name: str
    keys_literal: str

    @property
    def keys_statement(self) -> str:
        """`_X_KEYS = frozenset({...})`."""
        return f"{self.keys_name} = {self.keys_literal}"


@dataclass(frozen=True)
class LiteralAliasView:
    name: str
    doc: str
    values: str  # `"a", "b"`
    entries: str  # `"a": "a", "b": "b"`
    validator: str
    values_name: str

    entry_items: tuple[str, ...] = ()  # the entries one by one

    @property
    def values_statement(self) -> str:
        """`_X_VALUES: dict[str, X] = {...}`."""
        return f"{self.values_name}: dict[str, {self.name}] = {{{', '.join(self.entry_items)}}}"


@dataclass(frozen=True)
class AliasView:
    name: str
    doc: str
    value: str
    validator: str
    body: tuple[str, ...]


@dataclass(frozen=True)
class TagTableView:
    name: str
    union: str
    entries: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class PublicView:
    type_name: str
    suffix: str
    validator: str


# --- naming and annotations ------------------------------------------------


def module_path(module: ir.Module) -> str:
    return f"python/{module.name}/typed_dicts.py"


def class_syntax_key(key: str) -> bool:
    """Whether `key` can be a TypedDict class attribute as it is.

    Not for keywords (`from`, `class`), keys that are not ASCII identifiers (`a-b`,
    non-ASCII letters that Python would NFKC-normalise) or that start with two
    underscores (the class body would mangle them to `_Name__key`).
    """
    return bool(_CLASS_KEY.match(key)) and not keyword.iskeyword(key) and not key.startswith("__")


def _annotation(codecs: Codecs, type_ref: ir.TypeRef, defined: set[str], required: bool) -> str:
    """The value annotation of one key, quoted where it names a type defined further down.

    typed_dicts.py does not use `from __future__ import annotations`: with it, Python 3.11
    cannot see `NotRequired` and reports every key in `__required_keys__`.
    """
    text = codecs.annotation(type_ref)
    if refs(type_ref) - defined:
        text = py_str(text)
    return text if required else f"NotRequired[{text}]"


def _key_comment(item: ir.Field, alias_of: str | None, validator: str) -> str:
    lines = [text for text in (item.doc, constraint_note(item.type)) if text]
    if alias_of is not None:
        lines.append(
            f"Alias of {json.dumps(alias_of)} (x-aliases): NotRequired because either spelling may be"
            f" sent; {validator} rejects both at once"
            + (" and requires one of them." if item.required else ".")
        )
    elif item.aliases:
        spellings = ", ".join(json.dumps(a) for a in item.aliases)
        lines.append(
            f"Also accepted as {spellings} (x-aliases): NotRequired because an alias may stand in for it"
            + (f"; {validator} requires one spelling." if item.required else ".")
        )
    if not item.required and item.default is not None:
        lines.append(f"Absent means the default: {py_literal(item.default.value)}.")
    return "\n".join(lines)


def _extra_note(record: ir.Record, validator: str) -> str:
    if record.extra_policy == "keep":
        note = (
            "Note: unknown keys are allowed and kept. A TypedDict cannot declare them, so a"
            f" typed literal may not contain them; `{validator}` accepts any other key whose"
            " value is JSON, and leaves it in place."
        )
    elif record.extra_policy == "ignore":
        note = (
            "Note: unknown keys are allowed and ignored. A TypedDict cannot declare them;"
            f" `{validator}` does not look at them."
        )
    else:
        note = f"Unknown keys are rejected by `{validator}` (the schema forbids additional properties)."
    return textwrap.fill(note, width=84, break_long_words=False, break_on_hyphens=False)


# --- building views --------------------------------------------------------


def _typed_dict_view(record: ir.Record, codecs: Codecs, defined: set[str]) -> TypedDictView:
    suffix = function_suffix(record.name)
    public = f"validate_{suffix}"
    keys: list[KeyView] = []
    for item in record.fields:
        is_required = item.required and not item.aliases
        keys.append(
            KeyView(
                py_str(item.json_key),
                item.json_key,
                _annotation(codecs, item.type, defined, is_required),
                _key_comment(item, None, public),
            )
        )
        for alias in item.aliases:
            keys.append(
                KeyView(
                    py_str(alias),
                    alias,
                    _annotation(codecs, item.type, defined, False),
                    _key_comment(item, item.json_key, public),
                )
            )
    checks = codecs.record_checks(record)
    body = list(checks.prelude)
    body.extend(codecs.field_check(item) for item in checks.fields)
    if checks.rules_check:
        body.append(checks.rules_check)
    if checks.keeps_extra:
        body.append(checks.extra_check)
    body.append(f"return cast({record.name}, obj)")
    doc = (record.doc or f"The {record.name} object.") + "\n\n" + _extra_note(record, public)
    for text in (rules_text(record.rules), checks_text(record.schema_checks)):
        if text:
            doc += "\n\n" + textwrap.fill(text, width=84, break_long_words=False)
    return TypedDictView(
        name=record.name,
        doc=doc,
        functional=not all(class_syntax_key(key.name) for key in keys),
        keys=tuple(keys),
        validator=codecs.checker(record.name),
        body=tuple(body),
        keys_name=checks.keys_name,
        keys_literal=checks.keys,
    )


def _literal_alias_view(enum: ir.EnumType, codecs: Codecs) -> LiteralAliasView:
    return LiteralAliasView(
        name=enum.name,
        doc=enum.doc or f"The {enum.name} enumeration.",
        values=", ".join(py_str(value.value) for value in enum.values),
        entries=", ".join(f"{py_str(value.value)}: {py_str(value.value)}" for value in enum.values),
        entry_items=tuple(f"{py_str(value.value)}: {py_str(value.value)}" for value in enum.values),
        validator=codecs.checker(enum.name),
        values_name=codecs.enum_values_name(enum),
    )


@dataclass(frozen=True)
class UnknownAliasView:
    """An open union's Unknown<Union> member: the JSON object itself, typed as such."""

    name: str
    doc: str


def _unknown_doc(union: ir.UnionType) -> str:
    return unknown_doc(union).replace(
        "`tag` is the tag, `data` the JSON object as decoded", "the JSON object as decoded"
    )


def _alias_view(named: ir.UnionType | ir.Alias, codecs: Codecs, defined: set[str]) -> AliasView:
    if isinstance(named, ir.UnionType):
        listed = [*named.members, *([named.unknown] if named.unknown else [])]
        value = " | ".join(listed) if listed else "NoReturn"
        names = set(named.members)
        doc = unions.documented(named, named.doc or f"One of: {', '.join(listed)}.")
        doc = with_note(doc, checks_text(named.schema_checks))
        body = codecs.union_body(named)
    else:
        value = codecs.annotation(named.type)
        names = refs(named.type)
        doc = with_note(named.doc or f"The {named.name} type.", constraint_note(named.type))
        body = tuple(codecs.returning(f"{codecs.decoder(named.type)}(data)", named.type))
    if names - defined:  # a cycle among aliases: let the type checker resolve it
        value = py_str(value)
    return AliasView(named.name, doc, value, codecs.checker(named.name), body)


def _render_module(module: ir.Module, env: RenderEnv) -> str:
    codecs = Codecs(module, TYPEDDICTS)
    enums = [t for t in module.types if isinstance(t, ir.EnumType)]
    defined = {"JSONValue"} | {t.name for t in enums}
    literal_aliases = [_literal_alias_view(t, codecs) for t in enums]
    typed_dicts: list[TypedDictView] = []
    for named in module.types:
        if isinstance(named, ir.Record):
            typed_dicts.append(_typed_dict_view(named, codecs, defined))
            defined.add(named.name)
    aliases: list[AliasView] = []
    for named in alias_order(module):
        assert isinstance(named, (ir.UnionType, ir.Alias))
        aliases.append(_alias_view(named, codecs, defined))
        defined.add(named.name)
    tag_tables = [
        TagTableView(codecs.tag_table_name(t), t.name, codecs.tag_table(t))
        for t in module.types
        if isinstance(t, ir.UnionType) and t.tag is not None
    ]
    publics = [
        PublicView(t.name, function_suffix(t.name), codecs.checker(t.name)) for t in module.types
    ]
    unknowns = [
        UnknownAliasView(t.unknown, _unknown_doc(t))
        for t in module.types
        if isinstance(t, ir.UnionType) and t.unknown
    ]
    exported = ["DecodeError", "JSONValue"] + [t.name for t in module.types]
    exported += [unknown.name for unknown in unknowns]
    exported += [f"validate_{p.suffix}" for p in publics]
    helpers: list[HelperView] = sorted(codecs.helpers.values(), key=lambda h: h.name)
    code = [key.annotation for view in typed_dicts for key in view.keys] + [
        a.value for a in aliases
    ]
    code += [helper.signature for helper in helpers] + [
        line for helper in helpers for line in helper.body
    ]
    typing_names = ["TypeAlias", "TypeVar", "cast"]
    if typed_dicts:
        typing_names.append("TypedDict")
    if literal_aliases or any("Literal[" in text for text in code):
        typing_names.append("Literal")
    if any("NotRequired[" in text for text in code):
        typing_names.append("NotRequired")
    if any(re.search(r"\bNoReturn\b", text) for text in code):
        typing_names.append("NoReturn")
    return env.render(
        "python_typeddicts/module.py.j2",
        module=module,
        literal_aliases=literal_aliases,
        typed_dicts=typed_dicts,
        unknowns=unknowns,
        aliases=aliases,
        tag_tables=tag_tables,
        publics=publics,
        helpers=helpers,
        patterns=python_constants(codecs.patterns),
        exported=sorted(exported, key=lambda name: (name.lower(), name)),
        typing_names=isort_names(typing_names),
        # no `from __future__ import annotations` here (TypedDict reads NotRequired at run time)
        decode_error_annotation='"DecodeError"',
        checks=runtime_parts(module),
        check_constants=codecs.check_constants.statements(),
        **depth.template_values(module),
    )


# --- static checks: fixtures as typed literals ---------------------------------


def typecheck_paths(module: ir.Module) -> tuple[str, str]:
    """(snippets mypy must accept, snippets mypy must reject), under the output directory."""
    return (
        f"typecheck/{module.name}_typeddicts_snippets.py",
        f"typecheck/{module.name}_typeddicts_invalid.py",
    )


class NotRepresentable(Exception):
    """A fixture that cannot be written as a type-correct TypedDict literal (reason in the message)."""


def python_literal(value: object) -> str:
    """Parsed JSON as an exact, inert Python expression (ASCII only, True/False/None)."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotRepresentable(f"{value!r} is not a JSON number")
        return repr(value)
    if isinstance(value, str):
        return ascii(value)
    if isinstance(value, list):
        return "[" + ", ".join(python_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(f"{ascii(key)}: {python_literal(item)}" for key, item in value.items())
            + "}"
        )
    raise NotRepresentable(f"{type(value).__name__} is not JSON")


def unknown_keys(
    module: ir.Module, type_ref: ir.TypeRef, value: object, path: str = "$"
) -> list[str]:
    """Paths of keys in (valid) `value` that no TypedDict declares: the keys mypy rejects in a literal.

    Walks `value` as the validators would, dispatching unions on their tags, keys
    and JSON types. Raises `NotRepresentable` when `value` does not fit `type_ref`.
    """
    types = module.types_by_name
    if isinstance(type_ref, ir.Ref):
        named = types[type_ref.name]
        if isinstance(named, ir.Record):
            if not isinstance(value, dict):
                raise NotRepresentable(f"{path}: expected an object for {named.name}")
            found: list[str] = []
            declared = {item.json_key: item for item in named.fields}
            declared.update({alias: item for item in named.fields for alias in item.aliases})
            for key, item_value in value.items():
                if key not in declared:
                    found.append(path + path_segment(key))
                else:
                    found.extend(
                        unknown_keys(
                            module, declared[key].type, item_value, path + path_segment(key)
                        )
                    )
            return found
        if isinstance(named, ir.Alias):
            return unknown_keys(module, named.type, value, path)
        if isinstance(named, ir.UnionType) and named.tries_members:
            return _tried_unknown_keys(module, named, value, path)
        if isinstance(named, ir.UnionType):
            member = _union_member(named, value, types, path)
            if member == named.unknown:
                return []  # the kept member is `dict[str, JSONValue]`: any key
            return unknown_keys(module, ir.Ref(member), value, path)
        return []
    if isinstance(type_ref, ir.ListOf):
        if not isinstance(value, list):
            raise NotRepresentable(f"{path}: expected an array")
        return [
            p
            for index, item in enumerate(value)
            for p in unknown_keys(module, type_ref.item, item, f"{path}[{index}]")
        ]
    if isinstance(type_ref, ir.TupleOf):
        if not isinstance(value, list):
            raise NotRepresentable(f"{path}: expected an array")
        inside: list[str] = []
        for index, item in enumerate(value):
            item_type = type_ref.item(index)
            if item_type is not None:
                inside.extend(unknown_keys(module, item_type, item, f"{path}[{index}]"))
        return inside
    if isinstance(type_ref, ir.MapOf):
        if not isinstance(value, dict):
            raise NotRepresentable(f"{path}: expected an object")
        return [
            p
            for key, item in value.items()
            for p in unknown_keys(module, type_ref.value, item, path + path_segment(key))
        ]
    if isinstance(type_ref, ir.Nullable):
        return [] if value is None else unknown_keys(module, type_ref.inner, value, path)
    if isinstance(type_ref, ir.Checked):
        return unknown_keys(module, type_ref.inner, value, path)
    if isinstance(type_ref, ir.InlineUnion):
        kind = json_type_name(value)
        for option in type_ref.options:
            if kind in json_type_of(option, types):
                return unknown_keys(module, option, value, path)
        raise NotRepresentable(f"{path}: no option of the inline union takes {kind}")
    return []


def _tried_unknown_keys(
    module: ir.Module, union: ir.UnionType, value: object, path: str
) -> list[str]:
    """A union that tries its members: the unknown keys for the first member whose
    pre-check passes and that declares every key (else for the first that fits at all)."""
    kind = json_type_name(value)
    results: list[list[str]] = []
    for check in union.checks:
        if kind not in check.json_types and not (
            kind == "integer" and "number" in check.json_types
        ):
            continue
        if isinstance(value, dict) and not all(key in value for key in check.required):
            continue
        try:
            found = unknown_keys(module, ir.Ref(check.member), value, path)
        except NotRepresentable:
            continue
        if not found:
            return found
        results.append(found)
    if not results:
        raise NotRepresentable(f"{path}: matches no member of {union.name}")
    return results[0]


def _union_member(
    union: ir.UnionType, value: object, types: dict[str, ir.NamedType], path: str
) -> str:
    if union.tag is not None:
        if isinstance(value, dict):
            for tag_value, member in union.tag_values:
                tag = value.get(union.tag)
                if type(tag) is type(tag_value) and tag == tag_value:
                    return member
            if union.unknown is not None and type(value.get(union.tag)) is str:
                return union.unknown
        raise NotRepresentable(f"{path}: no member of {union.name} takes this tag")
    kind = json_type_name(value)
    for case in union.cases:
        if case.json_type == "object" and isinstance(value, dict):
            if case.tag_key is not None and value.get(case.tag_key) == case.tag_value:
                return case.member
            if case.tag_key is None and (case.key is None or case.key in value):
                return case.member
        elif case.json_type != "object" and (
            kind == case.json_type or (case.json_type == "number" and kind == "integer")
        ):
            return case.member
    if isinstance(value, dict) and union.unknown is not None and union.open_tag is not None:
        if type(value.get(union.open_tag)) is str:
            return union.unknown
    raise NotRepresentable(f"{path}: matches no member of {union.name}")


@dataclass(frozen=True)
class SnippetView:
    variable: str
    type_name: str
    fixture: str
    literal: str

    @property
    def declared_apart(self) -> bool:
        """`x: T` and `x = {...}` as two statements when `x: T = {` would not fit a line:
        black then wraps the annotation in parentheses and ruff does not, so the generated
        file would satisfy only one of them."""
        opening = self.literal[0] if self.literal[:1] in ("{", "[") else self.literal
        return len(f"{self.variable}: {self.type_name} = {opening}") > LINE_LENGTH


@dataclass(frozen=True)
class SkippedView:
    fixture: str
    reason: str


@dataclass(frozen=True)
class InvalidView:
    variable: str
    type_name: str
    what: str
    literal: str
    expected: str  # a line mypy must print for this snippet


def _variable(case: FixtureCase, taken: set[str]) -> str:
    stem = case.relative_path.rsplit("/", 1)[-1].removesuffix(".json")
    base = re.sub(r"\W", "_", f"{function_suffix(case.type_name)}__{stem}".lower(), flags=re.ASCII)
    name, number = base, 2
    while name in taken or keyword.iskeyword(name):
        name, number = f"{base}_{number}", number + 1
    taken.add(name)
    return name


def _load_fixture(case: FixtureCase) -> object:
    with open(case.source, encoding="utf-8") as handle:
        return json.load(handle)


def _snippets(
    module: ir.Module, env: RenderEnv
) -> tuple[list[SnippetView], list[SkippedView], list[tuple[FixtureCase, object]]]:
    names = {named.name for named in module.types}
    snippets: list[SnippetView] = []
    skipped: list[SkippedView] = []
    usable: list[tuple[FixtureCase, object]] = []
    taken: set[str] = set()
    for case in env.fixtures_for(module.name):
        if not case.valid or case.type_name not in names:
            continue
        try:
            data = _load_fixture(case)
            extra = unknown_keys(module, ir.Ref(case.type_name), data)
            literal = python_literal(data)
        except (OSError, ValueError, NotRepresentable) as error:
            skipped.append(SkippedView(case.relative_path, f"not representable: {error}"))
            continue
        if extra:
            listed = ", ".join(extra[:3]) + (
                f" and {len(extra) - 3} more" if len(extra) > 3 else ""
            )
            skipped.append(
                SkippedView(
                    case.relative_path, f"unknown key(s) a TypedDict cannot declare: {listed}"
                )
            )
            continue
        snippets.append(
            SnippetView(_variable(case, taken), case.type_name, case.relative_path, literal)
        )
        usable.append((case, data))
    return snippets, skipped, usable


def _required_plain_keys(module: ir.Module, case: FixtureCase, data: object) -> list[ir.Field]:
    """Required keys of a record fixture that are neither tags nor aliased, present in `data`."""
    named = module.get(case.type_name)
    if not isinstance(named, ir.Record) or not isinstance(data, dict):
        return []
    return [
        f
        for f in named.fields
        if f.required and not f.is_tag and not f.aliases and f.json_key in data
    ]


def _invalid_snippets(
    module: ir.Module, usable: list[tuple[FixtureCase, object]]
) -> list[InvalidView]:
    """Mutations of valid record fixtures that mypy must reject, each with the error mypy reports.

    A required key left out and an undeclared key added (first record fixture with a
    plain required key), and a required primitive given a value of the wrong type
    (first record fixture with a required `str`, `int`, `float` or `bool` key).
    """
    views: list[InvalidView] = []
    for case, data in usable:
        plain = _required_plain_keys(module, case, data)
        if not plain:
            continue
        assert isinstance(data, dict)
        missing = plain[0]
        views.append(
            InvalidView(
                "missing_required_key",
                case.type_name,
                f"required key {missing.json_key!r} left out of {case.relative_path}",
                python_literal(
                    {key: value for key, value in data.items() if key != missing.json_key}
                ),
                f'Missing key "{missing.json_key}" for TypedDict "{case.type_name}"',
            )
        )
        views.append(
            InvalidView(
                "unknown_key",
                case.type_name,
                f"a key the schema does not declare added to {case.relative_path}",
                python_literal({**data, "__not_in_the_schema__": 1}),
                f'Extra key "__not_in_the_schema__" for TypedDict "{case.type_name}"',
            )
        )
        break
    for case, data in usable:
        prims = [f for f in _required_plain_keys(module, case, data) if isinstance(f.type, ir.Prim)]
        if not prims:
            continue
        assert isinstance(data, dict)
        wrong = prims[0]
        assert isinstance(wrong.type, ir.Prim)
        bad_value: object = 12345 if wrong.type.kind == "str" else "not a number"
        bad_type = "int" if wrong.type.kind == "str" else "str"
        views.append(
            InvalidView(
                "wrong_value_type",
                case.type_name,
                f"{wrong.json_key!r} given a value of type {bad_type} in {case.relative_path}",
                python_literal({**data, wrong.json_key: bad_value}),
                f'Incompatible types (expression has type "{bad_type}", TypedDict item "{wrong.json_key}"'
                f' has type "{wrong.type.kind}")',
            )
        )
        break
    return views


def typecheck_files(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    snippets, skipped, usable = _snippets(module, env)
    invalid = _invalid_snippets(module, usable)
    valid_path, invalid_path = typecheck_paths(module)
    common = {"module": module, "import_from": f"{module.name}.typed_dicts"}
    valid_doc = (
        f"Static check of {module.name}/typed_dicts.py: every valid fixture, written as a typed literal.\n\n"
        "`nox -s typecheck` runs `mypy --strict` on this file (with MYPYPATH set to the generated\n"
        "`python/` directory): each assignment must type-check as it is.\n\n"
    )
    if skipped:
        valid_doc += (
            f"Fixtures left out ({len(skipped)}), because a TypedDict literal cannot hold them:\n"
        )
        valid_doc += "".join(f"- {skip.fixture}: {skip.reason}\n" for skip in skipped)
    else:
        valid_doc += "No fixture is left out.\n"
    invalid_doc = (
        f"Static check of {module.name}/typed_dicts.py: literals that mypy must REJECT.\n\n"
        "Each assignment breaks its TypedDict in one way; EXPECTED_ERRORS lists the error mypy\n"
        "reports for each, in order. tests/test_typeddicts.py runs mypy on this file and fails\n"
        "unless mypy rejects it with exactly these errors.\n"
    )
    return [
        OutputFile(
            valid_path,
            env.render(
                "python_typeddicts/snippets.py.j2",
                doc=valid_doc,
                snippets=snippets,
                imported=isort_names(snippet.type_name for snippet in snippets),
                **common,
            ),
            TYPECHECK_TARGET,
            module.name,
            "python",
        ),
        OutputFile(
            invalid_path,
            env.render(
                "python_typeddicts/invalid.py.j2",
                doc=invalid_doc,
                snippets=invalid,
                imported=isort_names(snippet.type_name for snippet in invalid),
                **common,
            ),
            TYPECHECK_TARGET,
            module.name,
            "python",
        ),
    ]


def render(module: ir.Module, env: RenderEnv) -> list[OutputFile]:
    """typed_dicts.py, its static checks and its generated pytest suite."""
    outputs = [
        OutputFile(module_path(module), _render_module(module, env), TARGET, module.name, "python")
    ]
    outputs.extend(typecheck_files(module, env))
    outputs.extend(python_typeddict_tests.render(module, env))
    return outputs

"""Properties of every Python flavor's decoders over every shipped schema, checked against jsonschema.

The flavors (`FLAVORS`), each with its decode, its encode and its rejection:
- dataclasses: `decode_<type>` / `encode_<type>`, rejecting with `DecodeError`;
- TypedDicts: `validate_<type>`, which returns its very input (so the "encoding" is
  the input itself), rejecting with the module's own `DecodeError`;
- Pydantic: `X.model_validate` (or `XAdapter.validate_python` for unions, enums and
  aliases), dumped with `mode="json", by_alias=True, exclude_unset=True`, rejecting
  with `pydantic.ValidationError`; the same data is also validated from its JSON
  text (`model_validate_json` / `validate_json`), which must give the same verdict
  and the same dump.

For every type of every shipped module, instances come from hypothesis-jsonschema
(`from_schema`) on `polytype.project.export.wire_schema(data, type_name)`: the plain JSON
Schema the wire format obeys. Drawing from the full wire schema is far too slow
for big unions, so drawing uses a bounded sub-schema of it (`bounded`: short
strings and arrays, closed objects, canonical key spellings, free-form JSON reduced
to scalars, `oneOf` drawn as `anyOf`, and in the types it refers to only the
optional properties that do not lead to further named types), and every drawn
instance is then checked against the real wire schema by jsonschema. A union's
instances are drawn from its members' strategies (one member per example).
Drawing is the expensive part, so each (module, type) is one test that draws once
per example and checks every flavor on it.

- A valid instance decodes, and encodes back to exactly the same JSON (types
  included: `1`, `1.0` and `true` are different); decoding does not mutate it.
- A mutation of it (a value replaced by one of another JSON type, a key removed or
  added, a value wrapped in a list, a string lengthened, a number moved) is accepted
  by each flavor exactly when jsonschema accepts it; then it round-trips too.
  A rejection is that flavor's error type and nothing else.
- Where the verdicts differ by design, `DIFFERENCES` says why (per
  docs/dialect.md); any other disagreement fails the test.

Huge and deeply nested inputs are rejected with a clean error of the flavor's type
(never a `RecursionError`) by every decoder of every flavor. NaN and infinity (which
Python's `json` reads from `NaN` and `1e999`) are not JSON: every flavor rejects them
in free-form JSON values and kept unknown keys.

Profile: `ci` in tests/conftest.py (25 examples, derandomized);
`HYPOTHESIS_PROFILE=thorough` runs 500.
"""

from __future__ import annotations

import copy
import functools
import importlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import jsonschema
import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from polytype import ir
from polytype.lowering.lower import lower
from polytype.project.export import wire_schema
from polytype.reading.loader import load
from polytype.targets.base.helper_names import function_suffix

from .conftest import REPO, SHIPPED_MODULES, load_generated
from .conftest import schema_data as _parse_schema

# Types hypothesis-jsonschema cannot draw instances for, with the reason. (None today:
# no shipped type is recursive, which is what it cannot resolve.) A type listed here
# is skipped; one that fails to draw without being listed fails the test.
UNGENERATABLE: dict[tuple[str, str], str] = {}

FLAVORS = ("dataclasses", "typed_dicts", "pydantic")

# --- what is being tested -------------------------------------------------------------


@functools.cache
def schema_data(module: str) -> dict[str, Any]:
    """The parsed schema of a shipped module, parsed once (nothing here mutates it)."""
    return _parse_schema(module)


@functools.cache
def lowered(module: str) -> ir.Module:
    return lower(load(REPO / "schema" / f"{module}.yaml"))


def python_name(module: str, type_name: str) -> str:
    """The generated (Python) name of the schema type `type_name`."""
    for named in lowered(module).types:
        if named.source is not None and named.source.pointer.rsplit("/", 1)[-1] == type_name:
            if named.source.pointer.count("/") == 2:
                return named.name
    raise KeyError(type_name)


def is_record(module: str, type_name: str) -> bool:
    name = python_name(module, type_name)
    return any(isinstance(t, ir.Record) and t.name == name for t in lowered(module).types)


CASES = [(module, name) for module in SHIPPED_MODULES for name in schema_data(module)["$defs"]]


@dataclass(frozen=True)
class Subject:
    """One flavor's decoder and encoder of one type."""

    module: str
    type_name: str
    flavor: str
    decode: Callable[[Any], Any]
    encode: Callable[[Any], Any]
    error: type[Exception]
    validator: jsonschema.protocols.Validator

    @property
    def label(self) -> str:
        return f"{self.module}.{self.type_name} [{self.flavor}]"


def flavor_module(module: str, flavor: str) -> ModuleType:
    files = {
        "dataclasses": "dataclass_models",
        "typed_dicts": "typed_dicts",
        "pydantic": "pydantic_models",
    }
    return load_generated(module, files[flavor])


def decoder_module(module: str) -> ModuleType:
    return flavor_module(module, "dataclasses")


@functools.cache
def validator(module: str, type_name: str) -> jsonschema.protocols.Validator:
    return jsonschema.Draft202012Validator(wire_schema(schema_data(module), type_name))


_DUMP: dict[str, Any] = {"mode": "json", "by_alias": True, "exclude_unset": True}


def _returns_its_input(validate: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def decode(data: Any) -> Any:
        result = validate(data)
        assert result is data, "validate_<type> returned something other than its input"
        return result

    return decode


Codec = Callable[[Any], Any]


def _pydantic_decode(module: str, type_name: str) -> tuple[Codec, Codec, Codec]:
    """Validate from Python data, validate from JSON text, dump (records or adapters)."""
    models = flavor_module(module, "pydantic")
    name = python_name(module, type_name)
    if is_record(module, type_name):
        model = getattr(models, name)
        return model.model_validate, model.model_validate_json, lambda v: v.model_dump(**_DUMP)
    adapter = getattr(models, f"{name}Adapter")
    return (
        adapter.validate_python,
        adapter.validate_json,
        lambda v: adapter.dump_python(v, **_DUMP),
    )


def _pydantic_subject(module: str, type_name: str) -> tuple[Codec, Codec]:
    from_data, from_text, dump = _pydantic_decode(module, type_name)

    def decode(data: Any) -> Any:
        """Validate `data` and its JSON text: both give the same verdict and the same dump."""
        try:
            value = from_data(data)
        except pydantic.ValidationError:
            text = json.dumps(data)
            if same(json.loads(text), data):  # not when json.dumps turned the key 1 into "1"
                with pytest.raises(pydantic.ValidationError):
                    from_text(text)
            raise
        try:
            via_text = from_text(json.dumps(data))
        except pydantic.ValidationError as error:
            if _lone_surrogates(data):  # Pydantic's parser refuses `"\ud800"` in JSON text
                return value
            raise AssertionError(f"accepted as data but not as JSON text: {error}") from None
        assert same(dump(via_text), dump(value)), "validating JSON text dumps differently"
        return value

    return decode, dump


def _lone_surrogates(data: Any) -> bool:
    """Whether `data` holds a string with a lone surrogate (no UTF-8 spelling)."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


@functools.cache
def subject(module: str, type_name: str, flavor: str = "dataclasses") -> Subject:
    suffix = function_suffix(python_name(module, type_name))
    models = flavor_module(module, flavor)
    decode: Callable[[Any], Any]
    encode: Callable[[Any], Any]
    error: type[Exception]
    if flavor == "dataclasses":
        decode, encode = getattr(models, f"decode_{suffix}"), getattr(models, f"encode_{suffix}")
        error = models.DecodeError
    elif flavor == "typed_dicts":
        decode = _returns_its_input(getattr(models, f"validate_{suffix}"))
        encode, error = (lambda value: value), models.DecodeError
    else:
        decode, encode = _pydantic_subject(module, type_name)
        error = pydantic.ValidationError
    return Subject(module, type_name, flavor, decode, encode, error, validator(module, type_name))


# --- drawing instances --------------------------------------------------------------------

_SCALAR = {"type": ["string", "integer", "boolean", "null"], "maxLength": 6}


def without_aliases(node: Any) -> Any:
    """The schema document with `x-aliases` dropped: instances use canonical key spellings."""
    if isinstance(node, dict):
        return {key: without_aliases(value) for key, value in node.items() if key != "x-aliases"}
    if isinstance(node, list):
        return [without_aliases(item) for item in node]
    return node


def bounded(node: Any) -> Any:
    """A sub-schema of `node` that hypothesis-jsonschema draws from quickly (see the module doc)."""
    if node is True or node == {}:
        return dict(_SCALAR)
    if isinstance(node, list):
        return [bounded(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("properties", "$defs", "definitions", "patternProperties"):
            out[key] = {name: bounded(child) for name, child in value.items()}
        elif key in ("const", "enum", "default", "examples"):
            out[key] = value
        elif key == "oneOf":
            out["anyOf"] = bounded(value)
        else:
            out[key] = bounded(value)
    kinds = out["type"] if isinstance(out.get("type"), list) else [out.get("type")]
    if "properties" in out:
        out["additionalProperties"] = False
    if "object" in kinds and "properties" not in out:
        out["maxProperties"] = min(out.get("maxProperties", 2), 2)
        if out.get("additionalProperties", True) in (True, {}):
            out["additionalProperties"] = dict(_SCALAR)
    if "array" in kinds:
        out["maxItems"] = max(min(out.get("maxItems", 2), 2), out.get("minItems", 0))
    if "string" in kinds and "maxLength" not in out and "enum" not in out and "const" not in out:
        out["maxLength"] = max(8, out.get("minLength", 0))
    return out


def pruned(definition: Any) -> Any:
    """`definition` without the optional properties that lead to other named types.

    Used for the types a drawn type refers to (each is drawn in full by its own
    test): an instance without those keys is still valid, and drawing gets cheap.
    """
    if not isinstance(definition, dict) or not isinstance(definition.get("properties"), dict):
        return definition
    required = set(definition.get("required", []))
    keep = {
        key: value
        for key, value in definition["properties"].items()
        if key in required or '"$ref"' not in json.dumps(value)
    }
    return {**definition, "properties": keep}


def reachable(definitions: dict[str, Any], name: str) -> set[str]:
    seen: set[str] = set()
    stack = [name]
    while stack:
        current = stack.pop()
        if current not in seen:
            seen.add(current)
            stack.extend(re.findall(r'"#/\$defs/([^"]+)"', json.dumps(definitions[current])))
    return seen


def union_members(module: str, type_name: str) -> list[str] | None:
    schema = schema_data(module)["$defs"][type_name]
    options = schema.get("oneOf") or schema.get("anyOf")
    if isinstance(options, list) and options and all("$ref" in option for option in options):
        return [option["$ref"].rsplit("/", 1)[-1] for option in options]
    return None


@functools.cache
def instances(module: str, type_name: str) -> st.SearchStrategy[Any]:
    """Valid instances of the type (checked with jsonschema against the real wire schema)."""
    members = union_members(module, type_name)
    if members is not None:
        strategy = st.one_of([instances(module, member) for member in members])
    else:
        exported = wire_schema(without_aliases(schema_data(module)), type_name)
        definitions = {
            name: definition if name == type_name else pruned(definition)
            for name, definition in exported.get("$defs", {}).items()
        }
        schema = bounded(
            {
                "$defs": {key: definitions[key] for key in reachable(definitions, type_name)},
                "$ref": f"#/$defs/{type_name}",
            }
        )
        strategy = from_schema(schema)
    return strategy.filter(validator(module, type_name).is_valid)


# --- mutations ------------------------------------------------------------------------------

Path_ = tuple[str | int, ...]

ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    2**63,
    1.5,
    2.0,
    -0.5,
    "",
    "x",
    "\x00\u202e",
    [],
    [None],
    {},
    {"": None},
    float("nan"),  # what Python's json reads from `NaN`: no JSON number (issues 17, 21)
    float("inf"),
    float("-inf"),
    {"\ud800": 1},  # a lone surrogate as a key: Pydantic would write U+FFFD (issue 17)
]


def paths(value: Any, here: Path_ = ()) -> list[Path_]:
    found = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(paths(item, (*here, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(paths(item, (*here, index)))
    return found


def get(value: Any, path: Path_) -> Any:
    for token in path:
        value = value[token]
    return value


def put(value: Any, path: Path_, new: Any) -> Any:
    if not path:
        return new
    parent = get(value, path[:-1])
    parent[path[-1]] = new
    return value


def perturbations(value: Any) -> list[Any]:
    """Values close to `value`: the same JSON type changed a little, or a look-alike."""
    if value is None:
        return [0, False, "", "null"]
    if isinstance(value, bool):
        return [not value, int(value), str(value).lower()]
    if isinstance(value, int):
        return [value + 1, -value - 1, float(value), str(value), value == 1]
    if isinstance(value, float):
        return [value * 2 + 1, int(value), str(value)]
    if isinstance(value, str):
        return [value + "x", value.upper() + "X", value[:-1], " " + value, value.encode().hex()]
    if isinstance(value, list):
        return [[], value + value[:1], value[:-1], {}]
    return [{}, [], {**value, "unexpected": None}]


@st.composite
def mutations(draw: st.DrawFn, instance: Any) -> tuple[Any, str]:
    """A copy of `instance` with one thing changed, and a description of the change."""
    mutant = copy.deepcopy(instance)
    path = draw(st.sampled_from(paths(mutant)), label="path")
    target = get(mutant, path)
    operations = ["replace", "wrap", "perturb", "perturb"]
    if isinstance(target, dict):
        operations += ["add key"] + (["drop key"] if target else [])
    if isinstance(target, str):
        operations += ["lengthen"]
    if type(target) in (int, float):
        operations += ["shift"]
    operation = draw(st.sampled_from(operations), label="operation")
    where = "$" + "".join(f"[{token!r}]" for token in path)
    if operation == "replace":
        new = draw(
            st.sampled_from([v for v in ODD_VALUES if v != target or type(v) is not type(target)])
        )
        return put(mutant, path, copy.deepcopy(new)), f"{where} := {new!r}"
    if operation == "perturb":
        new = draw(st.sampled_from(perturbations(target)), label="perturbed")
        return put(mutant, path, new), f"{where} := {new!r}"
    if operation == "wrap":
        return put(mutant, path, [target]), f"{where} := [{where}]"
    if operation == "add key":
        # 1: a key JSON cannot have; "\ud800": a lone surrogate (issue 17)
        key = draw(st.sampled_from(["unexpected", "", "type", "\x00", 1, "\ud800"]), label="key")
        value = draw(st.sampled_from(ODD_VALUES), label="value")
        target[key] = copy.deepcopy(value)
        return mutant, f"{where}[{key!r}] := {value!r}"
    if operation == "drop key":
        key = draw(st.sampled_from(sorted(target)), label="key")
        del target[key]
        return mutant, f"del {where}[{key!r}]"
    if operation == "lengthen":
        return put(mutant, path, target + "x" * 300), f"{where} += 300 characters"
    delta = draw(st.sampled_from([1, -1, 10**12, -(10**12), 0.5]), label="delta")
    return put(mutant, path, target + delta), f"{where} += {delta!r}"


# --- verdicts -------------------------------------------------------------------------------


def same(left: Any, right: Any) -> bool:
    """JSON equality that tells `1`, `1.0` and `true` apart (key order does not matter)."""
    if type(left) is not type(right):
        return False
    if type(left) is float and left != left:  # NaN: the same when both are
        return bool(right != right)
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(same(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(same(a, b) for a, b in zip(left, right, strict=True))
    return bool(left == right)


@dataclass(frozen=True)
class Difference:
    """A documented case where a flavor's decoder and jsonschema disagree on purpose."""

    decoder_accepts: bool
    reason: str
    # (the decoder's rejection, or None when it accepts; jsonschema's errors)
    applies: Callable[[Exception | None, list[jsonschema.ValidationError]], bool]
    flavors: tuple[str, ...] = FLAVORS


def _integral_float_for_integer(
    rejection: Exception | None, errors: list[jsonschema.ValidationError]
) -> bool:
    if isinstance(rejection, pydantic.ValidationError):
        return any(
            detail["type"] == "int_type"
            and type(detail["input"]) is float
            and detail["input"].is_integer()
            for detail in rejection.errors()
        )
    return "expected integer, got number" in str(rejection)


def _not_a_json_number(
    rejection: Exception | None, errors: list[jsonschema.ValidationError]
) -> bool:
    """jsonschema takes Python's NaN and infinity for numbers; JSON text has none."""
    if isinstance(rejection, pydantic.ValidationError):
        return any(
            detail["type"] == "finite_number" or "NaN and infinity" in detail["msg"]
            for detail in rejection.errors()
        )
    return "NaN and infinity are not JSON numbers" in str(rejection)


def _not_a_string_key(
    rejection: Exception | None, errors: list[jsonschema.ValidationError]
) -> bool:
    """jsonschema looks keys up in `properties`; a Python dict's key 1 is no JSON key at all."""
    if isinstance(rejection, pydantic.ValidationError):
        return any(
            detail["type"] == "invalid_key"
            or "[key]" in detail["loc"]
            or any(type(part) is int for part in detail["loc"][-1:])
            and detail["type"] == "extra_forbidden"
            for detail in rejection.errors()
        )
    return "is not a string" in str(rejection)


def _lone_surrogate_key(
    rejection: Exception | None, errors: list[jsonschema.ValidationError]
) -> bool:
    """Pydantic cannot hold a lone surrogate in a key: it refuses it rather than write U+FFFD."""
    if not isinstance(rejection, pydantic.ValidationError):
        return False
    return any(
        "lone surrogate" in detail["msg"] or "unable to parse raw data" in detail["msg"]
        for detail in rejection.errors()
    )


def _oneof_overlap(rejection: Exception | None, errors: list[jsonschema.ValidationError]) -> bool:
    return any(
        error.validator == "oneOf" and "is valid under each of" in error.message for error in errors
    )


DIFFERENCES = [
    Difference(
        decoder_accepts=False,
        reason=(
            "JSON Schema's `integer` accepts 2.0; polytype's never accepts a JSON number with a "
            "fraction part, because decoding it to an `int` would change its spelling and "
            "break the exact round trip (dialect: `integer` is an integer, never a float)"
        ),
        applies=_integral_float_for_integer,
    ),
    Difference(
        decoder_accepts=True,
        reason=(
            "a union dispatches on its tag (or the required key that identifies a member) and "
            "keeps the other keys as extras; JSON Schema's `oneOf` also rejects data that "
            "happens to match a second member, e.g. an extra key that is another member's "
            "identifying key (dialect: unions are told apart by tags and keys)"
        ),
        applies=_oneof_overlap,
    ),
    Difference(
        decoder_accepts=False,
        reason=(
            "NaN and infinity are Python floats that jsonschema takes for numbers, but no JSON "
            "number: every flavor rejects them at their path instead of writing `NaN` (not JSON) "
            "or `null` (another value) back (issues 17 and 21)"
        ),
        applies=_not_a_json_number,
    ),
    Difference(
        decoder_accepts=False,
        reason=(
            "a Python dict key that is not a string (`{1: ...}`) has no JSON spelling; "
            'json.dumps would write it as the string "1", another key (issue 17)'
        ),
        applies=_not_a_string_key,
    ),
    Difference(
        decoder_accepts=False,
        reason=(
            "Pydantic holds keys as Rust strings, which cannot carry a lone surrogate: it "
            "refuses such a key rather than write it back as U+FFFD (issue 17); the stdlib "
            "flavors keep it exactly"
        ),
        applies=_lone_surrogate_key,
        flavors=("pydantic",),
    ),
]


def check_valid(thing: Subject, instance: Any) -> None:
    snapshot = copy.deepcopy(instance)
    value = thing.decode(instance)
    assert same(instance, snapshot), f"{thing.label}: decoding mutated its input"
    encoded = thing.encode(value)
    assert same(
        encoded, instance
    ), f"{thing.label}: round trip changed the data:\n{encoded!r}\n!=\n{instance!r}"
    json.dumps(encoded, allow_nan=False)  # strict JSON: no NaN or infinity out of any flavor


def check_verdict(thing: Subject, mutant: Any, how: str) -> None:
    errors = list(thing.validator.iter_errors(mutant))
    schema_accepts = not errors
    snapshot = copy.deepcopy(mutant)
    rejection: Exception | None = None
    try:
        value = thing.decode(mutant)
    except thing.error as error:
        rejection = error
    else:
        # also where a documented difference makes the decoder accept: nothing is lost
        encoded = thing.encode(value)
        assert same(
            encoded, mutant
        ), f"{thing.label}: after `{how}` the round trip changed the data:\n{encoded!r}"
        json.dumps(encoded, allow_nan=False)  # strict JSON: what was accepted can be written
    decoder_accepts = rejection is None
    assert same(mutant, snapshot), f"{thing.label}: after `{how}` decoding mutated its input"
    if decoder_accepts == schema_accepts:
        return
    for difference in DIFFERENCES:
        if (
            thing.flavor in difference.flavors
            and difference.decoder_accepts == decoder_accepts
            and difference.applies(rejection, errors)
        ):
            return
    detail = (
        str(rejection) if not decoder_accepts else "; ".join(e.message[:200] for e in errors[:3])
    )
    side = "accepts" if decoder_accepts else "rejects"
    pytest.fail(
        f"{thing.label}: after `{how}` the decoder {side} what jsonschema "
        f"{'rejects' if decoder_accepts else 'accepts'}: {detail}\n{json.dumps(mutant)[:2000]}"
    )


@pytest.mark.parametrize(("module", "type_name"), CASES, ids=[f"{m}.{t}" for m, t in CASES])
def test_decoders_agree_with_jsonschema(module: str, type_name: str) -> None:
    """Every flavor, on the same drawn instances and mutations (drawing is the costly part)."""
    if (module, type_name) in UNGENERATABLE:
        pytest.skip(UNGENERATABLE[(module, type_name)])
    things = [subject(module, type_name, flavor) for flavor in FLAVORS]
    strategy = instances(module, type_name)

    @given(st.data())
    def check(data: st.DataObject) -> None:
        instance = data.draw(strategy, label="instance")
        for thing in things:
            check_valid(thing, instance)
        mutant, how = data.draw(mutations(instance), label="mutation")
        for thing in things:
            check_verdict(thing, mutant, how)

    check()


def test_differences_are_documented() -> None:
    for difference in DIFFERENCES:
        assert len(difference.reason) > 40


# --- huge and deeply nested input -----------------------------------------------------------


def deep_list(depth: int) -> list[Any]:
    root: list[Any] = []
    node = root
    for _ in range(depth):
        child: list[Any] = []
        node.append(child)
        node = child
    return root


def deep_object(depth: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth):
        child: dict[str, Any] = {}
        node["a"] = child
        node = child
    return root


BAD_JSON_TEXTS: tuple[str | bytes, ...] = (
    "[" * 100_000,
    '{"a":' * 100_000,
    "1" * 10_000,
    b"\xff\xfe",
    "NaN",
    '{"a": 1e999}',
)


@pytest.mark.parametrize("flavor", FLAVORS)
@pytest.mark.parametrize("module", SHIPPED_MODULES)
def test_huge_and_deep_input_is_a_clean_rejection(module: str, flavor: str) -> None:
    """Every decoder: deep nesting (in every value position) and huge input fail cleanly."""
    models = flavor_module(module, flavor)
    error = pydantic.ValidationError if flavor == "pydantic" else models.DecodeError
    deep = [deep_list(50_000), deep_object(50_000)]
    huge = [list(range(200_000)), {str(i): i for i in range(200_000)}, "x" * 5_000_000]
    for type_name in schema_data(module)["$defs"]:
        # Pydantic's `decode` also validates the JSON text, which `json.dumps` cannot write
        decode = (
            _pydantic_decode(module, type_name)[0]
            if flavor == "pydantic"
            else subject(module, type_name, flavor).decode
        )
        for value in [*deep, *huge]:
            try:
                decode(value)
            except error:
                pass
    if flavor != "pydantic":
        # deep nesting where anything is allowed: inside every free-form value of an instance
        # (the helpers live in the package's shared runtime, which the flavor imports)
        runtime = importlib.import_module(f"{models.__package__}._runtime")
        for value in deep:
            with pytest.raises(models.DecodeError):
                runtime._guard(runtime._json_value, value)
    # JSON text: deeply nested, huge numbers, bad UTF-8, NaN
    if flavor == "dataclasses":
        readers = [
            getattr(models, python_name(module, name)).from_json
            for name in schema_data(module)["$defs"]
            if hasattr(getattr(models, python_name(module, name)), "from_json")
        ]
    elif flavor == "pydantic":
        readers = [_pydantic_decode(module, name)[1] for name in schema_data(module)["$defs"]]
    else:
        readers = []  # TypedDicts check data that `json.loads` has already read
    for text in BAD_JSON_TEXTS:
        for read in readers:
            with pytest.raises(error):
                read(text)


# valid data, and the path of a free-form JSON value in it: a free-form field, an unknown
# key that is kept (also one spelled like a field's Python name), a free-form alias
FREE_FORM_SPOTS: list[tuple[str, str, Any, Path_]] = [
    ("nano_agent", "ToolDefinition", {"name": "t", "description": "d", "input_schema": {"a": [1]}}, ("input_schema", "a", 0)),
    ("nano_agent", "Usage", {"input_tokens": 1, "output_tokens": 1, "unexpected": {"b": 1}}, ("unexpected", "b")),
    ("ag_ui", "State", {"a": 1}, ("a",)),
    ("claude_code", "RateLimitInfo", {"status": "allowed", "resets_at": [1]}, ("resets_at", 0)),
    ("claude_code", "RateLimitInfo", {"status": "allowed", "unifiedWindows": {"w": {"utilization": 0.5, "x": 1}}}, ("unifiedWindows", "w", "x")),
]  # fmt: skip


@pytest.mark.parametrize("flavor", FLAVORS)
@pytest.mark.parametrize("non_finite", [float("nan"), float("inf"), float("-inf")], ids=str)
def test_non_finite_numbers_in_free_form_json_are_rejected(flavor: str, non_finite: float) -> None:
    """NaN and infinity (what Python's `json` reads from `NaN`, `1e999`) are not JSON values.

    Every flavor rejects them in free-form JSON and kept unknown keys, from Python data
    and (Pydantic) from JSON text, with its own error type.
    """
    for module, type_name, data, path in FREE_FORM_SPOTS:
        thing = subject(module, type_name, flavor)
        assert thing.validator.is_valid(data)
        thing.decode(copy.deepcopy(data))
        bad = put(copy.deepcopy(data), path, non_finite)
        attempts: list[tuple[Callable[[Any], Any], Any]] = [(thing.decode, bad)]
        if flavor == "pydantic":  # `decode` would first write JSON text, which has no NaN
            from_data, from_text, _ = _pydantic_decode(module, type_name)
            # json.dumps writes NaN, Infinity: what `json.loads` reads back as those floats
            attempts = [(from_data, bad), (from_text, json.dumps(bad))]
        for decode, value in attempts:
            with pytest.raises(thing.error, match="NaN and infinity are not JSON numbers"):
                decode(value)


def test_deep_values_in_free_form_fields_are_rejected_not_crashing() -> None:
    """A free-form JSON field holding nesting deeper than Python's recursion limit."""
    models = decoder_module("nano_agent")
    data = {"name": "t", "description": "d", "input_schema": deep_object(50_000)}
    snapshot_depth = 50_000
    with pytest.raises(models.DecodeError, match="nesting deeper than 100 levels"):
        models.decode_tool_definition(data)
    node: Any = data["input_schema"]
    for _ in range(snapshot_depth):  # the input is untouched
        assert list(node) == ["a"] or node == {}
        node = node.get("a", {})


def test_documented_differences_really_occur() -> None:
    """Each entry of DIFFERENCES, shown on a concrete value, in every flavor."""
    for flavor in FLAVORS:
        usage = subject("nano_agent", "Usage", flavor)
        value = {"input_tokens": 2.0, "output_tokens": 1}
        assert usage.validator.is_valid(value)
        with pytest.raises(usage.error) as raised:
            usage.decode(value)
        assert _integral_float_for_integer(raised.value, []), flavor
        check_verdict(usage, value, "integer-valued float")

        node = subject("nano_agent", "NodeData", flavor)
        overlap = {"type": "system_prompt", "content": "x", "role": "user"}  # also a Message
        assert not node.validator.is_valid(overlap)
        assert node.encode(node.decode(overlap)) == overlap
        check_verdict(node, overlap, "matches two members")
    decoded = subject("nano_agent", "NodeData").decode(overlap)
    assert type(decoded).__name__ == "SystemPrompt" and decoded.extra == {"role": "user"}

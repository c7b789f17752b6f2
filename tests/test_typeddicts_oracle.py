"""Differential oracle for typed_dicts.py: datamodel-code-generator on the same schemas.

datamodel-code-generator (its Python API, output model `typing.TypedDict`) turns
every schema in `schema/` into TypedDicts independently of polytype. For every
TypedDict both produce, the required and optional keys must agree, key by key.
Where they disagree for a known reason the difference is listed in
`EXPECTED_DIFFERENCES` (or `RENAMED` / `ONLY_THEIRS` / `ONLY_OURS`) with that
reason; an unexplained difference fails, and so does an entry that no longer
matches a real difference (the table must not go stale).

How required keys are read: on Python 3.11, `__required_keys__` is only right
when annotations are evaluated at class creation. polytype's typed_dicts.py does
that (no `from __future__ import annotations`), so for ours the test also checks
that `__required_keys__`/`__optional_keys__` agree with the annotations. The
generated oracle module starts with `from __future__ import annotations`, which
makes every key look required at runtime, so its keys are read from
`typing.get_type_hints(..., include_extras=True)` (`NotRequired[...]`/`Required[...]`
wrappers, else the class's totality).
"""

from __future__ import annotations

import json
import typing
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .conftest import import_file

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = sorted(
    path for path in (REPO / "schema").iterdir() if path.suffix in (".yaml", ".yml", ".json")
)

Presence = typing.Literal["required", "optional", "absent"]
KeyPresence = dict[str, tuple[Presence, Presence]]  # key -> (ours, theirs)

_ALIASES = (
    "x-aliases (other JSON spellings of a key) is polytype vocabulary the oracle never sees: "
    "ours declares the key and each alias NotRequired (either spelling may be sent, "
    "validate_* requires exactly one), the oracle declares only the schema's key, "
    "required as `required` says."
)


@dataclass(frozen=True)
class Difference:
    keys: KeyPresence
    reason: str


# (module, TypedDict name) -> the keys on which the two generators disagree, and why.
EXPECTED_DIFFERENCES: dict[tuple[str, str], Difference] = {
    ("claude_code", "SystemMessage"): Difference(
        {
            "session_id": ("optional", "required"),
            "sessionId": ("optional", "absent"),
            "mcpServers": ("optional", "absent"),
            "maxThinkingTokens": ("optional", "absent"),
            "customInstructions": ("optional", "absent"),
            "claudeMdFiles": ("optional", "absent"),
            "sessionType": ("optional", "absent"),
            "effectiveGitRoot": ("optional", "absent"),
            "environmentPlan": ("optional", "absent"),
            "userType": ("optional", "absent"),
        },
        _ALIASES,
    ),
    ("claude_code", "ResultMessage"): Difference(
        {
            "is_error": ("optional", "required"),
            "isError": ("optional", "absent"),
            "costUsd": ("optional", "absent"),
            "inputTokens": ("optional", "absent"),
            "outputTokens": ("optional", "absent"),
            "totalTokens": ("optional", "absent"),
            "session_id": ("optional", "required"),
            "sessionId": ("optional", "absent"),
            "num_turns": ("optional", "required"),
            "numTurns": ("optional", "absent"),
        },
        _ALIASES,
    ),
}

# (module, our name) -> (their name, why they differ)
RENAMED: dict[tuple[str, str], tuple[str, str]] = {
    ("search_agent", "_TrimState"): (
        "FieldTrimState",
        "datamodel-code-generator prefixes class names that start with an underscore with 'Field'; "
        "polytype keeps the $defs key as the type name",
    ),
}

# TypedDicts only the oracle makes: (module, their name) -> why ours is not a TypedDict
ONLY_THEIRS: dict[tuple[str, str], str] = {
    ("ag_ui", "State"): (
        "a free-form object (type: object, no properties) is `dict[str, JSONValue]` in polytype; "
        "the oracle makes an empty TypedDict, which would reject every key in a typed literal"
    ),
}

# TypedDicts only polytype makes: (module, our name) -> why
ONLY_OURS: dict[tuple[str, str], str] = {}


def _strip_vocabulary(node: Any, names: bool = False) -> Any:
    """The schema without polytype's `x-` keywords (property names starting with `x-` stay)."""
    name_maps = {"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"}
    if isinstance(node, dict):
        return {
            key: _strip_vocabulary(value, not names and key in name_maps)
            for key, value in node.items()
            if names or not str(key).startswith("x-")
        }
    if isinstance(node, list):
        return [_strip_vocabulary(item) for item in node]
    return node


def _load_schema(path: Path) -> Any:
    if path.suffix == ".json":
        return json.loads(path.read_text(encoding="utf-8"))
    from ruamel.yaml import YAML

    return json.loads(json.dumps(YAML(typ="safe").load(path.read_text(encoding="utf-8"))))


def _module_name(path: Path, schema: Any) -> str:
    settings = schema.get("x-polytype") if isinstance(schema, dict) else None
    if isinstance(settings, dict) and isinstance(settings.get("module"), str):
        return str(settings["module"])
    return path.stem


def _import(path: Path, name: str) -> ModuleType:
    return import_file(path, name)


def _typed_dicts(module: ModuleType) -> dict[str, type]:
    return {
        name: value
        for name, value in vars(module).items()
        if isinstance(value, type)
        and issubclass(value, dict)
        and hasattr(value, "__total__")
        and value.__module__ == module.__name__
    }


def _presence_from_hints(typed_dict: type) -> dict[str, Presence]:
    hints = typing.get_type_hints(typed_dict, include_extras=True)
    presence: dict[str, Presence] = {}
    for key, hint in hints.items():
        origin = typing.get_origin(hint)
        if origin is typing.NotRequired:
            presence[key] = "optional"
        elif origin is typing.Required:
            presence[key] = "required"
        else:
            presence[key] = "required" if getattr(typed_dict, "__total__", True) else "optional"
    return presence


def _oracle(schema: Any, tmp_path: Path) -> ModuleType:
    from datamodel_code_generator import DataModelType, InputFileType, PythonVersion, generate

    stripped = tmp_path / "schema.json"
    stripped.write_text(json.dumps(_strip_vocabulary(schema)), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = generate(
            stripped,
            input_file_type=InputFileType.JsonSchema,
            output_model_type=DataModelType.TypingTypedDict,
            target_python_version=PythonVersion.PY_311,
            disable_timestamp=True,
            formatters=[],
        )
    assert isinstance(code, str), "expected one generated module"
    output = tmp_path / "oracle_typed_dicts.py"
    output.write_text(code, encoding="utf-8")
    return _import(output, f"polytype_oracle_{tmp_path.name}")


@pytest.mark.parametrize("schema_path", SCHEMAS, ids=[path.stem for path in SCHEMAS])
def test_required_and_optional_keys_match_datamodel_code_generator(
    schema_path: Path, tmp_path: Path
) -> None:
    schema = _load_schema(schema_path)
    module = _module_name(schema_path, schema)
    ours_path = REPO / "generated" / "python" / module / "typed_dicts.py"
    assert ours_path.is_file(), f"run `polytype generate`: {ours_path} is missing"
    ours = _typed_dicts(_import(ours_path, f"polytype_ours_{module}_typed_dicts"))
    theirs = _typed_dicts(_oracle(schema, tmp_path))

    problems: list[str] = []
    pairs: dict[str, str] = {}
    for name in ours:
        renamed = RENAMED.get((module, name))
        their_name = renamed[0] if renamed else name
        if renamed and (name in theirs or their_name not in theirs):
            problems.append(
                f"RENAMED[{(module, name)!r}] is stale: the oracle now names it {name!r}"
            )
            their_name = name
        if their_name in theirs:
            pairs[name] = their_name
        elif (module, name) not in ONLY_OURS:
            problems.append(f"{name}: a TypedDict only in ours; explain it in ONLY_OURS")
    for (listed_module, name), _ in ONLY_OURS.items():
        if listed_module == module and (name not in ours or name in pairs):
            problems.append(f"ONLY_OURS[{(module, name)!r}] is stale")
    unpaired_theirs = set(theirs) - set(pairs.values())
    for name in sorted(unpaired_theirs):
        if (module, name) not in ONLY_THEIRS:
            problems.append(f"{name}: a TypedDict only the oracle makes; explain it in ONLY_THEIRS")
    for (listed_module, name), _ in ONLY_THEIRS.items():
        if listed_module == module and name not in unpaired_theirs:
            problems.append(f"ONLY_THEIRS[{(module, name)!r}] is stale")

    for name, their_name in sorted(pairs.items()):
        mine = _presence_from_hints(ours[name])
        runtime = {key: "required" for key in ours[name].__required_keys__}
        runtime.update({key: "optional" for key in ours[name].__optional_keys__})
        assert (
            runtime == mine
        ), f"{name}: __required_keys__/__optional_keys__ disagree with the annotations"
        other = _presence_from_hints(theirs[their_name])
        actual: KeyPresence = {
            key: (mine.get(key, "absent"), other.get(key, "absent"))
            for key in sorted(set(mine) | set(other))
            if mine.get(key, "absent") != other.get(key, "absent")
        }
        expected = EXPECTED_DIFFERENCES.get((module, name))
        if expected is None:
            if actual:
                problems.append(f"{name}: unexplained differences (ours, theirs): {actual}")
        elif actual != expected.keys:
            problems.append(
                f"{name}: EXPECTED_DIFFERENCES is out of date; actual (ours, theirs): {actual}, "
                f"listed: {expected.keys}"
            )
    for (listed_module, name), _ in EXPECTED_DIFFERENCES.items():
        if listed_module == module and name not in pairs:
            problems.append(
                f"EXPECTED_DIFFERENCES[{(module, name)!r}] names a type neither side has in common"
            )
    assert not problems, "\n".join(problems)


def test_every_table_entry_names_a_known_module() -> None:
    modules = {_module_name(path, _load_schema(path)) for path in SCHEMAS}
    listed = {key[0] for key in [*EXPECTED_DIFFERENCES, *RENAMED, *ONLY_THEIRS, *ONLY_OURS]}
    assert listed <= modules, f"entries for modules without a schema: {sorted(listed - modules)}"
    for difference in EXPECTED_DIFFERENCES.values():
        assert difference.reason and difference.keys

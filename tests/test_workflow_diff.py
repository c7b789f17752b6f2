"""`polytype diff`: breaking changes between two schema versions, one rule per kind of change."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from polytype.workflow.breaking import diff
from polytype.workflow.revisions import load_version
from polytype.workflow.rules import RULES

from .conftest import REPO
from .workflow_support import run

BASE = """\
$schema: https://json-schema.org/draft/2020-12/schema
title: Shop events
x-polytype:
  module: shop
  root: Event
$defs:
  Event:
    oneOf:
      - $ref: "#/$defs/Order"
      - $ref: "#/$defs/Refund"
  Color:
    type: string
    enum: [red, green]
  Tags:
    type: array
    items: {type: string}
  Unused:
    type: string
  Order:
    type: object
    properties:
      type: {const: order}
      orderId: {type: string, x-aliases: [order_id]}
      amount: {type: integer, minimum: 0}
      note: {type: string}
      giftWrap: {type: boolean}
      color: {$ref: "#/$defs/Color"}
      express: {type: boolean, default: false}
      tags: {$ref: "#/$defs/Tags"}
    required: [type, orderId, amount]
  Refund:
    type: object
    properties:
      type: {const: refund}
      reason: {type: [string, "null"]}
    required: [type]
"""

CANCEL = """\
  Cancel:
    type: object
    properties:
      type: {const: cancel}
    required: [type]
"""

# (rule, old replacements, new replacements): each a list of (find, replace) on BASE.
Edit = list[tuple[str, str]]
CASES: list[tuple[str, Edit, Edit]] = [
    ("MODULE_RENAMED", [], [("module: shop", "module: store")]),
    ("TYPE_REMOVED", [], [("  Unused:\n    type: string\n", "")]),
    ("TYPE_ADDED", [], [("  Unused:\n", "  Extra:\n    type: integer\n  Unused:\n")]),
    ("TYPE_KIND_CHANGED", [], [("    enum: [red, green]\n", "")]),
    (
        "TYPE_NARROWED",
        [],
        [("    items: {type: string}\n", "    items: {type: string}\n    minItems: 1\n")],
    ),
    ("TYPE_WIDENED", [], [("    items: {type: string}", '    items: {type: [string, "null"]}')]),
    ("TYPE_CHANGED", [], [("    items: {type: string}", "    items: {type: integer}")]),
    ("FIELD_REMOVED", [], [("      note: {type: string}\n", "")]),
    (
        "KEY_RENAMED_WITHOUT_ALIAS",
        [],
        [("giftWrap: {type: boolean}", "gift_wrap: {type: boolean}")],
    ),
    (
        "KEY_RENAMED_WITH_ALIAS",
        [],
        [("giftWrap: {type: boolean}", "wrap: {type: boolean, x-aliases: [giftWrap]}")],
    ),
    (
        "FIELD_ADDED_REQUIRED",
        [],
        [
            ("      note:", "      currency: {type: string}\n      note:"),
            ("[type, orderId, amount]", "[type, orderId, amount, currency]"),
        ],
    ),
    ("FIELD_ADDED_OPTIONAL", [], [("      note:", "      coupon: {type: string}\n      note:")]),
    ("FIELD_BECAME_REQUIRED", [], [("[type, orderId, amount]", "[type, orderId, amount, note]")]),
    ("FIELD_BECAME_OPTIONAL", [], [("[type, orderId, amount]", "[type, orderId]")]),
    ("FIELD_NAME_CHANGED", [], [("note: {type: string}", "note: {type: string, x-field: memo}")]),
    ("FIELD_TYPE_NARROWED", [], [("minimum: 0", "minimum: 1")]),
    ("FIELD_TYPE_WIDENED", [], [("amount: {type: integer", "amount: {type: number")]),
    ("FIELD_TYPE_CHANGED", [], [("note: {type: string}", "note: {type: integer}")]),
    ("FIELD_DEFAULT_CHANGED", [], [("default: false", "default: true")]),
    (
        "ALIAS_REMOVED",
        [],
        [("orderId: {type: string, x-aliases: [order_id]}", "orderId: {type: string}")],
    ),
    ("ALIAS_ADDED", [], [("x-aliases: [order_id]", "x-aliases: [order_id, OrderId]")]),
    ("TAG_CHANGED", [], [("const: order}", "const: purchase}")]),
    ("ENUM_VALUE_REMOVED", [], [("enum: [red, green]", "enum: [red, blue]")]),
    ("ENUM_VALUE_ADDED", [], [("enum: [red, green]", "enum: [red, green, blue]")]),
    ("ENUM_CLOSED", [("  Color:\n", "  Color:\n    x-unknown: keep\n")], []),
    ("ENUM_OPENED", [], [("  Color:\n", "  Color:\n    x-unknown: keep\n")]),
    ("UNION_MEMBER_REMOVED", [], [('      - $ref: "#/$defs/Refund"\n', "")]),
    ("UNION_CLOSED", [("  Event:\n", "  Event:\n    x-unknown: keep\n")], []),
    ("UNION_OPENED", [], [("  Event:\n", "  Event:\n    x-unknown: keep\n")]),
    (
        "UNION_MEMBER_ADDED",
        [],
        [
            (
                '      - $ref: "#/$defs/Refund"\n',
                '      - $ref: "#/$defs/Refund"\n      - $ref: "#/$defs/Cancel"\n',
            ),
            ("  Refund:\n", CANCEL + "  Refund:\n"),
        ],
    ),
    (
        "EXTRA_KEYS_FORBIDDEN",
        [],
        [("    required: [type]\n", "    required: [type]\n    additionalProperties: false\n")],
    ),
    (
        "EXTRA_KEYS_DROPPED",
        [],
        [("    required: [type]\n", "    required: [type]\n    x-extra: ignore\n")],
    ),
    (
        "EXTRA_KEYS_ALLOWED",
        [("    required: [type]\n", "    required: [type]\n    additionalProperties: false\n")],
        [],
    ),
    (
        "OBJECT_RULES_CHANGED",
        [],
        [
            (
                "    required: [type, orderId, amount]\n",
                "    required: [type, orderId, amount]\n    dependentRequired: {note: [giftWrap]}\n",
            )
        ],
    ),
    (
        "SCHEMA_CHECK_ADDED",
        [],
        [
            (
                "    required: [type, orderId, amount]\n",
                "    required: [type, orderId, amount]\n    not: {required: [note, giftWrap]}\n",
            )
        ],
    ),
    (
        "SCHEMA_CHECK_REMOVED",
        [
            (
                "    required: [type, orderId, amount]\n",
                "    required: [type, orderId, amount]\n    not: {required: [note, giftWrap]}\n",
            )
        ],
        [],
    ),
    (
        "RECORD_FROZEN_CHANGED",
        [],
        [("  Order:\n    type: object\n", "  Order:\n    type: object\n    x-frozen: true\n")],
    ),
]


def _apply(edits: Edit) -> str:
    text = BASE
    for find, replace in edits:
        assert find in text, find
        text = text.replace(find, replace, 1)
    return text


def _write(directory: Path, name: str, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _pair(tmp_path: Path, old_edits: Edit, new_edits: Edit) -> tuple[Path, Path]:
    return (
        _write(tmp_path / "old", "shop", _apply(old_edits)),
        _write(tmp_path / "new", "shop", _apply(new_edits)),
    )


@pytest.mark.parametrize(("rule_id", "old_edits", "new_edits"), CASES, ids=[c[0] for c in CASES])
def test_rule(tmp_path: Path, rule_id: str, old_edits: Edit, new_edits: Edit) -> None:
    old, new = _pair(tmp_path, old_edits, new_edits)
    findings = diff(load_version(str(old), tmp_path), load_version(str(new), tmp_path))
    assert rule_id in {finding.rule.id for finding in findings}, [str(f) for f in findings]


def test_every_rule_has_a_case_and_every_case_a_rule() -> None:
    cased = {case[0] for case in CASES}
    assert cased == set(RULES), (sorted(set(RULES) - cased), sorted(cased - set(RULES)))
    assert len(cased) == len(CASES), "one case per rule"
    for rule in RULES.values():
        assert rule.description and rule.category in ("WIRE", "API", "ADDITION")


def test_identical_schemas_have_no_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = _pair(tmp_path, [], [])
    assert run(tmp_path, "diff", str(old), str(new)) == 0
    assert "0 breaking change(s), 0 non-breaking change(s)" in capsys.readouterr().out


def test_shipped_schemas_against_themselves() -> None:
    for path in sorted((REPO / "schema").glob("*.yaml")):
        schema = load_version(str(path), REPO)
        assert diff(schema, schema) == []


def test_breaking_exits_1_additions_exit_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = _pair(tmp_path, [], [("      note:", "      coupon: {type: string}\n      note:")])
    assert run(tmp_path, "diff", str(old), str(new)) == 0
    out = capsys.readouterr().out
    assert (
        f"{new}:25:7: FIELD_ADDED_OPTIONAL [addition] Order.coupon: new optional field (string)"
        in out
    )
    assert "0 breaking change(s), 1 non-breaking change(s)" in out
    assert run(tmp_path, "diff", str(new), str(old)) == 1
    assert (
        f"{new}:25:7: FIELD_REMOVED [breaking: api] Order.coupon: field removed"
        in capsys.readouterr().out
    )


def test_findings_cite_both_locations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = _pair(
        tmp_path,
        [],
        [
            ("enum: [red, green]", "enum: [red, blue]"),
            ("minimum: 0", "minimum: 1"),
            ("[type, orderId, amount]", "[type, orderId, amount, note]"),
        ],
    )
    assert run(tmp_path, "diff", str(old), str(new)) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        f'{new}:11:3: ENUM_VALUE_REMOVED [breaking: wire] Color: value "green" removed (was {old}:13:17)',
        f"{new}:24:7: FIELD_TYPE_NARROWED [breaking: wire] Order.amount: integer → integer (minimum 0 → 1) (was {old}:24:7)",
        f"{new}:25:7: FIELD_BECAME_REQUIRED [breaking: wire] Order.note: now required (was {old}:25:7)",
        f'{new}:13:17: ENUM_VALUE_ADDED [addition] Color: value "blue" added',
        f"polytype: {old} → {new}: 3 breaking change(s), 1 non-breaking change(s)",
    ]


def test_nullable_and_enum_variance(tmp_path: Path) -> None:
    old, new = _pair(tmp_path, [], [('reason: {type: [string, "null"]}', "reason: {type: string}")])
    (finding,) = diff(load_version(str(old), tmp_path), load_version(str(new), tmp_path))
    assert finding.rule.id == "FIELD_TYPE_NARROWED" and "no longer nullable" in finding.message
    old, new = _pair(
        tmp_path / "2", [], [("note: {type: string}", 'note: {$ref: "#/$defs/Color"}')]
    )
    (finding,) = diff(load_version(str(old), tmp_path), load_version(str(new), tmp_path))
    assert (finding.rule.id, finding.message) == ("FIELD_TYPE_NARROWED", "string → Color")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("missing.yaml", "missing.yaml", "missing.yaml: no such file"),
        ("HEAD:nope.yaml", "HEAD:nope.yaml", "HEAD:nope.yaml: git show failed"),
    ],
)
def test_bad_inputs_exit_2(
    tmp_path: Path, old: str, new: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(tmp_path, "diff", old, new) == 2
    assert message in capsys.readouterr().err


def test_invalid_schema_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, _ = _pair(tmp_path, [], [])
    broken = _write(
        tmp_path / "broken",
        "shop",
        BASE.replace("type: object\n", "type: object\n    x-frozn: true\n", 1),
    )
    assert run(tmp_path, "diff", str(old), str(broken)) == 2
    assert f"{broken}:21:5: /$defs/Order/x-frozn: unknown x- extension" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_revisions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repository = tmp_path / "repo"
    schema = _write(repository / "schema", "shop", BASE)
    (repository / "pyproject.toml").write_text("[tool.polytype]\nstrict = true\n", encoding="utf-8")

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
            cwd=repository,
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    git("add", ".")
    git("commit", "-q", "-m", "v1")
    schema.write_text(BASE.replace("      note: {type: string}\n", ""), encoding="utf-8")
    assert run(repository, "diff", "HEAD:schema/shop.yaml", str(schema)) == 1
    out = capsys.readouterr().out
    assert (
        "HEAD:schema/shop.yaml:25:7: FIELD_REMOVED [breaking: api] Order.note: field removed" in out
    )
    git("commit", "-q", "-am", "v2")
    assert run(repository, "diff", "HEAD~1:schema/shop.yaml", "HEAD:schema/shop.yaml") == 1
    assert "FIELD_REMOVED" in capsys.readouterr().out
    assert run(repository, "diff", "HEAD:schema/shop.yaml", "HEAD:schema/shop.yaml") == 0

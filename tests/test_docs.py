"""The docs target: mapping tables, Mermaid diagrams, the index page, Markdown escaping."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from polytype import ir
from polytype.dialect.validate import validate
from polytype.lowering.lower import lower
from polytype.reading.loader import load
from polytype.targets import docs
from polytype.targets.base.render import make_env, md_cell, md_code, md_text, mermaid_text

from tests.conftest import REPO

SCHEMA = r"""
$schema: https://json-schema.org/draft/2020-12/schema
title: Doc | test
description: "A module <script>alert(1)</script> with *stars* and __init__."
x-polytype:
  module: docsample
  elixir-namespace: DocTest
  root: Message
$defs:
  PermissionMode:
    description: How permissions work.
    type: string
    enum: [default, acceptEdits, bypassPermissions]
    x-elixir: {atoms: true}
    x-notes: "Seed: :default | :accept_edits"
  Role:
    type: string
    enum: [user, assistant]
  SystemMessage:
    description: "Sent once.\nSecond line | with a pipe."
    type: object
    x-elixir: {module: DocTest.Message.SystemMessage}
    x-notes: Always type system.
    properties:
      type: {const: system}
      sessionId:
        description: "UUID for session"
        type: string
        x-aliases: [session_id]
        x-notes: "CLI sends session_id | SDK docs say sessionId"
      permissionMode:
        $ref: "#/$defs/PermissionMode"
      maxThinkingTokens:
        type: [integer, "null"]
        description: "Extended\nthinking limit"
      tools:
        type: array
        items: {type: string}
        default: []
      odd:
        description: "has `code | pipe` and ``double `tick` ``"
        type: string
        minLength: 1
    required: [type, sessionId, permissionMode, maxThinkingTokens]
  UserMessage:
    type: object
    additionalProperties: false
    properties:
      type: {const: user}
      role: {$ref: "#/$defs/Role"}
    required: [type]
  Message:
    oneOf:
      - $ref: "#/$defs/SystemMessage"
      - $ref: "#/$defs/UserMessage"
  Names:
    type: array
    items: {type: string}
"""


@pytest.fixture
def module(tmp_path: Path) -> ir.Module:
    path = tmp_path / "docsample.yaml"
    path.write_text(SCHEMA, encoding="utf-8")
    document = load(path, "schema/docsample.yaml")
    validate(document)
    return lower(document)


@pytest.fixture
def page(module: ir.Module) -> str:
    [output] = docs.render(module, make_env())
    assert output.path == "docs/docsample.md"
    assert output.kind == "markdown"
    return output.text


def _unescaped_pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)\|", line))


def _row(page: str, key: str) -> str:
    rows = [line for line in page.splitlines() if line.startswith(f"| `{key}` |")]
    assert len(rows) == 1, rows
    return rows[0]


def test_header_is_the_seeds(page: str) -> None:
    assert "| JSON Key | Python Field | Elixir Field | Type | Notes |" in page


def test_aliased_field_row(page: str) -> None:
    row = _row(page, "sessionId")
    cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]]
    assert cells[:4] == ["`sessionId`", "`session_id`", "`:session_id`", "string"]
    assert cells[4].startswith("**required**.")
    assert "UUID for session" in cells[4]
    assert "Also accepted as `session_id`" in cells[4]
    assert "CLI sends session\\_id \\| SDK docs say sessionId" in cells[4]


def test_enum_field_lists_atoms(page: str) -> None:
    row = _row(page, "permissionMode")
    assert "atom ([`PermissionMode`](#type-permissionmode))" in row
    assert "Atoms: `:default`, `:accept_edits`, `:bypass_permissions`." in row


def test_enum_table_lists_values_members_and_atoms(page: str) -> None:
    assert (
        '| `"acceptEdits"` | `PermissionMode.ACCEPT_EDITS` | `:accept_edits` | enum value |  |'
        in page
    )
    # enums without x-elixir atoms stay strings in Elixir
    assert '| `"assistant"` | `Role.ASSISTANT` | `"assistant"` | enum value |  |' in page


def test_presence_and_nullability_are_visible(page: str) -> None:
    assert "| integer or nil | **required**, nullable. Extended<br>thinking limit |" in _row(
        page, "maxThinkingTokens"
    )
    assert "| list of strings | optional, default `[]`. |" in _row(page, "tools")
    assert "| string or nil | optional." in _row(page, "odd")
    assert "Constraints: min length `1`." in _row(page, "odd")
    assert '| `type` | `type` | `:type` | `:system` atom | Always `"system"`. |' in page


def test_every_row_has_five_cells(page: str) -> None:
    rows = [line for line in page.splitlines() if line.startswith("| `") or line.startswith("| —")]
    assert rows
    for row in rows:
        assert _unescaped_pipes(row) == 6, row


def test_headings_sections_and_notes(page: str) -> None:
    assert '<a id="type-systemmessage"></a>' in page
    assert "### SystemMessage (`lib/doc_test/message/system_message.ex`)" in page
    assert "*Record* · Python `SystemMessage` · Elixir `DocTest.Message.SystemMessage`" in page
    assert "**Notes:** Always type system." in page
    assert "Unknown keys are rejected (`additionalProperties: false`)." in page
    assert "Unknown keys are kept in `extra`" in page
    assert '| `type: "system"` | `SystemMessage` | `DocTest.Message.SystemMessage` |' in page
    assert "*Alias* · Python `Names`" in page


def test_schema_prose_is_inert(page: str) -> None:
    assert "<script>" not in page
    assert "&lt;script&gt;" in page
    assert "\\_\\_init\\_\\_" in page
    assert "\\*stars\\*" in page
    assert "# Doc | test" in page.splitlines()[1]


def test_mermaid_diagram(page: str) -> None:
    block = page.split("```mermaid\n", 1)[1].split("```", 1)[0]
    assert block.startswith("classDiagram\n")
    assert '    class SystemMessage {\n        +type: "system"\n        +sessionId' not in block
    assert "        +session_id: str\n" in block
    assert "        +max_thinking_tokens: int | None\n" in block
    assert "    class Message {\n        <<union>>\n    }" in block
    assert (
        "    class PermissionMode {\n        <<enumeration>>\n        default\n        acceptEdits\n"
        in block
    )
    assert "    Message <|-- SystemMessage\n" in block
    assert "    SystemMessage --> PermissionMode : permission_mode\n" in block
    assert "{" not in "".join(line for line in block.splitlines() if line.startswith("        "))


def test_index_links_every_module(module: ir.Module) -> None:
    [output] = docs.render_index((module,), make_env())
    assert output.path == "docs/index.md"
    assert (
        "| [docsample](docsample.md) | Doc \\| test | 6 (2 records, 2 enums, 1 union, 1 alias) | `DocTest` | `schema/docsample.yaml` |"
        in output.text
    )


def test_generated_pages_exist_for_every_module() -> None:
    index = (REPO / "generated" / "docs" / "index.md").read_text(encoding="utf-8")
    for schema in sorted((REPO / "schema").glob("*.yaml")):
        assert f"]({schema.stem}.md)" in index
        assert (REPO / "generated" / "docs" / f"{schema.stem}.md").is_file()


# --- filters ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a | b", "a \\| b"),
        ("one\ntwo", "one<br>two"),
        ("<b>bold</b>", "&lt;b&gt;bold&lt;/b&gt;"),
        ("`a|b` c_d", "`a\\|b` c\\_d"),
        ("back\\slash", "back\\\\slash"),
        ("[link](x)", "\\[link\\](x)"),
        ("nul\x00", "nul\\\\x00"),
    ],
)
def test_md_cell(text: str, expected: str) -> None:
    assert md_cell(text) == expected


def test_md_code_survives_backticks_and_pipes() -> None:
    assert md_code("a") == "`a`"
    assert md_code("a`b") == "``a`b``"
    assert md_code("`x`") == "`` `x` ``"
    assert md_code("a|b") == "`a\\|b`"
    assert md_code("a\nb") == "`a b`"


def test_md_text_cannot_start_blocks() -> None:
    assert (
        md_text("# not a heading\n- not a list\n1. not a list")
        == "\\# not a heading\n\\- not a list\n1\\. not a list"
    )


def test_mermaid_text_cannot_close_a_class() -> None:
    assert mermaid_text("+a: {x}\nb") == "+a: _x_ b"


def _chain_module(tmp_path: Path, count: int, scalars: int = 0) -> ir.Module:
    """`count` records, each with a field referring to the one before (an edge each) and
    `scalars` string fields more."""
    defs = {
        f"Node{index}": {
            "type": "object",
            "properties": {
                "previous": {"$ref": f"#/$defs/Node{max(index - 1, 0)}"},
                **{
                    f"someRatherLongFieldName{field}": {"type": "string"}
                    for field in range(scalars)
                },
            },
        }
        for index in range(count)
    }
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "x-polytype": {"module": "chain", "root": "Node0"},
        "$defs": defs,
    }
    path = tmp_path / "chain.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    document = load(path, "schema/chain.json")
    validate(document)
    return lower(document)


@pytest.mark.parametrize(
    ("count", "scalars", "reason"),
    [
        (501, 0, "501 edges (Mermaid draws at most 500)"),
        (300, 5, "characters (Mermaid draws at most 50,000)"),
    ],
)
def test_a_diagram_mermaid_would_refuse_is_a_sentence(
    tmp_path: Path, count: int, scalars: int, reason: str
) -> None:
    """Mermaid (and so GitHub) shows only an error for a diagram over 500 edges or 50,000
    characters: the page says why there is none, and the tables still describe every type."""
    [output] = docs.render(_chain_module(tmp_path, count, scalars), make_env())
    assert "```mermaid" not in output.text
    assert f"{count} types: too many for one Mermaid diagram (" in output.text
    assert reason in output.text
    assert f'<a id="type-node{count - 1}"></a>' in output.text


def test_a_diagram_within_mermaids_limits_is_drawn(tmp_path: Path) -> None:
    [output] = docs.render(_chain_module(tmp_path, 100), make_env())
    block = output.text.split("```mermaid\n", 1)[1].split("```", 1)[0]
    assert "    Node99 --> Node98 : previous\n" in block
    assert "too many for one Mermaid diagram" not in output.text

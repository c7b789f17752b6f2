"""Loading keeps positions; unreadable files become located diagnostics."""

from __future__ import annotations

from pathlib import Path

import pytest
from polytype.diagnostics import InputError, Position
from polytype.reading.loader import load


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_yaml_positions(tmp_path: Path) -> None:
    doc = load(
        write(
            tmp_path,
            "a.yaml",
            "$defs:\n  A:\n    type: object\n    properties:\n      x: {type: string}\n",
        )
    )
    assert doc.positions["/$defs/A"] == Position(2, 3)
    assert doc.positions["/$defs/A/properties/x/type"] == Position(5, 11)


def test_json_positions(tmp_path: Path) -> None:
    doc = load(
        write(
            tmp_path,
            "a.json",
            '{\n  "$defs": {\n    "A": {"type": "object", "enum": ["x", "y"]}\n  }\n}\n',
        )
    )
    assert doc.data["$defs"]["A"]["enum"] == ["x", "y"]
    assert doc.positions["/$defs/A"] == Position(3, 5)
    assert doc.positions["/$defs/A/enum/1"] == Position(3, 43)


@pytest.mark.parametrize(
    ("name", "content", "message", "position"),
    [
        ("dup.yaml", "a: 1\na: 2\n", "duplicate key", Position(2, 1)),
        ("dup.json", '{"a": 1, "a": 2}', "duplicate key 'a'", Position(1, 10)),
        ("bad.json", '{"a": [1, 2}', "expected ',' or ']'", Position(1, 12)),
        ("empty.yaml", "   \n", "file is empty", Position(1, 1)),
        ("bin.yaml", b"\x89PNG\r\n\x1a\n\x00\x00", "NUL bytes", Position(3, 1)),
        ("latin.yaml", b"a: caf\xe9\n", "not valid UTF-8", Position(1, 7)),
        ("list.yaml", "- 1\n- 2\n", "expected a schema object", Position(1, 1)),
        ("tab.yaml", "a:\n\tb: 1\n", "invalid YAML", Position(2, 1)),
    ],
)
def test_unreadable_files(
    tmp_path: Path, name: str, content: str | bytes, message: str, position: Position
) -> None:
    with pytest.raises(InputError) as raised:
        load(write(tmp_path, name, content))
    (diagnostic,) = raised.value.diagnostics
    assert message in diagnostic.message
    assert diagnostic.position == position


def test_deep_nesting_is_a_diagnostic(tmp_path: Path) -> None:
    deep = "{" + '"a": {' * 200 + "}" * 201
    with pytest.raises(InputError) as raised:
        load(write(tmp_path, "deep.json", deep))
    assert "nesting deeper than" in raised.value.diagnostics[0].message

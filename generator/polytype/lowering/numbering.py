"""Generous mode's numbering of names that collide once converted (`foo_bar`,
`foo_bar_2`): enum members and atoms, field names. Strict mode refuses them."""

from __future__ import annotations

from dataclasses import replace

from polytype import ir


def numbered_fields(fields: list[ir.Field]) -> list[ir.Field]:
    """`fields`, where a Python or Elixir field name an earlier field already took is
    numbered (`foo_bar`, `foo_bar_2`): keys such as 'foo\\tbar' and 'foo\\nbar' that
    spell the same name once converted (generous mode; strict mode refuses them). A
    number never takes a name another field spells itself."""
    renamed = {
        attribute: _numbered_names([getattr(item, attribute) for item in fields])
        for attribute in ("py_name", "ex_name")
    }
    return [
        replace(item, py_name=renamed["py_name"][index], ex_name=renamed["ex_name"][index])
        for index, item in enumerate(fields)
    ]


def _numbered_names(names: list[str]) -> list[str]:
    """`names` with each repeat numbered, avoiding every name in the list."""
    taken = dict.fromkeys(names, "")
    claimed: set[str] = set()
    result: list[str] = []
    for name in names:
        if name in claimed:
            name = numbered(name, taken)
            taken[name] = ""
        claimed.add(name)
        result.append(name)
    return result


def numbered(name: str, taken: dict[str, str]) -> str:
    """`name`, or `name_2`, `name_3`, ... : the first that is not taken."""
    number, candidate = 1, name
    while candidate in taken:
        number += 1
        candidate = f"{name}_{number}"
    return candidate

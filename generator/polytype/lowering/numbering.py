"""Generous mode's numbering of names that collide once converted (`foo_bar`,
`foo_bar_2`): enum members and atoms, field names. Strict mode refuses them."""

from __future__ import annotations

from dataclasses import replace

from polytype import ir, naming


def numbered_fields(fields: list[ir.Field]) -> list[ir.Field]:
    """`fields`, where a Python or Elixir field name an earlier field already took is
    numbered (`foo_bar`, `foo_bar_2`): keys such as 'foo\\tbar' and 'foo\\nbar' that
    spell the same name once converted (generous mode; strict mode refuses them). A
    number never takes a name another field spells itself."""
    renamed = {
        attribute: naming.numbered_repeats([getattr(item, attribute) for item in fields])
        for attribute in ("py_name", "ex_name")
    }
    return [
        replace(item, py_name=renamed["py_name"][index], ex_name=renamed["ex_name"][index])
        for index, item in enumerate(fields)
    ]

"""The passes of lowering that follow the build.

`polytype.lowering.lower` builds the module's named types from the schema (records, enums,
aliases, hoisted inline types, unions as their members), each kind in a module of its
own (`lower_records`, `lower_enums`, `lower_unions`, `lower_inline`, on the shared
`lowering_state`). Then, each pass a function of
frozen IR values that returns new values and the problems it found, as
`(JSON pointer, message)`:

1. `union_dispatch`: how each union finds a value's member (tag, JSON type and keys,
   or trying each member as oneOf/anyOf say);
2. `module_checks`: the structure of the module as a whole (names that collide once
   converted, cycles of aliases and unions, types no finite value has);
3. `python_names`: every type gets a Python name that shadows nothing (the schema's
   own name is kept beside it), and fields the Python namer could not unshadow are
   refused;
4. `module_checks` again for what the targets' names allow (Elixir modules, lengths).

The IR keeps the schema's names (keys, enum values, `x-field`, `x-elixir`); each target's
namer (`targets.python.names`, `targets.elixir.names`) derives its own. Lowering refuses,
with located errors, what those names would make impossible, by the same rules
(`polytype.naming`).

`json_types` answers, for any of these, which JSON types a value of a type can have.
"""

from __future__ import annotations

from typing import TypeAlias

# A problem found by a pass: the JSON pointer it is about, and what is wrong there.
Problem: TypeAlias = tuple[str, str]

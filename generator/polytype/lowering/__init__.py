"""The passes of lowering that follow the build.

`polytype.lowering.lower` builds the module's named types from the schema (records, enums,
aliases, hoisted inline types, unions as their members), each kind in a module of its
own (`lower_records`, `lower_enums`, `lower_unions`, `lower_inline`, on the shared
`lowering_state`). Then, each pass a function of
frozen IR values that returns new values and the problems it found, as
`(JSON pointer, message)`:

1. `union_dispatch`: how each union finds a value's member (tag, JSON type and keys,
   or trying each member as oneOf/anyOf say);
2. `module_checks`: the structure of the module as a whole (cycles of aliases and
   unions, types no finite value has, names too long for a file);
3. `long_names` (a consumed schema only): over-long type names shortened.

The IR keeps the schema's names (type names, keys, enum values, `x-field`, `x-elixir`);
each target's namer (`targets.python.names`, `targets.elixir.names`) derives its own and
checks what its spelling makes impossible. Lowering runs the checks it is given
(`name_checks`, `NameCheck`: the caller passes `targets.name_checks()`) on the module it
built and reports their located problems with its own, so approximation sees them too.

`json_types` answers, for any of these, which JSON types a value of a type can have.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeAlias

from polytype import ir
from polytype.diagnostics import NameProblems

# A problem found by a pass: the JSON pointer it is about, and what is wrong there.
Problem: TypeAlias = tuple[str, str]

# A target namer's check of the module built (`targets.base.NameCheck`): given the module,
# where each type was written and whether the schema is consumed, what it finds.
NameCheck: TypeAlias = Callable[[ir.Module, Mapping[str, str], bool], NameProblems]

"""The dataclass flavor's codecs: the shared decoders (`python.codecs`) plus the
encoders that write a decoded value back as JSON data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import assert_never

from polytype import ir
from polytype.targets.base.helper_names import function_suffix
from polytype.targets.python.codecs import Codecs
from polytype.targets.python.literal_types import literal_classes
from polytype.targets.python.snippet_views import HelperView


def enum_encoding(enum: ir.EnumType, expression: str) -> str:
    """The JSON string of an enum value: `.value` of a member and of an open enum's
    Unknown<Enum>; a `Literal` enum's value is the string itself."""
    if enum.style != "literal":
        return f"{expression}.value"
    if enum.unknown is None:
        return expression
    return f"{expression} if isinstance({expression}, str) else {expression}.value"


@dataclass
class DataclassCodecs(Codecs):
    """The shared decoding rules plus the dataclass flavor's encoders."""

    _aliases_in_progress: set[str] = field(default_factory=set)

    # encoders ----------------------------------------------------------

    def encode(self, type_ref: ir.TypeRef, expression: str, depth: int = 0) -> str:
        """An expression turning `expression` (a Python value of `type_ref`) into JSON data."""
        match type_ref:
            case ir.Prim() | ir.LiteralValue() | ir.JsonLiterals() | ir.AnyJSON():
                return expression
            case ir.Ref():
                named = self.named(type_ref.name)
                match named:
                    case ir.Record():
                        return f"{expression}.to_dict()"
                    case ir.EnumType():
                        return enum_encoding(named, expression)
                    case ir.Alias() if self._alias_encodes_as_is(named):
                        return expression
                    case ir.UnionType() if self.union_of_records(named):
                        # its encoder would only call this: one call per value, not two
                        return f"{expression}.to_dict()"
                    case ir.UnionType() | ir.Alias():
                        return f"encode_{function_suffix(named.name)}({expression})"
                    case _ as unreachable:
                        assert_never(unreachable)
            case ir.ListOf():
                item = f"item{depth}"
                inner = self.encode(type_ref.item, item, depth + 1)
                if inner == item:
                    return f"list({expression})"
                return f"[{inner} for {item} in {expression}]"
            case ir.TupleOf():
                return f"{self.tuple_encoder(type_ref)}({expression})"
            case ir.MapOf():
                item = f"value{depth}"
                inner = self.encode(type_ref.value, item, depth + 1)
                if inner == item:
                    return f"dict({expression})"
                return f"{{key{depth}: {inner} for key{depth}, {item} in {expression}.items()}}"
            case ir.Nullable():
                inner = self.encode(type_ref.inner, expression, depth)
                if inner == expression:
                    return expression
                return f"None if {expression} is None else {inner}"
            case ir.Checked():  # the value decoded is the inner type's
                return self.encode(type_ref.inner, expression, depth)
            case ir.InlineUnion():
                return f"{self.inline_union_encoder(type_ref)}({expression})"
            case _ as unreachable:
                assert_never(unreachable)

    def union_of_records(self, union: ir.UnionType) -> bool:
        """Whether every member of `union` is a record, or a union of records: a value of
        it (its unknown member's too) is encoded by its own `to_dict()`."""
        return all(self._all_records(member) for member in union.members)

    def _all_records(self, name: str) -> bool:
        named = self.named(name)
        if isinstance(named, ir.Record):
            return True
        if isinstance(named, ir.UnionType):
            return all(self._all_records(member) for member in named.members)
        return False

    def _alias_encodes_as_is(self, alias: ir.Alias) -> bool:
        """Whether the alias's values are already JSON data (its encoder is the identity).

        An alias that contains itself (`L = list[L]`) is asked again while its own answer
        is being worked out; it then counts as needing its encoder, which terminates.
        """
        if alias.name in self._aliases_in_progress:
            return False
        self._aliases_in_progress.add(alias.name)
        try:
            return self.encode(alias.type, "x") == "x"
        finally:
            self._aliases_in_progress.discard(alias.name)

    def inline_union_encoder(self, union: ir.InlineUnion) -> str:
        name = f"_e_{self.type_key(union)}"
        if name in self.helpers:
            return name
        signature = f"def {name}(value: {self.annotation(union)}) -> JSONValue:"
        self.helpers[name] = HelperView(name, signature, ())
        lines: list[str] = []
        ordered = sorted(union.options, key=self._isinstance_priority)
        for index, option in enumerate(ordered):
            encoded = self.encode(option, "value", 1)
            if index == len(ordered) - 1:
                lines.append(f"return {encoded}")
            else:
                lines.append(f"if isinstance(value, {self.python_classes(option)}):")
                lines.append(f"    return {encoded}")
        self.helpers[name] = HelperView(name, signature, tuple(lines))
        return name

    def tuple_encoder(self, node: ir.TupleOf) -> str:
        """A helper writing a tuple back as a JSON list, each item by its position's type."""
        name = f"_e_{self.type_key(node)}"
        if name in self.helpers:
            return name
        signature = f"def {name}(value: {self.annotation(node)}) -> JSONValue:"
        self.helpers[name] = HelperView(name, signature, ())
        # items as `object`: each is cast to its position's type, whatever the tuple's type
        lines = [
            "encoded: list[JSONValue] = []",
            "items: tuple[object, ...] = value",
            "for index, item in enumerate(items):",
        ]
        branches = [(f"index == {index}", item) for index, item in enumerate(node.prefix)]
        if node.rest is not None:
            branches.append(("", node.rest))
        indent = "    " if len(branches) == 1 else "        "  # one position: no test needed
        for number, (test, item_type) in enumerate(branches):
            if len(branches) > 1:
                last = number == len(branches) - 1
                lines.append(
                    "    else:" if last else f"    {'if' if number == 0 else 'elif'} {test}:"
                )
            # a variable per position (a cast expression is not narrowed by `is None`)
            typed = f"item{number}"
            lines.append(f"{indent}{typed} = cast({self.evaluated_annotation(item_type)}, item)")
            lines.append(f"{indent}encoded.append({self.encode(item_type, typed, 1)})")
        lines.append("return encoded")
        self.helpers[name] = HelperView(name, signature, tuple(lines))
        return name

    def _isinstance_priority(self, type_ref: ir.TypeRef) -> int:
        # bool before int before float; enums (str subclasses) before str
        if isinstance(type_ref, ir.Ref):
            return 0
        if isinstance(type_ref, ir.Prim):
            return {"bool": 1, "int": 2, "float": 3, "str": 4}[type_ref.kind]
        return 6 if self.python_classes(type_ref) == "object" else 5

    def python_classes(self, type_ref: ir.TypeRef) -> str:
        """The `isinstance` class (or tuple of classes) of a decoded `type_ref` value;
        `object` when any value may be one (free-form JSON): such a check goes last."""
        classes = self._classes(type_ref)
        if "object" in classes:
            return "object"
        unique = list(dict.fromkeys(classes))
        return unique[0] if len(unique) == 1 else "(" + ", ".join(unique) + ")"

    def _classes(self, type_ref: ir.TypeRef) -> list[str]:
        match type_ref:
            case ir.Prim():
                return {
                    "str": ["str"],
                    "int": ["int"],
                    "float": ["int", "float"],
                    "bool": ["bool"],
                }[type_ref.kind]
            case ir.ListOf():
                return ["tuple" if type_ref.as_tuple else "list"]
            case ir.TupleOf():
                return ["tuple"]
            case ir.MapOf():
                return ["dict"]
            case ir.AnyJSON():
                return ["dict"] if type_ref.object_only else ["object"]
            case ir.LiteralValue():
                return [type(type_ref.value).__name__]
            case ir.JsonLiterals():
                return literal_classes(type_ref)
            case ir.Nullable():
                return ["type(None)", *self._classes(type_ref.inner)]
            case ir.InlineUnion():
                return [name for option in type_ref.options for name in self._classes(option)]
            case ir.Checked():
                return self._classes(type_ref.inner)
            case ir.Ref():
                named = self.named(type_ref.name)
                match named:
                    case ir.UnionType():
                        classes = [
                            name
                            for member in named.members
                            for name in self._classes(ir.Ref(member))
                        ]
                        return classes + ([named.unknown] if named.unknown else [])
                    case ir.Alias():
                        return self._classes(named.type)
                    case ir.EnumType():
                        listed = ["str"] if named.style == "literal" else [named.name]
                        return listed + ([named.unknown] if named.unknown else [])
                    case ir.Record():
                        return [named.name]
                    case _ as unreachable:
                        assert_never(unreachable)
            case _ as unreachable:
                assert_never(unreachable)

"""Check a JSON value against the wire schema of one of a module's types, with jsonschema.

The type's schema is found where the type came from (its `SourceRef`: file and JSON
pointer as written), not by its name: a consumed schema's types are named by lowering
(the root after its `title`, inline types after their place, definitions in PascalCase),
and a name is no pointer into the document. References in the document resolve as
polytype resolves them: within the file, to files beside it, and through the project's
`ref-map`; nothing is fetched from the network.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urlparse

import jsonschema
import referencing
import referencing.exceptions
import referencing.jsonschema
from jsonschema.exceptions import ValidationError

from polytype import ir
from polytype.diagnostics import InputError
from polytype.project.export import wire_schema
from polytype.reading.loader import Document, load


class WireCheck:
    """One jsonschema validator per type of `document`'s module, on the wire schema
    (x-aliases spelled out, open unions and enums as the project keeps them)."""

    def __init__(
        self,
        module: ir.Module,
        document: Document,
        ref_map: Mapping[str, Path],
        unknown_tags: str = "reject",
        unknown_enum_values: str = "reject",
    ) -> None:
        self.module = module
        self.document = document
        self.ref_map = dict(ref_map)
        data = document.data if isinstance(document.data, dict) else {}
        self.exported = wire_schema(data, None, unknown_tags, unknown_enum_values)
        self.uri = document.path.resolve().as_uri()
        self.default = referencing.jsonschema.specification_with(
            str(self.exported.get("$schema", "")), default=referencing.jsonschema.DRAFT202012
        )
        main = self.default.create_resource(self.exported)
        resources = [(self.uri, main)] + ([(main.id() or "", main)] if main.id() else [])
        self.registry: referencing.Registry[Any] = referencing.Registry(
            retrieve=self._retrieve  # type: ignore[call-arg]
        ).with_resources(resources)
        self.cache: dict[str, jsonschema.protocols.Validator] = {}

    def problem(self, type_name: str, value: Any) -> ValidationError | str | None:
        """The best error of `value` as a `type_name`, or why it cannot be checked."""
        validator = self.cache.get(type_name)
        if validator is None:
            validator = self.cache[type_name] = self._validator(type_name)
        try:
            error: ValidationError | None = jsonschema.exceptions.best_match(
                validator.iter_errors(value)
            )
        except referencing.exceptions.Unresolvable as error:
            return (
                f"cannot be checked against the schema: {_unresolvable(error)} does not "
                "resolve (map its URL to a local directory with [tool.polytype] ref-map)"
            )
        return error

    def _validator(self, type_name: str) -> jsonschema.protocols.Validator:
        named = self.module.types_by_name.get(type_name)
        source = named.source if named is not None else None
        if source is None:  # a type of polytype's own dialect, named by its definition
            schema = wire_schema(self.exported, type_name)
        else:
            # a file a reference led to is shown relative to the schema's directory
            path = (
                self.document.path
                if source.file == self.document.display_path
                else self.document.path.parent / source.file
            )
            uri = path.resolve().as_uri()
            schema = {"$ref": f"{uri}#{source.pointer}"}
            if "$schema" in self.exported:
                schema = {"$schema": self.exported["$schema"], **schema}
        validator_class = jsonschema.validators.validator_for(
            self.exported, default=jsonschema.Draft202012Validator
        )
        return validator_class(schema, registry=self.registry)

    def _retrieve(self, uri: str) -> referencing.Resource[Any]:
        path = self._local(uri)
        if path is None:
            raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]
        try:
            data = load(path, path.as_posix()).data
        except InputError:
            raise referencing.exceptions.NoSuchResource(ref=uri) from None  # type: ignore[call-arg]
        return referencing.jsonschema.specification_with(
            str(data.get("$schema", "")) if isinstance(data, dict) else "", default=self.default
        ).create_resource(data)

    def _local(self, uri: str) -> Path | None:
        url = urldefrag(uri).url
        parsed = urlparse(url)
        if parsed.scheme == "file":
            path = Path(unquote(parsed.path))
            return path if path.is_file() else None
        for prefix, directory in sorted(self.ref_map.items(), key=lambda item: -len(item[0])):
            if url.startswith(prefix):
                candidate = directory / unquote(url[len(prefix) :].lstrip("/"))
                return candidate if candidate.is_file() else None
        return None


def _unresolvable(error: referencing.exceptions.Unresolvable) -> str:
    return repr(getattr(error, "ref", str(error)))

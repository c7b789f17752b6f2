"""Resolve every `$ref` and bundle what it reaches into one document's `$defs`.

Lowering understands one kind of reference: `#/$defs/Name`, a whole top-level
definition. Published schemas use every kind: `#`, interior pointers, `$anchor`s,
`$id`-based URIs, other files (`common.json#/$defs/X`), absolute URLs. This stage
resolves each with `referencing` (never a hand-written resolver) and rewrites the
document so that every reference target is a top-level definition:

- a target that already is one keeps its name (made an identifier if it is not one:
  `Vector2<number>` → `Vector2Number`);
- any other target (the root, an interior schema, a schema in another file) becomes a
  definition named after its place, and its original place refers to it;
- the root's own type becomes the definition named by `title` (else the file name)
  and `x-polytype: root` names it.

Where references lead outside the file: relative and `file:` URIs are read from disk;
an absolute URL is looked up in the `ref-map` (URL prefix → local directory), then
among the files beside the schema whose `$id` it is. Nothing is fetched from the network.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin, urlparse

from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource, Unresolvable
from referencing.jsonschema import DRAFT202012

from polytype import naming
from polytype.diagnostics import Diagnostic, InputError, join_pointer
from polytype.dialect.keywords import root_type_name, says_something
from polytype.frontend.drafts import (
    POINTER_KEYWORDS,
    SCHEMA_LISTS,
    SCHEMA_MAPS,
    SINGLE_SCHEMA,
    draft_of,
    name_key,
    normalise,
)
from polytype.frontend.sanitise import sanitise
from polytype.reading.loader import Document, Origin, load

DEFINITION_KEYS = ("$defs", "definitions")
# Root keywords that describe the document rather than the root type.
# Keywords resolution has used up: dropped from the bundled copies.
_RESOLVED_KEYS = frozenset(
    {"$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$schema", "$vocabulary",
     "$defs", "definitions"}
)  # fmt: skip
# Local files a lookup by `$id` reads at most (a guard against a schema beside a huge tree).
MAX_SCANNED_FILES = 2000


@dataclass(frozen=True)
class Bundled:
    """The rewritten document (its origins lead back to what was written) and the
    warnings resolution produced."""

    document: Document
    warnings: tuple[Diagnostic, ...]
    # every other file a reference led to, as read
    sources: tuple[Document, ...] = ()


@dataclass
class _Resource:
    document: Document
    data: Any  # normalised
    moves: dict[str, str]
    uri: str


@dataclass
class _Place:
    resource: _Resource
    pointer: str  # in the normalised data
    base: str  # base URI in effect at the node


# The `$id`s of the schema files of a directory (`_Bundler._ids`), by directory: the
# schemas one build reads share it, where each would read every file of it again.
IdScans = dict[Path, dict[str, Path]]


def bundle(
    document: Document, ref_map: Mapping[str, Path] | None = None, scans: IdScans | None = None
) -> Bundled:
    """`document` with every reference resolved into its own `$defs` (see the module docs).
    `scans`: the directories' `$id`s found so far, shared by the calls of one build."""
    return _Bundler(document, dict(ref_map or {}), scans=scans if scans is not None else {}).run()


def file_uri(path: Path) -> str:
    return path.resolve().as_uri()


@dataclass
class _Bundler:
    document: Document
    ref_map: dict[str, Path]
    problems: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    places: dict[int, _Place] = field(default_factory=dict)
    resources: dict[str, _Resource] = field(default_factory=dict)
    by_path: dict[Path, _Resource] = field(default_factory=dict)
    # target node id -> definition name, in discovery order
    names: dict[int, str] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    # (resource uri, pointer of a $ref) -> target node id (None: unresolvable)
    targets: dict[tuple[int, str], int | None] = field(default_factory=dict)
    # (resource, pointer) of each reference to the schema `false`
    rejecting: set[tuple[int, str]] = field(default_factory=set)
    scans: IdScans = field(default_factory=dict)
    # per resource (by id of its data): its subschemas by their `$id`, first one first
    declared: dict[int, dict[str, Any]] = field(default_factory=dict)
    root_name: str = ""
    # every object in the resources (schema or not) by id, for targets no keyword reaches
    anywhere: dict[int, tuple[_Resource, str]] = field(default_factory=dict)
    indexed: set[str] = field(default_factory=set)
    # targets found only there: their references are collected from them
    located: set[int] = field(default_factory=set)

    def run(self) -> Bundled:
        main = self._add(self.document, self._base_of(self.document))
        registry: Registry[Any] = Registry(retrieve=self._retrieve).with_resources(  # type: ignore[call-arg]
            (r.uri, DRAFT202012.create_resource(r.data)) for r in self.resources.values()
        )
        try:
            self.registry = registry.crawl()
        except Exception:  # noqa: BLE001 - odd values where schemas belong: resolve lazily
            self.registry = registry
        root = main.data if isinstance(main.data, dict) else {}
        root_name = self._root_name(root)
        if root_name is not None:
            root_name = self._name(root, root_name)
        self.root_name = root_name or ""
        # the main document's definitions keep their names (made identifiers)
        for key in DEFINITION_KEYS:
            definitions = root.get(key)
            if definitions is not None and not isinstance(definitions, dict):
                message = f"{key} must be an object of named schemas"
                raise InputError([self.document.diagnostic(f"/{key}", message)])
            for name, schema in (definitions or {}).items():
                if isinstance(schema, dict):
                    self._name(schema, _identifier(name))
        self._collect(main, root)
        if self.problems:
            raise InputError(self.problems)
        sources = tuple(
            resource.document for resource in self.by_path.values() if resource is not main
        )
        return Bundled(self._assemble(main, root, root_name), tuple(self.warnings), sources)

    # -- resources -----------------------------------------------------------

    def _base_of(self, document: Document) -> str:
        uri = file_uri(document.path)
        declared = document.data.get("$id") if isinstance(document.data, dict) else None
        if (
            declared is None
            and isinstance(document.data, dict)
            and draft_of(document.data) == "draft-04"
        ):
            declared = document.data.get("id")
        if isinstance(declared, str):
            return _joined(uri, declared)
        return uri

    def _add(self, document: Document, uri: str) -> _Resource:
        normalised = normalise(document.data, draft_of(document.data))
        sane = sanitise(normalised.data)
        for pointer, message in sane.dropped:
            self.warnings.append(document.warning(_written(normalised.moves, pointer), message))
        resource = _Resource(document, sane.data, normalised.moves, uri)
        self.resources[uri] = resource
        self.by_path[document.path.resolve()] = resource
        for pointer, node, base in _walk(sane.data, "", uri):
            self.places.setdefault(id(node), _Place(resource, pointer, base))
        return resource

    def _retrieve(self, uri: str) -> Resource[Any]:
        path = self._local_path(uri)
        if path is None:
            raise NoSuchResource(ref=uri)  # type: ignore[call-arg]
        resource = self.by_path.get(path.resolve())
        if resource is None:
            try:
                loaded = load(path, _display(path, self.document))
            except InputError as error:
                self.problems.extend(error.diagnostics)
                raise NoSuchResource(ref=uri) from None  # type: ignore[call-arg]
            embedded = (
                uri.rstrip("#") in set(_embedded_ids(loaded.data))
                if isinstance(loaded.data, dict)
                else False
            )
            resource = self._add(loaded, self._base_of(loaded) if embedded else uri)
        # an `$id` inside the file (bowtie's models declare one per property)
        inside = self.declared.get(id(resource.data))
        if inside is None:
            inside = self.declared[id(resource.data)] = _declared_ids(resource.data)
        return DRAFT202012.create_resource(inside.get(uri.rstrip("#"), resource.data))

    def _local_path(self, uri: str) -> Path | None:
        parsed = urlparse(uri)
        if parsed.scheme == "file":
            path = Path(unquote(parsed.path))
            return path if path.is_file() else None
        for prefix, directory in sorted(self.ref_map.items(), key=lambda item: -len(item[0])):
            if uri.startswith(prefix):
                candidate = directory / unquote(uri[len(prefix) :].lstrip("/"))
                if candidate.is_file():
                    return candidate
                break  # a longer URI than a mapped file's (an `$id` inside it): scanned
        return self._ids().get(uri.rstrip("#"))

    def _ids(self) -> dict[str, Path]:
        """The `$id` of every schema file beside the main one (read once a build, lazily)."""
        top = self.document.path.resolve().parent
        scanned = self.scans.get(top)
        if scanned is None:
            scanned = self.scans[top] = _scan_ids(top)
        return scanned

    # -- references ----------------------------------------------------------

    def _collect(self, main: _Resource, root: dict[str, Any]) -> None:
        """Resolve every reference reachable from the main document, naming each target."""
        pending: list[_Resource | tuple[_Resource, int]] = [main]
        walked: set[int] = set()
        while pending:
            item = pending.pop()
            if isinstance(item, _Resource):
                start_node, place = item.data, _Place(item, "", item.uri)
            else:
                resource, node_id = item
                place = self.places[node_id]
                start_node = _at(place.resource.data, place.pointer)
            if id(start_node) in walked:
                continue
            walked.add(id(start_node))
            for pointer, node, base in _walk(start_node, place.pointer, place.base):
                ref = node.get("$ref", node.get("$dynamicRef"))
                if not isinstance(ref, str):
                    continue
                target = self._resolve(place.resource, pointer, ref, base, node)
                self.targets[(id(place.resource), pointer)] = target
                if target is not None and target not in self.names:
                    self._name(self._node(target), self._derived_name(target))
                    if self.places[target].resource is not main or target in self.located:
                        pending.append((self.places[target].resource, target))

    def _resolve(
        self, resource: _Resource, pointer: str, ref: str, base: str, node: dict[str, Any]
    ) -> int | None:
        where = resource.document
        written = _written(resource.moves, join_pointer(pointer, "$ref"))
        if "$dynamicRef" in node and "$ref" not in node:
            self.warnings.append(
                where.warning(
                    written.replace("$ref", "$dynamicRef"),
                    f"$dynamicRef {ref!r} is resolved statically, to the schema it names in "
                    "this document (extensions that re-point it are not followed)",
                )
            )
        try:
            resolved = self.registry.resolver(base_uri=base).lookup(ref)
        except (AttributeError, TypeError) as error:
            # referencing crawls the whole document and trips on a value that is neither an
            # object nor a boolean where a schema belongs (`additionalProperties: 5`)
            raise InputError(
                [
                    where.diagnostic(
                        written,
                        f"cannot resolve {ref!r}: a value where a schema "
                        f"belongs is not a schema ({error})",
                    )
                ]
            ) from None
        except (Unresolvable, NoSuchResource, ValueError) as error:
            self.warnings.append(
                where.warning(
                    written,
                    f"cannot resolve {ref!r} ({type(error).__name__}): the value there is typed "
                    "as free-form JSON; map its URL to a local directory with "
                    "[tool.polytype] ref-map",
                )
            )
            return None
        contents = resolved.contents
        if contents is False:
            self.rejecting.add((id(resource), pointer))
        if id(contents) not in self.places and isinstance(contents, dict):
            self._locate(contents)
        if id(contents) not in self.places:
            if not isinstance(contents, bool):
                self.warnings.append(
                    where.warning(
                        written,
                        f"cannot resolve {ref!r}: it points at a value that is not a schema "
                        f"({type(contents).__name__}); the value there is typed as "
                        "free-form JSON",
                    )
                )
            return None  # `true`: free-form JSON by its own schema
        return id(contents)

    def _locate(self, node: dict[str, Any]) -> None:
        """Make `node`, a schema reached under a key that is no keyword
        (`#/definitions/x/full`, where `x` holds schemas under names of its own), a place:
        every validator resolves such a pointer."""
        for resource in list(self.resources.values()):
            if resource.uri not in self.indexed:
                self.indexed.add(resource.uri)
                for pointer, value in _every_object(resource.data, ""):
                    self.anywhere.setdefault(id(value), (resource, pointer))
        found = self.anywhere.get(id(node))
        if found is None:
            return
        resource, pointer = found
        for here, child, base in _walk(node, pointer, resource.uri):
            self.places.setdefault(id(child), _Place(resource, here, base))
        self.located.add(id(node))

    def _node(self, node_id: int) -> Any:
        place = self.places[node_id]
        return _at(place.resource.data, place.pointer)

    def _name(self, node: Any, wanted: str) -> str:
        if id(node) in self.names:
            return self.names[id(node)]
        name = wanted or "Type"
        number = 1
        while name_key(name) in self.used:
            number += 1
            name = f"{wanted}{number}"
        self.used.add(name_key(name))
        self.names[id(node)] = name
        return name

    def _derived_name(self, node_id: int) -> str:
        """A name for a reference target from its place: its definition name, its
        file's title or name, or its owner's name and the path from there
        (`/$defs/Scene/properties/size` → `SceneSize`)."""
        place = self.places[node_id]
        node = self._node(node_id)
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in place.pointer.split("/")[1:]]
        if not tokens:
            title = node.get("title") if isinstance(node, dict) else None
            stem = place.resource.document.path.name.split(".")[0]
            return (
                naming.pascal_case(str(title) if isinstance(title, str) and title else stem) or "T"
            )
        if len(tokens) >= 2 and tokens[-2] in DEFINITION_KEYS:
            return _identifier(tokens[-1])
        owner = ""
        if len(tokens) >= 2 and tokens[0] in DEFINITION_KEYS:
            owner, tokens = _identifier(tokens[1]), tokens[2:]
        elif place.resource.document is self.document and self.root_name:
            owner = self.root_name
        words = [t for t in tokens if t not in POINTER_KEYWORDS and not t.isdigit()]
        return _identifier(owner + "".join(naming.pascal_case(word) for word in words) or "T")

    def _root_name(self, root: dict[str, Any]) -> str | None:
        if not says_something(root):
            return None
        options = root.get("x-polytype")
        if isinstance(options, dict) and isinstance(options.get("root"), str):
            return str(options["root"])
        return root_type_name(root, self.document.path)

    # -- the rewritten document ---------------------------------------------

    def _assemble(self, main: _Resource, root: dict[str, Any], root_name: str | None) -> Document:
        out: dict[str, Any] = {
            key: root[key] for key in ("$schema", "title", "description", "$comment") if key in root
        }
        options = (
            dict(root.get("x-polytype") or {}) if isinstance(root.get("x-polytype"), dict) else {}
        )
        definitions: dict[str, Any] = {}
        origins: dict[str, Origin] = {"": _origin(main, "")}
        # definitions in the order they were written, the root's type after them (where
        # lowering puts a titled root), then what references reached elsewhere
        here = [i for i in self.names if self.places[i].resource is main and i != id(root)]
        order = here + [id(root)] * (id(root) in self.names)
        order += [i for i in self.names if i not in order]
        for node_id in order:
            name = self.names[node_id]
            place = self.places[node_id]
            definitions[name] = self._copy(
                place.resource, _at(place.resource.data, place.pointer), place.pointer, top=True
            )
            origins[f"/$defs/{name}"] = _origin(place.resource, place.pointer)
        if root_name is not None:
            options.setdefault("root", root_name)
        if options:
            out["x-polytype"] = options
        for key in root:
            if key.startswith("x-") and key != "x-polytype":
                out[key] = root[key]
        out["$defs"] = definitions
        return Document(
            self.document.path,
            self.document.display_path,
            self.document.text,
            out,
            self.document.positions,
            origins,
        )

    def _copy(self, resource: _Resource, node: Any, pointer: str, top: bool = False) -> Any:
        """`node` with references rewritten to `#/$defs/Name` and nested targets replaced
        by references to their definitions."""
        if not isinstance(node, dict):
            return node
        if not top and id(node) in self.names:
            return {"$ref": f"#/$defs/{self.names[id(node)]}"}
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _RESOLVED_KEYS or (key == "x-polytype" and pointer == ""):
                continue
            if key in ("$ref", "$dynamicRef"):
                if "$ref" in out:
                    continue
                target = self.targets.get((id(resource), pointer))
                if (id(resource), pointer) in self.rejecting:
                    out["not"] = {}  # a reference to `false`: no value matches
                    continue
                if target is None:
                    continue  # unresolvable (warned) or `true`: no constraint from it
                out["$ref"] = f"#/$defs/{self.names[target]}"
                continue
            here = join_pointer(pointer, key)
            if key in SINGLE_SCHEMA:
                out[key] = self._copy(resource, value, here)
            elif key in SCHEMA_LISTS and isinstance(value, list):
                out[key] = [
                    self._copy(resource, item, join_pointer(here, index))
                    for index, item in enumerate(value)
                ]
            elif key in SCHEMA_MAPS and isinstance(value, dict):
                out[key] = {
                    name: self._copy(resource, child, join_pointer(here, name))
                    for name, child in value.items()
                }
            else:
                out[key] = value
        return out


def _origin(resource: _Resource, pointer: str) -> Origin:
    return Origin(
        resource.document.display_path, resource.document.positions, pointer, resource.moves
    )


def _written(moves: Mapping[str, str], pointer: str) -> str:
    """`pointer` of normalised data as the user wrote it (undoing draft renames)."""
    return Origin("", {}, "", moves).written(pointer)


def _identifier(text: str) -> str:
    """A type name for `text`: itself when it is an identifier, else its words in PascalCase."""
    if text and naming.ascii_identifier(text) == text and not text[0].isdigit():
        return text
    name = naming.pascal_case(text)
    if not name or not name[0].isalpha():
        name = "T" + name
    return name


def _joined(base: str, reference: str) -> str:
    """`reference` resolved against `base`, without its fragment (`base` when it is not a
    URI at all: the resolver then reports what cannot be found)."""
    try:
        return urldefrag(urljoin(base, reference)).url
    except ValueError:
        return base


def _display(path: Path, main: Document) -> str:
    try:
        return path.resolve().relative_to(main.path.resolve().parent).as_posix()
    except ValueError:
        return path.as_posix()


def _at(data: Any, pointer: str) -> Any:
    node = data
    for raw in pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def _scan_ids(top: Path) -> dict[str, Path]:
    """The `$id` of every JSON schema file under `top` (the first `MAX_SCANNED_FILES`
    schema files by path), then the absolute `$id`s inside them, each naming its file."""
    import json

    scanned: dict[str, Path] = {}
    nested: dict[str, Path] = {}
    files = [p for p in sorted(top.rglob("*")) if p.suffix in (".json", ".yaml", ".yml")]
    for path in files[:MAX_SCANNED_FILES]:
        if path.suffix != ".json":
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8-sig"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            for key in ("$id", "id"):
                if isinstance(data.get(key), str):
                    scanned.setdefault(urldefrag(data[key]).url.rstrip("#"), path)
            # absolute `$id`s inside the file name its subschemas (after the files')
            for embedded in _embedded_ids(data):
                nested.setdefault(embedded, path)
    for embedded, path in nested.items():
        scanned.setdefault(embedded, path)
    return scanned


def _declared_ids(data: Any) -> dict[str, Any]:
    """The subschemas of a resource's `data` (not its root) by their `$id` (without `#`),
    the first in walking order where several declare one."""
    found: dict[str, Any] = {}
    for pointer, node, _ in _walk(data, "", ""):
        declared = node.get("$id")
        if pointer and isinstance(declared, str):
            found.setdefault(declared.rstrip("#"), node)
    return found


def _embedded_ids(data: dict[str, Any]) -> Iterator[str]:
    """The absolute `$id`s of the subschemas of a file's data (not its own)."""
    for pointer, node, _ in _walk(data, "", ""):
        declared = node.get("$id")
        if pointer and isinstance(declared, str) and ":" in declared:
            yield urldefrag(declared).url.rstrip("#")


def _every_object(node: Any, pointer: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object under `node` (keyword or not) with its pointer."""
    stack: list[tuple[str, Any]] = [(pointer, node)]
    while stack:
        pointer, node = stack.pop()
        if isinstance(node, dict):
            yield pointer, node
            stack.extend((join_pointer(pointer, key), value) for key, value in node.items())
        elif isinstance(node, list):
            stack.extend((join_pointer(pointer, index), item) for index, item in enumerate(node))


def _walk(node: Any, pointer: str, base: str) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Every schema object under `node` with its pointer and base URI (`$id` changes it)."""
    stack: list[tuple[str, Any, str]] = [(pointer, node, base)]
    while stack:
        pointer, node, base = stack.pop()
        if not isinstance(node, dict):
            continue
        declared = node.get("$id")
        if isinstance(declared, str):
            base = _joined(base, declared)
        yield pointer, node, base
        children: list[tuple[str, Any, str]] = []
        for key, value in node.items():
            here = join_pointer(pointer, key)
            if key in SINGLE_SCHEMA:
                children.append((here, value, base))
            elif key in SCHEMA_LISTS and isinstance(value, list):
                children.extend((join_pointer(here, i), item, base) for i, item in enumerate(value))
            elif key in SCHEMA_MAPS and isinstance(value, dict):
                children.extend((join_pointer(here, k), item, base) for k, item in value.items())
        stack.extend(reversed(children))
